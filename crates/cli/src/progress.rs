//! A progress bar for long counts: on a terminal only, on stderr, cleared at the end and
//! replaced by a one-line summary.

use csp::Summary;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Boards below this size count in a blink; a bar would only flicker.
const MIN_N_FOR_BAR: usize = 16;

/// Runs `count`, showing a bar fed by its `tick(done, total)` calls when stderr is a terminal
/// and the board is large enough for the count to take a while.
pub fn count_with_bar(
    n: usize,
    count: impl FnOnce(&(dyn Fn(u64, u64) + Sync)) -> Summary,
) -> Summary {
    if n < MIN_N_FOR_BAR || !std::io::stderr().is_terminal() {
        return count(&|_, _| {});
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} counting {msg} [{bar:40}] {pos}/{len} parts, {elapsed}, about {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(format!("{n}-queens"));
    // Redrawn on a timer too: at N = 20 a part takes seconds, and the clock should still move.
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let summary = count(&|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    if matches!(summary.outcome, csp::Outcome::LimitReached(_)) {
        // The stop and its partial figures are reported by the caller.
        return summary;
    }
    let s = &summary.stats;
    eprintln!(
        "csp: counted {} solutions of {n}-queens in {:.2} s ({} placements)",
        s.solutions,
        s.elapsed.as_secs_f64(),
        s.nodes
    );
    summary
}

/// A spinner with a message and the time its current step has taken, on stderr, on a
/// terminal only; elsewhere it shows nothing. It redraws on a timer thread of its own, so a
/// long run that gives no news still shows that it is alive.
pub struct Spinner(Option<ProgressBar>);

impl Spinner {
    /// A spinner if stderr is a terminal, else a silent stand-in.
    pub fn on_terminal() -> Self {
        if !std::io::stderr().is_terminal() {
            return Spinner(None);
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        Spinner(Some(bar))
    }

    /// Starts a new step: its message, and the clock from zero.
    pub fn step(&self, message: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(message);
            bar.reset_elapsed();
        }
    }

    /// Takes the spinner off the screen.
    pub fn clear(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
