//! Each command's search when no option says otherwise: one table, so that a default is
//! changed, and seen, in one place. Each row says why it is what it is.

use crate::search_options::SearchSettings;
use csp::{Inference, Sense, ValueOrder, VarOrder};

/// Whose defaults: a command, or a case of one whose defaults depend on the run.
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
    /// `csp fzn` (what `minizinc --solver csp` runs) on a model with a declared search and
    /// without `-f`: arc consistency, the declared search followed as Gecode follows it (the
    /// MiniZinc Challenge's FD class asks for that), dom/wdeg for the variables it leaves.
    Fzn,
    /// `csp fzn -f`, or a model without a declared search: learning, with large
    /// neighbourhood search under an objective. On the MiniZinc Challenge 2024 at 60 s
    /// (free class, scripts/bench-mznc): Borda 1246, 81 solved, 13 complete, against 935,
    /// 79 and 9 for learning alone and 808, 67 and 12 for arc consistency (README).
    FznFree,
    /// `csp xcsp3 --count`: the whole tree is explored, where the smallest domain first has
    /// been the better order on the competition's instances (Bibd, SocialGolfers: under a
    /// second against over a minute with dom/wdeg).
    Xcsp3Count,
    /// `csp xcsp3` for one solution: found sooner with dom/wdeg's learnt weights.
    Xcsp3Solve,
    /// `csp xcsp3` on an optimisation: learning with large neighbourhood search, as `csp fzn`
    /// searches freely, values in the objective's direction, which most objectives follow (a
    /// sum of colours minimised, a bin packing by its largest items first). At 10 s on the
    /// optimisations of ../shared/xcsp3 and of the wider set PyCSP3's models give (issue 41's
    /// note), it proved as many optima as arc consistency with wdeg on the first and more on
    /// the second, and found better bounds than either learning alone or arc consistency.
    /// Unless a search option is given, arc consistency with these orders runs beside it
    /// (`csp::Portfolio::optimising`, `csp::OPTIMISATION_SHARES`).
    Xcsp3Optimise(Sense),
    /// A configuration of `csp compare`, which names its mode: input order and ascending
    /// values unless it names others, so that each column changes one thing.
    Compare(Inference),
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
            Defaults::FznFree => (
                Inference::Lcg,
                VarOrder::DomWdeg,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::Color | Defaults::Fzn | Defaults::Xcsp3Solve => (
                Inference::Mac,
                VarOrder::DomWdeg,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::Xcsp3Count => (
                Inference::Mac,
                VarOrder::MinDomain,
                ValueOrder::Ascending,
                None,
            ),
            Defaults::Xcsp3Optimise(Sense::Minimize) => {
                (Inference::Lcg, VarOrder::Wdeg, ValueOrder::Ascending, None)
            }
            Defaults::Xcsp3Optimise(Sense::Maximize) => {
                (Inference::Lcg, VarOrder::Wdeg, ValueOrder::Descending, None)
            }
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

    /// A model without a declared search gets the same search from `csp fzn`, `csp xcsp3`
    /// (one solution), `csp color` and the library's `Solver::new`, so that a model moved
    /// from the command line into Rust code behaves as it did.
    #[test]
    fn the_library_defaults_are_the_command_lines_for_a_model_without_a_search() {
        let library = (
            Inference::default(),
            VarOrder::default(),
            ValueOrder::default(),
        );
        for row in [Defaults::Fzn, Defaults::Xcsp3Solve, Defaults::Color] {
            let s = row.settings();
            assert_eq!(
                (s.inference, s.var_order, s.value_order),
                library,
                "{row:?}"
            );
        }
    }
}
