//! `Status`: the exit codes, the same for every command.

use std::process::ExitCode;

/// How a run ended, from best to worst; when several apply, the highest code wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// 0: success, a count of 0 included.
    Success = 0,
    /// 1: no solution where one was asked for.
    NoSolution = 1,
    /// 2: bad arguments or input, or the output could not be written.
    BadInput = 2,
    /// 3: a limit (time, nodes) stopped the run.
    Limit = 3,
    /// 4: an answer failed the check every answer gets before it is printed, and was not
    /// printed: a bug in csp.
    WrongAnswer = 4,
    /// 130: interrupted by SIGINT (Ctrl-C).
    Interrupted = 130,
    /// 143: stopped by SIGTERM.
    Terminated = 143,
}

impl Status {
    /// The table printed in `csp --help` and the README.
    pub const TABLE: &'static str = "\
Exit status:
  0    success (a count of 0 included)
  1    no solution, where one was asked for
  2    bad arguments or input
  3    a limit (--time-limit, --node-limit) stopped the run (not csp compare's rows)
  4    an answer failed its check and was withheld (a bug in csp: please report it)
  130  interrupted by SIGINT (Ctrl-C)
  143  stopped by SIGTERM
Where several apply, the highest wins. A closed output pipe ends the run quietly with 0.";

    pub fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }
}
