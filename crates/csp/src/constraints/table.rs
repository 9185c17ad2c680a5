//! `Table`: the values of some variables form one of the listed tuples (supports), or none
//! of them (conflicts); a tuple may leave a place open (`*`, any value).

use super::listed::listed;
use crate::constraint::filter_last_open;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId};
use std::sync::Arc;

/// The widest domain whose values no tuple names are removed one by one, with a reason,
/// when starred tuples could have taken them; wider ones wait.
const WIDEST_EXPLAINED: u64 = 1 << 12;

/// `(x_1, ..., x_r)` is one of the tuples (positive, MiniZinc's `table`, XCSP3's supports)
/// or none of them (negative: conflicts). A `None` in a tuple is a star: any value there.
///
/// Consistency, positive: domain consistency by compact-table (Demeulenaere et al., 2016):
/// a bitset of the tuples still valid (each value they name is in its domain) is rebuilt
/// from a bitset per value, and a value stays if its bitset meets the valid tuples (tried
/// first at the word where it last did). Over a scope that names a variable twice, sound
/// but not domain consistent. Negative, over distinct variables and without stars: a value
/// leaves when the conflicts through it, counted on the valid tuples, cover every
/// combination of the other domains; otherwise the value is tested once the others are
/// fixed. Each removal states its reason: the values gone from the others (and their
/// bounds, for a negative table). Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Table {
    vars: Vec<VarId>,
    /// The tuples, shared between the tables that one template of an instance posts over
    /// other variables (an XCSP3 group of `extension` elements).
    data: Arc<TableData>,
    positive: bool,
    /// Whether the variables are distinct: positive filtering is then domain consistent
    /// and idempotent.
    distinct: bool,
    /// Whether the variables are distinct and no tuple has a star: the negative counting
    /// rule holds then.
    countable: bool,
}

/// A table's tuples, indexed for filtering: built once, shared by every [`Table`] over them.
#[derive(Debug)]
pub struct TableData {
    arity: usize,
    /// The tuples, one after another, `arity` entries each.
    cells: Vec<Option<i32>>,
    /// Per place: the values the tuples name there, sorted, with the tuples naming each.
    places: Vec<Place>,
    /// Per place: the tuples with a star there.
    stars: Vec<Vec<u64>>,
    words: usize,
    tuples: usize,
    has_stars: bool,
}

#[derive(Clone, Debug)]
struct Place {
    values: Vec<i32>,
    /// `words` words per value, in the order of `values`.
    masks: Vec<u64>,
}

/// Buffers reused between runs.
#[derive(Default)]
struct Scratch {
    valid: Vec<u64>,
    mask: Vec<u64>,
    /// Per place and value, the word where a support was last found: a hint.
    residues: Vec<Vec<u32>>,
}

impl TableData {
    /// The tuples of `arity` values (`None` a star), duplicates dropped; `None` when a tuple
    /// has another length.
    pub fn new(arity: usize, tuples: &[Vec<Option<i32>>]) -> Option<Self> {
        if tuples.iter().any(|t| t.len() != arity) {
            return None;
        }
        let mut rows: Vec<&Vec<Option<i32>>> = tuples.iter().collect();
        // Distinct tuples: the negative rule counts them.
        rows.sort_unstable();
        rows.dedup();
        let n = rows.len();
        let words = n.div_ceil(64).max(1);
        let mut places = Vec::with_capacity(arity);
        let mut stars = Vec::with_capacity(arity);
        for i in 0..arity {
            let mut values: Vec<i32> = rows.iter().filter_map(|t| t[i]).collect();
            values.sort_unstable();
            values.dedup();
            let mut masks = vec![0u64; values.len() * words];
            let mut star = vec![0u64; words];
            for (k, t) in rows.iter().enumerate() {
                let bit = 1u64 << (k % 64);
                match t[i] {
                    Some(v) => {
                        if let Ok(at) = values.binary_search(&v) {
                            masks[at * words + k / 64] |= bit;
                        }
                    }
                    None => star[k / 64] |= bit,
                }
            }
            places.push(Place { values, masks });
            stars.push(star);
        }
        let has_stars = rows.iter().any(|t| t.iter().any(Option::is_none));
        Some(TableData {
            arity,
            cells: rows.into_iter().flatten().copied().collect(),
            places,
            stars,
            words,
            tuples: n,
            has_stars,
        })
    }
}

