//! `BlankModels`, the rules of each grid size built once and shared, and `Sessions`, one search
//! session per size on them, so that a run of many puzzles sets the engine up once a size.

use crate::{Grid, SudokuModel};
use csp::{Model, ModelError, Session, Solver, Summary};
use std::ops::ControlFlow;
use std::sync::OnceLock;

/// The blank model of each box size met so far, built on first use and shared by the puzzles
/// (and threads) that assume their givens on it.
#[derive(Debug)]
pub struct BlankModels {
    slots: Vec<OnceLock<SudokuModel>>,
}

impl BlankModels {
    /// The largest box size kept (a 4,096x4,096 grid; a model of any size that large is
    /// refused as too large anyway).
    pub const MAX_BOX: usize = 64;

    /// None built yet.
    pub fn new() -> Self {
        BlankModels {
            slots: (0..=Self::MAX_BOX).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The rules for grids of `box_size`, built on first use and kept.
    pub fn get(&self, box_size: usize) -> Result<&SudokuModel, ModelError> {
        let Some(slot) = self.slots.get(box_size) else {
            return Err(ModelError::TooLarge {
                needed: SudokuModel::estimated_bytes(box_size * box_size),
                max: crate::MAX_MODEL_BYTES,
            });
        };
        if let Some(model) = slot.get() {
            return Ok(model);
        }
        // Built outside the lock: two threads meeting a new size may both build it, and
        // one keeps its model; the other's is dropped.
        let model = SudokuModel::blank(box_size)?;
        Ok(slot.get_or_init(|| model))
    }
}

impl Default for BlankModels {
    fn default() -> Self {
        Self::new()
    }
}

/// One [`Session`] per grid size on the [`BlankModels`] `'m`, set up on first use: a plain
/// solve of the next puzzle of that size reuses the engine's state instead of setting it up.
pub struct Sessions<'m> {
    models: &'m BlankModels,
    sessions: Vec<(&'m SudokuModel, Session<'m>)>,
}

impl<'m> Sessions<'m> {
    /// No session yet, on `models`.
    pub fn new(models: &'m BlankModels) -> Self {
        Sessions {
            models,
            sessions: Vec::new(),
        }
    }

    /// Solves `grid` on the session of its size: its summary and its first solution. On a
    /// size's first puzzle, `solver` turns the blank model into the solver whose settings
    /// (inference, orders, solutions wanted, limits) the session keeps.
    pub fn solve(
        &mut self,
        grid: &Grid,
        solver: impl FnOnce(&'m Model) -> Solver<'m>,
    ) -> Result<(Summary, Option<Grid>), ModelError> {
        let box_size = grid.box_size();
        let at = match self
            .sessions
            .iter()
            .position(|(model, _)| model.box_size() == box_size)
        {
            Some(at) => at,
            None => {
                let model = self.models.get(box_size)?;
                self.sessions.push((model, solver(&model.model).session()));
                self.sessions.len() - 1
            }
        };
        let (model, session) = &mut self.sessions[at];
        let mut first: Option<Grid> = None;
        let summary = session.solve(&model.givens(grid), |s| {
            if first.is_none() {
                first = Some(model.grid(s));
            }
            ControlFlow::Continue(())
        });
        Ok((summary, first))
    }
}
