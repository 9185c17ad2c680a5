//! `AtomTrail`: the atoms made true along the current branch, in order, each with its decision
//! level and its cause: what conflict analysis walks back through.
//!
//! Domains stay bitsets and interval lists; this trail is a second record of their changes, in
//! atoms. Each change of a variable becomes at most one bound atom per side (`x >= 4` when its
//! minimum rose to 4, whatever removal made it rise), one `x = v` when a decision fixes it, and
//! one `x != v` per value lost strictly inside the new bounds. An atom is then true at the
//! first entry that implies it on its own, which [`AtomTrail::position`] finds by binary
//! search: the lazy literals of Feydy and Stuckey's "Lazy clause generation reengineered"
//! (2009), without creating a Boolean per atom.

use crate::propagation::domains::Domains;
use crate::{Atom, ConstraintId, VarId};
use rustc_hash::FxHashMap;

/// A place on the trail: entry `pos - 1`; 0 stands for what held before the search (the root's
/// domains), older than every entry.
pub(crate) type Pos = u32;

/// The position of facts that hold from the start.
pub(crate) const ROOT: Pos = 0;

/// Why an entry's atom became true.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The search decided it.
    Decision,
    /// A constraint's filtering, with no reason given: the domains of the rest of its scope
    /// at that moment imply it (see [`AtomTrail::domain_before`]).
    Propagator(ConstraintId),
    /// A constraint's filtering with the reason it gave: `reasons[start..end]`.
    Explained(ConstraintId, u32, u32),
    /// A constraint's filtering whose reason it builds when asked
    /// ([`Constraint::explain`](crate::Constraint::explain)), told this word.
    Lazy(ConstraintId, u32),
    /// A nogood, by its slot in the store.
    Nogood(u32),
    /// Made at the root (the objective's bound, assumptions): never explained.
    Root,
}

/// One atom made true.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) atom: Atom,
    pub(crate) level: u32,
    pub(crate) cause: Cause,
    /// The variable's recorded bounds just before, restored when the entry goes.
    pub(crate) before: (i32, i32),
}

/// A change that emptied a domain: the conflict to analyse.
#[derive(Copy, Clone, Debug)]
pub(crate) struct WipeOut {
    pub(crate) var: VarId,
    pub(crate) cause: Cause,
    /// The variable's bounds just before.
    pub(crate) before: (i32, i32),
}

/// The widest declared span whose holes are looked up in a flat array rather than a map.
const FLAT_SPAN: u64 = 1 << 12;
/// The most flat slots in all.
const FLAT_TOTAL: usize = 1 << 24;

/// Where each hole of a variable was made.
#[derive(Clone, Debug, Default)]
struct Holes {
    /// For a narrow variable: its first slot and lowest value.
    flat: Vec<Option<(u32, i32, u32)>>,
    slots: Vec<Pos>,
    wide: FxHashMap<(u32, i32), Pos>,
}

const NO_HOLE: Pos = Pos::MAX;

impl Holes {
    fn get(&self, var: VarId, value: i32) -> Pos {
        match self.flat[var.index()] {
            Some((first, low, span)) => {
                let offset = i64::from(value) - i64::from(low);
                if offset < 0 || offset >= i64::from(span) {
                    NO_HOLE
                } else {
                    self.slots[first as usize + offset as usize]
                }
            }
            None => self.wide.get(&(var.0, value)).copied().unwrap_or(NO_HOLE),
        }
    }

    fn set(&mut self, var: VarId, value: i32, pos: Pos) {
        match self.flat[var.index()] {
            Some((first, low, span)) => {
                let offset = i64::from(value) - i64::from(low);
                if (0..i64::from(span)).contains(&offset) {
                    self.slots[first as usize + offset as usize] = pos;
                }
            }
            None if pos == NO_HOLE => {
                self.wide.remove(&(var.0, value));
            }
            None => {
                self.wide.insert((var.0, value), pos);
            }
        }
    }
}

