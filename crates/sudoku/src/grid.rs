//! `Grid`: the cells of a b² x b² sudoku, with the rule check that names every broken unit.

use crate::Symbols;
use std::fmt;

/// A sudoku grid of box size `b` (side `b²`): cell values `1..=b²`, 0 for a blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    box_size: usize,
    cells: Vec<u16>,
}

/// A row, a column or a box, numbered from 1 like everything users read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Row `r` (1-based).
    Row(usize),
    /// Column `c` (1-based).
    Column(usize),
    /// Box `k` (1-based, left to right, top to bottom), spanning these rows and columns.
    Box {
        /// The box's number.
        index: usize,
        /// Its first row (1-based).
        first_row: usize,
        /// Its first column (1-based).
        first_column: usize,
        /// Its size.
        size: usize,
    },
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(r) => write!(f, "row {r}"),
            Unit::Column(c) => write!(f, "column {c}"),
            Unit::Box {
                index,
                first_row,
                first_column,
                size,
            } => write!(
                f,
                "box {index} (rows {first_row}-{}, columns {first_column}-{})",
                first_row + size - 1,
                first_column + size - 1
            ),
        }
    }
}

/// A value given more than once in one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where.
    pub unit: Unit,
    /// Which value (1-based).
    pub value: u16,
    /// How many times it is given there.
    pub count: usize,
}

impl Violation {
    /// `two 8s in column 1`, with the value written in the puzzle's own symbols.
    pub fn describe(&self, symbols: &Symbols) -> String {
        let times = match self.count {
            2 => "two".to_owned(),
            3 => "three".to_owned(),
            4 => "four".to_owned(),
            n => n.to_string(),
        };
        let mut value = String::new();
        symbols.write(self.value, &mut value);
        format!("{times} {value}s in {}", self.unit)
    }
}

impl Grid {
    /// A grid of box size `box_size` from its cells row by row, or why not.
    pub fn new(box_size: usize, cells: Vec<u16>) -> Result<Self, String> {
        let side = box_size * box_size;
        if box_size < 1 || cells.len() != side * side {
            return Err(format!(
                "{} cells do not make a {side}x{side} grid",
                cells.len()
            ));
        }
        if let Some(bad) = cells.iter().position(|&v| usize::from(v) > side) {
            return Err(format!(
                "row {}, column {}: {} is not a value of a {side}x{side} grid",
                bad / side + 1,
                bad % side + 1,
                cells[bad]
            ));
        }
        Ok(Grid { box_size, cells })
    }

    /// An empty grid of box size `box_size`.
    pub fn empty(box_size: usize) -> Self {
        let side = box_size * box_size;
        Grid {
            box_size,
            cells: vec![0; side * side],
        }
    }

    /// The box size b.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The side b².
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// All cells, row by row, 0 for a blank.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The cell at `row`, `column` (0-based).
    pub fn cell(&self, row: usize, column: usize) -> u16 {
        self.cells[row * self.side() + column]
    }

    /// The number of givens.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The cells of each row, each column and each box, as cell indices.
    pub fn units(&self) -> impl Iterator<Item = (Unit, Vec<usize>)> + '_ {
        let side = self.side();
        (0..3 * side).map(move |u| {
            let cells = (0..side).map(|i| self.cell_of_unit(u, i)).collect();
            (self.unit(u), cells)
        })
    }

    /// Unit `u` of the `3 * side`: the rows, then the columns, then the boxes.
    fn unit(&self, u: usize) -> Unit {
        let (b, side) = (self.box_size, self.side());
        let k = u % side;
        match u / side {
            0 => Unit::Row(k + 1),
            1 => Unit::Column(k + 1),
            _ => Unit::Box {
                index: k + 1,
                first_row: k / b * b + 1,
                first_column: k % b * b + 1,
                size: b,
            },
        }
    }

    /// The index of the `i`th cell of unit `u` (see [`Grid::unit`]).
    #[inline]
    fn cell_of_unit(&self, u: usize, i: usize) -> usize {
        let (b, side) = (self.box_size, self.side());
        let k = u % side;
        match u / side {
            0 => k * side + i,
            1 => i * side + k,
            _ => (k / b * b + i / b) * side + k % b * b + i % b,
        }
    }

    /// Every value given more than once in a row, a column or a box. Every answer is checked
    /// with it, so it walks the units in place, in the order of [`Grid::unit`], stepping
    /// through each without a division (finding a box cell's index from the unit's number
    /// took five, which were most of the time).
    pub fn violations(&self) -> Vec<Violation> {
        if self.repeats_somewhere() == Some(false) {
            return Vec::new();
        }
        let (b, side) = (self.box_size, self.side());
        let mut found = Vec::new();
        let mut counts = vec![0u32; side + 1];
        let mut tally = |u: usize, cells: &mut dyn FnMut(&mut [u32])| {
            counts.fill(0);
            cells(&mut counts);
            for (value, &count) in counts.iter().enumerate().skip(1) {
                if count > 1 {
                    found.push(Violation {
                        unit: self.unit(u),
                        value: value as u16,
                        count: count as usize,
                    });
                }
            }
        };
        let cells = &self.cells;
        for row in 0..side {
            tally(row, &mut |counts| {
                for &v in &cells[row * side..(row + 1) * side] {
                    counts[usize::from(v)] += 1;
                }
            });
        }
        for column in 0..side {
            tally(side + column, &mut |counts| {
                for &v in cells[column..].iter().step_by(side) {
                    counts[usize::from(v)] += 1;
                }
            });
        }
        for band in 0..b {
            for stack in 0..b {
                let first = band * b * side + stack * b;
                tally(2 * side + band * b + stack, &mut |counts| {
                    for row in 0..b {
                        let start = first + row * side;
                        for &v in &cells[start..start + b] {
                            counts[usize::from(v)] += 1;
                        }
                    }
                });
            }
        }
        found
    }

    /// Whether some value repeats in a row, a column or a box, found in one pass over the
    /// cells with a bit per value (the usual answer, no, without naming anything); `None`
    /// for grids too large for a 64-bit word.
    fn repeats_somewhere(&self) -> Option<bool> {
        let (b, side) = (self.box_size, self.side());
        if side >= 64 {
            return None;
        }
        let mut stack_of = [0usize; 64];
        for (c, stack) in stack_of.iter_mut().enumerate().take(side) {
            *stack = c / b;
        }
        let (mut columns, mut boxes) = ([0u64; 64], [0u64; 64]);
        let mut repeat = 0u64;
        for (r, row_cells) in self.cells.chunks_exact(side).enumerate() {
            let band = r / b * b;
            let mut row = 0u64;
            for (c, &v) in row_cells.iter().enumerate() {
                // A blank (0) takes no bit.
                let bit = (1u64 << v) & !1;
                let bx = band + stack_of[c];
                repeat |= (row | columns[c] | boxes[bx]) & bit;
                row |= bit;
                columns[c] |= bit;
                boxes[bx] |= bit;
            }
        }
        Some(repeat != 0)
    }

    /// Whether this grid is complete, breaks no rule, and keeps every given of `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.box_size == puzzle.box_size
            && self.cells.iter().all(|&v| v != 0)
            && self.violations().is_empty()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&given, &v)| given == 0 || given == v)
    }
}

#[cfg(test)]
#[path = "tests/grid.rs"]
mod tests;
