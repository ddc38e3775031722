//! Moved: the `explain` command is `cmd::explain::run`; reading text is `error::read_text`.

pub use crate::error::{decode, read_log, read_text, MAX_INPUT_BYTES}; // moved: src/error.rs
pub use crate::explain::NOTHING_FOUND; // moved: src/explain/mod.rs
