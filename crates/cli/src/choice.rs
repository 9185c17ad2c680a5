//! `EngineChoice`: `--inference`, `--var-order`, `--val-order` and `--lp` read through the
//! engine's (or the policy's) own names (their `FromStr`), their choices and help listed from
//! their `CHOICES`.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use csp::{Inference, ValueOrder, VarOrder};
use std::ffi::OsStr;
use std::marker::PhantomData;
use std::str::FromStr;

/// An engine setting chosen by name.
pub trait Named: FromStr + Clone + Send + Sync + 'static {
    /// Each name with its help line.
    const CHOICES: &'static [(&'static str, &'static str)];
}

impl Named for Inference {
    const CHOICES: &'static [(&'static str, &'static str)] = &Inference::CHOICES;
}

impl Named for VarOrder {
    const CHOICES: &'static [(&'static str, &'static str)] = &VarOrder::CHOICES;
}

impl Named for ValueOrder {
    const CHOICES: &'static [(&'static str, &'static str)] = &ValueOrder::CHOICES;
}

impl Named for csp_policy::LpChoice {
    const CHOICES: &'static [(&'static str, &'static str)] = &csp_policy::LpChoice::CHOICES;
}

/// clap's parser for a [`Named`] setting.
#[derive(Clone, Copy, Debug)]
pub struct EngineChoice<T>(PhantomData<T>);

impl<T> EngineChoice<T> {
    pub const fn new() -> Self {
        EngineChoice(PhantomData)
    }
}

impl<T: Named> EngineChoice<T> {
    fn values() -> impl Iterator<Item = PossibleValue> {
        T::CHOICES
            .iter()
            .map(|&(name, help)| PossibleValue::new(name).help(help))
    }
}

impl<T: Named> TypedValueParser for EngineChoice<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        if let Some(choice) = value.to_str().and_then(|name| name.parse().ok()) {
            return Ok(choice);
        }
        // Not a name the engine reads: clap's own message, listing the choices.
        match PossibleValuesParser::new(Self::values()).parse_ref(cmd, arg, value) {
            Err(error) => Err(error),
            Ok(_) => Err(clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd)),
        }
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Self::values()))
    }
}
