//! SEND + MORE = MONEY column by column, with a 0/1 carry out of each column, as done by hand:
//! D + E = Y + 10 c1, N + R + c1 = E + 10 c2, E + O + c2 = N + 10 c3, S + M + c3 = O + 10 c4,
//! and c4 = M. The published answer: 9567 + 1085 = 10652, the only one.

use csp_toolkit::csp::{Inference, Model, ModelError, Relation, Solver};

/// The solutions as the digits of S, E, N, D, M, O, R, Y.
fn solve() -> Result<Vec<Vec<i32>>, ModelError> {
    let mut model = Model::new();
    let letters: Vec<_> = "SENDMORY"
        .chars()
        .map(|c| model.new_named_var(c.to_string(), if "SM".contains(c) { 1..=9 } else { 0..=9 }))
        .collect::<Result<_, _>>()?;
    let [s, e, n, d, m, o, r, y] = letters[..] else {
        unreachable!()
    };
    model.all_different(&letters)?;
    let carry: Vec<_> = (1..=4)
        .map(|i| model.new_named_var(format!("c{i}"), 0..=1))
        .collect::<Result<_, _>>()?;
    // Each column: the digits and the carry in make the digit below plus ten times the carry out.
    let columns = [
        (vec![d, e], None, y),
        (vec![n, r], Some(0), e),
        (vec![e, o], Some(1), n),
        (vec![s, m], Some(2), o),
    ];
    for (i, (adds, carry_in, result)) in columns.into_iter().enumerate() {
        let mut terms: Vec<(i64, _)> = adds.into_iter().map(|v| (1, v)).collect();
        terms.extend(carry_in.map(|c| (1, carry[c])));
        terms.extend([(-1, result), (-10, carry[i])]);
        model.linear(&terms, Relation::Eq, 0)?;
    }
    model.linear(&[(1, carry[3]), (-1, m)], Relation::Eq, 0)?;
    let digits = |v: Vec<i32>| v[..8].to_vec();
    Ok(Solver::new(&model)
        .inference(Inference::Mac)
        .solutions()
        .map(digits)
        .collect())
}

fn main() -> Result<(), ModelError> {
    for v in solve()? {
        let word = |idx: &[usize]| idx.iter().fold(0, |n, &i| n * 10 + v[i]);
        println!(
            "{} + {} = {}",
            word(&[0, 1, 2, 3]),
            word(&[4, 5, 6, 1]),
            word(&[4, 5, 2, 1, 7])
        );
    }
    Ok(())
}

#[test]
fn the_only_solution_is_9567_plus_1085_with_carries() {
    assert_eq!(solve().unwrap(), [vec![9, 5, 6, 7, 1, 0, 8, 2]]);
    assert!(main().is_ok());
}
