//! `Reader`: turns lines of text into puzzles, one line at a time, in every accepted shape.
//!
//! It is fed lines by its caller (the library does no I/O) and hands back each puzzle as soon
//! as its last line is read, so a file of any length streams through in constant memory. A
//! malformed puzzle becomes an error entry naming the line, and reading goes on with the next.

use crate::{Alphabet, Grid, GridLine, Layout, Symbols};
use std::fmt;

/// A puzzle as read: its givens, its symbols, and how it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens.
    pub grid: Grid,
    /// The symbols it is written in.
    pub symbols: Symbols,
    /// Its shape, to write its solution the same way.
    pub layout: Layout,
    /// A choice the reader made that the user may not expect, to tell them about.
    pub note: Option<String>,
}

/// Why some lines do not make a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The line at fault (1-based).
    pub line: usize,
    /// What is wrong, naming the cell as `row R, column C` where there is one.
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// One puzzle of the input, in input order: where it starts and what was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle's first line (1-based).
    pub line: usize,
    /// The puzzle, or why its lines do not make one.
    pub puzzle: Result<Puzzle, InputError>,
}

/// A grid whose rows are still coming.
#[derive(Debug)]
struct PendingGrid {
    start: usize,
    width: Option<usize>,
    symbols: Option<Symbols>,
    cells: Vec<u16>,
    rows: usize,
    lines: Vec<GridLine>,
    error: Option<InputError>,
}

/// Reads puzzles from lines: one puzzle per line, or grids over several lines.
#[derive(Debug, Default)]
pub struct Reader {
    alphabet: Option<Alphabet>,
    pending: Option<PendingGrid>,
}

/// The line lengths of one-line puzzles: b⁴ cells for box sizes 2 to 8.
const LINE_LENGTHS: [usize; 7] = [16, 81, 256, 625, 1296, 2401, 4096];

fn box_size_of_side(side: usize) -> Option<usize> {
    (2..=64).find(|b| b * b == side)
}

/// A line of only `-`, `+`, `|` and spaces, with at least one `-` or `+`.
fn is_separator(text: &str) -> bool {
    text.chars()
        .all(|c| matches!(c, '-' | '+' | '|' | '=') || c.is_whitespace())
        && text.chars().any(|c| matches!(c, '-' | '+' | '='))
}

impl Reader {
    /// A reader; `alphabet` replaces the default symbols for grids of its length.
    pub fn new(alphabet: Option<Alphabet>) -> Self {
        Reader {
            alphabet,
            pending: None,
        }
    }

