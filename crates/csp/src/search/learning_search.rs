//! `LearningSearch`: the node loop of lazy clause generation. Decide, propagate (nogoods
//! first, then constraints); on a conflict, learn a nogood, jump back to where it propagates,
//! and make its last atom false there. The branches not taken are never listed: the nogoods
//! learned rule out what has been explored, as in a CDCL SAT solver.

use super::core::Core;
use super::luby::Luby;
use super::neighbourhood::{Ending, Fixing, Neighbourhoods};
use super::var_order::rank;
use super::{
    DeclaredRuns, Outcome, SolveConfig, Statistics, Summary, ValueOrder, ValueSelect, VarSelect,
};
use crate::learning::activity::{Activity, Choice};
use crate::learning::analysis::{explain_cause, explain_entry, scope_before, Analysis, Learned};
use crate::learning::nogoods::{falsify, NogoodStore};
use crate::propagation::atom_trail::{AtomTrail, Cause, Pos};
use crate::propagation::context::{Conflict, ConflictKind, Context};
use crate::propagation::domains::TrailMark;
use crate::rng::SplitMix64;
use crate::Limit;
use crate::{Atom, ConstraintId, Model, Observer, VarId};
use std::time::Instant;

/// Conflicts in the first run between restarts, scaled by the Luby sequence.
const RESTART_SCALE: u64 = 100;
/// Deletable nogoods kept before the first reduction; the bound then grows by a tenth.
const FIRST_REDUCTION: usize = 4000;
/// Conflicts a neighbourhood's run may have before the search moves on to the next.
const NEIGHBOURHOOD_CONFLICTS: u64 = 200;
/// Domains wider than this are split in halves rather than tried a value at a time.
const WIDEST_ENUMERATED: u64 = 64;
/// The widest domain the declared search walks to its median or a random value.
const WIDEST_WALKED: u64 = 1 << 16;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Step {
    Start,
    Search,
    /// A solution was handed over: bound the objective, or rule it out, and go on.
    AfterSolution,
    Done,
}

/// What became of a conflict.
enum Resolved {
    /// A nogood was learned and its atom made false.
    Learned,
    /// The conflict holds at the root: no (better) solution is left.
    Root,
    /// Making the atom false failed in turn: analyse that.
    Again(Conflict),
}

/// A solve with learning, monomorphised per observer.
pub(crate) struct LearningSearch<'m, O> {
    core: Core<'m>,
    observer: O,
    nogoods: NogoodStore,
    analysis: Analysis,
    activity: Activity,
    /// Where the domains' trail stood as each decision level began, and its decision.
    levels: Vec<(TrailMark, Atom)>,
    step: Step,
    stats: Statistics,
    outcome: Outcome,
    solution: Vec<i32>,
    config: SolveConfig,
    started: Instant,
    luby: Luby,
    conflicts_this_run: u64,
    most_nogoods: usize,
    assumptions_hold: bool,
    /// The conflict's atoms, reused.
    conflict: Vec<Atom>,
    /// The nogoods the conflict being analysed used, and a buffer of their atoms' levels.
    used_nogoods: Vec<u32>,
    nogood_levels: Vec<u32>,
    /// The trail entries up to here were explained to an observer that wants every
    /// explanation.
    every_explained: Pos,
    /// Whether this run between restarts follows the declared search (its phases first,
    /// then activity for the rest) rather than activity alone.
    declared: bool,
    /// The generator of the declared search's random values.
    rng: SplitMix64,
    /// The root's trail entries up to here have been explained to the observer.
    root_explained: u32,
    /// Large neighbourhood search, when asked for under an objective.
    lns: Option<Neighbourhoods>,
    /// The runs of the complete search ended so far (restarts outside the neighbourhoods).
    complete_runs: u64,
    /// Conflicts spent in the complete search's runs and in the neighbourhoods' (each of
    /// these counting one more, so that runs refuted at once still cost).
    complete_conflicts: u64,
    lns_conflicts: u64,
    /// `solution` holds a solution: this search's last, or a better one of a portfolio's.
    incumbent: bool,
    /// The solutions found in runs that followed the declared search, and elsewhere (free
    /// runs, neighbourhoods, another worker of a portfolio): the race of
    /// [`DeclaredRuns::WhileAhead`].
    found_declared: u32,
    found_elsewhere: u32,
    /// Each variable's hinted value ([`Solver::hint`](super::Solver::hint)), tried first
    /// until there is an incumbent.
    hinted: Vec<Option<i32>>,
}

