//! Counts through the command line for every engine and mode, against OEIS A000170.

use crate::common::{csp, oeis_a000170, stdout};

#[test]
fn every_engine_mode_and_encoding_counts_a000170_up_to_n_10() {
    let oeis = oeis_a000170();
    let mut configs: Vec<Vec<&str>> = vec![vec!["--engine", "bitmask"]];
    for encoding in ["binary", "alldiff"] {
        for inference in ["none", "fc", "mac"] {
            configs.push(vec!["--encoding", encoding, "--inference", inference]);
        }
    }
    for (n, expected) in oeis.iter().enumerate().take(11) {
        let n = n.to_string();
        for config in &configs {
            let mut args = vec!["queens", n.as_str(), "--count"];
            args.extend(config);
            let out = csp(&args);
            assert_eq!(stdout(&out), format!("{expected}\n"), "{args:?}");
            assert_eq!(out.status.code(), Some(0));
        }
    }
}
