//! Ctrl-C and SIGTERM become a cancel flag the search polls, so a stopped run still reports.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// How long a forced exit waits for a write to stdout in progress to end (a reader that has
/// stopped reading would keep it waiting for ever).
#[cfg(unix)]
const FORCED_EXIT_PATIENCE: std::time::Duration = std::time::Duration::from_millis(100);

/// The cancel flag and which signal set it.
pub struct Signals {
    pub cancel: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

impl Signals {
    /// Routes SIGINT and SIGTERM to the flag. A second signal ends the process at once with the
    /// usual status, for a run that is stuck somewhere it does not poll, after writing out the
    /// whole records its outputs hold (so that MiniZinc, which follows SIGINT with SIGTERM and
    /// then SIGKILL, gets every solution found, none cut in half).
    pub fn install() -> Self {
        let cancel = Arc::new(AtomicBool::new(false));
        let which = Arc::new(AtomicUsize::new(0));
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            use signal_hook::flag;
            for signal in [SIGINT, SIGTERM] {
                // Registration fails only for forbidden signals, which these are not; without
                // it the default action (terminate) still applies, so there is nothing to report.
                let _ = flag::register_usize(signal, Arc::clone(&which), signal as usize);
                let _ = flag::register(signal, Arc::clone(&cancel));
            }
            if let Ok(mut arrivals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
                let _ = std::thread::Builder::new()
                    .name("csp-signals".into())
                    .spawn(move || {
                        for (count, signal) in arrivals.forever().enumerate() {
                            if count >= 1 {
                                crate::output::write_out_all(FORCED_EXIT_PATIENCE);
                                signal_hook::low_level::exit(128 + signal);
                            }
                        }
                    });
            }
        }
        Signals { cancel, which }
    }

    /// A flag no signal sets: for checking arguments without running.
    pub fn inert() -> Self {
        Signals {
            cancel: Arc::new(AtomicBool::new(false)),
            which: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The signal that stopped a run that ended as `outcome`: one only when the cancel flag,
    /// which the signals set, is what ended it.
    pub fn stopped(&self, outcome: csp::Outcome) -> Option<Received> {
        matches!(outcome, csp::Outcome::LimitReached(csp::Limit::Cancelled))
            .then(|| self.received())
            .flatten()
    }

    /// The signal that asked the run to stop, if any.
    pub fn received(&self) -> Option<Received> {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            match self.which.load(Ordering::Relaxed) as i32 {
                SIGINT => return Some(Received::Interrupt),
                SIGTERM => return Some(Received::Terminate),
                _ => {}
            }
        }
        let _ = &self.which;
        None
    }
}

/// A stop signal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Received {
    Interrupt,
    Terminate,
}

impl Received {
    pub fn name(self) -> &'static str {
        match self {
            Received::Interrupt => "SIGINT",
            Received::Terminate => "SIGTERM",
        }
    }
}
