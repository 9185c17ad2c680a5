//! Unit tests of `dom_wdeg` (and of wdeg, its weight-only form): its heap picks exactly what a
//! scan of every unassigned variable would pick, through random assignments, forward checking,
//! backtracks and weight changes.

use super::*;
use crate::search::core::Core;
use crate::{Inference, Limits, Model, NoObserver, SplitMix64};

/// The variable with the smallest domain size over weighted degree, ties to the lowest id,
/// among the variables not marked introduced if any is unassigned: found by looking at every
/// unassigned variable, the definition the heap must match. Under wdeg (`sizes` false) a
/// fixed variable counts as size 1 and every other as size 2.
fn by_scan(order: &DomWdeg, core: &Core<'_>, sizes: bool) -> VarId {
    let mut best: Option<(VarId, bool, u64, u64)> = None;
    for &var in core.unassigned() {
        let introduced = core.model.is_introduced(var);
        let size = u64::from(core.store.domains.size(var));
        let size = if sizes { size } else { size.min(2) };
        let weight = weighted_degree(&order.weights, core, var).max(1);
        let better = best.is_none_or(|(b, b_introduced, b_size, b_weight)| {
            let (lhs, rhs) = (size * b_weight, b_size * weight);
            if introduced != b_introduced {
                return !introduced;
            }
            lhs < rhs || (lhs == rhs && var < b)
        });
        if better {
            best = Some((var, introduced, size, weight));
        }
    }
    best.map_or(core.order[core.assigned_count], |(var, _, _, _)| var)
}

/// A random model: `n` variables over 0..k, random `!=` pairs and a few all-different groups.
fn random_model(rng: &mut SplitMix64, n: usize, k: i32) -> Model {
    let mut model = Model::new();
    let vars: Vec<VarId> = (0..n).map(|_| model.new_var(0..=k - 1).unwrap()).collect();
    // Some variables introduced by a front end: branched on after the others.
    for &v in &vars {
        if rng.below(4) == 0 {
            model.set_introduced(v);
        }
    }
    for _ in 0..2 * n {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a != b {
            model.not_equal(vars[a], vars[b]).unwrap();
        }
    }
    for _ in 0..n / 4 {
        let group: Vec<VarId> = (0..3).map(|_| vars[rng.below(n as u64) as usize]).collect();
        let mut distinct = group.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() == group.len() {
            model.all_different(&group).unwrap();
        }
    }
    model
}

#[test]
fn the_heap_picks_what_a_scan_picks() {
    heap_against_scan(true);
}

#[test]
fn the_weight_only_heap_picks_what_a_scan_picks() {
    heap_against_scan(false);
}

/// Random walks through search, dom/wdeg's heap (or wdeg's, when `sizes` is false) checked
/// against a scan at every pick.
fn heap_against_scan(sizes: bool) {
    let mut rng = SplitMix64::new(12);
    for round in 0..60 {
        let n = 4 + rng.below(40) as usize;
        let k = 2 + rng.below(4) as i32;
        let model = random_model(&mut rng, n, k);
        let mut core = Core::new(
            &model,
            Inference::ForwardChecking,
            false,
            &Limits::default(),
        );
        let mut order = if sizes {
            DomWdeg::new(model.constraint_count())
        } else {
            DomWdeg::weight_only(model.constraint_count())
        };
        core.store.track_touched = order.wants_touched();
        let mut frames: Vec<(VarId, crate::propagation::domains::TrailMark)> = Vec::new();
        for step in 0..400 {
            if core.unassigned().is_empty() {
                let Some((var, mark)) = frames.pop() else {
                    break;
                };
                core.unassign(var);
                core.store.domains.restore(mark);
                order.on_unassign(var, &core);
                continue;
            }
            let picked = order.select(&mut core);
            assert_eq!(
                picked,
                by_scan(&order, &core, sizes),
                "round {round}, step {step}"
            );
            match rng.below(10) {
                // Backtrack.
                0..=2 if !frames.is_empty() => {
                    if let Some((var, mark)) = frames.pop() {
                        core.unassign(var);
                        core.store.domains.restore(mark);
                        order.on_unassign(var, &core);
                    }
                }
                // A constraint causes a failure: its weight grows.
                3 if model.constraint_count() > 0 => {
                    let c = ConstraintId(rng.below(model.constraint_count() as u64) as u32);
                    order.on_conflict(c, &core);
                }
                // Assign the picked variable a value left to it, and forward check.
                _ => {
                    let values: Vec<i32> = core.store.domains.iter(picked).collect();
                    let value = values[rng.below(values.len() as u64) as usize];
                    let mark = core.store.domains.mark();
                    core.assign(picked, value);
                    if core.infer(picked, &mut NoObserver).is_ok() {
                        frames.push((picked, mark));
                    } else {
                        core.unassign(picked);
                        core.store.domains.restore(mark);
                        order.on_unassign(picked, &core);
                    }
                }
            }
        }
    }
}
