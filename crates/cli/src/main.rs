//! The `csp` binary: everything is in the library, so that tests and fuzz targets reach it.

#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    csp_cli::run(std::env::args_os())
}
