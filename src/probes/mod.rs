//! GPU work in isolated worker processes: a plan from the facts, one worker per GPU
//! with a time limit per probe, results streamed back as events. Only `kernels` may
//! use `unsafe`.

pub use crate::cuda_ffi as kernels; // moved: src/cuda_ffi.rs
pub use crate::facts::probe as outcome; // moved: src/facts/probe.rs
pub mod between;
pub mod plan;
pub mod protocol;
pub mod runner;
pub mod suite;
pub mod worker;
