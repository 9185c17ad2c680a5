//! Limits, the observer, the iterator and model-building errors.

use crate::common::{oeis_a000170, MODES, VAR_ORDERS};
use csp_toolkit::csp;
use csp_toolkit::csp::{
    ConstraintId, Inference, Limit, Limits, Model, ModelError, Observer, Outcome, Poller, Solver,
    Summary, VarId,
};
use csp_toolkit::nqueens::{Encoding, QueensModel};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn limits_stop_the_search_and_say_which() {
    let queens = QueensModel::new(12, Encoding::AllDiff).unwrap();
    let by_nodes = Solver::new(&queens.model)
        .node_limit(500)
        .solve(|_| ControlFlow::Continue(()));
    assert_eq!(by_nodes.outcome, Outcome::LimitReached(Limit::Nodes));
    assert_eq!(by_nodes.stats.nodes, 500);

    // A flag set or a time limit gone before the search begins stops the setting up of the
    // domains, under every inference (learning indexed the domains it never got, and
    // panicked: a portfolio's stop reached a worker that late).
    for inference in [Inference::ForwardChecking, Inference::Mac, Inference::Lcg] {
        let cancelled = Arc::new(AtomicBool::new(true));
        let by_flag = Solver::new(&queens.model)
            .inference(inference)
            .cancel_flag(cancelled)
            .solve(|_| ControlFlow::Continue(()));
        assert_eq!(
            by_flag.outcome,
            Outcome::LimitReached(Limit::Cancelled),
            "{inference}"
        );

        let by_time = Solver::new(&queens.model)
            .inference(inference)
            .time_limit(Duration::ZERO)
            .solve(|_| ControlFlow::Continue(()));
        assert_eq!(
            by_time.outcome,
            Outcome::LimitReached(Limit::Time),
            "{inference}"
        );
    }

    let first_three = Solver::new(&queens.model).max_solutions(Some(3));
    let summary = first_three.solve(|_| ControlFlow::Continue(()));
    assert_eq!(
        (summary.outcome, summary.stats.solutions),
        (Outcome::Solved, 3)
    );
}

#[test]
fn the_iterator_streams_the_same_solutions_as_the_callback() {
    let queens = QueensModel::new(7, Encoding::Binary).unwrap();
    let solver = Solver::new(&queens.model).inference(Inference::Mac);
    let mut by_callback = Vec::new();
    solver.solve(|s| {
        by_callback.push(s.values().to_vec());
        ControlFlow::Continue(())
    });
    let mut iter = solver.solutions();
    let by_iterator: Vec<Vec<i32>> = iter.by_ref().collect();
    assert_eq!(by_iterator, by_callback);
    assert_eq!(by_iterator.len() as u64, oeis_a000170()[7]);
    assert_eq!(iter.summary().outcome, Outcome::Exhausted);
}

/// Counts every event, to compare with the statistics.
#[derive(Default)]
struct Tally {
    assigns: u64,
    prunes: u64,
    wipeouts: u64,
    violations: u64,
    backtracks: u64,
    solutions: u64,
    depth: usize,
}

impl Observer for Tally {
    fn on_assign(&mut self, _: VarId, _: i32, depth: usize) {
        self.assigns += 1;
        assert_eq!(depth, self.depth + 1, "assign goes one level deeper");
        self.depth = depth;
    }
    fn on_prune(&mut self, _: VarId, _: i32, _: ConstraintId) {
        self.prunes += 1;
    }
    fn on_wipeout(&mut self, _: VarId, _: ConstraintId) {
        self.wipeouts += 1;
    }
    fn on_violation(&mut self, _: VarId, _: i32, _: ConstraintId) {
        self.violations += 1;
    }
    fn on_backtrack(&mut self, _: VarId, _: i32, depth: usize) {
        assert_eq!(depth, self.depth, "backtrack undoes the deepest assignment");
        self.backtracks += 1;
        self.depth -= 1;
    }
    fn on_split(&mut self, _: csp::Atom, depth: usize) {
        // Learning branches by atoms: each one is a node as an assignment is.
        self.on_assign(VarId::from_index(0).unwrap(), 0, depth);
    }
    fn on_unsplit(&mut self, _: csp::Atom, depth: usize) {
        self.on_backtrack(VarId::from_index(0).unwrap(), 0, depth);
    }
    fn on_solution(&mut self, _: &[i32]) {
        self.solutions += 1;
    }
}