    /// Reads line `number` (1-based); any puzzles it completes are appended to `out`.
    pub fn feed(&mut self, number: usize, line: &str, out: &mut Vec<Entry>) {
        // A UTF-8 byte-order mark, as some editors write first in a file, is not a cell.
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let text = line.trim_end_matches(['\r', '\n']);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            if let Some(grid) = self.pending.take() {
                out.push(grid.unfinished(number));
            }
            return;
        }
        if trimmed.starts_with('#') {
            return;
        }
        let candidate = self.one_line_candidate(trimmed);
        if let Some(mut grid) = self.pending.take() {
            // A one-line puzzle of another size ends a grid left unfinished.
            let width = grid.width.unwrap_or(0);
            if candidate.is_some_and(|c| c.chars().count() != width) {
                out.push(grid.unfinished(number));
            } else {
                if is_separator(trimmed) {
                    grid.lines.push(GridLine::Fixed(text.to_owned()));
                } else {
                    self.grid_row(&mut grid, number, text);
                }
                if grid.width.is_some_and(|w| grid.rows == w) {
                    out.push(grid.finish());
                } else {
                    self.pending = Some(grid);
                }
                return;
            }
        }
        match candidate {
            Some(cells) if !self.reads_as_grid_row(cells) => out.push(Entry {
                line: number,
                puzzle: self.one_line(number, cells),
            }),
            _ => {
                let mut grid = PendingGrid {
                    start: number,
                    width: None,
                    symbols: None,
                    cells: Vec::new(),
                    rows: 0,
                    lines: Vec::new(),
                    error: None,
                };
                if is_separator(trimmed) {
                    grid.lines.push(GridLine::Fixed(text.to_owned()));
                } else {
                    self.grid_row(&mut grid, number, text);
                }
                // A line that cannot start a grid is a bad puzzle on its own, so that it does
                // not swallow the lines after it.
                let plausible = grid.width.is_none_or(|w| box_size_of_side(w).is_some());
                if plausible {
                    self.pending = Some(grid);
                } else {
                    out.push(grid.finish());
                }
            }
        }
    }

    /// The end of the input: a grid still open is reported as unfinished.
    pub fn finish(&mut self, last_line: usize, out: &mut Vec<Entry>) {
        if let Some(grid) = self.pending.take() {
            out.push(grid.unfinished(last_line + 1));
        }
    }

    /// The puzzle of a one-line record: the first candidate word (see `one_line_candidates`)
    /// written in symbols of its size, or else the first candidate at all, so that its bad
    /// symbol is reported. So `puzzle:count:solution`, `name:puzzle:expected` (even with a name
    /// of 16 characters) and CSV `puzzle,solution` all read as their puzzle.
    fn one_line_candidate<'t>(&self, trimmed: &'t str) -> Option<&'t str> {
        let written = |word: &str| {
            let count = word.chars().count();
            let side = (2..=64usize).map(|b| b * b).find(|s| s * s == count);
            let symbols = Symbols::for_side(side.unwrap_or(0), self.alphabet.as_ref());
            let Symbols::Chars(alphabet) = &symbols else {
                return false;
            };
            let hex = hexadecimal_instead(&symbols, word.chars()).is_some();
            word.chars()
                .all(|c| hex && c.is_ascii_hexdigit() || alphabet.value_of(c).is_some())
        };
        one_line_candidates(trimmed)
            .find(|word| written(word))
            .or_else(|| one_line_candidates(trimmed).next())
    }

    /// Sixteen symbols can be a 4x4 puzzle on one line or one row of a 16x16 grid: it is the
    /// former when every symbol is a 4x4 one.
    fn reads_as_grid_row(&self, cells: &str) -> bool {
        if cells.chars().count() != 16 {
            return false;
        }
        let Symbols::Chars(small) = Symbols::for_side(4, self.alphabet.as_ref()) else {
            return true;
        };
        !cells.chars().all(|c| small.value_of(c).is_some())
    }

    fn one_line(&self, number: usize, cells: &str) -> Result<Puzzle, InputError> {
        let count = cells.chars().count();
        let side = (2..=64)
            .map(|b| b * b)
            .find(|s| s * s == count)
            .unwrap_or(0);
        let box_size = box_size_of_side(side).unwrap_or(0);
        let mut symbols = Symbols::for_side(side, self.alphabet.as_ref());
        let note = hexadecimal_instead(&symbols, cells.chars());
        if note.is_some() {
            symbols = hexadecimal();
        }
        let Symbols::Chars(alphabet) = &symbols else {
            return Err(InputError {
                line: number,
                message: format!(
                    "a {side}x{side} puzzle cannot be written one character per cell; \
                     write one row per line, numbers separated by spaces"
                ),
            });
        };
        let mut values = Vec::with_capacity(count);
        for (i, c) in cells.chars().enumerate() {
            match alphabet.value_of(c) {
                Some(v) => values.push(v),
                None => return Err(bad_symbol(number, i / side, i % side, c, side, &symbols)),
            }
        }
        let grid = Grid::new(box_size, values).map_err(|message| InputError {
            line: number,
            message,
        })?;
        Ok(Puzzle {
            grid,
            symbols,
            layout: Layout::Line,
            note,
        })
    }

    /// Reads one row of a grid into `grid`, or records the first error.
    fn grid_row(&self, grid: &mut PendingGrid, number: usize, text: &str) {
        let row = grid.rows;
        let (cells, line) = match split_row(text) {
            Ok(split) => split,
            Err(message) => {
                grid.fail(number, message);
                grid.rows += 1;
                return;
            }
        };
        let width = *grid.width.get_or_insert(cells.len());
        if grid.symbols.is_none() {
            if box_size_of_side(width).is_none() {
                grid.fail(
                    number,
                    format!(
                        "not a puzzle: {width} cells, but a puzzle on one line has 16, 81, 256 or \
                         625 (in one field: fields are separated by ':' or ',', and a space ends \
                         one) and a grid row 4, 9, 16, 25, ..."
                    ),
                );
            }
            grid.symbols = Some(match line {
                GridLine::Numbers => Symbols::Numbers,
                _ => Symbols::for_side(width, self.alphabet.as_ref()),
            });
        }
        grid.rows += 1;
        if cells.len() != width {
            grid.fail(
                number,
                format!(
                    "row {} has {} cells; the grid's first row has {width}",
                    row + 1,
                    cells.len()
                ),
            );
            return;
        }
        let Some(symbols) = grid.symbols.clone() else {
            return;
        };
        for (column, cell) in cells.iter().enumerate() {
            let value = match (&symbols, cell) {
                (Symbols::Chars(a), RowCell::Char(c)) => a.value_of(*c),
                (Symbols::Numbers, RowCell::Number(text)) => parse_number(text, width),
                (Symbols::Chars(_), RowCell::Number(_)) => None,
                (Symbols::Numbers, RowCell::Char(c)) => parse_number(&c.to_string(), width),
            };
            match value {
                Some(v) => grid.cells.push(v),
                None => {
                    let shown = match cell {
                        RowCell::Char(c) => c.to_string(),
                        RowCell::Number(t) => t.clone(),
                    };
                    grid.fail(
                        number,
                        bad_symbol_text(row, column, &shown, width, &symbols),
                    );
                    return;
                }
            }
        }
        grid.lines.push(line);
    }
}

