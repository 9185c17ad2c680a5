//! `Poller`: reads the cancel flag and the clock at an interval bounded in time, whatever one
//! unit of the caller's work costs.
//!
//! Every loop that can run long (the engine's node loop and propagation, the bitmask walkers,
//! local search, graph bounds, model building) calls [`Poller::tick`] once per unit of its
//! work. A tick compares a process-wide clock hand with the value the poller saw at its last
//! read: one relaxed load and a branch. A ticker thread moves the hand every
//! [`TARGET_INTERVAL`], so the limits are read within a millisecond of the last read plus one
//! unit of work, whether a unit takes 2 ns (a queen placed by a bitmask walker) or 10 ms (a
//! propagation on a 625x625 sudoku), and however that cost changes from one phase to the next.
//! A countdown tuned to the cost of a unit cannot promise that: after a million 1 ns units it
//! waits a million units, which was 0.7 s late when the next phase's units cost 700 ns.
//!
//! The ticker is one thread per process, started by the first poller with a limit to read,
//! and parked while no such poller exists. Where it cannot be started, every tick reads.

use crate::turns::Turn;
use crate::{Limit, Limits};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How often the clock hand moves, so how long at most between two reads of the limits, plus
/// one unit of work. A read costs tens of nanoseconds, so a millisecond costs under 0.01%.
pub const TARGET_INTERVAL: Duration = Duration::from_millis(1);

/// The clock hand: moved by the ticker every [`TARGET_INTERVAL`]. It starts at 1 so that one
/// less than it is never [`ALWAYS_READ`].
static HAND: AtomicU64 = AtomicU64::new(1);

/// Pollers alive that have a limit to read; the ticker parks while there are none.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// The ticker thread, or `None` if it could not be started.
static TICKER: OnceLock<Option<Thread>> = OnceLock::new();

/// A `seen` value the hand never reaches: every tick reads.
const ALWAYS_READ: u64 = u64::MAX;

/// The ticker, started on first use.
fn ticker() -> Option<&'static Thread> {
    TICKER
        .get_or_init(|| {
            std::thread::Builder::new()
                .name("csp-poll-ticker".into())
                .spawn(|| loop {
                    if ACTIVE.load(Ordering::Acquire) == 0 {
                        std::thread::park();
                        continue;
                    }
                    std::thread::sleep(TARGET_INTERVAL);
                    HAND.fetch_add(1, Ordering::Relaxed);
                })
                .ok()
                .map(|handle| handle.thread().clone())
        })
        .as_ref()
}

/// Reads the time limit and the cancel flag of some [`Limits`] about every millisecond of the
/// caller's work, and holds their node limit for a caller that counts nodes
/// ([`Poller::nodes_reached`]): one holder of every limit.
///
/// ```
/// use csp::{Limit, Limits, Poller};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let cancel = Arc::new(AtomicBool::new(true));
/// let limits = Limits::none().with_cancel(&cancel);
/// let mut poller = Poller::new(&limits);
/// let mut units = 0u64;
/// while poller.tick() {
///     units += 1; // one unit of work
/// }
/// assert_eq!(poller.stopped(), Some(Limit::Cancelled));
/// assert_eq!(units, 0);
/// ```
#[derive(Debug)]
pub struct Poller {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    /// The hand at the last read ([`ALWAYS_READ`] where there is no ticker).
    seen: u64,
    /// Whether this poller counts in [`ACTIVE`].
    active: bool,
    stopped: Option<Limit>,
    /// The node limit, for the caller to compare its count with.
    nodes: Option<u64>,
    /// The seat of a search that takes turns with others on one core
    /// ([`Portfolio::in_turns`](crate::Portfolio::in_turns)): each read may wait for its turn.
    turn: Option<Turn>,
}