#[test]
fn observer_events_add_up_to_the_statistics() {
    for encoding in [Encoding::Binary, Encoding::AllDiff] {
        for inference in MODES {
            let queens = QueensModel::new(6, encoding).unwrap();
            let mut tally = Tally::default();
            let summary = Solver::new(&queens.model)
                .inference(inference)
                .solve_observed(&mut tally, |_| ControlFlow::Continue(()));
            let s = summary.stats;
            assert_eq!(tally.assigns, s.nodes);
            assert_eq!(tally.prunes, s.pruned);
            assert_eq!(tally.wipeouts, s.wipeouts);
            assert_eq!(tally.wipeouts + tally.violations, s.backtracks);
            assert_eq!(tally.backtracks, s.nodes, "every assignment is taken back");
            assert_eq!(tally.solutions, s.solutions);
        }
    }
}

#[test]
fn model_mistakes_are_typed_errors() {
    let mut model = Model::new();
    let (low, high) = (3, 2);
    assert_eq!(model.new_var(low..=high), Err(ModelError::EmptyDomain));
    assert_eq!(
        model.new_var_from_values(None, &[]),
        Err(ModelError::EmptyDomain)
    );
    // Any range of i32 is a domain, the widest included.
    assert!(Model::new().new_var(i32::MIN..=i32::MAX).is_ok());
    let x = model.new_var(0..=1).unwrap();
    let mut other = Model::new();
    other.new_var(0..=1).unwrap();
    let stranger = other.new_var(0..=1).unwrap();
    assert_eq!(
        model.not_equal(x, stranger),
        Err(ModelError::UnknownVariable(stranger))
    );
    assert!(matches!(
        model.all_different_offsets(&[x], &[0, 1]),
        Err(ModelError::InvalidConstraint(_))
    ));
    assert_eq!(model.all_different(&[]), Err(ModelError::EmptyScope));
}

#[test]
fn an_empty_model_has_one_solution_and_a_contradiction_none() {
    let empty = Model::new();
    assert_eq!(Solver::new(&empty).count(), 1);
    let mut model = Model::new();
    let x = model.new_var(0..=0).unwrap();
    let y = model.new_var(0..=0).unwrap();
    model.not_equal(x, y).unwrap();
    for inference in MODES {
        let summary = Solver::new(&model)
            .inference(inference)
            .solve(|_| ControlFlow::Continue(()));
        assert_eq!(
            (summary.outcome, summary.stats.solutions),
            (Outcome::Exhausted, 0)
        );
    }
}

#[test]
fn another_thread_can_cancel_a_running_solve() {
    let queens = QueensModel::new(30, Encoding::AllDiff).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    // Counting 30-queens would take far longer than the watchdog below allows.
    let summary = Solver::new(&queens.model)
        .cancel_flag(flag)
        .time_limit(Duration::from_secs(60))
        .solve(|_| ControlFlow::Continue(()));
    setter.join().unwrap();
    assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Cancelled));
    assert!(summary.stats.nodes > 0);
}

/// Regression: constraints that name one variable twice (found by the property tests).
#[test]
fn a_variable_named_twice_in_one_constraint_is_handled_in_every_mode() {
    for inference in MODES {
        let count = |build: &dyn Fn(&mut Model, VarId)| {
            let mut model = Model::new();
            let x = model.new_var(2..=3).unwrap();
            build(&mut model, x);
            Solver::new(&model).inference(inference).count()
        };
        assert_eq!(
            count(&|m, x| {
                m.table(&[x, x], &[[2, 3]]).unwrap();
            }),
            0,
            "{inference:?}"
        );
        assert_eq!(
            count(&|m, x| {
                m.table(&[x, x], &[[3, 3]]).unwrap();
            }),
            1,
            "{inference:?}"
        );
        assert_eq!(
            count(&|m, x| {
                m.not_equal_offset(x, x, 1).unwrap();
            }),
            2,
            "{inference:?}"
        );
        assert_eq!(
            count(&|m, x| {
                m.all_different_offsets(&[x, x], &[0, 1]).unwrap();
            }),
            2,
            "{inference:?}"
        );
    }
}

