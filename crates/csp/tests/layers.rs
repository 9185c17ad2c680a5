//! The engine's floors stay in order: the ground floor (ids, atoms, errors, limits) and the
//! propagation core import nothing from the floors built on them.
//!
//! Read from the source, as `use crate::...` paths and `crate::` names in code: a name that
//! `lib.rs` re-exports counts as its module's (`crate::Observer` is `search`'s).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The modules of `src/` each floor may not name.
const ABOVE_PROPAGATION: &[&str] = &["search", "learning", "model", "constraints"];
const GROUND: &[&str] = &["ids", "atom", "error", "rng", "limits", "poller"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments (line comments only: the engine has no block
/// comments).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("readable source file");
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each name `lib.rs` re-exports at the crate's root, with the module it comes from.
fn root_names() -> BTreeMap<String, String> {
    let lib = code(&src().join("lib.rs"));
    let mut names = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let path = statement[at + "pub use ".len()..].trim();
        let module = path.split("::").next().unwrap_or_default().to_string();
        let listed = match (path.find('{'), path.rfind('}')) {
            (Some(open), Some(close)) => path[open + 1..close].to_string(),
            _ => path.rsplit("::").next().unwrap_or_default().to_string(),
        };
        for name in listed.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let name = name.rsplit("::").next().unwrap_or(name);
            names.insert(name.to_string(), module.clone());
        }
    }
    names
}

/// The first segments named after `crate::` in `code`, with each name inside `crate::{...}`.
fn crate_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let close = list.find('}').unwrap_or(list.len());
            for item in list[..close].split(',') {
                let first = item.trim().split("::").next().unwrap_or_default();
                if !first.is_empty() {
                    names.push(first.to_string());
                }
            }
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            names.push(rest[..end].to_string());
        }
    }
    names
}

/// Every place where a file of `files` names a module of `forbidden`, directly or through a
/// name the crate's root re-exports from it.
fn reaches(files: &[PathBuf], forbidden: &[&str]) -> Vec<String> {
    let roots = root_names();
    let mut found = Vec::new();
    for file in files {
        for name in crate_names(&code(file)) {
            let module = roots.get(&name).map_or(name.as_str(), String::as_str);
            if forbidden.contains(&module) {
                let shown = file
                    .strip_prefix(src())
                    .unwrap_or(file)
                    .display()
                    .to_string();
                found.push(format!("{shown} names crate::{name} (module {module})"));
            }
        }
    }
    found
}

#[test]
fn the_propagation_core_names_nothing_built_on_it() {
    let mut files = Vec::new();
    rust_files(&src().join("propagation"), &mut files);
    assert!(files.len() >= 10, "src/propagation/ holds the core");
    let found = reaches(&files, ABOVE_PROPAGATION);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_ground_floor_names_only_itself() {
    let files: Vec<PathBuf> = GROUND
        .iter()
        .map(|m| src().join(format!("{m}.rs")))
        .collect();
    let mut above: Vec<&str> = ABOVE_PROPAGATION.to_vec();
    above.push("propagation");
    let found = reaches(&files, &above);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_sees_a_name_that_reaches_up() {
    // The check itself must be able to fail: a re-exported search type and a module path.
    let dir = std::env::temp_dir().join(format!("csp-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a scratch folder");
    let probe = dir.join("probe.rs");
    fs::write(
        &probe,
        "use crate::{Observer, VarId};\nfn f(x: crate::learning::X) {}\n",
    )
    .expect("a probe file");
    let found = reaches(&[probe], ABOVE_PROPAGATION);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("crate::Observer (module search)"));
    assert!(found[1].contains("crate::learning (module learning)"));
    fs::remove_dir_all(&dir).ok();
}
