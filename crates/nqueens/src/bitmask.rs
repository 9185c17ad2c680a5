//! The classic bitmask N-Queens solver: three masks (columns and the two diagonal directions),
//! the free squares of a row as one word, and the lowest set bit taken first.
//!
//! It needs no engine, which makes it the oracle the engine is tested against. Boards come out
//! in lexicographic order of their column vectors, like the engine's with ascending values.
//! Every walk ticks a [`Poller`], so a time limit or a cancel request stops it within
//! milliseconds at any board size and thread count, with what it has found so far.

use crate::class_units::{self, full_mask, UnitCount};
use csp::{Limit, Limits, Outcome, Poller, Statistics, Summary};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The largest board the bitmask solver represents: one bit per column in a `u64`.
pub const MAX_N: usize = 64;

/// The row at which shards deal out subtrees: below the first two queens, as the engine's
/// [`csp::SHARD_DEPTH`].
const SHARD_ROW: usize = csp::SHARD_DEPTH;

/// Solutions a listing thread hands over in one message.
const BATCH_SOLUTIONS: usize = 512;

/// Batches of one subtree that may wait for the caller; a listing thread that gets this far
/// ahead waits too, so memory does not grow with the number of solutions.
const BATCHES_IN_FLIGHT: usize = 2;

/// Subtrees per thread that the listing threads may work on beyond the one being handed over.
const SUBTREES_AHEAD_PER_THREAD: usize = 4;

/// How long the caller waits for a listing thread before it reads the limits again.
const HANDOVER_WAIT: Duration = Duration::from_millis(1);

