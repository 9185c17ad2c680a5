//! `Table`: the values of some variables form one of the listed tuples (supports), or none
//! of them (conflicts); a tuple may leave a place open (`*`, any value).

use super::listed::listed;
use crate::propagation::constraint::filter_last_open;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId};
use std::sync::Arc;

/// The widest domain whose values no tuple names are removed one by one, with a reason,
/// when starred tuples could have taken them; wider ones wait.
const WIDEST_EXPLAINED: u64 = 1 << 12;

/// `(x_1, ..., x_r)` is one of the tuples (positive, MiniZinc's `table`, XCSP3's supports)
/// or none of them (negative: conflicts). A `None` in a tuple is a star: any value there.
///
/// Consistency, positive: domain consistency by compact-table (Demeulenaere et al., 2016):
/// a bitset of the tuples still valid (each value they name is in its domain) is narrowed
/// from the table's last one down the branch, by a bitset per value, and a value stays if
/// its bitset meets the valid tuples (tried first at the word where it last did). Over a scope that names a variable twice, sound
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

/// The most snapshots of valid tuples a table keeps (beyond, the deepest is narrowed in
/// place), and the most words they take together (half a megabyte), but for two.
const MOST_LEVELS: usize = 64;
const MOST_LEVEL_WORDS: usize = 1 << 16;

/// Buffers reused between runs, and the valid tuples of earlier runs, from which a later run
/// goes on when its domains are subsets of theirs.
#[derive(Default)]
struct Scratch {
    /// Snapshots along the current branch, each over smaller domains than the one before;
    /// the first `depth` are in use, the rest keep their memory for reuse.
    levels: Vec<Level>,
    depth: usize,
    /// The named values in the domains now, laid out as [`Level::seen`].
    now: Vec<u64>,
    /// Per place that lost values: how many masks it combines, the place, where its bitmap
    /// starts, and whether it combines its values kept (else those lost).
    narrowed: Vec<(usize, usize, usize, bool)>,
    /// The values of one place whose masks are combined.
    picked: Vec<usize>,
    /// Per place and value, the word where a support was last found: a hint.
    residues: Vec<Vec<u32>>,
}

/// The valid tuples for some domains.
#[derive(Default)]
struct Level {
    /// Per place, a bitmap over its named values, those in the domain: place after place,
    /// `values.len().div_ceil(64)` words each.
    seen: Vec<u64>,
    valid: Vec<u64>,
    /// The words of `valid` that are not zero, in increasing order.
    live: Vec<u32>,
}

