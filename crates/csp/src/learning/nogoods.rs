//! `NogoodStore`: the learned nogoods (sets of atoms that cannot all hold) and their
//! propagation by two watched atoms.
//!
//! A nogood is the clause of its atoms' negations, kept the other way round because conflict
//! analysis reasons in atoms, as Pumpkin keeps its nogoods. Two atoms of each are watched that
//! are not true; when one becomes true another is looked for, and when none is left the last
//! one is made false (or, if it is true too, the nogood is the conflict). The trail is the
//! queue: every entry's variable has its watchers looked at once.
//!
//! The learned ones live in three tiers, by their literal block distance (LBD: how many
//! decision levels their atoms span, lowered whenever conflict analysis uses one and finds it
//! spanning fewer): a core of LBD 2 or less, kept for good; a middle tier of LBD 6 or less,
//! kept while analysis keeps using them; and a local tier, whose less active half goes at
//! each reduction (Audemard and Simon's Glucose; CaDiCaL's and Kissat's three tiers, which
//! Pumpkin follows).

use crate::propagation::atom_trail::{AtomTrail, Cause, Pos};
use crate::propagation::context::{Conflict, ConflictKind, Context, Store};
use crate::propagation::domains::Domains;
use crate::{Atom, ConstraintId};
use std::collections::BTreeMap;

/// One nogood: its atoms are `arena[start..start + len]`.
#[derive(Clone, Debug)]
struct Nogood {
    start: u32,
    len: u32,
    /// Its literal block distance: how many decision levels its atoms spanned when learned,
    /// or, if fewer, when analysis last used it.
    lbd: u32,
    /// Whether the reduction may drop it (a learned one); blocking nogoods that enumeration
    /// adds must stay.
    deletable: bool,
    /// Whether conflict analysis used it since the last reduction.
    used: bool,
    /// How much, and how lately, conflict analysis used it (bumped by a growing amount).
    activity: f32,
}

/// The tiers: a nogood of at most this LBD is kept for good.
const CORE_LBD: u32 = 2;
/// One of at most this LBD is kept while conflict analysis uses it between reductions.
const MIDDLE_LBD: u32 = 6;
/// How much each conflict makes later bumps weigh more than earlier ones.
const ACTIVITY_DECAY: f32 = 0.999;

/// A nogood watching one of its atoms (the one whose list holds it), with where its atoms
/// lie, so that a visit reads the arena without the nogood's header.
#[derive(Copy, Clone, Debug)]
struct Watch {
    id: u32,
    start: u32,
    len: u32,
    /// Another atom of the nogood: while it is false the nogood is satisfied, and the
    /// watch is passed over without reading the nogood (MiniSat's blocker).
    blocker: Atom,
}

/// The watches of one variable, by the atom watched: `x >= k` under `ge[k]`, and so on. A
/// change of the variable visits exactly the lists of the atoms it makes true (a minimum
/// rising from 2 to 5: `x >= 3` to `x >= 5` and `x != 2` to `x != 4`), as Chuffed's
/// literals each have their own watch list.
#[derive(Debug, Default)]
struct VarWatches {
    ge: KeyedLists,
    le: KeyedLists,
    ne: KeyedLists,
    eq: KeyedLists,
}

/// The widest span of values whose watch lists sit in a vector indexed by value; keys
/// outside it go to an ordered map.
const WIDEST_DENSE: i64 = 1024;

/// Watch lists by value: a vector over the variable's initial span (made on the first
/// watch, so that a variable no nogood mentions costs nothing), a map for the rest. The
/// vector spares the map's search on the hot path: a change visits a range of keys.
#[derive(Debug, Default)]
struct KeyedLists {
    base: i32,
    span: u32,
    dense: Vec<Vec<Watch>>,
    far: BTreeMap<i32, Vec<Watch>>,
}

impl KeyedLists {
    fn new(min: i32, max: i32) -> Self {
        let width = i64::from(max) - i64::from(min) + 1;
        KeyedLists {
            base: min,
            span: if (1..=WIDEST_DENSE).contains(&width) {
                width as u32
            } else {
                0
            },
            ..KeyedLists::default()
        }
    }

