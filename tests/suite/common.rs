//! Helpers shared by the suite's modules.

use csp_toolkit::csp::{Inference, Solver, Summary, ValueOrder, VarOrder};
use csp_toolkit::nqueens::{Encoding, QueensModel};
use std::ops::ControlFlow;

pub const MODES: [Inference; 4] = [
    Inference::None,
    Inference::ForwardChecking,
    Inference::Mac,
    Inference::Lcg,
];
/// The modes that search depth-first in the order given, one value after another: the
/// order of their solutions and the shape of their tree can be asserted. Learning (`lcg`)
/// finds the same solutions in an order of its own.
pub const CHRONOLOGICAL: [Inference; 3] =
    [Inference::None, Inference::ForwardChecking, Inference::Mac];
pub const ENCODINGS: [Encoding; 2] = [Encoding::Binary, Encoding::AllDiff];
pub const VAR_ORDERS: [VarOrder; 4] = [
    VarOrder::Input,
    VarOrder::MinDomain,
    VarOrder::DomDeg,
    VarOrder::DomWdeg,
];
pub const VALUE_ORDERS: [ValueOrder; 4] = [
    ValueOrder::Ascending,
    ValueOrder::Descending,
    ValueOrder::LeastConstraining,
    ValueOrder::Random { seed: 7 },
];

/// A000170 from tests/data (OEIS), with a(0) = 1 added as the OEIS gives it.
pub fn oeis_a000170() -> Vec<u64> {
    let text = include_str!("../data/nqueens_oeis_counts.csv");
    let mut counts = vec![1];
    for (i, line) in text.lines().skip(1).enumerate() {
        let mut fields = line.split(',');
        let n: usize = fields.next().unwrap().parse().unwrap();
        assert_eq!(n, i + 1, "the table is in order");
        counts.push(fields.next().unwrap().parse().unwrap());
    }
    counts
}

/// A queens configuration.
#[derive(Copy, Clone, Debug)]
pub struct Config {
    pub encoding: Encoding,
    pub inference: Inference,
    pub var_order: VarOrder,
    pub value_order: ValueOrder,
}

impl Config {
    pub fn plain(encoding: Encoding, inference: Inference) -> Self {
        Config {
            encoding,
            inference,
            var_order: VarOrder::Input,
            value_order: ValueOrder::Ascending,
        }
    }

    /// Solves n-queens, handing each solution's columns to `each`.
    pub fn solve(
        &self,
        n: usize,
        max_solutions: Option<u64>,
        mut each: impl FnMut(Vec<usize>),
    ) -> Summary {
        let queens = QueensModel::new(n, self.encoding).unwrap();
        Solver::new(&queens.model)
            .inference(self.inference)
            .var_order(self.var_order)
            .value_order(self.value_order)
            .max_solutions(max_solutions)
            .solve(|s| {
                each(queens.columns(s));
                ControlFlow::Continue(())
            })
    }
}
