//! `--proof`: DRCP proofs of what learning proves, judged by Pumpkin's proof checker
//! (`pumpkin-checker`, ConSol-Lab: a program written elsewhere), on queen graphs whose
//! chromatic numbers OEIS A088202 gives and on FlatZinc models whose answers brute force
//! gives; and the runs `--proof` refuses.
//!
//! `.ci/run` and `scripts/slow-tests` install the checker into `target/tools`; where it is
//! missing, the tests still hold csp to its own account of the proof (every deduction
//! derived) and say SKIPPED for the checker's verdict.

use crate::common::{csp, dimacs, queen_edges, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Pumpkin's checker: on the path, where `.ci/run` installs it, or in /tmp.
fn checker() -> Option<PathBuf> {
    let tools =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/bin/pumpkin-checker");
    [
        PathBuf::from("pumpkin-checker"),
        tools,
        PathBuf::from("/tmp/pumpkin-checker/bin/pumpkin-checker"),
    ]
    .into_iter()
    .find(|path| {
        Command::new(path)
            .arg("--help")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// A scratch directory of this test process, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("csp-proof-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// The n x n queen graph in DIMACS.
fn queen_graph(n: usize) -> String {
    dimacs(n * n, &queen_edges(n))
}

/// The chromatic numbers of the n x n queen graphs, n = 1.., from OEIS A088202.
const QUEEN_CHROMATIC: [usize; 9] = [1, 4, 5, 5, 5, 7, 7, 9, 10];

/// `csp COMMAND INPUT ARGS... --inference lcg --proof PROOF`.
fn with_proof(command: &str, input: &Path, args: &[&str], proof: &Path) -> Output {
    let mut all = vec![command, input.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend(["--inference", "lcg", "--proof", proof.to_str().unwrap()]);
    csp(&all)
}

/// Asserts that csp accounted for every deduction of the proof it says it wrote, and that
/// the checker accepts the proof and rejects it without its last inference.
fn assert_checked(said: &str, proof: &Path, name: &str) {
    assert!(said.contains("proof written ("), "{name}: {said}");
    assert!(!said.contains("could not be derived"), "{name}: {said}");
    let text = std::fs::read_to_string(proof).unwrap();
    assert!(
        text.lines().last().is_some_and(|l| l.starts_with("c ")),
        "{name}: the proof has no conclusion"
    );
    let Some(checker) = checker() else {
        eprintln!(
            "SKIPPED: {name}: pumpkin-checker is not installed (cargo install pumpkin-checker)"
        );
        return;
    };
    let model = proof.with_extension("fzn");
    let out = Command::new(&checker)
        .arg(&model)
        .arg(proof)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: the checker rejects the proof: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Not a rubber stamp: the same proof without its last inference is rejected.
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.iter().rposition(|l| l.starts_with("i ")).unwrap();
    let cut: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != last)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let cut_path = proof.with_extension("cut.drcp");
    std::fs::write(&cut_path, cut).unwrap();
    let out = Command::new(&checker)
        .arg(&model)
        .arg(&cut_path)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "{name}: accepted without its last inference"
    );
}

#[test]
fn pumpkins_checker_accepts_proofs_that_queen_graphs_need_their_chromatic_number() {
    let dir = Scratch::new("queens");
    // queen5_5 is settled by a clique of 5 before any search; the others by search.
    for n in 5..=8 {
        let k = QUEEN_CHROMATIC[n - 1] - 1;
        let graph = dir.file(&format!("queen{n}_{n}.col"), &queen_graph(n));
        let proof = dir.path(&format!("queen{n}_{n}_k{k}.drcp"));
        let out = with_proof("color", &graph, &["--colors", &k.to_string()], &proof);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "queen{n}_{n}: {said}");
        assert_checked(&said, &proof, &format!("queen{n}_{n} with {k} colours"));
    }
}

/// G(45, 1/2), each pair of vertices an edge when `SplitMix64(seed)` draws 0 of {0, 1}.
fn random_graph(seed: u64) -> String {
    let mut rng = csp::SplitMix64::new(seed);
    let n = 45;
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rng.below(2) == 0 {
                edges.push((a, b));
            }
        }
    }
    dimacs(n, &edges)
}

