//! `SudokuModel`: a grid as b⁴ variables and 3b² all_different constraints on the engine.

use crate::Grid;
use csp::{Model, ModelError, Solution, VarId};

/// The CSP of one puzzle: a variable per cell (a given's domain is its value), and one
/// all_different per row, column and box, named for traces.
#[derive(Debug)]
pub struct SudokuModel {
    /// The model to solve.
    pub model: Model,
    /// The cell variables, row by row.
    pub cells: Vec<VarId>,
    box_size: usize,
}

/// The most memory a puzzle's search may take, in bytes: 2 GiB, which lets a 400x400 grid run
/// (about 1 GB) and refuses a 625x625 one (about 3.6 GB measured) before anything is allocated.
pub const MAX_MODEL_BYTES: u64 = 2 << 30;

impl SudokuModel {
    /// About how many bytes solving a grid of this side takes. Measured peaks (GNU time, mac,
    /// 2026-11-22): 269 MB for 256x256, 962 MB for 400x400, 3.57 GB for 625x625; about 16
    /// bytes per cell and value, nearly all of it the matching graphs of the all_different
    /// filters (one per row, column and box, each side x side).
    pub fn estimated_bytes(side: usize) -> u64 {
        let side = side as u64;
        16u64.saturating_mul(side.saturating_pow(3)) + (1 << 20)
    }

    /// Builds the model of `puzzle`, or refuses one whose search would need more than
    /// [`MAX_MODEL_BYTES`].
    pub fn new(puzzle: &Grid) -> Result<Self, ModelError> {
        let side = puzzle.side();
        let needed = Self::estimated_bytes(side);
        if needed > MAX_MODEL_BYTES {
            return Err(ModelError::TooLarge {
                needed,
                max: MAX_MODEL_BYTES,
            });
        }
        let top = i32::try_from(side).map_err(|_| ModelError::TooMany)?;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(side * side);
        for &given in puzzle.cells() {
            let var = if given == 0 {
                model.new_var(1..=top)?
            } else {
                let v = i32::from(given);
                model.new_var(v..=v)?
            };
            cells.push(var);
        }
        // Cells are named as players name them, row and column from 1: r1c1 to r9c9 (the
        // cells are the model's first variables, row by row).
        let cell_count = side * side;
        model.name_by(move |var| {
            let i = var.index();
            (i < cell_count).then(|| format!("r{}c{}", i / side + 1, i % side + 1))
        });
        for (unit, members) in puzzle.units() {
            let vars: Vec<VarId> = members.iter().map(|&i| cells[i]).collect();
            model.post_named(csp::constraints::AllDifferent::new(vars), unit.to_string())?;
        }
        Ok(SudokuModel {
            model,
            cells,
            box_size: puzzle.box_size(),
        })
    }

    /// The rules alone for grids of `box_size` (side `box_size²`), every cell open: one model
    /// for any number of puzzles of that size, each solved with its [`SudokuModel::givens`]
    /// assumed ([`csp::Solver::assume`]) rather than built again. Refused as
    /// [`SudokuModel::new`] refuses.
    pub fn blank(box_size: usize) -> Result<Self, ModelError> {
        SudokuModel::new(&Grid::empty(box_size))
    }

    /// The givens of `puzzle`, a grid of this model's size, as (cell variable, value) pairs to
    /// assume.
    pub fn givens(&self, puzzle: &Grid) -> Vec<(VarId, i32)> {
        self.cells
            .iter()
            .zip(puzzle.cells())
            .filter(|&(_, &given)| given != 0)
            .map(|(&var, &given)| (var, i32::from(given)))
            .collect()
    }

    /// The box size of the grids this model is for.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The grid a solution fills in.
    pub fn grid(&self, solution: &Solution<'_>) -> Grid {
        let values = self
            .cells
            .iter()
            .map(|&v| solution.value(v) as u16)
            .collect();
        Grid::new(self.box_size, values).unwrap_or_else(|_| Grid::empty(self.box_size))
    }
}
