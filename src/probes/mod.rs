//! GPU work in isolated worker processes. Only `kernels` may use `unsafe`.

pub mod kernels;
