//! `DrcpLog`: an observer of a learning search that writes its proof in DRCP, the format of
//! Pumpkin's proof checker, as the search goes.
//!
//! DRCP (Flippo, Sidorov, Marijnissen, Smits and Demirović, "A Multi-Stage Proof Logging
//! Framework to Certify the Correctness of CP Solvers", CP 2024) writes each learned nogood
//! as a deduction: the nogood's atoms assumed, a list of inferences (each a constraint's
//! explanation, a declared bound, or an earlier nogood used as a propagator) that, applied in
//! the listed order, empty a domain. The checker forgets the inferences after each deduction,
//! so each deduction brings its own, and it judges each one by the reasoning its label names.
//!
//! The search reports a conflict's explanations newest first; this log orders them so that
//! each one's premises hold before it is applied, and writes before them the declared bounds
//! and the root's facts about the variables they mention. Each root fact is its own unit
//! deduction, made once. Under an objective every deduction also assumes the bound that the
//! best solution so far imposes, since the search learns with it in force; the last one is
//! then that bound alone, which is what the conclusion (`c [obj >= best]`) asks for.

use csp::{Atom, Checkable, ConstraintId, Model, Objective, Observer, VarId};
use drcp_format::writer::ProofWriter;
use drcp_format::{Conclusion, Deduction, Inference, IntAtomic, IntComparison};
use std::collections::HashMap;
use std::io::{self, Write};
use std::num::NonZero;

/// Where an inference comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// A constraint of the model, by its index.
    Constraint(usize),
    /// A declared bound or hole.
    Declared,
    /// A deduction made earlier, by its step id.
    Nogood(u32),
    /// A nogood the log never wrote (it cannot be used).
    Unknown,
}

/// An inference: the premises imply the consequent, or, without one, cannot all hold.
#[derive(Clone, Debug)]
struct Step {
    premises: Vec<Atom>,
    consequent: Option<Atom>,
    source: Source,
}

/// A fact of the root: its atom, the unit deduction that proved it, and the objective bound
/// that deduction assumed.
#[derive(Clone, Copy, Debug)]
struct RootFact {
    atom: Atom,
    step: u32,
    bound: Option<Atom>,
}

/// A variable's domain as a derivation knows it: bounds and holes, as the checker keeps it.
#[derive(Clone, Debug)]
struct Known {
    low: i64,
    high: i64,
    holes: Vec<i32>,
}

impl Known {
    const ANY: Known = Known {
        low: i64::MIN,
        high: i64::MAX,
        holes: Vec::new(),
    };

    fn holds(&self, atom: Atom) -> bool {
        match atom {
            Atom::Ge(_, v) => self.low >= i64::from(v),
            Atom::Le(_, v) => self.high <= i64::from(v),
            Atom::Eq(_, v) => self.low == i64::from(v) && self.high == i64::from(v),
            Atom::Ne(_, v) => {
                let v64 = i64::from(v);
                v64 < self.low || v64 > self.high || self.holes.contains(&v)
            }
        }
    }

    /// Makes `atom` true; whether the domain is left empty.
    fn apply(&mut self, atom: Atom) -> bool {
        match atom {
            Atom::Ge(_, v) => self.low = self.low.max(i64::from(v)),
            Atom::Le(_, v) => self.high = self.high.min(i64::from(v)),
            Atom::Eq(_, v) => {
                self.low = self.low.max(i64::from(v));
                self.high = self.high.min(i64::from(v));
            }
            Atom::Ne(_, v) => self.holes.push(v),
        }
        while self.low <= self.high && self.is_hole(self.low) {
            self.low += 1;
        }
        while self.low <= self.high && self.is_hole(self.high) {
            self.high -= 1;
        }
        self.low > self.high
    }

    fn is_hole(&self, v: i64) -> bool {
        i32::try_from(v).is_ok_and(|v| self.holes.contains(&v))
    }
}

