//! N-Queens through the public `csp` API: rows are variables, columns their values.

use csp_toolkit::csp::{Inference, Model, Solver};
use std::ops::ControlFlow;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: i32 = std::env::args().nth(1).map_or(Ok(8), |a| a.parse())?;
    let mut model = Model::new();
    let rows = (0..n)
        .map(|_| model.new_var(0..=n - 1))
        .collect::<Result<Vec<_>, _>>()?;
    let row_offsets: Vec<i32> = (0..n).collect();
    let minus_offsets: Vec<i32> = (0..n).map(|i| -i).collect();
    model.all_different(&rows)?; // one queen per column
    model.all_different_offsets(&rows, &row_offsets)?; // q[i] + i: one per "/" diagonal
    model.all_different_offsets(&rows, &minus_offsets)?; // q[i] - i: one per "\" diagonal

    let solver = Solver::new(&model).inference(Inference::ForwardChecking);
    if let Some(first) = solver.first() {
        for &column in &first {
            let row: String = (0..n)
                .map(|c| if c == column { 'Q' } else { '.' })
                .collect();
            println!("{row}");
        }
    }
    let summary = solver.solve(|_| ControlFlow::Continue(()));
    println!("{n}-queens has {} solutions", summary.stats.solutions);
    println!(
        "nodes {}, backtracks {}",
        summary.stats.nodes, summary.stats.backtracks
    );
    Ok(())
}

#[test]
fn runs() {
    assert!(main().is_ok());
}
