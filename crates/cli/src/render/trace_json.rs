//! `--trace-json FILE`: the search's events as JSON lines, after one header line.
//!
//! The format is documented, with its version, by the JSON Schema in `docs/trace-schema.json`:
//! line 1 is a header (`schema`, `version`, `problem`, `config`, `variables`, `constraints`),
//! every later line one event (`assign`, `prune`, `wipeout`, `violation`, `backtrack`,
//! `solution`). Variables and constraints are numbered from 0 in the header's order.

use crate::events::{Event, EventSink, Header};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Streams events to a file; the first write error is kept and reported at the end.
pub struct TraceJson {
    writer: BufWriter<File>,
    pub error: Option<std::io::Error>,
}

impl TraceJson {
    pub fn create(path: &Path, header: &Header) -> Result<Self, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut trace = TraceJson {
            writer: BufWriter::new(file),
            error: None,
        };
        trace.line(header);
        Ok(trace)
    }

    fn line<T: serde::Serialize>(&mut self, value: &T) {
        if self.error.is_some() {
            return;
        }
        let result = serde_json::to_writer(&mut self.writer, value)
            .map_err(std::io::Error::from)
            .and_then(|()| self.writer.write_all(b"\n"));
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    /// Flushes the file; the error, if any write failed.
    pub fn finish(mut self) -> Option<std::io::Error> {
        if let Err(e) = self.writer.flush() {
            self.error.get_or_insert(e);
        }
        self.error
    }
}

impl EventSink for TraceJson {
    fn event(&mut self, event: Event) {
        self.line(&event);
    }
}
