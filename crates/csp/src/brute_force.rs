//! Brute-force oracles for the tests beside each constraint: every tuple, the solutions, the
//! values some solution uses, random domains, and proptest's fixed-seed configuration.

use crate::{Inference, Model, Solver, SplitMix64, VarId};
use proptest::test_runner::{Config, RngSeed};
use std::collections::BTreeSet;

/// Every mode of inference.
pub(crate) const MODES: [Inference; 4] = [
    Inference::None,
    Inference::ForwardChecking,
    Inference::Mac,
    Inference::Lcg,
];

/// Proptest with a fixed seed and nothing written to disk; `PROPTEST_CASES` overrides the
/// 2,000 cases, as in the root suite's property tests.
pub(crate) fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(2026),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Calls `visit` with every tuple of one value from each of `domains`, the last varying
/// fastest.
pub(crate) fn each_tuple(domains: &[Vec<i32>], mut visit: impl FnMut(&[i32])) {
    fn walk(i: usize, domains: &[Vec<i32>], current: &mut Vec<i32>, visit: &mut dyn FnMut(&[i32])) {
        if i == domains.len() {
            visit(current);
            return;
        }
        for &v in &domains[i] {
            current[i] = v;
            walk(i + 1, domains, current, visit);
        }
    }
    walk(0, domains, &mut vec![0; domains.len()], &mut visit);
}

/// The values each variable takes in one of `solutions` (over `vars` variables), `None`
/// without solutions.
pub(crate) fn supported(solutions: &BTreeSet<Vec<i32>>, vars: usize) -> Option<Vec<Vec<i32>>> {
    let mut seen: Vec<BTreeSet<i32>> = vec![BTreeSet::new(); vars];
    for solution in solutions {
        for (set, &v) in seen.iter_mut().zip(solution) {
            set.insert(v);
        }
    }
    (!solutions.is_empty()).then(|| seen.into_iter().map(|s| s.into_iter().collect()).collect())
}

/// The values each variable of `model` takes in some solution, found by trying every tuple
/// against the model's own check; `None` when there is no solution.
pub(crate) fn projection(model: &Model) -> Option<Vec<Vec<i32>>> {
    let domains: Vec<Vec<i32>> = model.vars().map(|v| model.initial_domain(v)).collect();
    let mut solutions = BTreeSet::new();
    each_tuple(&domains, |values| {
        if model.check_solution(values).is_ok() {
            solutions.insert(values.to_vec());
        }
    });
    supported(&solutions, domains.len())
}

/// `count` variables with random domains of up to `size` values drawn from `pool`.
pub(crate) fn random_vars(
    rng: &mut SplitMix64,
    model: &mut Model,
    count: usize,
    pool: &[i32],
    size: u64,
) -> Vec<VarId> {
    (0..count)
        .map(|_| {
            let mut values: Vec<i32> = (0..1 + rng.below(size))
                .map(|_| pool[rng.below(pool.len() as u64) as usize])
                .collect();
            values.sort_unstable();
            values.dedup();
            model.new_var_from_values(None, &values).unwrap()
        })
        .collect()
}

/// Mac at the root keeps exactly the values some solution uses.
pub(crate) fn assert_gac(model: &Model, case: &str) {
    let filtered = Solver::new(model).inference(Inference::Mac).root_domains();
    assert_eq!(filtered, projection(model), "{case}\n{model:?}");
}

/// Mac at the root keeps every value of `supported` (`None`: no solution, nothing to keep).
pub(crate) fn keeps_every_supported_value(
    model: &Model,
    supported: Option<Vec<Vec<i32>>>,
) -> Result<(), String> {
    let root = Solver::new(model).inference(Inference::Mac).root_domains();
    match (root, supported) {
        (Some(kept), Some(needed)) => {
            for (k, n) in kept.iter().zip(&needed) {
                if !n.iter().all(|v| k.contains(v)) {
                    return Err(format!("kept {k:?}, needed {n:?}"));
                }
            }
            Ok(())
        }
        (None, Some(_)) => Err("filtering failed a satisfiable model".into()),
        (_, None) => Ok(()),
    }
}

/// A model with one variable over each of `domains`, and those variables in order.
pub(crate) fn model_over(domains: &[Vec<i32>]) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let xs = domains
        .iter()
        .map(|d| model.new_var_from_values(None, d).unwrap())
        .collect();
    (model, xs)
}

/// The tuples of `domains` that `holds` accepts.
pub(crate) fn accepted(domains: &[Vec<i32>], holds: impl Fn(&[i32]) -> bool) -> BTreeSet<Vec<i32>> {
    let mut found = BTreeSet::new();
    each_tuple(domains, |tuple| {
        if holds(tuple) {
            found.insert(tuple.to_vec());
        }
    });
    found
}

/// Every mode finds exactly `expected` as the solutions of `model` (every variable of it,
/// in order), and mac keeps every value some of them uses.
pub(crate) fn every_mode_finds_exactly(
    model: &Model,
    expected: &BTreeSet<Vec<i32>>,
) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::test_runner::TestCaseError;
    for inference in MODES {
        let found: BTreeSet<Vec<i32>> = Solver::new(model)
            .inference(inference)
            .solutions()
            .collect();
        if &found != expected {
            return Err(TestCaseError::fail(format!(
                "{inference:?} found {found:?}, brute force {expected:?}"
            )));
        }
    }
    keeps_every_supported_value(model, supported(expected, model.var_count()))
        .map_err(TestCaseError::fail)
}