/// Writes a DRCP proof of what a learning search finds, to `out`. Memory holds the atoms
/// named so far, the root's facts and one step id per nogood learned.
pub struct DrcpLog<'m, W: Write> {
    writer: ProofWriter<W, i32>,
    model: &'m Model,
    /// Each constraint as the checker reads it, by index.
    checkable: Vec<Option<Checkable>>,
    /// The next step id: steps share their numbering with the model's constraints.
    next_step: u32,
    /// The explanations of the conflict at hand.
    pending: Vec<Step>,
    /// The root's facts, by variable index.
    root: Vec<Vec<RootFact>>,
    /// Each nogood the search learned, atoms sorted, with its deduction and the bound that
    /// deduction assumed.
    nogoods: HashMap<Vec<Atom>, (u32, Option<Atom>)>,
    objective: Option<Objective>,
    /// The bound the best solution so far imposes on the objective.
    bound: Option<Atom>,
    /// A solution of a satisfaction problem: it needs no proof.
    solved: bool,
    deductions: u64,
    underived: u64,
    /// The first write that failed; nothing is written after it.
    error: Option<io::Error>,
}

/// What a finished proof holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProofSummary {
    /// How it ends.
    pub end: ProofEnd,
    /// Deductions written.
    pub deductions: u64,
    /// Deductions whose inferences did not reach a conflict as this log applied them: the
    /// checker will reject the proof if there is any.
    pub underived: u64,
}

/// How a proof ended, for the user.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProofEnd {
    /// It concludes: the model has no solution, or no better one than the best found.
    Concluded,
    /// A solution of a satisfaction problem was found: it is its own certificate.
    Solved,
    /// The search stopped before it proved anything.
    Incomplete,
}

impl<'m, W: Write> DrcpLog<'m, W> {
    /// A log for a search of `model`, every constraint of which must be checkable (see
    /// [`uncheckable`](crate::uncheckable)); `objective` as the search is given it.
    pub fn new(model: &'m Model, objective: Option<Objective>, out: W) -> Self {
        let checkable = model
            .constraint_ids()
            .map(|c| model.constraint(c).and_then(|c| c.checkable()))
            .collect();
        DrcpLog {
            writer: ProofWriter::new(out),
            model,
            checkable,
            next_step: model.constraint_count() as u32 + 1,
            pending: Vec::new(),
            root: vec![Vec::new(); model.var_count()],
            nogoods: HashMap::new(),
            objective,
            bound: None,
            solved: false,
            deductions: 0,
            underived: 0,
            error: None,
        }
    }

    /// Ends the proof after the search ended with `exhausted` true (the whole space
    /// searched) or false (stopped by a limit). The caller flushes the sink.
    pub fn finish(mut self, exhausted: bool) -> io::Result<ProofSummary> {
        let end = if self.solved {
            ProofEnd::Solved
        } else if !exhausted {
            ProofEnd::Incomplete
        } else {
            let pending = std::mem::take(&mut self.pending);
            let premises: Vec<Atom> = self.bound.into_iter().collect();
            self.deduce(&premises, pending);
            let conclusion = match self.bound {
                None => Conclusion::Unsat,
                Some(bound) => Conclusion::DualBound(atomic(negated(bound))),
            };
            let result = self.writer.log_conclusion(conclusion);
            self.keep_error(result);
            ProofEnd::Concluded
        };
        match self.error {
            Some(error) => Err(error),
            None => Ok(ProofSummary {
                end,
                deductions: self.deductions,
                underived: self.underived,
            }),
        }
    }

    fn keep_error(&mut self, result: io::Result<()>) {
        if let Err(error) = result {
            self.error.get_or_insert(error);
        }
    }

    fn step_id(&mut self) -> NonZero<u32> {
        let id = self.next_step;
        self.next_step = self.next_step.saturating_add(1);
        NonZero::new(id).unwrap_or(NonZero::<u32>::MIN)
    }

    /// The search's explanation as an inference.
    fn step(
        &self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Option<Atom>,
    ) -> Step {
        let mut premises = reason.to_vec();
        let source = if by == ConstraintId::NOGOOD {
            match self.nogoods.get(&sorted(nogood)) {
                Some(&(step, bound)) => {
                    premises.extend(bound);
                    Source::Nogood(step)
                }
                None => Source::Unknown,
            }
        } else {
            Source::Constraint(by.index())
        };
        Step {
            premises,
            consequent: implied,
            source,
        }
    }

