//! The comparison table in its four formats: aligned text, Markdown, CSV and JSON.

use serde_json::json;
use std::fmt::Write as _;
use std::time::Duration;

/// One run's figures. A row whose run never started (a signal stopped the comparison before
/// it) has outcome [`NOT_RUN`] and shows no figures.
#[derive(Clone, Debug)]
pub struct Row {
    /// The board size for queens, `None` otherwise.
    pub n: Option<usize>,
    pub config: String,
    /// `solved`, `exhausted`, `limit` (its limit stopped it), `stopped` (a signal stopped it;
    /// the figures are what it had done) or [`NOT_RUN`].
    pub outcome: &'static str,
    /// Under an objective, its value in the best solution the run found.
    pub objective: Option<i64>,
    pub solutions: u64,
    pub nodes: u64,
    pub backtracks: u64,
    pub checks: u64,
    pub pruned: u64,
    pub time: Duration,
    /// Nogoods learned, their atoms in all, and the decision levels jumped back in all
    /// (`lcg` only; 0 otherwise).
    pub learned: u64,
    pub learned_atoms: u64,
    pub backjump_levels: u64,
}

/// The outcome of a row whose run never started.
pub const NOT_RUN: &str = "not run";

impl Row {
    /// A row for a configuration that a signal kept from running.
    pub fn not_run(n: Option<usize>, config: &str) -> Row {
        Row {
            n,
            config: config.to_owned(),
            outcome: NOT_RUN,
            objective: None,
            solutions: 0,
            nodes: 0,
            backtracks: 0,
            checks: 0,
            pruned: 0,
            time: Duration::ZERO,
            learned: 0,
            learned_atoms: 0,
            backjump_levels: 0,
        }
    }

    /// Atoms per learned nogood, and levels per backjump, when it learned any.
    fn learning(&self) -> Option<(f64, f64)> {
        (self.learned > 0).then(|| {
            let n = self.learned as f64;
            (
                self.learned_atoms as f64 / n,
                self.backjump_levels as f64 / n,
            )
        })
    }

    fn ran(&self) -> bool {
        self.outcome != NOT_RUN
    }

    fn time_ms(&self) -> f64 {
        self.time.as_secs_f64() * 1000.0
    }

    fn figures(&self) -> [f64; 5] {
        [
            self.nodes as f64,
            self.backtracks as f64,
            self.checks as f64,
            self.pruned as f64,
            self.time_ms(),
        ]
    }
}

/// Each figure of `row` divided by the same figure of `base` (the first configuration).
fn ratios(row: &Row, base: &Row) -> [Option<f64>; 5] {
    let (a, b) = (row.figures(), base.figures());
    let both = row.ran() && base.ran();
    std::array::from_fn(|i| (both && b[i] > 0.0).then(|| a[i] / b[i]))
}

/// A ratio with two significant digits at least, so that a small one never reads as `0.00x`:
/// `0.0041x` is written `4.1e-3x`.
fn ratio_text(r: Option<f64>) -> String {
    match r {
        Some(0.0) => "0x".to_owned(),
        Some(r) if r >= 100.0 => format!("{r:.0}x"),
        Some(r) if r >= 10.0 => format!("{r:.1}x"),
        Some(r) if r >= 0.1 => format!("{r:.2}x"),
        Some(r) if r >= 0.01 => format!("{r:.3}x"),
        Some(r) => format!("{r:.1e}x"),
        None => "-".to_owned(),
    }
}

/// The first row of each board size (or the first row of all), which ratios are taken to.
fn base_of<'a>(rows: &'a [Row], row: &'a Row) -> &'a Row {
    rows.iter().find(|r| r.n == row.n).unwrap_or(row)
}

const HEADERS: [&str; 5] = ["nodes", "backtracks", "checks", "pruned", "time"];

/// The columns of learning, shown when some row learned.
const LEARNING_HEADERS: [&str; 3] = ["learned", "avg length", "avg jump"];

