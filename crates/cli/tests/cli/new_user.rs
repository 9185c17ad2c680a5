//! What a new user meets (issue 13): figures that agree across engines, one counting
//! convention per audience, inputs as people write them, options that say what they did,
//! and messages in plain grammar. Each test pins one point that was seen to trip a user.

use crate::common::{csp, csp_with_stdin, dimacs, queen_edges, stderr, stdout};
use std::collections::BTreeMap;

/// The JSON statistics a run printed last on stderr.
fn json_stats(args: &[&str]) -> serde_json::Value {
    let mut full = args.to_vec();
    full.push("--stats=json");
    let out = csp(&full);
    let text = stderr(&out);
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// Placements after which the next row has no free square, and placements, of the plain
/// walk of N-Queens (rows in order, columns ascending): counted here by brute force.
fn plain_walk(n: usize) -> (u64, u64) {
    fn walk(n: usize, placed: &mut Vec<usize>, dead: &mut u64, nodes: &mut u64) {
        let row = placed.len();
        let free: Vec<usize> = (0..n)
            .filter(|&c| {
                placed
                    .iter()
                    .enumerate()
                    .all(|(r, &q)| q != c && q.abs_diff(c) != row - r)
            })
            .collect();
        if row > 0 && row < n && free.is_empty() {
            *dead += 1;
        }
        for c in free {
            *nodes += 1;
            placed.push(c);
            walk(n, placed, dead, nodes);
            placed.pop();
        }
    }
    let (mut dead, mut nodes) = (0, 0);
    walk(n, &mut Vec::new(), &mut dead, &mut nodes);
    (dead, nodes)
}

#[test]
fn the_engines_count_what_they_say_they_count() {
    for n in [6usize, 8, 9] {
        let arg = n.to_string();
        let none = json_stats(&[
            "queens",
            &arg,
            "--count",
            "--engine",
            "csp",
            "--inference",
            "none",
        ]);
        let plain = json_stats(&["queens", &arg, "--engine", "bitmask", "--format", "cols"]);
        let classes = json_stats(&["queens", &arg, "--count"]);
        let number = |v: &serde_json::Value, key: &str| v[key].as_u64().unwrap();
        // The same solutions everywhere.
        assert_eq!(number(&none, "solutions"), number(&plain, "solutions"));
        assert_eq!(number(&none, "solutions"), number(&classes, "solutions"));
        // The plain walk places a queen only on a free square: exactly the assignments plain
        // backtracking tries and keeps.
        assert_eq!(
            number(&plain, "nodes"),
            number(&none, "nodes") - number(&none, "backtracks"),
            "n = {n}"
        );
        // Its backtracks are its dead ends, as brute force counts them.
        let (dead, nodes) = plain_walk(n);
        assert_eq!(
            (number(&plain, "backtracks"), number(&plain, "nodes")),
            (dead, nodes),
            "n = {n}"
        );
        // The class walk says that it is one, and counts its dead ends too.
        assert_eq!(plain["walk"], "plain");
        assert_eq!(classes["walk"], "classes");
        assert!(number(&classes, "backtracks") > 0, "n = {n}");
        assert!(
            number(&classes, "nodes") < number(&plain, "nodes"),
            "n = {n}"
        );
    }
    // Local search counts its swaps: tried as nodes, made as moves.
    let local = json_stats(&[
        "queens",
        "1000",
        "--engine",
        "min-conflicts",
        "--first",
        "--format",
        "cols",
    ]);
    assert!(local["nodes"].as_u64().unwrap() >= local["moves"].as_u64().unwrap());
    assert!(local["moves"].as_u64().unwrap() > 0);
    assert_eq!(local["max_depth"], 1000);
    // A solved sudoku ends solved, on both engines.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    for engine in ["csp", "bitmask"] {
        let stats = json_stats(&["sudoku", "--puzzle", puzzle, "--engine", engine]);
        assert_eq!(stats["outcome"], "solved", "{engine}");
    }
}

