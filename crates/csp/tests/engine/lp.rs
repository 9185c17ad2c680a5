//! The LP relaxation on random small models with linear constraints and an objective: every
//! optimum equals brute force's, in every mode, and under learning every bound, fixing and
//! failure the LP derives comes with a reason that implies it on the model's own rows
//! (checked by brute force over the LP's scope).

use crate::properties::{brute_force, LearningChecker};
use csp::constraints::{AllDifferentExcept, Compare, Linear};
use csp::{
    Atom, ConstraintId, DeclaredBounds, Inference, LinearRow, Lit, LpRelaxation, Model, Objective,
    Observer, Outcome, Reification, Relation, Sense, Solver, SplitMix64, VarId,
};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// Posts one random constraint of a kind that gives the LP rows other than its own linear
/// form (reifications, gates, clauses, parities, extrema, abs, element, knapsack, `=`) on
/// `ints` (small domains around 0, at least two) and `bools` (0/1, at least two).
fn random_relaxed(rng: &mut SplitMix64, model: &mut Model, ints: &[VarId], bools: &[VarId]) {
    let mut pick = |lo: i64, hi: i64| lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64;
    let int = |k: i64| ints[k as usize % ints.len()];
    let boolean = |k: i64| bools[k as usize % bools.len()];
    let lit = |k: i64, positive: bool| {
        if positive {
            Lit::pos(boolean(k))
        } else {
            Lit::neg(boolean(k))
        }
    };
    let how = |half: bool| {
        if half {
            Reification::Half
        } else {
            Reification::Full
        }
    };
    // Posting may be refused (a variable named twice where that cannot hold): the model
    // then simply has one constraint fewer.
    let _ = match pick(0, 9) {
        0 => {
            let terms = vec![
                (pick(-3, 3), int(pick(0, 9))),
                (pick(-3, 3), int(pick(0, 9))),
            ];
            let inner = Linear::new(&terms, Relation::ALL[pick(0, 5) as usize], pick(-4, 4));
            model.reify(boolean(pick(0, 9)), inner, how(pick(0, 1) == 0))
        }
        1 => {
            let inner = if pick(0, 1) == 0 {
                Compare::new(
                    int(pick(0, 9)),
                    Relation::ALL[pick(0, 5) as usize],
                    int(pick(0, 9)),
                    pick(-2, 2),
                )
            } else {
                Compare::with_value(
                    int(pick(0, 9)),
                    Relation::ALL[pick(0, 5) as usize],
                    pick(-3, 3),
                )
            };
            model.reify(boolean(pick(0, 9)), inner, how(pick(0, 1) == 0))
        }
        2 => {
            let positive = [boolean(pick(0, 9))];
            let negative = [boolean(pick(0, 9)), boolean(pick(0, 9))];
            model.clause(&positive, &negative[..pick(0, 2) as usize])
        }
        3 => {
            let lits: Vec<Lit> = (0..pick(1, 3))
                .map(|_| lit(pick(0, 9), pick(0, 1) == 0))
                .collect();
            let r = Some(lit(pick(0, 9), pick(0, 1) == 0));
            if pick(0, 1) == 0 {
                model.bool_or(&lits, r)
            } else {
                model.bool_and(&lits, r)
            }
        }
        4 => model.bool_xor(
            &[lit(pick(0, 9), pick(0, 1) == 0), lit(pick(0, 9), true)],
            pick(0, 1) == 0,
        ),
        5 => {
            let xs = [int(pick(0, 9)), int(pick(0, 9))];
            if pick(0, 1) == 0 {
                model.max(&xs, int(pick(0, 9)))
            } else {
                model.min(&xs, int(pick(0, 9)))
            }
        }
        6 => model.abs(int(pick(0, 9)), int(pick(0, 9))),
        7 => {
            let values: Vec<i32> = (0..pick(2, 6)).map(|_| pick(-4, 4) as i32).collect();
            model.element(
                int(pick(0, 9)),
                &values,
                pick(-2, 1) as i32,
                int(pick(0, 9)),
            )
        }
        8 => {
            let items = [boolean(0), boolean(1)];
            let (w, p) = (
                [pick(0, 3) as i32, pick(0, 3) as i32],
                [pick(0, 3) as i32, pick(0, 3) as i32],
            );
            model.knapsack(&w, &p, &items, int(pick(0, 9)), int(pick(0, 9)))
        }
        _ => model.compare_offset(int(pick(0, 9)), Relation::Eq, int(pick(0, 9)), pick(-1, 1)),
    };
}

