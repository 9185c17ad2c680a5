//! Seats taking turns: one runs at a time, a spent share hands the turn on, a seat that
//! leaves or a stop frees those that wait.

use super::Turn;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Each of `seats` threads runs `rounds` turns (a wait, then work), logging its seat at each;
/// returns the log. Fails if two seats ever run at once.
fn run_turns(seats: &[Turn], rounds: usize) -> Vec<usize> {
    let running = AtomicUsize::new(0);
    let log = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for turn in seats {
            let (running, log) = (&running, &log);
            scope.spawn(move || {
                for _ in 0..rounds {
                    turn.wait(|| false);
                    assert_eq!(
                        running.fetch_add(1, Ordering::SeqCst),
                        0,
                        "two seats ran at once"
                    );
                    log.lock().unwrap().push(turn.seat);
                    std::thread::sleep(Duration::from_micros(50));
                    running.fetch_sub(1, Ordering::SeqCst);
                }
                turn.leave();
            });
        }
    });
    log.into_inner().unwrap()
}

#[test]
fn spent_shares_make_the_seats_alternate_one_at_a_time() {
    let log = run_turns(&Turn::table(&[Duration::ZERO; 3]), 40);
    assert_eq!(log.len(), 120);
    // Each wait hands the turn on (seat 0's first too), so the seats run in a cycle.
    for (i, &seat) in log.iter().enumerate() {
        assert_eq!(seat, (log[0] + i) % 3, "turn {i}: {log:?}");
    }
}

#[test]
fn a_seat_runs_alone_until_its_share_is_spent_or_it_leaves() {
    let log = run_turns(
        &Turn::table(&[Duration::from_secs(3600), Duration::ZERO]),
        50,
    );
    // Seat 0's share outlasts the test: seat 1 runs only once seat 0 has left.
    assert_eq!(log[..50], [0; 50]);
    assert_eq!(log[50..], [1; 50]);
}

#[test]
fn a_stop_ends_the_wait_of_a_seat_whose_turn_does_not_come() {
    let seats = Turn::table(&[Duration::from_secs(3600), Duration::ZERO]);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let waiter = scope.spawn(|| seats[1].wait(|| stop.load(Ordering::Relaxed)));
        std::thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished(), "seat 1 ran in seat 0's turn");
        stop.store(true, Ordering::Relaxed);
        // Joins within the wait's interval; a hang here is the failure.
        waiter.join().unwrap();
    });
}
