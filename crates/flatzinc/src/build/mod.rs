//! `Builder`: FlatZinc items into a `csp::Model`, with the search, the goal and the output the
//! items ask for.

//!
//! The builder reads as the items come: declarations (`declarations.rs`), the arguments
//! they and the constraints use (`arguments.rs`), constraints by family of builtins
//! (`builtins/`, one file per family as the XCSP3 reader has them) and the solve item
//! (`solve.rs`).

mod arguments;
mod builtins;
mod declarations;
mod solve;

use crate::ast::Item;
use crate::error::FznError;
use crate::fzn_model::{Elem, FznModel, Output};
use csp::Objective;
use csp::{Model, ModelError, Phase, VarId};
use rustc_hash::FxHashMap;

/// The values of a set: a range, kept as its bounds (a domain of a billion values costs no
/// more than one of ten), or a sorted list without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Values {
    Range(i64, i64),
    List(Vec<i64>),
}

impl Values {
    fn contains(&self, v: i64) -> bool {
        match self {
            Values::Range(low, high) => (*low..=*high).contains(&v),
            Values::List(values) => values.binary_search(&v).is_ok(),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Values::Range(low, high) => high < low,
            Values::List(values) => values.is_empty(),
        }
    }

    /// The values, listed; `None` for a range too long to list.
    fn listed(&self) -> Option<Vec<i64>> {
        match self {
            Values::Range(low, high) if high.saturating_sub(*low) < 1 << 24 => {
                Some((*low..=*high).collect())
            }
            Values::Range(..) => None,
            Values::List(values) => Some(values.clone()),
        }
    }
}

/// What a name stands for.
#[derive(Clone, Debug)]
enum Named {
    /// An integer or Boolean variable or parameter (Booleans as 0/1).
    Scalar(Elem),
    /// An array of them.
    Array(Vec<Elem>),
    /// A set parameter.
    Set(Values),
    /// An array of set parameters.
    SetArray(Vec<Values>),
    /// A float parameter or variable, or an array of them: refused where used.
    Float,
}

/// The most variables an array declared without a value may create.
const MAX_FRESH_ARRAY: i64 = 1 << 20;

/// How a builtin's name ends: enforced, reified (`_reif`) or half-reified (`_imp`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    Plain,
    Reif,
    Imp,
}

/// Builds a [`FznModel`] from items fed in order.
pub(crate) struct Builder {
    model: Model,
    /// Every declared name; FxHash, as a model names up to millions of things and SipHash
    /// was a fifth of the loading time.
    names: FxHashMap<String, Named>,
    constants: FxHashMap<i64, VarId>,
    outputs: Vec<Output>,
    objective: Option<Objective>,
    phases: Vec<Phase>,
    notes: Vec<String>,
    /// A variable fixed to a value outside its declared domain: no solution, whatever else.
    contradiction: Option<String>,
    solved: bool,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Builder {
            model: Model::new(),
            names: FxHashMap::default(),
            constants: FxHashMap::default(),
            outputs: Vec::new(),
            objective: None,
            phases: Vec::new(),
            notes: Vec::new(),
            contradiction: None,
            solved: false,
        }
    }

    pub(crate) fn finish(mut self, last_line: usize) -> Result<FznModel, FznError> {
        // In name order, as fzn-gecode prints them, so that the two outputs compare byte for
        // byte.
        self.outputs.sort_by(|a, b| a.name.cmp(&b.name));
        if !self.solved {
            return Err(FznError::on_line(
                last_line,
                "the model has no solve item".to_owned(),
            ));
        }
        Ok(FznModel {
            model: self.model,
            objective: self.objective,
            phases: self.phases,
            outputs: self.outputs,
            notes: self.notes,
            contradiction: self.contradiction,
        })
    }

    pub(crate) fn add(&mut self, item: Item, line: usize) -> Result<(), FznError> {
        if self.solved {
            return Err(FznError::on_line(
                line,
                "nothing may follow the solve item".to_owned(),
            ));
        }
        match item {
            Item::Predicate { .. } => Ok(()),
            Item::Decl {
                ty,
                name,
                annotations,
                value,
            } => self.decl(ty, name, &annotations, value, line),
            Item::Constraint {
                name,
                args,
                annotations,
            } => match self.constraint(&name, &args, &annotations, line) {
                // `int_ne(x, x)` is valid FlatZinc: the model has no solution.
                Err(e) if e.never_holds => {
                    self.contradiction.get_or_insert(e.to_string());
                    Ok(())
                }
                other => other,
            },
            Item::Solve { annotations, goal } => {
                self.solved = true;
                self.solve(&annotations, goal, line)
            }
        }
    }

    fn engine(line: usize) -> impl Fn(ModelError) -> FznError {
        move |e| {
            let never_holds = matches!(e, ModelError::NeverHolds(_));
            let mut error = FznError::on_line(line, e.to_string());
            error.never_holds = never_holds;
            error
        }
    }

    fn small(value: i64, line: usize) -> Result<i32, FznError> {
        i32::try_from(value).map_err(|_| {
            FznError::unsupported(
                line,
                format!(
                    "the value {value} does not fit in 32 bits, which this solver's variables hold"
                ),
            )
        })
    }

    /// A variable fixed to `value`, one per value.
    fn constant(&mut self, value: i64, line: usize) -> Result<VarId, FznError> {
        if let Some(&var) = self.constants.get(&value) {
            return Ok(var);
        }
        let v = Self::small(value, line)?;
        let var = self.model.new_var(v..=v).map_err(Self::engine(line))?;
        self.constants.insert(value, var);
        Ok(var)
    }

    fn var_of(&mut self, elem: Elem, line: usize) -> Result<VarId, FznError> {
        match elem {
            Elem::Var(var) => Ok(var),
            Elem::Const(value) => self.constant(value, line),
        }
    }
}
