//! `AllDifferentExcept`: variables take distinct values, except that the excepted values
//! (0 in MiniZinc's `all_different_except_0`) may repeat.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, VarId, Wake};

/// No two of `vars` share a value outside `except` (MiniZinc's `all_different_except` and
/// `all_different_except_0`, XCSP3's `allDifferent` with `except`).
///
/// Consistency: value consistency, as forward checking on `!=`: a variable fixed to a value
/// not excepted removes it from the others (reason: that variable's value); two fixed to the
/// same such value fail. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct AllDifferentExcept {
    vars: Vec<VarId>,
    /// Sorted, without repeats.
    except: Vec<i32>,
}

impl AllDifferentExcept {
    /// `vars` all different but for the values of `except`.
    pub fn new(vars: &[VarId], except: &[i32]) -> Self {
        let mut except = except.to_vec();
        except.sort_unstable();
        except.dedup();
        AllDifferentExcept {
            vars: vars.to_vec(),
            except,
        }
    }

    fn excepted(&self, v: i32) -> bool {
        self.except.binary_search(&v).is_ok()
    }
}

impl Constraint for AllDifferentExcept {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut seen: Vec<i32> = values
            .iter()
            .copied()
            .filter(|&v| !self.excepted(v))
            .collect();
        let n = seen.len();
        seen.sort_unstable();
        seen.dedup();
        seen.len() == n
    }

    fn describe(&self) -> String {
        format!(
            "all_different_except([{}], {{{}}})",
            listed(self.vars.iter(), 6, ", "),
            listed(self.except.iter(), 6, ", ")
        )
    }

    /// It acts on fixed variables only.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Fixed
    }

    /// Removing a value may fix another variable, whose value must go in turn.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.count_checks(self.vars.len() as u64);
        for (i, &x) in self.vars.iter().enumerate() {
            let Some(v) = ctx.fixed_value(x) else {
                continue;
            };
            if self.excepted(v) {
                continue;
            }
            let reason = [Atom::Eq(x, v)];
            for (j, &y) in self.vars.iter().enumerate() {
                if j != i && y != x {
                    ctx.remove_because(y, v, &reason)?;
                } else if j != i && y == x {
                    // One variable in two places, fixed to a value not excepted.
                    return Err(ctx.violated());
                }
            }
        }
        Ok(())
    }
}
