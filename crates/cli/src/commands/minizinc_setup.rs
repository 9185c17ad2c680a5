//! `csp minizinc-setup`: registers csp with MiniZinc (a solver configuration, a launcher for
//! `csp fzn`, and csp's MiniZinc library), so that `minizinc --solver csp` works.

use crate::args::{Cli, MinizincSetupArgs};
use crate::exit_code::Status;
use crate::output::Output;
use clap::{ArgAction, CommandFactory};
use std::any::TypeId;
use std::path::{Path, PathBuf};

/// The solver id MiniZinc knows csp by; `--solver csp` matches its last part.
pub const SOLVER_ID: &str = "org.csp-toolkit.csp";

pub fn run(args: &MinizincSetupArgs) -> Status {
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => match std::env::var_os("HOME") {
            Some(home) => PathBuf::from(home).join(".minizinc").join("solvers"),
            None => {
                eprintln!("csp minizinc-setup: HOME is not set: name the folder, e.g. csp minizinc-setup ~/.minizinc/solvers");
                return Status::BadInput;
            }
        },
    };
    let exe = match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("csp minizinc-setup: cannot find this csp binary's path: {e}");
            return Status::BadInput;
        }
    };
    match install(&dir, &exe) {
        Ok(()) => {
            let mut said = format!(
                "registered csp {} with MiniZinc in {}: csp.msc, the launcher csp-fzn (which \
                 runs {} fzn) and csp's library csp-mznlib ({} files, for MiniZinc 2.6 to 2.10)\n",
                env!("CARGO_PKG_VERSION"),
                dir.display(),
                exe.display(),
                flatzinc::MZNLIB.len()
            );
            if args.dir.is_some() {
                said.push_str(&format!(
                    "MiniZinc finds csp there with MZN_SOLVER_PATH={}\n",
                    dir.display()
                ));
            }
            said.push_str(&minizinc_found());
            said.push('\n');
            // Through Output, so that a reader who leaves early (| head -1) ends it quietly.
            let mut out = Output::new();
            out.record(said.as_bytes());
            out.finish("csp minizinc-setup").unwrap_or(Status::Success)
        }
        Err(message) => {
            eprintln!("csp minizinc-setup: {message}");
            Status::BadInput
        }
    }
}

/// What the `minizinc` on the PATH is, and what to run next.
fn minizinc_found() -> String {
    let run =
        "run: minizinc --solver csp model.mzn data.dzn (csp's own options: minizinc --help csp)";
    let said = std::process::Command::new("minizinc")
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned());
    let Ok(text) = said else {
        return format!(
            "no minizinc on the PATH: install MiniZinc 2.6 to 2.10 (Debian: apt-get install \
             minizinc; or minizinc.org), then {run}"
        );
    };
    let version = text
        .split("version ")
        .nth(1)
        .and_then(|rest| rest.split([',', ' ', '\n']).next())
        .unwrap_or("of unknown version");
    let numbers: Vec<u32> = version.split('.').filter_map(|n| n.parse().ok()).collect();
    let tested = numbers.len() >= 2
        && (2, 6) <= (numbers[0], numbers[1])
        && (numbers[0], numbers[1]) <= (2, 10);
    if tested {
        format!("MiniZinc {version} is on the PATH; {run}")
    } else {
        format!("MiniZinc {version} is on the PATH, and csp's library is tested with 2.6 to 2.10 only; {run}")
    }
}

/// Writes the configuration, the launcher and the library into `dir`.
pub fn install(dir: &Path, exe: &Path) -> Result<(), String> {
    let fail = |path: &Path, e: std::io::Error| format!("cannot write {}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let lib = dir.join("csp-mznlib");
    std::fs::create_dir_all(&lib).map_err(|e| fail(&lib, e))?;
    for (name, text) in flatzinc::MZNLIB {
        let path = lib.join(name);
        std::fs::write(&path, text).map_err(|e| fail(&path, e))?;
    }
    // MiniZinc runs `executable [flags] model.fzn`: the launcher puts `fzn` in front.
    let launcher = dir.join("csp-fzn");
    let quoted = exe.display().to_string().replace('\'', r"'\''");
    let script = format!("#!/bin/sh\nexec '{quoted}' fzn \"$@\"\n");
    std::fs::write(&launcher, script).map_err(|e| fail(&launcher, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&launcher, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| fail(&launcher, e))?;
    }
    let config = serde_json::json!({
        "id": SOLVER_ID,
        "name": "csp",
        "description": "csp, a constraint solver in Rust: arc consistency, Régin's all_different, dom/wdeg",
        "version": env!("CARGO_PKG_VERSION"),
        "mznlib": lib.display().to_string(),
        "executable": launcher.display().to_string(),
        "tags": ["cp", "int"],
        "stdFlags": ["-a", "-f", "-i", "-n", "-p", "-r", "-s", "-t", "-v"],
        "extraFlags": extra_flags(),
        "supportsMzn": false,
        "supportsFzn": true,
        "needsSolns2Out": true,
        "needsMznExecutable": false,
        "needsStdlibDir": false,
        "isGUIApplication": false
    });
    let msc = dir.join("csp.msc");
    let text = serde_json::to_string_pretty(&config).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&msc, text).map_err(|e| fail(&msc, e))?;
    Ok(())
}

