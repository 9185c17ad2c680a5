//! `Statistics`: what a solve did, counted the same way in every inference mode.

use serde::{Serialize, Serializer};
use std::time::Duration;

/// The figures of one solve. Each counter means the same thing whatever the inference mode,
/// so they can be compared side by side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Statistics {
    /// Assignments tried: each time the search gives a variable a value, whether or not the
    /// value then survives checking or propagation.
    pub nodes: u64,
    /// Failed nodes: assignments that a constraint check or propagation showed to be dead
    /// (a violated constraint or a wiped-out domain).
    pub backtracks: u64,
    /// Constraint checks: tests of whether a value or a combination of values is allowed by a
    /// constraint, whoever makes them (plain checking, forward checking, arc consistency, or a
    /// value-ordering look-ahead). Removing a value known to clash without testing others counts
    /// as one check.
    pub checks: u64,
    /// Propagator runs: calls to a constraint's filtering (`forward_check` under fc,
    /// `propagate` under mac). Always 0 under `none`, which filters nothing.
    pub propagations: u64,
    /// Values pruned: values removed from domains by filtering. The values a variable loses
    /// when the search assigns it do not count.
    pub pruned: u64,
    /// Domain wipe-outs: times filtering removed the last value of a variable.
    pub wipeouts: u64,
    /// Maximum depth: the most variables assigned by the search at once.
    pub max_depth: u64,
    /// Solutions delivered.
    pub solutions: u64,
    /// Restarts: times the search started again from the root (see `Solver::restarts`), or
    /// a local search from a new random start.
    pub restarts: u64,
    /// Moves: changes a local search made to its complete assignment (min-conflicts' swaps).
    /// Always 0 for a tree search, which makes none.
    pub moves: u64,
    /// Nogoods learned from conflicts (`lcg` only; blocking nogoods after solutions not
    /// counted).
    pub learned: u64,
    /// Atoms in the nogoods learned, all told: over `learned`, their average length.
    pub learned_atoms: u64,
    /// Decision levels taken back by backjumps after conflicts, all told: over `learned`,
    /// the average jump (1 is a chronological backtrack).
    pub backjump_levels: u64,
    /// Wall-clock time of the solve, in seconds in JSON (`elapsed_s`).
    #[serde(rename = "elapsed_s", serialize_with = "seconds")]
    pub elapsed: Duration,
}

impl Statistics {
    /// Adds another solve's figures to these, as for a run made of several solves: counters
    /// and times are summed, and the maximum depth is the deeper of the two.
    pub fn add(&mut self, other: &Statistics) {
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
        self.checks += other.checks;
        self.propagations += other.propagations;
        self.pruned += other.pruned;
        self.wipeouts += other.wipeouts;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.solutions += other.solutions;
        self.restarts += other.restarts;
        self.moves += other.moves;
        self.learned += other.learned;
        self.learned_atoms += other.learned_atoms;
        self.backjump_levels += other.backjump_levels;
        self.elapsed += other.elapsed;
    }
}

fn seconds<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}