/// Every non-attacking placement of the first two queens, in lexicographic order.
fn two_queen_prefixes(n: usize) -> Vec<(usize, usize)> {
    (0..n)
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

/// The outcome a stop code (from `limit_code`, 0 for none) stands for.
fn outcome_of(code: u8) -> Outcome {
    match code {
        1 => Outcome::LimitReached(Limit::Cancelled),
        2 => Outcome::LimitReached(Limit::Time),
        3 => Outcome::LimitReached(Limit::Nodes),
        _ => Outcome::Exhausted,
    }
}

/// The bitmask solver for one board size, with optional limits, threads and a shard.
#[derive(Clone, Debug)]
pub struct Bitmask {
    n: usize,
    limits: Limits,
    threads: usize,
    /// Count only part `index` (0-based) of `parts`.
    shard: Option<(usize, usize)>,
}

/// The listing walk's running state: counters, limits, the shard it keeps, and whether a limit
/// or the caller stopped it.
struct Walk {
    full: u64,
    poller: Poller,
    node_limit: Option<u64>,
    stats: Statistics,
    stop: Option<Outcome>,
    /// Keep only the subtrees below row [`SHARD_ROW`] whose ordinal is `.0` modulo `.1`.
    shard: Option<(usize, usize)>,
    ordinal: usize,
}

impl Walk {
    /// Reads the limits (now and then) and counts a placement: false once the walk must stop.
    #[inline]
    fn place(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        if !self.poller.tick() {
            let limit = self.poller.stopped().unwrap_or(Limit::Cancelled);
            self.stop = Some(Outcome::LimitReached(limit));
            return false;
        }
        if self.node_limit.is_some_and(|max| self.stats.nodes >= max) {
            self.stop = Some(Outcome::LimitReached(Limit::Nodes));
            return false;
        }
        self.stats.nodes += 1;
        true
    }

    /// Whether the subtree about to be entered at `row` is this walk's to explore.
    #[inline]
    fn keeps_subtree(&mut self, row: usize) -> bool {
        let Some((index, parts)) = self.shard else {
            return true;
        };
        if row != SHARD_ROW {
            return true;
        }
        let ordinal = self.ordinal;
        self.ordinal += 1;
        ordinal % parts == index
    }

    /// Whether a finished board at `row` is this walk's: one finished above the cut is seen
    /// by every part, and only part 0 keeps it.
    fn keeps_board(&self, row: usize) -> bool {
        row >= SHARD_ROW || self.shard.is_none_or(|(index, _)| index == 0)
    }

    fn finish(self, started: Instant) -> Summary {
        let mut stats = self.stats;
        stats.elapsed = started.elapsed();
        Summary {
            outcome: self.stop.unwrap_or(Outcome::Exhausted),
            stats,
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

    /// Works on this many threads (1: the calling thread only).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Explores only the `index`-th (0-based) of `parts` disjoint parts of the search tree;
    /// the parts' solutions add up to the whole. `None` if `index >= parts`.
    pub fn shard(mut self, index: usize, parts: usize) -> Option<Self> {
        (index < parts).then(|| {
            self.shard = Some((index, parts));
            self
        })
    }

    /// Stops on these limits (nodes are placements). The time limit and the cancel flag are
    /// read every millisecond or so on every thread. A node limit, which must stop on the
    /// dot, makes every walk run on the calling thread alone.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits with the time limit counted from `started` unless it counts from earlier.
    fn limits_from(&self, started: Instant) -> Limits {
        let mut limits = self.limits.clone();
        limits.since.get_or_insert(started);
        limits
    }

    fn walk(&self, started: Instant) -> Walk {
        Walk {
            full: full_mask(self.n),
            poller: Poller::new(&self.limits_from(started)),
            node_limit: self.limits.nodes,
            stats: Statistics::default(),
            stop: None,
            shard: self.shard,
            ordinal: 0,
        }
    }

    /// Hands every solution (of this shard, if one was chosen; the queen's column per row) to
    /// `on_solution`, in lexicographic order, until it returns `Break`. With several threads,
    /// subtrees below the first two rows are listed in parallel and handed over in order.
    pub fn solve(&self, mut on_solution: impl FnMut(&[usize]) -> ControlFlow<()>) -> Summary {
        if self.threads > 1 && self.n >= 3 && self.limits.nodes.is_none() {
            return self.solve_parallel(&mut on_solution);
        }
        let started = Instant::now();
        let mut walk = self.walk(started);
        let mut placed = vec![0usize; self.n];
        list(&mut walk, &mut placed, 0, 0, 0, 0, &mut on_solution);
        walk.finish(started)
    }

    /// Lists on `self.threads` threads, each taking the next subtree below the first two rows
    /// and sending its solutions in batches over a bounded channel of its own; the calling
    /// thread drains the channels in subtree order. A thread that gets too far ahead of the
    /// caller waits, so memory stays bounded however many solutions there are.
    fn solve_parallel(&self, on_solution: &mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> Summary {
        let started = Instant::now();
        let n = self.n;
        let limits = self.limits_from(started);
        let (index, parts) = self.shard.unwrap_or((0, 1));
        let prefixes: Vec<(usize, usize)> = two_queen_prefixes(n)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % parts == index)
            .map(|(_, prefix)| prefix)
            .collect();
        // The listing threads read the caller's time limit, and a flag of their own that the
        // caller sets when it is done, or when it sees the caller's cancel flag.
        let abandon = Arc::new(AtomicBool::new(false));
        let worker_limits = limits.cancelled_by(&abandon).with_nodes(None);
        let (senders, receivers): (Vec<_>, Vec<_>) = prefixes
            .iter()
            .map(|_| mpsc::sync_channel::<Batch>(BATCHES_IN_FLIGHT))
            .unzip();
        let shared = Listing {
            n,
            prefixes: &prefixes,
            senders: senders.into_iter().map(|s| Mutex::new(Some(s))).collect(),
            gate: Gate::default(),
            window: self.threads * SUBTREES_AHEAD_PER_THREAD,
            limits: worker_limits,
            nodes: AtomicU64::new(0),
            backtracks: AtomicU64::new(0),
            max_depth: AtomicU64::new(0),
        };
        let mut stats = Statistics::default();
        let mut outcome = Outcome::Exhausted;
        std::thread::scope(|scope| {
            for _ in 0..self.threads {
                scope.spawn(|| shared.work());
            }
            let mut poller = Poller::new(&limits);
            let mut columns = vec![0usize; n];
            'subtrees: for (i, receiver) in receivers.iter().enumerate() {
                loop {
                    let batch = match receiver.recv_timeout(HANDOVER_WAIT) {
                        Ok(batch) => batch,
                        Err(RecvTimeoutError::Timeout) => {
                            if !poller.check() {
                                let limit = poller.stopped().unwrap_or(Limit::Cancelled);
                                outcome = Outcome::LimitReached(limit);
                                break 'subtrees;
                            }
                            continue;
                        }
                        // Only a thread that stopped early drops its sender unsent.
                        Err(RecvTimeoutError::Disconnected) => {
                            outcome = Outcome::LimitReached(Limit::Cancelled);
                            break 'subtrees;
                        }
                    };
                    for solution in batch.columns.chunks(n) {
                        if !poller.tick() {
                            let limit = poller.stopped().unwrap_or(Limit::Cancelled);
                            outcome = Outcome::LimitReached(limit);
                            break 'subtrees;
                        }
                        for (slot, &c) in columns.iter_mut().zip(solution) {
                            *slot = usize::from(c);
                        }
                        stats.solutions += 1;
                        if on_solution(&columns).is_break() {
                            outcome = Outcome::Solved;
                            break 'subtrees;
                        }
                    }
                    if let Some(limit) = batch.stopped {
                        outcome = Outcome::LimitReached(limit);
                        break 'subtrees;
                    }
                    if batch.last {
                        shared.gate.handed_over(i + 1);
                        break;
                    }
                }
            }
            abandon.store(true, Ordering::Relaxed);
            shared.gate.close();
            // Threads blocked on a full channel see it closed and stop.
            drop(receivers);
        });
        stats.nodes = shared.nodes.load(Ordering::Relaxed);
        stats.backtracks = shared.backtracks.load(Ordering::Relaxed);
        stats.max_depth = shared.max_depth.load(Ordering::Relaxed);
        stats.elapsed = started.elapsed();
        Summary { outcome, stats }
    }

    /// Counts all solutions and the classes of solutions equal under rotation and reflection
    /// (of this shard, if one was chosen), on the chosen threads. See `class_units`: only each
    /// class's smallest board is searched for, which also makes this the fastest full count.
    pub fn count_classes(&self) -> (Summary, u64) {
        self.count_both(&|_, _| {})
    }

    /// Counts the solutions (of this shard, if one was chosen), on the chosen threads.
    pub fn count(&self) -> Summary {
        self.count_with_progress(&|_, _| {})
    }

    /// As [`Bitmask::count`], calling `progress(done, total)` as units of work are finished
    /// (from whichever thread finished one), so that a caller can show how far it has got.
    pub fn count_with_progress(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> Summary {
        self.count_both(progress).0
    }

    /// A node limit, which must stop on the dot, and boards too small to cut into units take
    /// the listing walk on one thread; everything else counts by classes.
    fn count_both(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> (Summary, u64) {
        if self.limits.nodes.is_some() || self.n < class_units::MIN_N {
            self.count_by_listing()
        } else {
            self.count_by_classes(progress)
        }
    }

    /// Lists every board and keeps each class's smallest.
    fn count_by_listing(&self) -> (Summary, u64) {
        let started = Instant::now();
        let (mut classes, mut scratch) = (0u64, Vec::new());
        let mut walk = self.walk(started);
        let mut placed = vec![0usize; self.n];
        list(&mut walk, &mut placed, 0, 0, 0, 0, &mut |q| {
            classes += u64::from(crate::symmetry::is_canonical(q, &mut scratch));
            ControlFlow::Continue(())
        });
        (walk.finish(started), classes)
    }

    fn count_by_classes(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> (Summary, u64) {
        let started = Instant::now();
        let limits = self.limits_from(started);
        let n = self.n;
        let (index, parts) = self.shard.unwrap_or((0, 1));
        let units = class_units::class_units(n);
        let mine: Vec<class_units::ClassUnit> = units
            .iter()
            .enumerate()
            .filter(|(i, _)| i % parts == index)
            .map(|(_, &unit)| unit)
            .collect();
        let stop = AtomicU8::new(0);
        let done = AtomicU64::new(0);
        let total = mine.len() as u64;
        progress(0, total);
        // Each thread keeps its own poller across units, so that its interval stays tuned.
        let note_stop = |poller: &Poller| {
            if let Some(limit) = poller.stopped() {
                let code = limit_code(limit);
                let _ = stop.compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
            }
        };
        let run = |poller: &mut Poller, unit: &class_units::ClassUnit| -> UnitCount {
            if stop.load(Ordering::Relaxed) != 0 {
                return UnitCount::default();
            }
            if !poller.tick() {
                note_stop(poller);
                return UnitCount::default();
            }
            let counted = class_units::count_unit(n, *unit, poller);
            if poller.is_stopped() {
                note_stop(poller);
            } else {
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            }
            counted
        };
        let pool = (self.threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .build()
        });
        let counted = match pool {
            Some(Ok(pool)) => pool.install(|| {
                use rayon::prelude::*;
                mine.par_iter()
                    .map_init(|| Poller::new(&limits), run)
                    .reduce(UnitCount::default, UnitCount::add)
            }),
            _ => {
                let mut poller = Poller::new(&limits);
                mine.iter()
                    .map(|unit| run(&mut poller, unit))
                    .fold(UnitCount::default(), UnitCount::add)
            }
        };
        // A unit that stopped before it began still had its first two rows placed above it.
        // The first two rows' placements count in the first part.
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
        let stats = Statistics {
            solutions: counted.solutions,
            nodes: counted.nodes + top_nodes,
            backtracks: counted.backtracks,
            max_depth: counted.max_depth,
            elapsed: started.elapsed(),
            ..Statistics::default()
        };
        let outcome = outcome_of(stop.load(Ordering::Relaxed));
        (Summary { outcome, stats }, counted.classes)
    }
}

/// What the listing threads share.
struct Listing<'p> {
    n: usize,
    prefixes: &'p [(usize, usize)],
    /// Subtree `i`'s channel, taken by the thread that lists it.
    senders: Vec<Mutex<Option<SyncSender<Batch>>>>,
    gate: Gate,
    window: usize,
    limits: Limits,
    nodes: AtomicU64,
    backtracks: AtomicU64,
    max_depth: AtomicU64,
}

/// Some solutions of one subtree, `n` columns each; the last batch of a subtree says so, or
/// says which limit cut the subtree short.
struct Batch {
    columns: Vec<u8>,
    last: bool,
    stopped: Option<Limit>,
}

impl Listing<'_> {
    /// One listing thread: takes subtrees in order until there are none left or the caller
    /// is done.
    fn work(&self) {
        let n = self.n;
        let mut poller = Poller::new(&self.limits);
        let mut placed = vec![0usize; n];
        while let Some(i) = self.gate.take(self.window, self.prefixes.len()) {
            let sender = self.senders[i]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            let Some(sender) = sender else {
                continue;
            };
            let (a, b) = self.prefixes[i];
            // The first two queens: the second always, the first when it is new.
            let new_first = i == 0 || self.prefixes[i - 1].0 != a;
            let top = 1 + u64::from(new_first);
            let mut walk = Walk {
                full: full_mask(n),
                poller,
                node_limit: None,
                stats: Statistics {
                    nodes: top,
                    max_depth: 2,
                    ..Statistics::default()
                },
                stop: None,
                shard: None,
                ordinal: 0,
            };
            placed[0] = a;
            placed[1] = b;
            let (first, second) = (1u64 << a, 1u64 << b);
            let down = ((first << 1) | second) << 1;
            let up = ((first >> 1) | second) >> 1;
            let mut columns = Vec::with_capacity(BATCH_SOLUTIONS * n);
            let mut hand_over = |q: &[usize]| {
                columns.extend(q.iter().map(|&c| c as u8));
                if columns.len() < BATCH_SOLUTIONS * n {
                    return ControlFlow::Continue(());
                }
                let full = std::mem::replace(&mut columns, Vec::with_capacity(BATCH_SOLUTIONS * n));
                let batch = Batch {
                    columns: full,
                    last: false,
                    stopped: None,
                };
                match sender.send(batch) {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(_) => ControlFlow::Break(()),
                }
            };
            list(
                &mut walk,
                &mut placed,
                2,
                first | second,
                down,
                up,
                &mut hand_over,
            );
            let stopped = match walk.stop {
                Some(Outcome::LimitReached(limit)) => Some(limit),
                _ => None,
            };
            self.nodes.fetch_add(walk.stats.nodes, Ordering::Relaxed);
            self.backtracks
                .fetch_add(walk.stats.backtracks, Ordering::Relaxed);
            self.max_depth
                .fetch_max(walk.stats.max_depth, Ordering::Relaxed);
            let last = Batch {
                columns,
                last: true,
                stopped,
            };
            if sender.send(last).is_err() || walk.stop.is_some() {
                return;
            }
            poller = walk.poller;
        }
    }
}

/// Hands out subtree numbers in order, at most `window` beyond those handed over.
#[derive(Default)]
struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    next: usize,
    handed_over: usize,
    closed: bool,
}

impl Gate {
    /// The next subtree to list, once it is within the window; `None` when there are no more
    /// or the caller is done.
    fn take(&self, window: usize, total: usize) -> Option<usize> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if state.closed || state.next >= total {
                return None;
            }
            if state.next < state.handed_over + window {
                state.next += 1;
                return Some(state.next - 1);
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn handed_over(&self, count: usize) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .handed_over = count;
        self.changed.notify_all();
    }

    fn close(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .closed = true;
        self.changed.notify_all();
    }
}

/// The one listing walk: every board below a partial one (queens on rows `..row`, attacked
/// squares of row `row` given by the three masks: `down` the "\" diagonals, shifted left each
/// row; `up` the "/" ones, shifted right), in lexicographic order.
fn list(
    walk: &mut Walk,
    placed: &mut [usize],
    row: usize,
    columns: u64,
    down: u64,
    up: u64,
    on_solution: &mut impl FnMut(&[usize]) -> ControlFlow<()>,
) {
    if row == placed.len() {
        if walk.keeps_board(row) {
            walk.stats.solutions += 1;
            if on_solution(placed).is_break() {
                walk.stop = Some(Outcome::Solved);
            }
        }
        return;
    }
    if !walk.keeps_subtree(row) {
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