/// `to` becomes a copy of `from`, in the memory it has.
fn copy_level(to: &mut Level, from: &Level) {
    to.seen.clone_from(&from.seen);
    to.valid.clone_from(&from.valid);
    to.live.clone_from(&from.live);
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

    /// The tuples whose values are all in the domains now, as the top of `scratch.levels`
    /// (returned, with its valid words and the live ones among them).
    ///
    /// Compact-table's update, made without the engine's trail: the table keeps snapshots
    /// of its valid tuples down the current branch and goes on from the deepest whose
    /// domains contain today's, dropping those below it (the search backtracked past them),
    /// or from every tuple when there is none. Only the live words are visited, the place
    /// with the fewest masks to combine first, and each place combines the fewer of its
    /// values kept or lost: a place's values and its stars partition the tuples, so the
    /// tuples kept are those of the values kept, or all but those of the values lost.
    fn valid_tuples<'s>(&self, ctx: &Context<'_>, scratch: &'s mut Scratch) -> &'s Level {
        let Scratch {
            levels,
            depth,
            now,
            narrowed,
            picked,
            ..
        } = scratch;
        let words = self.data.words;
        now.clear();
        for (i, &x) in self.vars.iter().enumerate() {
            let values = &self.data.places[i].values;
            let start = now.len();
            now.resize(start + values.len().div_ceil(64), 0);
            for (at, &v) in values.iter().enumerate() {
                if ctx.contains(x, v) {
                    now[start + at / 64] |= 1 << (at % 64);
                }
            }
        }
        let within = |seen: &[u64]| {
            seen.len() == now.len() && now.iter().zip(seen).all(|(n, s)| n & !s == 0)
        };
        while *depth > 0 && !within(&levels[*depth - 1].seen) {
            *depth -= 1;
        }
        if *depth > 0 && levels[*depth - 1].seen == *now {
            return &levels[*depth - 1];
        }
        if *depth >= MOST_LEVELS.min(MOST_LEVEL_WORDS / words).max(2) {
            // Deep enough: the deepest snapshot is narrowed in place.
            *depth -= 1;
        } else {
            // The snapshot to narrow: a copy of the deepest, or every tuple.
            if levels.len() == *depth {
                levels.push(Level::default());
            }
            let (below, top) = levels.split_at_mut(*depth);
            match below.last() {
                Some(parent) => copy_level(&mut top[0], parent),
                None => self.every_tuple(&mut top[0]),
            }
        }
        let level = &mut levels[*depth];
        *depth += 1;
        narrowed.clear();
        let mut start = 0;
        for (i, place) in self.data.places.iter().enumerate() {
            let span = start..start + place.values.len().div_ceil(64);
            let count = |bits: &[u64]| bits.iter().map(|b| b.count_ones() as usize).sum::<usize>();
            let kept = count(&now[span.clone()]);
            let was = count(&level.seen[span.clone()]);
            if kept < was {
                let by_kept = kept <= was - kept;
                narrowed.push((kept.min(was - kept), i, span.start, by_kept));
            }
            start = span.end;
        }
        narrowed.sort_unstable();
        let Level { seen, valid, live } = level;
        for &(_, i, offset, by_kept) in narrowed.iter() {
            let place = &self.data.places[i];
            let bit = |bits: &[u64], at: usize| bits[offset + at / 64] >> (at % 64) & 1 == 1;
            let kept = |at: &usize| bit(now, *at);
            let lost = |at: &usize| bit(seen, *at) && !bit(now, *at);
            picked.clear();
            if by_kept {
                picked.extend((0..place.values.len()).filter(kept));
            } else {
                picked.extend((0..place.values.len()).filter(lost));
            }
            let stars = &self.data.stars[i];
            live.retain(|&w| {
                let w = w as usize;
                let mut mask = picked
                    .iter()
                    .fold(0, |m, &at| m | place.masks[at * words + w]);
                mask = if by_kept { mask | stars[w] } else { !mask };
                valid[w] &= mask;
                valid[w] != 0
            });
            if live.is_empty() {
                // Smaller domains have no valid tuple either: the snapshot stays right.
                break;
            }
        }
        seen.clone_from(now);
        level
    }

    /// Every tuple valid, every named value seen.
    fn every_tuple(&self, level: &mut Level) {
        let words = self.data.words;
        let Level { seen, valid, live } = level;
        valid.clear();
        valid.resize(words, u64::MAX);
        if self.data.tuples % 64 != 0 {
            valid[words - 1] = (1u64 << (self.data.tuples % 64)) - 1;
        }
        if self.data.tuples == 0 {
            valid[0] = 0;
        }
        live.clear();
        live.extend((0..words as u32).filter(|&w| valid[w as usize] != 0));
        seen.clear();
        for place in &self.data.places {
            let n = place.values.len();
            seen.extend((0..n.div_ceil(64)).map(|k| match n - 64 * k {
                bits @ 0..64 => (1u64 << bits) - 1,
                _ => u64::MAX,
            }));
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
        let mut residues = std::mem::take(&mut scratch.residues);
        let result = self.filter_positive(ctx, scratch, &mut residues);
        scratch.residues = residues;
        result
    }

    fn filter_positive(
        &self,
        ctx: &mut Context<'_>,
        scratch: &mut Scratch,
        residues: &mut Vec<Vec<u32>>,
    ) -> Result<(), Conflict> {
        let Level { seen, valid, live } = self.valid_tuples(ctx, scratch);
        ctx.count_checks((self.vars.len() * self.data.words) as u64);
        if live.is_empty() {
            return Err(ctx.violated());
        }
        let mut offset = 0;
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
            let place = &self.data.places[i];
            // The named values in the domain as the valid tuples were computed; with `x`
            // elsewhere in the scope too, a removal there may have taken some since.
            let kept = &seen[offset..offset + place.values.len().div_ceil(64)];
            offset += kept.len();
            let stars = &self.data.stars[i];
            let star_meets = self.data.has_stars
                && live
                    .iter()
                    .any(|&w| stars[w as usize] & valid[w as usize] != 0);
            if star_meets {
                // A valid tuple takes any value here.
                continue;
            }
            // Values no tuple names here have no support: by the constraint alone when no
            // tuple has a star here, else because the starred tuples are gone.
            let named = |v: i32| place.values.binary_search(&v).is_ok();
            // The domain holds a value no tuple names when it is larger than its named values.
            let named_in_domain: u64 = kept.iter().map(|b| u64::from(b.count_ones())).sum();
            if ctx.size_u64(x) > named_in_domain
                || (!self.distinct && ctx.values(x).any(|v| !named(v)))
            {
                if stars.iter().all(|&w| w == 0) {
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
            if ctx.size_u64(x) == 1 {
                // Every valid tuple names its value (none has a star here).
                continue;
            }
            for (at, &v) in place.values.iter().enumerate() {
                let was_in = kept[at / 64] >> (at % 64) & 1 == 1;
                if !was_in || (!self.distinct && !ctx.contains(x, v)) {
                    continue;
                }
                let hint = residues[i][at] as usize;
                let meets = |w: usize| self.mask_of(i, at)[w] & valid[w] != 0;
                if hint < self.data.words && meets(hint) {
                    continue;
                }
                if let Some(&w) = live.iter().find(|&&w| meets(w as usize)) {
                    residues[i][at] = w;
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
        let Level { valid, live, .. } = self.valid_tuples(ctx, scratch);
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
                let mask = self.mask_of(i, at);
                let covered: u64 = live
                    .iter()
                    .map(|&w| u64::from((mask[w as usize] & valid[w as usize]).count_ones()))
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
        } else if self.data.has_stars {
            self.data.cells.chunks(arity).any(matches)
        } else {
            // The tuples are sorted and starless: a binary search finds the row, which
            // matters where every solution is checked (a count of 151,200 over 21 tables of
            // 27,720 tuples spent a third of its time scanning them).
            let row = |k: usize| &self.data.cells[k * arity..(k + 1) * arity];
            let (mut low, mut high) = (0, self.data.tuples);
            let mut found = false;
            while low < high {
                let mid = low + (high - low) / 2;
                match row(mid)
                    .iter()
                    .map(|c| c.unwrap_or(i32::MIN))
                    .cmp(values.iter().copied())
                {
                    std::cmp::Ordering::Less => low = mid + 1,
                    std::cmp::Ordering::Greater => high = mid,
                    std::cmp::Ordering::Equal => {
                        found = true;
                        break;
                    }
                }
            }
            found
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
