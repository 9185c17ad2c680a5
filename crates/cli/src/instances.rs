//! Reading the instances several commands take from files: DIMACS graphs (`csp color`,
//! `csp compare color`) and XCSP3 files, plain or LZMA-compressed (`csp xcsp3`,
//! `csp compare xcsp3`).

use crate::exit_code::Status;
use crate::input::{self, ReadStop};
use coloring::{DimacsGraph, DimacsReader};
use csp::{Limit, Poller};
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::ops::ControlFlow;

/// How a phase before the search ended early.
pub(crate) enum Early {
    /// A message for the user and the status to exit with.
    Failed(String, Status),
    /// A limit stopped the run while it was doing this (a phrase: "reading the graph").
    Stopped(Limit, &'static str),
}

/// Reads the DIMACS graph in `file` (`-` for standard input) line by line, ticking `poller` per
/// line: `csp color`'s and `csp compare color`'s reader.
pub(crate) fn read_graph(
    file: &std::path::Path,
    poller: &mut Poller,
) -> Result<DimacsGraph, Early> {
    let name = file.display().to_string();
    let failed = |message: String| Early::Failed(message, Status::BadInput);
    let input: Box<dyn BufRead + Send> = if name == "-" {
        if io::stdin().is_terminal() {
            eprintln!(
                "csp color: reading a DIMACS graph from the terminal ('p edge V E', then \
                 'e u v' lines); Ctrl-D ends it"
            );
        }
        Box::new(BufReader::new(io::stdin()))
    } else {
        let file = File::open(file).map_err(|e| failed(format!("cannot read {name}: {e}")))?;
        Box::new(BufReader::new(file))
    };
    let mut reader = DimacsReader::new();
    let mut bad = None;
    let read = input::for_each_line(input, poller, |number, bytes| {
        let Ok(line) = std::str::from_utf8(bytes) else {
            bad = Some(format!("{name}: line {number}: not valid UTF-8 text"));
            return ControlFlow::Break(());
        };
        match reader.feed(number, line.trim_end_matches(['\n', '\r'])) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                bad = Some(format!("{name}: {e}"));
                ControlFlow::Break(())
            }
        }
    });
    let last = match read {
        Ok(last) => last,
        Err(ReadStop::Io(line, e)) => return Err(failed(format!("{name}: line {line}: {e}"))),
        Err(ReadStop::Limit(limit)) => return Err(Early::Stopped(limit, "reading the graph")),
    };
    if let Some(message) = bad {
        return Err(failed(message));
    }
    reader
        .finish(last)
        .map_err(|e| failed(format!("{name}: {e}")))
}

/// The text of the instance at `file`, unpacked when it is LZMA-compressed (`.lzma`).
pub(crate) fn read_instance(file: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let compressed = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lzma"));
    if compressed {
        return xcsp3::decompress(&bytes).map_err(|e| format!("{}: {e}", file.display()));
    }
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", file.display()))
}
