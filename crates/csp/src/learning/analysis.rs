//! `Analysis`: first-UIP conflict analysis over atoms, and the explanations it asks for.
//!
//! A conflict is a set of atoms, true now, that cannot all hold. Analysis replaces the newest
//! of them made at the current decision level by the reason it was made, until one atom of
//! that level is left (the first unique implication point): the atoms then in hand form the
//! learned nogood. The search jumps back to the newest level among its other atoms, where
//! the nogood makes the last atom false (Marques-Silva and Sakallah's GRASP, 1996, as lazy
//! clause generation does it over integer atoms: Ohrimenko, Stuckey and Codish, 2009).

use super::nogoods::NogoodStore;
use crate::propagation::atom_trail::{AtomTrail, Cause, Pos, ROOT};
use crate::propagation::earlier::Earlier;
use crate::propagation::network::Network;
use crate::{Atom, ConstraintId, VarId};
use rustc_hash::FxHashMap;

/// What analysis learned: a nogood whose first atom is the one to make false after jumping
/// back to `backjump`, its second (if any) the newest of the rest.
#[derive(Clone, Debug)]
pub(crate) struct Learned {
    pub(crate) atoms: Vec<Atom>,
    pub(crate) backjump: u32,
    pub(crate) lbd: u32,
}

/// An explanation analysis could not use: an atom that did not hold, or held only after what
/// it was to explain. A propagator's reason is wrong; the search falls back on its decisions.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Unexplained;

/// The working memory of conflict analysis, reused from one conflict to the next.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// The current level's atoms in hand, by the position that made them true, less the
    /// level's first position `current_start`: a slot per entry of the level, since the walk
    /// back to the first UIP asks about each one in turn.
    current: Vec<Option<Atom>>,
    current_start: Pos,
    /// The atoms in hand of earlier levels.
    earlier: Vec<Atom>,
    buffer: Vec<Atom>,
    /// Minimisation's verdicts by trail position, and its reason buffers by depth.
    memo: FxHashMap<Pos, bool>,
    buffers: Vec<Vec<Atom>>,
    /// The atoms met, for the activity bump.
    pub(crate) met: Vec<Atom>,
}

/// Explains the entry at `pos`, pushing onto `out` atoms true before it that, with its cause,
/// imply its atom.
///
/// With `gaps`, a run of holes that a bound jumped may be explained by the constraint that
/// made them ([`Constraint::explain_gap`](crate::Constraint::explain_gap)) rather than hole
/// by hole; the reason then stands on that constraint too, so a checker told which
/// constraint made the change asks for it without.
pub(crate) fn explain_entry(
    pos: Pos,
    trail: &AtomTrail,
    nogoods: &NogoodStore,
    network: &Network,
    gaps: bool,
    out: &mut Vec<Atom>,
) {
    let entry = trail.entry(pos);
    let var = entry.atom.var();
    explain_cause(entry.cause, var, pos, trail, nogoods, network, out);
    // The variable's own earlier atoms that the new bound needed: the old bound and the
    // holes between (a removal at the minimum raises it past the values already gone).
    let (old_min, old_max) = entry.before;
    let network = gaps.then_some(network);
    match entry.atom {
        Atom::Ge(_, min) => {
            out.push(Atom::Ge(var, old_min));
            jumped_holes(var, (old_min, min), pos, trail, network, out);
        }
        Atom::Le(_, max) => {
            out.push(Atom::Le(var, old_max));
            jumped_holes(var, (max, old_max), pos, trail, network, out);
        }
        Atom::Eq(_, v) => {
            out.push(Atom::Ge(var, old_min));
            out.push(Atom::Le(var, old_max));
            trail.holes_between(var, old_min, v, pos, out);
            trail.holes_between(var, v, old_max, pos, out);
        }
        Atom::Ne(..) => {}
    }
}

/// The longest run of consecutive holes a bound's reason lists one by one before it asks
/// the constraint that made them to explain the run.
const HOLES_LISTED: usize = 8;

