//! `LpChoice`: whether a run adds the LP relaxation of its model (`--lp auto|on|off`, Python's
//! `lp=`), and the rule `auto` follows ([`LpChoice::decide`]).

use csp::{LpRelaxation, Model, Objective, RelaxationLiterals, UnknownChoice};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Whether the LP relaxation is added to the search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum LpChoice {
    /// As the model suggests: see [`LpChoice::decide`].
    #[default]
    Auto,
    /// Whenever the model's constraints give the LP rows (within [`LP_MOST_ROWS`]).
    On,
    /// Never.
    Off,
}

/// The most rows `auto` gives an LP. A pivot costs the nonzeros of the basis factors, which
/// grow with the rows; past this the node LPs cost more than their bounds save (see
/// [`LpChoice::decide`] for what was measured).
pub const LP_AUTO_ROWS: usize = 400;

/// The most value literals (0/1 columns, one per value of a variable that an
/// all-different or the like relaxes better over: [`csp::Model::add_relaxation_literals`])
/// an LP adds to the model.
pub const LP_MOST_LITERALS: usize = 5_000;

/// The most rows `auto` gives an LP over the value literals of an all-different (an
/// assignment: all-different and the comparisons that count its values, where MIP solvers'
/// bounds come from). Such rows are short and their LP is strong, and these are measured to
/// pay up to this size: on the MiniZinc Challenge 2024, ConcertHall's LPs of 577 to 1,089
/// rows prove its optima. Literals for counts alone get [`LP_AUTO_ROWS`]: on XCSP3's wider
/// set and the challenge their LPs of 400 to 909 rows left four bounds worse and two better
/// (FreePizza's 39 rows prove its optimum).
pub const LP_AUTO_ROWS_OVER_VALUES: usize = 1_500;

/// The most rows any LP takes, even asked for (`on`): past this even the root solve, held to
/// its work budget, leaves the bound far from the LP's optimum.
pub const LP_MOST_ROWS: usize = 20_000;

impl LpChoice {
    /// Each choice's name with its help line.
    pub const CHOICES: [(&'static str, &'static str); 3] = [
        (
            "auto",
            "in an optimisation whose objective is in the LP's rows (up to 400 rows, 1,500 over an all-different's value literals)",
        ),
        (
            "on",
            "whenever the model's constraints give the LP rows (up to 20,000)",
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
        /// How many of the columns are value literals added for it.
        literals: usize,
    },
    /// Not added, for this reason (in words).
    Left(String),
}

impl fmt::Display for LpDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LpDecision::Added {
                rows,
                columns,
                literals: 0,
            } => write!(f, "an LP relaxation of {rows} rows and {columns} columns"),
            LpDecision::Added {
                rows,
                columns,
                literals,
            } => write!(
                f,
                "an LP relaxation of {rows} rows and {columns} columns, {literals} of them value literals"
            ),
            LpDecision::Left(why) => write!(f, "no LP relaxation: {why}"),
        }
    }
}

impl LpChoice {
    /// `model` with its LP relaxation added where this choice takes it (a copy sharing the
    /// constraints; the model itself otherwise), and what was decided.
    ///
    /// `auto` adds it to an optimisation whose objective lies in the LP's rows (otherwise
    /// the LP bounds nothing) with at most [`LP_AUTO_ROWS`] rows, or
    /// [`LP_AUTO_ROWS_OVER_VALUES`] over the value literals of an all-different; `on` to
    /// any model whose constraints give it rows, up to [`LP_MOST_ROWS`]. The LP is tried
    /// over value literals first (up to [`LP_MOST_LITERALS`] of them, for the variables of an
    /// all-different or the like), then, where that is too large, without them.
    pub fn decide<'m>(
        self,
        model: &'m Model,
        objective: Option<Objective>,
    ) -> (Cow<'m, Model>, LpDecision) {
        let left = |why: &str| (Cow::Borrowed(model), LpDecision::Left(why.to_owned()));
        let most = match self {
            LpChoice::Off => return left("--lp off"),
            LpChoice::Auto if objective.is_none() => return left("no objective to bound"),
            LpChoice::Auto => LP_AUTO_ROWS,
            LpChoice::On => LP_MOST_ROWS,
        };
        // Over value literals first; where they make the LP too large, or cannot be added,
        // over the model's own variables, copied only then (a model can be megabytes).
        let mut encoded = model.clone();
        let (first, then_plain) = match encoded.add_relaxation_literals(LP_MOST_LITERALS) {
            Ok(added) if added.added > 0 => ((encoded, added), true),
            // A call that added nothing left the copy as it was: it is the plain model.
            Ok(_) => ((encoded, RelaxationLiterals::default()), false),
            Err(_) => ((model.clone(), RelaxationLiterals::default()), false),
        };
        let plain = then_plain.then_some(()).into_iter();
        let tries = std::iter::once(first)
            .chain(plain.map(|()| (model.clone(), RelaxationLiterals::default())));
        let mut too_large = None;
        for (mut relaxed, added) in tries {
            let literals = added.added;
            let Some(lp) = LpRelaxation::of_model(&relaxed, objective) else {
                continue;
            };
            let (rows, columns) = lp.size();
            let most = match self {
                LpChoice::Auto if added.at_most_once => LP_AUTO_ROWS_OVER_VALUES,
                _ => most,
            };
            if rows > most {
                too_large.get_or_insert(rows);
                continue;
            }
            return match relaxed.post(lp) {
                Ok(_) => (
                    Cow::Owned(relaxed),
                    LpDecision::Added {
                        rows,
                        columns,
                        literals,
                    },
                ),
                Err(_) => left("the relaxation could not be posted"),
            };
        }
        match too_large {
            Some(rows) => {
                let whose = match self {
                    LpChoice::Auto => "auto takes",
                    _ => "an LP takes",
                };
                left(&format!("{rows} rows, more than {whose} ({most})"))
            }
            None => left(match objective {
                Some(_) => "the objective is in none of its rows",
                None => "no constraint gives it a row",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LpChoice, LP_AUTO_ROWS, LP_AUTO_ROWS_OVER_VALUES, LP_MOST_ROWS};

    /// The help lines name the limits the rule applies.
    #[test]
    fn the_help_names_the_limits() {
        let said = |name: &str| {
            LpChoice::CHOICES
                .iter()
                .find(|c| c.0 == name)
                .map(|c| c.1.replace(',', ""))
                .unwrap_or_default()
        };
        assert!(said("auto").contains(&LP_AUTO_ROWS.to_string()));
        assert!(said("auto").contains(&LP_AUTO_ROWS_OVER_VALUES.to_string()));
        assert!(said("on").contains(&LP_MOST_ROWS.to_string()));
    }
}
