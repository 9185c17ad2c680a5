//! Input read line by line on a thread of its own, so that a run waiting for input (a
//! terminal, a slow pipe) or reading a huge file still sees its time limit and a signal.

use csp::{Limit, Poller};
use std::io::{self, BufRead};
use std::ops::ControlFlow;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Lines sent over in one message.
const LINES_PER_BATCH: usize = 1024;

/// Batches the reading thread may get ahead of the caller.
const BATCHES_AHEAD: usize = 4;

/// How long the caller waits for input before it reads its limits again.
const INPUT_WAIT: Duration = Duration::from_millis(10);

/// Why the reading ended before the end of the input.
#[derive(Debug)]
pub enum ReadStop {
    /// The input could not be read, at this line (1-based).
    Io(usize, io::Error),
    /// A limit stopped the run.
    Limit(Limit),
}

/// Hands each line of `input` (with its line ending, as read) and its 1-based number to
/// `each` until the input ends or `each` breaks; returns the number of lines read. The poller
/// is ticked once per line and read while the input keeps the caller waiting.
pub fn for_each_line(
    input: Box<dyn BufRead + Send>,
    poller: &mut Poller,
    mut each: impl FnMut(usize, &[u8]) -> ControlFlow<()>,
) -> Result<usize, ReadStop> {
    let (sender, receiver) = mpsc::sync_channel::<io::Result<Vec<Vec<u8>>>>(BATCHES_AHEAD);
    // Detached: if it is blocked in a read when the run ends, the process's exit ends it.
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut batch = Vec::with_capacity(LINES_PER_BATCH);
            let mut failed = None;
            while batch.len() < LINES_PER_BATCH {
                let mut line = Vec::new();
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) => batch.push(line),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            let done = batch.len() < LINES_PER_BATCH;
            if !batch.is_empty() && sender.send(Ok(batch)).is_err() {
                return;
            }
            if let Some(e) = failed {
                let _ = sender.send(Err(e));
                return;
            }
            if done {
                return;
            }
        }
    });
    let mut number = 0;
    loop {
        let batch = match receiver.recv_timeout(INPUT_WAIT) {
            Ok(Ok(batch)) => batch,
            Ok(Err(e)) => return Err(ReadStop::Io(number + 1, e)),
            Err(RecvTimeoutError::Timeout) => {
                if !poller.check() {
                    return Err(ReadStop::Limit(stopped(poller)));
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(number),
        };
        for line in batch {
            if !poller.tick() {
                return Err(ReadStop::Limit(stopped(poller)));
            }
            number += 1;
            if each(number, &line).is_break() {
                return Ok(number);
            }
        }
    }
}

fn stopped(poller: &Poller) -> Limit {
    poller.stopped().unwrap_or(Limit::Cancelled)
}
