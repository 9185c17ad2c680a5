//! Magic squares: 1..n² in an n x n grid, every row, column and diagonal summing to
//! n(n²+1)/2. Counts: 8 for 3x3 (1 up to symmetry) and 7040 for 4x4 (OEIS A006052: 880 up to
//! symmetry).

use csp_toolkit::csp::{Inference, Model, ModelError, Relation, Solver, VarId, VarOrder};

/// The number of n x n magic squares.
fn count(n: usize) -> Result<u64, ModelError> {
    let top = (n * n) as i32;
    let magic = (n * (n * n + 1) / 2) as i64;
    let mut model = Model::new();
    let cells = (0..n * n)
        .map(|_| model.new_var(1..=top))
        .collect::<Result<Vec<_>, _>>()?;
    model.all_different(&cells)?;
    let mut lines: Vec<Vec<VarId>> = Vec::new();
    for i in 0..n {
        lines.push((0..n).map(|j| cells[i * n + j]).collect());
        lines.push((0..n).map(|j| cells[j * n + i]).collect());
    }
    lines.push((0..n).map(|i| cells[i * n + i]).collect());
    lines.push((0..n).map(|i| cells[i * n + n - 1 - i]).collect());
    for line in lines {
        let terms: Vec<(i64, VarId)> = line.into_iter().map(|v| (1, v)).collect();
        model.linear(&terms, Relation::Eq, magic)?;
    }
    Ok(Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::MinDomain)
        .count())
}

fn main() -> Result<(), ModelError> {
    for n in [3, 4] {
        println!("{n}x{n} magic squares: {}", count(n)?);
    }
    Ok(())
}

#[test]
fn there_are_8_of_order_3_and_7040_of_order_4() {
    assert_eq!(count(3).unwrap(), 8);
    assert_eq!(count(4).unwrap(), 7040);
}
