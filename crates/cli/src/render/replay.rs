//! The replay page: one self-contained HTML file (script and styles inline, nothing fetched)
//! that steps through recorded searches, one panel per configuration.

use crate::events::{EventLog, Header, Recorder};
use csp::{Model, Statistics, Summary};
use serde::Serialize;
use serde_json::json;
use std::path::Path;

/// The most events a page keeps per search; a longer search is cut, and the page says so.
pub const MAX_REPLAY_EVENTS: usize = 100_000;

const TEMPLATE: &str = include_str!("../../assets/replay.html");

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

/// One recorded search, as the page shows it.
#[derive(Serialize)]
pub struct Trace {
    header: Header,
    board: serde_json::Value,
    events: Vec<crate::events::Event>,
    truncated: bool,
    summary: Statistics,
    /// What stopped the search before its end, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<String>,
}

/// The observer that records a search for the page: the first [`MAX_REPLAY_EVENTS`] events.
pub fn recorder() -> Recorder<EventLog> {
    Recorder(EventLog {
        limit: MAX_REPLAY_EVENTS,
        ..EventLog::default()
    })
}

impl Trace {
    /// The page's record of a search that `log` observed and that ended with `summary`;
    /// `stopped_by` names what stopped it early.
    pub fn new(
        model: &Model,
        board: Board,
        problem: &str,
        config: &str,
        log: Recorder<EventLog>,
        summary: &Summary,
        stopped_by: Option<&str>,
    ) -> Self {
        let kind = match board {
            Board::Queens => json!({ "kind": "queens" }),
            Board::Sudoku(cells) => json!({ "kind": "sudoku", "cells": cells }),
            Board::Generic => json!({ "kind": "generic" }),
        };
        Trace {
            header: Header::new(model, problem, config),
            board: kind,
            events: log.0.events,
            truncated: log.0.truncated,
            summary: summary.stats.clone(),
            stopped_by: stopped_by.map(str::to_owned),
        }
    }
}

/// Writes the page with `traces`, or says why it wrote none: a page of searches that were all
/// stopped before their first step would show nothing. Returns the line to print either way.
pub fn write_page(
    path: &Path,
    title: &str,
    subtitle: &str,
    traces: &[Trace],
) -> Result<String, String> {
    let stopped = traces.iter().find_map(|t| t.stopped_by.as_deref());
    if let Some(by) = stopped.filter(|_| traces.iter().all(|t| t.events.is_empty())) {
        return Ok(format!(
            "csp: wrote no replay page: {by} stopped the search before its first step"
        ));
    }
    let data = json!({ "title": title, "subtitle": subtitle, "traces": traces });
    // Inside <script>, "</" could close the element early; "<\/" means the same in JSON.
    let data = data.to_string().replace("</", "<\\/");
    let page = TEMPLATE.replacen("/*DATA*/", &data, 1);
    std::fs::write(path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let steps: usize = traces.iter().map(|t| t.events.len()).sum();
    let cut = traces.iter().any(|t| t.truncated);
    let path = path.display();
    Ok(match (stopped, cut) {
        (None, false) => format!("csp: wrote the replay page {path} ({steps} steps)"),
        (None, true) => format!(
            "csp: wrote the replay page {path} (the first {MAX_REPLAY_EVENTS} steps of each \
             longer search)"
        ),
        (Some(by), false) => format!(
            "csp: wrote the partial replay page {path} (the {steps} steps before {by} stopped \
             the search)"
        ),
        (Some(by), true) => format!(
            "csp: wrote the partial replay page {path} (the first {MAX_REPLAY_EVENTS} steps of \
             each longer search; {by} stopped it later)"
        ),
    })
}
