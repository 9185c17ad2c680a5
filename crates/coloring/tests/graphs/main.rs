//! The colouring crate on the DIMACS benchmark graphs and on random graphs. One test binary:
// A test fails by panicking, so unwrap and expect are the right tools here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

/// Chromatic numbers of the DIMACS graphs, as published, and the DIMACS reader.
mod dimacs_graphs;
/// The chromatic-number and K-colouring drivers.
mod drivers;
/// Random small graphs against brute force.
mod random_graphs;
/// The largest-clique search and TabuCol against brute force.
mod strong_bounds;
