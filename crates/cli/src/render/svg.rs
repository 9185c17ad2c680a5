//! `--format svg`: pictures of boards, drawn by hand as plain SVG (a chessboard with queens,
//! a sudoku grid whose givens stand apart from the filled cells).

use std::fmt::Write as _;
use sudoku::{Grid, Symbols};

/// The most boards one picture holds; more would make an unreadable file.
pub const MAX_BOARDS: usize = 500;

const QUEEN: &str = "\u{265B}";

/// All `boards` (queen columns per row) of size `n`, several to a row.
pub fn queens(boards: &[Vec<usize>], n: usize) -> String {
    let cell = 24usize;
    let size = n.max(1) * cell;
    let gap = 16;
    let per_row = if n <= 8 { 6 } else { 4 }.min(boards.len().max(1));
    let rows = boards.len().div_ceil(per_row).max(1);
    let width = per_row * (size + gap) + gap;
    let height = rows * (size + gap + 18) + gap;
    let mut svg = header(width, height);
    for (k, board) in boards.iter().enumerate() {
        let x0 = gap + (k % per_row) * (size + gap);
        let y0 = gap + (k / per_row) * (size + gap + 18);
        let _ = writeln!(
            svg,
            r##"<g transform="translate({x0},{y0})"><text x="0" y="12" font-size="12" fill="#555">solution {}</text>"##,
            k + 1
        );
        for r in 0..n {
            for c in 0..n {
                let fill = if (r + c) % 2 == 0 {
                    "#f0d9b5"
                } else {
                    "#b58863"
                };
                let _ = writeln!(
                    svg,
                    r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{fill}"/>"##,
                    c * cell,
                    18 + r * cell
                );
            }
            if let Some(&c) = board.get(r) {
                let _ = writeln!(
                    svg,
                    r##"<text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#111">{QUEEN}</text>"##,
                    c * cell + cell / 2,
                    18 + r * cell + cell * 4 / 5,
                    cell * 4 / 5
                );
            }
        }
        let _ = writeln!(
            svg,
            r##"<rect x="0" y="18" width="{size}" height="{size}" fill="none" stroke="#333"/></g>"##
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Solved grids below each other, givens in bold black, filled cells in blue.
pub fn sudoku(items: &[(Grid, Grid, Symbols)]) -> String {
    let cell = 30usize;
    let gap = 20;
    let side = items.iter().map(|(p, _, _)| p.side()).max().unwrap_or(9);
    let width = side * cell + 2 * gap;
    let height = items.len().max(1) * (side * cell + gap + 18) + gap;
    let mut svg = header(width, height);
    let mut y0 = gap;
    for (k, (puzzle, solution, symbols)) in items.iter().enumerate() {
        let (b, s) = (puzzle.box_size(), puzzle.side());
        let _ = writeln!(
            svg,
            r##"<g transform="translate({gap},{y0})"><text x="0" y="12" font-size="12" fill="#555">puzzle {}</text>"##,
            k + 1
        );
        let top = 18;
        for r in 0..s {
            for c in 0..s {
                let given = puzzle.cell(r, c) != 0;
                let fill = if given { "#eef2ff" } else { "#ffffff" };
                let _ = writeln!(
                    svg,
                    r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{fill}" stroke="#bbb"/>"##,
                    c * cell,
                    top + r * cell
                );
                let mut text = String::new();
                symbols.write(solution.cell(r, c), &mut text);
                let (weight, color) = if given {
                    ("bold", "#111")
                } else {
                    ("normal", "#1d4ed8")
                };
                let _ = writeln!(
                    svg,
                    r#"<text x="{}" y="{}" font-size="{}" text-anchor="middle" font-weight="{weight}" fill="{color}">{}</text>"#,
                    c * cell + cell / 2,
                    top + r * cell + cell * 7 / 10,
                    if text.len() > 1 {
                        cell / 2
                    } else {
                        cell * 6 / 10
                    },
                    escape(&text)
                );
            }
        }
        for i in 0..=s {
            if i % b == 0 {
                let p = i * cell;
                let _ = writeln!(
                    svg,
                    r##"<line x1="{p}" y1="{top}" x2="{p}" y2="{}" stroke="#222" stroke-width="2"/>"##,
                    top + s * cell
                );
                let _ = writeln!(
                    svg,
                    r##"<line x1="0" y1="{}" x2="{}" y2="{}" stroke="#222" stroke-width="2"/>"##,
                    top + p,
                    s * cell,
                    top + p
                );
            }
        }
        svg.push_str("</g>\n");
        y0 += s * cell + gap + 18;
    }
    svg.push_str("</svg>\n");
    svg
}

fn header(width: usize, height: usize) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
