//! Every command and engine stops when asked, on an instance that would run for minutes:
//! `--time-limit 0.5` exits 3, SIGINT and SIGTERM sent after half a second exit 130 and 143,
//! each with its partial results and statistics. The 5-second bound is a watchdog against
//! hangs, not a speed check: `scripts/stop-latency` measures how soon each one really ends.

use crate::common::{dimacs, queen_edges, spawn, stderr, stdout, wait_with_watchdog};
use std::process::Output;
use std::time::Duration;

/// Far above the fraction of a second a stop takes: only a run that ignores its stop trips it.
const WATCHDOG: Duration = Duration::from_secs(5);

/// When the signals are sent: long enough for the handlers to be installed on a busy machine.
const SIGNAL_AFTER: Duration = Duration::from_millis(500);

/// How a run is asked to stop.
#[derive(Copy, Clone, Debug)]
enum Stop {
    TimeLimit,
    Signal(i32),
}

impl Stop {
    const ALL: [Stop; 3] = [
        Stop::TimeLimit,
        Stop::Signal(libc::SIGINT),
        Stop::Signal(libc::SIGTERM),
    ];

    fn status(self) -> i32 {
        match self {
            Stop::TimeLimit => 3,
            Stop::Signal(libc::SIGINT) => 130,
            Stop::Signal(_) => 143,
        }
    }

    /// What the output calls the stopper.
    fn by(self) -> &'static str {
        match self {
            Stop::TimeLimit => "the time limit",
            Stop::Signal(libc::SIGINT) => "SIGINT",
            Stop::Signal(_) => "SIGTERM",
        }
    }
}

/// Runs `csp args` and stops it as `stop` says.
fn run(args: &[&str], stop: Stop) -> Output {
    match stop {
        Stop::TimeLimit => {
            let mut limited = args.to_vec();
            limited.extend(["--time-limit", "0.5"]);
            wait_with_watchdog(spawn(&limited), WATCHDOG)
        }
        Stop::Signal(signal) => {
            let child = spawn(args);
            std::thread::sleep(SIGNAL_AFTER);
            // SAFETY: kill only sends a signal to the child we started.
            unsafe {
                libc::kill(child.id() as i32, signal);
            }
            wait_with_watchdog(child, WATCHDOG)
        }
    }
}

/// A figure of the text statistics (`  label   value`), if present.
fn figure(report: &str, label: &str) -> Option<String> {
    report
        .lines()
        .find(|l| l.trim_start().starts_with(label) && l.starts_with("  "))
        .map(|l| l.trim_start()[label.len()..].trim().to_owned())
}

fn number(report: &str, label: &str) -> u64 {
    figure(report, label)
        .unwrap_or_else(|| panic!("no '{label}' in: {report}"))
        .parse()
        .unwrap()
}

/// The checks every stopped run shares: the status, who stopped it, and statistics labelled
/// partial whose time is wall-clock time at least as long as the run was given.
fn assert_stopped(out: &Output, stop: Stop, args: &[&str]) -> String {
    let report = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(stop.status()),
        "{args:?} {stop:?}: {report}"
    );
    assert!(!report.contains("panicked"), "{args:?}: {report}");
    let title = format!("partial statistics (stopped by {})", stop.by());
    assert!(report.contains(&title), "{args:?} {stop:?}: {report}");
    let time = figure(&report, "time").unwrap();
    let seconds: f64 = time.trim_end_matches(" s").parse().unwrap();
    let least = match stop {
        Stop::TimeLimit => 0.5,
        Stop::Signal(_) => 0.4,
    };
    assert!(
        (least..5.0).contains(&seconds),
        "{args:?} {stop:?}: time {seconds} s"
    );
    report
}

