//! Which solver answers a puzzle: the bitmask solver, the general engine, or both side by side
//! (`race`), the first to finish answering.

use crate::{Bitmask, Grid, SudokuModel};
use csp::{Limit, Limits, Outcome, Solver, Statistics, Summary};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// From this side on neither solver wins every grid (measured: the general engine's
/// matching-based filtering wins most hard 25x25 ones, the bitmask solver some), so a caller
/// with a core to spare races them; below it the bitmask solver is the faster.
pub const RACE_FROM_SIDE: usize = 25;

/// Solves `grid` with the bitmask solver, stopping after `max` solutions (`None`: all) or on
/// `limits`: its summary and its first solution. A grid too large for it comes back stopped,
/// with no solution.
pub fn solve_bitmask(grid: &Grid, max: Option<u64>, limits: Limits) -> (Summary, Option<Grid>) {
    let mut first: Option<Grid> = None;
    let Some(solver) = Bitmask::new(grid) else {
        let summary = Summary {
            outcome: Outcome::LimitReached(Limit::Cancelled),
            stats: Statistics::default(),
        };
        return (summary, None);
    };
    let summary = solver.max_solutions(max).limits(limits).solve(|found| {
        if first.is_none() {
            first = Some(found.clone());
        }
        ControlFlow::Continue(())
    });
    (summary, first)
}

/// Runs the bitmask solver and `engine` side by side on `grid`, each on a thread of its own
/// with `limits`; the first to finish answers and the other is stopped. `engine` is a solver of
/// `model`, the blank model of the grid's size, set up as the caller wants it (inference,
/// orders); the race adds the givens, `max` and the limits. The cancel flag of `limits`
/// reaches both through the race's own flag. `None` if neither solver came back.
pub fn race(
    grid: &Grid,
    model: &SudokuModel,
    engine: Solver<'_>,
    max: Option<u64>,
    limits: &Limits,
) -> Option<(Summary, Option<Grid>)> {
    let givens = model.givens(grid);
    let stop = Arc::new(AtomicBool::new(false));
    let raced = limits.cancelled_by(&stop);
    let (done, finished) = mpsc::channel::<usize>();
    std::thread::scope(|scope| {
        let bitmask = {
            let (limits, done) = (raced.clone(), done.clone());
            scope.spawn(move || {
                let result = solve_bitmask(grid, max, limits);
                let _ = done.send(0);
                result
            })
        };
        let engine = scope.spawn(|| {
            let mut first: Option<Grid> = None;
            let summary = engine
                .max_solutions(max)
                .limits(raced.clone())
                .assume(givens)
                .solve(|s| {
                    if first.is_none() {
                        first = Some(model.grid(s));
                    }
                    ControlFlow::Continue(())
                });
            let _ = done.send(1);
            (summary, first)
        });
        let cancelled = || {
            limits
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
        };
        let winner = loop {
            match finished.recv_timeout(Duration::from_millis(1)) {
                Ok(which) => break which,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if cancelled() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break 1,
            }
        };
        stop.store(true, Ordering::Relaxed);
        let results = [bitmask.join(), engine.join()];
        // The first to finish answers: the other was stopped by the race, not by a limit.
        match results {
            [Ok(b), Ok(e)] => Some(if winner == 0 { b } else { e }),
            [Ok(one), Err(_)] | [Err(_), Ok(one)] => Some(one),
            [Err(_), Err(_)] => None,
        }
    })
}
