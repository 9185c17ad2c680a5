//! The comparison globals: `all_different` (with its consistency annotation),
//! `all_different_except`, `lex_less` / `lex_lesseq`, `increasing` / `decreasing` and
//! `value_precede`; the relations, linear relations and `set_in` that `Builder::constraint`
//! reads before them are here too.

use super::{consistency, flip, Call};
use crate::build::Builder;
use crate::build::{Mode, Values};
use crate::error::FznError;
use crate::fzn_model::Elem;
use csp::constraints::{Compare, Linear, Member};
use csp::{Relation, VarId};

impl Builder {
    /// The relations `int_eq` .. `int_gt` (and the Booleans'), the linear relations
    /// `int_lin_*` and `bool_lin_*`, and `set_in`, each plain, reified or half-reified; `false`
    /// for any other builtin.
    pub(super) fn relation(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name,
            base,
            mode,
            args,
            line,
            ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let relation = match base {
            "int_eq" | "bool_eq" => Some(Relation::Eq),
            "int_ne" | "bool_ne" => Some(Relation::Ne),
            "int_le" | "bool_le" => Some(Relation::Le),
            "int_lt" | "bool_lt" => Some(Relation::Lt),
            "int_ge" => Some(Relation::Ge),
            "int_gt" => Some(Relation::Gt),
            _ => None,
        };
        if let Some(relation) = relation {
            arity(2)?;
            let a = self.elem(&args[0], line)?;
            let b = self.elem(&args[1], line)?;
            let c = match (a, b) {
                (Elem::Var(x), Elem::Var(y)) => Compare::new(x, relation, y, 0),
                (Elem::Var(x), Elem::Const(v)) => Compare::with_value(x, relation, v),
                (Elem::Const(v), Elem::Var(y)) => Compare::with_value(y, flip(relation), v),
                (Elem::Const(_), Elem::Const(_)) => {
                    let x = self.var_of(a, line)?;
                    Compare::with_value(x, relation, self.literal(&args[1], line)?)
                }
            };
            self.post_reifiable(c, mode, args.get(2), line)?;
            return Ok(true);
        }
        let linear = match base {
            "int_lin_eq" | "bool_lin_eq" => Some(Relation::Eq),
            "int_lin_le" | "bool_lin_le" => Some(Relation::Le),
            "int_lin_ne" => Some(Relation::Ne),
            _ => None,
        };
        if let Some(op) = linear {
            arity(3)?;
            let coefficients = self.consts(&args[0], line)?;
            let vars = self.vars(&args[1], line)?;
            if coefficients.len() != vars.len() {
                return Err(FznError::on_line(
                    line,
                    format!(
                        "{name} has {} coefficients for {} variables",
                        coefficients.len(),
                        vars.len()
                    ),
                ));
            }
            let mut terms: Vec<(i64, VarId)> = coefficients.into_iter().zip(vars).collect();
            let rhs = match self.elem(&args[2], line)? {
                Elem::Const(v) => v,
                Elem::Var(c) => {
                    terms.push((-1, c));
                    0
                }
            };
            self.post_reifiable(Linear::new(&terms, op, rhs), mode, args.get(3), line)?;
            return Ok(true);
        }
        if base == "set_in" {
            arity(2)?;
            let x = self.var(&args[0], line)?;
            let set = self.set_value(&args[1], line)?;
            if set.is_empty() {
                // Nothing is in the empty set: x in {} is false.
                let never = Compare::with_value(x, Relation::Lt, i64::from(i32::MIN));
                self.post_reifiable(never, mode, args.get(2), line)?;
                return Ok(true);
            }
            if let (Values::Range(..), Mode::Plain) = (&set, mode) {
                self.keep_within(x, &set, line)?;
                return Ok(true);
            }
            let Some(values) = set.listed() else {
                return Err(FznError::unsupported(
                    line,
                    format!("{name} over a range of more than 2^24 values"),
                ));
            };
            let values: Vec<i32> = values
                .into_iter()
                .filter_map(|v| i32::try_from(v).ok())
                .collect();
            if values.is_empty() {
                let never = Compare::with_value(x, Relation::Lt, i64::from(i32::MIN));
                self.post_reifiable(never, mode, args.get(2), line)?;
                return Ok(true);
            }
            self.post_reifiable(Member::new(x, &values), mode, args.get(2), line)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The comparison builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn comparison(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name,
            args,
            annotations,
            line,
            ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "all_different_int" | "csp_all_different" => {
                arity(1)?;
                let vars = self.vars(&args[0], line)?;
                let consistency = consistency(annotations).unwrap_or_default();
                // Over no variable it holds.
                if !vars.is_empty() {
                    self.model
                        .all_different_with(&vars, consistency)
                        .map_err(engine)?;
                }
            }
            "csp_all_different_except" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let except = self.int_set(&args[1], line)?;
                // Over no variable it holds, and the engine posts nothing without a scope
                // (MiniZinc's own test posts alldifferent_except_0([])).
                if !xs.is_empty() {
                    self.model
                        .all_different_except(&xs, &except)
                        .map_err(engine)?;
                }
            }
            "csp_lex_lesseq_int"
            | "csp_lex_lesseq_bool"
            | "csp_lex_less_int"
            | "csp_lex_less_bool" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let ys = self.vars(&args[1], line)?;
                let strict = name.starts_with("csp_lex_less_");
                self.model.lex(&xs, &ys, strict).map_err(engine)?;
            }
            "csp_increasing" | "csp_decreasing" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let strict = self.literal(&args[1], line)? != 0;
                if name == "csp_increasing" {
                    self.model.increasing(&xs, strict).map_err(engine)?;
                } else {
                    self.model.decreasing(&xs, strict).map_err(engine)?;
                }
            }
            "csp_value_precede" => {
                arity(3)?;
                let (s, t) = (self.literal(&args[0], line)?, self.literal(&args[1], line)?);
                let xs = self.vars(&args[2], line)?;
                match (i32::try_from(s), i32::try_from(t)) {
                    // Over no variables it always holds.
                    _ if xs.is_empty() => {}
                    (Ok(s), Ok(t)) => {
                        self.model.value_precede(s, t, &xs).map_err(engine)?;
                    }
                    // A value beyond 32 bits is no variable's: `t` never occurs, or `s`
                    // never does and then neither may `t`.
                    (Err(_), Ok(t)) => {
                        for &x in &xs {
                            self.model
                                .compare_value(x, Relation::Ne, i64::from(t))
                                .map_err(&engine)?;
                        }
                    }
                    _ => {}
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