/// A count stopped: nothing on stdout, the partial count on stderr, summed figures.
fn count_stops(n: u64, args: &[&str]) {
    for stop in Stop::ALL {
        let out = run(args, stop);
        let report = assert_stopped(&out, stop, args);
        assert_eq!(
            stdout(&out),
            "",
            "{args:?}: a partial count stays off stdout"
        );
        let found = number(&report, "solutions");
        let line = format!("csp: stopped by {}; partial count: {found}", stop.by());
        assert!(report.contains(&line), "{args:?} {stop:?}: {report}");
        // Half a second of a 20-queens count finds boards (the first is some 150,000 nodes
        // in, about 0.3 s in a debug build), and the deepest level of a
        // search that found boards is the board's size.
        assert!(found > 0 && number(&report, "nodes") > found, "{report}");
        assert_eq!(number(&report, "max depth"), n, "{args:?} {stop:?}");
    }
}

/// A listing stopped: whole boards only, as many as the statistics say.
fn listing_stops(n: usize, args: &[&str]) {
    for stop in Stop::ALL {
        let out = run(args, stop);
        let report = assert_stopped(&out, stop, args);
        let text = stdout(&out);
        assert!(text.is_empty() || text.ends_with('\n'), "{args:?}");
        let boards: Vec<&str> = text.lines().collect();
        for board in &boards {
            let columns: Vec<usize> = board.split(' ').map(|c| c.parse().unwrap()).collect();
            assert_eq!(columns.len(), n, "{args:?}: a whole board per line");
        }
        assert_eq!(
            number(&report, "solutions"),
            boards.len() as u64,
            "{args:?}"
        );
        let line = format!(
            "csp: stopped by {}; solutions printed: {}",
            stop.by(),
            boards.len()
        );
        assert!(report.contains(&line), "{args:?} {stop:?}: {report}");
    }
}

#[test]
fn queens_counts_stop_on_one_and_two_threads_by_classes_and_by_shards() {
    count_stops(20, &["queens", "20", "--count", "--threads", "1"]);
    count_stops(20, &["queens", "20", "--count", "--threads", "2"]);
    count_stops(20, &["queens", "20", "--count", "--up-to-symmetry"]);
    count_stops(20, &["queens", "20", "--count", "--shard", "2/4"]);
}

#[test]
fn queens_counts_stop_on_the_exact_walk_and_the_engine() {
    // A node limit far away sends the count to the exact, node-counting walk.
    let far = "1000000000000000";
    count_stops(
        20,
        &[
            "queens",
            "20",
            "--count",
            "--engine",
            "bitmask",
            "--node-limit",
            far,
        ],
    );
    count_stops(20, &["queens", "20", "--count", "--engine", "csp"]);
}

#[test]
fn queens_listings_stop_with_whole_boards_on_every_engine() {
    listing_stops(
        20,
        &["queens", "20", "--engine", "bitmask", "--format", "cols"],
    );
    listing_stops(
        20,
        &[
            "queens",
            "20",
            "--engine",
            "bitmask",
            "--threads",
            "2",
            "--format",
            "cols",
        ],
    );
    listing_stops(
        20,
        &[
            "queens",
            "20",
            "--engine",
            "bitmask",
            "--up-to-symmetry",
            "--format",
            "cols",
        ],
    );
    listing_stops(20, &["queens", "20", "--format", "cols"]);
}

#[test]
fn queens_first_solutions_stop_in_the_search_in_local_search_and_in_the_model_build() {
    // mrv with ascending values thrashes below an early mistake at this size (README).
    listing_stops(
        10_000,
        &[
            "queens",
            "10000",
            "--first",
            "--var-order",
            "mrv",
            "--val-order",
            "asc",
            "--format",
            "cols",
        ],
    );
    listing_stops(
        200_000_000,
        &[
            "queens",
            "200000000",
            "--engine",
            "min-conflicts",
            "--first",
            "--format",
            "cols",
        ],
    );
    // 100,000 rows: 2.5 GB of domains to fill, a second or more, so the stop comes while
    // the model is built or while the search sets up its domains, before any node.
    let args = ["queens", "100000", "--first", "--format", "cols"];
    for stop in Stop::ALL {
        let out = run(&args, stop);
        let report = assert_stopped(&out, stop, &args);
        assert_eq!(stdout(&out), "");
        assert!(
            report.contains("stopped the run while the model was being built")
                || number(&report, "nodes") == 0,
            "{report}"
        );
    }
}

