//! `Inverse`: two arrays of variables that are each other's inverse function.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, VarId};

/// `f[i] = j` exactly when `g[j] = i`, with `f` indexed from `f_first` and `g` from
/// `g_first` (MiniZinc's `inverse`): every value of each array is an index of the other.
///
/// Consistency: the channelling of MiniZinc's decomposition, in one propagator: `j` stays in
/// `f[i]` only while `j` indexes `g` and `i` is in `g[j]` (and the mirror), and a fixed
/// `f[i] = j` fixes `g[j] = i`, repeated until nothing changes. That is domain consistency on
/// each pair `f[i] = j <-> g[j] = i`, not on the whole (which would need a matching, as
/// all_different's). Each removal is explained by the missing mirror value, each fixing by
/// the fixed mirror. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Inverse {
    /// `f`, then `g`.
    scope: Vec<VarId>,
    /// How many of the scope are `f`.
    f_len: usize,
    f_first: i64,
    g_first: i64,
}

/// One of the two arrays, as the propagator walks it.
struct Side<'a> {
    vars: &'a [VarId],
    first: i64,
}

impl Side<'_> {
    /// The variable at index `index`, if there is one.
    fn at(&self, index: i64) -> Option<VarId> {
        usize::try_from(index - self.first)
            .ok()
            .and_then(|k| self.vars.get(k).copied())
    }

    /// The index of the variable at position `k`.
    fn index(&self, k: usize) -> i64 {
        self.first + k as i64
    }

    /// The indices, as values of the other side's variables (`None` beyond 32 bits).
    fn index_range(&self) -> Option<(i32, i32)> {
        let low = i32::try_from(self.first).ok()?;
        let high = i32::try_from(self.first + self.vars.len() as i64 - 1).ok()?;
        Some((low, high))
    }
}

impl Inverse {
    /// `f[i] = j <-> g[j] = i`, `f` indexed from `f_first` and `g` from `g_first`.
    pub fn new(f: &[VarId], f_first: i64, g: &[VarId], g_first: i64) -> Self {
        let mut scope = f.to_vec();
        scope.extend_from_slice(g);
        Inverse {
            scope,
            f_len: f.len(),
            f_first,
            g_first,
        }
    }

    fn sides(&self) -> (Side<'_>, Side<'_>) {
        let (f, g) = self.scope.split_at(self.f_len);
        (
            Side {
                vars: f,
                first: self.f_first,
            },
            Side {
                vars: g,
                first: self.g_first,
            },
        )
    }

    /// Filters `from` against `to`: values out of `to`'s indices go, and `j` leaves `from[i]`
    /// when `i` is not in `to[j]`; a fixed `from[i] = j` fixes `to[j] = i`. Returns whether
    /// anything changed.
    fn channel(from: &Side<'_>, to: &Side<'_>, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let mut changed = false;
        let Some((low, high)) = to.index_range() else {
            return Ok(false);
        };
        for (k, &x) in from.vars.iter().enumerate() {
            let i = from.index(k);
            changed |= ctx.at_least(x, i64::from(low))? > 0;
            changed |= ctx.at_most(x, i64::from(high))? > 0;
            let values = ctx.values_vec(x);
            ctx.count_checks(values.len() as u64);
            for j in values {
                let Some(y) = to.at(i64::from(j)) else {
                    continue;
                };
                // `i` fits in 32 bits: it is a value `to`'s variables could take only then.
                let Ok(i32_i) = i32::try_from(i) else {
                    changed |= ctx.remove(x, j)?;
                    continue;
                };
                if !ctx.contains(y, i32_i) {
                    changed |= ctx.remove_because(x, j, &[Atom::Ne(y, i32_i)])?;
                }
            }
            if let Some(j) = ctx.fixed_value(x) {
                if let (Some(y), Ok(i)) = (to.at(i64::from(j)), i32::try_from(i)) {
                    if ctx.fixed_value(y) != Some(i) {
                        ctx.fix_because(y, i, &[Atom::Eq(x, j)])?;
                        changed = true;
                    }
                }
            }
        }
        Ok(changed)
    }
}

impl Constraint for Inverse {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (f, g) = values.split_at(self.f_len);
        let holds = |from: &[i32], from_first: i64, to: &[i32], to_first: i64| {
            from.iter().enumerate().all(|(k, &j)| {
                usize::try_from(i64::from(j) - to_first)
                    .ok()
                    .and_then(|at| to.get(at))
                    .is_some_and(|&i| i64::from(i) == from_first + k as i64)
            })
        };
        holds(f, self.f_first, g, self.g_first) && holds(g, self.g_first, f, self.f_first)
    }

    fn describe(&self) -> String {
        let (f, g) = self.scope.split_at(self.f_len);
        let names = |vars: &[VarId]| listed(vars.iter().map(|x| x.to_string()), 6, ", ");
        format!("inverse([{}], [{}])", names(f), names(g))
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (f, g) = self.sides();
        loop {
            let forward = Self::channel(&f, &g, ctx)?;
            let backward = Self::channel(&g, &f, ctx)?;
            if !forward && !backward {
                return Ok(());
            }
        }
    }
}
