//! `Board`: a placement of N queens, one per row, checked on construction.

use std::fmt;

/// A solved board: `columns()[r]` is the 0-based column of the queen in row `r`. A `Board`
/// can only be built from a placement where no two queens share a column or a diagonal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    columns: Vec<usize>,
}

/// Why a placement is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A queen stands outside the board.
    OffBoard {
        /// The row (0-based).
        row: usize,
        /// Its column (0-based).
        column: usize,
    },
    /// Two queens attack each other.
    Attack {
        /// The first row (0-based).
        first: usize,
        /// The second row (0-based).
        second: usize,
        /// `column`, `diagonal` or `anti-diagonal`.
        line: &'static str,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::OffBoard { row, column } => {
                write!(f, "row {}: column {} is off the board", row + 1, column + 1)
            }
            BoardError::Attack {
                first,
                second,
                line,
            } => write!(f, "rows {} and {} share a {line}", first + 1, second + 1),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// Checks every pair of queens directly, independently of any solver.
    pub fn new(columns: Vec<usize>) -> Result<Self, BoardError> {
        let n = columns.len();
        for (row, &column) in columns.iter().enumerate() {
            if column >= n {
                return Err(BoardError::OffBoard { row, column });
            }
        }
        for first in 0..n {
            for second in first + 1..n {
                let (a, b) = (columns[first], columns[second]);
                let gap = second - first;
                let line = if a == b {
                    "column"
                } else if a + gap == b {
                    "diagonal"
                } else if b + gap == a {
                    "anti-diagonal"
                } else {
                    continue;
                };
                return Err(BoardError::Attack {
                    first,
                    second,
                    line,
                });
            }
        }
        Ok(Board { columns })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.columns.len()
    }

    /// The queen's column in each row, 0-based.
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }

    /// The rows as LeetCode 51 strings, `Q` for a queen and `empty` elsewhere (`.` there,
    /// `#` in hello-algo).
    pub fn rows(&self, empty: char) -> Vec<String> {
        render_rows(&self.columns, empty)
    }
}

/// Whether `columns` (row `r`'s queen in column `columns[r]`) places queens no two of which
/// share a column or a diagonal, all on the board: one pass with a flag per column and
/// diagonal, kept in `taken` so that a caller checking many boards allocates once. Every board
/// `csp queens` prints is checked with it.
pub fn attack_free<T: Copy>(columns: &[T], taken: &mut Vec<bool>) -> bool
where
    usize: TryFrom<T>,
{
    let n = columns.len();
    taken.clear();
    taken.resize(5 * n, false);
    let (column_taken, diagonals) = taken.split_at_mut(n);
    let (up, down) = diagonals.split_at_mut(2 * n);
    for (row, &c) in columns.iter().enumerate() {
        let Ok(c) = usize::try_from(c) else {
            return false;
        };
        if c >= n || column_taken[c] || up[row + c] || down[row + n - 1 - c] {
            return false;
        }
        column_taken[c] = true;
        up[row + c] = true;
        down[row + n - 1 - c] = true;
    }
    true
}

/// Renders any placement (valid or not) as rows of `Q` and `empty`.
pub fn render_rows(columns: &[usize], empty: char) -> Vec<String> {
    let n = columns.len();
    columns
        .iter()
        .map(|&c| (0..n).map(|i| if i == c { 'Q' } else { empty }).collect())
        .collect()
}

impl fmt::Display for Board {
    /// One line per row, `.` for an empty square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows('.') {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "tests/board.rs"]
mod tests;