/// The atom trail of one search.
#[derive(Debug)]
pub(crate) struct AtomTrail {
    entries: Vec<Entry>,
    /// Where each decision level begins on `entries`, and on `reasons`.
    level_starts: Vec<(u32, u32)>,
    /// The atoms of the reasons propagators gave.
    pub(crate) reasons: Vec<Atom>,
    /// What the changes being made now are to be put down to.
    pub(crate) cause: Cause,
    /// Each variable's bounds as the trail last recorded them.
    bounds: Vec<(i32, i32)>,
    /// Each variable's lower-bound entries, rising: `(min, pos)`, the root's first.
    lower: Vec<Vec<(i32, Pos)>>,
    /// Each variable's upper-bound entries, falling.
    upper: Vec<Vec<(i32, Pos)>>,
    /// Each variable's `!=` entries in order, by position.
    hole_list: Vec<Vec<Pos>>,
    holes: Holes,
    /// Each variable's runs of values gone at the root (declared holes, root filtering),
    /// sorted: they need no atom.
    root_gaps: Vec<Vec<(i32, i32)>>,
    /// The last value each variable was fixed to: phase saving.
    pub(crate) saved: Vec<Option<i32>>,
    /// The values each variable got back on the last backjump, as runs `(var, low, high)`
    /// (all its values when it was fixed), for the decision heap.
    pub(crate) reopened: Vec<(VarId, i32, i32)>,
    pub(crate) wipe_out: Option<WipeOut>,
    /// The reason a propagator gave for the violation it reported (`Context::violated_because`):
    /// its range in `reasons`.
    pub(crate) violation: Option<(ConstraintId, u32, u32)>,
    scratch: Vec<(i32, i32)>,
    /// Whether values lost at the root inside the bounds get entries (with their causes) like
    /// those of other levels, rather than runs without a cause: for a proof, which must derive
    /// the root's facts too.
    pub(crate) holes_at_root_as_entries: bool,
}

impl AtomTrail {
    /// A trail whose root is the domains as they are now.
    pub(crate) fn new(domains: &Domains) -> Self {
        let n = domains.len();
        let mut holes = Holes {
            flat: vec![None; n],
            ..Holes::default()
        };
        let mut bounds = Vec::with_capacity(n);
        let mut root_gaps = Vec::with_capacity(n);
        let mut lower = Vec::with_capacity(n);
        let mut upper = Vec::with_capacity(n);
        for i in 0..n {
            let var = VarId(i as u32);
            let (low, high) = (domains.min(var).unwrap_or(0), domains.max(var).unwrap_or(0));
            bounds.push((low, high));
            lower.push(vec![(low, ROOT)]);
            upper.push(vec![(high, ROOT)]);
            let span = (i64::from(high) - i64::from(low) + 1) as u64;
            if span <= FLAT_SPAN && holes.slots.len() + (span as usize) <= FLAT_TOTAL {
                holes.flat[i] = Some((holes.slots.len() as u32, low, span as u32));
                holes
                    .slots
                    .resize(holes.slots.len() + span as usize, NO_HOLE);
            }
            // The root's holes hold from the start.
            let mut gaps = Vec::new();
            let mut last = None::<i32>;
            for (a, b) in domains.ranges(var) {
                if let Some(end) = last {
                    gaps.push((end + 1, a - 1));
                }
                last = Some(b);
            }
            root_gaps.push(gaps);
        }
        AtomTrail {
            entries: Vec::new(),
            level_starts: Vec::new(),
            reasons: Vec::new(),
            cause: Cause::Root,
            bounds,
            lower,
            upper,
            hole_list: vec![Vec::new(); n],
            holes,
            root_gaps,
            saved: vec![None; n],
            reopened: Vec::new(),
            holes_at_root_as_entries: false,
            wipe_out: None,
            violation: None,
            scratch: Vec::new(),
        }
    }

    /// The bounds of `var` as recorded: the domain's, but in one read.
    #[inline]
    pub(crate) fn bounds(&self, var: VarId) -> (i32, i32) {
        self.bounds[var.index()]
    }

    /// The current decision level: 0 at the root.
    #[inline]
    pub(crate) fn level(&self) -> u32 {
        self.level_starts.len() as u32
    }

    /// How many entries there are: the position of the newest.
    #[inline]
    pub(crate) fn len(&self) -> Pos {
        self.entries.len() as Pos
    }