/// Pushes onto `out` why `var` had no value strictly between `from` and `to` just before
/// `pos`, where a bound jumped: its holes there as `!=` atoms; with `network`, each run of
/// more than [`HOLES_LISTED`] consecutive holes by what the constraint that made its first
/// hole gives for the whole run, if it can. A sum that bounds hoist's `z = period * B` jumps
/// the hundreds of values the product took out of `z`, each a `!=` in the nogood; the
/// product rules each run out by a few bounds of `period` and `B`.
fn jumped_holes(
    var: VarId,
    (from, to): (i32, i32),
    pos: Pos,
    trail: &AtomTrail,
    network: Option<&Network>,
    out: &mut Vec<Atom>,
) {
    let mark = out.len();
    trail.holes_between(var, from, to, pos, out);
    let Some(network) = network.filter(|_| out.len() - mark > HOLES_LISTED) else {
        return;
    };
    let mut holes: Vec<i32> = out[mark..]
        .iter()
        .filter_map(|atom| match *atom {
            Atom::Ne(_, v) => Some(v),
            _ => None,
        })
        .collect();
    holes.sort_unstable();
    out.truncate(mark);
    let earlier = Earlier::new(trail, pos);
    // The constraint that took `v` out of `var`, if one did below the root.
    let maker = |v: i32| {
        let at = trail.position(Atom::Ne(var, v)).filter(|&at| at != ROOT)?;
        match trail.entry(at).cause {
            Cause::Propagator(c) | Cause::Explained(c, ..) | Cause::Lazy(c, _) => network.get(c),
            _ => None,
        }
    };
    for run in holes.chunk_by(|a, b| a.checked_add(1) == Some(*b)) {
        let (first, last) = (run[0], run[run.len() - 1]);
        let start = out.len();
        // Only a long run looks its maker up: short ones, most of them, are listed as they are.
        let explained = run.len() > HOLES_LISTED
            && maker(first).is_some_and(|c| c.explain_gap(var, (first, last), &earlier, out));
        if !explained {
            out.truncate(start);
            out.extend(run.iter().map(|&v| Atom::Ne(var, v)));
        }
    }
}

/// Pushes onto `out` the reason part of a change of `var` at `pos` made by `cause`.
pub(crate) fn explain_cause(
    cause: Cause,
    var: VarId,
    pos: Pos,
    trail: &AtomTrail,
    nogoods: &NogoodStore,
    network: &Network,
    out: &mut Vec<Atom>,
) {
    match cause {
        Cause::Decision | Cause::Root => {}
        Cause::Propagator(c) => scope_before(network, c, Some(var), pos, trail, out),
        Cause::Explained(_, start, end) => {
            out.extend_from_slice(&trail.reasons[start as usize..end as usize])
        }
        Cause::Lazy(c, payload) => {
            if let Some(constraint) = network.get(c) {
                constraint.explain(payload, var, &Earlier::new(trail, pos), out);
            }
        }
        Cause::Nogood(id) => {
            // Every atom but the one it made false.
            out.extend(nogoods.atoms(id).iter().filter(|a| a.var() != var));
            let on_var: Vec<Atom> = nogoods
                .atoms(id)
                .iter()
                .copied()
                .filter(|a| a.var() == var)
                .collect();
            if on_var.len() > 1 {
                // Several atoms on the variable: the true ones are part of the reason.
                let entry_atom = trail.entry(pos).atom;
                for a in on_var {
                    if trail.position(a).is_some_and(|p| p < pos) && a != entry_atom {
                        out.push(a);
                    }
                }
            }
        }
    }
}

/// Pushes the domains of constraint `c`'s scope just before `pos` (but `except`'s).
pub(crate) fn scope_before(
    network: &Network,
    c: ConstraintId,
    except: Option<VarId>,
    pos: Pos,
    trail: &AtomTrail,
    out: &mut Vec<Atom>,
) {
    let Some(constraint) = network.get(c) else {
        return;
    };
    let scope = constraint.scope();
    for (i, &y) in scope.iter().enumerate() {
        if Some(y) == except || scope[..i].contains(&y) {
            continue;
        }
        trail.domain_before(y, pos, out);
    }
}

