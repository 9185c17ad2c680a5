//! Streaming: a closed pipe ends the run at once and quietly; memory stays flat.

use crate::common::{csp_command, spawn, stderr, wait_with_watchdog};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

/// A watchdog against hangs, far above the fraction of a second these take.
const WATCHDOG: Duration = Duration::from_secs(10);

#[test]
fn a_reader_that_leaves_early_ends_the_run_quietly_with_status_0() {
    // As `csp queens 14 | head -3`: 365,596 boards, of which the reader takes three lines.
    for args in [
        &["queens", "14"][..],
        &["queens", "14", "--engine", "bitmask"],
        &["queens", "14", "--format", "cols"],
        &["queens", "8", "--trace"],
    ] {
        let mut child = spawn(args);
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        for _ in 0..3 {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            assert!(!line.is_empty());
        }
        drop(reader);
        let out = wait_with_watchdog(child, WATCHDOG);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

/// The largest resident set of any child this process has waited for, in bytes.
fn max_child_rss() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given and reads nothing else.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    usage.ru_maxrss as u64 * 1024
}

#[test]
fn listing_all_73712_boards_of_13_queens_stays_under_30_mb() {
    let status = csp_command(&["queens", "13", "--format", "cols"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    // getrusage reports the maximum over every child waited for so far, including those of
    // tests running beside this one, so this bounds the listing's resident set from above.
    let rss = max_child_rss();
    assert!(rss < 30 << 20, "resident set reached {} KiB", rss >> 10);
}
