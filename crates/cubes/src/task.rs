//! `Task`: what a run over cubes asks: a count, one solution, or the optimum.

use serde::{Deserialize, Serialize};

/// What a run over cubes asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Task {
    /// Every solution, counted.
    Count,
    /// One solution (the first found in any cube ends the rest).
    Solve,
    /// The best solution of the objective.
    Optimize,
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Task::Count => "count",
            Task::Solve => "solve",
            Task::Optimize => "optimize",
        })
    }
}