/// Each constraint's rows hold on every solution of the constraint alone (brute force over
/// small domains): the relaxation a constraint gives the LP is implied by it.
#[test]
fn every_row_a_constraint_gives_holds_on_its_solutions() {
    let mut rng = SplitMix64::new(620);
    let (mut rows_checked, mut solutions) = (0, 0);
    for _ in 0..3000 {
        let mut model = Model::new();
        let ints: Vec<VarId> = (0..3)
            .map(|k| model.new_var(-3 + k..=2 + k).unwrap())
            .collect();
        let bools: Vec<VarId> = (0..3).map(|_| model.new_bool().unwrap()).collect();
        random_relaxed(&mut rng, &mut model, &ints, &bools);
        let Some(id) = model.constraint_ids().next() else {
            continue;
        };
        let constraint = model.constraint(id).unwrap();
        let mut rows: Vec<LinearRow> = Vec::new();
        constraint.relax(&model, &mut rows);
        for solution in brute_force(&model) {
            solutions += 1;
            for row in &rows {
                rows_checked += 1;
                assert!(
                    row.holds(|x| solution[x.index()]),
                    "{row:?} fails on {solution:?}: {}",
                    constraint.describe()
                );
            }
        }
    }
    println!("{rows_checked} rows checked over {solutions} solutions");
    assert!(rows_checked > 20_000, "only {rows_checked} rows checked");
}

/// A random model: 2 to 4 variables of up to 6 values, 1 to 3 linear constraints of any
/// relation, now and then a constraint the LP relaxes (over two of the variables and 0/1
/// ones of their own), and `z = sum(c * x)` with `z` the objective (returned with the LP's
/// id).
fn random_model(rng: &mut SplitMix64) -> Option<(Model, VarId, ConstraintId)> {
    let relaxed = rng.next_u64() % 3 == 0;
    let seed = rng.next_u64();
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
    let relations = Relation::ALL;
    if relaxed {
        let bools = [model.new_bool().ok()?, model.new_bool().ok()?];
        let mut inner = SplitMix64::new(seed);
        random_relaxed(&mut inner, &mut model, &xs, &bools);
    }
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

/// Solves `model` (whose solutions are `expected`) for the least and the greatest `z` in
/// every mode, each optimum against brute force's; under learning every explanation must be
/// implied and no nogood may rule out a better solution. Returns how many values the LP
/// (`lp`) removed and how many of its reasons analysis asked for.
fn optima_and_explanations(
    model: &Model,
    expected: &BTreeSet<Vec<i32>>,
    z: VarId,
    lp: ConstraintId,
) -> (usize, usize) {
    let (mut explained, mut removed) = (0, 0);
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
                checker: LearningChecker::new(model, expected),
                solutions: expected,
                goal,
                incumbent: None,
                lp,
                from_lp: 0,
                removed: 0,
            };
            let mut last = None;
            let summary = Solver::new(model)
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
                show(model)
            );
            assert_eq!(summary.outcome, Outcome::Exhausted);
            assert!(
                observer.checker.wrong.is_empty(),
                "{:?}: {}",
                observer.checker.wrong,
                show(model)
            );
            explained += observer.from_lp;
            removed += observer.removed;
        }
    }
    (explained, removed)
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
        let (e, r) = optima_and_explanations(&model, &expected, z, lp);
        explained += e;
        removed += r;
    }
    // The LP must have taken part: a relaxation that never concluded would pass the rest.
    println!("{models} models: the LP removed {removed} values, analysis asked for {explained} of its reasons");
    assert!(
        removed > 1500 && explained > 100,
        "only {removed} removals, {explained} explanations from the LP"
    );
}

