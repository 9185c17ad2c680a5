//! Small instances of the XCSP3 competition's set, read and counted: each count must be the
//! one ACE's tests give, and every solution must satisfy every constraint. Small instances
//! written here, one per family of forms, must have their brute-force counts and optima.

use csp::{Inference, Solver};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

#[test]
fn each_instance_has_aces_number_of_solutions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let expected = std::fs::read_to_string(format!("{dir}/expected_counts.csv")).unwrap();
    let mut checked = 0;
    for line in expected.lines() {
        let (instance, count) = line.split_once(',').unwrap();
        let name = instance.trim_start_matches("csp/");
        let bytes = std::fs::read(format!("{dir}/{name}.lzma")).unwrap();
        let read = xcsp3::load(&xcsp3::decompress(&bytes).unwrap()).unwrap();
        let found = distinct_solutions(&read, name);
        assert_eq!(found.to_string(), count, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 11);
}

/// The number of solutions of `read`, each checked against every constraint and told apart
/// from the others on the declared variables.
fn distinct_solutions(read: &xcsp3::XcspModel, name: &str) -> usize {
    let mut found = BTreeSet::new();
    Solver::new(&read.model)
        .inference(Inference::Mac)
        .solve(|solution| {
            let values = solution.values();
            assert!(read.model.check_solution(values).is_ok(), "{name}");
            let key: Vec<i32> = read.declared().iter().map(|v| values[v.index()]).collect();
            assert!(found.insert(key), "{name}: a solution came twice");
            ControlFlow::Continue(())
        });
    found.len()
}

#[test]
fn each_form_has_its_brute_force_number_of_solutions() {
    let forms = forms("expected_counts.csv");
    for (name, count, read) in &forms {
        assert_eq!(distinct_solutions(read, name).to_string(), *count, "{name}");
    }
    assert_eq!(forms.len(), 28);
}

#[test]
fn each_objective_form_proves_its_brute_force_optimum() {
    let forms = forms("expected_optima.csv");
    for (name, optimum, read) in &forms {
        assert_eq!(proved_optimum(read, name), Some(optimum.clone()), "{name}");
    }
    assert_eq!(forms.len(), 2);
}

/// `<knapsack>` over quantities of at least 0 is csp's knapsack, one constraint; where a
/// quantity may be negative, the two sums alone (the counts above check both meanings).
#[test]
fn knapsack_is_posted_as_one_where_its_quantities_are_never_negative() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/forms");
    for (name, knapsacks) in [
        ("knapsack.xml", 1),
        ("objective-knapsack.xml", 1),
        ("knapsack-signed.xml", 0),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let read = xcsp3::load(&text).unwrap();
        let posted = read
            .model
            .constraint_ids()
            .filter_map(|id| read.model.constraint(id))
            .filter(|c| c.describe().starts_with("knapsack("))
            .count();
        assert_eq!(posted, knapsacks, "{name}");
    }
}

/// The forms listed in `csv` (of tests/data/forms), each with its brute-force answer, read.
fn forms(csv: &str) -> Vec<(String, String, xcsp3::XcspModel)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/forms");
    let expected = std::fs::read_to_string(format!("{dir}/{csv}")).unwrap();
    expected
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let (name, answer) = (fields.next().unwrap(), fields.next().unwrap());
            let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
            let read = xcsp3::load(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name.to_owned(), answer.to_owned(), read)
        })
        .collect()
}

/// The optimum of `read`, proved, each improving solution checked against every constraint.
fn proved_optimum(read: &xcsp3::XcspModel, name: &str) -> Option<String> {
    let objective = read
        .objective
        .unwrap_or_else(|| panic!("{name}: no objective"));
    let mut best = None;
    let summary = Solver::new(&read.model)
        .inference(Inference::Mac)
        .optimize(Some(objective))
        .solve(|solution| {
            assert!(
                read.model.check_solution(solution.values()).is_ok(),
                "{name}"
            );
            best = Some(solution.values()[objective.var.index()]);
            ControlFlow::Continue(())
        });
    assert_eq!(
        summary.outcome,
        csp::Outcome::Exhausted,
        "{name}: not proved"
    );
    best.map(|b| b.to_string())
}

#[test]
fn each_optimisation_proves_aces_optimum() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let expected = std::fs::read_to_string(format!("{dir}/expected_optima.csv")).unwrap();
    let mut checked = 0;
    for line in expected.lines() {
        let (instance, optimum) = line.split_once(',').unwrap();
        let name = instance.trim_start_matches("cop/");
        let bytes = std::fs::read(format!("{dir}/{name}.lzma")).unwrap();
        let read = xcsp3::load(&xcsp3::decompress(&bytes).unwrap()).unwrap();
        assert_eq!(
            proved_optimum(&read, name).as_deref(),
            Some(optimum),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
}
