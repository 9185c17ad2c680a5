//! Unit tests of `poller`: when it reads, what it reads, and what it costs the ticker.

use super::*;

/// About `nanos` nanoseconds of work that the optimiser cannot drop.
fn spin(nanos: u64) {
    let start = Instant::now();
    while start.elapsed().as_nanos() < u128::from(nanos) {
        std::hint::spin_loop();
    }
}

#[test]
fn a_set_cancel_flag_stops_at_the_first_tick_and_stays_stopped() {
    let cancel = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let mut poller = Poller::new(&limits);
    assert!(!poller.tick());
    assert_eq!(poller.stopped(), Some(Limit::Cancelled));
    for _ in 0..10 {
        assert!(!poller.tick());
        assert!(!poller.check());
    }
}

#[test]
fn a_flag_set_from_another_thread_is_seen() {
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    let setter = {
        let cancel = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            cancel.store(true, Ordering::Relaxed);
        })
    };
    let mut poller = Poller::new(&limits);
    let started = Instant::now();
    let mut units = 0u64;
    while poller.tick() {
        units = units.wrapping_add(1);
        assert!(started.elapsed() < Duration::from_secs(20), "hangs");
    }
    setter.join().unwrap();
    assert_eq!(poller.stopped(), Some(Limit::Cancelled));
    assert!(units > 0);
}

#[test]
fn the_time_limit_counts_from_since_when_it_is_given() {
    let since = Instant::now() - Duration::from_secs(5);
    let limits = Limits {
        time: Some(Duration::from_secs(1)),
        since: Some(since),
        ..Limits::default()
    };
    let mut poller = Poller::new(&limits);
    assert!(
        !poller.tick(),
        "the limit was due before the poller was made"
    );
    assert_eq!(poller.stopped(), Some(Limit::Time));
    // Counted from now instead, the same limit is a second away.
    let mut fresh = Poller::new(&Limits {
        since: None,
        ..limits
    });
    assert!(fresh.tick());
    assert_eq!(fresh.stopped(), None);
}

/// Cheap units, then units a thousand times dearer: the stop still comes soon after the
/// limit, which a countdown tuned on the cheap units would miss by a wide margin.
#[test]
fn the_time_limit_stops_units_whose_cost_changes_by_orders_of_magnitude() {
    for (cheap_phase, dear_nanos) in [(0, 0), (2_000_000, 1_000), (2_000_000, 200_000)] {
        let limits = Limits {
            time: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let started = Instant::now();
        let mut poller = Poller::new(&limits);
        let mut units = 0u64;
        while poller.tick() {
            units += 1;
            if units > cheap_phase {
                spin(dear_nanos);
            }
            assert!(started.elapsed() < Duration::from_secs(20), "hangs");
        }
        assert_eq!(poller.stopped(), Some(Limit::Time));
        assert!(started.elapsed() >= Duration::from_millis(30));
    }
}

#[test]
fn no_limits_never_stop_and_an_unrepresentable_deadline_is_none() {
    let mut poller = Poller::unlimited();
    for _ in 0..5_000_000 {
        assert!(poller.tick());
    }
    assert!(poller.check());
    let forever = Limits {
        time: Some(Duration::MAX),
        ..Limits::default()
    };
    let mut poller = Poller::new(&forever);
    assert!(poller.tick() && poller.check());
}

#[test]
fn the_hand_moves_while_a_poller_with_limits_lives() {
    let limits = Limits {
        time: Some(Duration::from_secs(3600)),
        ..Limits::default()
    };
    let poller = Poller::new(&limits);
    let copy = poller.clone();
    let before = HAND.load(Ordering::Relaxed);
    let started = Instant::now();
    while HAND.load(Ordering::Relaxed) == before {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the hand does not move"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(ACTIVE.load(Ordering::Relaxed) >= 2);
    drop((poller, copy));
}
