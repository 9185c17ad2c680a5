//! `QueensTrace`: the search step by step, in words and boards, for someone learning
//! backtracking.

use super::trace_text::{atom_text, grouped, indent, TraceText};
use crate::output::Output;
use csp::{Atom, ConstraintId, Inference, Model, Observer, VarId};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The largest board a trace draws.
pub const MAX_TRACE_N: usize = 64;

/// Prints each event of a queens search as it happens. Rows and columns count from 1.
pub struct QueensTrace<'a> {
    sink: TraceText<'a>,
    model: &'a Model,
    inference: Inference,
    n: usize,
    /// The queen's column in each row, once placed.
    placed: Vec<Option<usize>>,
    /// `ruled_out[row * n + column]`: filtering removed that square.
    ruled_out: Vec<bool>,
    /// The squares ruled out at each depth, to put back on backtrack.
    levels: Vec<Vec<(usize, usize)>>,
    /// Squares ruled out since the last assignment, not printed yet.
    pending: Vec<(usize, usize)>,
    /// Removals made because of a queen that propagation (not the search) fixed: the row and
    /// column removed, the constraint's name, and the row of the queen.
    because: Vec<(usize, usize, String, usize)>,
    /// The row and column just tried, until we know whether it stands.
    trying: Option<(usize, usize)>,
    /// The last attempt failed; its backtrack goes without saying.
    last_failed: bool,
    solutions: u64,
}

impl<'a> QueensTrace<'a> {
    pub fn new(
        out: &'a RefCell<Output>,
        cancel: Arc<AtomicBool>,
        model: &'a Model,
        inference: Inference,
        n: usize,
    ) -> Self {
        QueensTrace {
            sink: TraceText::new(out, cancel),
            model,
            inference,
            n,
            placed: vec![None; n],
            ruled_out: vec![false; n * n],
            levels: vec![Vec::new()],
            pending: Vec::new(),
            because: Vec::new(),
            trying: None,
            last_failed: false,
            solutions: 0,
        }
    }

    /// Writes the header that explains the notation.
    pub fn header(&mut self, description: &str) {
        let boards = match self.inference {
            Inference::None => {
                "On the boards, Q is a queen and . an empty square: plain backtracking rules \
                 nothing out in advance, it rejects a queen only once it is placed."
            }
            Inference::ForwardChecking => {
                "On the boards, Q is a queen, . a free square and x a square that forward \
                 checking ruled out."
            }
            Inference::Mac => {
                "On the boards, Q is a queen, . a free square and x a square that arc \
                 consistency ruled out."
            }
            Inference::Lcg => {
                "On the boards, Q is a queen, . a free square and x a square that arc \
                 consistency or a learned nogood ruled out."
            }
        };
        let _ = writeln!(
            self.sink.text,
            "Tracing {n}-queens: {description}.\nRows and columns count from 1. {boards}\n",
            n = self.n,
        );
        self.sink.emit();
    }

    fn indent(&self, depth: usize) -> String {
        indent(depth)
    }

    /// Prints the squares ruled out since the last assignment, grouped by row.
    fn flush_pending(&mut self, depth: usize) {
        // The row being tried holds its queen; a value filtering takes from it is the sign of
        // a clash, which the failure line explains, not a square ruled out.
        if let Some((tried, _)) = self.trying {
            self.pending.retain(|&(row, _)| row != tried);
            self.because.retain(|&(row, ..)| row != tried);
        }
        if self.pending.is_empty() {
            return;
        }
        let groups = grouped(
            &mut self.pending,
            |row| format!("row {}", row + 1),
            |column| column + 1,
        );
        let who = match self.inference {
            Inference::Mac => "arc consistency",
            Inference::Lcg => "propagation",
            _ => "forward checking",
        };
        let _ = writeln!(
            self.sink.text,
            "{}  {who} rules out (row -> columns): {groups}",
            self.indent(depth),
        );
        self.pending.clear();
        // The chain of reasons beyond the tried queen: a row that filtering left one column
        // rules squares out in turn.
        for (row, column, line, other) in std::mem::take(&mut self.because) {
            let _ = writeln!(
                self.sink.text,
                "{}    row {} lost column {} because of the {line} with row {}",
                self.indent(depth),
                row + 1,
                column + 1,
                other + 1
            );
        }
    }