impl Table {
    /// The constraint that `vars` take one of `tuples` (`positive`) or none of them; `None`
    /// when a tuple's length is not the number of variables.
    pub fn new(vars: &[VarId], tuples: &[Vec<Option<i32>>], positive: bool) -> Option<Self> {
        let data = TableData::new(vars.len(), tuples)?;
        Self::over(vars, Arc::new(data), positive)
    }

    /// The table of `data`'s tuples over `vars` (`None` when the arities differ).
    pub fn over(vars: &[VarId], data: Arc<TableData>, positive: bool) -> Option<Self> {
        let arity = vars.len();
        if data.arity != arity {
            return None;
        }
        let mut distinct = vars.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let has_stars = data.has_stars;
        Some(Table {
            vars: vars.to_vec(),
            data,
            positive,
            distinct: distinct.len() == arity,
            countable: distinct.len() == arity && !has_stars,
        })
    }

    fn mask_of(&self, i: usize, at: usize) -> &[u64] {
        &self.data.places[i].masks[at * self.data.words..(at + 1) * self.data.words]
    }

    /// The tuples whose values are all in the domains now, into `valid`.
    fn valid_tuples(&self, ctx: &Context<'_>, valid: &mut Vec<u64>, mask: &mut Vec<u64>) {
        valid.clear();
        valid.resize(self.data.words, u64::MAX);
        if self.data.tuples % 64 != 0 {
            valid[self.data.words - 1] = (1u64 << (self.data.tuples % 64)) - 1;
        }
        if self.data.tuples == 0 {
            valid[0] = 0;
        }
        for (i, &x) in self.vars.iter().enumerate() {
            let place = &self.data.places[i];
            mask.clear();
            mask.extend_from_slice(&self.data.stars[i]);
            let mut every = true;
            for (at, &v) in place.values.iter().enumerate() {
                if ctx.contains(x, v) {
                    for (m, w) in mask.iter_mut().zip(self.mask_of(i, at)) {
                        *m |= w;
                    }
                } else {
                    every = false;
                }
            }
            if !every {
                for (v, m) in valid.iter_mut().zip(mask.iter()) {
                    *v &= m;
                }
            }
        }
    }

    /// Why value `v` of place `i` has no valid tuple (positive): the values the tuples name
    /// that are gone from the other places.
    fn gone_elsewhere(&self, ctx: &Context<'_>, i: usize) -> Vec<Atom> {
        let mut reason = Vec::new();
        for (j, &x) in self.vars.iter().enumerate() {
            if j != i {
                for &v in &self.data.places[j].values {
                    if !ctx.contains(x, v) {
                        reason.push(Atom::Ne(x, v));
                    }
                }
            }
        }
        reason
    }

    /// The reason of a removal at place `i` of a positive table, when one is wanted.
    fn reason(&self, ctx: &Context<'_>, i: usize) -> Vec<Atom> {
        if ctx.explaining() {
            self.gone_elsewhere(ctx, i)
        } else {
            Vec::new()
        }
    }

    /// Why the other places are within their domains (negative): bounds and holes.
    fn domains_elsewhere(&self, ctx: &Context<'_>, i: usize) -> Vec<Atom> {
        let mut reason = Vec::new();
        for (j, &x) in self.vars.iter().enumerate() {
            if j == i {
                continue;
            }
            let (Some(low), Some(high)) = (ctx.min(x), ctx.max(x)) else {
                continue;
            };
            reason.push(Atom::Ge(x, low));
            reason.push(Atom::Le(x, high));
            let mut last = low;
            for (a, b) in ctx.ranges(x) {
                for hole in last.saturating_add(1)..a {
                    reason.push(Atom::Ne(x, hole));
                }
                last = b;
            }
        }
        reason
    }