    /// The entry at `pos` (not the root's).
    #[inline]
    pub(crate) fn entry(&self, pos: Pos) -> &Entry {
        &self.entries[pos as usize - 1]
    }

    /// The decision level of `pos`.
    #[inline]
    pub(crate) fn level_of(&self, pos: Pos) -> u32 {
        if pos == ROOT {
            0
        } else {
            self.entry(pos).level
        }
    }

    /// The first position of decision level `level` (≥ 1).
    pub(crate) fn level_start(&self, level: u32) -> Pos {
        self.level_starts
            .get(level as usize - 1)
            .map_or(self.len(), |&(start, _)| start + 1)
    }

    /// Opens a new decision level.
    pub(crate) fn push_level(&mut self) {
        self.level_starts
            .push((self.entries.len() as u32, self.reasons.len() as u32));
    }

    /// Notes the change just made to `var`: values in `low..=high` were asked to go and the
    /// domain is now as `domains` holds it.
    pub(crate) fn record(&mut self, var: VarId, low: i32, high: i32, domains: &Domains) {
        let (old_min, old_max) = self.bounds[var.index()];
        // The new bounds, scanned for from the old ones: only values in `low..=high` went.
        let min = if low <= old_min && !domains.contains(var, old_min) {
            domains.next_above(var, Some(old_min))
        } else {
            Some(old_min)
        };
        let max = if high >= old_max && !domains.contains(var, old_max) {
            domains.next_below(var, Some(old_max))
        } else {
            Some(old_max)
        };
        let (Some(min), Some(max), false) = (min, max, domains.size(var) == 0) else {
            self.wipe_out = Some(WipeOut {
                var,
                cause: self.cause,
                before: (old_min, old_max),
            });
            return;
        };
        let level = self.level();
        let before = (old_min, old_max);
        if min > old_min && max < old_max && min == max {
            self.push(var, Atom::Eq(var, min), level, before);
        } else {
            if min > old_min {
                self.push(var, Atom::Ge(var, min), level, before);
            }
            if max < old_max {
                self.push(var, Atom::Le(var, max), level, (min, old_max));
            }
        }
        // Values gone strictly inside the new bounds, not already recorded.
        let first = i64::from(low).max(i64::from(min) + 1);
        let last = i64::from(high).min(i64::from(max) - 1);
        if first > last {
            return;
        }
        let (first, last) = (first as i32, last as i32);
        let mut gaps = std::mem::take(&mut self.scratch);
        gaps.clear();
        // The runs of absent values in first..=last.
        let mut from = first;
        let mut covered = false;
        for (a, b) in domains.ranges_from(var, first) {
            if a > last {
                break;
            }
            if a > from {
                gaps.push((from, a - 1));
            }
            if b >= last {
                covered = true;
                break;
            }
            from = b + 1;
        }
        if !covered {
            gaps.push((from, last));
        }
        if level == 0 && !self.holes_at_root_as_entries {
            // Root facts: kept as runs, whatever their length.
            let root = &mut self.root_gaps[var.index()];
            root.extend_from_slice(&gaps);
            root.sort_unstable();
            merge_runs(root);
        } else {
            for &(a, b) in &gaps {
                let mut v = a;
                while v <= b {
                    if let Some(end) = self.root_gap_end(var, v) {
                        v = match end.checked_add(1) {
                            Some(next) => next,
                            None => break,
                        };
                        continue;
                    }
                    if self.holes.get(var, v) == NO_HOLE {
                        self.push(var, Atom::Ne(var, v), level, (min, max));
                    }
                    v = match v.checked_add(1) {
                        Some(next) => next,
                        None => break,
                    };
                }
            }
        }
        self.scratch = gaps;
    }

    /// The end of the root gap of `var` holding `value`, if one does.
    fn root_gap_end(&self, var: VarId, value: i32) -> Option<i32> {
        let gaps = &self.root_gaps[var.index()];
        let at = gaps.partition_point(|&(_, b)| b < value);
        gaps.get(at).filter(|&&(a, _)| a <= value).map(|&(_, b)| b)
    }

