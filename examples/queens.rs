//! N-Queens through the public `csp` API: rows are variables, columns their values.

use csp_toolkit::csp::{Inference, Model, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Run as a test, the first argument may be the test harness's own (`--quiet`).
    let given = std::env::args().nth(1).filter(|a| !a.starts_with("--"));
    let n: i32 = given.map_or(Ok(8), |a| a.parse())?;
    let mut model = Model::new();
    let rows = (0..n)
        .map(|_| model.new_var(0..=n - 1))
        .collect::<Result<Vec<_>, _>>()?;
    model.all_different(&rows)?; // one queen per column
    let up: Vec<i32> = (0..n).collect();
    model.all_different_offsets(&rows, &up)?; // q[i] + i: one per "/" diagonal
    let down: Vec<i32> = (0..n).map(|i| -i).collect();
    model.all_different_offsets(&rows, &down)?; // q[i] - i: one per "\" diagonal

    let solver = Solver::new(&model).inference(Inference::ForwardChecking);
    for &column in &solver.first().unwrap_or_default() {
        let row: String = (0..n)
            .map(|c| if c == column { 'Q' } else { '.' })
            .collect();
        println!("{row}");
    }
    println!("{n}-queens has {} solutions", solver.count());
    Ok(())
}

#[test]
fn runs() {
    assert!(main().is_ok());
}
