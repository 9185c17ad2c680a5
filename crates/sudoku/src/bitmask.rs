//! `Bitmask`: a hand-written sudoku solver for grids up to 64x64, each cell's candidates in one
//! word, for when speed matters more than the engine's generality.
//!
//! It does what a person does, on bits: a cell with one candidate left removes it from its
//! row, column and box (naked single), and a value with one place left in a unit goes there
//! (hidden single). When neither applies it branches on a cell with the fewest candidates,
//! smallest value first. Changes go on a trail and are undone on backtracking, so the state
//! is never copied. Solutions come out in the same order as the engine's with `mrv` and
//! ascending values would give them only by chance; the set of solutions is the same, which
//! the tests check against the engine.

use crate::Grid;
use csp::{Limit, Limits, Outcome, Poller, Statistics, Summary};
use std::ops::ControlFlow;
use std::time::Instant;

/// The largest side the solver takes: one bit per value in a `u64`.
pub const MAX_SIDE: usize = 64;

/// The solver for one puzzle, with optional limits and a cap on solutions.
#[derive(Clone, Debug)]
pub struct Bitmask {
    box_size: usize,
    givens: Vec<u16>,
    limits: Limits,
    max_solutions: Option<u64>,
}

/// One open branching: the cell, the candidates still to try, and the trail length before.
struct Frame {
    cell: u32,
    untried: u64,
    mark: usize,
}

/// The search state: candidates per cell, the trail, the cells to propagate from, and the
/// units whose candidates changed since they were last read for hidden singles.
struct State<'a> {
    layout: &'a Layout,
    candidates: Vec<u64>,
    trail: Vec<(u32, u64)>,
    newly_fixed: Vec<u32>,
    is_dirty: Vec<bool>,
    dirty: Vec<u32>,
}

/// Which cells make up each unit, and the units of each cell.
struct Layout {
    side: usize,
    full: u64,
    /// `3 * side` units (rows, columns, boxes) of `side` cells each, flattened.
    units: Vec<u32>,
    /// For each cell, its row, column and box unit numbers.
    units_of: Vec<[u32; 3]>,
    /// For each cell, the other cells of its row, column and box, each once
    /// (`peer_count` per cell, flattened).
    peers: Vec<u32>,
    peer_count: usize,
}

impl Layout {
    fn new(box_size: usize) -> Self {
        let side = box_size * box_size;
        let full = if side == 64 {
            u64::MAX
        } else {
            (1u64 << side) - 1
        };
        let mut units = Vec::with_capacity(3 * side * side);
        for r in 0..side {
            units.extend((0..side).map(|c| (r * side + c) as u32));
        }
        for c in 0..side {
            units.extend((0..side).map(|r| (r * side + c) as u32));
        }
        for b in 0..side {
            let (top, left) = (b / box_size * box_size, b % box_size * box_size);
            units.extend(
                (0..side).map(|i| ((top + i / box_size) * side + left + i % box_size) as u32),
            );
        }
        let units_of = (0..side * side)
            .map(|cell| {
                let (r, c) = (cell / side, cell % side);
                let b = r / box_size * box_size + c / box_size;
                [r as u32, (side + c) as u32, (2 * side + b) as u32]
            })
            .collect();
        let mut layout = Layout {
            side,
            full,
            units,
            units_of,
            peers: Vec::new(),
            peer_count: 0,
        };
        // 2(side - 1) in the row and column, and the box's cells outside both.
        layout.peer_count = 2 * (side - 1) + (box_size - 1) * (box_size - 1);
        let mut peers = Vec::with_capacity(side * side * layout.peer_count);
        let mut seen = vec![usize::MAX; side * side];
        for cell in 0..side * side {
            for &u in &layout.units_of[cell] {
                for &peer in layout.unit(u as usize) {
                    if peer as usize != cell && seen[peer as usize] != cell {
                        seen[peer as usize] = cell;
                        peers.push(peer);
                    }
                }
            }
        }
        layout.peers = peers;
        layout
    }