    fn slot(&self, key: i32) -> Option<usize> {
        let i = i64::from(key) - i64::from(self.base);
        (0..i64::from(self.span)).contains(&i).then_some(i as usize)
    }

    fn entry(&mut self, key: i32) -> &mut Vec<Watch> {
        match self.slot(key) {
            Some(i) => {
                if self.dense.is_empty() {
                    self.dense.resize_with(self.span as usize, Vec::new);
                }
                &mut self.dense[i]
            }
            None => self.far.entry(key).or_default(),
        }
    }

    /// Pushes `make(k)` onto `due` for each key `k` in `low..=high` with watches.
    fn due_in(&self, low: i64, high: i64, due: &mut Vec<Atom>, make: impl Fn(i32) -> Atom) {
        if low > high {
            return;
        }
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        if !self.dense.is_empty() {
            let base = i64::from(self.base);
            let from = (low - base).max(0);
            let to = (high - base).min(i64::from(self.span) - 1);
            for i in from..=to {
                if !self.dense[i as usize].is_empty() {
                    due.push(make((base + i) as i32));
                }
            }
        }
        if !self.far.is_empty() {
            for (&k, list) in self.far.range(clamp(low)..=clamp(high)) {
                if !list.is_empty() {
                    due.push(make(k));
                }
            }
        }
    }
}

/// The nogoods of one search and their watches.
#[derive(Debug, Default)]
pub(crate) struct NogoodStore {
    nogoods: Vec<Nogood>,
    /// Every nogood's atoms, one after another; compacted by `reduce`.
    arena: Vec<Atom>,
    free: Vec<u32>,
    /// The watches, each stale once its nogood watches other atoms (dropped when met).
    watches: Vec<VarWatches>,
    /// The lists an entry makes true, reused.
    due: Vec<Atom>,
    /// Trail entries up to here have had their watchers looked at.
    head: Pos,
    /// The nogood found with all its atoms true.
    pub(crate) conflict: Option<u32>,
    /// How many deletable nogoods there are.
    pub(crate) deletable: usize,
    /// What a use adds to a nogood's activity now.
    bump: f32,
}

/// Whether `atom` holds, reading the bounds from the trail (one read) and holes from the
/// domains.
#[inline]
fn holds(atom: Atom, trail: &AtomTrail, domains: &Domains) -> bool {
    let (min, max) = trail.bounds(atom.var());
    match atom {
        Atom::Ge(_, k) => min >= k,
        Atom::Le(_, k) => max <= k,
        Atom::Eq(_, k) => min == k && max == k,
        Atom::Ne(x, k) => k < min || k > max || !domains.contains(x, k),
    }
}

/// Whether `atom` can no longer hold, read as `holds` reads.
#[inline]
fn fails(atom: Atom, trail: &AtomTrail, domains: &Domains) -> bool {
    let (min, max) = trail.bounds(atom.var());
    match atom {
        Atom::Ge(_, k) => max < k,
        Atom::Le(_, k) => min > k,
        Atom::Eq(x, k) => k < min || k > max || !domains.contains(x, k),
        Atom::Ne(_, k) => min == k && max == k,
    }
}

/// Makes `atom` false through `ctx`.
pub(crate) fn falsify(atom: Atom, ctx: &mut Context<'_>) -> Result<(), Conflict> {
    match atom {
        Atom::Ge(x, k) => ctx.at_most(x, i64::from(k) - 1).map(|_| ()),
        Atom::Le(x, k) => ctx.at_least(x, i64::from(k) + 1).map(|_| ()),
        Atom::Eq(x, k) => ctx.remove(x, k).map(|_| ()),
        Atom::Ne(x, k) => ctx.fix(x, k).map(|_| ()),
    }
}

impl NogoodStore {
    /// A store for variables whose values lie within `spans`, one `(min, max)` each (atoms
    /// outside them are kept too, a little slower).
    pub(crate) fn new(spans: impl Iterator<Item = (i32, i32)>) -> Self {
        NogoodStore {
            watches: spans
                .map(|(min, max)| VarWatches {
                    ge: KeyedLists::new(min, max),
                    le: KeyedLists::new(min, max),
                    ne: KeyedLists::new(min, max),
                    eq: KeyedLists::new(min, max),
                })
                .collect(),
            bump: 1.0,
            ..NogoodStore::default()
        }
    }