/// The words of a one-line record that could be its puzzle: the first word of each field
/// (fields are separated by `:` or `,`) that has the length of a puzzle on one line and no `|`.
fn one_line_candidates(trimmed: &str) -> impl Iterator<Item = &str> {
    trimmed.split([':', ',']).filter_map(|field| {
        let word = field.split_whitespace().next().unwrap_or("");
        (LINE_LENGTHS.contains(&word.chars().count()) && !word.contains('|')).then_some(word)
    })
}

/// The 0-F alphabet that hexadoku are often written in.
fn hexadecimal() -> Symbols {
    match Alphabet::default_of("0123456789ABCDEF") {
        Some(a) => Symbols::Chars(a),
        None => Symbols::Numbers,
    }
}

/// A 16x16 puzzle in the default symbols (1-9, A-G, with 0 a blank) that has a 0 and no G is
/// written in 0-F: its 0 is a symbol, not a blank. The note to show, if so.
fn hexadecimal_instead(symbols: &Symbols, mut cells: impl Iterator<Item = char>) -> Option<String> {
    let Symbols::Chars(alphabet) = symbols else {
        return None;
    };
    if alphabet.len() != 16 || !alphabet.is_default() {
        return None;
    }
    let (mut zero, mut g) = (false, false);
    for c in cells.by_ref() {
        zero |= c == '0';
        g |= c.eq_ignore_ascii_case(&'G');
    }
    (zero && !g).then(|| {
        "read in the symbols 0-F, since it has a 0 and no G (--alphabet 123456789ABCDEFG reads \
         its 0s as blanks)"
            .to_owned()
    })
}

/// One cell of a grid row: a character and where it stands, or a number.
enum RowCell {
    Char(char),
    Number(String),
}

