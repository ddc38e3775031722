//! Moved: one invocation is `cmd::run`; the pipeline is `pipeline`; errors are `error`;
//! output helpers are `cmd::output`. These re-exports keep older callers compiling.

pub use crate::cmd::output::{print, use_color}; // moved: src/cmd/output.rs
pub use crate::cmd::run; // moved: src/cmd/mod.rs
pub use crate::error::AppError; // moved: src/error.rs
pub use crate::pipeline::{choose_matrix, problems_text}; // moved: src/pipeline.rs
