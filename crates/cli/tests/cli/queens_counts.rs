//! Counts through the command line for every engine and mode, against OEIS A000170.

use crate::common::{csp, oeis_a000170, stderr, stdout};

#[test]
fn every_engine_mode_and_encoding_counts_a000170_up_to_n_10() {
    let oeis = oeis_a000170();
    let mut configs: Vec<Vec<&str>> = vec![vec!["--engine", "bitmask"]];
    for encoding in ["binary", "alldiff"] {
        for inference in ["none", "fc", "mac"] {
            configs.push(vec!["--encoding", encoding, "--inference", inference]);
        }
    }
    for (n, expected) in oeis.iter().enumerate().take(11) {
        let n = n.to_string();
        for config in &configs {
            let mut args = vec!["queens", n.as_str(), "--count"];
            args.extend(config);
            let out = csp(&args);
            assert_eq!(stdout(&out), format!("{expected}\n"), "{args:?}");
            assert_eq!(out.status.code(), Some(0));
        }
    }
}

#[test]
fn count_up_to_symmetry_prints_all_and_classes() {
    assert_eq!(
        stdout(&csp(&["queens", "8", "--count", "--up-to-symmetry"])),
        "92 12\n"
    );
    assert_eq!(
        stdout(&csp(&[
            "queens",
            "8",
            "--count",
            "--up-to-symmetry",
            "--engine",
            "csp"
        ])),
        "92 12\n"
    );
    let listed = stdout(&csp(&[
        "queens",
        "8",
        "--up-to-symmetry",
        "--format",
        "cols",
    ]));
    let boards: Vec<&str> = listed.lines().collect();
    assert_eq!(boards.len(), 12);
    assert_eq!(
        boards[0], "0 4 7 5 2 6 1 3",
        "the lexicographically smallest first"
    );
    let mut sorted = boards.clone();
    sorted.sort();
    assert_eq!(sorted, boards, "in lexicographic order");
}

#[test]
fn shards_from_the_command_line_add_up() {
    for engine in ["bitmask", "csp"] {
        let total: u64 = (1..=3)
            .map(|i| {
                let part = format!("{i}/3");
                stdout(&csp(&[
                    "queens", "12", "--count", "--engine", engine, "--shard", &part,
                ]))
                .trim()
                .parse::<u64>()
                .unwrap()
            })
            .sum();
        assert_eq!(total, 14200, "{engine}");
        // Up to symmetry, each part prints its solutions and classes; both add up.
        let (mut all, mut classes) = (0u64, 0u64);
        for i in 1..=3 {
            let part = format!("{i}/3");
            let line = stdout(&csp(&[
                "queens",
                "12",
                "--count",
                "--up-to-symmetry",
                "--engine",
                engine,
                "--shard",
                &part,
            ]));
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            all += numbers[0];
            classes += numbers[1];
        }
        assert_eq!((all, classes), (14200, 1787), "{engine}, up to symmetry");
    }
    let bad = csp(&["queens", "12", "--count", "--shard", "4/3"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("expected I/K"));
}

#[test]
fn two_threads_list_the_same_boards_in_the_same_order() {
    let one = stdout(&csp(&[
        "queens", "11", "--format", "cols", "--engine", "bitmask",
    ]));
    let two = stdout(&csp(&[
        "queens",
        "11",
        "--format",
        "cols",
        "--threads",
        "2",
    ]));
    assert_eq!(one, two);
    assert_eq!(
        stdout(&csp(&["queens", "13", "--count", "--threads", "2"])),
        "73712\n"
    );
}
