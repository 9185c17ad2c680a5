//! `LpChoice`: whether a run adds the LP relaxation of its model (`--lp auto|on|off`, Python's
//! `lp=`), and the rule `auto` follows ([`LpChoice::decide`]).

use csp::{LpRelaxation, Model, Objective, UnknownChoice};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Whether the LP relaxation is added to the search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum LpChoice {
    /// As the model suggests: see [`LpChoice::decide`].
    #[default]
    Auto,
    /// Whenever the model has linear constraints (within [`LP_MOST_ROWS`]).
    On,
    /// Never.
    Off,
}

/// The most rows `auto` gives an LP. The simplex keeps a dense basis inverse (rows squared),
/// and a pivot costs as much: past this the node LPs cost more than their bounds save.
pub const LP_AUTO_ROWS: usize = 400;

/// The most rows any LP takes, even asked for (`on`): 4,000 rows is a 128 MB basis inverse.
pub const LP_MOST_ROWS: usize = 4_000;

impl LpChoice {
    /// Each choice's name with its help line.
    pub const CHOICES: [(&'static str, &'static str); 3] = [
        (
            "auto",
            "in an optimisation whose objective is in its linear constraints (up to 400)",
        ),
        (
            "on",
            "whenever the model has linear constraints (up to 4,000)",
        ),
        ("off", "never"),
    ];
}

impl FromStr for LpChoice {
    type Err = UnknownChoice;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "auto" => Ok(LpChoice::Auto),
            "on" => Ok(LpChoice::On),
            "off" => Ok(LpChoice::Off),
            _ => Err(UnknownChoice {
                given: text.to_owned(),
                expected: "auto, on or off",
            }),
        }
    }
}

impl fmt::Display for LpChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LpChoice::Auto => "auto",
            LpChoice::On => "on",
            LpChoice::Off => "off",
        })
    }
}

/// What became of the LP for one model: added (its size), or why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LpDecision {
    /// Added, with this many rows and columns.
    Added {
        /// Rows: the model's linear constraints.
        rows: usize,
        /// Columns: the variables they name.
        columns: usize,
    },
    /// Not added, for this reason (in words).
    Left(&'static str),
}

impl fmt::Display for LpDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LpDecision::Added { rows, columns } => {
                write!(f, "an LP relaxation of {rows} rows and {columns} columns")
            }
            LpDecision::Left(why) => write!(f, "no LP relaxation: {why}"),
        }
    }
}

impl LpChoice {
    /// `model` with its LP relaxation added where this choice takes it (a copy sharing the
    /// constraints; the model itself otherwise), and what was decided.
    ///
    /// `auto` adds it to an optimisation whose objective lies in the linear rows (otherwise
    /// the LP bounds nothing) with at most [`LP_AUTO_ROWS`] rows; `on` to any model with linear
    /// rows, up to [`LP_MOST_ROWS`].
    pub fn decide<'m>(
        self,
        model: &'m Model,
        objective: Option<Objective>,
    ) -> (Cow<'m, Model>, LpDecision) {
        let left = |why| (Cow::Borrowed(model), LpDecision::Left(why));
        let most = match self {
            LpChoice::Off => return left("--lp off"),
            LpChoice::Auto if objective.is_none() => return left("no objective to bound"),
            LpChoice::Auto => LP_AUTO_ROWS,
            LpChoice::On => LP_MOST_ROWS,
        };
        let Some(lp) = LpRelaxation::of_model(model, objective) else {
            return left(match objective {
                Some(_) => "the objective is in no linear constraint",
                None => "no linear constraint",
            });
        };
        let (rows, columns) = lp.size();
        if rows > most {
            return left(match self {
                LpChoice::Auto => "more rows than auto takes (400)",
                _ => "more rows than an LP takes (4,000)",
            });
        }
        let mut relaxed = model.clone();
        match relaxed.post(lp) {
            Ok(_) => (Cow::Owned(relaxed), LpDecision::Added { rows, columns }),
            Err(_) => left("the relaxation could not be posted"),
        }
    }
}
