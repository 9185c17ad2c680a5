//! `Event` and the observers that record, stream or fan out the search's events.
//!
//! The same event shapes serve the HTML replay, the `--trace-json` stream (schema:
//! `docs/trace-schema.json`) and the `--tree` drawing.

use csp::{ConstraintId, Model, Observer, VarId};
use serde::Serialize;

/// The version of the trace format, in every header; raised on any incompatible change.
pub const TRACE_VERSION: u32 = 1;

/// One step of the search, as recorded.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The search gave `var` the value `value`; `depth` counts assigned variables.
    Assign { var: u32, value: i32, depth: usize },
    /// Filtering by constraint `by` removed `value` from `var` (`by` is -1 for the objective bound).
    Prune { var: u32, value: i32, by: i64 },
    /// Filtering by constraint `by` emptied the domain of `var`: the node fails.
    Wipeout { var: u32, by: i64 },
    /// Under `none`, constraint `by` is broken by `var = value`: the node fails.
    Violation { var: u32, value: i32, by: i64 },
    /// The search takes back `var = value`.
    Backtrack { var: u32, value: i32, depth: usize },
    /// Every variable has a value: `values`, one per variable.
    Solution { values: Vec<i32> },
}

fn constraint_number(c: ConstraintId) -> i64 {
    if c == ConstraintId::OBJECTIVE {
        -1
    } else {
        c.index() as i64
    }
}

/// What a trace starts with: the model's variables and constraints.
#[derive(Clone, Debug, Serialize)]
pub struct Header {
    pub schema: &'static str,
    pub version: u32,
    pub problem: String,
    pub config: String,
    pub variables: Vec<VariableInfo>,
    pub constraints: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct VariableInfo {
    pub name: String,
    pub domain: Vec<i32>,
}

impl Header {
    pub fn new(model: &Model, problem: &str, config: &str) -> Self {
        Header {
            schema: "csp-trace",
            version: TRACE_VERSION,
            problem: problem.to_owned(),
            config: config.to_owned(),
            variables: model
                .vars()
                .map(|v| VariableInfo {
                    name: model
                        .var_name(v)
                        .map_or_else(|| v.to_string(), |name| name.into_owned()),
                    domain: model.initial_domain(v),
                })
                .collect(),
            constraints: model
                .constraint_ids()
                .map(|c| model.constraint_name(c))
                .collect(),
        }
    }
}

/// Turns observer calls into [`Event`]s for a sink.
pub trait EventSink {
    fn event(&mut self, event: Event);
}

/// Any [`EventSink`] as an [`Observer`].
pub struct Recorder<S>(pub S);

impl<S: EventSink> Observer for Recorder<S> {
    fn on_assign(&mut self, var: VarId, value: i32, depth: usize) {
        self.0.event(Event::Assign {
            var: var.index() as u32,
            value,
            depth,
        });
    }
    fn on_prune(&mut self, var: VarId, value: i32, by: ConstraintId) {
        self.0.event(Event::Prune {
            var: var.index() as u32,
            value,
            by: constraint_number(by),
        });
    }
    fn on_wipeout(&mut self, var: VarId, by: ConstraintId) {
        self.0.event(Event::Wipeout {
            var: var.index() as u32,
            by: constraint_number(by),
        });
    }
    fn on_violation(&mut self, var: VarId, value: i32, by: ConstraintId) {
        self.0.event(Event::Violation {
            var: var.index() as u32,
            value,
            by: constraint_number(by),
        });
    }
    fn on_backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.0.event(Event::Backtrack {
            var: var.index() as u32,
            value,
            depth,
        });
    }
    fn on_solution(&mut self, values: &[i32]) {
        self.0.event(Event::Solution {
            values: values.to_vec(),
        });
    }
}

/// Keeps the first `limit` events in memory, for the replay page.
#[derive(Debug, Default)]
pub struct EventLog {
    pub events: Vec<Event>,
    pub limit: usize,
    pub truncated: bool,
}

impl EventSink for EventLog {
    fn event(&mut self, event: Event) {
        if self.events.len() < self.limit {
            self.events.push(event);
        } else {
            self.truncated = true;
        }
    }
}

/// Several observers as one; used only when some are asked for, so the plain search keeps
/// its observer-free loop.
pub struct Fanout<'a>(pub Vec<&'a mut dyn Observer>);

impl Observer for Fanout<'_> {
    fn wants_prunes(&self) -> bool {
        self.0.iter().any(|o| o.wants_prunes())
    }
    fn on_assign(&mut self, var: VarId, value: i32, depth: usize) {
        self.0
            .iter_mut()
            .for_each(|o| o.on_assign(var, value, depth));
    }
    fn on_prune(&mut self, var: VarId, value: i32, by: ConstraintId) {
        self.0.iter_mut().for_each(|o| o.on_prune(var, value, by));
    }
    fn on_reason(&mut self, var: VarId, value: i32, by: ConstraintId, reason: &[csp::Atom]) {
        self.0
            .iter_mut()
            .for_each(|o| o.on_reason(var, value, by, reason));
    }
    fn on_wipeout(&mut self, var: VarId, by: ConstraintId) {
        self.0.iter_mut().for_each(|o| o.on_wipeout(var, by));
    }
    fn on_violation(&mut self, var: VarId, value: i32, by: ConstraintId) {
        self.0
            .iter_mut()
            .for_each(|o| o.on_violation(var, value, by));
    }
    fn on_backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.0
            .iter_mut()
            .for_each(|o| o.on_backtrack(var, value, depth));
    }
    fn on_split(&mut self, atom: csp::Atom, depth: usize) {
        self.0.iter_mut().for_each(|o| o.on_split(atom, depth));
    }
    fn on_unsplit(&mut self, atom: csp::Atom, depth: usize) {
        self.0.iter_mut().for_each(|o| o.on_unsplit(atom, depth));
    }
    fn on_solution(&mut self, values: &[i32]) {
        self.0.iter_mut().for_each(|o| o.on_solution(values));
    }
    fn on_restart(&mut self, restarts: u64) {
        self.0.iter_mut().for_each(|o| o.on_restart(restarts));
    }
}
