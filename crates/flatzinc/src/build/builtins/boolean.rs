//! The Boolean builtins: `bool2int`, negation, and, or, exclusive or and clauses, with the
//! reified and half-reified forms MiniZinc emits for them.

use super::Call;
use crate::ast::Expr;
use crate::build::Builder;
use crate::build::Mode;
use crate::error::FznError;
use csp::constraints::Lit;

impl Builder {
    /// The boolean builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn boolean(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "bool2int" => {
                arity(2)?;
                let [b, x] = self.first_vars::<2>(args, line)?;
                self.model.bool_to_int(b, x).map_err(engine)?;
            }
            "bool_not" => {
                arity(2)?;
                let [a, b] = self.first_vars::<2>(args, line)?;
                self.model.bool_not(a, b).map_err(engine)?;
            }
            "bool_and" | "bool_or" | "array_bool_and" | "array_bool_or" => {
                // r <-> a op b, or r <-> op(as).
                let (lits, r) = if name.starts_with("array_") {
                    arity(2)?;
                    (self.lits(&args[0], line)?, self.var(&args[1], line)?)
                } else {
                    arity(3)?;
                    let [a, b, r] = self.first_vars::<3>(args, line)?;
                    (vec![Lit::pos(a), Lit::pos(b)], r)
                };
                let r = Some(Lit::pos(r));
                if name.ends_with("_and") {
                    self.model.bool_and(&lits, r)
                } else {
                    self.model.bool_or(&lits, r)
                }
                .map_err(engine)?;
            }
            "bool_xor" => {
                // bool_xor(a, b): a != b; bool_xor(a, b, r): r <-> a != b.
                let lits = args
                    .iter()
                    .map(|e| self.var(e, line).map(Lit::pos))
                    .collect::<Result<Vec<_>, _>>()?;
                match lits.len() {
                    2 => self.model.bool_xor(&lits, true).map_err(engine)?,
                    3 => self.model.bool_xor(&lits, false).map_err(engine)?,
                    n => {
                        return Err(FznError::on_line(
                            line,
                            format!("bool_xor takes 2 or 3 arguments, not {n}"),
                        ))
                    }
                };
            }
            "array_bool_xor" => {
                arity(1)?;
                let lits = self.lits(&args[0], line)?;
                self.model.bool_xor(&lits, true).map_err(engine)?;
            }
            "bool_clause" => {
                arity(2)?;
                let positive = self.vars(&args[0], line)?;
                let negative = self.vars(&args[1], line)?;
                self.model.clause(&positive, &negative).map_err(engine)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The reified forms of the Boolean builtins that have them: `bool_clause_reif`,
    /// `array_bool_and_imp` and the like are stated through the gates.
    pub(super) fn boolean_reified(
        &mut self,
        base: &str,
        mode: Mode,
        args: &[Expr],
        line: usize,
    ) -> Result<(), FznError> {
        let name = match mode {
            Mode::Reif => format!("{base}_reif"),
            _ => format!("{base}_imp"),
        };
        match (base, mode) {
            ("bool_clause", Mode::Reif) if args.len() == 3 => {
                // r <-> or(as) or or(not bs)
                let mut lits = self.lits(&args[0], line)?;
                let negative = self.lits(&args[1], line)?;
                lits.extend(negative.into_iter().map(Lit::negated));
                let r = self.var(&args[2], line)?;
                self.model
                    .bool_or(&lits, Some(Lit::pos(r)))
                    .map(|_| ())
                    .map_err(Self::engine(line))
            }
            ("bool_and" | "bool_or", Mode::Imp) if args.len() == 3 => {
                // r -> (a op b): a clause for or; two for and.
                let a = self.var(&args[0], line)?;
                let b = self.var(&args[1], line)?;
                let r = self.var(&args[2], line)?;
                let engine = Self::engine(line);
                if base == "bool_or" {
                    self.model.clause(&[a, b], &[r]).map_err(engine)?;
                } else {
                    self.model.clause(&[a], &[r]).map_err(&engine)?;
                    self.model.clause(&[b], &[r]).map_err(engine)?;
                }
                Ok(())
            }
            ("array_bool_or", Mode::Imp) if args.len() == 2 => {
                let positive = self.vars(&args[0], line)?;
                let r = self.var(&args[1], line)?;
                self.model
                    .clause(&positive, &[r])
                    .map(|_| ())
                    .map_err(Self::engine(line))
            }
            ("array_bool_and", Mode::Imp) if args.len() == 2 => {
                let all = self.vars(&args[0], line)?;
                let r = self.var(&args[1], line)?;
                for a in all {
                    self.model.clause(&[a], &[r]).map_err(Self::engine(line))?;
                }
                Ok(())
            }
            ("bool_xor", Mode::Imp) if args.len() == 3 => {
                // r -> a != b
                let a = self.var(&args[0], line)?;
                let b = self.var(&args[1], line)?;
                let r = self.var(&args[2], line)?;
                let engine = Self::engine(line);
                self.model.clause(&[a, b], &[r]).map_err(&engine)?;
                self.model.clause(&[], &[a, b, r]).map_err(engine)?;
                Ok(())
            }
            _ => Err(FznError::unsupported(
                line,
                format!("the constraint {name} is not supported"),
            )),
        }
    }
}