#[test]
fn a_constraint_that_can_never_hold_is_refused_naming_its_variable() {
    let mut model = Model::new();
    let x = model.new_var(2..=3).unwrap();
    let y = model.new_var(2..=3).unwrap();
    let refused = |result: Result<ConstraintId, ModelError>| match result {
        Err(ModelError::NeverHolds(why)) => why,
        other => panic!("accepted: {other:?}"),
    };
    let why = refused(model.not_equal(x, x));
    assert!(
        why.contains("x0 != x0") && why.contains("never hold"),
        "{why}"
    );
    let why = refused(model.all_different(&[x, y, x]));
    assert!(why.contains("x0 twice"), "{why}");
    let why = refused(model.post(csp::constraints::NotEqual::new(y, y, 0)));
    assert!(why.contains("x1 != x1"), "{why}");
    // The same variable with another offset is a real constraint, and so is x != y.
    model.not_equal_offset(x, x, 1).unwrap();
    model.all_different_offsets(&[x, x], &[0, 1]).unwrap();
    model.not_equal(x, y).unwrap();
    assert_eq!(model.constraint_count(), 3, "nothing refused was posted");
}

#[test]
fn all_different_over_repeated_variables_leaves_no_false_solution_under_mac() {
    // Found by proptest (100,000 cases): x1-1, x0-1, x1, x0+1 all different over {2, 3}² has
    // no solution, but Régin's filter fixes both variables to 3 without looking again, and an
    // engine that skipped propagating from an already-fixed variable reported (3, 3).
    let mut model = Model::new();
    let x0 = model.new_var(2..=3).unwrap();
    let x1 = model.new_var(2..=3).unwrap();
    model
        .all_different_offsets(&[x1, x0, x1, x0], &[-1, -1, 0, 1])
        .unwrap();
    for inference in MODES {
        for var_order in VAR_ORDERS {
            assert_eq!(
                Solver::new(&model)
                    .inference(inference)
                    .var_order(var_order)
                    .count(),
                0,
                "{inference:?} {var_order:?}"
            );
        }
    }
}

/// A board checked by brute force over every pair of rows, independent of the engine.
fn attack_free(columns: &[i32]) -> bool {
    (0..columns.len()).all(|a| {
        (a + 1..columns.len()).all(|b| {
            let (ca, cb) = (columns[a], columns[b]);
            ca != cb && (ca - cb).unsigned_abs() as usize != b - a
        })
    })
}

#[test]
fn restarts_find_valid_first_solutions_in_every_mode_and_never_repeat_a_count() {
    use csp_toolkit::csp::{ValueOrder, VarOrder};
    let queens = QueensModel::new(40, Encoding::AllDiff).unwrap();
    for inference in MODES.into_iter().skip(1) {
        for (var_order, value_order) in [
            (VarOrder::MinDomain, ValueOrder::Random { seed: 3 }),
            (VarOrder::DomWdeg, ValueOrder::Ascending),
        ] {
            let solver = Solver::new(&queens.model)
                .inference(inference)
                .var_order(var_order)
                .value_order(value_order)
                .max_solutions(Some(1))
                .restarts(Some(1));
            let mut found = None;
            let summary = solver.solve(|s| {
                found = Some(s.values().to_vec());
                ControlFlow::Break(())
            });
            let found = found.unwrap();
            assert!(
                attack_free(&found),
                "{inference:?} {var_order:?}: {found:?}"
            );
            assert!(
                summary.stats.restarts >= 1 || summary.stats.backtracks == 0,
                "{inference:?} {var_order:?}: {:?}",
                summary.stats
            );
        }
    }
    // Where more than one solution is wanted, restarts would meet solutions twice: the search
    // does not restart, and the count stays A000170's.
    let eight = QueensModel::new(8, Encoding::AllDiff).unwrap();
    let summary = Solver::new(&eight.model)
        .value_order(ValueOrder::Random { seed: 5 })
        .restarts(Some(1))
        .solve(|_| ControlFlow::Continue(()));
    assert_eq!(summary.stats.solutions, oeis_a000170()[8]);
    assert_eq!(summary.stats.restarts, 0);
}

