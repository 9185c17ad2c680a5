//! `Neighbourhoods`: which part of the incumbent a large neighbourhood search keeps fixed in
//! its next run, and how large a part it frees, adapted to how the runs before ended.

use crate::propagation::domains::Domains;
use crate::rng::SplitMix64;
use crate::{Atom, VarId};

/// The share of the candidates freed in the first neighbourhood.
const FIRST_FREED: f64 = 0.2;
/// How much the freed share grows after a neighbourhood was explored to the end without a
/// better solution (too small to hold one), and shrinks after one ran out of budget (too large
/// to explore). The two balance at about the runs that end each way.
const GROWTH: f64 = 1.2;
const SHRINK: f64 = 0.85;
/// The freed share stays between these.
const LEAST_FREED: f64 = 0.01;
const MOST_FREED: f64 = 0.9;
/// Neighbourhoods in a row without a better solution (at 200 conflicts each, up to 10,000)
/// after which their share of the conflicts halves, and again after as many more, down to
/// one part in `1 << MOST_HALVINGS` of the complete search's: once they stop improving, the
/// complete search, which alone proves the optimum, takes the time. MiniZinc Challenge
/// 2024 at 60 s under `-f`: 31 complete against 29 (harmony ode, train-scheduling trains05
/// proved; brother 59 s to 35 s), for a Borda count of 1479.9 against 1501.8 (the
/// neighbourhoods found less on accap, peaceable queens, yumi-dynamic).
const DROUGHT_RUNS: u32 = 50;
const MOST_HALVINGS: u32 = 3;

/// How a neighbourhood's run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A better solution was found in it.
    Improved,
    /// Its fixings were refuted: it holds no better solution.
    Exhausted,
    /// It ran out of conflicts first.
    OutOfBudget,
}

/// The next fixing to decide in a neighbourhood's run.
pub(crate) enum Fixing {
    /// Decide this atom.
    Decide(Atom),
    /// A fixing no longer holds: the neighbourhood holds no better solution.
    Refuted,
    /// Every fixing holds: search the freed variables.
    Settled,
}

/// The neighbourhoods of one solve: the variables it may fix (a declared search's or the
/// model's outputs, in their order), the share it frees, and the fixings of the current run.
#[derive(Clone, Debug)]
pub(crate) struct Neighbourhoods {
    candidates: Vec<VarId>,
    rng: SplitMix64,
    freed: f64,
    /// The current run's fixings, `(variable, incumbent value)`, in the order decided.
    fixings: Vec<(VarId, i32)>,
    /// The fixings before this one hold at the current decision level.
    settled: usize,
    /// Whether the current run is a neighbourhood's.
    pub(crate) active: bool,
    /// Neighbourhoods in a row that ended without a better solution since the last one.
    drought: u32,
    /// Scratch: which candidates the current neighbourhood frees.
    free: Vec<bool>,
    /// Scratch: the candidates' positions, for a random draw.
    order: Vec<usize>,
}

impl Neighbourhoods {
    pub(crate) fn new(candidates: Vec<VarId>, seed: u64) -> Self {
        let n = candidates.len();
        Neighbourhoods {
            candidates,
            rng: SplitMix64::new(seed ^ 0x4c4e_5321),
            freed: FIRST_FREED,
            fixings: Vec::new(),
            settled: 0,
            active: false,
            drought: 0,
            free: vec![false; n],
            order: (0..n).collect(),
        }
    }

