//! `AllDifferentExcept`: variables take distinct values, except that the excepted values
//! (0 in MiniZinc's `all_different_except_0`) may repeat.

use super::all_different::{at_most_once, matching_priority};
use super::listed::listed;
use super::regin::Regin;
use crate::{
    Atom, Conflict, Constraint, Context, DeclaredBounds, LinearRow, Priority, ValueRows, VarId,
    Wake,
};
use smallvec::SmallVec;

/// No two of `vars` share a value outside `except` (MiniZinc's `all_different_except` and
/// `all_different_except_0`, XCSP3's `allDifferent` with `except`).
///
/// Consistency: under `mac`, generalised arc consistency by Régin's matching when at most 64
/// variables share at most 64 values not excepted plus one value of its own for each variable
/// that may still take an excepted value (so that those need no value of the others): a
/// variable that must take a value not excepted, and such values that a set of them fill,
/// are seen before search reaches them (ConcertHall's 18 concerts for 10 halls). Otherwise,
/// and under `lcg`, value consistency, as forward checking on `!=`: a variable fixed to a
/// value not excepted removes it from the others (reason: that variable's value); two fixed
/// to the same such value fail. Under `none` and `fc`, the default hooks.
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

    fn value_rows(&self) -> ValueRows<'_> {
        ValueRows::AtMostOnce(&self.vars)
    }

    /// Each value not excepted taken at most once, over the value literals of the
    /// variables that have them.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let places = self.vars.iter().map(|&x| (x, 0));
        let skipped = |w: i64| i32::try_from(w).is_ok_and(|w| self.excepted(w));
        at_most_once(places, skipped, declared, rows);
    }

    /// Value elimination acts on fixed variables; the matching on any change.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Domain
    }

    /// Value elimination is linear; the matching, deferred to [`Priority::Global`], is not.
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// A change that fixed nothing only the matching can use.
    fn priority_on(&self, event: Wake) -> Priority {
        matching_priority(event)
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
        if ctx.explaining() {
            return Ok(());
        }
        if ctx.queue() < Priority::Global {
            // The matching waits until the value elimination of every woken constraint is done.
            ctx.defer(Priority::Global);
            return Ok(());
        }
        self.match_values(ctx)
    }
}

impl AllDifferentExcept {
    /// Régin's filtering over the values not excepted, each variable that may take an excepted
    /// value holding a value of its own beside them; nothing when the layout needs more than
    /// 64 values or variables, or when no unfixed variable must take a value not excepted
    /// (every variable can then step aside to its own value, and value elimination is all).
    fn match_values(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.vars.len() > 64 {
            return Ok(());
        }
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        // Bit i: place i may still take an excepted value.
        let (mut optional, mut forced_open) = (0u64, false);
        for (i, &x) in self.vars.iter().enumerate() {
            let may_except = self.except.iter().any(|&e| ctx.contains(x, e));
            optional |= u64::from(may_except) << i;
            forced_open |= !may_except && ctx.size(x) > 1;
            for (first, last) in ctx.ranges(x) {
                low = low.min(i64::from(first));
                high = high.max(i64::from(last));
            }
        }
        if !forced_open || low > high {
            return Ok(());
        }
        let span = high - low + 1;
        if span + i64::from(optional.count_ones()) > 64 {
            return Ok(());
        }
        let mut masks = [0u64; 64];
        let mut own_bit = span as u32;
        let mut checks = 0u64;
        for (i, (mask, &x)) in masks.iter_mut().zip(&self.vars).enumerate() {
            for (first, last) in ctx.ranges(x) {
                for v in first..=last {
                    if !self.excepted(v) {
                        *mask |= 1 << (i64::from(v) - low);
                    }
                }
            }
            if optional >> i & 1 == 1 {
                *mask |= 1 << own_bit;
                own_bit += 1;
            }
            checks += u64::from(mask.count_ones());
        }
        ctx.count_checks(checks);
        let masks = &mut masks[..self.vars.len()];
        let before: SmallVec<[u64; 64]> = masks.iter().copied().collect();
        if !ctx.with_scratch(|_, regin: &mut Regin| regin.filter_masks(masks, low)) {
            return Err(ctx.violated());
        }
        for ((&x, &was), &now) in self.vars.iter().zip(&before).zip(masks.iter()) {
            let mut gone = was & !now;
            while gone != 0 {
                let bit = i64::from(gone.trailing_zeros());
                gone &= gone - 1;
                if bit < span {
                    ctx.remove(x, (low + bit) as i32)?;
                } else {
                    // Its own value is never needed by another, so it stays; were it to go,
                    // the excepted values would go with it.
                    for &e in &self.except {
                        ctx.remove(x, e)?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::brute_force::{assert_gac, random_vars};
    use crate::{Model, SplitMix64};

    #[test]
    fn under_mac_it_is_exactly_generalised_arc_consistent() {
        let mut rng = SplitMix64::new(41);
        let pool: Vec<i32> = (-2..=5).collect();
        for case in 0..1500 {
            let mut model = Model::new();
            let k = 2 + rng.below(6) as usize;
            let vars = random_vars(&mut rng, &mut model, k, &pool, 4);
            let except: &[i32] = match case % 3 {
                0 => &[0],
                1 => &[-1, 2],
                _ => &[7],
            };
            model.all_different_except(&vars, except).unwrap();
            assert_gac(&model, &format!("case {case}, except {except:?}"));
        }
    }
}
