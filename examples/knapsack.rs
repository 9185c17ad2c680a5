//! 0/1 knapsack: take items of given weights and profits, within a capacity, for the most
//! profit. The instance is P01 of John Burkardt's KNAPSACK_01 data set (capacity 165, ten
//! items); its published optimum is 309, taking items 1, 2, 3, 4 and 6.

use csp_toolkit::csp::{Inference, Model, ModelError, Relation, Solver, ValueOrder};

const CAPACITY: i64 = 165;
const WEIGHTS: [i64; 10] = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82];
const PROFITS: [i64; 10] = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72];

/// The best profit and the items taken (1-based), with every improving solution on the way.
fn solve() -> Result<(i64, Vec<usize>), ModelError> {
    let mut model = Model::new();
    let take: Vec<_> = (0..WEIGHTS.len())
        .map(|_| model.new_bool())
        .collect::<Result<_, _>>()?;
    let total: i64 = PROFITS.iter().sum();
    let profit = model.new_named_var("profit", 0..=total as i32)?;
    let weight: Vec<_> = WEIGHTS.iter().zip(&take).map(|(&w, &x)| (w, x)).collect();
    model.linear(&weight, Relation::Le, CAPACITY)?;
    let mut gain: Vec<_> = PROFITS.iter().zip(&take).map(|(&p, &x)| (p, x)).collect();
    gain.push((-1, profit));
    model.linear(&gain, Relation::Eq, 0)?;
    // Branch and bound: each solution found must beat the last; the last is the optimum.
    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .value_order(ValueOrder::Descending)
        .maximize(profit);
    let best = solver
        .solutions()
        .last()
        .expect("taking nothing is a solution");
    let items = (0..take.len())
        .filter(|&i| best[take[i].index()] == 1)
        .map(|i| i + 1)
        .collect();
    Ok((i64::from(best[profit.index()]), items))
}

fn main() -> Result<(), ModelError> {
    let (profit, items) = solve()?;
    println!("best profit {profit}, taking items {items:?}");
    Ok(())
}

#[test]
fn the_optimum_is_309_as_published_and_as_brute_force_finds() {
    let brute = (0u32..1 << 10)
        .filter(|s| {
            (0..10)
                .filter(|i| s >> i & 1 == 1)
                .map(|i| WEIGHTS[i])
                .sum::<i64>()
                <= CAPACITY
        })
        .map(|s| {
            (0..10)
                .filter(|i| s >> i & 1 == 1)
                .map(|i| PROFITS[i])
                .sum::<i64>()
        })
        .max();
    assert_eq!(brute, Some(309));
    assert_eq!(solve().unwrap(), (309, vec![1, 2, 3, 4, 6]));
    assert!(main().is_ok());
}
