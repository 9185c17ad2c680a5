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

impl SudokuModel {
    /// Builds the model of `puzzle`.
    pub fn new(puzzle: &Grid) -> Result<Self, ModelError> {
        let side = puzzle.side();
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