#[test]
fn a_restart_budget_of_one_failure_restarts_after_each_luby_term() {
    use csp_toolkit::csp::ValueOrder;
    // Plain backtracking on 30 queens fails many times; with a scale of 1 run i may fail
    // luby(i) times, so after R restarts the failures are at least 1+1+2+1+1+2+4+... (R terms).
    let queens = QueensModel::new(30, Encoding::AllDiff).unwrap();
    let summary = Solver::new(&queens.model)
        .inference(Inference::None)
        .value_order(ValueOrder::Random { seed: 7 })
        .max_solutions(Some(1))
        .restarts(Some(1))
        .solve(|_| ControlFlow::Continue(()));
    assert_eq!(summary.outcome, Outcome::Solved);
    // The sequence by its doubling construction: S(k+1) = S(k) S(k) 2^k, from S(1) = 1.
    let mut luby = vec![1u64];
    while luby.len() <= summary.stats.restarts as usize {
        let top = 2 * luby.iter().max().unwrap();
        luby.extend_from_within(..);
        luby.push(top);
    }
    let restarts = summary.stats.restarts as usize;
    assert!(restarts >= 1, "{:?}", summary.stats);
    let spent: u64 = luby[..restarts].iter().sum();
    let allowed: u64 = luby[..=restarts].iter().sum();
    assert!(
        (spent..allowed).contains(&summary.stats.backtracks),
        "{} failures after {restarts} restarts",
        summary.stats.backtracks
    );
}

#[test]
fn the_time_limit_can_count_from_before_the_solve_and_stops_model_building_too() {
    // A limit that ran out before the solve began (the time went into building the model,
    // say) stops it before its first node.
    let queens = QueensModel::new(12, Encoding::AllDiff).unwrap();
    let limits = Limits {
        time: Some(Duration::from_millis(10)),
        ..Limits::default()
    }
    .counted_from(std::time::Instant::now() - Duration::from_secs(1));
    let late = Solver::new(&queens.model)
        .limits(limits.clone())
        .solve(|_| ControlFlow::Continue(()));
    assert_eq!(late.outcome, Outcome::LimitReached(Limit::Time));
    assert_eq!(late.stats.nodes, 0);
    // The same limit stops a model's building, as a typed error that says which limit.
    let built = QueensModel::build(2_000, Encoding::AllDiff, &mut Poller::new(&limits));
    assert_eq!(built.err(), Some(ModelError::Stopped(Limit::Time)));
    // Without limits, building goes through.
    let built = QueensModel::build(200, Encoding::Binary, &mut Poller::unlimited()).unwrap();
    assert_eq!(built.n(), 200);
}

/// A constraint on one variable, `y != 9`, that acts only once its variable is fixed, and
/// records, each time it runs, whether it was: it shows when the engine wakes it. (One that
/// held always would be retired after the root, as every constraint the root's domains
/// satisfy whatever the search does.)
#[derive(Debug)]
struct Witness {
    var: [VarId; 1],
    wake: csp::Wake,
    runs: Arc<std::sync::Mutex<Vec<bool>>>,
}

impl csp::Constraint for Witness {
    fn scope(&self) -> &[VarId] {
        &self.var
    }
    fn is_satisfied(&self, values: &[i32]) -> bool {
        values[0] != 9
    }
    fn wake_on(&self, _: VarId) -> csp::Wake {
        self.wake
    }
    fn propagate(&self, ctx: &mut csp::Context<'_>) -> Result<(), csp::Conflict> {
        let fixed = ctx.fixed_value(self.var[0]);
        self.runs.lock().unwrap().push(fixed.is_some());
        if fixed == Some(9) {
            return Err(ctx.violated());
        }
        Ok(())
    }
}