    /// The attempt in progress stood: say so and draw the board.
    fn confirm_trying(&mut self) {
        let depth = self.depth();
        if self.trying.take().is_some() {
            self.flush_pending(depth);
            let _ = writeln!(self.sink.text, "{}  placed.", self.indent(depth));
            self.draw_board(depth);
        }
    }

    fn depth(&self) -> usize {
        self.placed.iter().filter(|p| p.is_some()).count()
    }

    fn draw_board(&mut self, depth: usize) {
        let pad = self.indent(depth);
        for row in 0..self.n {
            let _ = write!(self.sink.text, "{pad}    ");
            for column in 0..self.n {
                let glyph = if self.placed[row] == Some(column) {
                    'Q'
                } else if self.placed[row].is_none() && self.ruled_out[row * self.n + column] {
                    'x'
                } else {
                    '.'
                };
                self.sink.text.push(glyph);
            }
            self.sink.text.push('\n');
        }
    }

    /// A row without a queen that filtering left one column, which the queen tried at `row,
    /// column` attacks: (that row, its column, the line they share).
    fn forced_clash(&self, row: usize, column: usize) -> Option<(usize, usize, &'static str)> {
        (0..self.n)
            .filter(|&other| other != row && self.placed[other].is_none())
            .find_map(|other| {
                let mut left = (0..self.n).filter(|&c| !self.ruled_out[other * self.n + c]);
                let only = left.next()?;
                if left.next().is_some() {
                    return None;
                }
                let gap = row.abs_diff(other);
                let along = if only == column {
                    "column"
                } else if only.abs_diff(column) == gap {
                    let falling = (other < row) == (only < column);
                    if falling {
                        "diagonal"
                    } else {
                        "anti-diagonal"
                    }
                } else {
                    return None;
                };
                Some((other, only, along))
            })
    }

    /// Which placed queen attacks `row, column`, and along which line; one on `line` first.
    fn attacker(&self, row: usize, column: usize, line: &str) -> Option<(usize, &'static str)> {
        let attacks = self.placed.iter().enumerate().filter_map(|(other, &c)| {
            let c = c?;
            if other == row {
                return None;
            }
            let gap = row.abs_diff(other);
            if c == column {
                Some((other, "column"))
            } else if c.abs_diff(column) == gap {
                let falling = (other < row) == (c < column);
                Some((other, if falling { "diagonal" } else { "anti-diagonal" }))
            } else {
                None
            }
        });
        let mut first = None;
        for (other, along) in attacks {
            if along == line {
                return Some((other, along));
            }
            first = first.or(Some((other, along)));
        }
        first
    }
}

