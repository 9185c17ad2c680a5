//! The classic bitmask N-Queens solver: three masks (columns and the two diagonal directions),
//! the free squares of a row as one word, and the lowest set bit taken first.
//!
//! It needs no engine, which makes it the oracle the engine is tested against. Boards come out
//! in lexicographic order of their column vectors, like the engine's with ascending values.

use csp::{Limit, Limits, Outcome, Statistics, Summary};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The largest board the bitmask solver represents: one bit per column in a `u64`.
pub const MAX_N: usize = 64;

/// How often (in placements) the limits are polled; a power of two.
const POLL_MASK: u64 = (1 << 14) - 1;

/// The bitmask solver for one board size, with optional limits.
#[derive(Clone, Debug)]
pub struct Bitmask {
    n: usize,
    limits: Limits,
}

/// The walk's running state: counters, limits, and whether a limit or the caller stopped it.
struct Walk<'a> {
    full: u64,
    limits: &'a Limits,
    started: Instant,
    stats: Statistics,
    stop: Option<Outcome>,
}

impl Walk<'_> {
    /// Counts a placement and, now and then, reads the limits.
    #[inline]
    fn place(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        self.stats.nodes += 1;
        if let Some(max) = self.limits.nodes {
            if self.stats.nodes > max {
                self.stats.nodes = max;
                self.stop = Some(Outcome::LimitReached(Limit::Nodes));
                return false;
            }
        }
        if self.stats.nodes & POLL_MASK == 0 {
            if let Some(limit) = self.polled_limit() {
                self.stop = Some(Outcome::LimitReached(limit));
                return false;
            }
        }
        true
    }

    fn polled_limit(&self) -> Option<Limit> {
        if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(Limit::Cancelled);
        }
        if self
            .limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
        {
            return Some(Limit::Time);
        }
        None
    }

    fn finish(mut self) -> Summary {
        self.stats.elapsed = self.started.elapsed();
        Summary {
            outcome: self.stop.unwrap_or(Outcome::Exhausted),
            stats: self.stats,
        }
    }
}

impl Bitmask {
    /// A solver for the `n` x `n` board, or `None` when `n` exceeds [`MAX_N`].
    pub fn new(n: usize) -> Option<Self> {
        (n <= MAX_N).then(|| Bitmask {
            n,
            limits: Limits::default(),
        })
    }

    /// Stops on these limits (nodes are placements).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    fn walk(&self) -> Walk<'_> {
        Walk {
            full: if self.n == 64 {
                u64::MAX
            } else {
                (1u64 << self.n) - 1
            },
            limits: &self.limits,
            started: Instant::now(),
            stats: Statistics::default(),
            stop: None,
        }
    }

    /// Hands every solution (the queen's column per row) to `on_solution`, in lexicographic
    /// order, until it returns `Break`.
    pub fn solve(&self, mut on_solution: impl FnMut(&[usize]) -> ControlFlow<()>) -> Summary {
        let mut walk = self.walk();
        let mut columns = vec![0usize; self.n];
        list(&mut walk, &mut columns, 0, 0, 0, 0, &mut on_solution);
        walk.finish()
    }

    /// Counts the solutions. A solution's mirror image has its first queen in the mirrored
    /// column, so only the left half of the first row is walked and doubled (plus the middle
    /// column of an odd board, counted once).
    pub fn count(&self) -> Summary {
        let mut walk = self.walk();
        let n = self.n;
        if n == 0 {
            walk.stats.solutions = 1;
            return walk.finish();
        }
        let mut doubled = 0u64;
        for column in 0..n / 2 {
            if walk.stop.is_some() || !walk.place() {
                break;
            }
            let bit = 1u64 << column;
            doubled += count_from(&mut walk, bit, bit << 1, bit >> 1);
        }
        let mut middle = 0u64;
        if n % 2 == 1 && walk.stop.is_none() && walk.place() {
            let bit = 1u64 << (n / 2);
            middle = count_from(&mut walk, bit, bit << 1, bit >> 1);
        }
        walk.stats.solutions = 2 * doubled + middle;
        if walk.stats.solutions > 0 {
            // A solution fills every row; the walk does not track depth otherwise.
            walk.stats.max_depth = n as u64;
        }
        walk.finish()
    }
}

/// Solutions below a partial board whose attacked squares in the next row are given by the
/// three masks (`down`: the "\" diagonals, shifted left each row; `up`: "/", shifted right).
fn count_from(walk: &mut Walk<'_>, columns: u64, down: u64, up: u64) -> u64 {
    if columns == walk.full {
        return 1;
    }
    let mut free = walk.full & !(columns | down | up);
    if free == 0 {
        walk.stats.backtracks += 1;
        return 0;
    }
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        if !walk.place() {
            return total;
        }
        total += count_from(walk, columns | bit, (down | bit) << 1, (up | bit) >> 1);
    }
    total
}

fn list(
    walk: &mut Walk<'_>,
    placed: &mut [usize],
    row: usize,
    columns: u64,
    down: u64,
    up: u64,
    on_solution: &mut impl FnMut(&[usize]) -> ControlFlow<()>,
) {
    if row == placed.len() {
        walk.stats.solutions += 1;
        if on_solution(placed).is_break() {
            walk.stop = Some(Outcome::Solved);
        }
        return;
    }
    let mut free = walk.full & !(columns | down | up);
    if free == 0 {
        walk.stats.backtracks += 1;
    }
    while free != 0 && walk.stop.is_none() {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        if !walk.place() {
            return;
        }
        walk.stats.max_depth = walk.stats.max_depth.max(row as u64 + 1);
        placed[row] = bit.trailing_zeros() as usize;
        list(
            walk,
            placed,
            row + 1,
            columns | bit,
            (down | bit) << 1,
            (up | bit) >> 1,
            on_solution,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    /// Every permutation of 0..n that places no two queens on a diagonal, by brute force.
    fn brute_force(n: usize) -> Vec<Vec<usize>> {
        fn extend(n: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if prefix.len() == n {
                if Board::new(prefix.clone()).is_ok() {
                    out.push(prefix.clone());
                }
                return;
            }
            for c in 0..n {
                if !prefix.contains(&c) {
                    prefix.push(c);
                    extend(n, prefix, out);
                    prefix.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn lists_exactly_the_brute_force_solutions_in_lexicographic_order() {
        for n in 0..=8 {
            let solver = Bitmask::new(n).unwrap();
            let mut listed = Vec::new();
            let summary = solver.solve(|s| {
                listed.push(s.to_vec());
                ControlFlow::Continue(())
            });
            assert_eq!(listed, brute_force(n), "n = {n}");
            assert_eq!(summary.outcome, Outcome::Exhausted);
            assert_eq!(
                solver.count().stats.solutions,
                listed.len() as u64,
                "n = {n}"
            );
        }
    }

    #[test]
    fn stops_on_break_and_on_the_node_limit() {
        let solver = Bitmask::new(8).unwrap();
        let mut seen = 0;
        let summary = solver.solve(|_| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert_eq!((seen, summary.outcome), (1, Outcome::Solved));
        let limited = Bitmask::new(12).unwrap().limits(Limits {
            nodes: Some(1000),
            ..Limits::default()
        });
        let summary = limited.count();
        assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Nodes));
        assert_eq!(summary.stats.nodes, 1000);
        assert!(Bitmask::new(65).is_none());
    }
}