/// The FlatZinc of a MiniZinc model and its data, as `minizinc --solver csp` would hand it
/// over: compiled by `minizinc` (on the PATH) against csp's library, which a temporary
/// `csp minizinc-setup` provides. `keep_paths` keeps MiniZinc's `mzn_path` annotations, which
/// name each item's place in the model (and make the FlatZinc several times larger).
pub fn compile_with_minizinc(
    files: &[PathBuf],
    data: &[String],
    keep_paths: bool,
) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("csp-compile-{}", std::process::id()));
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this csp binary: {e}"))?;
    install(&dir, &exe)?;
    let fzn = dir.join("model.fzn");
    let ozn = dir.join("model.ozn");
    let result = std::process::Command::new("minizinc")
        .args(["-c", "--solver", SOLVER_ID, "--fzn"])
        .arg(&fzn)
        .arg("--ozn")
        .arg(&ozn)
        .args(files)
        .args(data.iter().flat_map(|d| ["-D", d.as_str()]))
        .args(keep_paths.then_some("--keep-paths"))
        .env("MZN_SOLVER_PATH", &dir)
        .output();
    let text = match result {
        Err(e) => Err(format!(
            "cannot run minizinc ({e}): a MiniZinc model needs MiniZinc on the PATH; or give \
             the .fzn that minizinc -c --solver csp writes"
        )),
        Ok(out) if !out.status.success() => Err(format!(
            "minizinc could not compile the model: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(_) => {
            std::fs::read_to_string(&fzn).map_err(|e| format!("cannot read {}: {e}", fzn.display()))
        }
    };
    std::fs::remove_dir_all(&dir).ok();
    text
}

/// `csp fzn`'s options that MiniZinc has no standard flag for, as the `.msc`'s `extraFlags`
/// (`[flag, description, type, default]`), so that `minizinc --solver csp --inference lcg`
/// passes them on and `minizinc --solver csp --help` lists them. Read from `csp fzn`'s own
/// argument definitions: an option added there is declared here with it. Left out: those with
/// a short form (MiniZinc's standard flags: -a, -t, ...); --time-limit and --seed, which
/// MiniZinc takes as its own (it passes them on as -t and -r); and --stats (MiniZinc's -s
/// asks for statistics).
fn extra_flags() -> Vec<[String; 4]> {
    let cli = Cli::command();
    let Some(fzn_command) = cli.find_subcommand("fzn") else {
        return Vec::new();
    };
    let mut flags = Vec::new();
    for arg in fzn_command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if arg.get_short().is_some() || ["time-limit", "seed", "stats", "help"].contains(&long) {
            continue;
        }
        let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_owned())
            .collect();
        // A switch first: clap lists `true` and `false` as its values.
        let (kind, default, description) = if matches!(arg.get_action(), ArgAction::SetTrue) {
            ("bool".to_owned(), "false".to_owned(), help)
        } else if !values.is_empty() {
            // The search options have no one default: the policy picks them for the model
            // (csp_policy::Defaults), so none is declared to MiniZinc.
            let described = format!(
                "{help} ({}; default: as csp picks for the model)",
                values.join(", ")
            );
            (
                format!("opt:{}", values.join(":")),
                String::new(),
                described,
            )
        } else if arg.get_value_parser().type_id() == TypeId::of::<u64>() {
            ("int".to_owned(), String::new(), help)
        } else {
            ("string".to_owned(), String::new(), help)
        };
        flags.push([format!("--{long}"), description, kind, default]);
    }
    flags
}