impl Observer for QueensTrace<'_> {
    fn on_assign(&mut self, var: VarId, value: i32, depth: usize) {
        self.confirm_trying();
        let (row, column) = (var.index(), value as usize);
        self.placed[row] = Some(column);
        self.levels.push(Vec::new());
        self.trying = Some((row, column));
        let _ = writeln!(
            self.sink.text,
            "{}row {}: try column {}",
            self.indent(depth),
            row + 1,
            column + 1
        );
        self.sink.emit();
    }

    fn on_prune(&mut self, var: VarId, value: i32, _by: ConstraintId) {
        let (row, column) = (var.index(), value as usize);
        if let Some(square) = self.ruled_out.get_mut(row * self.n + column) {
            *square = true;
        }
        if let Some(level) = self.levels.last_mut() {
            level.push((row, column));
        }
        self.pending.push((row, column));
    }

    fn on_reason(&mut self, var: VarId, value: i32, by: ConstraintId, reason: &[Atom]) {
        // Only a removal caused by a queen other than the one being tried is worth a line:
        // the tried queen's own removals are the grouped line itself.
        let [Atom::Eq(other, _)] = reason else { return };
        if self.trying.is_some_and(|(tried, _)| tried == other.index()) {
            return;
        }
        let line = self.model.constraint_name(by);
        self.because
            .push((var.index(), value as usize, line, other.index()));
    }

    fn on_wipeout(&mut self, var: VarId, by: ConstraintId) {
        let depth = self.depth();
        let tried = self.trying;
        self.flush_pending(depth);
        self.trying = None;
        self.last_failed = true;
        let name = self.model.constraint_name(by);
        let line = match tried {
            // Filtering took the tried queen's own square: a row it had forced to one column
            // clashes with that queen. Say which, as a player would see it.
            Some((row, column)) if row == var.index() => match self.forced_clash(row, column) {
                Some((other, left, along)) => format!(
                    "fail: row {} is left only column {}, and the queen in row {} shares its \
                     {along}",
                    other + 1,
                    left + 1,
                    row + 1
                ),
                None => format!("fail: the rows left cannot all be filled ({name})"),
            },
            _ => format!(
                "fail: row {} has no column left (emptied by {name})",
                var.index() + 1
            ),
        };
        let _ = writeln!(self.sink.text, "{}  {line}.", self.indent(depth));
        self.sink.emit();
    }

    fn on_violation(&mut self, var: VarId, value: i32, by: ConstraintId) {
        let depth = self.depth();
        self.trying = None;
        self.last_failed = true;
        let (row, column) = (var.index(), value as usize);
        let name = self.model.constraint_name(by);
        let line = name.split_whitespace().next().unwrap_or_default();
        let reason = match self.attacker(row, column, line) {
            Some((other, line)) => format!("the queen in row {} shares its {line}", other + 1),
            None => "a constraint is broken".to_owned(),
        };
        let _ = writeln!(
            self.sink.text,
            "{}  rejected: {reason} [{name}].",
            self.indent(depth),
        );
        self.sink.emit();
    }

    fn on_backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let failed = std::mem::replace(&mut self.last_failed, false);
        self.confirm_trying();
        let row = var.index();
        self.placed[row] = None;
        if let Some(level) = self.levels.pop() {
            for (r, c) in level {
                self.ruled_out[r * self.n + c] = false;
            }
        }
        self.pending.clear();
        if !failed {
            let _ = writeln!(
                self.sink.text,
                "{}row {}: backtrack, take the queen off column {}",
                self.indent(depth),
                row + 1,
                value + 1
            );
        }
        self.sink.emit();
    }

    fn on_nogood(&mut self, nogood: &[Atom], backjump: usize) {
        let depth = self.depth();
        // Rows and columns count from 1 on the board.
        let clause: Vec<String> = nogood
            .iter()
            .map(|atom| {
                let shown = match atom.negated() {
                    Atom::Eq(x, v) => Atom::Eq(x, v + 1),
                    Atom::Ne(x, v) => Atom::Ne(x, v + 1),
                    Atom::Le(x, v) => Atom::Le(x, v + 1),
                    Atom::Ge(x, v) => Atom::Ge(x, v + 1),
                };
                atom_text(shown, |var| format!("row {}", var.index() + 1))
            })
            .collect();
        let _ = writeln!(
            self.sink.text,
            "{}  learned: {} (back to depth {backjump})",
            self.indent(depth),
            clause.join(" or ")
        );
        self.sink.emit();
    }

    fn on_restart(&mut self, restarts: u64) {
        let _ = writeln!(
            self.sink.text,
            "restart {restarts}: every queen taken back; the search starts again at the top\n"
        );
        self.sink.emit();
    }

    fn on_solution(&mut self, values: &[i32]) {
        self.confirm_trying();
        self.solutions += 1;
        let columns: Vec<String> = values.iter().map(|v| (v + 1).to_string()).collect();
        let _ = writeln!(
            self.sink.text,
            "solution {}: columns {}\n",
            self.solutions,
            columns.join(" ")
        );
        self.sink.emit();
    }
}
