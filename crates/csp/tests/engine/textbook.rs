//! The engine on textbook models and on random small models, against brute force.

use crate::common::{MODES, VALUE_ORDERS, VAR_ORDERS};
use csp::SplitMix64;
use csp::{Model, Outcome, Relation, Solver, VarId};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// AIMA's map of Australia: 18 proper 3-colourings (Russell & Norvig, ch. 6).
#[test]
fn australia_has_18_three_colourings_in_every_configuration() {
    let mut model = Model::new();
    let names = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let region: Vec<VarId> = names
        .iter()
        .map(|n| model.new_named_var(*n, 0..=2).unwrap())
        .collect();
    let borders = [
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (2, 5),
        (3, 4),
        (4, 5),
    ];
    for (a, b) in borders {
        model.not_equal(region[a], region[b]).unwrap();
    }
    for inference in MODES {
        for var_order in VAR_ORDERS {
            for value_order in VALUE_ORDERS {
                let solver = Solver::new(&model)
                    .inference(inference)
                    .var_order(var_order)
                    .value_order(value_order);
                assert_eq!(
                    solver.count(),
                    18,
                    "{inference:?} {var_order:?} {value_order:?}"
                );
            }
        }
    }
}

/// A random model of 2 to 5 variables over subsets of -2..=3 with random constraints of every
/// built-in kind.
fn random_model(rng: &mut SplitMix64) -> Model {
    let mut model = Model::new();
    let n = 2 + rng.below(4) as usize;
    let vars: Vec<VarId> = (0..n)
        .map(|_| {
            let mut values: Vec<i32> = (-2..=3).filter(|_| rng.below(3) > 0).collect();
            if values.is_empty() {
                values.push(rng.below(6) as i32 - 2);
            }
            model.new_var_from_values(None, &values).unwrap()
        })
        .collect();
    for _ in 0..1 + rng.below(4) {
        let x = vars[rng.below(n as u64) as usize];
        let mut y = vars[rng.below(n as u64) as usize];
        if y == x {
            y = vars[(x.index() + 1) % n];
        }
        match rng.below(5) {
            0 => {
                model
                    .not_equal_offset(x, y, rng.below(5) as i32 - 2)
                    .unwrap();
            }
            1 => {
                let k = 2 + rng.below(n as u64 - 1) as usize;
                let scope: Vec<VarId> = vars[..k].to_vec();
                let offsets: Vec<i32> = (0..k).map(|_| rng.below(3) as i32 - 1).collect();
                model.all_different_offsets(&scope, &offsets).unwrap();
            }
            2 => {
                let pairs: Vec<[i32; 2]> = (0..6)
                    .map(|_| [rng.below(6) as i32 - 2, rng.below(6) as i32 - 2])
                    .collect();
                model.table(&[x, y], &pairs).unwrap();
            }
            3 => {
                let m = 1 + rng.below(3) as i32;
                model
                    .binary(x, y, move |a, b| (a + b).rem_euclid(m) != 0)
                    .unwrap();
            }
            _ => {
                let mut terms: Vec<(i64, VarId)> = Vec::new();
                for &v in &vars {
                    if rng.below(2) == 0 {
                        terms.push((rng.below(7) as i64 - 3, v));
                    }
                }
                if !terms.is_empty() {
                    let op = [Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne]
                        [rng.below(4) as usize];
                    model.linear(&terms, op, rng.below(9) as i64 - 4).unwrap();
                }
            }
        }
    }
    model
}

/// Every assignment of the initial domains that passes every constraint's `is_satisfied`.
fn brute_force(model: &Model) -> BTreeSet<Vec<i32>> {
    let domains: Vec<Vec<i32>> = model.vars().map(|v| model.initial_domain(v)).collect();
    let mut out = BTreeSet::new();
    let mut current = vec![0; domains.len()];
    fn walk(
        i: usize,
        domains: &[Vec<i32>],
        current: &mut Vec<i32>,
        model: &Model,
        out: &mut BTreeSet<Vec<i32>>,
    ) {
        if i == domains.len() {
            if model.check_solution(current).is_ok() {
                out.insert(current.clone());
            }
            return;
        }
        for &v in &domains[i] {
            current[i] = v;
            walk(i + 1, domains, current, model, out);
        }
    }
    walk(0, &domains, &mut current, model, &mut out);
    out
}

#[test]
fn random_small_models_match_brute_force_in_every_configuration() {
    let mut rng = SplitMix64::new(2024);
    for case in 0..300 {
        let model = random_model(&mut rng);
        let expected = brute_force(&model);
        for inference in MODES {
            for var_order in VAR_ORDERS {
                for value_order in VALUE_ORDERS {
                    let mut found = BTreeSet::new();
                    Solver::new(&model)
                        .inference(inference)
                        .var_order(var_order)
                        .value_order(value_order)
                        .solve(|s| {
                            assert!(model.check_solution(s.values()).is_ok());
                            assert!(found.insert(s.values().to_vec()), "duplicate");
                            ControlFlow::Continue(())
                        });
                    assert_eq!(
                        found, expected,
                        "case {case}: {inference:?} {var_order:?} {value_order:?}\n{model:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn branch_and_bound_finds_the_brute_force_optimum_with_each_solution_better() {
    let mut rng = SplitMix64::new(99);
    for case in 0..300 {
        let model = random_model(&mut rng);
        let solutions = brute_force(&model);
        let objective = VarId::from_index(rng.below(model.var_count() as u64) as usize).unwrap();
        for inference in MODES {
            for maximize in [false, true] {
                let solver = Solver::new(&model).inference(inference);
                let solver = if maximize {
                    solver.maximize(objective)
                } else {
                    solver.minimize(objective)
                };
                let mut values = Vec::new();
                let summary = solver.solve(|s| {
                    assert!(model.check_solution(s.values()).is_ok());
                    values.push(s.value(objective));
                    ControlFlow::Continue(())
                });
                assert_eq!(summary.outcome, Outcome::Exhausted);
                let improving =
                    values
                        .windows(2)
                        .all(|w| if maximize { w[0] < w[1] } else { w[0] > w[1] });
                assert!(improving, "case {case}: {values:?}");
                let best = solutions.iter().map(|s| s[objective.index()]);
                let best = if maximize { best.max() } else { best.min() };
                assert_eq!(
                    values.last().copied(),
                    best,
                    "case {case}, {inference:?}, max {maximize}"
                );
            }
        }
    }
}