/// Splits a grid row into cells: single characters (with `|` and spaces as decoration), or, for
/// grids above 25x25, numbers separated by spaces.
fn split_row(text: &str) -> Result<(Vec<RowCell>, GridLine), String> {
    let words: Vec<&str> = text
        .split(|c: char| c == '|' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    // Numbers with spaces between them, as grids above 25x25 must be written and as 16x16
    // and 25x25 grids often are: a row of 16 or more cells, some of two digits.
    let numeric = words.len() >= 16
        && words.iter().any(|w| w.len() > 1)
        && words
            .iter()
            .all(|w| w.chars().all(|c| c.is_ascii_digit() || c == '.'));
    if numeric {
        let cells = words
            .iter()
            .map(|w| RowCell::Number((*w).to_owned()))
            .collect();
        return Ok((cells, GridLine::Numbers));
    }
    let chars: Vec<char> = text.chars().collect();
    let mut cells = Vec::new();
    let mut positions = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if c != '|' && !c.is_whitespace() {
            cells.push(RowCell::Char(c));
            positions.push(i);
        }
    }
    if cells.is_empty() {
        return Err("an empty row".to_owned());
    }
    Ok((
        cells,
        GridLine::Cells {
            text: chars,
            positions,
        },
    ))
}

fn parse_number(text: &str, side: usize) -> Option<u16> {
    if text == "." || text == "0" {
        return Some(0);
    }
    let v: u16 = text.parse().ok()?;
    (1..=side).contains(&usize::from(v)).then_some(v)
}

fn bad_symbol(
    line: usize,
    row: usize,
    column: usize,
    c: char,
    side: usize,
    symbols: &Symbols,
) -> InputError {
    InputError {
        line,
        message: bad_symbol_text(row, column, &c.to_string(), side, symbols),
    }
}

fn bad_symbol_text(
    row: usize,
    column: usize,
    shown: &str,
    side: usize,
    symbols: &Symbols,
) -> String {
    let mut chars = shown.chars();
    let other_case = match (chars.next(), chars.next(), symbols) {
        (Some(c), None, Symbols::Chars(a)) if a.has_other_case_of(c) => {
            "; the alphabet is case-sensitive"
        }
        _ => "",
    };
    format!(
        "row {}, column {}: '{shown}' is not a symbol of a {side}x{side} sudoku \
         (symbols {}; blanks . - _ or 0){other_case}",
        row + 1,
        column + 1,
        symbols.describe()
    )
}

impl PendingGrid {
    fn fail(&mut self, line: usize, message: String) {
        if self.error.is_none() {
            self.error = Some(InputError { line, message });
        }
    }

    /// The grid ended (blank line, another puzzle, end of input) before its last row.
    fn unfinished(mut self, line: usize) -> Entry {
        let width = self.width.unwrap_or(0);
        self.fail(
            line,
            format!(
                "the grid that starts on line {} has {} rows; a {width}x{width} grid needs {width}",
                self.start, self.rows
            ),
        );
        self.finish()
    }

    fn finish(self) -> Entry {
        let start = self.start;
        let puzzle = match (self.error, self.symbols) {
            (Some(error), _) => Err(error),
            (None, None) => Err(InputError {
                line: start,
                message: "a grid with no rows".to_owned(),
            }),
            (None, Some(mut symbols)) => {
                let width = self.width.unwrap_or(0);
                let box_size = box_size_of_side(width).unwrap_or(0);
                let mut cells = self.cells;
                let raw = || {
                    self.lines.iter().flat_map(|line| match line {
                        GridLine::Cells { text, positions } => {
                            positions.iter().map(|&p| text[p]).collect::<Vec<char>>()
                        }
                        _ => Vec::new(),
                    })
                };
                let note = hexadecimal_instead(&symbols, raw());
                if note.is_some() {
                    symbols = hexadecimal();
                    if let Symbols::Chars(hex) = &symbols {
                        cells = raw().map(|c| hex.value_of(c).unwrap_or(0)).collect();
                    }
                }
                Grid::new(box_size, cells)
                    .map(|grid| Puzzle {
                        grid,
                        symbols,
                        layout: Layout::Grid(self.lines),
                        note,
                    })
                    .map_err(|message| InputError {
                        line: start,
                        message,
                    })
            }
        };
        Entry {
            line: start,
            puzzle,
        }
    }
}
