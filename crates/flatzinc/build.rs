//! Lists csp's MiniZinc library (`mznlib/`) for `flatzinc::MZNLIB`, so that a file added
//! there ships without a list kept by hand.

use std::io;
use std::path::Path;

fn main() -> io::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mznlib");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".mzn") {
            names.push(name);
        }
    }
    names.sort();
    let mut code = String::from("&[\n");
    for name in &names {
        let path = dir.join(name).display().to_string();
        code.push_str(&format!("    ({name:?}, include_str!({path:?})),\n"));
    }
    code.push(']');
    let out = std::env::var_os("OUT_DIR")
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "cargo sets OUT_DIR"))?;
    std::fs::write(Path::new(&out).join("mznlib.rs"), code)
}
