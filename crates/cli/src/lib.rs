//! The `csp` command as a library: parse the arguments, check them, run, and turn the result
//! into an exit status. Errors are printed once, here; a closed output pipe ends the run
//! quietly. `main.rs` is one call to [`run`]; [`check_args`] lets the fuzz targets try argument
//! lists without running anything.

// Bad input must come back as an error, never a panic.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod args;
mod choice;
mod commands;
mod cube_task;
mod events;
mod exit_code;
mod input;
mod instances;
mod output;
mod progress;
mod proof;
mod recordings;
mod render;
mod search_options;
mod signals;
mod wording;

use args::{Cli, Command};
use clap::Parser;
use exit_code::Status;
use std::ffi::OsString;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command line `args` (the program's name first), printing to standard output and
/// errors to standard error, and returns the exit status.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    // The time limit counts from here: reading input and building models count too.
    let started = Instant::now();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version come this way too, with a success status.
            let _ = e.print();
            return if e.use_stderr() {
                Status::BadInput.code()
            } else {
                Status::Success.code()
            };
        }
    };
    let signals = signals::Signals::install();
    let status = match cli.command {
        Command::Queens(args) => {
            match commands::queens::QueensJob::from_args(&args, &signals, started) {
                Ok(job) => job.run(&signals, output::Output::new()),
                Err(message) => {
                    eprintln!("csp queens: {message}");
                    Status::BadInput
                }
            }
        }
        Command::Color(args) => {
            match commands::color::ColorJob::from_args(&args, &signals, started) {
                Ok(job) => job.run(&signals, output::Output::new()),
                Err(message) => {
                    eprintln!("csp color: {message}");
                    Status::BadInput
                }
            }
        }
        Command::Compare(command) => {
            commands::compare::run(&command, &signals, output::Output::new())
        }
        Command::Sudoku(args) => match commands::sudoku::SudokuJob::from_args(&args, &signals) {
            Ok(job) => job.run(&signals, output::Output::new()),
            Err(message) => {
                eprintln!("csp sudoku: {message}");
                Status::BadInput
            }
        },
        Command::MinizincSetup(args) => commands::minizinc_setup::run(&args),
        Command::Fzn(args) => match commands::fzn::FznJob::from_args(&args, &signals, started) {
            Ok(job) => job.run(&signals, output::Output::new()),
            Err(message) => {
                eprintln!("csp fzn: {message}");
                Status::BadInput
            }
        },
        Command::Xcsp3(args) => {
            match commands::xcsp3::Xcsp3Job::from_args(&args, &signals, started) {
                Ok(job) => job.run(&signals, output::Output::new()),
                Err(message) => {
                    eprintln!("csp xcsp3: {message}");
                    Status::BadInput
                }
            }
        }
        Command::Split(args) => commands::split::run(&args, &signals, started),
        Command::Merge(args) => commands::merge::run(&args),
    };
    status.code()
}

/// Parses and checks the command line `args` (the program's name first) as [`run`] would,
/// without running it or touching files: `Err` holds the message `run` would print.
pub fn check_args<I, T>(args: I) -> Result<(), String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = Cli::try_parse_from(args).map_err(|e| e.to_string())?;
    let signals = signals::Signals::inert();
    match cli.command {
        Command::Queens(args) => {
            commands::queens::QueensJob::from_args(&args, &signals, Instant::now()).map(drop)
        }
        Command::Color(args) => {
            commands::color::ColorJob::from_args(&args, &signals, Instant::now()).map(drop)
        }
        Command::Sudoku(args) => commands::sudoku::SudokuJob::from_args(&args, &signals).map(drop),
        Command::Fzn(args) => {
            commands::fzn::FznJob::from_args(&args, &signals, Instant::now()).map(drop)
        }
        Command::Xcsp3(args) => {
            commands::xcsp3::Xcsp3Job::from_args(&args, &signals, Instant::now()).map(drop)
        }
        Command::MinizincSetup(_) | Command::Merge(_) => Ok(()),
        Command::Split(args) => args.time_limit.as_deref().map_or(Ok(()), |t| {
            csp_policy::time_limit_text(t)
                .map(drop)
                .map_err(|e| e.to_string())
        }),
        // A comparison checks its configurations as it runs.
        Command::Compare(_) => Ok(()),
    }
}
