//! The engine's own integration tests, one binary: `cargo test -p csp` runs them with the
//! tests beside each propagator. Each module covers one area:
// A test fails by panicking, so unwrap and expect are the right tools here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(clippy::needless_range_loop)]

/// The inference modes and orders every module runs under.
mod common;
/// What `Solver::new` does with no settings: a search strong enough for the models a
/// newcomer writes first.
mod library_defaults;
/// The LP relaxation against brute force: optima, and every conclusion's reason.
mod lp;
/// Property tests (proptest, fixed seed): solution sets and filtering against brute force.
mod properties;
/// The engine on textbook models, checked against brute force and published counts.
mod textbook;
