//! `NogoodStore`: the learned nogoods (sets of atoms that cannot all hold) and their
//! propagation by two watched atoms.
//!
//! A nogood is the clause of its atoms' negations, kept the other way round because conflict
//! analysis reasons in atoms, as Pumpkin keeps its nogoods. Two atoms of each are watched that
//! are not true; when one becomes true another is looked for, and when none is left the last
//! one is made false (or, if it is true too, the nogood is the conflict). The trail is the
//! queue: every entry's variable has its watchers looked at once.

use super::atom_trail::{Cause, Pos};
use crate::context::{Conflict, ConflictKind, Context, Store};
use crate::domain::Domains;
use crate::{Atom, ConstraintId, VarId};

/// One nogood.
#[derive(Clone, Debug)]
struct Nogood {
    atoms: Vec<Atom>,
    /// Its literal block distance when learned: how many decision levels its atoms spanned.
    lbd: u32,
    /// Whether the reduction may drop it (a learned one); blocking nogoods that enumeration
    /// adds must stay.
    deletable: bool,
}

/// The nogoods of one search and their watches.
#[derive(Debug, Default)]
pub(crate) struct NogoodStore {
    nogoods: Vec<Nogood>,
    free: Vec<u32>,
    /// For each variable, the nogoods watching an atom on it (maybe stale: checked on use).
    watches: Vec<Vec<u32>>,
    /// Trail entries up to here have had their watchers looked at.
    head: Pos,
    /// The nogood found with all its atoms true.
    pub(crate) conflict: Option<u32>,
    /// How many deletable nogoods there are.
    pub(crate) deletable: usize,
}

/// Whether `atom` holds in `domains`.
#[inline]
pub(crate) fn is_true(atom: Atom, domains: &Domains) -> bool {
    match atom {
        Atom::Ge(x, k) => domains.min(x).is_some_and(|m| m >= k),
        Atom::Le(x, k) => domains.max(x).is_some_and(|m| m <= k),
        Atom::Eq(x, k) => domains.value(x) == Some(k),
        Atom::Ne(x, k) => !domains.contains(x, k),
    }
}

/// Whether `atom` can no longer hold in `domains`.
#[inline]
pub(crate) fn is_false(atom: Atom, domains: &Domains) -> bool {
    match atom {
        Atom::Ge(x, k) => domains.max(x).is_none_or(|m| m < k),
        Atom::Le(x, k) => domains.min(x).is_none_or(|m| m > k),
        Atom::Eq(x, k) => !domains.contains(x, k),
        Atom::Ne(x, k) => domains.value(x) == Some(k),
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
    pub(crate) fn new(vars: usize) -> Self {
        NogoodStore {
            watches: vec![Vec::new(); vars],
            ..NogoodStore::default()
        }
    }

    /// The atoms of nogood `id`.
    pub(crate) fn atoms(&self, id: u32) -> &[Atom] {
        &self.nogoods[id as usize].atoms
    }

    /// Adds a nogood whose first atom is not true and, if it has more, whose second is the
    /// newest true one: the two it watches. Returns its id.
    pub(crate) fn add(&mut self, atoms: Vec<Atom>, lbd: u32, deletable: bool) -> u32 {
        let nogood = Nogood {
            atoms,
            lbd,
            deletable,
        };
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
        let atoms = &self.nogoods[id as usize].atoms;
        for atom in atoms.iter().take(2) {
            self.watches[atom.var().index()].push(id);
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
            let var = trail.entry(self.head).atom.var();
            self.visit(var, store)?;
        }
    }

    /// Looks at the nogoods watching an atom on `var`, which just changed.
    fn visit(&mut self, var: VarId, store: &mut Store) -> Result<(), Conflict> {
        let mut list = std::mem::take(&mut self.watches[var.index()]);
        let mut i = 0;
        let mut result = Ok(());
        while i < list.len() {
            let id = list[i];
            let nogood = &mut self.nogoods[id as usize];
            let atoms = &mut nogood.atoms;
            if atoms.len() < 2 || (atoms[0].var() != var && atoms[1].var() != var) {
                // Dropped or no longer watching here.
                list.swap_remove(i);
                continue;
            }
            let domains = &store.domains;
            let w = if atoms[0].var() == var && is_true(atoms[0], domains) {
                0
            } else if atoms[1].var() == var && is_true(atoms[1], domains) {
                1
            } else {
                i += 1;
                continue;
            };
            let other = atoms[1 - w];
            if is_false(other, domains) {
                i += 1;
                continue;
            }
            let replacement = (2..atoms.len()).find(|&j| !is_true(atoms[j], domains));
            if let Some(j) = replacement {
                atoms.swap(w, j);
                let moved_to = atoms[w].var();
                if moved_to == var {
                    i += 1;
                } else {
                    self.watches[moved_to.index()].push(id);
                    list.swap_remove(i);
                }
                continue;
            }
            if is_true(other, domains) {
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
        // Watches moved onto this variable meanwhile are kept with the rest.
        let added = std::mem::replace(&mut self.watches[var.index()], list);
        self.watches[var.index()].extend(added);
        result
    }

    /// At the root: keeps the deletable nogoods of at most 2 levels and the better half of
    /// the rest (fewest levels first, then newest), and rebuilds the watches.
    pub(crate) fn reduce(&mut self) {
        let mut candidates: Vec<(u32, u32)> = self
            .nogoods
            .iter()
            .enumerate()
            .filter(|(_, n)| n.deletable && n.lbd > 2 && !n.atoms.is_empty())
            .map(|(i, n)| (n.lbd, i as u32))
            .collect();
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let drop = candidates.len() / 2;
        for &(_, id) in &candidates[..drop] {
            self.nogoods[id as usize].atoms = Vec::new();
            self.free.push(id);
            self.deletable -= 1;
        }
        for list in &mut self.watches {
            list.clear();
        }
        for id in 0..self.nogoods.len() as u32 {
            self.watch(id);
        }
    }
}
