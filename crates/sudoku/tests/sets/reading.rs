//! The reader's shapes, its errors, and the rule check.

use crate::common::{data, read};
use sudoku::{Alphabet, AlphabetError, Grid, Layout, Shape, Symbols, Unit};

const LC37: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[test]
fn leetcode_36_example_2_names_the_column_and_the_box() {
    let text = data("leetcode_36_37.txt");
    let line = text
        .lines()
        .find(|l| l.starts_with("lc36_ex2_invalid:"))
        .unwrap();
    let puzzle = read(line.split(':').nth(1).unwrap(), None)
        .remove(0)
        .puzzle
        .unwrap();
    let found: Vec<String> = puzzle
        .grid
        .violations()
        .iter()
        .map(|v| v.describe(&puzzle.symbols))
        .collect();
    assert_eq!(
        found,
        [
            "two 8s in column 1",
            "two 8s in box 1 (rows 1-3, columns 1-3)"
        ]
    );
    let valid = read(LC37, None).remove(0).puzzle.unwrap();
    assert!(valid.grid.violations().is_empty());
}

#[test]
fn tails_after_colon_comma_or_space_are_ignored_and_comments_skipped() {
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let text = format!(
        "# a comment\n{LC37}:1:{solution}\n{LC37},{solution}\n{LC37} trailing words\n{}\n",
        LC37.replace('.', "0")
    );
    let entries = read(&text, None);
    assert_eq!(entries.len(), 4);
    let first = &entries[0].puzzle.as_ref().unwrap().grid;
    for e in &entries {
        assert_eq!(&e.puzzle.as_ref().unwrap().grid, first);
    }
    assert_eq!(
        entries.iter().map(|e| e.line).collect::<Vec<_>>(),
        [2, 3, 4, 5]
    );
}

#[test]
fn a_grid_over_several_lines_reads_and_renders_in_its_own_layout() {
    let text = "\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
";
    let entries = read(text, None);
    assert_eq!(entries.len(), 1);
    let puzzle = entries[0].puzzle.as_ref().unwrap();
    assert_eq!(puzzle.grid, read(LC37, None).remove(0).puzzle.unwrap().grid);
    assert!(matches!(puzzle.layout, Layout::Grid(_)));
    let rendered = puzzle
        .layout
        .render(&puzzle.grid, &puzzle.symbols, Shape::AsGiven);
    assert_eq!(
        rendered,
        format!("{text}\n"),
        "the same layout, a blank line after"
    );
    let line = puzzle
        .layout
        .render(&puzzle.grid, &puzzle.symbols, Shape::Line);
    assert_eq!(line, format!("{LC37}\n"));
}

#[test]
fn grids_separated_by_blank_lines_and_compact_rows() {
    let compact: String = LC37
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    let text = format!("{compact}\n{compact}");
    let entries = read(&text, None);
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].line, 11);
    assert!(entries.iter().all(|e| e.puzzle.is_ok()));
}

#[test]
fn bad_lines_are_reported_with_their_line_and_cell_and_the_rest_still_read() {
    let mut broken_symbol = LC37.to_owned();
    broken_symbol.replace_range(12..13, "x");
    let text = format!("{LC37}\n{}\n{broken_symbol}\n{LC37}\n", &LC37[..80]);
    let entries = read(&text, None);
    assert_eq!(entries.len(), 4);
    assert!(entries[0].puzzle.is_ok());
    let short = entries[1].puzzle.as_ref().unwrap_err();
    assert_eq!(short.line, 2);
    assert!(
        short
            .to_string()
            .starts_with("line 2: not a puzzle: 80 cells"),
        "{short}"
    );
    let symbol = entries[2].puzzle.as_ref().unwrap_err();
    assert_eq!(
        symbol.to_string(),
        "line 3: row 2, column 4: 'x' is not a symbol of a 9x9 sudoku (symbols 1-9 (123456789); blanks . - _ or 0)"
    );
    assert!(entries[3].puzzle.is_ok());
}

