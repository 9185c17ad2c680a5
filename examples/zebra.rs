//! The zebra puzzle in AIMA's model (Russell & Norvig, exercise 6.7): each attribute is a
//! variable whose value is the house (1 to 5) it belongs to.

use csp_toolkit::csp::{Inference, Model, ModelError, Relation, Solver, VarId, VarOrder};
use std::collections::HashMap;

const GROUPS: [[&str; 5]; 5] = [
    ["Red", "Green", "Ivory", "Yellow", "Blue"],
    [
        "Englishman",
        "Spaniard",
        "Norwegian",
        "Ukrainian",
        "Japanese",
    ],
    ["Coffee", "Tea", "Milk", "OJ", "Water"],
    [
        "OldGold",
        "Kools",
        "Chesterfields",
        "LuckyStrike",
        "Parliaments",
    ],
    ["Dog", "Snails", "Fox", "Horse", "Zebra"],
];

/// How the houses of two attributes relate.
type Rule = fn(i32, i32) -> bool;

/// Every solution, as the house of each attribute.
fn solve() -> Result<Vec<HashMap<&'static str, i32>>, ModelError> {
    let mut model = Model::new();
    let mut house: HashMap<&str, VarId> = HashMap::new();
    for group in GROUPS {
        let vars = group
            .iter()
            .map(|name| model.new_named_var(*name, 1..=5))
            .collect::<Result<Vec<_>, _>>()?;
        model.all_different(&vars)?;
        house.extend(group.iter().copied().zip(vars));
    }
    let same = |a: i32, b: i32| a == b;
    let next_to = |a: i32, b: i32| (a - b).abs() == 1;
    let right_of = |a: i32, b: i32| a == b + 1;
    let rules: [(&str, &str, Rule); 12] = [
        ("Englishman", "Red", same),
        ("Spaniard", "Dog", same),
        ("Coffee", "Green", same),
        ("Ukrainian", "Tea", same),
        ("Green", "Ivory", right_of),
        ("OldGold", "Snails", same),
        ("Kools", "Yellow", same),
        ("Chesterfields", "Fox", next_to),
        ("Kools", "Horse", next_to),
        ("LuckyStrike", "OJ", same),
        ("Japanese", "Parliaments", same),
        ("Norwegian", "Blue", next_to),
    ];
    for (a, b, rule) in rules {
        model.binary(house[a], house[b], rule)?;
    }
    // Milk is drunk in the middle house; the Norwegian lives in the first.
    model.compare(house["Milk"], Relation::Eq, 3)?;
    model.compare(house["Norwegian"], Relation::Eq, 1)?;

    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::MinDomain);
    Ok(solver
        .solutions()
        .map(|values| {
            house
                .iter()
                .map(|(name, var)| (*name, values[var.index()]))
                .collect()
        })
        .collect())
}

/// The nationality living in the same house as `attribute`.
fn who(solution: &HashMap<&'static str, i32>, attribute: &str) -> &'static str {
    GROUPS[1]
        .iter()
        .copied()
        .find(|n| solution[n] == solution[attribute])
        .unwrap_or("nobody")
}

fn main() -> Result<(), ModelError> {
    let solutions = solve()?;
    for s in &solutions {
        println!("The {} owns the zebra.", who(s, "Zebra"));
        println!("The {} drinks water.", who(s, "Water"));
    }
    println!("{} solution(s)", solutions.len());
    Ok(())
}

#[test]
fn the_japanese_owns_the_zebra_and_the_norwegian_drinks_water() {
    let solutions = solve().unwrap();
    assert_eq!(solutions.len(), 1);
    assert_eq!(who(&solutions[0], "Zebra"), "Japanese");
    assert_eq!(who(&solutions[0], "Water"), "Norwegian");
    assert!(main().is_ok());
}