    /// Writes the inferences that derive a conflict from `premises`, in an order that
    /// applies each, then the deduction; its step id.
    fn deduce(&mut self, premises: &[Atom], steps: Vec<Step>) -> u32 {
        let mut known: HashMap<VarId, Known> = HashMap::new();
        let mut conflict = false;
        for &atom in premises {
            conflict |= known.entry(atom.var()).or_insert(Known::ANY).apply(atom);
        }
        let mut written: Vec<NonZero<u32>> = Vec::new();
        // Every variable met: its declared bounds and the root's facts about it first, so
        // that the premises they give hold whatever the order below.
        let mut vars: Vec<VarId> = premises
            .iter()
            .chain(
                steps
                    .iter()
                    .flat_map(|s| s.premises.iter().chain(&s.consequent)),
            )
            .map(Atom::var)
            .collect();
        for step in &steps {
            if let Source::Constraint(c) = step.source {
                vars.extend(self.bounded(c, step));
            }
        }
        vars.sort_unstable();
        vars.dedup();
        for &x in &vars {
            known.entry(x).or_insert(Known::ANY);
            for step in self.given(x) {
                if conflict {
                    break;
                }
                let Some(atom) = step.consequent else {
                    continue;
                };
                let holds = |p: &Atom| known.get(&p.var()).is_some_and(|k| k.holds(*p));
                if holds(&atom) || !step.premises.iter().all(holds) {
                    continue;
                }
                conflict |= known.entry(x).or_insert(Known::ANY).apply(atom);
                written.push(self.write_inference(&step));
            }
        }
        // The explanations, oldest first (the search reported them newest first), each
        // applied once its premises hold.
        let mut open: Vec<Step> = steps.into_iter().rev().collect();
        while !conflict && !open.is_empty() {
            let mut applied = false;
            let mut i = 0;
            while i < open.len() && !conflict {
                let holds = open[i]
                    .premises
                    .iter()
                    .all(|&p| known.get(&p.var()).is_some_and(|k| k.holds(p)));
                if !holds {
                    i += 1;
                    continue;
                }
                let step = open.remove(i);
                applied = true;
                match step.consequent {
                    Some(atom) => {
                        let state = known.entry(atom.var()).or_insert(Known::ANY);
                        if state.holds(atom) {
                            continue;
                        }
                        conflict |= state.apply(atom);
                    }
                    None => conflict = true,
                }
                written.push(self.write_inference(&step));
            }
            if !applied {
                break;
            }
        }
        if !conflict {
            // Written all the same, for whoever reads the proof; the checker will say no.
            self.underived += 1;
            for step in open {
                written.push(self.write_inference(&step));
            }
        }
        let id = self.step_id();
        let result = self.writer.log_deduction(Deduction {
            constraint_id: id,
            premises: premises.iter().map(|&a| atomic(a)).collect(),
            sequence: written,
        });
        self.keep_error(result);
        self.deductions += 1;
        id.get()
    }

    /// What is known of `x` before any search: its declared bounds and holes (up to
    /// [`HOLES_LISTED`]), and the root's facts.
    fn given(&self, x: VarId) -> Vec<Step> {
        let mut given = Vec::new();
        let declared = |atom| Step {
            premises: Vec::new(),
            consequent: Some(atom),
            source: Source::Declared,
        };
        if let Some((low, high)) = self.model.initial_bounds(x) {
            given.push(declared(Atom::Ge(x, low)));
            given.push(declared(Atom::Le(x, high)));
            let span = i64::from(high) - i64::from(low) + 1;
            let count = self.model.initial_values(x).take(span as usize).count() as i64;
            if span - count <= HOLES_LISTED {
                let mut next = i64::from(low);
                for v in self.model.initial_values(x) {
                    for hole in next..i64::from(v) {
                        given.push(declared(Atom::Ne(x, hole as i32)));
                    }
                    next = i64::from(v) + 1;
                }
            }
        }
        for fact in &self.root[x.index()] {
            given.push(Step {
                premises: fact.bound.into_iter().collect(),
                consequent: Some(fact.atom),
                source: Source::Nogood(fact.step),
            });
        }
        given
    }