#[test]
fn a_propagator_on_fixed_runs_only_when_its_variable_is_fixed() {
    // x < y over 0..=9, searched on x first: each x moves y's lower bound, and fixes y only
    // at x = 8. A witness y != 9 waking on `Fixed` runs at the root and when y is fixed; its
    // twin waking on any change runs at every move of y's bound as well.
    let runs = |wake: csp::Wake| {
        let mut model = Model::new();
        let x = model.new_var(0..=9).unwrap();
        let y = model.new_var(0..=9).unwrap();
        model.compare(x, csp::Relation::Lt, y).unwrap();
        let runs = Arc::new(std::sync::Mutex::new(Vec::new()));
        model
            .post(Witness {
                var: [y],
                wake,
                runs: runs.clone(),
            })
            .unwrap();
        let count = Solver::new(&model).inference(Inference::Mac).count();
        assert_eq!(count, 36, "pairs x < y over 0..=9 with y != 9");
        let runs = runs.lock().unwrap().clone();
        runs
    };
    let on_fixed = runs(csp::Wake::Fixed);
    let on_any = runs(csp::Wake::Domain);
    assert!(!on_fixed[0], "the root runs every constraint once");
    assert!(
        on_fixed[1..].iter().all(|&fixed| fixed),
        "woken with y not fixed"
    );
    // y is fixed by the search at each of its values above x for x up to 7 (44 times, y = 9
    // failing each time), and by propagation at x = 8, which fails too.
    assert_eq!(on_fixed.len(), 1 + 44 + 1);
    assert!(
        on_any.iter().filter(|&&fixed| !fixed).count() > 1,
        "its twin also sees y's bound move: {on_any:?}"
    );
}

#[test]
fn a_median_phase_tries_the_median_then_outwards() {
    // FlatZinc's indomain_median: the median (the lower of two), then the nearest values,
    // the lower of two as near first.
    let mut model = Model::new();
    let x = model.new_var_from_values(None, &[1, 2, 5, 7, 9]).unwrap();
    let y = model.new_var_from_values(None, &[3, 4]).unwrap();
    let phases = vec![csp::Phase::new(
        &[x, y],
        csp::VarSelect::InputOrder,
        csp::ValueSelect::Median,
    )];
    // Forward checking keeps the order it computed at the node; arc consistency would
    // take the median of what is left after each refutation, as Gecode does.
    let order: Vec<Vec<i32>> = Solver::new(&model)
        .inference(Inference::ForwardChecking)
        .phases(phases, 0)
        .solutions()
        .collect();
    let xs: Vec<i32> = order.iter().step_by(2).map(|s| s[0]).collect();
    assert_eq!(xs, [5, 7, 2, 1, 9]);
    assert_eq!(order[0], [5, 3], "y's median of two is the lower");
    assert_eq!(order[1], [5, 4]);
}

#[test]
fn learning_follows_a_declared_median_or_random_value_on_a_domain_too_wide_to_walk() {
    // Two billion values: the median is the value at or below the middle of the bounds, a
    // random value the next one up from a draw between them, each found without walking.
    let mut model = Model::new();
    let x = model.new_var(0..=2_000_000_000).unwrap();
    let y = model.new_var(0..=9).unwrap();
    model
        .linear(&[(1, x), (1, y)], csp::Relation::Ne, 1_000_000_005)
        .unwrap();
    for value in [csp::ValueSelect::Median, csp::ValueSelect::Random] {
        let phases = vec![csp::Phase::new(&[x, y], csp::VarSelect::InputOrder, value)];
        let first = Solver::new(&model)
            .inference(Inference::Lcg)
            .phases(phases, 7)
            .first()
            .expect("a solution");
        assert!(model.check_solution(&first).is_ok(), "{value:?}: {first:?}");
        if value == csp::ValueSelect::Median {
            // The first decision, the lower median of 0..=2e9 (the constraint prunes none of
            // x's values at the root), holds.
            assert_eq!(first[0], 1_000_000_000);
        }
    }
}

