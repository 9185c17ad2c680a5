//! `merge`: the results of a split's cubes made into the whole model's answer.

use crate::result::CubeResult;
use crate::task::Task;

/// The whole model's answer from its cubes' results.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// How many cubes the split made.
    pub of: usize,
    /// The model's fingerprint.
    pub model: String,
    /// What was asked.
    pub task: Task,
    /// The solutions of every cube with a result, added up (exact when [`Merged::complete`],
    /// in a count).
    pub solutions: u64,
    /// The best objective value of any cube, in an optimisation.
    pub best: Option<i64>,
    /// Whether the objective is minimised, in an optimisation.
    pub minimize: Option<bool>,
    /// The best solution (or, without an objective, one), in the front end's words.
    pub output: Option<String>,
    /// The cubes without a result (a task that never ended, or never ran).
    pub missing: Vec<usize>,
    /// The cubes whose search a limit stopped, or whose result was searched under a bound
    /// that no result's solution reaches (its solution was lost: the optimum is unproved).
    pub incomplete: Vec<usize>,
}

impl Merged {
    /// Whether the answer is the whole model's: a solution found (for one solution), or every
    /// cube's search complete (a count, an optimum, or no solution at all).
    pub fn complete(&self) -> bool {
        (self.task == Task::Solve && self.solutions > 0)
            || (self.missing.is_empty() && self.incomplete.is_empty())
    }

    /// The answer in a line: `count 92 (complete)`, `optimum 17`, `unsatisfiable`, or what
    /// is known and what is missing.
    pub fn summary(&self) -> String {
        let complete = self.complete();
        let found = self.solutions > 0;
        match (self.task, found, complete) {
            (Task::Count, _, true) => format!("count {} (complete)", self.solutions),
            (Task::Count, _, false) => format!("count at least {} (incomplete)", self.solutions),
            (Task::Solve, true, _) => "satisfiable".to_owned(),
            (Task::Optimize, true, true) => {
                format!("optimum {}", self.best.unwrap_or_default())
            }
            (Task::Optimize, true, false) => {
                format!(
                    "best {} (optimality not proved)",
                    self.best.unwrap_or_default()
                )
            }
            (_, false, true) => "unsatisfiable".to_owned(),
            (_, false, false) => "unknown (no solution found so far)".to_owned(),
        }
    }
}

/// Why results cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No result at all.
    Empty,
    /// The `index`-th result (in the order given) is of another split, model or task than
    /// the first: what differs.
    Mismatch {
        /// Its place in the results given.
        index: usize,
        /// What differs.
        what: String,
    },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Empty => f.write_str("no result to merge"),
            MergeError::Mismatch { what, .. } => f.write_str(what),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merges the cubes' `results` (any order; a cube's several results, as from a retried task,
