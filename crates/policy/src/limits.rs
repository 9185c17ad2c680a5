//! Limits from plain options: a time limit from text or seconds, a node limit, one set of
//! errors for every front end.

use crate::error::PolicyError;
use csp::Limits;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest time limit taken: a century, far beyond any run, and well inside what a
/// `Duration` and the clock can add (`Duration::from_secs_f64` panics past about 1.8e19 s).
pub const MAX_TIME_LIMIT_SECS: f64 = 100.0 * 365.25 * 24.0 * 3600.0;

/// A time limit written as text: a number of seconds (decimals allowed), or `none`, which is
/// no limit.
pub fn time_limit_text(text: &str) -> Result<Option<Duration>, PolicyError> {
    match text.trim() {
        "none" => Ok(None),
        trimmed => {
            let seconds: f64 = trimmed
                .parse()
                .map_err(|_| PolicyError::TimeNotSeconds(text.to_owned()))?;
            seconds_as_limit(seconds, text).map(Some)
        }
    }
}

/// A time limit given as a number of seconds (Python's `time_limit=`).
pub fn time_limit_seconds(seconds: f64) -> Result<Duration, PolicyError> {
    seconds_as_limit(seconds, &seconds.to_string())
}

/// `seconds`, written `text`, as a duration: a number, zero or more, at most a century.
fn seconds_as_limit(seconds: f64, text: &str) -> Result<Duration, PolicyError> {
    if seconds.is_nan() {
        return Err(PolicyError::TimeNotSeconds(text.to_owned()));
    }
    if seconds < 0.0 {
        return Err(PolicyError::TimeNegative(text.to_owned()));
    }
    if seconds > MAX_TIME_LIMIT_SECS {
        return Err(PolicyError::TimeTooLong(text.to_owned()));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| PolicyError::TimeNotSeconds(text.to_owned()))
}

/// A node limit of 0 would stop before the first node, as a solution limit of 0 would before
/// the first solution: both are refused.
pub fn check_node_limit(nodes: Option<u64>) -> Result<(), PolicyError> {
    match nodes {
        Some(0) => Err(PolicyError::NodeLimitZero),
        _ => Ok(()),
    }
}

/// The limits of a run: `time` (none: no limit), `nodes`, `cancel` as the cancel flag, and the
/// time counted from `since` (`None`: from the start of each search).
pub fn limits(
    time: Option<Duration>,
    nodes: Option<u64>,
    cancel: &Arc<AtomicBool>,
    since: Option<Instant>,
) -> Result<Limits, PolicyError> {
    check_node_limit(nodes)?;
    let limits = Limits::none()
        .with_nodes(nodes)
        .with_time(time)
        .with_cancel(cancel);
    Ok(match since {
        Some(start) => limits.counted_from(start),
        None => limits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_limit_is_a_number_of_seconds_up_to_a_century() {
        assert_eq!(
            time_limit_text(" 1.5 ").ok(),
            Some(Some(Duration::from_millis(1500)))
        );
        assert_eq!(time_limit_text("none").ok(), Some(None));
        for bad in ["", "ten", "NaN", "-1", "1e20", "inf"] {
            assert!(time_limit_text(bad).is_err(), "{bad}");
        }
        for bad in [f64::NAN, -0.5, 1e20, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(time_limit_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(time_limit_seconds(0.0).ok(), Some(Duration::ZERO));
        assert!(time_limit_seconds(MAX_TIME_LIMIT_SECS).is_ok());
    }

    #[test]
    fn a_node_limit_of_zero_is_refused() {
        assert!(check_node_limit(Some(0)).is_err());
        assert!(check_node_limit(Some(1)).is_ok());
        assert!(check_node_limit(None).is_ok());
    }
}
