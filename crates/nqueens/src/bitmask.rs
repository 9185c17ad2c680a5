//! The classic bitmask N-Queens solver: three masks (columns and the two diagonal directions),
//! the free squares of a row as one word, and the lowest set bit taken first.
//!
//! It needs no engine, which makes it the oracle the engine is tested against. Boards come out
//! in lexicographic order of their column vectors, like the engine's with ascending values.

use csp::{Limit, Limits, Outcome, Statistics, Summary};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::class_units;

/// The limit a poll found, if any.
fn polled(limits: &Limits, started: Instant) -> Option<Limit> {
    limits.due(started)
}

/// The outcome a stop code (from `limit_code`, 0 for none) stands for.
fn outcome_of(code: u8) -> Outcome {
    match code {
        1 => Outcome::LimitReached(Limit::Cancelled),
        2 => Outcome::LimitReached(Limit::Time),
        3 => Outcome::LimitReached(Limit::Nodes),
        _ => Outcome::Exhausted,
    }
}

/// Every non-attacking placement of the first two queens with the first in columns
/// `0..first_columns`, in lexicographic order.
fn two_queen_prefixes(n: usize, first_columns: usize) -> Vec<(usize, usize)> {
    (0..first_columns)
        .flat_map(|a| {
            (0..n)
                .filter(move |&b| a.abs_diff(b) > 1)
                .map(move |b| (a, b))
        })
        .collect()
}

fn limit_code(limit: Limit) -> u8 {
    match limit {
        Limit::Cancelled => 1,
        Limit::Time => 2,
        Limit::Nodes => 3,
    }
}

/// The mask of a row's `n` squares.
pub(crate) fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The largest board the bitmask solver represents: one bit per column in a `u64`.
pub const MAX_N: usize = 64;

/// How often (in placements) the limits are polled; a power of two.
const POLL_MASK: u64 = (1 << 14) - 1;

