//! Streaming: a closed pipe ends the run at once and quietly; memory stays flat.

use crate::common::{burst_then_long_search, csp_command, spawn, stderr, wait_with_watchdog};
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

/// A line as it reached the test, and when.
type Stamped = (std::time::Instant, String);

/// Reads `from` line by line in a thread, stamping each line as it arrives.
fn stamp_lines(
    from: impl std::io::Read + Send + 'static,
) -> (
    std::sync::mpsc::Receiver<Stamped>,
    std::thread::JoinHandle<()>,
) {
    let (send, receive) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { return };
            if send.send((std::time::Instant::now(), line)).is_err() {
                return;
            }
        }
    });
    (receive, reader)
}

/// Each solution of a burst reaches a reader through a pipe within 50 ms of being found, though
/// no further solution follows for a long time; and SIGKILL, once they were found, leaves them
/// all on the pipe, whole.
#[test]
fn solutions_reach_a_pipe_as_found_and_survive_sigkill() {
    const BURST: usize = 5;
    let dir = std::env::temp_dir().join(format!("csp-burst-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("burst.fzn");
    std::fs::write(&model, burst_then_long_search(BURST, 13, "satisfy")).unwrap();
    // -v notes each solution on stderr when it is found (stderr is not buffered).
    let mut child = spawn(&["fzn", "-a", "-v", "-t", "60000", model.to_str().unwrap()]);
    let (out_lines, out_reader) = stamp_lines(child.stdout.take().unwrap());
    let (err_lines, err_reader) = stamp_lines(child.stderr.take().unwrap());
    let mut found = Vec::new();
    while found.len() < BURST {
        let (at, line) = err_lines
            .recv_timeout(WATCHDOG)
            .expect("csp noted no solution found in 10 s");
        if line.contains(" found at ") {
            found.push(at);
        }
    }
    // The time a found solution may take to reach the pipe, then SIGKILL.
    std::thread::sleep(Duration::from_millis(50));
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait().unwrap();
    out_reader.join().unwrap();
    err_reader.join().unwrap();
    let lines: Vec<Stamped> = out_lines.try_iter().collect();
    let ends: Vec<&Stamped> = lines.iter().filter(|(_, l)| l == "----------").collect();
    assert_eq!(
        ends.len(),
        BURST,
        "{:?}",
        lines.iter().map(|(_, l)| l).collect::<Vec<_>>()
    );
    for (k, ((arrived, _), found)) in ends.iter().zip(&found).enumerate() {
        let late = arrived.saturating_duration_since(*found);
        assert!(
            late <= Duration::from_millis(50),
            "solution {} reached the pipe {late:?} after it was found",
            k + 1
        );
    }
    // Whole records: b = k, then the 13 pigeons, then the separator, for each.
    let text: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    for (k, record) in text.chunks(15).enumerate() {
        assert_eq!(record[0], format!("b = {};", k + 1));
        assert!(
            record[1..14].iter().all(|l| l.ends_with(" = 1;")),
            "{record:?}"
        );
        assert_eq!(record[14], "----------");
    }
    std::fs::remove_dir_all(&dir).ok();
}
