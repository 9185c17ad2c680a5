//! Unit tests of `add_projections`: a knight's move carried by two distances and a table of
//! them becomes a table on the two cells, which prunes what the pieces alone cannot.

use crate::{Inference, Model, Solver, VarId};

/// Cells 0..36 of a 6 x 6 board, row `cell / 6` and column `cell % 6`.
const SIDE: i32 = 6;

fn is_knight_move(x: i32, y: i32) -> bool {
    let (dr, dc) = ((x / SIDE - y / SIDE).abs(), (x % SIDE - y % SIDE).abs());
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}

/// Cells `x`, `y` and a third `z` all different (so that `x` and `y` meet other constraints),
/// and a knight's move from `x` to `y` in pieces: `a` their row distance, `b` their column
/// distance, `(a, b)` one of `(1, 2)` and `(2, 1)`.
fn knight_in_pieces() -> (Model, VarId, VarId) {
    let mut model = Model::new();
    let cells = 0..=SIDE * SIDE - 1;
    let x = model.new_var(cells.clone()).unwrap();
    let y = model.new_var(cells.clone()).unwrap();
    let z = model.new_var(cells).unwrap();
    let a = model.new_var(0..=SIDE - 1).unwrap();
    let b = model.new_var(0..=SIDE - 1).unwrap();
    model.all_different(&[x, y, z]).unwrap();
    model.table(&[a, b], &[[1, 2], [2, 1]]).unwrap();
    let distance = |part: fn(i32) -> i32| -> Vec<Vec<Option<i32>>> {
        let mut tuples = Vec::new();
        for u in 0..SIDE * SIDE {
            for v in 0..SIDE * SIDE {
                tuples.push(vec![Some(u), Some(v), Some((part(u) - part(v)).abs())]);
            }
        }
        tuples
    };
    model
        .extension(&[x, y, a], &distance(|c| c / SIDE), true)
        .unwrap();
    model
        .extension(&[x, y, b], &distance(|c| c % SIDE), true)
        .unwrap();
    (model, x, y)
}

/// `y`'s values at the root under mac once `x` is the cell 14 (row 2, column 2).
fn moves_from_14(model: &Model, x: VarId, y: VarId) -> Vec<i32> {
    let domains = Solver::new(model)
        .inference(Inference::Mac)
        .assume(vec![(x, 14)])
        .root_domains()
        .unwrap();
    domains[y.index()].clone()
}

#[test]
fn a_knight_move_in_pieces_is_projected_onto_its_two_cells() {
    let (mut model, x, y) = knight_in_pieces();
    let knight: Vec<i32> = (0..SIDE * SIDE)
        .filter(|&c| is_knight_move(14, c))
        .collect();
    assert_eq!(knight.len(), 8);
    // The pieces alone leave the cells at distance 1 or 2 both ways, diagonals included.
    let loose = moves_from_14(&model, x, y);
    assert!(loose.len() > knight.len(), "{loose:?}");
    assert_eq!(model.add_projections().unwrap(), 1);
    assert_eq!(moves_from_14(&model, x, y), knight);
    // The solutions are the same: every knight's move, with any third cell.
    assert_eq!(
        Solver::new(&model).inference(Inference::Mac).count(),
        160 * 34
    );
}

/// The search for clusters reads each variable's constraints a bounded number of times: a sum
/// over 20,000 variables and a hub on 20,000 constraints beside the knight's move took
/// quadratic time before (a scheduling instance spent 44 s of a 47 s read here), and the
/// knight's move is still projected. The bound on the time only catches that hang.
#[test]
fn wide_scopes_and_busy_variables_do_not_make_the_search_for_clusters_quadratic() {
    use crate::Relation;
    let (mut model, x, y) = knight_in_pieces();
    let n = 20_000;
    let many: Vec<VarId> = (0..n).map(|_| model.new_var(0..=1).unwrap()).collect();
    let terms: Vec<(i64, VarId)> = many.iter().map(|&v| (1, v)).collect();
    model.linear(&terms, Relation::Le, n as i64).unwrap();
    let hub = model.new_var(0..=2).unwrap();
    for &v in &many {
        model.not_equal(v, hub).unwrap();
    }
    let started = std::time::Instant::now();
    assert_eq!(model.add_projections().unwrap(), 1);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let knight: Vec<i32> = (0..SIDE * SIDE)
        .filter(|&c| is_knight_move(14, c))
        .collect();
    assert_eq!(moves_from_14(&model, x, y), knight);
}
