//! `Element`: `z = array[x]`, over an array of constants or of variables.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, VarId};
use smallvec::SmallVec;

/// What the array holds.
#[derive(Clone, Debug)]
enum Array {
    Constants(Vec<i32>),
    /// The variables sit in the scope after `x` and `z`.
    Variables(usize),
}

/// `z = array[x]`, the array indexed from `first` (1 in FlatZinc, 0 in Rust).
///
/// Consistency: domain consistency on the index (it keeps exactly the positions whose entry
/// can equal `z`). Over constants, domain consistency on `z` too (it keeps the entries at the
/// positions left). Over variables, `z` stays within the hull of the entries' bounds at the
/// positions left, and once the index is fixed `z` and that entry are made equal (domain
/// consistency). Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Element {
    /// `x`, `z`, then the array's variables (if any).
    scope: Vec<VarId>,
    array: Array,
    first: i64,
}

impl Element {
    /// `z = values[x - first]`.
    pub fn constants(x: VarId, values: &[i32], first: i32, z: VarId) -> Self {
        Element {
            scope: vec![x, z],
            array: Array::Constants(values.to_vec()),
            first: i64::from(first),
        }
    }

    /// `z = vars[x - first]`.
    pub fn variables(x: VarId, vars: &[VarId], first: i32, z: VarId) -> Self {
        let mut scope = vec![x, z];
        scope.extend_from_slice(vars);
        Element {
            scope,
            array: Array::Variables(vars.len()),
            first: i64::from(first),
        }
    }

    fn len(&self) -> usize {
        match &self.array {
            Array::Constants(values) => values.len(),
            Array::Variables(n) => *n,
        }
    }

    /// The position in the array of index value `v`, if it is one.
    fn position(&self, v: i64) -> Option<usize> {
        usize::try_from(v - self.first)
            .ok()
            .filter(|&p| p < self.len())
    }
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let Some(p) = self.position(i64::from(values[0])) else {
            return false;
        };
        let entry = match &self.array {
            Array::Constants(array) => array[p],
            Array::Variables(_) => values[2 + p],
        };
        entry == values[1]
    }

    fn contradiction(&self) -> Option<String> {
        (self.len() == 0).then(|| "element of an empty array can never hold".to_string())
    }

    fn describe(&self) -> String {
        let (x, z) = (self.scope[0], self.scope[1]);
        match &self.array {
            Array::Constants(values) => format!("{z} = [{}][{x}]", listed(values.iter(), 8, ", ")),
            Array::Variables(_) => {
                format!("{z} = [{}][{x}]", listed(self.scope[2..].iter(), 6, ", "))
            }
        }
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (x, z) = (self.scope[0], self.scope[1]);
        ctx.within(x, self.first, self.first + self.len() as i64 - 1)?;
        ctx.count_checks(1);
        match &self.array {
            Array::Constants(values) => {
                // The index keeps the positions whose value z can take; z keeps those values.
                let mut kept: SmallVec<[i64; 32]> = SmallVec::new();
                for v in ctx.values_vec(x) {
                    let entry = self.position(i64::from(v)).map(|p| values[p]);
                    match entry {
                        Some(e) if ctx.contains(z, e) => kept.push(i64::from(e)),
                        _ => {
                            ctx.remove(x, v)?;
                        }
                    }
                }
                kept.sort_unstable();
                kept.dedup();
                ctx.keep_only(z, kept.iter().map(|&e| (e, e)))?;
                // z shared with x: z's loss may cost x values; the engine runs it again.
                Ok(())
            }
            Array::Variables(_) => {
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for v in ctx.values_vec(x) {
                    let Some(p) = self.position(i64::from(v)) else {
                        ctx.remove(x, v)?;
                        continue;
                    };
                    let entry = self.scope[2 + p];
                    if !ctx.intersects(entry, z, 0) {
                        ctx.remove(x, v)?;
                    } else if let (Some(a), Some(b)) = (ctx.min(entry), ctx.max(entry)) {
                        lo = lo.min(i64::from(a));
                        hi = hi.max(i64::from(b));
                    }
                }
                if lo <= hi {
                    ctx.within(z, lo, hi)?;
                }
                if let Some(p) = ctx.fixed_value(x).and_then(|v| self.position(i64::from(v))) {
                    // z = entry, both ways, a run at a time.
                    ctx.keep_equal(z, self.scope[2 + p], 0)?;
                }
                Ok(())
            }
        }
    }
}