    /// The variables whose declared bounds an inference of constraint `c` states among its
    /// premises: all of a linear constraint's, whose bounds reasoning reads every term; those
    /// the step names for an all-different, whose Hall set test counts every bounded variable
    /// and so must see only the set's.
    fn bounded(&self, c: usize, step: &Step) -> Vec<VarId> {
        let mut vars: Vec<VarId> = match &self.checkable[c] {
            Some(linear @ (Checkable::LinearLe(..) | Checkable::LinearEq(..))) => linear.vars(),
            _ => step
                .premises
                .iter()
                .chain(&step.consequent)
                .map(Atom::var)
                .collect(),
        };
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    fn write_inference(&mut self, step: &Step) -> NonZero<u32> {
        let id = self.step_id();
        let (generated_by, label) = match step.source {
            Source::Constraint(c) => (
                NonZero::new(c as u32 + 1),
                // A model the checker cannot read is refused before the search, so the label
                // of an unreadable constraint is never written; if it were, the checker would
                // reject it rather than misread it.
                self.checkable[c]
                    .as_ref()
                    .map_or("unchecked", Checkable::label),
            ),
            Source::Declared => (None, "initial_domain"),
            Source::Nogood(n) => (NonZero::new(n), "nogood"),
            Source::Unknown => (None, "nogood"),
        };
        let mut premises = step.premises.clone();
        if let Source::Constraint(c) = step.source {
            // The checker reads each variable's domain from the premises alone.
            for x in self.bounded(c, step) {
                if let Some((low, high)) = self.model.initial_bounds(x) {
                    premises.push(Atom::Ge(x, low));
                    premises.push(Atom::Le(x, high));
                }
            }
        }
        let result = self.writer.log_inference(Inference {
            constraint_id: id,
            premises: premises.into_iter().map(atomic).collect(),
            consequent: step.consequent.map(atomic),
            generated_by,
            label: Some(label),
        });
        self.keep_error(result);
        id
    }
}

/// The most holes of a declared domain a deduction lists.
const HOLES_LISTED: i64 = 4096;

/// `atoms` in a fixed order, to find a nogood by its atoms.
fn sorted(atoms: &[Atom]) -> Vec<Atom> {
    let mut atoms = atoms.to_vec();
    atoms.sort_unstable_by_key(|&a| match a {
        Atom::Eq(x, v) => (x, 0, v),
        Atom::Ne(x, v) => (x, 1, v),
        Atom::Le(x, v) => (x, 2, v),
        Atom::Ge(x, v) => (x, 3, v),
    });
    atoms
}

/// The atom that holds exactly when `atom` does not.
fn negated(atom: Atom) -> Atom {
    match atom {
        Atom::Ge(x, v) => Atom::Le(x, v - 1),
        Atom::Le(x, v) => Atom::Ge(x, v + 1),
        Atom::Eq(x, v) => Atom::Ne(x, v),
        Atom::Ne(x, v) => Atom::Eq(x, v),
    }
}

/// `atom` in the checker's terms; variable `VarId(i)` is `v{i}` in the model written for it.
fn atomic(atom: Atom) -> IntAtomic<String, i32> {
    let (x, comparison, value) = match atom {
        Atom::Eq(x, v) => (x, IntComparison::Equal, v),
        Atom::Ne(x, v) => (x, IntComparison::NotEqual, v),
        Atom::Le(x, v) => (x, IntComparison::LessEqual, v),
        Atom::Ge(x, v) => (x, IntComparison::GreaterEqual, v),
    };
    IntAtomic {
        name: crate::checker_model::var_name(x),
        comparison,
        value,
    }
}

impl<W: Write> Observer for DrcpLog<'_, W> {
    fn wants_explanations(&self) -> bool {
        true
    }

    fn on_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Option<Atom>,
    ) {
        let step = self.step(by, nogood, reason, implied);
        self.pending.push(step);
    }

    fn on_root_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Atom,
    ) {
        let step = self.step(by, nogood, reason, Some(implied));
        let mut premises = vec![negated(implied)];
        premises.extend(self.bound);
        let id = self.deduce(&premises, vec![step]);
        self.root[implied.var().index()].push(RootFact {
            atom: implied,
            step: id,
            bound: self.bound,
        });
    }

    fn on_nogood(&mut self, nogood: &[Atom], _backjump: usize) {
        let steps = std::mem::take(&mut self.pending);
        let mut premises = nogood.to_vec();
        premises.extend(self.bound);
        let id = self.deduce(&premises, steps);
        self.nogoods.insert(sorted(nogood), (id, self.bound));
    }

    fn on_solution(&mut self, values: &[i32]) {
        match self.objective {
            None => self.solved = true,
            Some(objective) => {
                self.bound = Some(objective.better_than(values[objective.var.index()]));
            }
        }
    }
}
