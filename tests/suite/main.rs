//! The toolkit's integration tests, one binary: the engine on the models of the crates built
//! on it (the engine's own tests are in `crates/csp/tests`). Each module covers one area:
// A test fails by panicking, so unwrap and expect are the right tools here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Board sizes index the OEIS tables directly, which reads better than zipped iterators.
#![allow(clippy::needless_range_loop)]

/// Shared helpers: the OEIS table, solving a queens model under a configuration.
mod common;
/// Limits, the observer, the iterator and model-building errors.
mod engine_api;
/// N-Queens counts against OEIS A000170 for every mode, encoding, heuristic and the bitmask engine.
mod queens_counts;
/// The three inference modes agree on solution sets, and prune as much as they promise.
mod queens_modes;
