//! Bad FlatZinc: each error names what is wrong and where; no input makes the reader panic.

// A test fails by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use csp::SplitMix64;

fn error(text: &str) -> flatzinc::FznError {
    match flatzinc::load(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn a_syntax_error_names_its_line_and_column() {
    let e = error("var 1..3: x;\nconstraint int_le(x 3);\nsolve satisfy;\n");
    assert_eq!((e.line, e.column), (2, Some(21)), "{e}");
    assert_eq!(
        e.to_string(),
        "line 2, column 21: expected ')', found the number 3"
    );
    let e = error("var 1..3: x\nsolve satisfy;\n");
    assert_eq!((e.line, e.column), (2, Some(1)), "{e}");
    assert!(e.message.contains("expected ';'"), "{e}");
    let e = error("var 1..3: x;\nconstraint int_le(x, @);\n");
    assert_eq!((e.line, e.column), (2, Some(22)), "{e}");
    assert!(e.message.contains("unexpected character '@'"), "{e}");
}

#[test]
fn a_column_counts_characters_not_bytes() {
    // Two 2-byte characters in a string before the fault.
    let e = error("var 1..3: x :: foo(\"éé\") ];\n");
    assert_eq!((e.line, e.column), (1, Some(26)), "{e}");
}

#[test]
fn unsupported_builtins_and_types_are_named_with_their_line() {
    let e = error("var 1..3: x;\nvar 1..3: y;\nconstraint fzn_cumulative(x, y);\nsolve satisfy;\n");
    assert!(e.unsupported);
    assert_eq!(
        e.to_string(),
        "line 3: the constraint fzn_cumulative is not supported"
    );
    let e = error("var 0.0..1.0: f;\nsolve satisfy;\n");
    assert!(e.unsupported);
    assert_eq!(e.line, 1);
    assert!(e.message.contains("'f' is a float variable"), "{e}");
    let e = error("var set of 1..3: s;\nsolve satisfy;\n");
    assert!(e.unsupported && e.message.contains("set variable"), "{e}");
}

#[test]
fn a_model_that_does_not_hold_together_says_why() {
    let e = error("constraint int_le(x, 3);\nsolve satisfy;\n");
    assert_eq!(e.to_string(), "line 1: 'x' is not declared");
    let e = error("var 1..3: x;\nvar 1..3: x;\nsolve satisfy;\n");
    assert_eq!(e.to_string(), "line 2: 'x' is declared twice");
    let e = error("var 1..3: x;\n");
    assert!(e.message.contains("no solve item"), "{e}");
    let e = error("var 1..3: x;\nsolve satisfy;\nconstraint int_le(x, 3);\n");
    assert!(e.message.contains("follow the solve item"), "{e}");
    let e = error("array [1..2] of var 1..3: a = [1];\nsolve satisfy;\n");
    assert!(
        e.message.contains("declared with 2 elements but given 1"),
        "{e}"
    );
    let e = error("var 1..3: x;\nconstraint int_lin_le([1, 2], [x], 3);\nsolve satisfy;\n");
    assert!(e.message.contains("2 coefficients for 1 variables"), "{e}");
    let e = error("var 1..99999999999: x;\nsolve satisfy;\n");
    assert!(
        e.unsupported && e.message.contains("does not fit in 32 bits"),
        "{e}"
    );
    // A bound beyond 32 bits in a comparison is only a constant: x <= 10^11 holds.
    assert!(
        flatzinc::load("var 1..3: x;\nconstraint int_le(x, 99999999999);\nsolve satisfy;\n")
            .is_ok()
    );
}

#[test]
fn inputs_the_fuzzer_found_are_refused_calmly() {
    // An array of ten billion fresh variables: the reader once tried to allocate them.
    let e = error("array [1..9999999999] of var int: x;\nsolve satisfy;\n");
    assert!(e.unsupported && e.message.contains("more than"), "{e}");
}

/// Valid FlatZinc to cut, splice and scramble.
const SEED_TEXT: &str = "\
predicate my_pred(array [int] of var int: xs);
array [1..3] of int: c = [1, -2, 3];
set of int: s = {1, 3, 5};
var 1..5: x :: output_var;
var -3..3: y :: output_var;
var bool: b :: output_var;
array [1..2] of var int: xs :: output_array([1..2]) = [x, y];
constraint int_lin_le(c, [x, y, x], 4) :: domain;
constraint set_in_reif(x, s, b);
constraint int_times(x, y, y);
constraint array_var_int_element(x, [y, 1, 2, 3, 4], y);
solve :: seq_search([int_search(xs, first_fail, indomain_min, complete), bool_search([b], input_order, indomain_max, complete)]) minimize x;
";

#[test]
fn no_input_makes_the_reader_panic() {
    let cases: u64 = std::env::var("FZN_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let mut rng = SplitMix64::new(15);
    let bytes = SEED_TEXT.as_bytes();
    let alphabet = b" \n%;:,.=[](){}0123456789-+eE\"'abxyz_\\";
    assert!(flatzinc::load(SEED_TEXT).is_ok());
    for _ in 0..cases {
        let mut text = bytes.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len() as u64 + 1) as usize;
            match rng.below(4) {
                0 => {
                    text.truncate(at);
                }
                1 if at < text.len() => {
                    text.remove(at);
                }
                2 => text.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
                _ => {
                    // A slice of the text copied elsewhere.
                    let from = rng.below(bytes.len() as u64) as usize;
                    let to = (from + rng.below(40) as usize).min(bytes.len());
                    let at = at.min(text.len());
                    text.splice(at..at, bytes[from..to].iter().copied());
                }
            }
        }
        let text = String::from_utf8_lossy(&text);
        // Ok or Err; a panic fails the test.
        let _ = flatzinc::load(&text);
    }
}
