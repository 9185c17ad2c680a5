//! `Output`: buffered stdout that writes whole records and notices a closed pipe.

use crate::exit_code::Status;
use std::io::{self, BufWriter, Stdout, Write};

/// Standard output, written one whole record (a board, a line) at a time, so whatever reaches
/// the reader is complete even when the run is stopped.
pub struct Output {
    writer: BufWriter<Stdout>,
    /// The reader went away (EPIPE): stop quietly.
    pub closed: bool,
    /// Any other write error, reported once at the end.
    pub error: Option<io::Error>,
}

impl Output {
    pub fn new() -> Self {
        Output {
            writer: BufWriter::with_capacity(64 * 1024, io::stdout()),
            closed: false,
            error: None,
        }
    }

    /// Writes one record; returns false once output is no longer possible.
    pub fn record(&mut self, bytes: &[u8]) -> bool {
        if self.closed || self.error.is_some() {
            return false;
        }
        let result = self.writer.write_all(bytes);
        self.absorb(result)
    }

    /// Flushes, so that a slow search shows what it has found so far.
    pub fn flush(&mut self) -> bool {
        if self.closed || self.error.is_some() {
            return false;
        }
        let result = self.writer.flush();
        self.absorb(result)
    }

    /// Flushes what is left at the end of a run. Returns the status the run ends with when
    /// output failed: success when the reader went away (as `head` does), and bad input, with
    /// one line naming `command`, for any other write error. `None` when all was written.
    pub fn finish(&mut self, command: &str) -> Option<Status> {
        self.flush();
        if self.closed {
            return Some(Status::Success);
        }
        let e = self.error.take()?;
        eprintln!("{command}: cannot write the output: {e}");
        Some(Status::BadInput)
    }

    fn absorb(&mut self, result: io::Result<()>) -> bool {
        match result {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                false
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    pub fn is_open(&self) -> bool {
        !self.closed && self.error.is_none()
    }
}
