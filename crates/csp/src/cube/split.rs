//! `split`: a model cut into cubes by a breadth-first walk with propagation, until there are
//! as many as asked for.

use super::Cube;
use crate::constraints::Relation;
use crate::search::core::Core;
use crate::{Inference, Limit, Limits, Model, NoObserver, VarId};
use std::collections::VecDeque;

/// A domain of at most this many values is split into one cube per value; a larger one is
/// halved (`<=` its middle, `>=` the next value), so that a wide variable does not make
/// thousands of cubes at one level.
const VALUES_SPLIT: u64 = 8;

/// The cubes of a model, and what splitting it took.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// The cubes, which together hold every solution, each exactly once. None: propagation
    /// alone proved that the model has no solution.
    pub cubes: Vec<Cube>,
    /// Parts left out because propagation proved them empty.
    pub refuted: u64,
    /// Propagations to a fixpoint run to split (one per cube looked at).
    pub probes: u64,
}

/// What propagation says of one cube.
enum Probe {
    /// No solution in it.
    Refuted,
    /// Every variable fixed (or a literal the model refused): kept whole.
    Settled,
    /// Its parts, by the values of one variable.
    Parts(Vec<Cube>),
}

/// Cuts `model` into at least `target` cubes where it can (fewer when the space runs out
/// first), each the conditions of one branch of a breadth-first walk: at every step the
/// oldest cube is propagated under arc consistency and, unless that refutes it, replaced by
/// its parts on one variable: the first open one of `first` (a declared search's variables,
/// in its order, as embarrassingly parallel search cuts along the solver's own branching),
/// else the one with the smallest domain (those of `avoid`, such as an objective, and those
/// a front end introduced, last; more constraints first among equals): one part per value,
/// or the two halves of a wide domain. Cubes propagation refutes are left out, so a model
/// propagation proves unsatisfiable has none.
///
/// `limits` bound the whole split (its time counted from the call, unless they say from
/// when); one that stops it comes back as `Err`.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use csp::{cube, Limits, Model, Solver};
/// let mut model = Model::new();
/// let xs: Vec<_> = (0..5).map(|_| model.new_var(0..=4)).collect::<Result<_, _>>()?;
/// model.all_different(&xs)?;
/// let split = cube::split(&model, 10, &[], &[], &Limits::none())?;
/// assert!(split.cubes.len() >= 10);
/// let mut total = 0;
/// for cube in &split.cubes {
///     total += Solver::new(&cube.restrict(&model)?).count();
/// }
/// assert_eq!(total, 120);
/// # Ok(())
/// # }
/// ```
pub fn split(
    model: &Model,
    target: usize,
    first: &[VarId],
    avoid: &[VarId],
    limits: &Limits,
) -> Result<Split, Limit> {
    let limits = limits
        .clone()
        .counted_from(limits.since.unwrap_or_else(std::time::Instant::now));
    let mut avoided = vec![false; model.var_count()];
    for var in avoid {
        if let Some(slot) = avoided.get_mut(var.index()) {
            *slot = true;
        }
    }
    let mut split = Split::default();
    // Each cube with its path: the index of each part it was cut into, from the root.
    let mut frontier = VecDeque::from([(Vec::new(), Cube::whole())]);
    let mut kept: Vec<(Vec<u32>, Cube)> = Vec::new();
    while frontier.len() + kept.len() < target.max(1) {
        let Some((path, cube)) = frontier.pop_front() else {
            break;
        };
        split.probes += 1;
        match probe(model, &cube, first, &avoided, &limits)? {
            Probe::Refuted => split.refuted += 1,
            Probe::Settled => kept.push((path, cube)),
            Probe::Parts(parts) => {
                frontier.extend(parts.into_iter().enumerate().map(|(i, part)| {
                    let mut longer = path.clone();
                    longer.push(i as u32);
                    (longer, part)
                }))
            }
        }
    }
    // The frontier's cubes have not been propagated yet: those that propagation refutes are
    // left out here, so that no worker is handed an empty part.
    for (path, cube) in frontier {
        split.probes += 1;
        match probe(model, &cube, first, &avoided, &limits)? {
            Probe::Refuted => split.refuted += 1,
            Probe::Settled | Probe::Parts(_) => kept.push((path, cube)),
        }
    }
    // In the order a depth-first search meets them (smaller values, lower halves first), as
    // workers take them in order: the parts where the search finds its first (and, under a
    // declared search, its best) solutions go first, and their bound prunes the rest.
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    split.cubes = kept.into_iter().map(|(_, cube)| cube).collect();
    Ok(split)
}