/// A random assignment: 3 or 4 variables of 2 to 4 values each, an all-different (or one
/// that lets a value repeat, or a count of them taking a value or one of a set, into a
/// variable), 1 to 3 reified comparisons of them with constants, and `z`, a weighted sum of
/// the comparisons' 0/1 variables and of the variables: the objective. Its solutions by
/// brute force, then the model with value literals added as the LP policy adds them (for the
/// variables of the all-different or count; half the time under a cap of 2 to 8
/// literals, so that some variables go without and the count's row is built from their
/// bounds or left out) and the LP over them posted; returned with the brute-force
/// solutions extended by each literal's value (`y = 1` exactly where `x = v`).
fn random_assignment(
    rng: &mut SplitMix64,
) -> Option<(Model, BTreeSet<Vec<i32>>, VarId, ConstraintId)> {
    let mut pick = |lo: i64, hi: i64| lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64;
    let mut model = Model::new();
    let n = pick(3, 4) as usize;
    let xs: Vec<VarId> = (0..n)
        .map(|_| {
            let lo = pick(-1, 1) as i32;
            model.new_var(lo..=lo + pick(1, 3) as i32)
        })
        .collect::<Result<_, _>>()
        .ok()?;
    match pick(0, 4) {
        0 => model.all_different(&xs).ok()?,
        1 => model
            .post(AllDifferentExcept::new(&xs, &[pick(-1, 1) as i32]))
            .ok()?,
        2 => {
            let v = pick(-1, 3) as i32;
            let y = model.new_var(v..=v).ok()?;
            let c = model.new_var(0..=n as i32).ok()?;
            model.count(&xs, y, c).ok()?
        }
        _ => {
            // Half the time the set holds all of the first variable's values, so that
            // without literals it counts as a constant 1.
            let (lo, hi) = model.initial_bounds(xs[0])?;
            let whole = pick(0, 1) == 1;
            let set: Vec<i32> = (-1..=4)
                .filter(|&v| (whole && (lo..=hi).contains(&v)) || pick(0, 1) == 1)
                .collect();
            let c = model.new_var(0..=n as i32).ok()?;
            model.among(c, &xs, &set).ok()?
        }
    };
    let mut objective = Vec::new();
    let (mut least, mut most) = (0i64, 0i64);
    let mut add = |c: i64, x: VarId, (lo, hi): (i32, i32)| {
        let (a, b) = (c * i64::from(lo), c * i64::from(hi));
        least += a.min(b);
        most += a.max(b);
        objective.push((c, x));
    };
    for _ in 0..pick(1, 3) {
        let b = model.new_bool().ok()?;
        let x = xs[pick(0, n as i64 - 1) as usize];
        let inner = Compare::with_value(x, Relation::ALL[pick(0, 5) as usize], pick(-1, 3));
        let how = match pick(0, 2) {
            0 => Reification::Half,
            _ => Reification::Full,
        };
        model.reify(b, inner, how).ok()?;
        add(pick(-4, 4), b, (0, 1));
    }
    for &x in &xs {
        let c = pick(-2, 2);
        if c != 0 {
            add(c, x, model.initial_bounds(x)?);
        }
    }
    let z = model.new_var(least as i32..=most as i32).ok()?;
    objective.push((-1, z));
    model.linear(&objective, Relation::Eq, 0).ok()?;
    let base = brute_force(&model);

    let mut encoded = model.clone();
    let cap = if pick(0, 1) == 0 { pick(2, 8) } else { 1000 };
    let added = encoded.add_relaxation_literals(cap as usize).ok()?.added;
    let literals: Vec<(VarId, i32, VarId)> = xs
        .iter()
        .flat_map(|&x| {
            let of_x = encoded.value_literals(x).unwrap_or(&[]);
            of_x.iter().map(move |&(v, y)| (x, v, y))
        })
        .collect();
    assert_eq!(
        literals.len(),
        added,
        "a literal for each value of each variable"
    );
    let expected: BTreeSet<Vec<i32>> = base
        .iter()
        .map(|s| {
            let mut extended = s.clone();
            extended.resize(encoded.vars().count(), 0);
            for &(x, v, y) in &literals {
                extended[y.index()] = i32::from(s[x.index()] == v);
            }
            assert!(encoded.check_solution(&extended).is_ok());
            extended
        })
        .collect();
    // The literals are determined by the variables: the encoded model has as many
    // solutions as the model, and they are the extended ones.
    let found: BTreeSet<Vec<i32>> = Solver::new(&encoded).solutions().collect();
    assert_eq!(found, expected, "{}", show(&encoded));
    let lp = LpRelaxation::of_model(&encoded, Some(Objective::minimize(z)))?;
    let id = encoded.post(lp).ok()?;
    Some((encoded, expected, z, id))
}

/// Assignments relaxed over value literals: every row holds on every solution, the optima
/// are brute force's in every mode, and the LP's explanations are implied.
#[test]
fn lp_over_value_literals_keeps_optima_and_explanations() {
    let mut rng = SplitMix64::new(6201);
    let (mut models, mut explained, mut removed, mut rows_checked) = (0, 0, 0, 0);
    while models < 160 {
        let Some((model, expected, z, lp)) = random_assignment(&mut rng) else {
            continue;
        };
        models += 1;
        let mut rows: Vec<LinearRow> = Vec::new();
        for id in model.constraint_ids().filter(|&id| id != lp) {
            model.constraint(id).unwrap().relax(&model, &mut rows);
        }
        for solution in &expected {
            for row in &rows {
                rows_checked += 1;
                assert!(
                    row.holds(|x| solution[x.index()]),
                    "{row:?} fails on {solution:?}: {}",
                    show(&model)
                );
            }
        }
        let (e, r) = optima_and_explanations(&model, &expected, z, lp);
        explained += e;
        removed += r;
    }
    println!("{models} assignments, {rows_checked} rows checked: the LP removed {removed} values, analysis asked for {explained} of its reasons");
    assert!(
        rows_checked > 5_000 && removed > 300 && explained > 30,
        "only {rows_checked} rows checked, {removed} removals, {explained} explanations from the LP"
    );
}
