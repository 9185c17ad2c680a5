//! Any text through the XCSP3 reader: no panic; a small model read is solved briefly, every
//! solution found satisfies every constraint, and its instantiation prints.

#![no_main]

use csp::Solver;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(read) = xcsp3::load(&text) else {
        return;
    };
    if read.model.var_count() > 200 {
        return;
    }
    Solver::new(&read.model).node_limit(2_000).solve(|solution| {
        assert!(
            read.model.check_solution(solution.values()).is_ok(),
            "a solution that breaks a constraint"
        );
        let line = read.instantiation(solution.values());
        assert!(line.ends_with("</instantiation>"));
        std::ops::ControlFlow::Break(())
    });
});