/// Propagates `model` restricted to `cube` and, if that leaves it open, cuts it in parts.
fn probe(
    model: &Model,
    cube: &Cube,
    first: &[VarId],
    avoided: &[bool],
    limits: &Limits,
) -> Result<Probe, Limit> {
    // Only a literal on a variable the model lacks is refused; such a cube is kept whole,
    // for its search to report.
    let Ok(restricted) = cube.restrict(model) else {
        return Ok(Probe::Settled);
    };
    let mut core = Core::new(&restricted, Inference::Mac, false, limits);
    if let Some(limit) = core.interrupted {
        return Err(limit);
    }
    if core.propagate_all(&mut NoObserver).is_err() {
        return match core.interrupted.take() {
            Some(limit) => Err(limit),
            None => Ok(Probe::Refuted),
        };
    }
    let domains = &core.store.domains;
    let open = |v: &VarId| v.index() < model.var_count() && domains.size_u64(*v) > 1;
    let declared = first.iter().copied().find(open);
    let chosen = declared.or_else(|| {
        model.vars().filter(open).min_by_key(|&v| {
            (
                avoided.get(v.index()).copied().unwrap_or(false),
                model.is_introduced(v),
                domains.size_u64(v),
                std::cmp::Reverse(model.constraints_on(v).len()),
            )
        })
    });
    let Some(var) = chosen else {
        return Ok(Probe::Settled);
    };
    let parts = if domains.size_u64(var) <= VALUES_SPLIT {
        domains
            .iter(var)
            .map(|value| cube.and(var, Relation::Eq, value))
            .collect()
    } else {
        let (Some(low), Some(high)) = (domains.min(var), domains.max(var)) else {
            return Ok(Probe::Settled);
        };
        let middle = low + (high - low) / 2;
        vec![
            cube.and(var, Relation::Le, middle),
            cube.and(var, Relation::Ge, middle + 1),
        ]
    };
    Ok(Probe::Parts(parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brute_force::{config, each_tuple, random_vars};
    use crate::{Objective, SplitMix64};
    use proptest::prelude::*;

    /// A random small model: up to 5 variables over small domains, with comparisons, a
    /// linear constraint and, sometimes, all-different.
    fn random_model(seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed);
        let mut model = Model::new();
        let n = 2 + rng.below(4) as usize;
        let pool: Vec<i32> = (-3..=12).collect();
        let xs = random_vars(&mut rng, &mut model, n, &pool, 9);
        for _ in 0..rng.below(4) {
            let a = xs[rng.below(n as u64) as usize];
            let b = xs[rng.below(n as u64) as usize];
            let relation = Relation::ALL[rng.below(6) as usize];
            if a != b {
                model.compare(a, relation, b).unwrap();
            }
        }
        if rng.below(2) == 0 {
            let terms: Vec<(i64, VarId)> =
                xs.iter().map(|&x| (rng.below(5) as i64 - 2, x)).collect();
            let bound = rng.below(20) as i64 - 5;
            model.linear(&terms, Relation::Le, bound).unwrap();
        }
        if rng.below(3) == 0 {
            model.all_different(&xs).unwrap();
        }
        model
    }

    fn solutions(model: &Model) -> Vec<Vec<i32>> {
        let domains: Vec<Vec<i32>> = model.vars().map(|v| model.initial_domain(v)).collect();
        let mut found = Vec::new();
        each_tuple(&domains, |values| {
            if model.check_solution(values).is_ok() {
                found.push(values.to_vec());
            }
        });
        found
    }

    proptest! {
        #![proptest_config(config())]

        /// Every solution (by brute force) lies in exactly one cube, every cube's search
        /// finds exactly the solutions it holds, and their counts add up to the model's.
        #[test]
        fn cubes_partition_the_solutions(seed in any::<u64>(), target in 1usize..40) {
            let model = random_model(seed);
            let all = solutions(&model);
            // Some variables first, as a declared search's, in a random order.
            let mut first: Vec<VarId> = model.vars().filter(|v| (seed >> v.index()) & 1 == 1).collect();
            if seed & 64 == 0 {
                first.reverse();
            }
            let split = split(&model, target, &first, &[], &Limits::none()).unwrap();
            for solution in &all {
                let holding = split.cubes.iter().filter(|c| c.contains(solution)).count();
                prop_assert_eq!(holding, 1, "{:?} in {} cubes of {:?}", solution, holding, split.cubes);
            }
            let mut total = 0;
            for cube in &split.cubes {
                let restricted = cube.restrict(&model).unwrap();
                let inside = all.iter().filter(|s| cube.contains(s)).count() as u64;
                let counted = crate::Solver::new(&restricted).inference(Inference::Lcg).count();
                prop_assert_eq!(counted, inside);
                total += counted;
            }
            prop_assert_eq!(total, all.len() as u64);
            if all.is_empty() {
                // Propagation may or may not see it; the cubes hold nothing in any case.
                prop_assert!(split.cubes.iter().all(|c| all.iter().all(|s| !c.contains(s))));
            }
        }
    }

    #[test]
    fn cubes_of_an_optimisation_hold_the_optimum_and_a_shared_bound_prunes_them() {
        let model = random_model_with_solutions();
        let objective = Objective::minimize(model.vars().next().unwrap());
        let best = solutions(&model).iter().map(|s| s[0]).min().unwrap();
        let split = split(&model, 12, &[], &[objective.var], &Limits::none()).unwrap();
        let bound = std::sync::Arc::new(crate::SharedBound::new());
        for cube in &split.cubes {
            let restricted = cube.restrict(&model).unwrap();
            crate::Solver::new(&restricted)
                .inference(Inference::Lcg)
                .optimize(Some(objective))
                .shared_bound(std::sync::Arc::clone(&bound))
                .solve(|_| std::ops::ControlFlow::Continue(()));
        }
        assert_eq!(bound.best(objective.sense), Some(i64::from(best)));
    }

    /// A model with solutions, the first variable the one to minimise.
    fn random_model_with_solutions() -> Model {
        (0..)
            .map(random_model)
            .find(|m| solutions(m).len() > 20)
            .unwrap()
    }

    #[test]
    fn a_limit_stops_a_split() {
        let mut model = Model::new();
        let xs: Vec<_> = (0..12).map(|_| model.new_var(0..=11).unwrap()).collect();
        model.all_different(&xs).unwrap();
        let cancelled = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let limits = Limits::none().with_cancel(&cancelled);
        assert!(split(&model, 100, &[], &[], &limits).is_err());
    }
}