/// Two graphs on which minimisation once dropped an `x = v` from a nogood when only the
/// newer of its two bounds was implied: 9 and 1 of their nogoods had no derivation, and the
/// checker rejected the proofs. A colouring, if csp found one, would be printed and the run
/// would exit 0; it exits 1, and the checker accepts the proof that none exists.
#[test]
fn proofs_on_random_graphs_derive_every_nogood() {
    let dir = Scratch::new("random");
    for seed in [13, 24] {
        let graph = dir.file(&format!("g45_{seed}.col"), &random_graph(seed));
        let proof = dir.path(&format!("g45_{seed}.drcp"));
        let out = with_proof("color", &graph, &["--colors", "8"], &proof);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "seed {seed}: {said}");
        assert_checked(&said, &proof, &format!("G(45, 1/2) seed {seed}, 8 colours"));
    }
}

#[test]
fn color_min_proves_its_optimum_with_a_checked_proof() {
    let dir = Scratch::new("min");
    let graph = dir.file("queen7_7.col", &queen_graph(7));
    let proof = dir.path("queen7_7.drcp");
    let out = with_proof("color", &graph, &["--min"], &proof);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("colors 7 optimal"), "{said}");
    assert_checked(&said, &proof, "queen7_7 --min");
}

/// Every assignment of `vars` values in `0..=top`, for brute force.
fn assignments(vars: usize, low: i64, high: i64) -> impl Iterator<Item = Vec<i64>> {
    let span = (high - low + 1) as u64;
    (0..span.pow(vars as u32)).map(move |mut code| {
        (0..vars)
            .map(|_| {
                let v = low + (code % span) as i64;
                code /= span;
                v
            })
            .collect()
    })
}

/// The value printed for `name` in a FlatZinc solution.
fn printed(out: &str, name: &str) -> i64 {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix(&format!("{name} = ")))
        .and_then(|v| v.trim_end_matches(';').parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {out}"))
}

#[test]
fn pumpkins_checker_accepts_flatzinc_proofs_of_unsatisfiability_and_of_optima() {
    let dir = Scratch::new("fzn");
    let run = |name: &str, text: &str| {
        let model = dir.file(&format!("{name}.in.fzn"), text);
        let proof = dir.path(&format!("{name}.drcp"));
        let out = with_proof("fzn", &model, &[], &proof);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        (stdout(&out), stderr(&out), proof)
    };

    // Five pigeons, four holes.
    let (out, said, proof) = run(
        "pigeons",
        "var 1..4: a :: output_var;\nvar 1..4: b :: output_var;\nvar 1..4: c :: output_var;\n\
         var 1..4: d :: output_var;\nvar 1..4: e :: output_var;\n\
         constraint all_different_int([a,b,c,d,e]);\nsolve satisfy;\n",
    );
    assert!(out.contains("=====UNSATISFIABLE====="), "{out}");
    assert_checked(&said, &proof, "pigeons");

    // A knapsack over linear constraints, maximised; brute force gives its optimum.
    let (out, said, proof) = run(
        "knapsack",
        "var 0..5: x :: output_var;\nvar 0..5: y :: output_var;\nvar 0..5: z :: output_var;\n\
         var 0..100: value :: output_var;\n\
         constraint int_lin_le([3,4,5],[x,y,z],17);\n\
         constraint int_lin_le([2,1,3],[x,y,z],11);\n\
         constraint int_lin_eq([4,5,7,-1],[x,y,z,value],0);\n\
         constraint int_le(x, y);\nsolve maximize value;\n",
    );
    let best = assignments(3, 0, 5)
        .filter(|v| {
            3 * v[0] + 4 * v[1] + 5 * v[2] <= 17 && 2 * v[0] + v[1] + 3 * v[2] <= 11 && v[0] <= v[1]
        })
        .map(|v| 4 * v[0] + 5 * v[1] + 7 * v[2])
        .max()
        .unwrap();
    assert_eq!(printed(&out, "value"), best);
    assert!(out.contains("=========="), "{out}");
    assert_checked(&said, &proof, "knapsack");

    // Three different digits in order, a weighted floor, the smallest sum.
    let (out, said, proof) = run(
        "digits",
        "var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\nvar 1..9: z :: output_var;\n\
         var 3..27: s :: output_var;\n\
         constraint int_lin_eq([1,1,1,-1],[x,y,z,s],0);\n\
         constraint all_different_int([x,y,z]);\nconstraint int_lt(x, y);\n\
         constraint int_lin_le([-2,-1],[x,z],-10);\nsolve minimize s;\n",
    );
    let best = assignments(3, 1, 9)
        .filter(|v| {
            v[0] != v[1] && v[1] != v[2] && v[0] != v[2] && v[0] < v[1] && 2 * v[0] + v[2] >= 10
        })
        .map(|v| v.iter().sum::<i64>())
        .min()
        .unwrap();
    assert_eq!(printed(&out, "s"), best);
    assert_checked(&said, &proof, "digits");
}

