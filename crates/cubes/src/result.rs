//! `CubeResult`: what the search of one cube found, as one JSON object.

use crate::record::CubeRecord;
use crate::run::{CubeModel, CubeRun};
use crate::task::Task;
use serde::{Deserialize, Serialize};

/// What one cube's search found:
/// `{"cube":3,"of":40,"model":"5f0c...","task":"count","complete":true,"solutions":12,...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CubeResult {
    /// The cube's index, from 0.
    pub cube: usize,
    /// How many cubes the split made.
    pub of: usize,
    /// The fingerprint of the model.
    pub model: String,
    /// What was asked.
    pub task: Task,
    /// Whether the cube's search ended by itself: its count exact, its optimum (or that it
    /// has nothing better than the bound it was given) proved, its one solution found or its
    /// absence proved.
    pub complete: bool,
    /// The solutions found (counted, or improving ones in an optimisation), each checked
    /// against every constraint of the model.
    pub solutions: u64,
    /// The best objective value found in the cube, in an optimisation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// Whether the objective is minimised (`true`) or maximised, in an optimisation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimize: Option<bool>,
    /// The last solution found (the best, in an optimisation), in the front end's words
    /// (FlatZinc's output lines, XCSP3's instantiation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// The bound the search started from, if one was given: only better was looked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i64>,
    /// What stopped it early, if anything (`time`, `nodes`, `cancelled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Search nodes.
    pub nodes: u64,
    /// Seconds of search.
    pub seconds: f64,
}

impl CubeResult {
    /// The result of `record`'s cube, of `model` as searched for `task`: `run`'s figures
    /// (its last solution put in words by `describe`), or, without a run (the reader proved
    /// the model has no solution before any search), complete with no solution. `bound`: the
    /// bound the search started from, if any.
    pub fn of_run(
        record: &CubeRecord,
        model: &CubeModel<'_>,
        task: Task,
        bound: Option<i64>,
        run: Option<&CubeRun>,
        describe: impl Fn(&[i32]) -> String,
    ) -> Self {
        let stopped = run.and_then(|r| match r.summary.outcome {
            csp::Outcome::LimitReached(limit) => Some(limit.to_string()),
            _ => None,
        });
        CubeResult {
            cube: record.cube,
            of: record.of,
            model: record.model.clone(),
            task,
            complete: run.is_none_or(CubeRun::complete),
            solutions: run.map_or(0, |r| r.solutions),
            objective: run.and_then(|r| r.objective),
            minimize: model.objective.map(|o| o.sense == csp::Sense::Minimize),
            output: run.and_then(|r| r.last.as_deref()).map(describe),
            bound,
            stopped,
            nodes: run.map_or(0, |r| r.summary.stats.nodes),
            seconds: run.map_or(0.0, |r| r.summary.stats.elapsed.as_secs_f64()),
        }
    }

    /// One line of JSON (without its newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A result read back; `Err` says why it is not one.
    pub fn parse(text: &str) -> Result<Self, String> {
        serde_json::from_str(text.trim()).map_err(|e| format!("not a cube result: {e}"))
    }
}
