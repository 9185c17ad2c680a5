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

/// Runs `csp` with `args`, output to /dev/null, and returns its exit code and its own peak
/// resident set in bytes.
///
/// wait4 reports the one child (getrusage would mix in every child of this test process,
/// browsers included), but its figure is not always the child's own: the child is started
/// sharing this process's memory until it runs `csp` (vfork), and Linux then counts this
/// process's peak into the child's. So while the child runs, its own peak (VmHWM in
/// /proc/PID/status, which starts afresh with `csp`) is read every millisecond; wait4's
/// figure is taken when it stands above this process's peak, which it then cannot come from.
// wait4 below does the waiting, which clippy cannot see.
#[allow(clippy::zombie_processes)]
pub(crate) fn peak_rss(args: &[&str]) -> (i32, u64) {
    let child = csp_command(args).stdout(Stdio::null()).spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    let mut polled = 0;
    let usage = loop {
        // SAFETY: wait4 reaps the child we started, if it has ended, and fills the two values
        // it is given; WNOHANG returns 0 at once while it runs.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, usage.as_mut_ptr()) };
        if reaped == pid {
            // SAFETY: wait4 filled it on reaping.
            break unsafe { usage.assume_init() };
        }
        assert_eq!(reaped, 0, "wait4 failed");
        if let Some(peak) = high_water_mark(&format!("/proc/{pid}/status")) {
            polled = polled.max(peak);
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let reported = usage.ru_maxrss as u64 * 1024;
    let ours = high_water_mark("/proc/self/status").unwrap_or(u64::MAX);
    let peak = if reported > ours { reported } else { polled };
    (libc::WEXITSTATUS(status), peak)
}

/// The peak resident set (VmHWM) in a /proc status file, in bytes.
fn high_water_mark(path: &str) -> Option<u64> {
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn listing_all_73712_boards_of_13_queens_stays_under_30_mb() {
    let (code, rss) = peak_rss(&["queens", "13", "--format", "cols"]);
    assert_eq!(code, 0);
    assert!(rss < 30 << 20, "resident set reached {} KiB", rss >> 10);
    // The bound is not loose by chance: the peak is a few megabytes.
    assert!(rss > 1 << 20);
}
