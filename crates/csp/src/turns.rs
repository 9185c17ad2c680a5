//! `Turns`: threads that share one core's time, each running for its share of a round while
//! the others wait, so that a portfolio on one core splits it as asked, not as the
//! operating system's scheduler would.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a waiting seat sleeps before it looks at its stop flag again.
const WAKE_INTERVAL: Duration = Duration::from_millis(1);

/// Who runs now, and since when.
#[derive(Debug)]
struct Round {
    /// The seat that may run.
    holder: usize,
    /// When the holder's turn began.
    since: Instant,
    /// Seats still taking turns: a seat whose work ended leaves.
    present: Vec<bool>,
}

/// The seats taking turns, and how long each turn lasts.
#[derive(Debug)]
struct Table {
    round: Mutex<Round>,
    changed: Condvar,
    /// Each seat's turn.
    shares: Vec<Duration>,
}

/// One seat at a table of threads that take turns (made by [`Turn::table`]): the holder of a
/// seat calls [`Turn::wait`] at each read of its limits, and [`Turn::leave`] once its work
/// ends. The first seat runs first.
#[derive(Clone, Debug)]
pub(crate) struct Turn {
    table: Arc<Table>,
    seat: usize,
}

impl Turn {
    /// One seat for each share, seat `i` running for `shares[i]` at each of its turns.
    pub(crate) fn table(shares: &[Duration]) -> Vec<Turn> {
        let table = Arc::new(Table {
            round: Mutex::new(Round {
                holder: 0,
                since: Instant::now(),
                present: vec![true; shares.len()],
            }),
            changed: Condvar::new(),
            shares: shares.to_vec(),
        });
        (0..shares.len())
            .map(|seat| Turn {
                table: Arc::clone(&table),
                seat,
            })
            .collect()
    }

    /// Hands the turn on if this seat's share of it is spent, then waits until this seat's
    /// turn comes again or `stopped` says to stop waiting (so that a stopped search ends at
    /// once, whoever holds the turn).
    pub(crate) fn wait(&self, stopped: impl Fn() -> bool) {
        let table = &*self.table;
        let mut round = table.round.lock().unwrap_or_else(PoisonError::into_inner);
        if round.holder == self.seat {
            if round.since.elapsed() < table.shares[self.seat] {
                return;
            }
            pass_on(&mut round, table);
        }
        while round.holder != self.seat && !stopped() {
            round = table
                .changed
                .wait_timeout(round, WAKE_INTERVAL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Leaves the table for good, handing the turn on if this seat holds it.
    pub(crate) fn leave(&self) {
        let table = &*self.table;
        let mut round = table.round.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(present) = round.present.get_mut(self.seat) {
            *present = false;
        }
        if round.holder == self.seat {
            pass_on(&mut round, table);
        }
    }
}

/// Gives the turn to the next seat still present after the holder (the holder again if it
/// is the only one), and wakes the waiting seats.
fn pass_on(round: &mut Round, table: &Table) {
    let n = round.present.len();
    let next = (1..=n)
        .map(|step| (round.holder + step) % n)
        .find(|&seat| round.present[seat]);
    if let Some(next) = next {
        round.holder = next;
    }
    round.since = Instant::now();
    table.changed.notify_all();
}

#[cfg(test)]
mod tests;
