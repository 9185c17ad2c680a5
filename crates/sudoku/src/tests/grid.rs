//! Unit tests of `Grid`: the rule check against the definition, unit by unit.

use super::*;
use csp::SplitMix64;

/// The violations by definition: each unit's cells as `units` lists them, every value
/// counted there.
fn violations_by_definition(grid: &Grid) -> Vec<Violation> {
    let mut found = Vec::new();
    for (unit, cells) in grid.units() {
        for value in 1..=grid.side() as u16 {
            let count = cells.iter().filter(|&&c| grid.cells()[c] == value).count();
            if count > 1 {
                found.push(Violation { unit, value, count });
            }
        }
    }
    found
}

#[test]
fn violations_are_those_of_the_definition_on_random_grids() {
    let mut rng = SplitMix64::new(14);
    for box_size in 1..=4usize {
        let side = box_size * box_size;
        for _ in 0..200 {
            // Mostly blanks, so that some grids break no rule and others break several.
            let fill = rng.below(100) as usize;
            let cells = (0..side * side)
                .map(|_| {
                    if (rng.below(100) as usize) < fill / 4 {
                        1 + rng.below(side as u64) as u16
                    } else {
                        0
                    }
                })
                .collect();
            let grid = Grid::new(box_size, cells).unwrap();
            assert_eq!(grid.violations(), violations_by_definition(&grid));
        }
    }
}
