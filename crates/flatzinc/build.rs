//! Lists csp's MiniZinc library (`mznlib/`) for `flatzinc::MZNLIB`, so that a file added
//! there ships without a list kept by hand.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mznlib");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("crates/flatzinc/mznlib is readable")
        .map(|entry| entry.expect("a directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".mzn"))
        .collect();
    names.sort();
    let mut code = String::from("&[\n");
    for name in &names {
        let path = dir.join(name);
        writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    code.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("mznlib.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
