//! One widget per part of the screen; each draws from `&App`/`&Report` and nothing else.

pub mod detail;
pub mod ellipsis;
pub mod environment;
pub mod findings;
pub mod gpu_table;
pub mod header;
pub mod help;
pub mod picker;
pub mod probe_log;
pub mod theme;
