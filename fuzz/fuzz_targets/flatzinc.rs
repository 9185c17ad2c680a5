//! Any text through the FlatZinc reader: no panic; a small model read is solved briefly and
//! every solution found satisfies every constraint.

#![no_main]

use csp::Solver;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(fzn) = flatzinc::load(&text) else {
        return;
    };
    if fzn.model.var_count() > 200 || fzn.contradiction.is_some() {
        return;
    }
    let mut printed = String::new();
    Solver::new(&fzn.model)
        .node_limit(2_000)
        .solve(|solution| {
            assert!(
                fzn.model.check_solution(solution.values()).is_ok(),
                "a solution that breaks a constraint"
            );
            printed.clear();
            fzn.format_solution(solution.values(), &mut printed);
            std::ops::ControlFlow::Break(())
        });
});
