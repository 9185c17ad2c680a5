//! SEND + MORE = MONEY: distinct digits, no leading zero, one linear equation.

use csp_toolkit::csp::{Inference, Model, ModelError, Relation, Solver, VarId};

/// The solutions as (SEND, MORE, MONEY).
fn solve() -> Result<Vec<(i64, i64, i64)>, ModelError> {
    let mut model = Model::new();
    let letters = "SENDMORY";
    let mut digit = std::collections::HashMap::new();
    for c in letters.chars() {
        let low = if c == 'S' || c == 'M' { 1 } else { 0 };
        digit.insert(c, model.new_named_var(c.to_string(), low..=9)?);
    }
    let vars: Vec<VarId> = letters.chars().map(|c| digit[&c]).collect();
    model.all_different(&vars)?;
    // The value of a word as terms 10^k * letter; MONEY's terms go in negated.
    let word = |w: &str, sign: i64| -> Vec<(i64, VarId)> {
        let mut place = 1;
        let mut terms = Vec::new();
        for c in w.chars().rev() {
            terms.push((sign * place, digit[&c]));
            place *= 10;
        }
        terms
    };
    let terms = [word("SEND", 1), word("MORE", 1), word("MONEY", -1)].concat();
    model.linear(&terms, Relation::Eq, 0)?;

    let solver = Solver::new(&model).inference(Inference::Mac);
    let number = |values: &[i32], w: &str| {
        w.chars()
            .fold(0i64, |n, c| n * 10 + i64::from(values[digit[&c].index()]))
    };
    Ok(solver
        .solutions()
        .map(|v| (number(&v, "SEND"), number(&v, "MORE"), number(&v, "MONEY")))
        .collect())
}

fn main() -> Result<(), ModelError> {
    let solutions = solve()?;
    for (send, more, money) in &solutions {
        println!("{send} + {more} = {money}");
    }
    println!("{} solution(s)", solutions.len());
    Ok(())
}

#[test]
fn the_only_solution_is_9567_plus_1085() {
    assert_eq!(solve().unwrap(), [(9567, 1085, 10652)]);
    assert!(main().is_ok());
}
