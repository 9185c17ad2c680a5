//! The LP relaxation on random small models with linear constraints and an objective: every
//! optimum equals brute force's, in every mode, and under learning every bound, fixing and
//! failure the LP derives comes with a reason that implies it on the model's own rows
//! (checked by brute force over the LP's scope).

use crate::properties::{brute_force, LearningChecker};
use csp::{
    Atom, ConstraintId, Inference, LpRelaxation, Model, Objective, Observer, Outcome, Relation,
    Sense, Solver, SplitMix64, VarId,
};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// A random model: 2 to 4 variables of up to 6 values, 1 to 3 linear constraints of any
/// relation, and `z = sum(c * x)` with `z` the objective (returned with the LP's id).
fn random_model(rng: &mut SplitMix64) -> Option<(Model, VarId, ConstraintId)> {
    let mut pick = |lo: i64, hi: i64| lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64;
    let mut model = Model::new();
    let n = pick(2, 4) as usize;
    let mut xs = Vec::new();
    let mut bounds = Vec::new();
    for _ in 0..n {
        let lo = pick(-3, 1) as i32;
        let hi = lo + pick(1, 5) as i32;
        xs.push(model.new_var(lo..=hi).ok()?);
        bounds.push((lo, hi));
    }
    let relations = [
        Relation::Eq,
        Relation::Le,
        Relation::Lt,
        Relation::Ge,
        Relation::Gt,
        Relation::Ne,
    ];
    for _ in 0..pick(1, 3) {
        let mut terms = Vec::new();
        for &x in &xs {
            if pick(0, 3) > 0 {
                let a = pick(-4, 4);
                if a != 0 {
                    terms.push((a, x));
                }
            }
        }
        if terms.is_empty() {
            continue;
        }
        let relation = relations[pick(0, 5) as usize];
        model.linear(&terms, relation, pick(-6, 6)).ok()?;
    }
    let mut objective = Vec::new();
    let (mut least, mut most) = (0i64, 0i64);
    for (&x, &(lo, hi)) in xs.iter().zip(&bounds) {
        let c = pick(-3, 3);
        if c != 0 {
            objective.push((c, x));
            let (a, b) = (c * i64::from(lo), c * i64::from(hi));
            least += a.min(b);
            most += a.max(b);
        }
    }
    let z = model.new_var(least as i32..=most as i32).ok()?;
    objective.push((-1, z));
    model.linear(&objective, Relation::Eq, 0).ok()?;
    let lp = LpRelaxation::of_model(&model, Some(Objective::minimize(z)))?;
    let id = model.post(lp).ok()?;
    Some((model, z, id))
}

/// [`LearningChecker`] for the explanations, counting those that come from the LP; each
/// nogood checked against the solutions still better than the incumbent (branch and bound
/// rightly rules out the rest).
struct Counting<'m> {
    checker: LearningChecker<'m>,
    solutions: &'m BTreeSet<Vec<i32>>,
    goal: Objective,
    incumbent: Option<i32>,
    lp: ConstraintId,
    from_lp: usize,
    removed: usize,
}

impl Counting<'_> {
    fn better(&self, value: i32) -> bool {
        match (self.incumbent, self.goal.sense) {
            (None, _) => true,
            (Some(best), Sense::Minimize) => value < best,
            (Some(best), Sense::Maximize) => value > best,
        }
    }
}

impl Observer for Counting<'_> {
    fn wants_explanations(&self) -> bool {
        true
    }

    fn wants_prunes(&self) -> bool {
        true
    }

    /// Every removal the LP makes, whether or not analysis comes to ask for it.
    fn on_reason(&mut self, var: VarId, value: i32, by: ConstraintId, reason: &[Atom]) {
        if by == self.lp {
            self.removed += 1;
            self.checker
                .on_explanation(by, &[], reason, Some(Atom::Ne(var, value)));
        }
    }

    fn on_solution(&mut self, values: &[i32]) {
        self.incumbent = Some(values[self.goal.var.index()]);
    }

    fn on_nogood(&mut self, nogood: &[Atom], _backjump: usize) {
        let z = self.goal.var.index();
        if let Some(s) = self
            .solutions
            .iter()
            .find(|s| self.better(s[z]) && nogood.iter().all(|a| a.holds_for(s[a.var().index()])))
        {
            let wrong = format!("nogood {nogood:?} rules out the better solution {s:?}");
            self.checker.wrong.push(wrong);
        }
    }

    fn on_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Option<Atom>,
    ) {
        if by == self.lp {
            self.from_lp += 1;
        }
        self.checker.on_explanation(by, nogood, reason, implied);
    }
}

/// The model's domains and constraints, for a failure's message.
fn show(model: &Model) -> String {
    let domains: Vec<Vec<i32>> = model.vars().map(|v| model.initial_domain(v)).collect();
    let constraints: Vec<String> = model
        .constraint_ids()
        .filter_map(|id| model.constraint(id).map(|c| c.describe()))
        .collect();
    format!("domains {domains:?}, constraints {constraints:?}")
}

#[test]
fn lp_optima_equal_brute_force_and_its_explanations_are_implied() {
    let mut rng = SplitMix64::new(62);
    let (mut models, mut explained, mut removed) = (0, 0, 0);
    while models < 1000 {
        let Some((model, z, lp)) = random_model(&mut rng) else {
            continue;
        };
        models += 1;
        let expected = brute_force(&model);
        let values: BTreeSet<i32> = expected.iter().map(|s| s[z.index()]).collect();
        for maximise in [false, true] {
            let best = if maximise {
                values.last()
            } else {
                values.first()
            };
            let goal = if maximise {
                Objective::maximize(z)
            } else {
                Objective::minimize(z)
            };
            for inference in [Inference::ForwardChecking, Inference::Mac, Inference::Lcg] {
                let mut observer = Counting {
                    checker: LearningChecker::new(&model, &expected),
                    solutions: &expected,
                    goal,
                    incumbent: None,
                    lp,
                    from_lp: 0,
                    removed: 0,
                };
                let mut last = None;
                let summary = Solver::new(&model)
                    .inference(inference)
                    .optimize(Some(goal))
                    .solve_observed(&mut observer, |s| {
                        assert!(model.check_solution(s.values()).is_ok());
                        last = Some(s.value(z));
                        ControlFlow::Continue(())
                    });
                assert_eq!(
                    last.as_ref(),
                    best,
                    "{inference:?}, maximise {maximise}: {}",
                    show(&model)
                );
                assert_eq!(summary.outcome, Outcome::Exhausted);
                assert!(
                    observer.checker.wrong.is_empty(),
                    "{:?}: {}",
                    observer.checker.wrong,
                    show(&model)
                );
                explained += observer.from_lp;
                removed += observer.removed;
            }
        }
    }
    // The LP must have taken part: a relaxation that never concluded would pass the rest.
    println!("{models} models: the LP removed {removed} values, analysis asked for {explained} of its reasons");
    assert!(
        removed > 1500 && explained > 100,
        "only {removed} removals, {explained} explanations from the LP"
    );
}