#[test]
fn a_run_that_finds_a_solution_says_it_needs_no_proof() {
    let dir = Scratch::new("sat");
    let graph = dir.file("queen6_6.col", &queen_graph(6));
    let proof = dir.path("queen6_6.drcp");
    let out = with_proof("color", &graph, &["--colors", "7"], &proof);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("no proof: a solution was found"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn proof_refuses_what_it_cannot_prove_in_one_line_and_exit_code_2() {
    let dir = Scratch::new("refused");
    let graph = dir.file("queen4_4.col", &queen_graph(4));
    let proof = dir.path("out.drcp");
    let proof = proof.to_str().unwrap();
    // Without learning there are no explanations to write.
    let out = csp(&[
        "color",
        graph.to_str().unwrap(),
        "--colors",
        "4",
        "--proof",
        proof,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--proof needs --inference lcg"),
        "{}",
        stderr(&out)
    );
    // A constraint the checker has no rule for.
    let model = dir.file(
        "times.fzn",
        "var 1..5: x :: output_var;\nvar 1..5: y :: output_var;\n\
         constraint int_times(x, y, x);\nsolve satisfy;\n",
    );
    let out = with_proof("fzn", &model, &[], Path::new(proof));
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("--proof: constraint 1 ("), "{said}");
    // The model written beside the proof must not overwrite the input.
    let model = dir.file(
        "pigeons.fzn",
        "var 1..1: a :: output_var;\nvar 1..1: b :: output_var;\n\
         constraint int_ne(a, b);\nsolve satisfy;\n",
    );
    let beside = dir.path("pigeons.drcp");
    let out = with_proof("fzn", &model, &[], &beside);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("would overwrite"), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&model).unwrap().contains("int_ne"));
}

/// queen9_9 has no 9-colouring: a proof of some 21,000 deductions (about 275 MB).
#[test]
#[ignore = "slow: about 20 s with the checker; scripts/slow-tests runs it"]
fn pumpkins_checker_accepts_the_proof_that_queen9_9_needs_ten_colours() {
    let dir = Scratch::new("queen9");
    let graph = dir.file("queen9_9.col", &queen_graph(9));
    let proof = dir.path("queen9_9_k9.drcp");
    let out = with_proof("color", &graph, &["--colors", "9"], &proof);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_checked(&stderr(&out), &proof, "queen9_9 with 9 colours");
}

/// An XCSP3 instance of the competition's set, copied into crates/xcsp3 with its licence.
fn xcsp3_instance(name: &str) -> String {
    format!(
        "{}/../xcsp3/tests/data/{name}.xml.lzma",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn pumpkins_checker_accepts_xcsp3_proofs_of_unsatisfiability_and_of_an_optimum() {
    let dir = Scratch::new("xcsp3");
    // Pigeons-6 has no solution (ACE's tests count 0); Recipe's optimum is 1700 (ACE's).
    for (name, answer) in [("Pigeons-6", "s UNSATISFIABLE"), ("Recipe", "o 1700")] {
        let proof = dir.path(&format!("{name}.drcp"));
        let out = with_proof("xcsp3", Path::new(&xcsp3_instance(name)), &[], &proof);
        let printed = stdout(&out);
        assert!(printed.lines().any(|l| l == answer), "{name}: {printed}");
        assert_checked(&stderr(&out), &proof, name);
    }
}
