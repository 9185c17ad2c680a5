//! The Python routes that work today: the `minizinc` package from PyPI (MiniZinc's own Python
//! interface) finding csp by name once `csp minizinc-setup` has registered it. `.ci/run`
//! installs the package into `target/tools/venv`; where that or MiniZinc is missing, the
//! check says it is skipped.

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
    // The README's Python example as it stands: 8-queens has 92 solutions (OEIS A000170), and
    // a Golomb ruler of 6 marks is 17 long at the shortest (OEIS A003022).
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme.split("### Python").nth(1).expect("a Python section");
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
