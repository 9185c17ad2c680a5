//! Local search for one solution of very large boards: a permutation repaired by swaps that
//! reduce diagonal collisions (after Sosic and Gu's QS4, 1991), with O(1) conflict counters.
//!
//! The queens always form a permutation, so rows and columns never clash; only the two
//! diagonal directions do, and a counter per diagonal says how many queens stand on it.
//! Most queens are placed without any collision by a randomised greedy pass; the few left
//! over are then swapped with random partners whenever the swap lowers the collision count.

use csp::{Limit, Limits, Poller, Statistics};
use std::time::Instant;

/// The greedy pass gives up after this many draws per queen: Sosic and Gu's constant, beyond
/// which almost no further queen finds a free square.
const GREEDY_DRAWS_PER_QUEEN: f64 = 3.08;

/// A seeded xorshift generator: fast, and reproducible for a given seed.
struct Xorshift(u64);

impl Xorshift {
    fn new(seed: u64) -> Self {
        Xorshift((seed ^ 0x9E37_79B9_7F4A_7C15).max(1))
    }

    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (((self.0 >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// The board being repaired.
struct Board {
    n: u32,
    queens: Vec<u32>,
    /// Queens on each "/" diagonal (row + column) and "\" diagonal (row - column + n - 1).
    up: Vec<u32>,
    down: Vec<u32>,
}

impl Board {
    #[inline]
    fn up_index(&self, row: u32, column: u32) -> usize {
        (row + column) as usize
    }

    #[inline]
    fn down_index(&self, row: u32, column: u32) -> usize {
        (row + self.n - 1 - column) as usize
    }

    #[inline]
    fn add(&mut self, row: u32, column: u32) {
        let (u, d) = (self.up_index(row, column), self.down_index(row, column));
        self.up[u] += 1;
        self.down[d] += 1;
    }

    #[inline]
    fn remove(&mut self, row: u32, column: u32) {
        let (u, d) = (self.up_index(row, column), self.down_index(row, column));
        self.up[u] -= 1;
        self.down[d] -= 1;
    }

    /// Collisions a queen at (row, column) would join, if it were added.
    #[inline]
    fn joins(&self, row: u32, column: u32) -> i64 {
        i64::from(self.up[self.up_index(row, column)] >= 1)
            + i64::from(self.down[self.down_index(row, column)] >= 1)
    }

    /// Collisions the queen at (row, column) takes part in beyond the first on each diagonal.
    #[inline]
    fn shares(&self, row: u32, column: u32) -> i64 {
        i64::from(self.up[self.up_index(row, column)] >= 2)
            + i64::from(self.down[self.down_index(row, column)] >= 2)
    }

    #[inline]
    fn attacked(&self, row: u32) -> bool {
        self.shares(row, self.queens[row as usize]) > 0
    }

    /// Swaps the columns of rows `i` and `j` if that lowers the collisions; the change made.
    fn try_swap(&mut self, i: u32, j: u32) -> i64 {
        let (a, b) = (self.queens[i as usize], self.queens[j as usize]);
        let mut delta = -self.shares(i, a);
        self.remove(i, a);
        delta -= self.shares(j, b);
        self.remove(j, b);
        delta += self.joins(i, b);
        self.add(i, b);
        delta += self.joins(j, a);
        self.add(j, a);
        if delta < 0 {
            self.queens.swap(i as usize, j as usize);
            return delta;
        }
        self.remove(i, b);
        self.remove(j, a);
        self.add(i, a);
        self.add(j, b);
        0
    }
}

/// Finds one solution of the `n`-queens problem (`n` = 1 or `n` >= 4), column per row, or the
/// limit that stopped the search, with the figures of the search either way: `nodes` are the
/// swaps tried, `moves` the swaps made, `restarts` the starts after the first, and a solution
/// has every queen placed (`max_depth` = n). A node limit counts starts. Boards with no
/// solution (2, 3) are the caller's to refuse. The time limit and the cancel flag are read
/// about every millisecond, in every phase.
pub fn solve(n: u32, seed: u64, limits: &Limits) -> (Result<Vec<u32>, Limit>, Statistics) {
    let started = Instant::now();
    let mut poller = Poller::new(limits);
    let mut rng = Xorshift::new(seed);
    let mut stats = Statistics::default();
    let mut attempts = 0u64;
    let found = loop {
        attempts += 1;
        match attempt(n, &mut rng, &mut poller, &mut stats) {
            Err(limit) => break Err(limit),
            Ok(Some(found)) => {
                stats.solutions = 1;
                stats.max_depth = u64::from(n);
                break Ok(found);
            }
            Ok(None) => {}
        }
        if limits.nodes.is_some_and(|k| attempts >= k) {
            break Err(Limit::Nodes);
        }
        stats.restarts += 1;
    };
    stats.elapsed = started.elapsed();
    (found, stats)
}

/// The limit the poller stopped on.
fn stopped(poller: &Poller) -> Limit {
    poller.stopped().unwrap_or(Limit::Cancelled)
}

/// One greedy start and its repair; `None` when it got stuck in a local minimum. Each draw,
/// row and swap tried is a tick of `poller`.
fn attempt(
    n: u32,
    rng: &mut Xorshift,
    poller: &mut Poller,
    stats: &mut Statistics,
) -> Result<Option<Vec<u32>>, Limit> {
    let size = 2 * n as usize;
    let mut queens = Vec::with_capacity(n as usize);
    for row in 0..n {
        queens.push(row);
        if !poller.tick() {
            return Err(stopped(poller));
        }
    }
    let mut board = Board {
        n,
        queens,
        up: vec![0; size],
        down: vec![0; size],
    };
    let budget = (GREEDY_DRAWS_PER_QUEEN * f64::from(n)) as u64;
    let (mut placed, mut draws) = (0u32, 0u64);
    while placed < n && draws < budget {
        if !poller.tick() {
            return Err(stopped(poller));
        }
        let k = placed + rng.below(n - placed);
        board.queens.swap(placed as usize, k as usize);
        draws += 1;
        let column = board.queens[placed as usize];
        if board.joins(placed, column) == 0 {
            board.add(placed, column);
            placed += 1;
        }
    }
    let mut collisions = 0i64;
    for row in placed..n {
        let column = board.queens[row as usize];
        collisions += board.joins(row, column);
        board.add(row, column);
    }
    while collisions > 0 {
        let before = collisions;
        for i in 0..n {
            if collisions == 0 {
                break;
            }
            if !poller.tick() {
                return Err(stopped(poller));
            }
            if !board.attacked(i) {
                continue;
            }
            for _ in 0..2 * n {
                if !poller.tick() {
                    return Err(stopped(poller));
                }
                let j = rng.below(n);
                if j == i {
                    continue;
                }
                stats.nodes += 1;
                let delta = board.try_swap(i, j);
                if delta < 0 {
                    stats.moves += 1;
                    collisions += delta;
                    break;
                }
            }
        }
        if collisions == before {
            return Ok(None);
        }
    }
    Ok(Some(board.queens))
}

/// Whether `columns` places non-attacking queens, checked in O(n) (see
/// [`attack_free`](crate::attack_free)).
pub fn verify(columns: &[u32]) -> bool {
    crate::attack_free(columns, &mut Vec::new())
}

#[cfg(test)]
#[path = "tests/min_conflicts.rs"]
mod tests;
