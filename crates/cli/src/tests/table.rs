//! Unit tests of the comparison table's ratios.

use super::*;

#[test]
fn a_ratio_keeps_two_significant_digits_whatever_its_size() {
    for exponent in -9..=9 {
        for mantissa in [1.0, 1.5, 4.1, 9.9] {
            let r = mantissa * 10f64.powi(exponent);
            let text = ratio_text(Some(r));
            assert!(text.ends_with('x'), "{text}");
            assert_ne!(text, "0.00x");
            let back: f64 = text.trim_end_matches('x').parse().unwrap();
            // Two significant digits or more: within 5% of the ratio.
            assert!((back - r).abs() <= 0.05 * r, "{r} printed as {text}");
        }
    }
    assert_eq!(ratio_text(Some(0.0)), "0x");
    assert_eq!(ratio_text(Some(0.0041)), "4.1e-3x");
    assert_eq!(ratio_text(Some(0.05)), "0.050x");
    assert_eq!(ratio_text(Some(1.0)), "1.00x");
    assert_eq!(ratio_text(None), "-");
}

#[test]
fn a_row_that_never_ran_shows_no_figures_and_no_ratio() {
    let ran = Row {
        n: None,
        config: "none".into(),
        outcome: "solved",
        objective: None,
        solutions: 1,
        nodes: 100,
        backtracks: 10,
        checks: 1000,
        pruned: 0,
        time: Duration::from_millis(5),
        learned: 0,
        learned_atoms: 0,
        backjump_levels: 0,
    };
    let rows = [ran, Row::not_run(None, "fc")];
    let text = text(&rows, "title", false);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("fc") && last.contains("not run"), "{text}");
    assert!(
        !last.contains('x'),
        "no ratio for a run that did not happen: {last}"
    );
    let csv = csv(&rows);
    // As many fields as the header: n, config, outcome and ten empty ones.
    assert_eq!(csv.lines().last(), Some(",fc,not run,,,,,,,,,,"));
    assert_eq!(
        csv.lines().last().unwrap().split(',').count(),
        csv.lines().next().unwrap().split(',').count()
    );
}