fn cells(rows: &[Row], with_n: bool) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = Vec::new();
    if with_n {
        header.push("n".to_owned());
    }
    header.extend(["configuration", "outcome", "solutions"].map(str::to_owned));
    // The best objective value of each run, when the model has an objective.
    let objective = rows.iter().any(|r| r.objective.is_some());
    if objective {
        header.push("objective".to_owned());
    }
    for h in HEADERS {
        header.push(h.to_owned());
        header.push("ratio".to_owned());
    }
    let learning = rows.iter().any(|r| r.learned > 0);
    if learning {
        header.extend(LEARNING_HEADERS.map(str::to_owned));
    }
    let body = rows
        .iter()
        .map(|row| {
            let mut cells = Vec::new();
            if with_n {
                cells.push(row.n.map(|n| n.to_string()).unwrap_or_default());
            }
            cells.push(row.config.clone());
            cells.push(row.outcome.to_owned());
            if !row.ran() {
                let learning_cells = if learning { LEARNING_HEADERS.len() } else { 0 };
                cells.extend(std::iter::repeat_n(
                    "-".to_owned(),
                    1 + usize::from(objective) + 2 * HEADERS.len() + learning_cells,
                ));
                return cells;
            }
            cells.push(row.solutions.to_string());
            if objective {
                cells.push(row.objective.map_or("-".to_owned(), |v| v.to_string()));
            }
            let r = ratios(row, base_of(rows, row));
            let values = [
                row.nodes.to_string(),
                row.backtracks.to_string(),
                row.checks.to_string(),
                row.pruned.to_string(),
                format!("{:.3} ms", row.time_ms()),
            ];
            for (value, ratio) in values.into_iter().zip(r) {
                cells.push(value);
                cells.push(ratio_text(ratio));
            }
            if learning {
                match row.learning() {
                    Some((length, jump)) => cells.extend([
                        row.learned.to_string(),
                        format!("{length:.1}"),
                        format!("{jump:.2}"),
                    ]),
                    None => cells.extend(std::iter::repeat_n("-".to_owned(), 3)),
                }
            }
            cells
        })
        .collect();
    (header, body)
}

/// Aligned columns: text left, numbers right.
pub fn text(rows: &[Row], title: &str, with_n: bool) -> String {
    let (header, body) = cells(rows, with_n);
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for line in &body {
        for (w, c) in widths.iter_mut().zip(line) {
            *w = (*w).max(c.chars().count());
        }
    }
    // The configuration and outcome columns are words, aligned left; the rest are numbers.
    let words = if with_n { 1..3 } else { 0..2 };
    let mut out = format!("{title}\n");
    let mut push = |line: &[String]| {
        let mut text = String::new();
        for (i, (cell, w)) in line.iter().zip(&widths).enumerate() {
            if i > 0 {
                text.push_str("  ");
            }
            if words.contains(&i) {
                let _ = write!(text, "{cell:<w$}");
            } else {
                let _ = write!(text, "{cell:>w$}");
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    push(&header);
    for line in &body {
        push(line);
    }
    out
}

pub fn markdown(rows: &[Row], title: &str, with_n: bool) -> String {
    let (header, body) = cells(rows, with_n);
    let mut out = format!("{title}\n\n| {} |\n|", header.join(" | "));
    let words = if with_n { 1..3 } else { 0..2 };
    for (i, _) in header.iter().enumerate() {
        out.push_str(if words.contains(&i) { "---|" } else { "---:|" });
    }
    out.push('\n');
    for line in body {
        out.push_str(&format!("| {} |\n", line.join(" | ")));
    }
    out
}

/// CSV with the documented header; no ratio columns. `objective` is the best value a run
/// found under an objective, empty otherwise.
pub fn csv(rows: &[Row]) -> String {
    let mut out =
        String::from("n,config,outcome,solutions,nodes,backtracks,checks,pruned,time_ms,learned,learned_atoms,backjump_levels,objective\n");
    for row in rows {
        if !row.ran() {
            let n = row.n.map(|n| n.to_string()).unwrap_or_default();
            let _ = writeln!(out, "{n},{},{},,,,,,,,,,", row.config, row.outcome);
            continue;
        }
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{:.3},{},{},{},{}",
            row.n.map(|n| n.to_string()).unwrap_or_default(),
            row.config,
            row.outcome,
            row.solutions,
            row.nodes,
            row.backtracks,
            row.checks,
            row.pruned,
            row.time_ms(),
            row.learned,
            row.learned_atoms,
            row.backjump_levels,
            row.objective.map(|v| v.to_string()).unwrap_or_default()
        );
    }
    out
}

pub fn json(rows: &[Row]) -> String {
    let list: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            if !row.ran() {
                return json!({ "n": row.n, "config": row.config, "outcome": row.outcome });
            }
            let r = ratios(row, base_of(rows, row));
            json!({
                "n": row.n,
                "config": row.config,
                "outcome": row.outcome,
                "solutions": row.solutions,
                "nodes": row.nodes,
                "backtracks": row.backtracks,
                "checks": row.checks,
                "pruned": row.pruned,
                "time_ms": row.time_ms(),
                "learned": row.learned,
                "learned_atoms": row.learned_atoms,
                "backjump_levels": row.backjump_levels,
                "objective": row.objective,
                "relative": {
                    "nodes": r[0], "backtracks": r[1], "checks": r[2], "pruned": r[3], "time": r[4]
                }
            })
        })
        .collect();
    format!("{}\n", serde_json::Value::Array(list))
}

#[cfg(test)]
#[path = "../tests/table.rs"]
mod tests;