impl<'m, O: Observer> LearningSearch<'m, O> {
    pub(crate) fn new(model: &'m Model, config: SolveConfig, observer: O) -> Self {
        let started = Instant::now();
        let mut core = Core::new(
            model,
            config.inference,
            observer.wants_prunes(),
            &config.limits,
        );
        let assumptions_hold = core.begin(&config, &[]);
        let n = model.var_count();
        let (declared, phase_seed) = (!config.phases.is_empty(), config.phase_seed);
        let nogoods = NogoodStore::new(spans(&core));
        let activity = Activity::new(spans(&core));
        LearningSearch {
            core,
            observer,
            nogoods,
            analysis: Analysis::default(),
            activity,
            levels: Vec::new(),
            step: Step::Start,
            stats: Statistics::default(),
            outcome: Outcome::Solved,
            solution: vec![0; n],
            luby: Luby::new(config.restarts.unwrap_or(RESTART_SCALE)),
            started,
            conflicts_this_run: 0,
            most_nogoods: FIRST_REDUCTION,
            assumptions_hold,
            conflict: Vec::new(),
            used_nogoods: Vec::new(),
            nogood_levels: Vec::new(),
            every_explained: 0,
            declared,
            rng: SplitMix64::new(phase_seed),
            root_explained: 0,
            lns: neighbourhoods(&config),
            complete_runs: 0,
            found_declared: 0,
            found_elsewhere: 0,
            complete_conflicts: 0,
            lns_conflicts: 0,
            incumbent: false,
            hinted: hinted(n, &config),
            config,
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.step = Step::Done;
        self.stats.elapsed = self.started.elapsed();
    }

    fn trail(&self) -> Option<&AtomTrail> {
        self.core.store.atoms.as_deref()
    }

    fn level(&self) -> u32 {
        self.trail().map_or(0, AtomTrail::level)
    }

    fn limit_hit(&mut self) -> Option<Limit> {
        self.core.limit_hit(self.stats.nodes)
    }

    /// Advances to the next solution.
    fn advance(&mut self) -> bool {
        loop {
            match self.step {
                Step::Done => return false,
                Step::Start => self.start(),
                Step::AfterSolution => self.after_solution(),
                Step::Search => {
                    if let Some(limit) = self.limit_hit() {
                        self.finish(Outcome::LimitReached(limit));
                        continue;
                    }
                    if self.core.import_bound() {
                        // Another worker of a portfolio did better: start again from the
                        // root under its bound, around its solution.
                        if let Some((shared, _)) = &self.core.shared {
                            if shared.copy_solution(&mut self.solution) {
                                self.new_incumbent(false);
                            }
                        }
                        self.restart(Ending::Improved);
                        self.bound_at_root();
                        continue;
                    }
                    let propagated = self.propagate();
                    self.explain_root();
                    if let Err(conflict) = propagated {
                        self.on_conflict(conflict);
                        continue;
                    }
                    if self.conflicts_this_run >= self.run_budget() && self.level() > 0 {
                        self.restart(Ending::OutOfBudget);
                        continue;
                    }
                    // A neighbourhood's fixings come first, each a decision.
                    let fixing = self
                        .lns
                        .as_mut()
                        .filter(|lns| lns.active)
                        .map(|lns| lns.next(&self.core.store.domains));
                    match fixing {
                        Some(Fixing::Decide(atom)) => {
                            self.decide(atom);
                            continue;
                        }
                        Some(Fixing::Refuted) => {
                            self.restart(Ending::Exhausted);
                            continue;
                        }
                        Some(Fixing::Settled) | None => {}
                    }
                    match self.pick() {
                        Some(atom) => self.decide(atom),
                        None => {
                            self.record_solution();
                            self.step = Step::AfterSolution;
                            if self
                                .config
                                .max_solutions
                                .is_some_and(|k| self.stats.solutions >= k)
                            {
                                self.finish(Outcome::Solved);
                            }
                            return true;
                        }
                    }
                }
            }
        }
    }

    /// Sets the trail up on the root's domains and filters them.
    fn start(&mut self) {
        if let Some(limit) = self.core.interrupted {
            self.finish(Outcome::LimitReached(limit));
            return;
        }
        if !self.assumptions_hold || self.config.shard.is_some_and(|(index, _)| index != 0) {
            // Another shard's part, or assumptions that cannot hold: nothing to search. The
            // first shard searches everything, since learning does not split.
            self.finish(Outcome::Exhausted);
            return;
        }
        let mut trail = AtomTrail::new(&self.core.store.domains);
        trail.holes_at_root_as_entries = self.observer.wants_explanations();
        self.core.store.atoms = Some(Box::new(trail));
        let nogoods = &mut self.nogoods;
        let root = self
            .core
            .propagate_all_with(&mut self.observer, |store| nogoods.propagate(store));
        if let Err(conflict) = root {
            if self.core.interrupted.is_none() && self.observer.wants_explanations() {
                // The root's own conflict, for an observer keeping a proof.
                self.explain_root();
                self.conflict_atoms(conflict);
            }
            let outcome = match self.core.interrupted {
                Some(limit) => Outcome::LimitReached(limit),
                None => Outcome::Exhausted,
            };
            self.finish(outcome);
            return;
        }
        self.core.retire_entailed();
        self.step = Step::Search;
    }

    fn propagate(&mut self) -> Result<(), Conflict> {
        let nogoods = &mut self.nogoods;
        let result = self
            .core
            .fixpoint_with(&mut self.observer, |store| nogoods.propagate(store));
        if self.observer.wants_every_explanation() {
            self.explain_every();
        }
        result
    }

    /// Explains to an observer that asks for every explanation each change made below the
    /// root since the last call.
    fn explain_every(&mut self) {
        let model = self.core.model;
        let Some(trail) = self.core.store.atoms.as_deref() else {
            return;
        };
        let mut reason = Vec::new();
        while self.every_explained < trail.len() {
            self.every_explained += 1;
            let pos = self.every_explained;
            let entry = trail.entry(pos);
            if entry.level == 0 {
                continue;
            }
            let Some((by, source)) = explainer(entry.cause, &self.nogoods) else {
                continue;
            };
            reason.clear();
            explain_entry(
                pos,
                trail,
                &self.nogoods,
                &model.network,
                false,
                &mut reason,
            );
            let with_root = with_root_facts(&reason, trail, model, by, Some(entry.atom.var()));
            self.observer
                .on_explanation(by, source, &with_root, Some(entry.atom));
        }
    }

    /// Learns from `conflict` and from any that making its nogood's atom false raises.
    fn on_conflict(&mut self, mut conflict: Conflict) {
        loop {
            if let Some(limit) = self.core.interrupted {
                self.finish(Outcome::LimitReached(limit));
                return;
            }
            self.stats.backtracks += 1;
            self.conflicts_this_run += 1;
            match conflict.kind {
                ConflictKind::WipeOut(var) => self.observer.on_wipeout(var, conflict.constraint),
                ConflictKind::Violated => {
                    let (var, value) = match self.levels.last() {
                        Some(&(
                            _,
                            Atom::Eq(x, v) | Atom::Le(x, v) | Atom::Ge(x, v) | Atom::Ne(x, v),
                        )) => (x, v),
                        None => (VarId(0), 0),
                    };
                    self.observer.on_violation(var, value, conflict.constraint);
                }
            }
            match self.resolve(conflict) {
                Resolved::Learned => return,
                Resolved::Root => {
                    self.finish(Outcome::Exhausted);
                    return;
                }
                Resolved::Again(next) => conflict = next,
            }
        }
    }

    /// Explains to an observer that asks for explanations each change made at the root since
    /// the last call. Analysis never explains them (it drops root facts), but a proof checker
    /// must derive them too.
    fn explain_root(&mut self) {
        if !self.observer.wants_explanations() || self.level() != 0 {
            return;
        }
        let model = self.core.model;
        let Some(trail) = self.core.store.atoms.as_deref() else {
            return;
        };
        let mut reason = Vec::new();
        while self.root_explained < trail.len() {
            self.root_explained += 1;
            let pos = self.root_explained;
            let entry = trail.entry(pos);
            let Some((by, source)) = explainer(entry.cause, &self.nogoods) else {
                continue;
            };
            reason.clear();
            explain_entry(
                pos,
                trail,
                &self.nogoods,
                &model.network,
                false,
                &mut reason,
            );
            let with_root = with_root_facts(&reason, trail, model, by, Some(entry.atom.var()));
            self.observer
                .on_root_explanation(by, source, &with_root, entry.atom);
        }
    }

    /// Puts the atoms of `conflict` in `self.conflict`: true now, they cannot all hold.
    fn conflict_atoms(&mut self, conflict: Conflict) {
        let mut atoms = std::mem::take(&mut self.conflict);
        atoms.clear();
        let model = self.core.model;
        let Some(trail) = self.core.store.atoms.as_deref_mut() else {
            self.conflict = atoms;
            return;
        };
        let now = trail.len() + 1;
        if let Some(wipe) = trail.wipe_out.take() {
            let var = wipe.var;
            explain_cause(
                wipe.cause,
                var,
                now,
                trail,
                &self.nogoods,
                &model.network,
                &mut atoms,
            );
            let (low, high) = wipe.before;
            atoms.push(Atom::Ge(var, low));
            atoms.push(Atom::Le(var, high));
            trail.holes_between(var, low, high, now, &mut atoms);
            if self.observer.wants_explanations() {
                let (by, source) =
                    explainer(wipe.cause, &self.nogoods).unwrap_or((ConstraintId::NOGOOD, &[]));
                let with_root = with_root_facts(&atoms, trail, model, by, None);
                self.observer.on_explanation(by, source, &with_root, None);
            }
        } else if let Some(id) = self.nogoods.conflict.take() {
            self.used_nogoods.push(id);
            let nogood = self.nogoods.atoms(id);
            atoms.extend_from_slice(nogood);
            if self.observer.wants_explanations() {
                let with_root = with_root_facts(&atoms, trail, model, ConstraintId::NOGOOD, None);
                self.observer
                    .on_explanation(ConstraintId::NOGOOD, nogood, &with_root, None);
            }
        } else if let Some((by, start, end)) = trail
            .violation
            .take()
            .filter(|&(by, ..)| by == conflict.constraint)
        {
            atoms.extend_from_slice(&trail.reasons[start as usize..end as usize]);
            if self.observer.wants_explanations() {
                let with_root = with_root_facts(&atoms, trail, model, by, None);
                self.observer.on_explanation(by, &[], &with_root, None);
            }
        } else if model.constraint(conflict.constraint).is_some() {
            scope_before(
                &model.network,
                conflict.constraint,
                None,
                now,
                trail,
                &mut atoms,
            );
            if self.observer.wants_explanations() {
                let with_root = with_root_facts(&atoms, trail, model, conflict.constraint, None);
                self.observer
                    .on_explanation(conflict.constraint, &[], &with_root, None);
            }
        } else {
            // No constraint to explain it: the decisions led here.
            atoms.extend(self.levels.iter().map(|&(_, d)| d));
        }
        self.conflict = atoms;
    }

    /// Analyses `conflict`, jumps back, and makes the learned nogood propagate.
    fn resolve(&mut self, conflict: Conflict) -> Resolved {
        self.conflict_atoms(conflict);
        let level = self.level();
        if level == 0 {
            return Resolved::Root;
        }
        let model = self.core.model;
        let Some(trail) = self.core.store.atoms.as_deref() else {
            return Resolved::Root;
        };
        let nogoods = &self.nogoods;
        let observer = &mut self.observer;
        let poller = &mut self.core.poller;
        let checked = observer.wants_explanations();
        let going = || poller.tick();
        // The nogoods analysis reads as reasons (and the one in conflict), for their tiers.
        let mut used = std::mem::take(&mut self.used_nogoods);
        let analysed = self.analysis.analyse(
            &self.conflict,
            trail,
            |pos, out| {
                let start = out.len();
                if let Cause::Nogood(id) = trail.entry(pos).cause {
                    used.push(id);
                }
                explain_entry(pos, trail, nogoods, &model.network, !checked, out);
                if checked {
                    let entry = trail.entry(pos);
                    let (by, source) =
                        explainer(entry.cause, nogoods).unwrap_or((ConstraintId::NOGOOD, &[]));
                    let with_root =
                        with_root_facts(&out[start..], trail, model, by, Some(entry.atom.var()));
                    observer.on_explanation(by, source, &with_root, Some(entry.atom));
                }
            },
            going,
        );
        for id in used.drain(..) {
            self.nogoods.used(id, trail, &mut self.nogood_levels);
        }
        self.used_nogoods = used;
        self.nogoods.decay();
        let learned = match analysed {
            Ok(learned) => learned,
            // A reason that did not hold, or a limit due mid-analysis (which the node loop
            // meets next): the decisions are a nogood all the same.
            Err(_) => self.decisions_nogood(),
        };
        for &atom in self.analysis.met.iter().chain(&learned.atoms) {
            self.activity.bump(atom);
        }
        self.activity.decay();
        self.stats.learned += 1;
        self.stats.learned_atoms += learned.atoms.len() as u64;
        self.stats.backjump_levels += u64::from(level - learned.backjump);
        self.observer
            .on_nogood(&learned.atoms, learned.backjump as usize);
        self.assert_nogood(learned, true)
    }

    /// The nogood of every decision on the branch, newest first.
    fn decisions_nogood(&self) -> Learned {
        let atoms: Vec<Atom> = self.levels.iter().rev().map(|&(_, d)| d).collect();
        let level = self.levels.len() as u32;
        Learned {
            atoms,
            backjump: level.saturating_sub(1),
            lbd: level,
        }
    }

    /// Jumps back to the nogood's level, keeps the nogood and makes its first atom false.
    fn assert_nogood(&mut self, learned: Learned, deletable: bool) -> Resolved {
        self.backjump(learned.backjump);
        let first = learned.atoms[0];
        let id = self.nogoods.add(learned.atoms, learned.lbd, deletable);
        if let Some(trail) = self.core.store.atoms.as_deref_mut() {
            trail.cause = Cause::Nogood(id);
        }
        let mut ctx = Context {
            store: &mut self.core.store,
            current: ConstraintId::NOGOOD,
        };
        match falsify(first, &mut ctx) {
            Ok(()) => Resolved::Learned,
            Err(conflict) => Resolved::Again(conflict),
        }
    }

    /// Takes the search back to the end of decision level `level`.
    fn backjump(&mut self, level: u32) {
        while self.levels.len() > level as usize {
            let depth = self.levels.len();
            let Some((mark, decision)) = self.levels.pop() else {
                break;
            };
            match decision {
                Atom::Eq(var, value) => self.observer.on_backtrack(var, value, depth),
                _ => self.observer.on_unsplit(decision, depth),
            }
            self.core.store.domains.restore(mark);
        }
        self.core.store.clear_changed();
        if let Some(lns) = self.lns.as_mut() {
            lns.backjumped();
        }
        if let Some(trail) = self.core.store.atoms.as_deref_mut() {
            trail.backjump(level);
            self.nogoods.backjumped(trail.len());
            self.every_explained = self.every_explained.min(trail.len());
            for (var, low, high) in trail.reopened.drain(..) {
                self.activity
                    .reopen(var, low, high, &self.core.store.domains);
            }
        }
    }

    /// At the root, keeps the objective within its bound; ends the search when nothing better
    /// is left.
    fn bound_at_root(&mut self) {
        let Some(bound) = self.core.objective else {
            return;
        };
        if let Some(trail) = self.core.store.atoms.as_deref_mut() {
            trail.cause = Cause::Root;
        }
        let mut ctx = Context {
            store: &mut self.core.store,
            current: ConstraintId::OBJECTIVE,
        };
        if ctx.keep_only(bound.var, [(bound.low, bound.high)]).is_err() {
            self.finish(Outcome::Exhausted);
        }
    }

    /// The conflicts the current run may have: a neighbourhood's fixed number, or the
    /// complete search's next term of the Luby sequence.
    fn run_budget(&self) -> u64 {
        match &self.lns {
            Some(lns) if lns.active => NEIGHBOURHOOD_CONFLICTS,
            _ => self.luby.budget(),
        }
    }

    /// Back to the root, ending the current run as `ending` says (which only a
    /// neighbourhood's run heeds), and on to the next run; the nogoods may be thinned there.
    fn restart(&mut self, ending: Ending) {
        self.backjump(0);
        self.end_run(ending);
        if self.nogoods.deletable > self.most_nogoods {
            self.nogoods.reduce();
            self.most_nogoods += self.most_nogoods / 10;
        }
        self.stats.restarts += 1;
        self.observer.on_restart(self.stats.restarts);
    }

    /// Ends the current run at the root and picks the next: a neighbourhood's, when there is
    /// an incumbent and the neighbourhoods have had fewer conflicts than the complete search
    /// (than a half, a quarter, an eighth of its in a drought: `Neighbourhoods::due`), else the
    /// complete search's, with its next budget.
    fn end_run(&mut self, ending: Ending) {
        let conflicts = std::mem::take(&mut self.conflicts_this_run);
        match self.lns.as_mut() {
            Some(lns) if lns.active => {
                lns.end(ending);
                self.lns_conflicts += conflicts + 1;
            }
            _ => {
                self.luby.advance();
                self.complete_conflicts += conflicts;
                self.complete_runs += 1;
                // Chuffed's alternation: with a declared search, every other run follows it
                // (until the first solution, where asked), or every run (while it leads
                // the race, where asked).
                if !self.config.phases.is_empty() {
                    self.declared =
                        self.declared_every_run() || (!self.declared && !self.declared_done());
                }
            }
        }
        if let Some(lns) = self.lns.as_mut() {
            if self.incumbent && lns.due(self.lns_conflicts, self.complete_conflicts) {
                lns.start(&self.solution, &self.core.store.domains);
            }
        }
    }

    /// The next decision: in a declared run, the declared search's while one of its
    /// variables is open; else the most active unfixed variable, at its last value (or the
    /// value order's first), a wide one above where conflicts last cut it or else halved.
    /// `None` when every variable is fixed.
    fn pick(&mut self) -> Option<Atom> {
        if self.declared && !self.lns.as_ref().is_some_and(|lns| lns.active) {
            if let Some(atom) = self.declared_pick() {
                return Some(atom);
            }
        }
        let choice = self.next_choice()?;
        let domains = &self.core.store.domains;
        let var = match choice {
            Choice::Value(var, _) | Choice::Var(var) => var,
        };
        // The incumbent's value first, when asked for and still possible, in every other run
        // that does not follow the declared search: always following it can hold the search
        // around a poor first solution (cargo challenge07: 1761 for 30 s, where the free
        // search reaches 853). With a declared search the free runs are the odd ones. Before
        // any solution, the hinted value first (`Solver::hint`).
        let preferred = if self.incumbent {
            (self.config.incumbent_phase
                && self.config.objective.is_some()
                && self.follows_incumbent_this_run())
            .then(|| self.solution[var.index()])
        } else {
            self.hinted[var.index()]
        }
        .filter(|&v| domains.contains(var, v));
        match (choice, preferred) {
            (Choice::Value(_, value), None) => return Some(Atom::Eq(var, value)),
            // The popped choice goes back, for when the preferred value is ruled out.
            (Choice::Value(_, value), Some(_)) => self.activity.reopen(var, value, value, domains),
            (Choice::Var(_), _) => {}
        }
        let saved = preferred.or_else(|| {
            self.trail()
                .and_then(|t| t.saved[var.index()])
                .filter(|&v| domains.contains(var, v))
        });
        let (min, max) = (domains.min(var)?, domains.max(var)?);
        let value = saved.unwrap_or(match self.config.value_order {
            ValueOrder::Descending => max,
            _ => min,
        });
        if domains.size_u64(var) <= WIDEST_ENUMERATED {
            return Some(Atom::Eq(var, value));
        }
        // Where conflicts last cut the variable, its upper side first: the bound literal
        // `[x <= t]` that Chuffed's activity would pick, set false as its polarity does
        // (hoist PU_2_8_4's proof with the objective fixed: 2,799 conflicts, against 8,204
        // by halving; `x <= t` instead, 127,103). Only where activity alone leads: while a
        // declared search alternates with it, the free runs go on from the values the
        // declared runs left (openshop j7per10-1: 1.3 s so, 22 s with the cut throughout).
        if preferred.is_none() && !self.declared_alternates() {
            if let Some(t) = self.activity.last_cut(var).filter(|&t| min <= t && t < max) {
                return Some(Atom::Ge(var, domains.next_above(var, Some(t))?));
            }
        }
        // Halve towards the value: the cut is a value of the domain, so that the decision's
        // atom is the bound it sets.
        let mid = (i64::from(min) + i64::from(max)).div_euclid(2) as i32;
        if value <= mid {
            let cut = domains.next_below(var, Some(mid.saturating_add(1)))?;
            Some(Atom::Le(var, cut))
        } else {
            let cut = domains.next_above(var, Some(mid))?;
            Some(Atom::Ge(var, cut))
        }
    }

    /// Whether the declared search has done its part: a solution found where it guides
    /// only until one ([`DeclaredRuns::AlternateUntilSolution`]), or while it finds more of
    /// them than the rest of the search ([`DeclaredRuns::WhileAhead`]) and it no longer does.
    fn declared_done(&self) -> bool {
        self.incumbent
            && match self.config.declared_runs {
                DeclaredRuns::AlternateUntilSolution => true,
                DeclaredRuns::WhileAhead => self.found_declared <= self.found_elsewhere,
                DeclaredRuns::Alternate | DeclaredRuns::Every => false,
            }
    }

    /// Whether every run of the complete search follows the declared search: always under
    /// [`DeclaredRuns::Every`]; under [`DeclaredRuns::WhileAhead`] once there is a solution,
    /// while its runs have found more of the solutions than the rest of the search.
    fn declared_every_run(&self) -> bool {
        match self.config.declared_runs {
            DeclaredRuns::Every => true,
            DeclaredRuns::WhileAhead => self.incumbent && !self.declared_done(),
            DeclaredRuns::Alternate | DeclaredRuns::AlternateUntilSolution => false,
        }
    }

    /// Whether a declared search still takes runs of its own (every other run, or every run
    /// under [`DeclaredRuns::Every`]), rather than leaving the search to activity alone.
    fn declared_alternates(&self) -> bool {
        !self.config.phases.is_empty() && !self.declared_done()
    }

    /// Whether this run is one of every other free run (one that does not follow the
    /// declared search; with a declared search alternated the free runs are the odd ones;
    /// followed in every run, the variables it leaves open go by every other run).
    fn follows_incumbent_this_run(&self) -> bool {
        let run = self.complete_runs;
        let free_run = if !self.declared_alternates() || self.declared_every_run() {
            run
        } else if run % 2 == 1 {
            run / 2
        } else {
            return false;
        };
        free_run % 2 == 0
    }

    /// The most active open choice. When the heap runs dry, every variable is checked to be
    /// fixed before the search calls it a solution: a variable still open (which the
    /// backjumps' bookkeeping should never leave out) has its choices put back instead.
    fn next_choice(&mut self) -> Option<Choice> {
        let domains = &self.core.store.domains;
        if let Some(choice) = self.activity.pop(domains) {
            return Some(choice);
        }
        let open: Vec<VarId> = (0..self.core.model.var_count() as u32)
            .map(VarId)
            .filter(|&var| domains.size(var) > 1)
            .collect();
        debug_assert!(
            open.is_empty(),
            "open variables left out of the heap: {open:?}"
        );
        for &var in &open {
            self.activity.reopen(var, i32::MIN, i32::MAX, domains);
        }
        self.activity.pop(domains)
    }

    /// The declared search's decision: the first phase with an open variable picks one by
    /// its selection, and its value selection gives the atom (`x = v`, or a half for the
    /// splits). A refuted `x = v` is learned as `x != v`, so the two-way branching of Gecode's
    /// `indomain_min` comes of itself.
    fn declared_pick(&mut self) -> Option<Atom> {
        let domains = &self.core.store.domains;
        let (var, value) = self.config.phases.iter().find_map(|phase| {
            let mut best: Option<(i64, VarId)> = None;
            for &var in phase.vars.iter().filter(|&&v| domains.size(v) > 1) {
                let r = rank(phase.select, &self.core, var);
                if best.is_none_or(|(b, _)| r < b) {
                    best = Some((r, var));
                    if phase.select == VarSelect::InputOrder {
                        break;
                    }
                }
            }
            best.map(|(_, var)| (var, phase.value))
        })?;
        let (min, max) = (domains.min(var)?, domains.max(var)?);
        let mid = (i64::from(min) + i64::from(max)).div_euclid(2) as i32;
        let size = domains.size_u64(var);
        // The n-th value is found by walking the domain: on a wider one, the value at or below
        // the middle of the bounds stands for the median, and a value drawn between the bounds
        // (the next one up in the domain) for a random one.
        let walkable = size <= WIDEST_WALKED;
        Some(match value {
            ValueSelect::Min => Atom::Eq(var, min),
            ValueSelect::Max => Atom::Eq(var, max),
            ValueSelect::Median if walkable => {
                let nth = usize::try_from((size - 1) / 2).unwrap_or(0);
                Atom::Eq(var, domains.iter(var).nth(nth).unwrap_or(min))
            }
            ValueSelect::Median => Atom::Eq(var, domains.next_below(var, Some(mid + 1))?),
            ValueSelect::Random if walkable => {
                let nth = usize::try_from(self.rng.below(size)).unwrap_or(0);
                Atom::Eq(var, domains.iter(var).nth(nth).unwrap_or(min))
            }
            ValueSelect::Random => {
                let span = (i64::from(max) - i64::from(min)) as u64 + 1;
                let drawn = i64::from(min) + self.rng.below(span) as i64;
                let below = (drawn > i64::from(i32::MIN)).then(|| (drawn - 1) as i32);
                let value = domains.next_above(var, below);
                Atom::Eq(var, value.unwrap_or(min))
            }
            // The cut is a value of the domain, so that the atom is the bound it sets.
            ValueSelect::Split => Atom::Le(var, domains.next_below(var, Some(mid + 1))?),
            ValueSelect::ReverseSplit => Atom::Ge(var, domains.next_above(var, Some(mid))?),
        })
    }

    /// Opens a decision level and makes `atom` true.
    fn decide(&mut self, atom: Atom) {
        self.stats.nodes += 1;
        let mark = self.core.store.domains.mark();
        self.levels.push((mark, atom));
        let depth = self.levels.len();
        self.stats.max_depth = self.stats.max_depth.max(depth as u64);
        if let Some(trail) = self.core.store.atoms.as_deref_mut() {
            trail.push_level();
            trail.cause = Cause::Decision;
        }
        let store = &mut self.core.store;
        let var = atom.var();
        let (low, high) = match atom {
            Atom::Eq(_, v) => {
                store.domains.assign(var, v);
                (i32::MIN, i32::MAX)
            }
            Atom::Le(_, v) => {
                let (_, low, high) = store.domains.remove_span(var, v + 1, i32::MAX);
                (low, high)
            }
            Atom::Ge(_, v) => {
                let (_, low, high) = store.domains.remove_span(var, i32::MIN, v - 1);
                (low, high)
            }
            Atom::Ne(_, v) => {
                store.domains.remove(var, v);
                (v, v)
            }
        };
        store.note_changed(var, low, high);
        if store.domains.size(var) > 1 {
            // A halving leaves a wide variable open: it must come up again.
            self.activity.reopen_var(var);
        }
        match atom {
            Atom::Eq(_, value) => self.observer.on_assign(var, value, depth),
            _ => self.observer.on_split(atom, depth),
        }
    }

    /// Copies the solution at hand and tightens the objective's bound past it.
    fn record_solution(&mut self) {
        self.core
            .take_solution(&mut self.solution, self.config.objective);
        self.stats.solutions += 1;
        let in_declared_run = self.declared && !self.lns.as_ref().is_some_and(|lns| lns.active);
        self.new_incumbent(in_declared_run);
        self.observer.on_solution(&self.solution);
    }

    /// `solution` holds a better solution (this search's or a portfolio's; found in a run
    /// that followed the declared search, `in_declared_run`, or elsewhere): the propagators
    /// may know it (`Context::solution_known`), the neighbourhoods' drought is over, and the
    /// race of [`DeclaredRuns::WhileAhead`] counts it.
    fn new_incumbent(&mut self, in_declared_run: bool) {
        if in_declared_run {
            self.found_declared += 1;
        } else {
            self.found_elsewhere += 1;
        }
        self.incumbent = true;
        self.core.store.solution_known = true;
        if let Some(lns) = self.lns.as_mut() {
            lns.improved();
        }
    }

    /// After a solution: under an objective, back to the root with the tighter bound; else
    /// rule this solution out by the nogood of its decisions.
    fn after_solution(&mut self) {
        self.step = Step::Search;
        if self.core.objective.is_some() {
            self.backjump(0);
            if self.lns.as_ref().is_some_and(|lns| lns.active) {
                // A better solution in a neighbourhood: on to the next one.
                self.end_run(Ending::Improved);
            }
            self.core.import_bound();
            self.bound_at_root();
            return;
        }
        if self.levels.is_empty() {
            self.finish(Outcome::Exhausted);
            return;
        }
        let nogood = self.decisions_nogood();
        if let Resolved::Again(conflict) = self.assert_nogood(nogood, false) {
            self.on_conflict(conflict);
        }
    }
}

/// Who explains a change made by `cause`, for an observer: the constraint (with no nogood),
/// or [`ConstraintId::NOGOOD`] with the nogood's atoms; `None` for a decision or a root
/// domain, which have no explanation.
fn explainer(cause: Cause, nogoods: &NogoodStore) -> Option<(ConstraintId, &[Atom])> {
    match cause {
        Cause::Propagator(c) | Cause::Explained(c, ..) | Cause::Lazy(c, _) => Some((c, &[])),
        Cause::Nogood(id) => Some((ConstraintId::NOGOOD, nogoods.atoms(id))),
        Cause::Decision | Cause::Root => None,
    }
}

/// Large neighbourhood search over the variables `config` names, when it has an objective.
fn neighbourhoods(config: &SolveConfig) -> Option<Neighbourhoods> {
    (config.objective.is_some() && !config.lns.is_empty())
        .then(|| Neighbourhoods::new(config.lns.clone(), config.phase_seed))
}

/// Each variable's bounds at the start of a solve.
fn spans<'c>(core: &'c Core<'_>) -> impl Iterator<Item = (i32, i32)> + 'c {
    let domains = &core.store.domains;
    // No domains when a limit stopped their setting up: the search then ends at its start.
    (0..domains.len()).map(move |i| {
        let var = VarId(i as u32);
        (domains.min(var).unwrap_or(0), domains.max(var).unwrap_or(0))
    })
}

/// `atoms` and the facts of the root about their variables, the scope of `by` and `implied`, for an
/// observer checking them.
fn with_root_facts(
    atoms: &[Atom],
    trail: &AtomTrail,
    model: &Model,
    by: ConstraintId,
    implied: Option<VarId>,
) -> Vec<Atom> {
    let mut out = atoms.to_vec();
    let scope = model.constraint(by).map_or(&[][..], |c| c.scope());
    let mut vars: Vec<VarId> = atoms
        .iter()
        .map(Atom::var)
        .chain(scope.iter().copied())
        .chain(implied)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    for var in vars {
        // The declared values gone at the root, one atom each: a run of them may be too long
        // to list whole ({MIN, 0, 2} without 0 leaves MIN + 1..=1).
        let declared = model
            .initial_values(var)
            .take(ROOT_FACTS_LISTED + 1)
            .count();
        if declared <= ROOT_FACTS_LISTED {
            out.extend(
                model
                    .initial_values(var)
                    .filter(|&v| trail.gone_at_root(var, v))
                    .map(|v| Atom::Ne(var, v)),
            );
        } else {
            trail.root_facts(var, &mut out);
        }
    }
    out
}

/// The most declared values of a variable whose removals at the root a checker is told of
/// one by one.
const ROOT_FACTS_LISTED: usize = 1 << 16;

impl<O: Observer> super::node_loop::Run for LearningSearch<'_, O> {
    fn next_solution(&mut self) -> Option<&[i32]> {
        if self.advance() {
            Some(&self.solution)
        } else {
            None
        }
    }