    /// Starts a neighbourhood's run around `incumbent` (one value per model variable): a
    /// random share of the candidates, or a window of consecutive ones (a stretch of time, a
    /// segment of a route, when the model lists its variables in such an order), is freed;
    /// the others are to be fixed at their incumbent values.
    pub(crate) fn start(&mut self, incumbent: &[i32], domains: &Domains) {
        let n = self.candidates.len();
        let freed = ((self.freed * n as f64).ceil() as usize).clamp(1, n.max(1));
        self.free.iter_mut().for_each(|f| *f = false);
        if self.rng.below(2) == 0 {
            let start = self.rng.below(n as u64) as usize;
            for k in 0..freed {
                self.free[(start + k) % n] = true;
            }
        } else {
            // A partial Fisher-Yates draw of `freed` distinct positions (any permutation
            // left from the last draw will do as a start).
            for k in 0..freed {
                let pick = k + self.rng.below((n - k) as u64) as usize;
                self.order.swap(k, pick);
                self.free[self.order[k]] = true;
            }
        }
        self.fixings.clear();
        for (k, &var) in self.candidates.iter().enumerate() {
            if !self.free[k] && domains.size(var) > 1 {
                self.fixings.push((var, incumbent[var.index()]));
            }
        }
        // Fixed in a random order, so that which fixings refute the others varies.
        for k in (1..self.fixings.len()).rev() {
            let pick = self.rng.below(k as u64 + 1) as usize;
            self.fixings.swap(k, pick);
        }
        self.settled = 0;
        self.active = true;
    }

    /// The current run's next fixing at the current domains.
    pub(crate) fn next(&mut self, domains: &Domains) -> Fixing {
        while let Some(&(var, value)) = self.fixings.get(self.settled) {
            if !domains.contains(var, value) {
                return Fixing::Refuted;
            }
            if domains.size(var) > 1 {
                return Fixing::Decide(Atom::Eq(var, value));
            }
            self.settled += 1;
        }
        Fixing::Settled
    }

    /// The search jumped back: fixings decided since may be undone.
    pub(crate) fn backjumped(&mut self) {
        self.settled = 0;
    }

    /// Whether the next run is a neighbourhood's, after `spent` conflicts in neighbourhoods
    /// and `complete` in the complete search: while neighbourhoods improve, as long as they
    /// have had fewer; in a drought of [`DROUGHT_RUNS`] runs, fewer than half, then a quarter,
    /// then an eighth.
    pub(crate) fn due(&self, spent: u64, complete: u64) -> bool {
        let halvings = (self.drought / DROUGHT_RUNS).min(MOST_HALVINGS);
        spent.saturating_mul(1 << halvings) < complete
    }

    /// A better solution was found (in a neighbourhood or not): the drought is over.
    pub(crate) fn improved(&mut self) {
        self.drought = 0;
    }

    /// Ends the current run and adapts the share freed to how it ended.
    pub(crate) fn end(&mut self, ending: Ending) {
        self.active = false;
        self.drought = match ending {
            Ending::Improved => 0,
            Ending::Exhausted | Ending::OutOfBudget => self.drought.saturating_add(1),
        };
        self.freed = match ending {
            Ending::Improved => self.freed,
            Ending::Exhausted => (self.freed * GROWTH).min(MOST_FREED),
            Ending::OutOfBudget => (self.freed * SHRINK).max(LEAST_FREED),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neighbourhoods_share_halves_in_each_drought_of_fifty_runs_and_comes_back_on_improving() {
        let mut lns = Neighbourhoods::new(vec![VarId(0)], 1);
        // Equal shares: due while behind the complete search.
        assert!(lns.due(999, 1000));
        assert!(!lns.due(1000, 1000));
        let ends = |lns: &mut Neighbourhoods, k: u32| {
            for i in 0..k {
                let ending = [Ending::Exhausted, Ending::OutOfBudget][i as usize % 2];
                lns.end(ending);
            }
        };
        ends(&mut lns, DROUGHT_RUNS - 1);
        assert!(
            lns.due(999, 1000),
            "49 runs without improvement: still equal"
        );
        ends(&mut lns, 1);
        assert!(!lns.due(500, 1000) && lns.due(499, 1000), "a half after 50");
        ends(&mut lns, DROUGHT_RUNS);
        assert!(
            !lns.due(250, 1000) && lns.due(249, 1000),
            "a quarter after 100"
        );
        ends(&mut lns, 10 * DROUGHT_RUNS);
        assert!(
            !lns.due(125, 1000) && lns.due(124, 1000),
            "an eighth at most"
        );
        lns.improved();
        assert!(
            lns.due(999, 1000),
            "a better solution anywhere ends the drought"
        );
        ends(&mut lns, 2 * DROUGHT_RUNS);
        assert!(!lns.due(300, 1000));
        lns.end(Ending::Improved);
        assert!(lns.due(999, 1000), "so does one found in a neighbourhood");
    }
}
