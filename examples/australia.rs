//! AIMA's map colouring of Australia (Russell & Norvig, ch. 6): seven regions, three colours,
//! neighbours differ. Prints one colouring and how many there are (18).

use csp_toolkit::csp::{Inference, Model, Solver, VarOrder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let colours = ["red", "green", "blue"];
    let regions = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let mut model = Model::new();
    let var: Vec<_> = regions
        .iter()
        .map(|r| model.new_named_var(*r, 0..=2))
        .collect::<Result<_, _>>()?;
    let borders = [
        ("WA", "NT"),
        ("WA", "SA"),
        ("NT", "SA"),
        ("NT", "Q"),
        ("SA", "Q"),
        ("SA", "NSW"),
        ("SA", "V"),
        ("Q", "NSW"),
        ("NSW", "V"),
    ];
    let index = |name: &str| regions.iter().position(|r| *r == name);
    for (a, b) in borders {
        if let (Some(a), Some(b)) = (index(a), index(b)) {
            model.not_equal(var[a], var[b])?;
        }
    }

    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::MinDomain);
    let colouring = solver.first().ok_or("no colouring")?;
    for (region, &colour) in regions.iter().zip(&colouring) {
        println!("{region:>3}: {}", colours[colour as usize]);
    }
    println!("{} colourings with 3 colours", solver.count());
    Ok(())
}

#[test]
fn runs() {
    assert!(main().is_ok());
}