    fn peers_of(&self, cell: usize) -> &[u32] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }

    fn unit(&self, u: usize) -> &[u32] {
        &self.units[u * self.side..(u + 1) * self.side]
    }
}

/// Propagation found a cell with no candidate or a value with no place.
struct Dead;

impl State<'_> {
    #[inline]
    fn set(&mut self, cell: usize, bits: u64) {
        self.trail.push((cell as u32, self.candidates[cell]));
        self.candidates[cell] = bits;
        if bits.is_power_of_two() {
            self.newly_fixed.push(cell as u32);
        }
        for &u in &self.layout.units_of[cell] {
            if !self.is_dirty[u as usize] {
                self.is_dirty[u as usize] = true;
                self.dirty.push(u);
            }
        }
    }

    fn forget_pending(&mut self) {
        self.newly_fixed.clear();
        for u in self.dirty.drain(..) {
            self.is_dirty[u as usize] = false;
        }
    }

    /// Removes `bits` from a cell's candidates.
    #[inline]
    fn remove(&mut self, cell: usize, bits: u64) -> Result<(), Dead> {
        let now = self.candidates[cell];
        if now & bits == 0 {
            return Ok(());
        }
        let left = now & !bits;
        if left == 0 {
            return Err(Dead);
        }
        self.set(cell, left);
        Ok(())
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some((cell, bits)) = self.trail.pop() {
                self.candidates[cell as usize] = bits;
            }
        }
        self.forget_pending();
    }

    /// Naked and hidden singles to a fixpoint.
    fn propagate(&mut self) -> Result<(), Dead> {
        let layout = self.layout;
        loop {
            while let Some(cell) = self.newly_fixed.pop() {
                let cell = cell as usize;
                let value = self.candidates[cell];
                for &peer in layout.peers_of(cell) {
                    self.remove(peer as usize, value)?;
                }
            }
            // Hidden singles: a value in exactly one cell of a unit goes there. Only units
            // whose candidates changed can have a new one (or a value with no place left).
            while let Some(u) = self.dirty.pop() {
                let u = u as usize;
                self.is_dirty[u] = false;
                if !self.newly_fixed.is_empty() {
                    // Naked singles first: they are cheaper, and they change this unit again.
                    self.is_dirty[u] = true;
                    self.dirty.push(u as u32);
                    break;
                }
                let (mut once, mut twice) = (0u64, 0u64);
                for &cell in layout.unit(u) {
                    let bits = self.candidates[cell as usize];
                    twice |= once & bits;
                    once |= bits;
                }
                if once != layout.full {
                    return Err(Dead);
                }
                let mut single = once & !twice;
                while single != 0 {
                    let value = single & single.wrapping_neg();
                    single ^= value;
                    for &cell in layout.unit(u) {
                        let bits = self.candidates[cell as usize];
                        if bits & value != 0 {
                            if bits != value {
                                self.set(cell as usize, value);
                            }
                            break;
                        }
                    }
                }
            }
            if self.newly_fixed.is_empty() && self.dirty.is_empty() {
                return Ok(());
            }
        }
    }

    /// The open cell with the fewest candidates, if any is open.
    fn branching_cell(&self) -> Option<usize> {
        let mut best: Option<(usize, u32)> = None;
        for (cell, &bits) in self.candidates.iter().enumerate() {
            let count = bits.count_ones();
            if count > 1 && best.is_none_or(|(_, c)| count < c) {
                best = Some((cell, count));
                if count == 2 {
                    break;
                }
            }
        }
        best.map(|(cell, _)| cell)
    }
}

impl Bitmask {
    /// A solver for `puzzle`, or `None` when its side exceeds [`MAX_SIDE`].
    pub fn new(puzzle: &Grid) -> Option<Self> {
        (puzzle.side() <= MAX_SIDE).then(|| Bitmask {
            box_size: puzzle.box_size(),
            givens: puzzle.cells().to_vec(),
            limits: Limits::default(),
            max_solutions: None,
        })
    }