/// Collects every reason given, as text.
#[derive(Default)]
struct Reasons(Vec<String>);

impl Observer for Reasons {
    fn on_reason(&mut self, var: VarId, value: i32, _by: ConstraintId, reason: &[csp::Atom]) {
        let atoms: Vec<String> = reason.iter().map(ToString::to_string).collect();
        self.0
            .push(format!("{var} != {value} because {}", atoms.join(" and ")));
    }
}

#[test]
fn a_gate_explains_the_last_open_literal() {
    // r <-> a and b, searched r, a, b: with r = 0 and a = 1, b must be 0, because of both.
    let mut model = Model::new();
    let [r, a, b] = [(); 3].map(|_| model.new_bool().unwrap());
    model
        .bool_and(
            &[csp::Lit::pos(a), csp::Lit::pos(b)],
            Some(csp::Lit::pos(r)),
        )
        .unwrap();
    let mut reasons = Reasons::default();
    let solutions = Solver::new(&model)
        .inference(Inference::Mac)
        .solve_observed(&mut reasons, |_| ControlFlow::Continue(()))
        .stats
        .solutions;
    assert_eq!(solutions, 4, "r is decided by a and b");
    assert!(
        reasons
            .0
            .contains(&format!("{b} != 1 because {a} = 1 and {r} = 0")),
        "{:?}",
        reasons.0
    );
}

#[test]
fn assumed_values_give_exactly_the_solutions_that_have_them() {
    // Every 7-queens solution (40, OEIS A000170) with row 0 in column c, for each c, against
    // the full list filtered; and a value outside a domain, or two for one row, leaves none.
    let queens = QueensModel::new(7, Encoding::AllDiff).unwrap();
    let all: Vec<Vec<i32>> = Solver::new(&queens.model).solutions().collect();
    assert_eq!(all.len() as u64, oeis_a000170()[7]);
    let (row0, row3) = (queens.rows[0], queens.rows[3]);
    for inference in MODES {
        for column in 0..7 {
            let assumed: Vec<Vec<i32>> = Solver::new(&queens.model)
                .inference(inference)
                .assume(vec![(row0, column)])
                .solutions()
                .collect();
            let mut filtered: Vec<Vec<i32>> = all
                .iter()
                .filter(|s| s[row0.index()] == column)
                .cloned()
                .collect();
            // The same solutions, in the order each search meets them.
            let mut assumed = assumed;
            assumed.sort();
            filtered.sort();
            assert_eq!(assumed, filtered, "{inference:?}, row 0 in column {column}");
            let both = Solver::new(&queens.model)
                .inference(inference)
                .assume(vec![(row0, column), (row3, column)])
                .count();
            assert_eq!(both, 0, "two queens in column {column}");
        }
        // The root's domains keep the assumption: row 0 holds only its column.
        let root = Solver::new(&queens.model)
            .inference(inference)
            .assume(vec![(row0, 3)])
            .root_domains()
            .unwrap();
        assert_eq!(root[row0.index()], vec![3]);
        let outside = Solver::new(&queens.model)
            .inference(inference)
            .assume(vec![(row0, 7)]);
        assert_eq!(outside.count(), 0, "column 7 is off the board");
        let twice = Solver::new(&queens.model)
            .inference(inference)
            .assume(vec![(row0, 1), (row0, 2)]);
        assert_eq!(twice.count(), 0, "one row in two columns");
    }
}

