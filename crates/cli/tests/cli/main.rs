//! The `csp` binary, run as a user would run it. One test binary; each module covers one area:
// A test fails by panicking, so unwrap and expect are the right tools here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Two libc calls with no safe std equivalent: kill(2) to signal the child, wait4(2) for its memory.
#![allow(unsafe_code)]

/// Large grids and graphs: solved or stopped within the time limit, or refused up front.
mod big_grids;
/// Headless Chromium for the page and plot tests (skipped, visibly, where it is missing).
mod browser;
/// `csp color` on the DIMACS graphs: colourings, proofs of none, the chromatic number.
mod color;
mod color_min;
/// Running the binary and reading what it printed.
mod common;
/// `csp compare`: the table in each format, the ratios, the warnings, the sweep plot.
mod compare;
/// The MiniZinc compilers here: the PATH's, and MiniZinc 2.10 natively or as WebAssembly.
mod compilers;
/// The array route: split, one task per cube, merge.
mod cubes;
/// Every command of the README and of docs/ runs as written.
mod docs;
/// Exit codes, bad arguments, limits, signals and closed pipes.
mod exit_codes;
/// `csp fzn`: the FlatZinc protocol, its options, fzn-gecode's bytes, MiniZinc end to end.
mod fzn;
/// JSON Schema checks for the keywords the trace schema uses.
mod json_schema;
/// What a new user meets: figures, conventions, inputs, options and wording (issue 13).
mod new_user;
/// `--proof`: DRCP proofs checked by Pumpkin's checker, and the runs it refuses.
mod proof;
/// Python: the `minizinc` package from PyPI solving with csp.
mod python;
/// Counts through the command line for every engine and mode, against OEIS.
mod queens_counts;
/// What `csp queens` prints, byte for byte, in each format.
mod queens_output;
mod readme;
/// The records of a search: trace JSON against its schema, the tree, SVG, the replay page.
mod records;
/// `--trace`, `--stats` and `--help`.
mod reporting;
/// Every command and engine stops on its time limit, SIGINT and SIGTERM, with partial results.
mod stops;
/// Streaming: solutions on the pipe as found, prompt ends under `head`, flat memory.
mod streaming;
/// `csp sudoku` on the published sets: answers, shapes, errors and exit codes.
mod sudoku;
/// `csp xcsp3`: the competition's answer lines on instances of its set, and unsupported parts.
mod xcsp3;