    /// Conflict analysis used nogood `id` (as a reason, or as the conflict): its activity
    /// rises, it is marked used, and its LBD drops to the levels its atoms span now if fewer
    /// (they all hold while it is used).
    pub(crate) fn used(&mut self, id: u32, trail: &AtomTrail, levels: &mut Vec<u32>) {
        let Some(&Nogood {
            deletable: true,
            len: 1..,
            activity,
            lbd,
            ..
        }) = self.nogoods.get(id as usize)
        else {
            return;
        };
        let mut activity = activity + self.bump;
        if activity > 1e30 {
            // Rescaled, all of them, so that their order stays.
            for other in &mut self.nogoods {
                other.activity *= 1e-30;
            }
            self.bump *= 1e-30;
            activity *= 1e-30;
        }
        if lbd > CORE_LBD {
            levels.clear();
            for &atom in self.atoms(id) {
                if let Some(pos) = trail.position(atom) {
                    levels.push(trail.level_of(pos));
                }
            }
            levels.sort_unstable();
            levels.dedup();
        }
        let n = &mut self.nogoods[id as usize];
        n.activity = activity;
        n.used = true;
        if lbd > CORE_LBD && (levels.len() as u32) < lbd && !levels.is_empty() {
            n.lbd = levels.len() as u32;
        }
    }

    /// One conflict more: later uses weigh more.
    pub(crate) fn decay(&mut self) {
        self.bump /= ACTIVITY_DECAY;
    }

    /// The atoms of nogood `id`.
    pub(crate) fn atoms(&self, id: u32) -> &[Atom] {
        let n = &self.nogoods[id as usize];
        &self.arena[n.start as usize..(n.start + n.len) as usize]
    }

    /// Adds a nogood whose first atom is not true and, if it has more, whose second is the
    /// newest true one: the two it watches. Returns its id.
    pub(crate) fn add(&mut self, atoms: Vec<Atom>, lbd: u32, deletable: bool) -> u32 {
        let nogood = Nogood {
            start: self.arena.len() as u32,
            len: atoms.len() as u32,
            lbd,
            deletable,
            used: false,
            activity: self.bump,
        };
        self.arena.extend_from_slice(&atoms);
        let id = match self.free.pop() {
            Some(id) => {
                self.nogoods[id as usize] = nogood;
                id
            }
            None => {
                self.nogoods.push(nogood);
                (self.nogoods.len() - 1) as u32
            }
        };
        if deletable {
            self.deletable += 1;
        }
        self.watch(id);
        id
    }

    fn watch(&mut self, id: u32) {
        let Nogood { start, len, .. } = self.nogoods[id as usize];
        let atoms = &self.arena[start as usize..(start + len) as usize];
        let (first, second) = match atoms[..] {
            [] => return,
            [a] => (a, a),
            [a, b, ..] => (a, b),
        };
        let watch = |blocker| Watch {
            id,
            start,
            len,
            blocker,
        };
        list_of(&mut self.watches, first).push(watch(second));
        if len > 1 {
            list_of(&mut self.watches, second).push(watch(first));
        }
    }

    /// The trail was cut back to `len` entries: entries past it are gone unseen.
    pub(crate) fn backjumped(&mut self, len: Pos) {
        self.head = self.head.min(len);
        self.conflict = None;
    }

    /// Looks at the watchers of every trail entry not yet seen, making atoms false as the
    /// nogoods force, until none is left or a nogood has all its atoms true.
    pub(crate) fn propagate(&mut self, store: &mut Store) -> Result<(), Conflict> {
        loop {
            let Some(trail) = store.atoms.as_deref() else {
                return Ok(());
            };
            if self.head >= trail.len() {
                return Ok(());
            }
            self.head += 1;
            let entry = *trail.entry(self.head);
            let mut due = std::mem::take(&mut self.due);
            due.clear();
            self.made_true(entry.atom, entry.before, &mut due);
            let mut result = Ok(());
            for &atom in &due {
                result = self.visit(atom, store);
                if result.is_err() {
                    break;
                }
            }
            self.due = due;
            result?;
        }
    }