impl Poller {
    /// A poller for the time limit and cancel flag of `limits`. The time limit counts from
    /// `limits.since`, or from now if that is `None`. The first tick reads the limits.
    pub fn new(limits: &Limits) -> Self {
        let start = limits.since.unwrap_or_else(Instant::now);
        // A limit too far away to represent is no limit at all.
        let deadline = limits.time.and_then(|t| start.checked_add(t));
        let mut poller = Self::with(deadline, limits.cancel.clone());
        poller.nodes = limits.nodes;
        poller
    }

    /// Whether `nodes` tried reach the node limit.
    #[inline]
    pub fn nodes_reached(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|limit| nodes >= limit)
    }

    /// A poller that never stops: for callers with no limits.
    pub fn unlimited() -> Self {
        Self::with(None, None)
    }

    fn with(deadline: Option<Instant>, cancel: Option<Arc<AtomicBool>>) -> Self {
        let mut poller = Poller {
            deadline,
            cancel,
            // One behind the hand, so that the first tick reads.
            seen: HAND.load(Ordering::Relaxed) - 1,
            active: false,
            stopped: None,
            nodes: None,
            turn: None,
        };
        if poller.deadline.is_some() || poller.cancel.is_some() {
            poller.activate();
        }
        poller
    }

    /// Counts this poller among those the ticker moves the hand for (or, with no ticker,
    /// has every tick read).
    fn activate(&mut self) {
        if self.active || self.seen == ALWAYS_READ {
            return;
        }
        match ticker() {
            Some(thread) => {
                self.active = true;
                if ACTIVE.fetch_add(1, Ordering::AcqRel) == 0 {
                    thread.unpark();
                }
            }
            None => self.seen = ALWAYS_READ,
        }
    }

    /// From now on, each read of the limits also waits for `turn`'s turn when its share is
    /// spent (`None`: runs without turns).
    pub(crate) fn take_turns(&mut self, turn: Option<Turn>) {
        if turn.is_some() {
            self.activate();
        }
        self.turn = turn;
    }

    /// The clock hand, which moves every [`TARGET_INTERVAL`] while a poller with limits is
    /// alive. A loop too tight to spare a register for the poller keeps the hand it last saw
    /// beside its own state, compares, and calls [`Poller::tick`] only when the hand has moved.
    #[inline(always)]
    pub fn hand() -> u64 {
        HAND.load(Ordering::Relaxed)
    }

    /// Counts one unit of work: `false` once a limit has stopped it (and from then on).
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        if HAND.load(Ordering::Relaxed) == self.seen {
            return true;
        }
        self.read()
    }

    /// Reads the limits now, whatever the hand says: `false` if one has stopped the work.
    pub fn check(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stopped = self.due(Instant::now());
            if self.stopped.is_some() {
                self.seen = ALWAYS_READ;
            }
        }
        self.stopped.is_none()
    }

    /// The limit that stopped the work, if one did.
    #[inline]
    pub fn stopped(&self) -> Option<Limit> {
        self.stopped
    }

    /// Whether a limit has stopped the work.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Reads the cancel flag and the clock, and notes the hand; once stopped, every tick
    /// comes here and says so.
    #[cold]
    #[inline(never)]
    fn read(&mut self) -> bool {
        if self.seen != ALWAYS_READ {
            self.seen = HAND.load(Ordering::Relaxed);
        }
        if let (Some(turn), None) = (&self.turn, self.stopped) {
            // Waiting ends on a limit too, which then stops this search at once.
            turn.wait(|| self.due(Instant::now()).is_some());
        }
        self.check()
    }

    /// The limit that is due at `now`, if any.
    fn due(&self, now: Instant) -> Option<Limit> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(Limit::Cancelled);
        }
        self.deadline
            .is_some_and(|d| now >= d)
            .then_some(Limit::Time)
    }
}

impl Clone for Poller {
    fn clone(&self) -> Self {
        let mut copy = Self::with(self.deadline, self.cancel.clone());
        copy.nodes = self.nodes;
        copy.take_turns(self.turn.clone());
        if self.stopped.is_some() {
            copy.stopped = self.stopped;
            copy.seen = ALWAYS_READ;
        }
        copy
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        if self.active {
            ACTIVE.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests;