/// The bitmask solver for one board size, with optional limits, threads and a shard.
#[derive(Clone, Debug)]
pub struct Bitmask {
    n: usize,
    limits: Limits,
    threads: usize,
    /// Count only part `index` (0-based) of `parts`.
    shard: Option<(usize, usize)>,
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
        self.limits.due(self.started)
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
            threads: 1,
            shard: None,
        })
    }

    /// Counts on this many threads (1: the calling thread only).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Counts only the `index`-th (0-based) of `parts` disjoint parts of the search tree; the
    /// parts' counts add up to the whole. `None` if `index >= parts`.
    pub fn shard(mut self, index: usize, parts: usize) -> Option<Self> {
        (index < parts).then(|| {
            self.shard = Some((index, parts));
            self
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
    /// order, until it returns `Break`. With several threads, subtrees below the first two
    /// rows are listed in parallel a window at a time and handed over in order.
    pub fn solve(&self, mut on_solution: impl FnMut(&[usize]) -> ControlFlow<()>) -> Summary {
        if self.threads > 1 && self.n >= 3 {
            return self.solve_parallel(&mut on_solution);
        }
        let mut walk = self.walk();
        let mut columns = vec![0usize; self.n];
        list(&mut walk, &mut columns, 0, 0, 0, 0, &mut on_solution);
        walk.finish()
    }

    fn solve_parallel(&self, on_solution: &mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> Summary {
        use rayon::prelude::*;
        let n = self.n;
        let started = Instant::now();
        let full = full_mask(n);
        // Every (first, second) placement, in lexicographic order: no mirror halving here.
        let prefixes = two_queen_prefixes(n, n);
        let pool = match rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
        {
            Ok(pool) => pool,
            Err(_) => {
                return Bitmask {
                    threads: 1,
                    ..self.clone()
                }
                .solve(on_solution)
            }
        };
        let mut stats = Statistics::default();
        let mut outcome = Outcome::Exhausted;
        let window = self.threads * 4;
        'windows: for chunk in prefixes.chunks(window) {
            if let Some(limit) = polled(&self.limits, started) {
                outcome = Outcome::LimitReached(limit);
                break;
            }
            let listed: Vec<(Vec<u8>, u64)> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|&(a, b)| {
                        let mut out = Vec::new();
                        let nodes = completions(n, full, a, b, &mut |q| {
                            out.extend(q.iter().map(|&c| c as u8));
                        });
                        (out, nodes)
                    })
                    .collect()
            });
            let mut columns = vec![0usize; n];
            for (solutions, nodes) in listed {
                stats.nodes += nodes;
                for solution in solutions.chunks(n) {
                    for (slot, &c) in columns.iter_mut().zip(solution) {
                        *slot = usize::from(c);
                    }
                    stats.solutions += 1;
                    if on_solution(&columns).is_break() {
                        outcome = Outcome::Solved;
                        break 'windows;
                    }
                }
            }
        }
        if stats.solutions > 0 {
            stats.max_depth = n as u64;
        }
        stats.elapsed = started.elapsed();
        Summary { outcome, stats }
    }

    /// Counts all solutions and the classes of solutions equal under rotation and reflection
    /// (of this shard, if one was chosen), on the chosen threads. See `class_units`: only each
    /// class's smallest board is searched for, which also makes this the fastest full count.
    pub fn count_classes(&self) -> (Summary, u64) {
        self.count_by_classes(&|_, _| {})
    }

    /// Counts the solutions (of this shard, if one was chosen), on the chosen threads. The
    /// time limit and the cancel flag are read between units of work; a node limit, which
    /// must stop on the dot, takes the slower exact walk.
    pub fn count(&self) -> Summary {
        self.count_with_progress(&|_, _| {})
    }

    /// As [`Bitmask::count`], calling `progress(done, total)` as units of work are finished
    /// (from whichever thread finished one), so that a caller can show how far it has got.
    pub fn count_with_progress(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> Summary {
        if self.limits.nodes.is_some() && self.shard.is_none() && self.threads == 1 {
            return self.count_exactly();
        }
        self.count_by_classes(progress).0
    }

    fn count_by_classes(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> (Summary, u64) {
        let started = Instant::now();
        let n = self.n;
        let (index, parts) = self.shard.unwrap_or((0, 1));
        if n < class_units::MIN_N {
            // Too small to cut: the first part lists them all and keeps each class's smallest.
            let (mut classes, mut scratch) = (0u64, Vec::new());
            let mut stats = Statistics::default();
            if index == 0 {
                let limits = Limits::default();
                stats = Bitmask {
                    limits,
                    ..self.clone()
                }
                .solve(|q| {
                    classes += u64::from(crate::symmetry::is_canonical(q, &mut scratch));
                    ControlFlow::Continue(())
                })
                .stats;
            }
            stats.elapsed = started.elapsed();
            let summary = Summary {
                outcome: Outcome::Exhausted,
                stats,
            };
            return (summary, classes);
        }
        let units = class_units::class_units(n);
        let mine: Vec<class_units::ClassUnit> = units
            .iter()
            .enumerate()
            .filter(|(i, _)| i % parts == index)
            .map(|(_, &unit)| unit)
            .collect();
        let stop = std::sync::atomic::AtomicU8::new(0);
        let done = std::sync::atomic::AtomicU64::new(0);
        let total = mine.len() as u64;
        let run = |unit: &class_units::ClassUnit| -> (u64, u64, u64) {
            if stop.load(Ordering::Relaxed) != 0 {
                return (0, 0, 0);
            }
            if let Some(limit) = polled(&self.limits, started) {
                stop.store(limit_code(limit), Ordering::Relaxed);
                return (0, 0, 0);
            }
            let counted = class_units::count_unit(n, *unit);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            counted
        };
        let sum = |a: (u64, u64, u64), b: (u64, u64, u64)| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
        let pool = (self.threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .build()
        });
        let (solutions, classes, nodes) = match pool {
            Some(Ok(pool)) => pool.install(|| {
                use rayon::prelude::*;
                mine.par_iter().map(run).reduce(|| (0, 0, 0), sum)
            }),
            _ => mine.iter().map(run).fold((0, 0, 0), sum),
        };
        // The first two rows' placements count too, in the first part.
        let top_nodes = if index == 0 {
            let first_rows = units
                .windows(2)
                .filter(|w| w[0].distance != w[1].distance)
                .count()
                + 1;
            (first_rows + units.len()) as u64
        } else {
            0
        };
        let mut stats = Statistics {
            solutions,
            nodes: nodes + top_nodes,
            ..Statistics::default()
        };
        if solutions > 0 {
            stats.max_depth = n as u64;
        }
        stats.elapsed = started.elapsed();
        let outcome = outcome_of(stop.load(Ordering::Relaxed));
        (Summary { outcome, stats }, classes)
    }

    /// Counts by the checked walk, which polls every limit as it goes. A solution's mirror
    /// image has its first queen in the mirrored column, so only the left half of the first
    /// row is walked and doubled (plus the middle column of an odd board, counted once).
    fn count_exactly(&self) -> Summary {
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

/// Hands every solution that starts with queens in columns `a` and `b` to `visit`, in
/// lexicographic order; returns the placements made below those two rows.
fn completions(n: usize, full: u64, a: usize, b: usize, visit: &mut dyn FnMut(&[usize])) -> u64 {
    let (first, second) = (1u64 << a, 1u64 << b);
    let mut placed = vec![0usize; n];
    placed[0] = a;
    placed[1] = b;
    let down = ((first << 1) | second) << 1;
    let up = ((first >> 1) | second) >> 1;
    below(full, &mut placed, 2, first | second, down, up, visit)
}

fn below(
    full: u64,
    placed: &mut [usize],
    row: usize,
    columns: u64,
    down: u64,
    up: u64,
    visit: &mut dyn FnMut(&[usize]),
) -> u64 {
    if row == placed.len() {
        visit(placed);
        return 0;
    }
    let mut free = full & !(columns | down | up);
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        placed[row] = bit.trailing_zeros() as usize;
        nodes += below(
            full,
            placed,
            row + 1,
            columns | bit,
            (down | bit) << 1,
            (up | bit) >> 1,
            visit,
        );
    }
    nodes
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
#[path = "tests/bitmask.rs"]
mod tests;
