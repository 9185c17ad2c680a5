//! Statistics on stderr, as aligned text or one JSON object, labelled partial when a run stopped
//! early.

use csp::{Limit, Outcome, Statistics, Summary};
use serde::Serialize;

/// What ran, for the header of the statistics.
#[derive(Debug, Serialize)]
pub struct RunInfo {
    pub problem: String,
    pub engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub var_order: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub val_order: Option<String>,
    /// Which walk a bitmask engine made, where it has two: `classes` (one board per symmetry
    /// class, about half the placements) or `plain` (every board).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walk: Option<&'static str>,
    /// The scale of the Luby restarts, where the search restarts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart_scale: Option<u64>,
}

impl RunInfo {
    /// A run of `engine` on `problem` that names no setting: one whose settings are the
    /// command's own (fzn, xcsp3), or an engine without any; a caller adds what it has.
    pub fn bare(problem: String, engine: &'static str) -> Self {
        Self {
            problem,
            engine,
            encoding: None,
            inference: None,
            var_order: None,
            val_order: None,
            walk: None,
            restart_scale: None,
        }
    }
}

#[derive(Serialize)]
struct StatsRecord<'a> {
    #[serde(flatten)]
    info: &'a RunInfo,
    outcome: &'static str,
    partial: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
    #[serde(flatten)]
    stats: &'a Statistics,
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Exhausted => "exhausted",
        Outcome::LimitReached(_) => "limit",
    }
}

/// The name of what stopped a run early: a limit, or the signal behind a cancel.
pub fn stopper(outcome: Outcome, signal: Option<&'static str>) -> Option<&'static str> {
    match outcome {
        Outcome::LimitReached(Limit::Nodes) => Some("the node limit"),
        Outcome::LimitReached(Limit::Time) => Some("the time limit"),
        Outcome::LimitReached(Limit::Cancelled) => Some(signal.unwrap_or("a cancel request")),
        _ => None,
    }
}

/// The statistics in the format asked for (`--stats` or `--stats=json`), ending in a newline,
/// or nothing when none was asked for.
pub fn render(
    format: Option<crate::args::StatsFormat>,
    info: &RunInfo,
    summary: &Summary,
    signal: Option<&'static str>,
) -> Option<String> {
    match format? {
        crate::args::StatsFormat::Json => Some(format!("{}\n", json(info, summary, signal))),
        crate::args::StatsFormat::Text => Some(text(info, summary, signal)),
    }
}

pub fn json(info: &RunInfo, summary: &Summary, signal: Option<&'static str>) -> String {
    let stopped_by = stopper(summary.outcome, signal);
    let record = StatsRecord {
        info,
        outcome: outcome_name(summary.outcome),
        partial: stopped_by.is_some(),
        stopped_by,
        stats: &summary.stats,
    };
    serde_json::to_string(&record).unwrap_or_default()
}

pub fn text(info: &RunInfo, summary: &Summary, signal: Option<&'static str>) -> String {
    let s = &summary.stats;
    let mut config = vec![format!("engine {}", info.engine)];
    for (label, value) in [
        ("encoding", &info.encoding),
        ("inference", &info.inference),
        ("var-order", &info.var_order),
        ("val-order", &info.val_order),
    ] {
        if let Some(v) = value {
            config.push(format!("{label} {v}"));
        }
    }
    if let Some(scale) = info.restart_scale {
        config.push(format!("restarts Luby x {scale}"));
    }
    match info.walk {
        Some("classes") => config.push("one board searched per symmetry class".to_owned()),
        Some(_) => config.push("every board searched".to_owned()),
        None => {}
    }
    let title = match stopper(summary.outcome, signal) {
        Some(by) => format!("partial statistics (stopped by {by})"),
        None => "statistics".to_owned(),
    };
    let rows = [
        ("outcome", outcome_name(summary.outcome).to_owned()),
        ("solutions", s.solutions.to_string()),
        ("nodes", s.nodes.to_string()),
        ("backtracks", s.backtracks.to_string()),
        ("checks", s.checks.to_string()),
        ("propagations", s.propagations.to_string()),
        ("pruned", s.pruned.to_string()),
        ("wipeouts", s.wipeouts.to_string()),
        ("max depth", s.max_depth.to_string()),
        ("restarts", s.restarts.to_string()),
        ("moves", s.moves.to_string()),
        ("learned", s.learned.to_string()),
        ("avg learned", average(s.learned_atoms, s.learned)),
        ("avg backjump", average(s.backjump_levels, s.learned)),
        ("time", format!("{:.6} s", s.elapsed.as_secs_f64())),
    ];
    let mut out = format!("{title} for {} ({}):\n", info.problem, config.join(", "));
    for (label, value) in rows {
        // Restarts, moves and learning are shown where there were some; most searches have
        // none of them.
        let learning = matches!(label, "learned" | "avg learned" | "avg backjump");
        if (label == "restarts" && s.restarts == 0)
            || (label == "moves" && s.moves == 0)
            || (learning && s.learned == 0)
        {
            continue;
        }
        out.push_str(&format!("  {label:<13}{value:>16}\n"));
    }
    out
}

/// `total / count` to two decimals (atoms per nogood, levels per backjump).
fn average(total: u64, count: u64) -> String {
    if count == 0 {
        return "-".to_owned();
    }
    format!("{:.2}", total as f64 / count as f64)
}