#[test]
fn queens_html_records_the_run_it_prints_and_writes_it_partial() {
    let dir = std::env::temp_dir().join(format!("csp-stops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("replay.html");
    let args = ["queens", "20", "--count", "--html", page.to_str().unwrap()];
    for stop in Stop::ALL {
        std::fs::remove_file(&page).ok();
        let out = run(&args, stop);
        let report = assert_stopped(&out, stop, &args);
        assert!(
            report.contains("the count runs there"),
            "says the engine moved: {report}"
        );
        let wrote = format!(
            "csp: wrote the partial replay page {}",
            page.to_str().unwrap()
        );
        assert!(report.contains(&wrote), "{report}");
        let html = std::fs::read_to_string(&page).unwrap();
        // The page holds the very run whose figures were printed.
        let found = number(&report, "solutions");
        assert!(html.contains(&format!("\"solutions\":{found},")), "{found}");
        assert!(html.contains(&format!("\"stopped_by\":\"{}\"", stop.by())));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// An empty 9x9 grid: 6.67 x 10^21 solutions to count.
const EMPTY_SUDOKU: &str =
    ".................................................................................";

fn sudoku_stops(args: &[&str]) {
    for stop in Stop::ALL {
        let out = run(args, stop);
        let report = assert_stopped(&out, stop, args);
        assert!(number(&report, "nodes") > 0, "{report}");
        match stop {
            // The limit applies to each puzzle: each one answers `limit`.
            Stop::TimeLimit => {
                assert!(stdout(&out).lines().all(|l| l == "limit"), "{args:?}");
                assert!(report.contains("stopped by a limit"), "{report}");
            }
            Stop::Signal(_) => {
                assert_eq!(stdout(&out), "", "{args:?}: a stopped count prints nothing");
                assert!(
                    report.contains(&format!("(stopped by {})", stop.by())),
                    "{report}"
                );
            }
        }
    }
}

#[test]
fn sudoku_stops_on_both_engines_and_on_two_jobs() {
    sudoku_stops(&["sudoku", "--count", "--puzzle", EMPTY_SUDOKU]);
    sudoku_stops(&[
        "sudoku",
        "--count",
        "--engine",
        "csp",
        "--puzzle",
        EMPTY_SUDOKU,
    ]);
    let path = std::env::temp_dir().join(format!("csp-stops-{}-two.txt", std::process::id()));
    std::fs::write(&path, format!("{EMPTY_SUDOKU}\n{EMPTY_SUDOKU}\n")).unwrap();
    sudoku_stops(&["sudoku", path.to_str().unwrap(), "--count", "--jobs", "2"]);
    std::fs::remove_file(&path).ok();
}

/// The graph of queen moves on a 9x9 board: chromatic number 10 (DIMACS queen9_9), and
/// proving that 9 colours do not do takes more than a minute under mac and under lcg (the 8x8
/// board's proof takes under a second since the clique constraints).
fn queen9_graph(name: &str) -> String {
    let file = format!("csp-stops-{}-{name}-queen9.col", std::process::id());
    let path = std::env::temp_dir().join(file);
    std::fs::write(&path, dimacs(81, &queen_edges(9))).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn color_stops_with_k_colours_and_with_min_keeping_its_best_colouring() {
    let graph = queen9_graph("color");
    let with_k = ["color", graph.as_str(), "--colors", "9"];
    for stop in Stop::ALL {
        let out = run(&with_k, stop);
        let report = assert_stopped(&out, stop, &with_k);
        assert_eq!(stdout(&out), "");
        assert!(
            report.contains("stopped before finding a 9-colouring"),
            "{report}"
        );
    }
    let min = ["color", graph.as_str(), "--min"];
    for stop in Stop::ALL {
        let out = run(&min, stop);
        let report = assert_stopped(&out, stop, &min);
        // DSATUR's colouring, or a better one found since, is printed, and not called optimal.
        let lines = stdout(&out).lines().count();
        assert_eq!(lines, 81, "{report}");
        assert!(report.contains("best found, not proven"), "{report}");
    }
    std::fs::remove_file(&graph).ok();
}

/// A comparison stopped: a table with a row per configuration; a limit leaves every row
/// `limit`, a signal leaves a `stopped` row and `not run` after it.
fn compare_stops(args: &[&str]) {
    for stop in Stop::ALL {
        let out = run(args, stop);
        let report = stderr(&out);
        // A limit is a row of the printed table ("limit"), and the comparison exits 0.
        let status = match stop {
            Stop::TimeLimit => 0,
            Stop::Signal(_) => stop.status(),
        };
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?} {stop:?}: {report}"
        );
        let table = stdout(&out);
        let outcomes: Vec<&str> = table
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(2).unwrap())
            .collect();
        let k = if args.contains(&"--configs") { 3 } else { 4 };
        assert_eq!(outcomes.len(), k, "{table}");
        match stop {
            Stop::TimeLimit => assert!(outcomes.iter().all(|&o| o == "limit"), "{table}"),
            Stop::Signal(_) => {
                assert_eq!(outcomes[0], "stopped", "{table}");
                assert!(outcomes[1..].iter().all(|&o| o == "not run"), "{table}");
                assert!(
                    report.contains(&format!("stopped by {}", stop.by())),
                    "{report}"
                );
            }
        }
    }
}

#[test]
fn compare_prints_its_table_so_far_on_queens_sudoku_and_colouring() {
    // 40 queens: no configuration without learning finds a board in seconds (mac takes
    // minutes); learning does, in a tenth of a second.
    compare_stops(&[
        "compare",
        "queens",
        "40",
        "--configs",
        "none,fc,mac",
        "--format",
        "csv",
    ]);
    compare_stops(&[
        "compare",
        "sudoku",
        "--puzzle",
        EMPTY_SUDOKU,
        "--all",
        "--format",
        "csv",
    ]);
    let graph = queen9_graph("compare");
    compare_stops(&[
        "compare", "color", &graph, "--colors", "9", "--format", "csv",
    ]);
    std::fs::remove_file(&graph).ok();
}

/// An XCSP3 optimisation with a run of improving solutions, then a long search: maximise `b`;
/// for `b` up to `burst` every pigeon sits in hole 1, and `b = burst + 1` asks for `pigeons`
/// pigeons in one hole fewer, all apart.
fn xcsp3_burst_then_long_search(burst: usize, pigeons: usize) -> String {
    let mut text = format!(
        "<instance format=\"XCSP3\" type=\"COP\">\n<variables>\n<var id=\"b\"> 1..{} </var>\n\
         <array id=\"p\" size=\"[{pigeons}]\"> 1..{} </array>\n</variables>\n<constraints>\n",
        burst + 1,
        pigeons - 1
    );
    for i in 0..pigeons {
        text.push_str(&format!(
            "<intension> or(eq(b,{}),eq(p[{i}],1)) </intension>\n",
            burst + 1
        ));
        for j in i + 1..pigeons {
            text.push_str(&format!(
                "<intension> or(le(b,{burst}),ne(p[{i}],p[{j}])) </intension>\n"
            ));
        }
    }
    text.push_str(
        "</constraints>\n<objectives> <maximize> b </maximize> </objectives>\n</instance>\n",
    );
    text
}

/// SIGINT, or SIGINT at once followed by SIGTERM (as MiniZinc follows it when a solver is
/// slow to end), leaves an optimisation's best solution on stdout, whole: `csp fzn` without
/// -i prints it only at the end, `csp xcsp3` its `v` line.
#[test]
fn fzn_and_xcsp3_print_their_best_solution_on_one_signal_and_on_two() {
    let dir = std::env::temp_dir().join(format!("csp-stops-best-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fzn = dir.join("burst.fzn");
    std::fs::write(
        &fzn,
        crate::common::burst_then_long_search(5, 13, "maximize b"),
    )
    .unwrap();
    let xml = dir.join("burst.xml");
    std::fs::write(&xml, xcsp3_burst_then_long_search(5, 13)).unwrap();
    let fzn_args = ["fzn", fzn.to_str().unwrap()];
    let xcsp3_args = [
        "xcsp3",
        xml.to_str().unwrap(),
        "--var-order",
        "input",
        "--val-order",
        "asc",
    ];
    for second in [None, Some(libc::SIGTERM)] {
        for args in [&fzn_args[..], &xcsp3_args[..]] {
            let child = spawn(args);
            std::thread::sleep(SIGNAL_AFTER);
            // SAFETY: kill only sends signals to the child we started.
            unsafe {
                libc::kill(child.id() as i32, libc::SIGINT);
                if let Some(signal) = second {
                    libc::kill(child.id() as i32, signal);
                }
            }
            let out = wait_with_watchdog(child, WATCHDOG);
            let code = out.status.code();
            assert!(
                code == Some(130) || (second.is_some() && code == Some(143)),
                "{args:?} {second:?}: {code:?} {}",
                stderr(&out)
            );
            let text = stdout(&out);
            if args[0] == "fzn" {
                // Output variables come in the order of their names, as fzn-gecode prints them.
                let mut names: Vec<String> = (1..=13).map(|i| format!("p{i}")).collect();
                names.sort();
                let pigeons: String = names.iter().map(|p| format!("{p} = 1;\n")).collect();
                assert_eq!(text, format!("b = 5;\n{pigeons}----------\n"), "{second:?}");
            } else {
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(lines[..5], ["o 1", "o 2", "o 3", "o 4", "o 5"], "{text}");
                assert_eq!(lines[5], "s SATISFIABLE", "{text}");
                let ones = vec!["1"; 13].join(" ");
                assert!(
                    lines[6].starts_with("v <instantiation")
                        && lines[6].contains(&format!("<values> 5 {ones} </values>")),
                    "{text}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// An XCSP3 instance that takes seconds to read: 200 sums of 50 terms, each term a product
/// the reader tabulates (as PyCSP3 writes Nside's).
fn xcsp3_slow_to_read() -> String {
    let (n, sums) = (50, 200);
    let mut text = format!(
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n<array id=\"g\" size=\"[{n}]\"> \
         0..1 </array>\n<array id=\"d\" size=\"[{n}]\"> 0..300 </array>\n</variables>\n\
         <constraints>\n"
    );
    for s in 0..sums {
        let terms: Vec<String> = (0..n)
            .map(|i| format!("mul(g[{i}],{},eq(d[{i}],{s}))", i % 7 + 1))
            .collect();
        text.push_str(&format!(
            "<sum><list> {} </list><condition> (le,1000) </condition></sum>\n",
            terms.join(" ")
        ));
    }
    text.push_str("</constraints>\n</instance>\n");
    text
}

/// The read of an XCSP3 instance stops on the time limit and on each signal too: `s UNKNOWN`
/// and a comment saying what stopped it, with the stop's exit status.
#[test]
fn xcsp3_stops_while_reading_a_large_instance() {
    let dir = std::env::temp_dir().join(format!("csp-stops-read-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let xml = dir.join("slow.xml");
    std::fs::write(&xml, xcsp3_slow_to_read()).unwrap();
    let args = ["xcsp3", xml.to_str().unwrap()];
    for stop in Stop::ALL {
        let out = run(&args, stop);
        assert_eq!(
            out.status.code(),
            Some(stop.status()),
            "{stop:?}: {}",
            stderr(&out)
        );
        assert_eq!(
            stdout(&out),
            format!("c the read was stopped by {}\ns UNKNOWN\n", stop.by()),
            "{stop:?}"
        );
        assert!(stderr(&out).is_empty(), "{stop:?}: {}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).ok();
}