    fn push(&mut self, var: VarId, atom: Atom, level: u32, before: (i32, i32)) {
        self.entries.push(Entry {
            atom,
            level,
            cause: self.cause,
            before,
        });
        let pos = self.len();
        let i = var.index();
        match atom {
            Atom::Eq(_, v) => {
                self.lower[i].push((v, pos));
                self.upper[i].push((v, pos));
                self.bounds[i] = (v, v);
            }
            Atom::Ge(_, v) => {
                self.lower[i].push((v, pos));
                self.bounds[i].0 = v;
            }
            Atom::Le(_, v) => {
                self.upper[i].push((v, pos));
                self.bounds[i].1 = v;
            }
            Atom::Ne(_, v) => {
                self.holes.set(var, v, pos);
                self.hole_list[i].push(pos);
            }
        }
        let (min, max) = self.bounds[i];
        if min == max {
            self.saved[i] = Some(min);
        }
    }

    /// Takes the trail back to the end of decision level `level`: the entries after it go,
    /// and the reasons they used.
    pub(crate) fn backjump(&mut self, level: u32) {
        let Some(&(keep, reasons)) = self.level_starts.get(level as usize) else {
            return;
        };
        self.level_starts.truncate(level as usize);
        self.reasons.truncate(reasons as usize);
        self.wipe_out = None;
        self.violation = None;
        while self.entries.len() > keep as usize {
            let pos = self.len();
            let Some(entry) = self.entries.pop() else {
                break;
            };
            let var = entry.atom.var();
            let i = var.index();
            match entry.atom {
                Atom::Eq(..) => {
                    self.lower[i].pop();
                    self.upper[i].pop();
                }
                Atom::Ge(..) => {
                    self.lower[i].pop();
                }
                Atom::Le(..) => {
                    self.upper[i].pop();
                }
                Atom::Ne(_, v) => {
                    if self.holes.get(var, v) == pos {
                        self.holes.set(var, v, NO_HOLE);
                    }
                    self.hole_list[i].pop();
                }
            }
            let (min, max) = self.bounds[i];
            let (old_min, old_max) = entry.before;
            let back = if min == max {
                (old_min, old_max)
            } else {
                match entry.atom {
                    Atom::Ge(_, k) => (old_min, k.saturating_sub(1)),
                    Atom::Le(_, k) => (k.saturating_add(1), old_max),
                    Atom::Ne(_, v) => (v, v),
                    Atom::Eq(..) => (old_min, old_max),
                }
            };
            if old_min != old_max {
                self.reopened.push((var, back.0, back.1));
            }
            self.bounds[i] = entry.before;
        }
    }

    /// Where `atom`, true now, first became true: [`ROOT`] if it always held, `None` if it
    /// does not hold now.
    pub(crate) fn position(&self, atom: Atom) -> Option<Pos> {
        let i = atom.var().index();
        match atom {
            Atom::Ge(_, k) => first_at_least(&self.lower[i], k),
            Atom::Le(_, k) => first_at_most(&self.upper[i], k),
            Atom::Eq(_, k) => {
                let at_least = first_at_least(&self.lower[i], k)?;
                let at_most = first_at_most(&self.upper[i], k)?;
                Some(at_least.max(at_most))
            }
            Atom::Ne(x, k) => {
                if self.root_gap_end(x, k).is_some() {
                    return Some(ROOT);
                }
                let hole = self.holes.get(x, k);
                let by_lower = k
                    .checked_add(1)
                    .and_then(|k| first_at_least(&self.lower[i], k));
                let by_upper = k
                    .checked_sub(1)
                    .and_then(|k| first_at_most(&self.upper[i], k));
                [Some(hole).filter(|&p| p != NO_HOLE), by_lower, by_upper]
                    .into_iter()
                    .flatten()
                    .min()
            }
        }
    }

    /// Whether `value`, within `var`'s bounds just before `pos`, was a hole then (or gone at
    /// the root): [`AtomTrail::position`] of its `!=` without the bounds' searches.
    pub(crate) fn hole_before(&self, var: VarId, value: i32, pos: Pos) -> bool {
        self.holes.get(var, value) < pos || self.root_gap_end(var, value).is_some()
    }

