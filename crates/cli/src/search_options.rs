//! The search options every command shares, as the policy's plain options and limits: the
//! policy (`csp_policy`) decides and words every refusal; this file only reads clap's values.

use crate::args::SearchArgs;
use csp::Limits;
use csp_policy::SearchOptions;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

impl SearchArgs {
    /// The search options given, as the policy takes them.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            inference: self.inference,
            var_order: self.var_order,
            val_order: self.val_order,
            seed: self.seed,
            restarts: self.restarts,
        }
    }
}

/// The limits asked for, with the signal flag as the cancel flag and the time limit counted
/// from `since` (`None`: from the start of each search).
pub fn limits(
    args: &SearchArgs,
    cancel: &Arc<AtomicBool>,
    since: Option<Instant>,
) -> Result<Limits, String> {
    limits_from(
        args.time_limit.as_deref(),
        args.node_limit,
        None,
        cancel,
        since,
    )
}

/// `--time-limit SECS` (or `none`; `default_time` when not given) and `--node-limit K` as
/// [`Limits`], through the policy's parsing and checks.
pub fn limits_from(
    time_limit: Option<&str>,
    node_limit: Option<u64>,
    default_time: Option<Duration>,
    cancel: &Arc<AtomicBool>,
    since: Option<Instant>,
) -> Result<Limits, String> {
    let time = match time_limit {
        None => default_time,
        Some(text) => csp_policy::time_limit_text(text).map_err(|e| e.to_string())?,
    };
    csp_policy::limits(time, node_limit, cancel, since).map_err(|e| e.to_string())
}
