//! A travelling salesman: gr17 (Grötschel's 17 cities, TSPLIB), the shortest round trip
//! through every city. Each city's successor is a variable, `circuit` makes them one tour,
//! and each leg's length comes from its row of the distance matrix by `element`. The search
//! takes the leg with the largest regret first, shortest first. TSPLIB publishes the optimal
//! tour length, 2085; `--cities K` solves the tour of the first K cities instead.

use csp_toolkit::csp::{
    Inference, Model, ModelError, Phase, Solver, ValueSelect, VarId, VarSelect,
};
use std::time::Instant;

/// gr17's distances, TSPLIB's LOWER_DIAG_ROW: row `i` holds the distances from city `i` to
/// cities `0..=i`.
const GR17: [i32; 153] = [
    0, 633, 0, 257, 390, 0, 91, 661, 228, 0, 412, 227, 169, 383, 0, 150, 488, 112, 120, 267, 0, 80,
    572, 196, 77, 351, 63, 0, 134, 530, 154, 105, 309, 34, 29, 0, 259, 555, 372, 175, 338, 264,
    232, 249, 0, 505, 289, 262, 476, 196, 360, 444, 402, 495, 0, 353, 282, 110, 324, 61, 208, 292,
    250, 352, 154, 0, 324, 638, 437, 240, 421, 329, 297, 314, 95, 578, 435, 0, 70, 567, 191, 27,
    346, 83, 47, 68, 189, 439, 287, 254, 0, 211, 466, 74, 182, 243, 105, 150, 108, 326, 336, 184,
    391, 145, 0, 268, 420, 53, 239, 199, 123, 207, 165, 383, 240, 140, 448, 202, 57, 0, 246, 745,
    472, 237, 528, 364, 332, 349, 202, 685, 542, 157, 289, 426, 483, 0, 121, 518, 142, 84, 297, 35,
    29, 36, 236, 390, 238, 301, 55, 96, 153, 336, 0,
];

/// The distance between cities `i` and `j` of gr17.
fn distance(i: usize, j: usize) -> i32 {
    let (a, b) = if i >= j { (i, j) } else { (j, i) };
    GR17[a * (a + 1) / 2 + b]
}

/// The shortest tour through the first `n` cities of gr17, and the search's node count.
fn shortest_tour(n: usize) -> Result<(i64, Vec<usize>, u64), ModelError> {
    let mut model = Model::new();
    let last = n as i32 - 1;
    let succ: Vec<VarId> = (0..n)
        .map(|i| model.new_named_var(format!("next[{i}]"), 0..=last))
        .collect::<Result<_, _>>()?;
    model.circuit(&succ, 0, false)?;
    let mut legs = Vec::with_capacity(n);
    for (i, &next) in succ.iter().enumerate() {
        let row: Vec<i32> = (0..n).map(|j| distance(i, j)).collect();
        let longest = row.iter().copied().max().unwrap_or(0);
        let leg = model.new_named_var(format!("leg[{i}]"), 0..=longest)?;
        model.element(next, &row, 0, leg)?;
        legs.push(leg);
    }
    let terms: Vec<(i64, VarId)> = legs.iter().map(|&l| (1, l)).collect();
    let length = model.sum_var(&terms)?;
    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .phases(
            vec![Phase::new(&legs, VarSelect::MaxRegret, ValueSelect::Min)],
            0,
        )
        .minimize(length);
    let mut solutions = solver.solutions();
    let best = solutions.by_ref().last();
    let nodes = solutions.summary().stats.nodes;
    let Some(best) = best else {
        return Ok((-1, Vec::new(), nodes));
    };
    // The tour from city 0.
    let mut tour = vec![0];
    let mut city = best[succ[0].index()] as usize;
    while city != 0 && tour.len() <= n {
        tour.push(city);
        city = best[succ[city].index()] as usize;
    }
    Ok((i64::from(best[length.index()]), tour, nodes))
}

fn main() -> Result<(), ModelError> {
    let args: Vec<String> = std::env::args().collect();
    let n = args
        .iter()
        .position(|a| a == "--cities")
        .and_then(|i| args.get(i + 1))
        .and_then(|k| k.parse().ok())
        .unwrap_or(17)
        .clamp(1, 17);
    let started = Instant::now();
    let (length, tour, nodes) = shortest_tour(n)?;
    let tour: Vec<String> = tour.iter().map(usize::to_string).collect();
    println!(
        "gr17, first {n} cities: shortest tour {length}: {} ({nodes} nodes, {:.1} s)",
        tour.join(" "),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The shortest tour through the first `n` cities by trying every order of cities 1..n.
#[cfg(test)]
fn brute_force(n: usize) -> i64 {
    fn extend(path: &mut Vec<usize>, left: &mut Vec<usize>, best: &mut i64) {
        if left.is_empty() {
            let legs = path.windows(2).map(|w| distance(w[0], w[1]));
            let closing = distance(path[path.len() - 1], path[0]);
            *best = (*best).min(i64::from(legs.sum::<i32>() + closing));
            return;
        }
        for k in 0..left.len() {
            let city = left.remove(k);
            path.push(city);
            extend(path, left, best);
            path.pop();
            left.insert(k, city);
        }
    }
    let mut best = i64::MAX;
    extend(&mut vec![0], &mut (1..n).collect(), &mut best);
    best
}

#[test]
fn gr17_has_the_published_optimum() {
    let (length, tour, _) = shortest_tour(17).unwrap();
    assert_eq!(length, 2085);
    // The tour visits every city once and is as long as it says.
    let mut seen = tour.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..17).collect::<Vec<_>>());
    let legs: i32 = (0..17).map(|k| distance(tour[k], tour[(k + 1) % 17])).sum();
    assert_eq!(i64::from(legs), length);
}

#[test]
fn the_first_cities_give_the_brute_force_optimum() {
    for n in 2..=9 {
        assert_eq!(shortest_tour(n).unwrap().0, brute_force(n), "{n} cities");
    }
}