    fn stop(&mut self) {
        if self.step != Step::Done {
            self.finish(Outcome::Solved);
        }
    }

    fn keep_fresh(&mut self) {}

    fn reset(&mut self, assumed: &[(VarId, i32)]) {
        let config = self.config.clone();
        self.step = Step::Start;
        self.core.reset(&config.limits);
        self.core.store.atoms = None;
        self.assumptions_hold = self.core.begin(&config, assumed);
        self.nogoods = NogoodStore::new(spans(&self.core));
        self.activity = Activity::new(spans(&self.core));
        self.levels.clear();
        self.stats = Statistics::default();
        self.outcome = Outcome::Solved;
        self.started = Instant::now();
        self.luby = Luby::new(config.restarts.unwrap_or(RESTART_SCALE));
        self.conflicts_this_run = 0;
        self.most_nogoods = FIRST_REDUCTION;
        self.declared = !config.phases.is_empty();
        self.rng = SplitMix64::new(config.phase_seed);
        self.root_explained = 0;
        self.every_explained = 0;
        self.lns = neighbourhoods(&config);
        self.complete_runs = 0;
        self.found_declared = 0;
        self.found_elsewhere = 0;
        self.complete_conflicts = 0;
        self.lns_conflicts = 0;
        self.incumbent = false;
        self.hinted = hinted(self.hinted.len(), &config);
    }

    fn summary(&self) -> Summary {
        self.core.summary(
            &self.stats,
            self.outcome,
            self.started,
            self.step != Step::Done,
        )
    }
}

/// Each of `n` variables' hinted value, from the configuration's hints (the last one given
/// for a variable counts).
fn hinted(n: usize, config: &SolveConfig) -> Vec<Option<i32>> {
    let mut hinted = vec![None; n];
    for &(var, value) in &config.hints {
        if let Some(slot) = hinted.get_mut(var.index()) {
            *slot = Some(value);
        }
    }
    hinted
}