impl Analysis {
    /// Learns from `conflict` (atoms true now that cannot all hold) at the trail's current
    /// level, which is above the root. `explain` pushes the reason of a trail entry.
    /// `going` is asked before each entry is explained: once it says no (a limit is due),
    /// the analysis gives up as if unexplained, since reasons that list a wide domain's
    /// every hole can make one analysis take minutes.
    pub(crate) fn analyse(
        &mut self,
        conflict: &[Atom],
        trail: &AtomTrail,
        mut explain: impl FnMut(Pos, &mut Vec<Atom>),
        mut going: impl FnMut() -> bool,
    ) -> Result<Learned, Unexplained> {
        let level = trail.level();
        let start = trail.level_start(level);
        self.current.clear();
        self.current
            .resize((trail.len() + 1).saturating_sub(start) as usize, None);
        self.current_start = start;
        self.earlier.clear();
        self.met.clear();
        let mut open = 0usize;
        for &atom in conflict {
            self.take(atom, Pos::MAX, trail, level, &mut open)?;
        }
        let mut pos = trail.len();
        let uip = loop {
            let needed = loop {
                if pos < start {
                    return Err(Unexplained);
                }
                if let Some(atom) = self.current[(pos - start) as usize].take() {
                    break atom;
                }
                pos -= 1;
            };
            open -= 1;
            if open == 0 {
                break needed;
            }
            if matches!(trail.entry(pos).cause, Cause::Decision | Cause::Root) {
                // Two atoms of this level with no reason between them: cannot happen with
                // one decision per level.
                return Err(Unexplained);
            }
            if !going() {
                return Err(Unexplained);
            }
            let mut buffer = std::mem::take(&mut self.buffer);
            buffer.clear();
            explain(pos, &mut buffer);
            for &atom in &buffer {
                self.take(atom, pos, trail, level, &mut open)?;
            }
            self.buffer = buffer;
            pos -= 1;
        };
        let mut atoms = vec![uip];
        simplify(&mut self.earlier);
        self.minimise(trail, &mut explain);
        let mut newest: Option<(usize, u32)> = None;
        let mut levels: Vec<u32> = vec![level];
        for (i, &atom) in self.earlier.iter().enumerate() {
            let at = trail.position(atom).ok_or(Unexplained)?;
            let l = trail.level_of(at);
            levels.push(l);
            if newest.is_none_or(|(_, best)| l > best) {
                newest = Some((i, l));
            }
        }
        levels.sort_unstable();
        levels.dedup();
        let backjump = newest.map_or(0, |(_, l)| l);
        if let Some((i, _)) = newest {
            atoms.push(self.earlier[i]);
            atoms.extend(
                self.earlier
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &a)| a),
            );
        }
        Ok(Learned {
            atoms,
            backjump,
            lbd: levels.len() as u32,
        })
    }

    /// Drops from the earlier levels' atoms those the others imply: an atom goes when every
    /// atom of its reason is a root fact, is implied by an atom kept that became true before
    /// it, or goes in turn by the same test, up to [`MINIMISE_DEPTH`] reasons deep (MiniSat's
    /// recursive minimisation, Sörensson and Biere 2009, over integer atoms). Atoms are tested
    /// oldest first: each one dropped is implied by older ones, so by those kept.
    fn minimise<F: FnMut(Pos, &mut Vec<Atom>)>(&mut self, trail: &AtomTrail, explain: &mut F) {
        let mut held: Vec<(Pos, Atom)> = Vec::with_capacity(self.earlier.len());
        for &atom in &self.earlier {
            match trail.position(atom) {
                Some(pos) => held.push((pos, atom)),
                None => return,
            }
        }
        held.sort_unstable_by_key(|&(pos, _)| pos);
        let mut levels = 0u64;
        for &(pos, _) in &held {
            levels |= 1 << (trail.level_of(pos) % 64);
        }
        self.memo.clear();
        let mut by_var: Vec<(VarId, Pos, Atom)> = held
            .iter()
            .map(|&(pos, atom)| (atom.var(), pos, atom))
            .collect();
        by_var.sort_unstable_by_key(|&(var, pos, _)| (var, pos));
        let mut search = Minimising {
            trail,
            by_var: &by_var,
            levels,
            memo: &mut self.memo,
            buffers: &mut self.buffers,
        };
        let mut dropped = vec![false; held.len()];
        for (i, &(pos, atom)) in held.iter().enumerate() {
            dropped[i] = match atom {
                // An `=` in hand may stand for two entries, its bounds having met at
                // different times; the reason of the newer implies only its own bound, so
                // the atom goes only if both are implied. (Dropping it on the newer alone
                // learned nogoods that no order of their explanations derives: a proof
                // checker's test found them.)
                Atom::Eq(x, v) => [Atom::Ge(x, v), Atom::Le(x, v)].into_iter().all(|half| {
                    trail.position(half).is_some_and(|p| {
                        p == ROOT
                            || trail.level_of(p) == 0
                            || search.implied_entry(p, MINIMISE_DEPTH, explain)
                    })
                }),
                _ => search.implied_entry(pos, MINIMISE_DEPTH, explain),
            };
        }
        self.earlier.clear();
        self.earlier.extend(
            held.iter()
                .zip(&dropped)
                .filter(|&(_, &gone)| !gone)
                .map(|(&(_, atom), _)| atom),
        );
    }

    /// Puts `atom` in hand: at the current level by its position (which must come before
    /// `before`), at an earlier one in `earlier`; root facts are dropped.
    fn take(
        &mut self,
        atom: Atom,
        before: Pos,
        trail: &AtomTrail,
        level: u32,
        open: &mut usize,
    ) -> Result<(), Unexplained> {
        let mut met = false;
        let halves = match atom {
            Atom::Eq(x, v) => [Atom::Ge(x, v), Atom::Le(x, v)],
            other => [other, other],
        };
        for (k, half) in halves.into_iter().enumerate() {
            if k == 1 && half == halves[0] {
                break;
            }
            let pos = trail.position(half).ok_or(Unexplained)?;
            if pos >= before {
                return Err(Unexplained);
            }
            if pos == ROOT {
                continue;
            }
            let l = trail.level_of(pos);
            if l == 0 {
                continue;
            }
            if !std::mem::replace(&mut met, true) {
                self.met.push(atom);
            }
            if l < level {
                self.earlier.push(half);
                continue;
            }
            let slot = pos
                .checked_sub(self.current_start)
                .and_then(|i| self.current.get_mut(i as usize))
                .ok_or(Unexplained)?;
            match *slot {
                None => {
                    *slot = Some(half);
                    *open += 1;
                }
                // Two atoms of one entry: the entry's own atom implies both.
                Some(held) if held != half => *slot = Some(trail.entry(pos).atom),
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// How many reasons deep minimisation follows an atom before keeping it.
const MINIMISE_DEPTH: u32 = 6;
/// The longest reason that minimisation looks through.
const MINIMISE_WIDEST: usize = 16;

/// One minimisation: the atoms in hand with their positions, by variable then position, and
/// the levels they span, as bits of a word.
struct Minimising<'a> {
    trail: &'a AtomTrail,
    by_var: &'a [(VarId, Pos, Atom)],
    levels: u64,
    memo: &'a mut FxHashMap<Pos, bool>,
    buffers: &'a mut Vec<Vec<Atom>>,
}

impl Minimising<'_> {
    /// Whether the entry at `pos` is implied by root facts and the atoms in hand older than
    /// it, through its reason and theirs, `depth` reasons deep at most.
    ///
    /// Every step looks only further back on the trail: an atom of the reason counts as
    /// implied by an atom in hand only if that one became true before this entry. An atom in
    /// hand that became true later may itself be dropped on the strength of this entry, and
    /// the two would then stand on each other (a proof checker found such nogoods, which no
    /// order of their explanations derives).
    fn implied_entry<F: FnMut(Pos, &mut Vec<Atom>)>(
        &mut self,
        pos: Pos,
        depth: u32,
        explain: &mut F,
    ) -> bool {
        if depth == 0 || matches!(self.trail.entry(pos).cause, Cause::Decision | Cause::Root) {
            return false;
        }
        if let Some(&known) = self.memo.get(&pos) {
            return known;
        }
        let slot = depth as usize;
        if self.buffers.len() <= slot {
            self.buffers.resize_with(slot + 1, Vec::new);
        }
        let mut reason = std::mem::take(&mut self.buffers[slot]);
        reason.clear();
        explain(pos, &mut reason);
        // A long reason is rarely implied whole, and testing it costs its length times the
        // atoms in hand: it keeps its atom.
        let implied = reason.len() <= MINIMISE_WIDEST
            && reason.iter().all(|&atom| {
                let halves = match atom {
                    Atom::Eq(x, v) => [Atom::Ge(x, v), Atom::Le(x, v)],
                    other => [other, other],
                };
                halves
                    .into_iter()
                    .all(|half| self.implied_atom(half, pos, depth - 1, explain))
            });
        self.buffers[slot] = reason;
        // The verdict depends on the entry alone (and on the depth left: a false one found
        // with little depth left is kept, which only keeps an atom that could have gone).
        self.memo.insert(pos, implied);
        implied
    }

    /// Whether `atom`, true before the entry at `bound`, is implied as
    /// [`Minimising::implied_entry`] asks.
    fn implied_atom<F: FnMut(Pos, &mut Vec<Atom>)>(
        &mut self,
        atom: Atom,
        bound: Pos,
        depth: u32,
        explain: &mut F,
    ) -> bool {
        let Some(pos) = self.trail.position(atom) else {
            return false;
        };
        if pos == ROOT || self.trail.level_of(pos) == 0 {
            return true;
        }
        let var = atom.var();
        let first = self.by_var.partition_point(|&(v, ..)| v < var);
        if self.by_var[first..]
            .iter()
            .take_while(|&&(v, p, _)| v == var && p < bound)
            .any(|&(_, _, held)| implies(held, atom))
        {
            return true;
        }
        if self.levels >> (self.trail.level_of(pos) % 64) & 1 == 0 {
            // Its reason leads back to a decision of a level no atom in hand is from.
            return false;
        }
        self.implied_entry(pos, depth, explain)
    }
}

/// Whether `a` implies `b` on its own.
fn implies(a: Atom, b: Atom) -> bool {
    if a.var() != b.var() {
        return false;
    }
    match (a, b) {
        (Atom::Eq(_, v), _) => b.holds_for(v),
        (Atom::Ge(_, k), Atom::Ge(_, j)) => k >= j,
        (Atom::Ge(_, k), Atom::Ne(_, v)) => v < k,
        (Atom::Le(_, k), Atom::Le(_, j)) => k <= j,
        (Atom::Le(_, k), Atom::Ne(_, v)) => v > k,
        (Atom::Ne(_, v), Atom::Ne(_, w)) => v == w,
        _ => false,
    }
}

/// Keeps, for each variable, the strongest bounds and the holes they do not imply.
fn simplify(atoms: &mut Vec<Atom>) {
    atoms.sort_by_key(|a| a.var());
    let mut out = Vec::with_capacity(atoms.len());
    let mut i = 0;
    while i < atoms.len() {
        let var = atoms[i].var();
        let mut j = i;
        let (mut low, mut high) = (None::<i32>, None::<i32>);
        let mut holes: Vec<i32> = Vec::new();
        while j < atoms.len() && atoms[j].var() == var {
            match atoms[j] {
                Atom::Ge(_, k) => low = Some(low.map_or(k, |l| l.max(k))),
                Atom::Le(_, k) => high = Some(high.map_or(k, |h| h.min(k))),
                Atom::Eq(_, k) => {
                    low = Some(low.map_or(k, |l| l.max(k)));
                    high = Some(high.map_or(k, |h| h.min(k)));
                }
                Atom::Ne(_, k) => holes.push(k),
            }
            j += 1;
        }
        holes.sort_unstable();
        holes.dedup();
        // A hole at a bound moves it: x >= 2 and x != 2 is x >= 3.
        if let Some(l) = low.as_mut() {
            while holes.binary_search(l).is_ok() {
                *l += 1;
            }
        }
        if let Some(h) = high.as_mut() {
            while holes.binary_search(h).is_ok() {
                *h -= 1;
            }
        }
        match (low, high) {
            (Some(l), Some(h)) if l == h => out.push(Atom::Eq(var, l)),
            _ => {
                if let Some(l) = low {
                    out.push(Atom::Ge(var, l));
                }
                if let Some(h) = high {
                    out.push(Atom::Le(var, h));
                }
                out.extend(
                    holes
                        .into_iter()
                        .filter(|&v| low.is_none_or(|l| v > l) && high.is_none_or(|h| v < h))
                        .map(|v| Atom::Ne(var, v)),
                );
            }
        }
        i = j;
    }
    *atoms = out;
}