    /// Pushes onto `due` the watched atoms that an entry `atom` (the variable's bounds
    /// `before` it) made true.
    fn made_true(&self, atom: Atom, before: (i32, i32), due: &mut Vec<Atom>) {
        let x = atom.var();
        let w = &self.watches[x.index()];
        let (old_min, old_max) = (i64::from(before.0), i64::from(before.1));
        match atom {
            Atom::Ge(_, min) => {
                let min = i64::from(min);
                w.ge.due_in(old_min + 1, min, due, |k| Atom::Ge(x, k));
                w.ne.due_in(old_min, min - 1, due, |k| Atom::Ne(x, k));
                if min == old_max {
                    w.eq.due_in(min, min, due, |k| Atom::Eq(x, k));
                }
            }
            Atom::Le(_, max) => {
                let max = i64::from(max);
                w.le.due_in(max, old_max - 1, due, |k| Atom::Le(x, k));
                w.ne.due_in(max + 1, old_max, due, |k| Atom::Ne(x, k));
                if max == old_min {
                    w.eq.due_in(max, max, due, |k| Atom::Eq(x, k));
                }
            }
            Atom::Eq(_, v) => {
                let v = i64::from(v);
                w.ge.due_in(old_min + 1, v, due, |k| Atom::Ge(x, k));
                w.le.due_in(v, old_max - 1, due, |k| Atom::Le(x, k));
                w.ne.due_in(old_min, v - 1, due, |k| Atom::Ne(x, k));
                w.ne.due_in(v + 1, old_max, due, |k| Atom::Ne(x, k));
                w.eq.due_in(v, v, due, |k| Atom::Eq(x, k));
            }
            Atom::Ne(_, v) => {
                let v = i64::from(v);
                w.ne.due_in(v, v, due, |k| Atom::Ne(x, k));
            }
        }
    }

    /// Looks at the nogoods watching `watched`, which just became true.
    fn visit(&mut self, watched: Atom, store: &mut Store) -> Result<(), Conflict> {
        let mut list = std::mem::take(list_of(&mut self.watches, watched));
        let mut i = 0;
        let mut result = Ok(());
        while i < list.len() {
            let Watch {
                id,
                start,
                len,
                blocker,
            } = list[i];
            let Some(trail) = store.atoms.as_deref() else {
                break;
            };
            let domains = &store.domains;
            if fails(blocker, trail, domains) {
                i += 1;
                continue;
            }
            let atoms = &mut self.arena[start as usize..(start + len) as usize];
            let w = if atoms.first() == Some(&watched) {
                0
            } else if atoms.get(1) == Some(&watched) {
                1
            } else {
                // No longer watching this atom.
                list.swap_remove(i);
                continue;
            };
            if atoms.len() < 2 || !holds(watched, trail, domains) {
                i += 1;
                continue;
            }
            let other = atoms[1 - w];
            if fails(other, trail, domains) {
                list[i].blocker = other;
                i += 1;
                continue;
            }
            let replacement = (2..atoms.len()).find(|&j| !holds(atoms[j], trail, domains));
            if let Some(j) = replacement {
                atoms.swap(w, j);
                let moved = atoms[w];
                list.swap_remove(i);
                list_of(&mut self.watches, moved).push(Watch {
                    id,
                    start,
                    len,
                    blocker: other,
                });
                continue;
            }
            if holds(other, trail, domains) {
                self.conflict = Some(id);
                result = Err(Conflict {
                    constraint: ConstraintId::NOGOOD,
                    kind: ConflictKind::Violated,
                });
                break;
            }
            if let Some(trail) = store.atoms.as_deref_mut() {
                trail.cause = Cause::Nogood(id);
            }
            let mut ctx = Context {
                store: &mut *store,
                current: ConstraintId::NOGOOD,
            };
            if let Err(conflict) = falsify(other, &mut ctx) {
                result = Err(conflict);
                break;
            }
            i += 1;
        }
        let slot = list_of(&mut self.watches, watched);
        list.append(slot);
        *slot = list;
        result
    }

