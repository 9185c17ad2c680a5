//! The Python routes: csp's own wheel (its module, its CPMpy solver, PyCSP3 through its `csp`
//! command), whose pytest tests run from here, and the `minizinc` package from PyPI (MiniZinc's
//! own Python interface) finding csp by name once `csp minizinc-setup` has registered it.
//! `.ci/run` builds the wheel and installs it with the packages into `target/tools/venv`; where
//! those or MiniZinc are missing, the checks say they are skipped.

use super::common::{csp, stderr};
use std::path::Path;
use std::process::Command;

/// The virtual environment `.ci/run` fills with the `minizinc` package.
fn venv_python() -> Option<std::path::PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/venv/bin/python");
    python.exists().then_some(python)
}

#[test]
fn the_minizinc_python_package_looks_csp_up_by_name_and_solves_with_it() {
    let Some(python) = venv_python() else {
        eprintln!("target/tools/venv is missing (.ci/run makes it): skipped");
        return;
    };
    if Command::new("minizinc").arg("--version").output().is_err() {
        eprintln!("minizinc is not installed: skipped (.ci/run installs it)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("csp-python-{}", std::process::id()));
    let setup = csp(&["minizinc-setup", dir.to_str().unwrap()]);
    assert_eq!(setup.status.code(), Some(0), "{}", stderr(&setup));
    // docs/python.md's example as it stands: 8-queens has 92 solutions (OEIS A000170), and
    // a Golomb ruler of 6 marks is 17 long at the shortest (OEIS A003022).
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/python.md");
    let readme = std::fs::read_to_string(page).unwrap();
    let section = readme
        .split("## MiniZinc's `minizinc` package")
        .nth(1)
        .expect("a section on MiniZinc's Python package");
    let script = section
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a python block in the Python section");
    let out = Command::new(&python)
        .args(["-c", script])
        .env("MZN_SOLVER_PATH", &dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text, "92\nOPTIMAL_SOLUTION 17\n");
}

/// The newest file under `dir`, by modification time.
fn newest_under(dir: &Path) -> Option<std::time::SystemTime> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let time = if path.is_dir() {
            newest_under(&path)
        } else {
            entry.metadata().and_then(|m| m.modified()).ok()
        };
        newest = newest.max(time);
    }
    newest
}

#[test]
fn the_python_package_passes_its_own_tests_from_the_wheel() {
    // crates/python/tests: the modelling API, the CPMpy interface and the README's Python
    // examples, against answers from elsewhere (OEIS, brute force, published puzzles), and the
    // wheel installed into a fresh environment without Rust. .ci/run builds the wheel
    // (scripts/build-wheel) and installs it into target/tools/venv before the tests.
    let Some(python) = venv_python() else {
        eprintln!("target/tools/venv is missing (.ci/run makes it): skipped");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let wheel = std::fs::read_dir(root.join("target/wheels"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"));
    let Some(wheel) = wheel else {
        eprintln!("no wheel in target/wheels (scripts/build-wheel makes it): skipped");
        return;
    };
    let built = wheel.metadata().and_then(|m| m.modified()).ok();
    // What goes into the wheel: the module, and the binary with every crate it is built from.
    let sources = [
        "crates/python/src",
        "crates/python/python",
        "crates/csp/src",
        "crates/cli/src",
        "crates/flatzinc/src",
        "crates/xcsp3/src",
        "crates/nqueens/src",
        "crates/sudoku/src",
        "crates/coloring/src",
        "crates/proof/src",
        "crates/policy/src",
        "crates/cubes/src",
    ]
    .iter()
    .filter_map(|d| newest_under(&root.join(d)))
    .max();
    if built < sources {
        eprintln!("the wheel is older than the sources (scripts/build-wheel rebuilds it): skipped");
        return;
    }
    let out = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "crates/python/tests",
        ])
        .current_dir(&root)
        .env("CSP_WHEEL", &wheel)
        // Pumpkin's checker, which .ci/run builds there, verifies the CPMpy interface's proofs.
        .env("PATH", with_tools(&root))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" passed"), "{text}");
    assert!(
        !text.contains("skipped"),
        "every Python test runs here: {text}"
    );
}

/// The PATH with target/tools/bin (the peers .ci/run builds) in front.
fn with_tools(root: &Path) -> std::ffi::OsString {
    let tools = root.join("target/tools/bin");
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(tools).chain(std::env::split_paths(&path))).unwrap()
}
