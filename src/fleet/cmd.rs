//! Moved: the `fleet` command is `cmd::fleet::run`.

pub use super::SSH_ENV; // moved: src/fleet/mod.rs
