//! `Layout`: how a puzzle was written, so that its solution can be written the same way.

use crate::{Grid, Symbols};

/// The shape a puzzle came in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// All cells on one line.
    Line,
    /// One line per row, with whatever separators and spacing the input had.
    Grid(Vec<GridLine>),
}

/// One line of a grid as it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridLine {
    /// A line kept as it was, such as `------+-------+------`.
    Fixed(String),
    /// A row of one character per cell: the line and where its cells are in it.
    Cells {
        /// The line's characters.
        text: Vec<char>,
        /// The index in `text` of each cell, left to right.
        positions: Vec<usize>,
    },
    /// A row of numbers separated by spaces.
    Numbers,
}

/// How to write a solution: as the puzzle came, or forced to one shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The puzzle's own layout.
    AsGiven,
    /// All cells on one line.
    Line,
    /// A grid with boxes marked by `|` and `-+-` lines.
    Grid,
}

impl Layout {
    /// Writes `grid` in this layout, ending with a newline (and a blank line after a grid).
    pub fn render(&self, grid: &Grid, symbols: &Symbols, shape: Shape) -> String {
        // A symbol a cell and a newline a row covers most shapes without growing.
        let mut out = String::with_capacity(grid.cells().len() + grid.side() + 1);
        match (shape, self) {
            (Shape::Line, _) | (Shape::AsGiven, Layout::Line) => {
                for &v in grid.cells() {
                    symbols.write(v, &mut out);
                }
                out.push('\n');
            }
            (Shape::AsGiven, Layout::Grid(lines)) => {
                let side = grid.side();
                let mut row = 0;
                for line in lines {
                    match line {
                        GridLine::Fixed(text) => out.push_str(text),
                        GridLine::Cells { text, positions } => {
                            let mut text = text.clone();
                            for (column, &at) in positions.iter().enumerate() {
                                let mut symbol = String::new();
                                symbols.write(grid.cell(row, column), &mut symbol);
                                if let Some(c) = symbol.chars().next() {
                                    text[at] = c;
                                }
                            }
                            out.extend(text);
                            row += 1;
                        }
                        GridLine::Numbers => {
                            push_numbers(grid, row, symbols, &mut out);
                            row += 1;
                        }
                    }
                    out.push('\n');
                }
                debug_assert_eq!(row, side);
                out.push('\n');
            }
            (Shape::Grid, _) => {
                out.push_str(&boxed_grid(grid, symbols));
                out.push('\n');
            }
        }
        out
    }
}

fn push_numbers(grid: &Grid, row: usize, symbols: &Symbols, out: &mut String) {
    for column in 0..grid.side() {
        if column > 0 {
            out.push(' ');
        }
        symbols.write(grid.cell(row, column), out);
    }
}

/// The grid with spaces between cells, `|` between boxes and a `-+-` line between bands.
fn boxed_grid(grid: &Grid, symbols: &Symbols) -> String {
    let (b, side) = (grid.box_size(), grid.side());
    let mut rows: Vec<String> = Vec::with_capacity(side);
    for row in 0..side {
        let mut line = String::new();
        for column in 0..side {
            if column > 0 {
                line.push_str(if column % b == 0 { " | " } else { " " });
            }
            symbols.write(grid.cell(row, column), &mut line);
        }
        rows.push(line);
    }
    // Draw the separator from the first row's shape, so numbers of any width line up.
    let separator: String = rows
        .first()
        .map(|r| {
            r.chars()
                .map(|c| if c == '|' { '+' } else { '-' })
                .collect()
        })
        .unwrap_or_default();
    let mut out = String::new();
    for (row, line) in rows.iter().enumerate() {
        if row > 0 && row % b == 0 {
            out.push_str(&separator);
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
