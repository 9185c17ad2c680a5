//! The search each kind of run gets when no option says otherwise: one table, so that a
//! default is changed, and seen, in one place. Each row says why it is what it is.

use crate::settings::SearchSettings;
use csp::{Inference, Sense, ValueOrder, VarOrder};

/// Whose defaults: a puzzle command, or a kind of model run, whose row the facts of the run
/// pick ([`crate::plan`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Defaults {
    /// `csp queens`: listing in lexicographic order needs input order and ascending values;
    /// forward checking on the alldiff encoding is also the fastest csp configuration for
    /// counting.
    Queens,
    /// `csp queens --first` with a dynamic variable order and no value order: with ascending
    /// values, mrv goes down an early mistake on large boards and does not come back up
    /// (10,000 queens: no solution in 60 s, as Gecode's first-fail already at 1,000); random
    /// values (seed 1, or --seed) restarted after 100 x 1, 1, 2, ... failures find one in a
    /// few seconds, as Chuffed's and OR-Tools' free searches restart.
    QueensFirstDynamic,
    /// `csp sudoku`: the fastest configuration on the hard sets (see the README's figures).
    Sudoku,
    /// `csp color`: arc consistency with dom/wdeg, with all-different over the graph's
    /// cliques: proving that queen8_8 has no 8-colouring took 1.0 s against 15.0 s with
    /// forward checking and the edges alone (README).
    Color,
    /// A configuration of `csp compare`, which names its mode: input order and ascending
    /// values unless it names others, so that each column changes one thing.
    Compare(Inference),
    /// A model with a declared search that is followed (FlatZinc's annotations, without
    /// `-f`): arc consistency, the declared search followed as Gecode follows it (the
    /// MiniZinc Challenge's FD class asks for that), dom/wdeg for the variables it leaves.
    Declared,
    /// One solution of a model searched freely, by several searches side by side: first arc
    /// consistency with dom/wdeg's learnt weights, learning beside it
    /// ([`crate::Workers::Varied`], [`crate::SATISFACTION_THREADS`]). The library's
    /// `Solver::new` searches so too.
    Solve,
    /// One solution of a model searched freely, by one search (`-p 1`, `threads=1`, and
    /// `csp fzn`, which runs one search unless `-p` asks for more, as MiniZinc's protocol
    /// has it): learning, which alone answered more than arc consistency alone on both sets
    /// of issue 41's note (XCSP3 competition mode, 30 s: the wider set's 51 CSPs, 46 against
    /// 43; `../shared/xcsp3`'s 43, 42 against 41). `csp fzn -f` searched so before the
    /// policy.
    SolveAlone,
    /// Many or all solutions of a model searched freely, or their count: the whole tree is
    /// explored, where the smallest domain first has been the better order on the XCSP3
    /// competition's instances (Bibd, SocialGolfers: under a second against over a minute
    /// with dom/wdeg).
    Count,
    /// An optimisation searched freely: learning with large neighbourhood search, values in
    /// the objective's direction, which most objectives follow (a sum of colours minimised,
    /// a bin packing by its largest items first), beside two arc-consistency searches
    /// unless one search is asked for (`csp::Portfolio::optimising`,
    /// `csp::OPTIMISATION_SHARES`). On the MiniZinc Challenge 2024 at 60 s (free class,
    /// scripts/bench-mznc), learning with large neighbourhood search scored Borda 1246, 81
    /// solved, 13 complete, against 935, 79 and 9 for learning alone and 808, 67 and 12 for
    /// arc consistency (README). At 10 s on the optimisations of ../shared/xcsp3 and of the
    /// wider set (issue 41's note), it proved as many optima as arc consistency with wdeg on
    /// the first and more on the second, and found better bounds than either learning alone
    /// or arc consistency. The arc-consistency searches follow dom/wdeg (learning follows no
    /// order): through CPMpy it proved vrp in 0.93 s against 4.49 s with wdeg,
    /// flexible_jobshop in 0.21 s against 0.29 s, npuzzle in 0.28 s against 0.35 s; on
    /// `../shared/xcsp3`'s 42 optimisations both orders proved 40 at 10 s and all at 30 s,
    /// dom/wdeg faster on Golomb, QueenAttacking and TravelingSalesman and slower on two
    /// BinPacking (issue 42's note; `csp xcsp3` had kept wdeg on that set until the policy
    /// made one choice for every front end).
    Optimise(Sense),
}

impl Defaults {
    /// The settings of this row.
    pub const fn settings(self) -> SearchSettings {
        let (inference, var_order, value_order, restarts) = match self {
            Defaults::Queens => (
                Inference::ForwardChecking,
                VarOrder::Input,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::QueensFirstDynamic => (
                Inference::ForwardChecking,
                VarOrder::Input,
                ValueOrder::Random { seed: 1 },
                Some(100),
            ),
            Defaults::Sudoku => (
                Inference::Mac,
                VarOrder::MinDomain,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::Color | Defaults::Declared | Defaults::Solve => (
                Inference::Mac,
                VarOrder::DomWdeg,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::Count => (
                Inference::Mac,
                VarOrder::MinDomain,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::SolveAlone | Defaults::Optimise(Sense::Minimize) => (
                Inference::Lcg,
                VarOrder::DomWdeg,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::Optimise(Sense::Maximize) => (
                Inference::Lcg,
                VarOrder::DomWdeg,
                ValueOrder::Descending,
                None,
            ),
            Defaults::Compare(inference) => {
                (inference, VarOrder::Input, ValueOrder::Ascending, None)
            }
        };
        SearchSettings {
            inference,
            var_order,
            value_order,
            restarts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Defaults;
    use csp::{Inference, ValueOrder, VarOrder};

    /// A model searched for one solution gets the search of the library's `Solver::new`
    /// (as its first worker), and so does `csp color`, so that a model moved from the command
    /// line into Rust code behaves as it did.
    #[test]
    fn the_library_defaults_are_those_of_one_solution_searched_freely() {
        let library = (
            Inference::default(),
            VarOrder::default(),
            ValueOrder::default(),
        );
        for row in [Defaults::Solve, Defaults::Declared, Defaults::Color] {
            let s = row.settings();
            assert_eq!(
                (s.inference, s.var_order, s.value_order),
                library,
                "{row:?}"
            );
        }
    }
}
