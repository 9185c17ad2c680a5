//! `FznModel`: a FlatZinc model on the engine: the `csp::Model`, the goal, the search phases and
//! the output items, which print a solution as the FlatZinc protocol wants it.

use csp::{Model, Phase, VarId};
use std::fmt::Write;

/// An integer or Boolean in the model: a variable, or a constant the text fixed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Elem {
    /// A variable of the model.
    Var(VarId),
    /// A fixed value (a Boolean as 0 or 1).
    Const(i64),
}

/// How one output item is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputShape {
    /// `x = 3;`
    Scalar(Elem),
    /// `a = array2d(1..2, 1..2, [1, 2, 3, 4]);`, with the index sets of `output_array`.
    Array {
        /// The index sets, `low..high` each.
        dims: Vec<(i64, i64)>,
        /// The elements in row-major order.
        elems: Vec<Elem>,
    },
}

/// A variable or array the model's `output_var` or `output_array` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// As declared.
    pub name: String,
    /// One value or an array.
    pub shape: OutputShape,
    /// Printed as `true` and `false`.
    pub is_bool: bool,
}

/// A FlatZinc model built on the engine.
#[derive(Debug)]
pub struct FznModel {
    /// The variables and constraints.
    pub model: Model,
    /// What `solve minimize x` or `solve maximize x` optimises; `None` for `solve satisfy`.
    pub objective: Option<csp::Objective>,
    /// The phases of the solve item's `int_search`, `bool_search` and `seq_search`, in order.
    pub phases: Vec<Phase>,
    /// In name order.
    pub outputs: Vec<Output>,
    /// Annotations read but not followed, one line each, for `-s` or `-v`.
    pub notes: Vec<String>,
    /// Why the model has no solution before any search, when its declarations already say so
    /// (a variable fixed to a value outside its domain).
    pub contradiction: Option<String>,
}

impl FznModel {
    /// The output items for `values` (one per model variable), each line ending in `\n`,
    /// without the `----------` that closes a solution.
    pub fn format_solution(&self, values: &[i32], out: &mut String) {
        let value = |elem: &Elem| match *elem {
            Elem::Var(var) => i64::from(values[var.index()]),
            Elem::Const(v) => v,
        };
        let push = |out: &mut String, v: i64, is_bool: bool| {
            if is_bool {
                out.push_str(if v != 0 { "true" } else { "false" });
            } else {
                let _ = write!(out, "{v}");
            }
        };
        for output in &self.outputs {
            out.push_str(&output.name);
            out.push_str(" = ");
            match &output.shape {
                OutputShape::Scalar(elem) => push(out, value(elem), output.is_bool),
                OutputShape::Array { dims, elems } => {
                    let _ = write!(out, "array{}d(", dims.len());
                    for &(low, high) in dims {
                        if high < low {
                            // An empty index set, written as fzn-gecode writes it.
                            out.push_str("{}, ");
                        } else {
                            let _ = write!(out, "{low}..{high}, ");
                        }
                    }
                    out.push('[');
                    for (i, elem) in elems.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        push(out, value(elem), output.is_bool);
                    }
                    out.push_str("])");
                }
            }
            out.push_str(";\n");
        }
    }

    /// The objective variable, if the model optimises.
    pub fn objective_var(&self) -> Option<VarId> {
        self.objective.map(|objective| objective.var)
    }

    /// The variables a large neighbourhood search fixes parts of ([`csp::Solver::lns`]): the
    /// declared search's, or without one the outputs', in the order listed (an array's order
    /// is often time or a route), each once, the objective left out: fixing the variables a
    /// model decides, and not those it derives, keeps each neighbourhood a real choice.
    pub fn neighbourhood_vars(&self) -> Vec<VarId> {
        let declared = self
            .phases
            .iter()
            .flat_map(|phase| phase.vars.iter().copied());
        let mut listed: Vec<VarId> = if self.phases.is_empty() {
            self.outputs
                .iter()
                .flat_map(|output| match &output.shape {
                    OutputShape::Scalar(elem) => std::slice::from_ref(elem),
                    OutputShape::Array { elems, .. } => &elems[..],
                })
                .filter_map(|elem| match *elem {
                    Elem::Var(var) => Some(var),
                    Elem::Const(_) => None,
                })
                .collect()
        } else {
            declared.collect()
        };
        let mut seen = vec![false; self.model.var_count()];
        listed.retain(|&var| {
            let first = !std::mem::replace(&mut seen[var.index()], true);
            first && Some(var) != self.objective_var()
        });
        listed
    }
}