    /// Stops on these limits (nodes are branchings).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Stops after this many solutions (`None`: all).
    pub fn max_solutions(mut self, max: Option<u64>) -> Self {
        self.max_solutions = max;
        self
    }

    /// Hands each solution to `on_solution` until it returns `Break`, all are found, or a
    /// limit stops the search.
    pub fn solve(&self, mut on_solution: impl FnMut(&Grid) -> ControlFlow<()>) -> Summary {
        let started = Instant::now();
        let mut limits = self.limits.clone();
        limits.since.get_or_insert(started);
        // One tick per branching: a branching of a 64x64 grid propagates over 4,096 cells, of
        // a 9x9 one over 81, and the poller's interval follows.
        let mut poller = Poller::new(&limits);
        let mut stats = Statistics::default();
        let layout = Layout::new(self.box_size);
        let mut state = State {
            layout: &layout,
            candidates: vec![layout.full; self.givens.len()],
            trail: Vec::new(),
            newly_fixed: Vec::new(),
            is_dirty: vec![false; 3 * layout.side],
            dirty: Vec::new(),
        };
        let finish = |mut stats: Statistics, outcome| {
            stats.elapsed = started.elapsed();
            Summary { outcome, stats }
        };
        if self.max_solutions == Some(0) {
            return finish(stats, Outcome::Solved);
        }
        for (cell, &given) in self.givens.iter().enumerate() {
            if given != 0 {
                let bit = 1u64 << (given - 1);
                if state.candidates[cell] & bit == 0 {
                    return finish(stats, Outcome::Exhausted);
                }
                state.set(cell, bit);
            }
        }
        if state.propagate().is_err() {
            return finish(stats, Outcome::Exhausted);
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut descend = true;
        loop {
            if descend {
                match state.branching_cell() {
                    None => {
                        stats.solutions += 1;
                        stats.max_depth = stats.max_depth.max(frames.len() as u64);
                        if self.report(&state, &mut on_solution).is_break()
                            || self.max_solutions.is_some_and(|m| stats.solutions >= m)
                        {
                            return finish(stats, Outcome::Solved);
                        }
                    }
                    Some(cell) => frames.push(Frame {
                        cell: cell as u32,
                        untried: state.candidates[cell],
                        mark: state.trail.len(),
                    }),
                }
            }
            let Some(frame) = frames.last_mut() else {
                return finish(stats, Outcome::Exhausted);
            };
            state.undo(frame.mark);
            if frame.untried == 0 {
                frames.pop();
                descend = false;
                continue;
            }
            if let Some(limit) = self.limit_hit(&stats, &mut poller) {
                return finish(stats, Outcome::LimitReached(limit));
            }
            let value = frame.untried & frame.untried.wrapping_neg();
            frame.untried ^= value;
            let cell = frame.cell as usize;
            stats.nodes += 1;
            state.set(cell, value);
            descend = state.propagate().is_ok();
            if descend {
                stats.max_depth = stats.max_depth.max(frames.len() as u64);
            } else {
                stats.backtracks += 1;
            }
        }
    }

    fn limit_hit(&self, stats: &Statistics, poller: &mut Poller) -> Option<Limit> {
        if self.limits.nodes.is_some_and(|n| stats.nodes >= n) {
            return Some(Limit::Nodes);
        }
        if poller.tick() {
            None
        } else {
            poller.stopped()
        }
    }

    fn report(
        &self,
        state: &State<'_>,
        on_solution: &mut impl FnMut(&Grid) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let cells = state
            .candidates
            .iter()
            .map(|&bits| bits.trailing_zeros() as u16 + 1)
            .collect();
        match Grid::new(self.box_size, cells) {
            Ok(grid) => on_solution(&grid),
            Err(_) => ControlFlow::Continue(()),
        }
    }
}

#[cfg(test)]
#[path = "tests/bitmask.rs"]
mod tests;