#[test]
fn forward_checking_a_board_counts_the_same_with_or_without_an_observer() {
    // Without an observer, fc on a board's all_different takes one loop over the domains'
    // words (`Domains::remove_along`); an observer of prunes sends it through `remove` one
    // value at a time. Both must make the same removals, checks and wipe-outs in the same
    // order, whatever the order of the search.
    for n in [6, 8, 9] {
        let queens = QueensModel::new(n, Encoding::AllDiff).unwrap();
        for order in [csp::VarOrder::Input, csp::VarOrder::MinDomain] {
            for max in [Some(1), None] {
                let solver = Solver::new(&queens.model)
                    .inference(Inference::ForwardChecking)
                    .var_order(order)
                    .max_solutions(max);
                let quiet = solver.solve(|_| ControlFlow::Continue(())).stats;
                let mut tally = Tally::default();
                let watched = solver
                    .solve_observed(&mut tally, |_| ControlFlow::Continue(()))
                    .stats;
                let key = |s: &csp::Statistics| {
                    (
                        s.nodes,
                        s.backtracks,
                        s.checks,
                        s.pruned,
                        s.wipeouts,
                        s.solutions,
                    )
                };
                assert_eq!(key(&quiet), key(&watched), "n = {n}, {order:?}, {max:?}");
                assert_eq!(tally.prunes, quiet.pruned);
            }
        }
    }
}

#[test]
fn a_session_solves_each_time_as_a_fresh_solver_would() {
    use csp_toolkit::csp::{ValueOrder, VarOrder};
    // Queens of 8 and 12 with the first row or two assumed, one assumption outside its
    // domain, and none: every heuristic (the stateful ones too: dom/wdeg's weights, the random
    // order's generator, restarts), every mode, all solutions or the first.
    let assumptions = |n: i32, rows: &[VarId]| -> Vec<Vec<(VarId, i32)>> {
        let mut sets = vec![vec![], vec![(rows[0], n)]];
        sets.extend((0..n).step_by(3).map(|c| vec![(rows[0], c)]));
        sets.extend(
            (0..n)
                .step_by(4)
                .map(|c| vec![(rows[0], c), (rows[1], (c + 2) % n)]),
        );
        sets.push(vec![(rows[0], 1)]);
        sets
    };
    for (n, max) in [(8, None), (12, Some(1))] {
        let queens = QueensModel::new(n as usize, Encoding::AllDiff).unwrap();
        let rows: Vec<VarId> = queens.model.vars().collect();
        for inference in MODES {
            for (var_order, value_order, restarts) in [
                (VarOrder::Input, ValueOrder::Ascending, None),
                (VarOrder::MinDomain, ValueOrder::Descending, None),
                (VarOrder::DomDeg, ValueOrder::LeastConstraining, None),
                (VarOrder::DomWdeg, ValueOrder::Random { seed: 5 }, Some(1)),
                (VarOrder::MinDomain, ValueOrder::Random { seed: 7 }, Some(2)),
            ] {
                let solver = Solver::new(&queens.model)
                    .inference(inference)
                    .var_order(var_order)
                    .value_order(value_order)
                    .max_solutions(max)
                    .restarts(restarts.filter(|_| max == Some(1)));
                let mut session = solver.session();
                for assumed in assumptions(n, &rows) {
                    let mut fresh_solutions = Vec::new();
                    let fresh = solver.clone().assume(assumed.clone()).solve(|s| {
                        fresh_solutions.push(s.values().to_vec());
                        ControlFlow::Continue(())
                    });
                    let mut session_solutions = Vec::new();
                    let again = session.solve(&assumed, |s| {
                        session_solutions.push(s.values().to_vec());
                        ControlFlow::Continue(())
                    });
                    let key = |s: &Summary| {
                        let t = &s.stats;
                        (
                            s.outcome,
                            t.nodes,
                            t.backtracks,
                            t.checks,
                            t.propagations,
                            t.pruned,
                            t.wipeouts,
                            t.solutions,
                            t.restarts,
                            t.max_depth,
                        )
                    };
                    let case = format!(
                        "n = {n}, {inference:?}, {var_order:?}, {value_order:?}, {assumed:?}"
                    );
                    assert_eq!(key(&again), key(&fresh), "{case}");
                    assert_eq!(session_solutions, fresh_solutions, "{case}");
                }
            }
        }
    }
}
