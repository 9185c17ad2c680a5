//! `csp fzn` and `csp minizinc-setup`: the FlatZinc protocol byte for byte (against fzn-gecode
//! where it is installed), every standard option, and MiniZinc end to end where it is
//! installed (`.ci/run` installs both; without them those checks say so and pass).

use crate::common::{csp, csp_with_stdin, installed, stderr, stdout, wait_with_watchdog};
use crate::compilers;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn model(name: &str) -> String {
    format!("{}/tests/data/fzn/{name}.fzn", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_first_solution_then_all_then_n_in_the_protocols_words() {
    let path = model("order");
    let first = csp(&["fzn", &path]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(
        stdout(&first),
        "b = true;\nbs = array1d(1..2, [true, true]);\nx = 1;\n\
         xs = array2d(1..2, 0..1, [1, 2, 3, 1]);\ny = 2;\n----------\n"
    );
    let all = stdout(&csp(&["fzn", "-a", &path]));
    // x < y over 1..3: (1, 2), (1, 3), (2, 3), in the search annotation's order.
    let ys: Vec<&str> = all.lines().filter(|l| l.starts_with("y = ")).collect();
    let xs: Vec<&str> = all.lines().filter(|l| l.starts_with("x = ")).collect();
    assert_eq!(xs, ["x = 1;", "x = 1;", "x = 2;"]);
    assert_eq!(ys, ["y = 2;", "y = 3;", "y = 3;"]);
    assert!(all.ends_with("----------\n==========\n"), "{all}");
    let two = stdout(&csp(&["fzn", "-n", "2", &path]));
    assert_eq!(two.matches("----------").count(), 2);
    assert!(
        !two.contains("=========="),
        "two of three is not a complete search"
    );
}

#[test]
fn no_solution_is_unsatisfiable_and_exits_0_as_minizinc_expects() {
    let out = csp(&["fzn", &model("unsat")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "=====UNSATISFIABLE=====\n");
}

#[test]
fn an_optimisation_prints_its_optimum_or_with_a_every_improvement() {
    let path = model("knapsack");
    let best = stdout(&csp(&["fzn", &path]));
    assert_eq!(
        best,
        "take = array1d(1..5, [false, true, true, true, true]);\nvalue = 15;\n----------\n==========\n"
    );
    let all = stdout(&csp(&["fzn", "-a", &path]));
    let values: Vec<i64> = all
        .lines()
        .filter_map(|l| l.strip_prefix("value = "))
        .map(|v| v.trim_end_matches(';').parse().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
    assert_eq!(values.last(), Some(&15));
    assert_eq!(stdout(&csp(&["fzn", "-i", &path])), all);
}

#[test]
fn statistics_come_as_mzn_stat_lines_closed_by_their_end_marker() {
    let out = stdout(&csp(&["fzn", "-s", &model("knapsack")]));
    let stats: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("%%%mzn-stat"))
        .collect();
    assert_eq!(stats.last(), Some(&"%%%mzn-stat-end"));
    for name in [
        "objective=15",
        "nodes=",
        "failures=",
        "solveTime=",
        "variables=",
    ] {
        assert!(
            stats
                .iter()
                .any(|l| l.starts_with(&format!("%%%mzn-stat: {name}"))),
            "{name} missing: {out}"
        );
    }
}

#[test]
fn a_time_limit_ends_the_search_with_unknown_in_time() {
    let started = Instant::now();
    let out = csp(&["fzn", "-t", "300", &model("pigeons")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "=====UNKNOWN=====\n");
    // A bound that only catches a hang: the limit is 0.3 s.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn standard_input_and_the_other_standard_flags_are_taken() {
    let text = std::fs::read_to_string(model("unsat")).unwrap();
    let out = csp_with_stdin(&["fzn", "-"], &text);
    assert_eq!(stdout(&out), "=====UNSATISFIABLE=====\n");
    let out = csp(&["fzn", "-f", "-p", "2", "-r", "7", "-v", &model("order")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).matches("----------\n").count(), 1);
    // Many solutions of a satisfaction problem: one thread, which -v says.
    let out = csp(&["fzn", "-a", "-p", "2", "-v", &model("order")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("-p 2: many solutions are searched for on one thread"));
}

#[test]
fn a_bad_model_is_one_line_with_its_position_and_exit_2() {
    let out = csp_with_stdin(&["fzn", "-"], "var 1..3: x;\nconstraint int_le(x 3);\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "csp fzn: -: line 2, column 21: expected ')', found the number 3\n"
    );
    let out = csp(&["fzn", "no-such-model.fzn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("csp fzn: cannot read no-such-model.fzn"));
}

#[test]
fn the_output_is_fzn_gecodes_byte_for_byte() {
    if !installed("fzn-gecode") {
        eprintln!("fzn-gecode is not installed: skipped (../shared/minizinc/setup.sh installs it)");
        return;
    }
    for (name, flags) in [
        ("order", &["-a"][..]),
        ("order", &[][..]),
        ("knapsack", &["-a"][..]),
        ("knapsack", &[][..]),
        ("unsat", &[][..]),
        ("empty", &["-a"][..]),
        // The variable is chosen afresh after each refused value, as in Gecode's search.
        ("reselect", &["-a"][..]),
        ("reselect_max", &["-a"][..]),
        ("reselect_median", &["-a"][..]),
    ] {
        let path = model(name);
        let mut args = vec!["fzn"];
        args.extend_from_slice(flags);
        args.push(&path);
        let ours = stdout(&csp(&args));
        let theirs = Command::new("fzn-gecode")
            .args(flags)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(
            ours,
            String::from_utf8(theirs.stdout).unwrap(),
            "{name} {flags:?}"
        );
    }
}

#[test]
fn minizinc_runs_a_model_on_csp_after_minizinc_setup() {
    if !minizinc_here() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-mzn-{}", std::process::id()));
    let setup = csp(&["minizinc-setup", dir.to_str().unwrap()]);
    assert_eq!(setup.status.code(), Some(0), "{}", stderr(&setup));
    // What it did and what to run, in a few lines, naming the MiniZinc it found.
    let said = stdout(&setup);
    assert!(said.starts_with("registered csp "), "{said}");
    assert!(said.contains("MiniZinc 2."), "{said}");
    assert!(said.lines().count() <= 3, "{said}");
    let listed = Command::new("minizinc")
        .arg("--solvers")
        .env("MZN_SOLVER_PATH", &dir)
        .output()
        .unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains(&format!("csp {version}")),
        "{}",
        String::from_utf8_lossy(&listed.stdout)
    );
    // 6-queens by MiniZinc's all_different, which reaches csp as one constraint: all 4
    // solutions (OEIS A000170).
    let mzn = dir.join("queens.mzn");
    std::fs::write(
        &mzn,
        "include \"globals.mzn\";\nint: n = 6;\narray [1..n] of var 1..n: q;\n\
         constraint all_different(q);\nconstraint all_different([q[i] + i | i in 1..n]);\n\
         constraint all_different([q[i] - i | i in 1..n]);\nsolve satisfy;\n",
    )
    .unwrap();
    let child = Command::new("minizinc")
        .args(["--solver", "csp", "-a"])
        .arg(&mzn)
        .env("MZN_SOLVER_PATH", &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_with_watchdog(child, Duration::from_secs(120));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(text.matches("----------").count(), 4, "{text}");
    assert!(text.ends_with("==========\n"), "{text}");
    let text = compilers::available()[0]
        .compile_all(&dir, &[mzn], false)
        .remove(0)
        .unwrap();
    assert_eq!(
        text.matches("constraint csp_all_different(").count(),
        3,
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Each global csp propagates natively, in a MiniZinc model, compiled by `minizinc -c --solver
/// csp`: the FlatZinc calls csp's constraint (as many times as the model posts it), not a
/// decomposition.
/// A small decision diagram over three variables: root 1, nodes 2 and 3 on the second level,
/// node 4 on the third, then the terminal (0).
const MDD: &str = "array [1..3] of var 1..3: x;\n\
    constraint mdd(x, 4, [1, 2, 2, 3], 5, [1, 1, 2, 3, 4], [{1}, {2, 3}, {1, 2}, {3}, {1, 3}], \
    [2, 3, 4, 4, 0]);";

/// A directed graph of 4 nodes and 6 edges (a cycle through all four among them), its path
/// from s to t.
const DPATH: &str = "array [1..4] of var bool: ns;\narray [1..6] of var bool: es;\n\
    var 1..4: s;\nvar 1..4: t;\n\
    constraint dpath(4, 6, [1, 1, 2, 2, 3, 4], [2, 3, 3, 4, 4, 1], s, t, ns, es);";

/// An undirected graph of 4 nodes and 5 edges (a square and a diagonal), its path from s to t.
const PATH: &str = "array [1..4] of var bool: ns;\narray [1..5] of var bool: es;\n\
    var 1..4: s;\nvar 1..4: t;\n\
    constraint path(4, 5, [1, 1, 2, 2, 3], [2, 3, 3, 4, 4], s, t, ns, es);";

/// dpath over nodes indexed from 0 (MiniZinc's form without the counts).
const DPATH_FROM_0: &str = "array [0..3] of var bool: ns;\narray [1..5] of var bool: es;\n\
    var 0..3: s;\nvar 0..3: t;\n\
    constraint dpath([0, 0, 1, 2, 3], [1, 2, 2, 3, 0], s, t, ns, es);";

/// path over nodes indexed from 2, with a loop on node 5.
const PATH_FROM_2: &str = "array [2..5] of var bool: ns;\narray [1..6] of var bool: es;\n\
    var 2..5: s;\nvar 2..5: t;\n\
    constraint path([2, 2, 3, 3, 4, 5], [3, 4, 4, 5, 5, 5], s, t, ns, es);";

#[test]
fn each_native_global_reaches_csp_as_one_constraint() {
    let compilers = compilers::available();
    if compilers.is_empty() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-globals-{}", std::process::id()));
    let setup = csp(&["minizinc-setup", dir.to_str().unwrap()]);
    assert_eq!(setup.status.code(), Some(0), "{}", stderr(&setup));
    let cases = [
        (
            "array [1..4] of var 0..4: s;\n\
             constraint forall (i in 1..4) (count(s, i - 1, s[i]));",
            "csp_count_eq",
            4,
        ),
        (
            "array [1..3] of var 0..6: s;\n\
             constraint cumulative(s, [2, 2, 3], [1, 2, 2], 3);",
            "csp_cumulative",
            1,
        ),
        // Unit usages on a capacity of 1 make MiniZinc call disjunctive, and positive
        // durations make that disjunctive_strict.
        (
            "array [1..3] of var 0..9: s;\n\
             constraint cumulative(s, [2, 2, 3], [1, 1, 1], 1);",
            "csp_disjunctive_strict",
            1,
        ),
        (
            "array [1..3] of var 0..9: s;\nconstraint disjunctive(s, [0, 2, 3]);",
            "csp_disjunctive",
            1,
        ),
        (
            "array [1..5] of var 1..5: x;\nconstraint circuit(x);",
            "csp_circuit",
            1,
        ),
        (
            "array [2..6] of var 2..6: x;\nconstraint subcircuit(x);",
            "csp_subcircuit",
            1,
        ),
        // No two 2s in a row, ending in 1: symbols 1..2.
        (
            "array [1..5] of var 1..2: x;\n\
             constraint regular(x, 2, 2, [| 1, 2 | 1, 0 |], 1, {1});",
            "csp_regular",
            1,
        ),
        // The same over the symbols 3..4, a set.
        (
            "array [1..5] of var 3..4: x;\n\
             constraint regular(x, 2, 3..4, array2d(1..2, 3..4, [1, 2, 1, 0]), 1, {1});",
            "csp_regular",
            1,
        ),
        (
            "array [1..3] of var 0..3: x;\n\
             constraint table(x, [| 0, 1, 2 | 1, 2, 3 | 3, 3, 0 |]);",
            "csp_table_int",
            1,
        ),
        (
            "array [1..2] of var bool: b;\nconstraint table(b, [| true, false | false, true |]);",
            "csp_table_bool",
            1,
        ),
        (
            "array [1..3] of var 0..2: x;\narray [1..3] of var 0..2: y;\n\
             constraint lex_lesseq(x, y);\nconstraint lex_less(y, [x[3], x[2], x[1]]);",
            "csp_lex_lesseq_int",
            1,
        ),
        (
            "array [1..3] of var bool: x;\narray [1..3] of var bool: y;\n\
             constraint lex_less(x, y);",
            "csp_lex_less_bool",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\nconstraint alldifferent_except_0(x);",
            "csp_all_different_except",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\nconstraint all_different_except(x, {1, 2});",
            "csp_all_different_except",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\narray [1..2] of var 0..4: c;\n\
             constraint global_cardinality(x, [1, 2], c);",
            "csp_global_cardinality",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\narray [1..2] of var 0..4: c;\n\
             constraint global_cardinality_closed(x, [1, 2], c);",
            "csp_global_cardinality_closed",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\n\
             constraint global_cardinality_low_up(x, [1, 2], [1, 0], [2, 1]);",
            "csp_global_cardinality_low_up",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\n\
             constraint global_cardinality_low_up_closed(x, [1, 2], [1, 0], [3, 2]);",
            "csp_global_cardinality_low_up_closed",
            1,
        ),
        (
            "array [1..5] of var 1..3: x;\nconstraint value_precede(1, 2, x);",
            "csp_value_precede",
            1,
        ),
        (
            "array [1..5] of var 1..4: x;\nconstraint value_precede_chain([1, 2, 3, 4], x);",
            "csp_value_precede",
            3,
        ),
        (
            "array [1..3] of var 0..4: x;\narray [1..3] of var 0..4: y;\n\
             constraint diffn(x, y, [2, 2, 1], [1, 2, 3]);",
            "csp_diffn",
            1,
        ),
        (
            "array [1..3] of var 0..4: x;\narray [1..3] of var 0..4: y;\n\
             array [1..3] of var 0..2: w;\nconstraint diffn_nonstrict(x, y, w, [1, 2, 3]);",
            "csp_diffn_nonstrict",
            1,
        ),
        // count_geq, _gt, _leq, _lt, _neq: a count into a fresh variable, compared.
        (
            "array [1..4] of var 0..3: x;\nvar 0..4: c;\n\
             constraint count_geq(x, 1, c);\nconstraint count_gt(x, 2, c);\n\
             constraint count_leq(x, 3, 1);\nconstraint count_lt(x, 0, c);\n\
             constraint count_neq(x, 1, 3);",
            "csp_count_eq",
            5,
        ),
        (
            "array [1..4] of var 0..3: x;\nvar 0..4: n;\nconstraint among(n, x, {1, 3});",
            "csp_among",
            1,
        ),
        (
            "array [0..2] of var 1..3: f;\narray [1..3] of var 0..2: g;\n\
             constraint inverse(f, g);",
            "csp_inverse",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\nvar 0..4: n;\nconstraint nvalue(n, x);",
            "csp_nvalue",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\n\
             constraint increasing(x) /\\ strictly_increasing([x[1], x[3], x[4]]);",
            "csp_increasing",
            2,
        ),
        // MiniZinc 2.10 posts decreasing as increasing over the reversed array.
        (
            "array [1..4] of var 0..3: x;\nconstraint decreasing(x);",
            "csp_decreasing|csp_increasing",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\n\
             constraint strictly_decreasing([x[1], x[3], x[4]]);",
            "csp_decreasing|csp_increasing",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\nvar 0..4: y;\nconstraint member(x, y);",
            "csp_member_of",
            1,
        ),
        (
            "array [1..4] of var 1..3: b;\narray [1..3] of var 0..6: l;\n\
             constraint bin_packing_load(l, b, [1, 2, 2, 3]);",
            "csp_bin_packing_load",
            1,
        ),
        (
            "array [1..3] of var 0..2: x;\nvar 0..9: w;\nvar 0..12: p;\n\
             constraint knapsack([3, 2, 4], [4, 1, 5], x, w, p);",
            "csp_knapsack",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\nvar 1..4: i;\nconstraint i = arg_max(x);",
            "csp_arg_max",
            1,
        ),
        (
            "array [1..4] of var 0..3: x;\nvar 1..4: i;\nconstraint i = arg_min(x);",
            "csp_arg_min",
            1,
        ),
        (MDD, "csp_mdd", 1),
        (DPATH, "csp_dpath", 1),
        (PATH, "csp_path", 1),
        (DPATH_FROM_0, "csp_dpath", 1),
        (PATH_FROM_2, "csp_path", 1),
        // Variable durations: a cumulative of capacity 1.
        (
            "array [1..2] of var 0..9: s;\narray [1..2] of var 0..3: d;\n\
             constraint disjunctive(s, d);",
            "csp_cumulative",
            1,
        ),
    ];
    // A propagation annotation travels with all_different to csp, which reads it (the
    // flatzinc crate's tests show each strength chosen); MiniZinc 2.6 writes the last two
    // by their older names.
    let annotated = [
        ("value_propagation", "value_propagation"),
        ("bounds_propagation", "bounds"),
        ("domain_propagation", "domain"),
    ];
    let mut models = Vec::new();
    for (k, (model, _, _)) in cases.iter().enumerate() {
        let path = dir.join(format!("global{k}.mzn"));
        std::fs::write(
            &path,
            format!("include \"globals.mzn\";\n{model}\nsolve satisfy;\n"),
        )
        .unwrap();
        models.push(path);
    }
    for (k, (annotation, _)) in annotated.iter().enumerate() {
        let path = dir.join(format!("annotated{k}.mzn"));
        let text = format!(
            "include \"globals.mzn\";\narray [1..4] of var 1..4: x;\n\
             constraint all_different(x) :: {annotation};\nsolve satisfy;\n"
        );
        std::fs::write(&path, text).unwrap();
        models.push(path);
    }
    for compiler in compilers {
        let version = compiler.version();
        let flats = compiler.compile_all(&dir, &models, false);
        for ((model, natives, times), (path, compiled)) in
            cases.iter().zip(models.iter().zip(&flats))
        {
            let compiled = compiled
                .as_ref()
                .unwrap_or_else(|e| panic!("MiniZinc {version} on\n{model}\n{e}"));
            let found: usize = natives
                .split('|')
                .map(|native| compiled.matches(&format!("constraint {native}(")).count())
                .sum();
            assert_eq!(found, *times, "MiniZinc {version}: {model}\n{compiled}");
            // The compiled model runs, and its first solution is checked by csp.
            let flat = path.with_extension("fzn");
            let out = csp(&["fzn", flat.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            assert!(stdout(&out).contains("----------"), "{}", stdout(&out));
        }
        for ((annotation, flat_name), (path, compiled)) in annotated
            .iter()
            .zip(models[cases.len()..].iter().zip(&flats[cases.len()..]))
        {
            let compiled = compiled
                .as_ref()
                .unwrap_or_else(|e| panic!("MiniZinc {version} on {annotation}: {e}"));
            let line = compiled
                .lines()
                .find(|l| l.starts_with("constraint csp_all_different("))
                .unwrap_or_else(|| panic!("{compiled}"));
            assert!(
                line.ends_with(&format!(":: {flat_name};"))
                    || line.ends_with(&format!(":: {annotation};")),
                "MiniZinc {version}: {line}"
            );
            let flat = path.with_extension("fzn");
            let out = csp(&["fzn", "-a", flat.to_str().unwrap()]);
            assert_eq!(
                stdout(&out).matches("----------").count(),
                24,
                "{}",
                stdout(&out)
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compare_takes_a_flatzinc_model_and_proves_its_optimum_in_every_mode() {
    let out = csp(&["compare", "fzn", &model("knapsack"), "--format", "csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{text}");
    for (row, mode) in rows.iter().zip(["none", "fc", "mac", "lcg"]) {
        // Proving the optimum explores the whole space, in every mode.
        assert!(row.starts_with(&format!(",{mode},exhausted,")), "{row}");
    }
    let unsat = csp(&["compare", "fzn", &model("unsat"), "--format", "csv"]);
    assert_eq!(unsat.status.code(), Some(0), "{}", stderr(&unsat));
}

#[test]
fn compare_takes_a_minizinc_model_and_its_data_where_minizinc_is_installed() {
    if !minizinc_here() {
        return;
    }
    // The model the MiniZinc page runs, with its data file.
    let (mzn, dzn) = (example_model("queens.mzn"), example_model("queens8.dzn"));
    let out = csp(&[
        "compare",
        "fzn",
        &mzn,
        &dzn,
        "--all",
        "--format",
        "csv",
        // Each mode its full time: without it, plain backtracking in a debug build stops at
        // 10 times arc consistency's time, before its 92nd solution.
        "--time-limit",
        "60",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // 92 solutions of 8-queens (OEIS A000170) in every mode.
    let rows: Vec<String> = stdout(&out).lines().skip(1).map(str::to_owned).collect();
    assert_eq!(rows.len(), 4);
    assert!(
        rows.iter().all(|r| r.split(',').nth(3) == Some("92")),
        "{rows:?}"
    );
}

/// Whether MiniZinc is installed; a test that needs it says it is skipped when it is not.
fn minizinc_here() -> bool {
    let here = installed("minizinc");
    if !here {
        eprintln!("minizinc is not installed: skipped (.ci/run installs it)");
    }
    here
}

/// A MiniZinc model of `examples/minizinc`, the ones the documentation runs.
fn example_model(name: &str) -> String {
    format!(
        "{}/../../examples/minizinc/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn compare_fzn_takes_minizinc_data_with_d_shows_the_objective_and_stops_weaker_modes_early() {
    if !minizinc_here() {
        return;
    }
    // Golomb rulers of m marks; the shortest lengths are OEIS A003022: 0, 1, 3, 6, 11, 17, ...
    let mzn = example_model("golomb.mzn");
    let mzn = mzn.as_str();
    let out = csp(&["compare", "fzn", mzn, "-D", "m=6", "--format", "csv"]);
    // The table printed: exit 0, whatever limits cut short (a row says "limit").
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    for row in &rows {
        // A proved optimum is A003022's 17; a run stopped early shows its best so far.
        match row[at("outcome")] {
            "exhausted" => assert_eq!(row[at("objective")], "17", "{text}"),
            "limit" => {
                let best = row[at("objective")];
                assert!(
                    best.is_empty() || best.parse::<i64>().unwrap() >= 17,
                    "{text}"
                );
            }
            other => panic!("{other}: {text}"),
        }
    }
    let lcg = rows.iter().find(|r| r[at("config")] == "lcg").unwrap();
    assert_eq!(lcg[at("outcome")], "exhausted", "{text}");
    // Without --time-limit, the weaker modes stop at 10 times the fastest proof (at least
    // 1 s), not after the default 10 s each: the title says so.
    let table = csp(&["compare", "fzn", mzn, "-D", "m=6"]);
    let title = stdout(&table);
    let title = title.lines().next().unwrap();
    assert!(
        title.contains("golomb.mzn -D m=6, the optimum, proved"),
        "{title}"
    );
    assert!(title.contains("settled it in"), "{title}");
    // -D is refused for a FlatZinc model, which takes no data.
    let fzn = csp(&["compare", "fzn", &model("knapsack"), "-D", "m=6"]);
    assert_eq!(fzn.status.code(), Some(2));
    assert!(stderr(&fzn).contains("takes no data"), "{}", stderr(&fzn));
}

/// A float model: MiniZinc compiles it, csp refuses it; the message names the model's place
/// (or, through `minizinc --solver csp`, the variable and how to get the place), never the
/// temporary FlatZinc that MiniZinc deletes.
#[test]
fn a_refused_model_is_named_by_its_place_in_the_minizinc_model_not_the_temporary_file() {
    if !minizinc_here() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-float-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mzn = dir.join("float.mzn");
    std::fs::write(
        &mzn,
        "var 1..5: y;\nvar 0.0..10.0: x;\nconstraint x * 2.0 >= int2float(y);\nsolve minimize x;\n",
    )
    .unwrap();
    let out = csp(&["compare", "fzn", mzn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let expected = format!("{}:2:", mzn.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("'x' is a float variable"),
        "{}",
        stderr(&out)
    );
    let setup = csp(&["minizinc-setup", dir.join("msc").to_str().unwrap()]);
    assert_eq!(setup.status.code(), Some(0), "{}", stderr(&setup));
    for keep_paths in [false, true] {
        let mut minizinc = Command::new("minizinc");
        minizinc.env("MZN_SOLVER_PATH", dir.join("msc"));
        if keep_paths {
            minizinc.arg("--keep-paths");
        }
        let out = minizinc
            .args(["--solver", "csp"])
            .arg(&mzn)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("'x' is a float variable"), "{err}");
        assert!(
            !err.contains("mznfile"),
            "names MiniZinc's temporary file: {err}"
        );
        if keep_paths {
            assert!(err.contains(&expected), "{err}");
        } else {
            assert!(err.contains("--keep-paths"), "{err}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Solutions of small models using each of csp's MiniZinc redefinitions, compiled by each
/// MiniZinc here (2.6 and 2.10) and counted by csp, and by fzn-gecode (the oracle) on the same
/// model flattened with MiniZinc's standard decompositions (`-G std`): the redefinitions mean
/// what MiniZinc's globals mean, under every MiniZinc.
#[test]
fn each_redefined_global_has_as_many_solutions_on_csp_as_on_gecode() {
    let compilers = compilers::available();
    if compilers.is_empty() || !installed("fzn-gecode") {
        eprintln!("minizinc or fzn-gecode is not installed: skipped (.ci/run installs them)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-global-counts-{}", std::process::id()));
    let setup = csp(&["minizinc-setup", dir.to_str().unwrap()]);
    assert_eq!(setup.status.code(), Some(0), "{}", stderr(&setup));
    let four = "array [1..4] of var 0..3: x;\n";
    let rects = "array [1..3] of var 0..3: x;\narray [1..3] of var 0..3: y;\n";
    let models = [
        format!("{four}constraint global_cardinality_low_up(x, [1, 2], [1, 0], [2, 1]);"),
        format!("{four}constraint global_cardinality_low_up_closed(x, [1, 2], [1, 1], [3, 2]);"),
        format!("{four}array [1..2] of var 0..4: c;\nconstraint global_cardinality(x, [1, 2], c);"),
        format!(
            "{four}array [1..2] of var 0..4: c;\n\
             constraint global_cardinality_closed(x, [1, 3], c);"
        ),
        "array [1..5] of var 1..3: x;\nconstraint value_precede_chain([1, 2, 3], x);".to_owned(),
        format!("{four}constraint value_precede(2, 1, x);"),
        format!("{rects}constraint diffn(x, y, [2, 2, 1], [1, 2, 3]);"),
        format!(
            "{rects}array [1..3] of var 0..2: w;\n\
             constraint diffn_nonstrict(x, y, w, [1, 2, 0]);"
        ),
        format!("{four}var 0..4: c;\nconstraint count_geq(x, 1, c);"),
        format!("{four}var 0..4: c;\nconstraint count_gt(x, 1, c);"),
        format!("{four}var 0..4: c;\nconstraint count_leq(x, 1, c);"),
        format!("{four}var 0..4: c;\nconstraint count_lt(x, 1, c);"),
        format!("{four}var 0..4: c;\nconstraint count_neq(x, 1, c);"),
        format!("{four}constraint count_geq(x, 2, 2) /\\ count_lt(x, 0, 1);"),
        format!("{four}constraint all_different(x) :: bounds_propagation;"),
        format!("{four}constraint alldifferent_except_0(x);"),
        format!("{four}var 0..4: n;\nconstraint among(n, x, {{1, 3}});"),
        "array [0..2] of var 1..3: f;\narray [1..3] of var 0..2: g;\nconstraint inverse(f, g);"
            .to_owned(),
        format!("{four}var 0..4: n;\nconstraint nvalue(n, x);"),
        format!("{four}constraint increasing(x);"),
        format!("{four}constraint strictly_increasing([x[1], x[2], x[4]]);"),
        format!("{four}constraint decreasing(x);"),
        format!("{four}constraint strictly_decreasing([x[1], x[3], x[4]]);"),
        // Optional elements: absent ones are skipped (MiniZinc 2.10 also comes this way for
        // strictly_decreasing over plain integers).
        "array [1..4] of var opt 0..3: x;\nconstraint strictly_increasing(x);".to_owned(),
        "array [1..3] of var opt 0..3: x;\nconstraint strictly_decreasing(x);".to_owned(),
        format!("{four}var 0..4: y;\nconstraint member([x[1], x[2], x[3]], y);"),
        "array [1..4] of var 1..3: b;\narray [1..3] of var 0..4: l;\n\
         constraint bin_packing_load(l, b, [1, 2, 2, 3]);"
            .to_owned(),
        // Items to take from -1 (which knapsack rules out), totals bounded on both sides.
        "array [1..3] of var -1..2: x;\nvar 1..9: w;\nvar 3..12: p;\n\
         constraint knapsack([3, 2, 4], [4, 1, 5], x, w, p);"
            .to_owned(),
        "array [0..3] of var 0..3: x;\nvar 0..3: i;\nconstraint i = arg_max(x);".to_owned(),
        "array [2..5] of var 0..3: x;\nvar 2..5: i;\nconstraint i = arg_min(x);".to_owned(),
        MDD.to_owned(),
        DPATH.to_owned(),
        PATH.to_owned(),
        DPATH_FROM_0.to_owned(),
        PATH_FROM_2.to_owned(),
        "array [1..5] of var 1..5: x;\nconstraint circuit(x);".to_owned(),
        "array [1..4] of var 1..4: x;\nconstraint subcircuit(x);".to_owned(),
        "array [1..5] of var 1..2: x;\n\
         constraint regular(x, 2, 2, [| 1, 2 | 1, 0 |], 1, {1});"
            .to_owned(),
        format!("{four}constraint table([x[1], x[2], x[3]], [| 0, 1, 2 | 1, 2, 3 | 3, 3, 0 |]);"),
        format!("{four}constraint lex_less([x[1], x[2]], [x[3], x[4]]);"),
        format!("{four}constraint cumulative(x, [2, 1, 3, 1], [1, 2, 1, 2], 3);"),
        format!("{four}constraint disjunctive([x[1], x[2], x[3]], [2, 0, 1]);"),
    ];
    let mut paths = Vec::new();
    for (k, model) in models.iter().enumerate() {
        let path = dir.join(format!("counted{k}.mzn"));
        let text = format!("include \"globals.mzn\";\n{model}\nsolve satisfy;\n");
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    let count = |out: std::process::Output| -> usize {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| *l == "----------")
            .count()
    };
    // The oracle: fzn-gecode on MiniZinc's own decompositions, from the first compiler.
    compilers[0]
        .compile_all(&dir, &paths, true)
        .into_iter()
        .for_each(|flat| drop(flat.unwrap()));
    let theirs: Vec<usize> = paths
        .iter()
        .map(|path| {
            let flat = path.with_extension("std.fzn");
            count(
                Command::new("fzn-gecode")
                    .arg("-a")
                    .arg(&flat)
                    .output()
                    .unwrap(),
            )
        })
        .collect();
    for compiler in &compilers {
        let flats = compiler.compile_all(&dir, &paths, false);
        for (((model, path), flat), theirs) in models.iter().zip(&paths).zip(flats).zip(&theirs) {
            if let Err(e) = flat {
                panic!("MiniZinc {}: {model}\n{e}", compiler.version());
            }
            assert!(*theirs > 0, "{model}");
            let flat = path.with_extension("fzn");
            let ours = count(csp(&["fzn", "-a", flat.to_str().unwrap()]));
            assert_eq!(ours, *theirs, "MiniZinc {}: {model}", compiler.version());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// csp's own options reach it by name through MiniZinc (the `.msc` declares them as
/// `extraFlags`), under every MiniZinc here that can run a solver, and `minizinc --help csp`
/// lists them.
#[test]
fn minizinc_passes_csps_options_by_name() {
    let runners: Vec<std::path::PathBuf> = compilers::available()
        .into_iter()
        .filter_map(|c| match c {
            compilers::Compiler::Native { program, .. } => Some(program),
            compilers::Compiler::Wasm { .. } => None,
        })
        .collect();
    if runners.is_empty() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-extra-flags-{}", std::process::id()));
    let setup = csp(&["minizinc-setup", dir.to_str().unwrap()]);
    assert_eq!(setup.status.code(), Some(0), "{}", stderr(&setup));
    let free = dir.join("free.mzn");
    std::fs::write(
        &free,
        "var 1..5: x;\nvar 1..5: y;\nconstraint x < y;\nsolve satisfy;\n",
    )
    .unwrap();
    // Four pigeons, three holes: no solution, which lcg proves.
    let pigeons = dir.join("pigeons.mzn");
    std::fs::write(
        &pigeons,
        "include \"globals.mzn\";\narray [1..4] of var 1..3: p;\n\
         constraint all_different(p);\nsolve satisfy;\n",
    )
    .unwrap();
    for minizinc in runners {
        let run = |args: &[&str]| {
            let out = Command::new(&minizinc)
                .args(["--solver", "csp"])
                .args(args)
                .env("MZN_SOLVER_PATH", &dir)
                .output()
                .unwrap();
            (stdout(&out), stderr(&out))
        };
        let (help, _) = run(&["--help", "csp"]);
        for flag in [
            "--inference",
            "--var-order",
            "--val-order",
            "--restarts",
            "--node-limit",
            "--proof",
            "--lp",
        ] {
            assert!(
                help.contains(&format!("\n  {flag}\n")),
                "{minizinc:?}: {flag} missing:\n{help}"
            );
        }
        // Values in descending order under free search: the largest x below some y.
        let (out, err) = run(&["-f", "--val-order", "desc", free.to_str().unwrap()]);
        assert_eq!(out, "x = 4;\ny = 5;\n----------\n", "{minizinc:?}: {err}");
        let (out, err) = run(&["-f", "--var-order", "input", free.to_str().unwrap()]);
        assert_eq!(out, "x = 1;\ny = 2;\n----------\n", "{minizinc:?}: {err}");
        // x < y over 1..5 has 10 solutions; a few nodes find only some of them.
        let (out, err) = run(&["-a", free.to_str().unwrap()]);
        assert_eq!(out.matches("----------").count(), 10, "{minizinc:?}: {err}");
        assert!(out.ends_with("==========\n"), "{minizinc:?}: {out}");
        let (out, err) = run(&["-a", "--node-limit", "3", free.to_str().unwrap()]);
        assert!(
            out.matches("----------").count() < 10,
            "{minizinc:?}: {out}{err}"
        );
        assert!(!out.contains("=========="), "{minizinc:?}: {out}");
        // A proof needs learning: refused under mac, written under lcg.
        let proof = dir.join("pigeons.drcp");
        let (out, err) = run(&[
            "--inference",
            "mac",
            "--proof",
            proof.to_str().unwrap(),
            pigeons.to_str().unwrap(),
        ]);
        assert!(
            err.contains("--proof needs --inference lcg"),
            "{minizinc:?}: {out}{err}"
        );
        let (out, err) = run(&[
            "--inference",
            "lcg",
            "--restarts",
            "50",
            "--proof",
            proof.to_str().unwrap(),
            pigeons.to_str().unwrap(),
        ]);
        assert_eq!(out, "=====UNSATISFIABLE=====\n", "{minizinc:?}: {err}");
        let written = std::fs::read_to_string(&proof).unwrap();
        assert!(written.contains("\nc "), "{written}");
        std::fs::remove_file(&proof).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn lp_adds_the_relaxation_says_so_under_v_and_keeps_the_optimum() {
    // The knapsack's optimum is 15 (its comment gives the items; brute force over 32 subsets
    // agrees), with the LP relaxation or without.
    let path = model("knapsack");
    for (lp, said) in [
        ("auto", "csp fzn: an LP relaxation of 2 rows and 6 columns"),
        ("on", "csp fzn: an LP relaxation of 2 rows and 6 columns"),
        ("off", "csp fzn: no LP relaxation: --lp off"),
    ] {
        let out = csp(&["fzn", "--lp", lp, "-v", &path]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).ends_with("value = 15;\n----------\n==========\n"));
        assert!(
            stderr(&out).lines().any(|l| l == said),
            "--lp {lp}: {}",
            stderr(&out)
        );
    }
    // A satisfaction problem has nothing for auto's LP to bound.
    let out = csp(&["fzn", "-v", &model("order")]);
    assert!(
        stderr(&out).contains("no LP relaxation: no objective to bound"),
        "{}",
        stderr(&out)
    );
    // A misspelt choice, and the LP beside a proof, are one line each and exit 2.
    let out = csp(&["fzn", "--lp", "yes", &path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("auto"), "{}", stderr(&out));
    let proof = std::env::temp_dir().join(format!("csp-lp-{}.drcp", std::process::id()));
    let out = csp(&[
        "fzn",
        "--inference",
        "lcg",
        "--lp",
        "on",
        "--proof",
        proof.to_str().unwrap(),
        &path,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--lp on: a proof cannot log"),
        "{}",
        stderr(&out)
    );
    assert!(!proof.exists());
}