#[test]
fn people_count_from_1_and_data_formats_from_0() {
    // 4-queens' first solution has its queens in columns 2, 4, 1, 3 counted from 1.
    let cols = stdout(&csp(&["queens", "4", "--first", "--format", "cols"]));
    assert_eq!(cols, "1 3 0 2\n", "--format cols: columns from 0");
    let trace = stdout(&csp(&["queens", "4", "--first", "--trace"]));
    assert!(trace.contains("Rows and columns count from 1"), "{trace}");
    assert!(trace.contains("solution 1: columns 2 4 1 3"), "{trace}");
    let dir = std::env::temp_dir().join(format!("csp-new-user-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (tree, json) = (dir.join("t.dot"), dir.join("t.jsonl"));
    let out = csp(&[
        "queens",
        "4",
        "--first",
        "--format",
        "cols",
        "--tree",
        tree.to_str().unwrap(),
        "--trace-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let dot = std::fs::read_to_string(&tree).unwrap();
    assert!(dot.contains("\"row 1: column 2\""), "{dot}");
    assert!(
        !dot.contains(" = "),
        "no 0-based value beside a 1-based name: {dot}"
    );
    let events = std::fs::read_to_string(&json).unwrap();
    assert!(events.contains(r#"{"event":"solution","values":[1,3,0,2]}"#));
    std::fs::remove_dir_all(&dir).ok();
    // Sudoku cells are named as players name them.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let traced = stdout(&csp(&["sudoku", "--puzzle", puzzle, "--trace"]));
    assert!(traced.contains("r1c1 = 4?"), "{traced}");
    assert!(!traced.contains("x0"), "no engine names");
}

#[test]
fn a_trace_reads_as_what_happened() {
    let trace = stdout(&csp(&[
        "queens",
        "4",
        "--trace",
        "--inference",
        "mac",
        "--first",
    ]));
    // Placing row 2 in column 3 leaves row 3 only column 4, on that queen's diagonal.
    assert!(
        trace.contains(
            "fail: row 3 is left only column 4, and the queen in row 2 shares its diagonal"
        ),
        "{trace}"
    );
    // Nothing is said to be ruled out of the row whose queen is being tried.
    assert!(!trace.contains("row 2 -> 3;"), "{trace}");
    // Removals caused by a queen that propagation forced say which queen and which line.
    // On 8 queens, with queens in rows 1-3 at columns 1, 3, 5, arc consistency leaves row 6
    // one column, 4 (on no line of the three queens); that queen takes column 2 from row 4
    // along the diagonal (two rows, two columns apart).
    let trace = stdout(&csp(&[
        "queens",
        "8",
        "--trace",
        "--inference",
        "mac",
        "--first",
    ]));
    assert!(
        trace.contains("row 4 lost column 2 because of the diagonal with row 6"),
        "{trace}"
    );
    // A heuristic that cannot work in a mode says so.
    let out = csp(&[
        "queens",
        "6",
        "--inference",
        "none",
        "--var-order",
        "mrv",
        "--count",
    ]);
    assert!(stderr(&out).contains("--var-order mrv picks variables in input order"));
}

#[test]
fn puzzles_read_as_people_write_them() {
    let lc37 = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    // A byte-order mark, and a name before the puzzle.
    for input in [format!("\u{feff}{lc37}\n"), format!("x:{lc37}\n")] {
        let out = csp_with_stdin(&["sudoku"], &input);
        assert_eq!(stdout(&out), format!("{solution}\n"), "{}", stderr(&out));
    }
    // The project's own LeetCode file: valid, solvable, and the invalid example.
    let file = format!(
        "{}/../sudoku/tests/data/leetcode_36_37.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = csp(&["sudoku", &file, "--check"]);
    assert_eq!(stdout(&out), "valid\nvalid\ninvalid\n", "{}", stderr(&out));
    // A hexadoku in 0-F with '-' blanks reads as 0-F, is answered in 0-F, and says so.
    let hex = format!(
        "{}/../sudoku/tests/data/hexadoku/Hexaduko3A.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = csp(&["sudoku", &hex]);
    assert!(
        stderr(&out).contains("read in the symbols 0-F"),
        "{}",
        stderr(&out)
    );
    let answer = stdout(&out);
    assert!(answer.contains('0') && !answer.contains('G'), "{answer}");
    // A binary file: its answers, but only 20 lines of errors and a count of the rest.
    let binary: String = (0..2_000u32)
        .map(|i| char::from_u32(0x21 + (i * 7919) % 90).unwrap())
        .collect::<String>()
        .repeat(20)
        .chars()
        .collect::<Vec<char>>()
        .chunks(97)
        .map(|c| c.iter().collect::<String>() + "\n")
        .collect();
    let out = csp_with_stdin(&["sudoku"], &binary);
    let errors = stderr(&out);
    assert!(
        errors.lines().count() <= 22,
        "{} lines",
        errors.lines().count()
    );
    assert!(
        errors.contains("more lines of errors and notes not shown"),
        "{errors}"
    );
}

#[test]
fn a_graph_file_is_read_as_written_and_warned_about() {
    let dir = std::env::temp_dir().join(format!("csp-new-user-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.col");
    std::fs::write(&path, "p edge 3 5\nn 1 4\ne 1 2\ne 2 3\n").unwrap();
    let out = csp(&["color", path.to_str().unwrap(), "--colors", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stderr(&out);
    assert!(
        report.contains("declares 5 edges, but the file lists 2"),
        "{report}"
    );
    assert!(
        report.contains("1 vertex value ('n' lines) ignored"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn options_say_what_they_did_or_why_not() {
    // A count cut short by --limit says there may be more, in text and in JSON.
    assert_eq!(
        stdout(&csp(&["queens", "8", "--count", "--limit", "5"])),
        "5+\n"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&csp(&[
        "queens", "8", "--count", "--format", "json",
    ])))
    .unwrap();
    assert_eq!(json, serde_json::json!({ "solutions": 92 }));
    let refused: BTreeMap<&str, Vec<&str>> = BTreeMap::from([
        (
            "--trace-json FILE",
            vec!["queens", "5", "--trace", "--format", "json"],
        ),
        (
            "names two value orders, 'lcv' and 'desc'",
            vec!["compare", "queens", "6", "--configs", "mac+mrv+lcv+desc"],
        ),
        (
            "--node-limit must be at least 1",
            vec!["queens", "8", "--node-limit", "0"],
        ),
        ("is too long", vec!["queens", "8", "--time-limit", "1e30"]),
        ("--engine min-conflicts --first", vec!["queens", "1000000"]),
    ]);
    for (says, args) in refused {
        let out = csp(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn counted_nouns_agree_with_their_numbers() {
    let dir = std::env::temp_dir().join(format!("csp-new-user-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One vertex, no edge: one colour.
    let single = dir.join("one.col");
    std::fs::write(&single, "p edge 1 0\n").unwrap();
    let out = csp(&["color", single.to_str().unwrap(), "--min"]);
    let report = stderr(&out);
    assert!(report.contains("DSATUR uses 1 colour\n"), "{report}");
    assert!(!report.contains("1 colours"), "{report}");
    // The queen graph of the 8x8 board needs 9 colours; a search for 8 stopped early speaks
    // of "an 8-colouring".
    let path = dir.join("queen8.col");
    std::fs::write(&path, dimacs(64, &queen_edges(8))).unwrap();
    let out = csp(&[
        "color",
        path.to_str().unwrap(),
        "--colors",
        "8",
        // A node limit, not a time limit: arc consistency proves there is none in 0.17 s.
        "--node-limit",
        "100",
    ]);
    assert!(
        stderr(&out).contains("before finding an 8-colouring"),
        "{}",
        stderr(&out)
    );
    // One puzzle is one puzzle.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let out = csp(&["sudoku", "--puzzle", puzzle, "--stats"]);
    let report = stderr(&out);
    assert!(
        report.contains("1 puzzle read") && report.contains("for 1 sudoku puzzle "),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `csp` with standard input on a pseudo-terminal, as a user at a shell has it, types
/// Ctrl-D at once, and returns what it wrote on stderr.
fn on_a_terminal(args: &[&str]) -> String {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the integers passed; the null
    // pointers ask for no name and default terminal settings.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (mut master, slave) = unsafe {
        (
            std::fs::File::from_raw_fd(master),
            std::fs::File::from_raw_fd(slave),
        )
    };
    let child = crate::common::csp_command(args)
        .stdin(slave)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-D at the start of a line is the end of input in the terminal's canonical mode.
    master.write_all(&[4]).unwrap();
    let out = crate::common::wait_with_watchdog(child, std::time::Duration::from_secs(20));
    stderr(&out)
}

#[test]
fn reading_from_a_terminal_says_what_it_waits_for() {
    let sudoku = on_a_terminal(&["sudoku"]);
    assert!(
        sudoku.contains("reading puzzles from the terminal") && sudoku.contains("Ctrl-D"),
        "{sudoku}"
    );
    let color = on_a_terminal(&["color", "-"]);
    assert!(
        color.contains("reading a DIMACS graph from the terminal") && color.contains("Ctrl-D"),
        "{color}"
    );
    // From a pipe or a file, nothing is said: the prompt is for people.
    let piped = csp_with_stdin(&["sudoku"], "");
    assert!(!stderr(&piped).contains("from the terminal"));
}