/// count once: a complete one first): counts added, the best objective kept, and the cubes
/// without a result or with an incomplete one named.
pub fn merge(results: &[CubeResult]) -> Result<Merged, MergeError> {
    let first = results.first().ok_or(MergeError::Empty)?;
    let mut chosen: Vec<Option<&CubeResult>> = vec![None; first.of];
    for (index, result) in results.iter().enumerate() {
        let differs = if result.model != first.model {
            Some(format!("model {}, not {}", result.model, first.model))
        } else if result.of != first.of {
            Some(format!("a split into {}, not {}", result.of, first.of))
        } else if result.task != first.task {
            Some(format!("task {}, not {}", result.task, first.task))
        } else if result.cube >= first.of {
            Some(format!("cube {} of {}", result.cube, first.of))
        } else {
            None
        };
        if let Some(what) = differs {
            return Err(MergeError::Mismatch { index, what });
        }
        let slot = &mut chosen[result.cube];
        if slot.is_none_or(|held| !held.complete && result.complete) {
            *slot = Some(result);
        }
    }
    let minimize = results.iter().find_map(|r| r.minimize);
    let better = |a: i64, b: i64| {
        if minimize == Some(false) {
            a > b
        } else {
            a < b
        }
    };
    let mut merged = Merged {
        of: first.of,
        model: first.model.clone(),
        task: first.task,
        solutions: 0,
        best: None,
        minimize,
        output: None,
        missing: Vec::new(),
        incomplete: Vec::new(),
    };
    for (cube, result) in chosen.iter().enumerate() {
        let Some(result) = result else {
            merged.missing.push(cube);
            continue;
        };
        merged.solutions += result.solutions;
        if !result.complete {
            merged.incomplete.push(cube);
        }
        match (result.objective, merged.best) {
            (Some(value), Some(best)) if !better(value, best) => {}
            (Some(value), _) => {
                merged.best = Some(value);
                merged.output.clone_from(&result.output);
            }
            (None, _) if merged.output.is_none() && result.solutions > 0 => {
                merged.output.clone_from(&result.output);
            }
            (None, _) => {}
        }
    }
    // A cube searched under a bound only proves that it holds nothing better than that
    // bound: if no result holds a solution that good, the optimum is not proved.
    for (cube, result) in chosen.iter().enumerate() {
        if let (Some(result), Some(bound)) = (result, result.and_then(|r| r.bound)) {
            let reached = merged.best.is_some_and(|best| !better(bound, best));
            if result.complete && !reached && !merged.incomplete.contains(&cube) {
                merged.incomplete.push(cube);
            }
        }
    }
    merged.incomplete.sort_unstable();
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(cube: usize, of: usize, solutions: u64, objective: Option<i64>) -> CubeResult {
        CubeResult {
            cube,
            of,
            model: "m".into(),
            task: if objective.is_some() {
                Task::Optimize
            } else {
                Task::Count
            },
            complete: true,
            solutions,
            objective,
            minimize: objective.map(|_| true),
            output: objective.map(|v| format!("x = {v};")),
            bound: None,
            stopped: None,
            nodes: 0,
            seconds: 0.0,
        }
    }

    #[test]
    fn counts_add_up_and_a_missing_cube_is_named() {
        let results = vec![result(0, 3, 4, None), result(2, 3, 5, None)];
        let merged = merge(&results).unwrap();
        assert_eq!(merged.solutions, 9);
        assert_eq!(merged.missing, vec![1]);
        assert!(!merged.complete());
        let mut all = results.clone();
        all.push(result(1, 3, 1, None));
        // A retried cube's second result counts once.
        all.push(result(1, 3, 1, None));
        let merged = merge(&all).unwrap();
        assert_eq!((merged.solutions, merged.complete()), (10, true));
        assert_eq!(merged.summary(), "count 10 (complete)");
    }

    #[test]
    fn the_best_objective_is_kept_and_an_unreached_bound_leaves_it_unproved() {
        let mut results = vec![result(0, 2, 2, Some(9)), result(1, 2, 1, Some(7))];
        let merged = merge(&results).unwrap();
        assert_eq!(merged.best, Some(7));
        assert_eq!(merged.output.as_deref(), Some("x = 7;"));
        assert_eq!(merged.summary(), "optimum 7");
        // Cube 1 found nothing better than a bound of 5 that no result holds.
        results[1] = CubeResult {
            solutions: 0,
            objective: None,
            bound: Some(5),
            ..results[1].clone()
        };
        let merged = merge(&results).unwrap();
        assert_eq!(merged.incomplete, vec![1]);
        assert_eq!(merged.summary(), "best 9 (optimality not proved)");
    }

    #[test]
    fn results_of_another_model_are_refused() {
        let mut other = result(1, 2, 1, None);
        other.model = "n".into();
        let refused = merge(&[result(0, 2, 1, None), other]);
        assert!(matches!(
            refused,
            Err(MergeError::Mismatch { index: 1, .. })
        ));
    }
}