    fn run_positive(&self, ctx: &mut Context<'_>, scratch: &mut Scratch) -> Result<(), Conflict> {
        let Scratch {
            valid,
            mask,
            residues,
        } = scratch;
        self.valid_tuples(ctx, valid, mask);
        ctx.count_checks((self.vars.len() * self.data.words) as u64);
        if valid.iter().all(|&w| w == 0) {
            return Err(ctx.violated());
        }
        if residues.len() != self.vars.len() {
            *residues = self
                .data
                .places
                .iter()
                .map(|p| vec![0; p.values.len()])
                .collect();
        }
        for (i, &x) in self.vars.iter().enumerate() {
            let mut reason: Option<Vec<Atom>> = None;
            let star_meets = self.data.stars[i]
                .iter()
                .zip(valid.iter())
                .any(|(s, v)| s & v != 0);
            if star_meets {
                // A valid tuple takes any value here.
                continue;
            }
            // Values no tuple names here have no support: by the constraint alone when no
            // tuple has a star here, else because the starred tuples are gone.
            let place = &self.data.places[i];
            let named = |v: i32| place.values.binary_search(&v).is_ok();
            // A domain no larger than the values named is read through.
            if ctx.size_u64(x) > place.values.len() as u64 || ctx.values(x).any(|v| !named(v)) {
                if self.data.stars[i].iter().all(|&w| w == 0) {
                    let keep = place.values.iter().map(|&v| (i64::from(v), i64::from(v)));
                    ctx.keep_only(x, keep)?;
                } else if ctx.size_u64(x) <= WIDEST_EXPLAINED {
                    let unnamed: Vec<i32> = ctx.values(x).filter(|&v| !named(v)).collect();
                    for v in unnamed {
                        let reason = reason.get_or_insert_with(|| self.reason(ctx, i));
                        ctx.remove_because(x, v, reason)?;
                    }
                }
            }
            for (at, &v) in place.values.iter().enumerate() {
                if !ctx.contains(x, v) {
                    continue;
                }
                let hint = residues[i][at] as usize;
                let meets = |w: usize| self.mask_of(i, at)[w] & valid[w] != 0;
                if hint < self.data.words && meets(hint) {
                    continue;
                }
                if let Some(w) = (0..self.data.words).find(|&w| meets(w)) {
                    residues[i][at] = w as u32;
                    continue;
                }
                let reason = reason.get_or_insert_with(|| self.reason(ctx, i));
                ctx.remove_because(x, v, reason)?;
            }
        }
        Ok(())
    }

    fn run_negative(&self, ctx: &mut Context<'_>, scratch: &mut Scratch) -> Result<(), Conflict> {
        if !self.countable {
            // Test the last open place against every conflict, once the others are fixed.
            return filter_last_open(self, ctx, |ctx, v| ctx.fixed_value(v));
        }
        let Scratch { valid, mask, .. } = scratch;
        self.valid_tuples(ctx, valid, mask);
        ctx.count_checks((self.vars.len() * self.data.words) as u64);
        let sizes: Vec<u64> = self.vars.iter().map(|&x| ctx.size_u64(x)).collect();
        for (i, &x) in self.vars.iter().enumerate() {
            // How many combinations of the other domains there are, capped past the tuples.
            let mut others: u64 = 1;
            for (j, &s) in sizes.iter().enumerate() {
                if j != i {
                    others = others.saturating_mul(s);
                }
            }
            if others > self.data.tuples as u64 {
                continue;
            }
            let place = &self.data.places[i];
            for (at, &v) in place.values.iter().enumerate() {
                if !ctx.contains(x, v) {
                    continue;
                }
                let covered: u64 = self
                    .mask_of(i, at)
                    .iter()
                    .zip(valid.iter())
                    .map(|(m, w)| u64::from((m & w).count_ones()))
                    .sum();
                if covered >= others {
                    let reason = if ctx.explaining() {
                        self.domains_elsewhere(ctx, i)
                    } else {
                        Vec::new()
                    };
                    ctx.remove_because(x, v, &reason)?;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for Table {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let arity = self.vars.len();
        let matches = |t: &[Option<i32>]| {
            t.iter()
                .zip(values)
                .all(|(cell, &v)| cell.is_none_or(|c| c == v))
        };
        let found = if arity == 0 {
            self.data.tuples > 0
        } else {
            self.data.cells.chunks(arity).any(matches)
        };
        found == self.positive
    }

    fn contradiction(&self) -> Option<String> {
        (self.positive && self.data.tuples == 0).then(|| "a table without tuples".to_owned())
    }

    fn describe(&self) -> String {
        format!(
            "{}([{}], {} tuples)",
            if self.positive { "table" } else { "conflicts" },
            listed(self.vars.iter(), 6, ", "),
            self.data.tuples
        )
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    /// A removal invalidates no valid tuple over distinct variables; over repeated ones it
    /// can.
    fn idempotent(&self) -> bool {
        self.distinct
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| {
            if self.positive {
                self.run_positive(ctx, scratch)
            } else {
                self.run_negative(ctx, scratch)
            }
        })
    }
}