    /// The bound `var` had when `var >= k` (`lower`) or `var <= k` first held: the atom to
    /// state it by, shared by every `k` it covers. `None` if it does not hold now.
    pub(crate) fn bound_reaching(&self, var: VarId, k: i32, lower: bool) -> Option<i32> {
        let i = var.index();
        if lower {
            let stack = &self.lower[i];
            stack
                .get(stack.partition_point(|&(v, _)| v < k))
                .map(|&(v, _)| v)
        } else {
            let stack = &self.upper[i];
            stack
                .get(stack.partition_point(|&(v, _)| v > k))
                .map(|&(v, _)| v)
        }
    }

    /// The bounds of `var` just before `pos`.
    pub(crate) fn bounds_before(&self, var: VarId, pos: Pos) -> (i32, i32) {
        let i = var.index();
        (
            last_before(&self.lower[i], pos).0,
            last_before(&self.upper[i], pos).0,
        )
    }

    /// Pushes onto `out` atoms that together say what `var`'s domain was just before `pos`
    /// (all of its entries older than `pos`): its bounds then and its holes between them.
    /// Facts of the root are left out.
    pub(crate) fn domain_before(&self, var: VarId, pos: Pos, out: &mut Vec<Atom>) {
        let i = var.index();
        let low = last_before(&self.lower[i], pos);
        let high = last_before(&self.upper[i], pos);
        if low.1 != ROOT {
            out.push(Atom::Ge(var, low.0));
        }
        if high.1 != ROOT {
            out.push(Atom::Le(var, high.0));
        }
        for &p in &self.hole_list[i] {
            if p >= pos {
                break;
            }
            if let Atom::Ne(_, v) = self.entry(p).atom {
                if v > low.0 && v < high.0 {
                    out.push(Atom::Ne(var, v));
                }
            }
        }
    }

    /// Pushes onto `out` a `!=` atom for each value of `var` gone at the root, for checkers;
    /// runs of more than 2^16 values are left out (on small declared domains, the holes
    /// between far-apart values).
    pub(crate) fn root_facts(&self, var: VarId, out: &mut Vec<Atom>) {
        for &(a, b) in &self.root_gaps[var.index()] {
            if i64::from(b) - i64::from(a) < 1 << 16 {
                out.extend((a..=b).map(|v| Atom::Ne(var, v)));
            }
        }
    }

    /// Whether `value` of `var` was gone at the root.
    pub(crate) fn gone_at_root(&self, var: VarId, value: i32) -> bool {
        self.root_gap_end(var, value).is_some()
    }

    /// Pushes onto `out` the atoms about `var` from before `pos` that the values in
    /// `from..to` (exclusive) needed to be gone already: its holes there.
    pub(crate) fn holes_between(
        &self,
        var: VarId,
        from: i32,
        to: i32,
        pos: Pos,
        out: &mut Vec<Atom>,
    ) {
        for &p in &self.hole_list[var.index()] {
            if p >= pos {
                break;
            }
            if let Atom::Ne(_, v) = self.entry(p).atom {
                if v > from && v < to {
                    out.push(Atom::Ne(var, v));
                }
            }
        }
    }
}

/// The first position whose lower bound reaches `k` (`ROOT` if the root's does).
fn first_at_least(stack: &[(i32, Pos)], k: i32) -> Option<Pos> {
    let at = stack.partition_point(|&(v, _)| v < k);
    stack.get(at).map(|&(_, p)| p)
}

/// The first position whose upper bound is down to `k`.
fn first_at_most(stack: &[(i32, Pos)], k: i32) -> Option<Pos> {
    let at = stack.partition_point(|&(v, _)| v > k);
    stack.get(at).map(|&(_, p)| p)
}

/// The last bound entry older than `pos` (the root's at least).
fn last_before(stack: &[(i32, Pos)], pos: Pos) -> (i32, Pos) {
    let at = stack.partition_point(|&(_, p)| p < pos);
    stack[at.saturating_sub(1)]
}

/// Merges sorted runs that overlap or touch.
fn merge_runs(runs: &mut Vec<(i32, i32)>) {
    let mut merged: Vec<(i32, i32)> = Vec::with_capacity(runs.len());
    for &(a, b) in runs.iter() {
        match merged.last_mut() {
            Some(last) if i64::from(a) <= i64::from(last.1) + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    *runs = merged;
}