    /// At the root: keeps the core tier and the middle tier's nogoods used since the last
    /// reduction, and of the rest (the local tier, and the middle's unused) the more active
    /// half; then rebuilds the watches.
    pub(crate) fn reduce(&mut self) {
        let mut candidates: Vec<(f32, u32)> = self
            .nogoods
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                n.deletable && n.len > 0 && n.lbd > CORE_LBD && !(n.lbd <= MIDDLE_LBD && n.used)
            })
            .map(|(i, n)| (n.activity, i as u32))
            .collect();
        // Least active first; among equals, the older.
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let drop = candidates.len() / 2;
        for &(_, id) in &candidates[..drop] {
            self.nogoods[id as usize].len = 0;
            self.free.push(id);
            self.deletable -= 1;
        }
        for n in &mut self.nogoods {
            n.used = false;
        }
        // The arena keeps the atoms of the nogoods left, in their order.
        let mut arena = Vec::with_capacity(self.arena.len());
        for n in &mut self.nogoods {
            let from = n.start as usize;
            n.start = arena.len() as u32;
            arena.extend_from_slice(&self.arena[from..from + n.len as usize]);
        }
        self.arena = arena;
        for w in &mut self.watches {
            for lists in [&mut w.ge, &mut w.le, &mut w.ne, &mut w.eq] {
                lists.dense.iter_mut().for_each(Vec::clear);
                lists.far.clear();
            }
        }
        for id in 0..self.nogoods.len() as u32 {
            self.watch(id);
        }
    }
}

/// The list of the watches of `atom`.
fn list_of(watches: &mut [VarWatches], atom: Atom) -> &mut Vec<Watch> {
    let w = &mut watches[atom.var().index()];
    match atom {
        Atom::Ge(_, k) => w.ge.entry(k),
        Atom::Le(_, k) => w.le.entry(k),
        Atom::Ne(_, k) => w.ne.entry(k),
        Atom::Eq(_, k) => w.eq.entry(k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VarId;

    /// A store over ten 0..=9 variables holding one nogood `x_i >= 1, x_(i+1) >= 1` per
    /// `(lbd, used, activity)`, deletable.
    fn store_of(nogoods: &[(u32, bool, f32)]) -> NogoodStore {
        let mut store = NogoodStore::new((0..10).map(|_| (0, 9)));
        for (i, &(lbd, used, activity)) in nogoods.iter().enumerate() {
            let i = i as u32 % 9;
            let id = store.add(
                vec![Atom::Ge(VarId(i), 1), Atom::Ge(VarId(i + 1), 1)],
                lbd,
                true,
            );
            let n = &mut store.nogoods[id as usize];
            n.used = used;
            n.activity = activity;
        }
        store
    }

    fn kept(store: &NogoodStore) -> Vec<usize> {
        (0..store.nogoods.len())
            .filter(|&i| store.nogoods[i].len > 0)
            .collect()
    }

    #[test]
    fn reduction_keeps_the_core_and_the_used_middle_and_the_more_active_half_of_the_rest() {
        let store = &mut store_of(&[
            (2, false, 0.0),  // core: kept though idle
            (5, true, 0.0),   // middle, used: kept
            (5, false, 0.5),  // middle, unused: local, the less active half
            (9, false, 3.0),  // local, most active
            (9, true, 0.25),  // local (used, but of LBD above the middle's)
            (12, false, 2.0), // local, more active
        ]);
        store.reduce();
        assert_eq!(kept(store), [0, 1, 3, 5]);
        assert_eq!(store.deletable, 4);
        // Used flags are reset: the middle nogood, idle since, is now the least active of
        // the three candidates and goes.
        store.reduce();
        assert_eq!(kept(store), [0, 3, 5]);
    }

    #[test]
    fn a_nogood_kept_by_reduction_still_propagates_and_one_dropped_is_gone() {
        let store = &mut store_of(&[(2, false, 0.0), (9, false, 0.0), (9, false, 1.0)]);
        store.reduce();
        assert_eq!(kept(store), [0, 2]);
        assert_eq!(
            store.atoms(0),
            [Atom::Ge(VarId(0), 1), Atom::Ge(VarId(1), 1)]
        );
        assert!(store.atoms(1).is_empty());
        // Its watches were rebuilt on its two atoms.
        for atom in store.atoms(0).to_vec() {
            assert!(list_of(&mut store.watches, atom).iter().any(|w| w.id == 0));
        }
    }
}
