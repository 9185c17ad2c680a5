//! Propagators together against brute force: in a network of several, none removes a
//! supported value. Each one's own tests (exact arc consistency where it promises it) sit
//! beside it in `crates/csp/src/constraints/`.

use csp_toolkit::csp::SplitMix64;
use csp_toolkit::csp::{Inference, LinearOp, Model, Solver, VarId};
use std::collections::BTreeSet;

/// The values each variable takes in some solution, or `None` when there is no solution.
fn projection(model: &Model) -> Option<Vec<Vec<i32>>> {
    let domains: Vec<Vec<i32>> = model.vars().map(|v| model.initial_domain(v)).collect();
    let mut seen: Vec<BTreeSet<i32>> = vec![BTreeSet::new(); domains.len()];
    let mut current = vec![0; domains.len()];
    let mut any = false;
    fn walk(
        i: usize,
        domains: &[Vec<i32>],
        current: &mut Vec<i32>,
        model: &Model,
        seen: &mut [BTreeSet<i32>],
        any: &mut bool,
    ) {
        if i == domains.len() {
            if model.check_solution(current).is_ok() {
                *any = true;
                for (set, &v) in seen.iter_mut().zip(current.iter()) {
                    set.insert(v);
                }
            }
            return;
        }
        for &v in &domains[i] {
            current[i] = v;
            walk(i + 1, domains, current, model, seen, any);
        }
    }
    walk(0, &domains, &mut current, model, &mut seen, &mut any);
    any.then(|| seen.into_iter().map(|s| s.into_iter().collect()).collect())
}

/// Random domains of up to `size` values drawn from `pool`.
fn random_vars(
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

#[test]
fn no_propagator_removes_a_supported_value_in_a_network() {
    let mut rng = SplitMix64::new(13);
    let pool: Vec<i32> = (-1..=4).collect();
    for case in 0..400 {
        let mut model = Model::new();
        let vars = random_vars(&mut rng, &mut model, 4, &pool, 5);
        model
            .not_equal_offset(vars[0], vars[1], rng.below(3) as i32 - 1)
            .unwrap();
        model.all_different(&vars[1..4]).unwrap();
        model
            .table(
                vars[0],
                vars[3],
                (0..10).map(|_| (rng.below(6) as i32 - 1, rng.below(6) as i32 - 1)),
            )
            .unwrap();
        let terms = [
            (1 + rng.below(3) as i64, vars[0]),
            (rng.below(5) as i64 - 2, vars[2]),
            (-1, vars[3]),
        ];
        let op = [LinearOp::Eq, LinearOp::Le, LinearOp::Ge, LinearOp::Ne][rng.below(4) as usize];
        model.linear(&terms, op, rng.below(7) as i64 - 3).unwrap();
        let filtered = Solver::new(&model).inference(Inference::Mac).root_domains();
        match (filtered, projection(&model)) {
            (Some(filtered), Some(supported)) => {
                for (kept, needed) in filtered.iter().zip(&supported) {
                    assert!(
                        needed.iter().all(|v| kept.contains(v)),
                        "case {case}: {kept:?} lost part of {needed:?}"
                    );
                }
            }
            (None, Some(_)) => panic!("case {case}: filtering failed a satisfiable network"),
            (_, None) => {}
        }
    }
}
