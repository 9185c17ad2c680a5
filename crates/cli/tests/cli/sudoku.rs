//! `csp sudoku` on the published sets: answers, shapes, errors and exit codes.

use crate::common::{csp, csp_with_stdin, stderr, stdout};

fn data(name: &str) -> String {
    format!("{}/../sudoku/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

const LC37: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const LC37_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn top95_prints_the_published_solutions_line_for_line() {
    let out = csp(&["sudoku", &data("top95.txt")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), read("top95_solutions.txt"));
    assert!(
        stderr(&out).contains("95 puzzles read: 95 solved"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tdoku_counts_and_uniqueness_match_the_listed_numbers() {
    let text = read("tdoku_test_puzzles.txt");
    let expected: Vec<u64> = text
        .lines()
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    let counts = stdout(&csp(&[
        "sudoku",
        &data("tdoku_test_puzzles.txt"),
        "--count",
    ]));
    let counts: Vec<u64> = counts.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(counts, expected);
    let unique = csp(&["sudoku", &data("tdoku_test_puzzles.txt"), "--unique"]);
    let words: Vec<String> = stdout(&unique).lines().map(str::to_owned).collect();
    let wanted: Vec<&str> = expected
        .iter()
        .map(|&c| match c {
            0 => "none",
            1 => "unique",
            _ => "multiple",
        })
        .collect();
    assert_eq!(words, wanted);
    assert_eq!(
        unique.status.code(),
        Some(1),
        "some puzzles have no solution"
    );
    // The unique ones print their listed solution.
    let solved = stdout(&csp(&["sudoku", &data("tdoku_test_puzzles.txt")]));
    for (line, record) in text.lines().zip(solved.lines()) {
        let fields: Vec<&str> = line.split(':').collect();
        match fields[1] {
            "0" => assert_eq!(record, "none"),
            "1" => assert_eq!(record, fields[2]),
            _ => assert_eq!(record.len(), 81),
        }
    }
}

#[test]
fn serg_counts_are_reproduced_for_the_first_200_lines() {
    let text = read("serg_multisolution_first200.txt");
    let out = csp(&[
        "sudoku",
        &data("serg_multisolution_first200.txt"),
        "--count",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let printed = stdout(&out);
    let counts: Vec<&str> = printed.lines().collect();
    let expected: Vec<&str> = text.lines().map(|l| l.split(':').nth(1).unwrap()).collect();
    assert_eq!(counts.len(), 200);
    assert_eq!(counts, expected);
}

#[test]
fn count_stops_at_the_limit_and_the_empty_4x4_has_288() {
    let empty = ".".repeat(16);
    assert_eq!(
        stdout(&csp(&["sudoku", "--puzzle", &empty, "--count"])),
        "288\n"
    );
    // Cut by --limit: at least 10.
    assert_eq!(
        stdout(&csp(&[
            "sudoku", "--puzzle", &empty, "--count", "--limit", "10"
        ])),
        "10+\n"
    );
}

#[test]
fn sixteen_and_twenty_five_wide_puzzles_solve_to_the_published_grids() {
    let text = read("sudsoln_pairs.tsv");
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[4].starts_with("unique") {
            let out = csp(&["sudoku", "--puzzle", f[2]]);
            assert_eq!(stdout(&out), format!("{}\n", f[3]), "{}", f[0]);
        }
    }
}

#[test]
fn hexadoku_grids_solve_in_their_own_layout_with_the_0_to_f_alphabet() {
    let out = csp(&[
        "sudoku",
        &data("hexadoku/asamshaExample0F.txt"),
        "--alphabet",
        "0123456789ABCDEF",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let answer: String = read("hexadoku/ashamsaExampleAnswer.txt")
        .lines()
        .map(|l| format!("{l}\n"))
        .collect();
    // The puzzle is written as 16 compact rows; the answer file spaces its cells. Compare cells.
    let cells = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_hexdigit())
            .collect::<String>()
    };
    assert_eq!(cells(&stdout(&out)), cells(&answer));
    assert!(stdout(&out).ends_with("\n\n"), "a blank line after a grid");
}

#[test]
fn a_grid_comes_back_in_the_same_layout() {
    let mut grid = String::new();
    for (i, row) in LC37.as_bytes().chunks(9).enumerate() {
        if i > 0 && i % 3 == 0 {
            grid.push_str("------+-------+------\n");
        }
        let cells: Vec<String> = row
            .chunks(3)
            .map(|b| {
                b.iter()
                    .map(|&c| format!("{} ", c as char))
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect();
        grid.push_str(&cells.join(" | "));
        grid.push('\n');
    }
    let out = csp_with_stdin(&["sudoku"], &grid);
    let printed = stdout(&out);
    let expected_cells: String = LC37_SOLUTION.to_owned();
    let cells: String = printed.chars().filter(|c| c.is_ascii_digit()).collect();
    assert_eq!(cells, expected_cells);
    assert_eq!(printed.lines().count(), 11 + 1, "11 lines and a blank one");
    assert_eq!(printed.lines().nth(3), Some("------+-------+------"));
}

#[test]
fn leetcode_36s_second_example_is_invalid_naming_the_column_and_the_box() {
    let invalid =
        "83..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let out = csp(&["sudoku", "--puzzle", invalid]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "invalid\n");
    let message = stderr(&out);
    assert!(message.contains("line 1: the givens break the rules: two 8s in column 1; two 8s in box 1 (rows 1-3, columns 1-3)"), "{message}");
    let check = csp(&["sudoku", "--check", "--puzzle", invalid]);
    assert_eq!(
        (stdout(&check).as_str(), check.status.code()),
        ("invalid\n", Some(2))
    );
    let valid = csp(&["sudoku", "--check", "--puzzle", LC37]);
    assert_eq!(
        (stdout(&valid).as_str(), valid.status.code()),
        ("valid\n", Some(0))
    );
}

#[test]
fn a_mixed_file_solves_every_good_line_and_reports_each_broken_one() {
    let lines = [
        LC37.to_owned(),
        LC37[..80].to_owned(),
        LC37.replace("53..", "55.."),
        format!("{}x", &LC37[..80]),
        format!("{LC37}:1:{LC37_SOLUTION}"),
        "# a comment".to_owned(),
        String::new(),
        LC37.replace('.', "0"),
    ];
    let text = lines.join("\n") + "\n";
    let out = csp_with_stdin(&["sudoku", "-"], &text);
    assert_eq!(out.status.code(), Some(2));
    let records: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(
        records,
        [
            LC37_SOLUTION,
            "invalid",
            "invalid",
            "invalid",
            LC37_SOLUTION,
            LC37_SOLUTION
        ]
    );
    let errors = stderr(&out);
    assert!(
        errors.contains("line 2: not a puzzle: 80 cells"),
        "{errors}"
    );
    assert!(
        errors.contains("line 3: the givens break the rules: two 5s in row 1"),
        "{errors}"
    );
    assert!(
        errors.contains("line 4: row 9, column 9: 'x' is not a symbol"),
        "{errors}"
    );
    assert!(
        errors.contains("6 puzzles read: 3 solved, 0 with no solution, 3 invalid"),
        "{errors}"
    );
}

#[test]
fn json_records_parse_one_per_line() {
    let out = csp(&["sudoku", &data("hardest.txt"), "--format", "json"]);
    let records: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 11);
    assert!(records
        .iter()
        .all(|r| r["status"] == "solved" && r["solution"].as_str().unwrap().len() == 81));
    assert_eq!(records[0]["line"], 1);
}

#[test]
fn no_solution_exits_1_and_a_limit_exits_3() {
    let boss = read("q_boss.txt");
    let none = csp(&["sudoku", "--puzzle", boss.trim()]);
    assert_eq!(
        (stdout(&none).as_str(), none.status.code()),
        ("none\n", Some(1))
    );
    let hard = read("hardest.txt");
    let limited = csp(&[
        "sudoku",
        "--puzzle",
        hard.lines().next().unwrap(),
        "--node-limit",
        "1",
        "--inference",
        "fc",
    ]);
    assert_eq!(
        (stdout(&limited).as_str(), limited.status.code()),
        ("limit\n", Some(3))
    );
    let missing = csp(&["sudoku", "/no/such/file"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read /no/such/file"));
}

#[test]
fn jobs_answer_in_input_order_exactly_as_one_thread_does() {
    for (file, args) in [
        ("tdoku_test_puzzles.txt", vec!["--count"]),
        ("top95.txt", vec![]),
        ("serg_multisolution_first200.txt", vec!["--unique"]),
    ] {
        let path = data(file);
        let mut one = vec!["sudoku", path.as_str()];
        one.extend(args.iter().copied());
        let mut two = one.clone();
        two.extend(["--jobs", "2"]);
        let (a, b) = (csp(&one), csp(&two));
        assert_eq!(stdout(&a), stdout(&b), "{file}");
        assert_eq!(a.status.code(), b.status.code(), "{file}");
    }
}

#[test]
fn both_engines_print_the_same_answers_and_engine_options_choose_the_engine() {
    for (file, mode) in [
        ("top95.txt", None),
        ("tdoku_test_puzzles.txt", Some("--count")),
        ("tdoku_test_puzzles.txt", Some("--unique")),
        ("sudsoln_pairs.tsv", None),
    ] {
        let mut default = vec!["sudoku", file];
        default.extend(mode);
        let path = data(file);
        default[1] = &path;
        let mut engine = default.clone();
        engine.extend(["--engine", "csp"]);
        let mut bitmask = default.clone();
        bitmask.extend(["--engine", "bitmask", "--stats"]);
        let (a, b, c) = (csp(&default), csp(&engine), csp(&bitmask));
        assert_eq!(stdout(&a), stdout(&b), "{file} {mode:?}");
        assert_eq!(stdout(&a), stdout(&c), "{file} {mode:?}");
        assert_eq!(a.status.code(), b.status.code());
        assert!(stderr(&c).contains("engine bitmask"), "{}", stderr(&c));
    }
    // An engine option picks the general engine; with --engine bitmask it is an error.
    let out = csp(&["sudoku", "--puzzle", LC37, "--inference", "fc", "--stats"]);
    assert!(
        stderr(&out).contains("engine csp, inference fc"),
        "{}",
        stderr(&out)
    );
    let out = csp(&[
        "sudoku",
        "--puzzle",
        LC37,
        "--engine",
        "bitmask",
        "--val-order",
        "desc",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--val-order is an option of the general engine"));
}
