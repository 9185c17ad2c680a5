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
        let (b, side) = (self.box_size, self.side());
        let rows =
            (0..side).map(move |r| (Unit::Row(r + 1), (0..side).map(|c| r * side + c).collect()));
        let columns = (0..side).map(move |c| {
            (
                Unit::Column(c + 1),
                (0..side).map(|r| r * side + c).collect(),
            )
        });
        let boxes = (0..side).map(move |k| {
            let (top, left) = (k / b * b, k % b * b);
            let unit = Unit::Box {
                index: k + 1,
                first_row: top + 1,
                first_column: left + 1,
                size: b,
            };
            let cells = (0..side)
                .map(|i| (top + i / b) * side + left + i % b)
                .collect();
            (unit, cells)
        });
        rows.chain(columns).chain(boxes)
    }

    /// Every value given more than once in a row, a column or a box.
    pub fn violations(&self) -> Vec<Violation> {
        let mut found = Vec::new();
        let mut counts = vec![0usize; self.side() + 1];
        for (unit, cells) in self.units() {
            counts.iter_mut().for_each(|c| *c = 0);
            for i in cells {
                counts[usize::from(self.cells[i])] += 1;
            }
            for (value, &count) in counts.iter().enumerate().skip(1) {
                if count > 1 {
                    found.push(Violation {
                        unit,
                        value: value as u16,
                        count,
                    });
                }
            }
        }
        found
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
