//! A search split into cubes that other processes or machines search (a Slurm or Kubernetes
//! array, Dask workers): the cubes as JSON lines ([`CubeRecord`]), one cube's search as the
//! policy plans it ([`run_cube`]), its result ([`CubeResult`]), and the results merged into
//! the whole model's answer ([`merge`]), which says whether it is complete or which cubes
//! are missing.
//!
//! The split itself is the engine's ([`csp::cube::split`]). Nothing here reads or writes
//! files: the front ends (`csp split`, `csp fzn --cube`, `csp merge`, the Python module) do.

#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod merge;
mod record;
mod result;
mod run;
mod task;

pub use merge::{merge, MergeError, Merged};
pub use record::{fingerprint, CubeRecord, LiteralRecord, RecordError};
pub use result::CubeResult;
pub use run::{run_cube, CubeError, CubeModel, CubeRun};
pub use task::Task;
