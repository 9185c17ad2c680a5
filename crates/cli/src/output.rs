//! `Output`: buffered stdout that writes whole records and notices a closed pipe.

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
