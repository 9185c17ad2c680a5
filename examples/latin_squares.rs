//! Latin squares of order 4: every row and column holds 1 to 4 once. There are 576 (OEIS
//! A002860).

use csp_toolkit::csp::{Model, ModelError, Solver, VarId};

/// The number of Latin squares of order `n`.
fn count(n: usize) -> Result<u64, ModelError> {
    let mut model = Model::new();
    let cells = (0..n * n)
        .map(|_| model.new_var(1..=n as i32))
        .collect::<Result<Vec<_>, _>>()?;
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let column: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        model.all_different(&row)?;
        model.all_different(&column)?;
    }
    Ok(Solver::new(&model).count())
}

fn main() -> Result<(), ModelError> {
    println!("Latin squares of order 4: {}", count(4)?);
    Ok(())
}

#[test]
fn there_are_576_of_order_4() {
    assert_eq!(count(4).unwrap(), 576);
    assert_eq!(count(3).unwrap(), 12);
}
