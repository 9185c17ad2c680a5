//! `NamedTrace`: the search step by step in words, in the model's own names (a sudoku's cells
//! are r1c1 to r9c9), for problems without a board of their own to draw.

use super::trace_text::{atom_text, grouped, indent, TraceText};
use crate::output::Output;
use csp::{Atom, ConstraintId, Inference, Model, Observer, VarId};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Prints each event of a search as it happens, indented by depth.
pub struct NamedTrace<'a> {
    sink: TraceText<'a>,
    model: &'a Model,
    inference: Inference,
    /// Values filtering removed since the last assignment, not printed yet.
    pending: Vec<(VarId, i32)>,
    /// The variable just assigned, until we know whether it stands.
    trying: Option<(VarId, i32)>,
    /// The last attempt failed; its backtrack goes without saying.
    last_failed: bool,
    depth: usize,
    solutions: u64,
}

impl<'a> NamedTrace<'a> {
    pub fn new(
        out: &'a RefCell<Output>,
        cancel: Arc<AtomicBool>,
        model: &'a Model,
        inference: Inference,
    ) -> Self {
        NamedTrace {
            sink: TraceText::new(out, cancel),
            model,
            inference,
            pending: Vec::new(),
            trying: None,
            last_failed: false,
            depth: 0,
            solutions: 0,
        }
    }

    /// Writes the header: what is traced and how to read it.
    pub fn header(&mut self, problem: &str, description: &str) {
        let what = match self.inference {
            Inference::None => "plain backtracking rules nothing out in advance",
            Inference::ForwardChecking => "'rules out' lists what forward checking removed",
            Inference::Mac => "'rules out' lists what arc consistency removed",
            Inference::Lcg => {
                "'rules out' lists what arc consistency and the nogoods learned removed"
            }
        };
        let _ = writeln!(
            self.sink.text,
            "Tracing {problem}: {description}.\nCells are named by row and column from 1 (r1c1 \
             is the top left); {what}.\n"
        );
        self.sink.emit();
    }

    fn name(&self, var: VarId) -> String {
        name(self.model, var)
    }

    fn indent(&self) -> String {
        indent(self.depth)
    }

    /// Prints the values ruled out since the last assignment, grouped by variable, leaving
    /// out the variable being tried (a value taken from it is the sign of a clash, which the
    /// failure line explains).
    fn flush_pending(&mut self) {
        if let Some((tried, _)) = self.trying {
            self.pending.retain(|&(var, _)| var != tried);
        }
        if self.pending.is_empty() {
            return;
        }
        let model = self.model;
        let groups = grouped(&mut self.pending, |var| name(model, var), |value| value);
        let _ = writeln!(self.sink.text, "{}  rules out: {groups}", self.indent());
        self.pending.clear();
    }

    fn confirm_trying(&mut self) {
        if self.trying.take().is_some() {
            self.flush_pending();
        }
    }
}

impl Observer for NamedTrace<'_> {
    fn on_assign(&mut self, var: VarId, value: i32, depth: usize) {
        self.confirm_trying();
        self.depth = depth;
        self.trying = Some((var, value));
        let _ = writeln!(
            self.sink.text,
            "{}{} = {value}?",
            self.indent(),
            self.name(var)
        );
        self.sink.emit();
    }

    fn on_prune(&mut self, var: VarId, value: i32, _by: ConstraintId) {
        self.pending.push((var, value));
    }

    fn on_wipeout(&mut self, var: VarId, by: ConstraintId) {
        let tried = self.trying;
        self.flush_pending();
        self.trying = None;
        self.last_failed = true;
        let name = self.model.constraint_name(by);
        let line = match tried {
            Some((t, value)) if t == var => format!(
                "fail: {} = {value} clashes in {name} with a cell that filtering left only {value}",
                self.name(var)
            ),
            _ => format!("fail: {} has no value left ({name})", self.name(var)),
        };
        let _ = writeln!(self.sink.text, "{}  {line}", self.indent());
        self.sink.emit();
    }

    fn on_violation(&mut self, var: VarId, value: i32, by: ConstraintId) {
        self.trying = None;
        self.pending.clear();
        self.last_failed = true;
        let _ = writeln!(
            self.sink.text,
            "{}  rejected: {} = {value} breaks {}",
            self.indent(),
            self.name(var),
            self.model.constraint_name(by)
        );
        self.sink.emit();
    }

    fn on_backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let failed = std::mem::replace(&mut self.last_failed, false);
        self.confirm_trying();
        self.depth = depth;
        self.pending.clear();
        if !failed {
            let _ = writeln!(
                self.sink.text,
                "{}back: take {} = {value} back",
                self.indent(),
                self.name(var)
            );
        }
        self.sink.emit();
    }

    fn on_nogood(&mut self, nogood: &[Atom], backjump: usize) {
        let model = self.model;
        let clause: Vec<String> = nogood
            .iter()
            .map(|atom| atom_text(atom.negated(), |var| name(model, var)))
            .collect();
        let _ = writeln!(
            self.sink.text,
            "{}  learned: {} (back to depth {backjump})",
            self.indent(),
            clause.join(" or ")
        );
        self.sink.emit();
    }

    fn on_restart(&mut self, restarts: u64) {
        let _ = writeln!(
            self.sink.text,
            "restart {restarts}: every assignment taken back; the search starts again\n"
        );
        self.sink.emit();
    }

    fn on_solution(&mut self, _values: &[i32]) {
        self.confirm_trying();
        self.solutions += 1;
        let _ = writeln!(self.sink.text, "solution {}\n", self.solutions);
        self.sink.emit();
    }
}

/// The model's name of `var`, or its number.
fn name(model: &Model, var: VarId) -> String {
    model
        .var_name(var)
        .map_or_else(|| var.to_string(), |name| name.into_owned())
}