#[test]
fn an_unfinished_grid_is_one_error_and_the_next_puzzle_still_reads() {
    let text = format!("53..7....\n6..195...\n.98....6.\n\n{LC37}\n");
    let entries = read(&text, None);
    assert_eq!(entries.len(), 2);
    let error = entries[0].puzzle.as_ref().unwrap_err();
    assert!(error.message.contains("has 3 rows"), "{error}");
    assert!(entries[1].puzzle.is_ok());
}

#[test]
fn sizes_and_alphabets_follow_the_grid() {
    // 4x4 on one line, 16x16 as 1-9A-G, 25x25 as A-Y, and larger grids as numbers.
    let four = read("1.3..2..........", None).remove(0).puzzle.unwrap();
    assert_eq!(four.grid.side(), 4);
    let sixteen = "1".to_owned() + &".".repeat(255);
    assert_eq!(
        read(&sixteen, None).remove(0).puzzle.unwrap().grid.side(),
        16
    );
    let g = read(&("G".to_owned() + &".".repeat(255)), None)
        .remove(0)
        .puzzle
        .unwrap();
    assert_eq!(g.grid.cell(0, 0), 16);
    let y = read(&("Y".to_owned() + &".".repeat(624)), None)
        .remove(0)
        .puzzle
        .unwrap();
    assert_eq!((y.grid.side(), y.grid.cell(0, 0)), (25, 25));
    let mut rows = String::new();
    for r in 0..36 {
        let row: Vec<String> = (0..36)
            .map(|c| {
                if r == 0 && c == 0 {
                    "36".into()
                } else {
                    ".".into()
                }
            })
            .collect();
        rows.push_str(&row.join(" "));
        rows.push('\n');
    }
    let big = read(&rows, None).remove(0).puzzle.unwrap();
    assert_eq!((big.grid.side(), big.grid.cell(0, 0)), (36, 36));
    assert_eq!(big.symbols, Symbols::Numbers);
}

#[test]
fn violations_name_every_broken_unit() {
    let mut cells = vec![0u16; 81];
    cells[0] = 5;
    cells[1] = 5;
    cells[9] = 5;
    let found: Vec<Unit> = Grid::new(3, cells)
        .unwrap()
        .violations()
        .iter()
        .map(|v| v.unit)
        .collect();
    assert_eq!(found.len(), 3);
    assert!(found.contains(&Unit::Row(1)));
    assert!(found.contains(&Unit::Column(1)));
}

#[test]
fn a_custom_alphabet_is_taken_exactly_and_the_defaults_read_either_case() {
    // The default 16x16 alphabet (1-9, A-G) reads its letters in either case.
    let lower = read(&("g".to_owned() + &".".repeat(255)), None)
        .remove(0)
        .puzzle
        .unwrap();
    assert_eq!(lower.grid.cell(0, 0), 16);
    // A custom one is exact: `a` is not `A` ...
    let hex = "0123456789ABCDEF";
    let exact = read(&("a".to_owned() + &".".repeat(255)), Some(hex)).remove(0);
    let error = exact.puzzle.unwrap_err();
    assert!(
        error.message.contains("'a' is not a symbol") && error.message.contains("case-sensitive"),
        "{error}"
    );
    // ... and both cases can be two symbols.
    let four = Alphabet::new("aAbB").unwrap();
    assert_eq!((four.value_of('a'), four.value_of('A')), (Some(1), Some(2)));
    assert_eq!(four.value_of('c'), None);
    assert_eq!(four.value_of('.'), Some(0));
    let grid = read("aAbBbBaAAaBbBbAa", Some("aAbB"))
        .remove(0)
        .puzzle
        .unwrap();
    assert_eq!((grid.grid.cell(0, 0), grid.grid.cell(0, 1)), (1, 2));
    assert!(grid.grid.violations().is_empty());
    // A repeat, or a symbol that reads as a blank, names itself and where it stands.
    assert_eq!(
        Alphabet::new("12342"),
        Err(AlphabetError::Repeats {
            symbol: '2',
            first: 2,
            second: 5
        })
    );
    assert_eq!(
        Alphabet::new("12.4"),
        Err(AlphabetError::Reserved {
            symbol: '.',
            position: 3
        })
    );
}
