//! The MiniZinc compilers the tests compile models with: the `minizinc` on the PATH (Debian's
//! is 2.6.4) and, beside it, MiniZinc 2.10: a native build named by `CSP_MINIZINC_NEW` (or at
//! `~/.cache/minizinc-2.10/bin/minizinc`), else the WebAssembly one that `.ci/run` installs
//! into `target/tools/npm`, run by `scripts/minizinc-wasm.cjs`. `CSP_MINIZINC_NEW=wasm` asks
//! for the WebAssembly one even where a native build is found.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One way of compiling MiniZinc.
pub enum Compiler {
    /// A `minizinc` executable, which finds csp through `MZN_SOLVER_PATH`.
    Native { program: PathBuf, version: String },
    /// MiniZinc 2.10 as WebAssembly, given csp's library with `-I`.
    Wasm { npm: PathBuf },
}

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What `program --version` says its version is, if it runs.
fn version(program: &Path) -> Option<String> {
    let out = Command::new(program)
        .arg("--version")
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let after = text.split("version ").nth(1)?;
    Some(after.split([',', ' ', '\n']).next()?.to_owned())
}

/// Whether version `v` (as `2.6.4`) is at least 2.10.
fn is_current(v: &str) -> bool {
    let parts: Vec<u32> = v.split('.').filter_map(|p| p.parse().ok()).collect();
    parts.len() >= 2 && (parts[0], parts[1]) >= (2, 10)
}

/// The compilers found here, the PATH's first; a missing one is named as skipped on stderr.
pub fn available() -> Vec<Compiler> {
    let mut found = Vec::new();
    match version(Path::new("minizinc")) {
        Some(v) => found.push(Compiler::Native {
            program: "minizinc".into(),
            version: v,
        }),
        None => eprintln!("minizinc is not on the PATH: skipped (.ci/run installs it)"),
    }
    if found.iter().any(|c| is_current(&c.version())) {
        return found;
    }
    let wanted = std::env::var_os("CSP_MINIZINC_NEW");
    let native = match &wanted {
        Some(w) if w == "wasm" => None,
        Some(path) => Some(PathBuf::from(path)),
        None => std::env::var_os("HOME")
            .map(|h| PathBuf::from(h).join(".cache/minizinc-2.10/bin/minizinc")),
    };
    if let Some(program) = native {
        if let Some(v) = version(&program) {
            found.push(Compiler::Native {
                program,
                version: v,
            });
            return found;
        }
    }
    let npm = [
        std::env::var_os("CSP_MINIZINC_NPM").map(PathBuf::from),
        Some(root().join("target/tools/npm")),
    ]
    .into_iter()
    .flatten()
    .find(|dir| {
        dir.join("node_modules/minizinc/dist/minizinc.wasm")
            .exists()
    });
    match npm {
        Some(npm) if node_runs() => found.push(Compiler::Wasm { npm }),
        _ => eprintln!(
            "MiniZinc 2.10 is not here (neither a native build nor the WebAssembly one of \
             target/tools/npm, which .ci/run installs): its checks skipped"
        ),
    }
    found
}

/// Whether node runs here.
fn node_runs() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

impl Compiler {
    /// The compiler's MiniZinc version.
    pub fn version(&self) -> String {
        match self {
            Compiler::Native { version, .. } => version.clone(),
            Compiler::Wasm { .. } => "2.10 (WebAssembly)".into(),
        }
    }

    /// Compiles each model for csp, registered in `solvers` by `csp minizinc-setup`: against
    /// csp's library, or with `std` against MiniZinc's own decompositions. Each model's
    /// FlatZinc goes beside it (`.fzn`, or `.std.fzn`); its text, or what the compiler said.
    /// A native compiler runs two at a time; the WebAssembly one compiles them all in one
    /// process, as loading it costs four seconds of CPU, a model one (the tests run two at
    /// a time already, and CI's two cores are busy throughout).
    pub fn compile_all(
        &self,
        solvers: &Path,
        models: &[PathBuf],
        std: bool,
    ) -> Vec<Result<String, String>> {
        let flat = |m: &PathBuf| m.with_extension(if std { "std.fzn" } else { "fzn" });
        let program = match self {
            Compiler::Wasm { npm } => return wasm(npm, solvers, models, &flat, std),
            Compiler::Native { program, .. } => program,
        };
        let halves: Vec<&[PathBuf]> = models.chunks(models.len().div_ceil(2).max(1)).collect();
        let results: Vec<Vec<Result<String, String>>> = std::thread::scope(|scope| {
            let runs: Vec<_> = halves
                .iter()
                .map(|half| {
                    scope.spawn(move || {
                        half.iter()
                            .map(|m| native(program, solvers, m, &flat(m), std))
                            .collect()
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        results.into_iter().flatten().collect()
    }
}

/// The FlatZinc text at `flat`, once `ok` says the compiler wrote it; else `said`.
fn read_flat(ok: bool, flat: &Path, said: String) -> Result<String, String> {
    if !ok {
        return Err(said);
    }
    std::fs::read_to_string(flat).map_err(|e| format!("{}: {e}; {said}", flat.display()))
}

fn native(
    program: &Path,
    solvers: &Path,
    model: &Path,
    flat: &Path,
    std: bool,
) -> Result<String, String> {
    let out = Command::new(program)
        .args(["-c", "--solver", "csp"])
        .args(if std { &["-G", "std"][..] } else { &[] })
        .arg("--fzn")
        .arg(flat)
        .args(["--ozn", "/dev/null"])
        .arg(model)
        .env("MZN_SOLVER_PATH", solvers)
        .output()
        .map_err(|e| e.to_string())?;
    read_flat(
        out.status.success(),
        flat,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn wasm(
    npm: &Path,
    solvers: &Path,
    models: &[PathBuf],
    flat: &dyn Fn(&PathBuf) -> PathBuf,
    std: bool,
) -> Vec<Result<String, String>> {
    let lib = solvers.join("csp-mznlib");
    let mut batch = String::new();
    for model in models {
        let mut args: Vec<String> = vec![
            "-c".into(),
            "--solver".into(),
            "org.minizinc.mzn-fzn".into(),
        ];
        if !std {
            args.extend(["-I".into(), lib.display().to_string()]);
        }
        args.extend([
            model.display().to_string(),
            "--fzn".into(),
            flat(model).display().to_string(),
        ]);
        batch.push_str(&serde_json::to_string(&args).unwrap());
        batch.push('\n');
    }
    let list = models[0].with_extension(format!("batch{}.jsonl", u8::from(std)));
    std::fs::write(&list, batch).unwrap();
    let out = Command::new("node")
        .arg(root().join("scripts/minizinc-wasm.cjs"))
        .arg("--batch")
        .arg(&list)
        .env("CSP_MINIZINC_NPM", npm)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "minizinc-wasm: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(runs.len(), models.len());
    runs.iter()
        .zip(models)
        .map(|(run, model)| {
            let said = format!(
                "{}{}",
                run["stdout"].as_str().unwrap_or(""),
                run["stderr"].as_str().unwrap_or("")
            );
            read_flat(run["code"] == 0, &flat(model), said)
        })
        .collect()
}
