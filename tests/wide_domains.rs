//! A model over `0..=10^9` solves in memory that does not depend on the span: the same model
//! is solved over spans from a thousand to the whole of `i32`, and the heap's peak is measured
//! by a counting allocator (this file is its own test binary, so nothing else allocates).
#![allow(clippy::unwrap_used)]
// A global allocator is unsafe to implement; this one only counts and passes on to `System`.
#![allow(unsafe_code)]

use csp_toolkit::csp::{Inference, Model, Relation, Solver, ValueOrder, VarOrder};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The system allocator, counting the bytes live and their peak since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Tests run on threads of their own; one measurement at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the pointer came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `work` alone and returns what it returns and the heap's peak above where it started,
/// in bytes.
fn peak_while<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = work();
    (result, PEAK.load(Ordering::Relaxed) - before)
}

/// `x = y + (top - 10 - low)`, `x + y != top`, `y != low + 3`, with `x` over `low..=top` and
/// `y` over `low..=low + 20`: `y` runs over `low..=low + 10` (beyond, `x` would pass `top`)
/// less `low + 3` and the value where `x + y = top`, if any. Returns the solutions' count under
/// `fc` and `mac` and the heap's peak while building and solving, in bytes. (Plain
/// backtracking would walk `x` value by value to the one that matches: a billion nodes.)
fn solve_over(low: i32, top: i32) -> (Vec<u64>, usize) {
    peak_while(|| count_over(low, top))
}

/// The counts of [`solve_over`].
fn count_over(low: i32, top: i32) -> Vec<u64> {
    let mut model = Model::new();
    let y = model.new_named_var("y", low..=low + 20).unwrap();
    let x = model.new_named_var("x", low..=top).unwrap();
    let shift = i64::from(top) - 10 - i64::from(low);
    model.compare_offset(x, Relation::Eq, y, shift).unwrap();
    model
        .linear(&[(1, x), (1, y)], Relation::Ne, i64::from(top))
        .unwrap();
    model
        .compare_value(y, Relation::Ne, i64::from(low) + 3)
        .unwrap();
    let mut counts = Vec::new();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let mut count = 0;
        for s in Solver::new(&model).inference(inference).solutions() {
            assert!(model.check_solution(&s).is_ok());
            count += 1;
        }
        counts.push(count);
    }
    for order in [
        ValueOrder::LeastConstraining,
        ValueOrder::Random { seed: 7 },
    ] {
        let solver = Solver::new(&model)
            .inference(Inference::ForwardChecking)
            .var_order(VarOrder::MinDomain)
            .value_order(order);
        assert_eq!(solver.count(), counts[0], "{order}");
    }
    counts
}

/// The count by enumerating `y`, the only free choice, over its eleven candidates.
fn expected(low: i32, top: i32) -> u64 {
    let shift = i64::from(top) - 10 - i64::from(low);
    (i64::from(low)..=i64::from(low) + 10)
        .filter(|&y| y != i64::from(low) + 3 && (y + shift) + y != i64::from(top))
        .count() as u64
}

#[test]
fn a_billion_values_cost_no_more_memory_than_a_thousand() {
    let cases = [(0, 1_000), (0, 1_000_000), (0, 1_000_000_000)];
    let mut peaks = Vec::new();
    for (low, top) in cases {
        let (counts, peak) = solve_over(low, top);
        let want = expected(low, top);
        assert_eq!(counts, vec![want; 2], "span {low}..={top}");
        eprintln!("span {low}..={top}: peak {peak} bytes");
        peaks.push(peak);
    }
    // A thousand values are a 16-word bitset; a million or a billion are bounds and holes,
    // and their peak stays within a few kilobytes of it.
    let smallest = peaks[0];
    for (&(low, top), &peak) in cases.iter().zip(&peaks) {
        assert!(
            peak <= smallest + 16 * 1024,
            "span {low}..={top}: peak {peak} bytes against {smallest} for a thousand values"
        );
    }
}

#[test]
fn the_widest_ranges_solve_too() {
    // Spans near the ends of i32, and the whole of it, with the same answers as brute force.
    for (low, top) in [
        (-1_000_000_000, 1_000_000_000),
        (i32::MIN, i32::MAX),
        (i32::MIN, i32::MIN + 20),
        (i32::MAX - 20, i32::MAX),
    ] {
        let (counts, peak) = solve_over(low, top);
        assert_eq!(counts, vec![expected(low, top); 2], "span {low}..={top}");
        assert!(peak < 1 << 20, "span {low}..={top}: peak {peak} bytes");
    }
}

#[test]
fn ranking_value_orders_walk_a_domain_too_wide_to_rank() {
    // Least-constraining and random orders rank a node's values; over 10^9 values they walk
    // from the smallest up instead of listing them (4 GB).
    let mut model = Model::new();
    let x = model.new_named_var("x", 0..=1_000_000_000).unwrap();
    model.compare_value(x, Relation::Ne, 0).unwrap();
    for order in [
        ValueOrder::LeastConstraining,
        ValueOrder::Random { seed: 7 },
    ] {
        let (first, peak) = peak_while(|| Solver::new(&model).value_order(order).first());
        assert_eq!(first, Some(vec![1]), "{order}");
        assert!(peak < 1 << 20, "{order}: peak {peak} bytes");
    }
}
