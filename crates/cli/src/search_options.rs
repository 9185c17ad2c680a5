//! The search options every command shares, checked and turned into engine settings.

use crate::args::SearchArgs;
use csp::{Inference, Limits, Solver, ValueOrder, VarOrder};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Inference and heuristics for the csp engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    pub inference: Inference,
    pub var_order: VarOrder,
    pub value_order: ValueOrder,
    /// The scale of Luby restarts.
    pub restarts: Option<u64>,
}

impl SearchSettings {
    /// The settings asked for, each option not given taken from `defaults`. `--seed` seeds
    /// random values, asked for or the default's, and is refused unless it seeds something:
    /// those or, where `seed_used_elsewhere`, the command's own randomness (colour's TabuCol).
    pub fn from_args(
        args: &SearchArgs,
        defaults: SearchSettings,
        seed_used_elsewhere: bool,
    ) -> Result<Self, String> {
        let random_default =
            args.val_order.is_none() && matches!(defaults.value_order, ValueOrder::Random { .. });
        if args.seed.is_some()
            && !matches!(args.val_order, Some(ValueOrder::Random { .. }))
            && !random_default
            && !seed_used_elsewhere
        {
            return Err("--seed applies to --val-order random only".into());
        }
        let seed = args.seed.unwrap_or(ValueOrder::DEFAULT_SEED);
        let settings = SearchSettings {
            inference: args.inference.unwrap_or(defaults.inference),
            var_order: args.var_order.unwrap_or(defaults.var_order),
            value_order: match args.val_order {
                Some(order) => order.seeded(seed),
                None if random_default => ValueOrder::Random { seed },
                None => defaults.value_order,
            },
            restarts: args.restarts.or(defaults.restarts),
        };
        // A heuristic the chosen search would not follow is refused, not ignored.
        if args.var_order.is_some() && !settings.inference.follows_var_order() {
            return Err(format!(
                "--var-order does not apply to --inference {}, which branches on the \
                 variables most active in recent conflicts",
                settings.inference
            ));
        }
        if let Some(order) = args.val_order {
            if !settings.inference.follows_value_order(settings.value_order) {
                return Err(format!(
                    "--val-order {} does not apply to --inference {}, which tries the \
                     most active value first (asc and desc choose the end of a wide domain)",
                    order.name(),
                    settings.inference
                ));
            }
        }
        Ok(settings)
    }

    /// A solver for `model` with these settings.
    pub fn solver<'m>(&self, model: &'m csp::Model) -> Solver<'m> {
        Solver::new(model)
            .inference(self.inference)
            .var_order(self.var_order)
            .value_order(self.value_order)
            .restarts(self.restarts)
    }

    /// Refuses restarts for a search that looks for more than one solution, where the engine
    /// would not apply them (a restarted search would meet its solutions again).
    pub fn check_restarts(&self, single_solution: bool, instead: &str) -> Result<(), String> {
        if self.restarts.is_some() && !single_solution {
            return Err(format!(
                "--restarts applies to a search for one solution: {instead}"
            ));
        }
        Ok(())
    }

    /// What the user should know about these settings before the run: a heuristic that
    /// cannot do anything in this mode, so that it is not taken for one that does.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.inference == Inference::None && self.var_order == VarOrder::MinDomain {
            notes.push(
                "note: under --inference none no domain shrinks, so --var-order mrv picks \
                 variables in input order; use fc or mac to see it choose"
                    .to_owned(),
            );
        }
        notes
    }

    pub fn describe(&self) -> String {
        format!(
            "inference {}, variable order {}, value order {}",
            self.inference, self.var_order, self.value_order
        )
    }
}

/// The engine options that were given, by name (for options that only some engines take).
pub fn given_engine_options(args: &SearchArgs) -> Vec<&'static str> {
    [
        ("--inference", args.inference.is_some()),
        ("--var-order", args.var_order.is_some()),
        ("--val-order", args.val_order.is_some()),
        ("--seed", args.seed.is_some()),
        ("--restarts", args.restarts.is_some()),
    ]
    .iter()
    .filter(|(_, given)| *given)
    .map(|(name, _)| *name)
    .collect()
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

/// The one place where the command line becomes [`Limits`]: `--time-limit SECS` (or `none`;
/// `default_time` when not given), `--node-limit K`, the signal flag as the cancel flag, and
/// the time counted from `since` (`None`: from the start of each search).
pub fn limits_from(
    time_limit: Option<&str>,
    node_limit: Option<u64>,
    default_time: Option<Duration>,
    cancel: &Arc<AtomicBool>,
    since: Option<Instant>,
) -> Result<Limits, String> {
    check_node_limit(node_limit)?;
    let time = match time_limit.map(str::trim) {
        None => default_time,
        Some("none") => None,
        Some(text) => Some(parse_seconds(text)?),
    };
    let limits = Limits::none()
        .with_nodes(node_limit)
        .with_time(time)
        .with_cancel(cancel);
    Ok(match since {
        Some(start) => limits.counted_from(start),
        None => limits,
    })
}

/// `--node-limit 0` would stop before the first node, as `--limit 0` would before the first
/// solution: both are refused.
pub fn check_node_limit(nodes: Option<u64>) -> Result<(), String> {
    if nodes == Some(0) {
        return Err("--node-limit must be at least 1".into());
    }
    Ok(())
}

/// The longest time limit taken: a century, far beyond any run, and well inside what a
/// `Duration` and the clock can add.
const MAX_TIME_LIMIT_SECS: f64 = 100.0 * 365.25 * 24.0 * 3600.0;

pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("--time-limit '{text}' is not a number of seconds"))?;
    if seconds.is_nan() {
        return Err(format!("--time-limit '{text}' is not a number of seconds"));
    }
    if seconds < 0.0 {
        return Err(format!(
            "--time-limit '{text}' must be zero or more seconds"
        ));
    }
    if seconds > MAX_TIME_LIMIT_SECS {
        return Err(format!(
            "--time-limit '{text}' is too long: at most {MAX_TIME_LIMIT_SECS:.0} seconds (a \
             century); leave it out for no limit"
        ));
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("--time-limit '{text}' is not a usable number of seconds"))
}
