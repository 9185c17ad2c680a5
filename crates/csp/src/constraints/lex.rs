//! `Lex`: one sequence of variables is lexicographically at most (or below) another, the
//! symmetry-breaking constraint of MiniZinc's `lex_lesseq` and `lex_less`.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId, Wake};

/// `xs <=lex ys` (`xs <lex ys` when strict): at the first place where they differ, `x < y`;
/// a proper prefix is below. Sequences of different lengths compare on the shorter, the
/// shorter below when the rest is equal.
///
/// Consistency: bounds, along Frisch et al.'s sweep (2002): past the prefix fixed equal, at
/// the first open place `x <= y` on bounds; and `x < y` there when the rest cannot keep the
/// order with `x = y` (read on bounds, as Gecode's `lex` does). Each change states its
/// reason: the prefix fixed equal, and the bounds that decide the rest. Under `none` and
/// `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Lex {
    /// `xs`, then `ys`.
    vars: Vec<VarId>,
    split: usize,
    strict: bool,
}

impl Lex {
    /// `xs <=lex ys`, or `xs <lex ys` when `strict`.
    pub fn new(xs: &[VarId], ys: &[VarId], strict: bool) -> Self {
        let mut vars = xs.to_vec();
        vars.extend_from_slice(ys);
        Lex {
            vars,
            split: xs.len(),
            strict,
        }
    }

    fn xs(&self) -> &[VarId] {
        &self.vars[..self.split]
    }

    fn ys(&self) -> &[VarId] {
        &self.vars[self.split..]
    }

    /// Whether the order holds when the sequences are compared past the common places: the
    /// shorter below, equal lengths only when not strict.
    fn holds_at_end(&self) -> bool {
        let (n, m) = (self.xs().len(), self.ys().len());
        n < m || (n == m && !self.strict)
    }

    /// Whether, read on bounds, the places from `from` on can keep `xs` in order after an
    /// equal prefix; with the place where that was decided (or the end).
    fn rest_can_hold(&self, ctx: &Context<'_>, from: usize) -> (bool, usize) {
        let common = self.xs().len().min(self.ys().len());
        for k in from..common {
            let (Some(x_min), Some(y_max)) = (ctx.min(self.xs()[k]), ctx.max(self.ys()[k])) else {
                return (true, k);
            };
            if x_min < y_max {
                return (true, k);
            }
            if x_min > y_max {
                return (false, k);
            }
        }
        (self.holds_at_end(), common)
    }

    /// The prefix `..i` fixed equal: `x_k = v` and `y_k = v`.
    fn prefix_reason(&self, ctx: &Context<'_>, i: usize, reason: &mut Vec<Atom>) {
        for k in 0..i {
            if let Some(v) = ctx.fixed_value(self.xs()[k]) {
                reason.push(Atom::Eq(self.xs()[k], v));
                reason.push(Atom::Eq(self.ys()[k], v));
            }
        }
    }
}

impl Constraint for Lex {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, ys) = values.split_at(self.split);
        for (x, y) in xs.iter().zip(ys) {
            if x != y {
                return x < y;
            }
        }
        self.holds_at_end()
    }

    fn describe(&self) -> String {
        format!(
            "[{}] {} [{}]",
            listed(self.xs().iter(), 4, ", "),
            if self.strict { "<lex" } else { "<=lex" },
            listed(self.ys().iter(), 4, ", ")
        )
    }

    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let common = self.xs().len().min(self.ys().len());
        let explaining = ctx.explaining();
        let mut reason = Vec::new();
        let mut i = 0;
        while i < common {
            let (x, y) = (self.xs()[i], self.ys()[i]);
            ctx.count_checks(1);
            // After an equal prefix, x <= y here.
            let (Some(y_max), Some(x_min)) = (ctx.max(y), ctx.min(x)) else {
                return Ok(());
            };
            if explaining {
                reason.clear();
                self.prefix_reason(ctx, i, &mut reason);
                reason.push(Atom::Le(y, y_max));
            }
            ctx.at_most_because(x, i64::from(y_max), &reason)?;
            if explaining {
                reason.pop();
                reason.push(Atom::Ge(x, x_min));
            }
            ctx.at_least_because(y, i64::from(x_min), &reason)?;
            let (Some(x_min), Some(x_max), Some(y_min), Some(y_max)) =
                (ctx.min(x), ctx.max(x), ctx.min(y), ctx.max(y))
            else {
                return Ok(());
            };
            if x_min == x_max && y_min == y_max && x_min == y_min {
                i += 1;
                continue;
            }
            if x_max < y_min {
                // Below here: the order holds whatever follows.
                return Ok(());
            }
            let (can, decided) = self.rest_can_hold(ctx, i + 1);
            if can {
                return Ok(());
            }
            // Equal here, the rest would break the order: x < y here.
            if explaining {
                reason.clear();
                self.prefix_reason(ctx, i, &mut reason);
                let common = self.xs().len().min(self.ys().len());
                for k in i + 1..decided.min(common) + usize::from(decided < common) {
                    if let (Some(a), Some(b)) = (ctx.min(self.xs()[k]), ctx.max(self.ys()[k])) {
                        reason.push(Atom::Ge(self.xs()[k], a));
                        reason.push(Atom::Le(self.ys()[k], b));
                    }
                }
                reason.push(Atom::Le(y, y_max));
            }
            ctx.at_most_because(x, i64::from(y_max) - 1, &reason)?;
            if explaining {
                reason.pop();
                reason.push(Atom::Ge(x, x_min));
            }
            ctx.at_least_because(y, i64::from(x_min) + 1, &reason)?;
            return Ok(());
        }
        // Every common place is equal.
        if self.holds_at_end() {
            Ok(())
        } else {
            Err(ctx.violated())
        }
    }
}
