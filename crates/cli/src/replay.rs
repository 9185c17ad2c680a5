//! The replay page: one self-contained HTML file (script and styles inline, nothing fetched)
//! that steps through recorded searches, one panel per configuration.

use crate::compare::Config;
use crate::events::{EventLog, Header, Recorder};
use crate::search_options::SearchSettings;
use csp::{Limits, Model, Statistics};
use nqueens::{Encoding, QueensModel};
use serde::Serialize;
use serde_json::json;
use std::path::Path;

/// The most events a page keeps per search; a longer search is cut, and the page says so.
pub const MAX_REPLAY_EVENTS: usize = 100_000;

const TEMPLATE: &str = include_str!("../assets/replay.html");

/// How the page draws the variables.
#[derive(Copy, Clone, Debug)]
pub enum Board {
    /// Rows as variables, columns as values.
    Queens,
    /// Cells of a square grid, row by row.
    Sudoku(usize),
    /// A list of variables with their domains.
    Generic,
}

#[derive(Serialize)]
struct Trace {
    header: Header,
    board: serde_json::Value,
    events: Vec<crate::events::Event>,
    truncated: bool,
    summary: Statistics,
}

/// Runs one search with a recorder attached.
fn record(
    model: &Model,
    board: Board,
    problem: &str,
    name: &str,
    search: &SearchSettings,
    limits: &Limits,
    max_solutions: Option<u64>,
) -> Trace {
    let mut log = Recorder(EventLog {
        limit: MAX_REPLAY_EVENTS,
        ..EventLog::default()
    });
    let summary = search
        .solver(model)
        .max_solutions(max_solutions)
        .limits(limits.clone())
        .solve_observed(&mut log, |_| std::ops::ControlFlow::Continue(()));
    let kind = match board {
        Board::Queens => json!({ "kind": "queens" }),
        Board::Sudoku(cells) => json!({ "kind": "sudoku", "cells": cells }),
        Board::Generic => json!({ "kind": "generic" }),
    };
    Trace {
        header: Header::new(model, problem, name),
        board: kind,
        events: log.0.events,
        truncated: log.0.truncated,
        summary: summary.stats,
    }
}

fn write_page(
    path: &Path,
    title: &str,
    subtitle: &str,
    traces: &[Trace],
) -> Result<String, String> {
    let data = json!({ "title": title, "subtitle": subtitle, "traces": traces });
    // Inside <script>, "</" could close the element early; "<\/" means the same in JSON.
    let data = data.to_string().replace("</", "<\\/");
    let page = TEMPLATE.replacen("/*DATA*/", &data, 1);
    std::fs::write(path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let cut = if traces.iter().any(|t| t.truncated) {
        format!(" (cut at {MAX_REPLAY_EVENTS} steps)")
    } else {
        String::new()
    };
    Ok(format!(
        "csp: wrote the replay page {}{cut}",
        path.display()
    ))
}

/// The replay of one search (`csp queens N --html`, `csp sudoku --html`).
#[allow(clippy::too_many_arguments)]
pub fn single(
    path: &Path,
    model: &Model,
    board: Board,
    problem: &str,
    search: &SearchSettings,
    limits: &Limits,
    max_solutions: Option<u64>,
) -> Result<String, String> {
    let name = search.describe();
    let trace = record(model, board, problem, &name, search, limits, max_solutions);
    write_page(
        path,
        &format!("{problem}: the search step by step"),
        &name,
        &[trace],
    )
}

/// The first two configurations of a comparison, side by side, each to its first solution.
pub fn compare_model(
    path: &Path,
    model: &Model,
    board: Board,
    problem: &str,
    configs: &[Config],
    limits: &Limits,
) -> Result<String, String> {
    let traces: Vec<Trace> = configs
        .iter()
        .take(2)
        .map(|c| record(model, board, problem, &c.name, &c.search, limits, Some(1)))
        .collect();
    let names: Vec<&str> = configs.iter().take(2).map(|c| c.name.as_str()).collect();
    write_page(
        path,
        &format!("{problem}: {} side by side", names.join(" and ")),
        "Each panel searches for the first solution; the slider moves both.",
        &traces,
    )
}

/// `compare queens N --html`.
pub fn compare_queens(
    path: &Path,
    n: usize,
    encoding: Encoding,
    configs: &[Config],
    limits: &Limits,
) -> Result<String, String> {
    let queens = QueensModel::new(n, encoding).map_err(|e| e.to_string())?;
    compare_model(
        path,
        &queens.model,
        Board::Queens,
        &format!("{n}-queens"),
        configs,
        limits,
    )
}
