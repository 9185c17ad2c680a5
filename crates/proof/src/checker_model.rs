//! The model a proof speaks of, as the FlatZinc that Pumpkin's checker reads: which models
//! it can read, and the text.

use csp::{Checkable, ConstraintId, Model, Objective, Sense, VarId};
use std::fmt::Write as _;

/// The name of variable `x` in the checker's model.
pub(crate) fn var_name(x: VarId) -> String {
    format!("v{}", x.index())
}

/// Why `model` cannot have a proof the checker reads: its first constraint that is not one
/// of the checker's, with a line that names it as the model does; `None` when all are.
pub fn uncheckable(model: &Model) -> Option<(ConstraintId, String)> {
    model.constraint_ids().find_map(|c| {
        let why = match model.constraint(c).and_then(|k| k.checkable()) {
            None => "the proof checker knows only all_different and linear constraints",
            Some(form) if !fits(&form) => "its coefficients do not fit the checker's 32 bits",
            Some(_) => return None,
        };
        Some((
            c,
            format!(
                "constraint {} ({}): {why}",
                c.index() + 1,
                model.constraint_name(c)
            ),
        ))
    })
}

fn fits(form: &Checkable) -> bool {
    let small = |v: i64| i32::try_from(v).is_ok();
    match form {
        Checkable::AllDifferent(_) => true,
        Checkable::LinearLe(terms, rhs) | Checkable::LinearEq(terms, rhs) => {
            small(*rhs) && terms.iter().all(|&(a, _)| small(a))
        }
    }
}

/// `model` as FlatZinc for the checker: one variable `v{i}` per variable (its name in the
/// model in a comment), its constraints in order (the proof cites them by position), the
/// objective. Call only when [`uncheckable`] says `None`.
pub fn flatzinc(model: &Model, objective: Option<Objective>) -> String {
    let mut fzn = String::from("% The model csp solved, for pumpkin-checker.\n");
    for x in model.vars() {
        let values: Vec<i32> = model.initial_values(x).collect();
        let (Some(&low), Some(&high)) = (values.first(), values.last()) else {
            continue;
        };
        let domain = if i64::from(high) - i64::from(low) + 1 == values.len() as i64 {
            format!("{low}..{high}")
        } else {
            let listed: Vec<String> = values.iter().map(i32::to_string).collect();
            format!("{{{}}}", listed.join(","))
        };
        let name = model
            .var_name(x)
            .map(|n| format!(" % {n}"))
            .unwrap_or_default();
        let _ = writeln!(fzn, "var {domain}: {};{name}", var_name(x));
    }
    let names = |vars: &mut dyn Iterator<Item = VarId>| -> String {
        vars.map(var_name).collect::<Vec<_>>().join(",")
    };
    for c in model.constraint_ids() {
        let Some(form) = model.constraint(c).and_then(|k| k.checkable()) else {
            continue;
        };
        let _ = match &form {
            Checkable::AllDifferent(vars) => writeln!(
                fzn,
                "constraint pumpkin_all_different([{}]);",
                names(&mut vars.iter().copied())
            ),
            Checkable::LinearLe(terms, rhs) | Checkable::LinearEq(terms, rhs) => {
                let which = if matches!(form, Checkable::LinearLe(..)) {
                    "int_lin_le"
                } else {
                    "int_lin_eq"
                };
                let weights: Vec<String> = terms.iter().map(|(a, _)| a.to_string()).collect();
                writeln!(
                    fzn,
                    "constraint {which}([{}],[{}],{rhs});",
                    weights.join(","),
                    names(&mut terms.iter().map(|&(_, x)| x))
                )
            }
        };
    }
    let _ = match objective {
        None => writeln!(fzn, "solve satisfy;"),
        Some(Objective { var, sense }) => {
            let sense = match sense {
                Sense::Minimize => "minimize",
                Sense::Maximize => "maximize",
            };
            writeln!(fzn, "solve {sense} {};", var_name(var))
        }
    };
    fzn
}
