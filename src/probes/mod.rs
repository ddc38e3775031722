//! GPU work in isolated worker processes: a plan from the facts, one worker per GPU
//! with a time limit per probe, results streamed back as events. Only `kernels` may
//! use `unsafe`.

pub mod kernels;
pub mod outcome;
pub mod plan;
pub mod protocol;
pub mod runner;
pub mod suite;
pub mod worker;
