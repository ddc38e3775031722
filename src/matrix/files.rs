/// The files of a matrix, in the order they are read. Shared with build.rs (`include!`),
/// which turns them into the bundled JSON.
pub const FILES: [&str; 9] = [
    "matrix.toml",
    "toolkits.toml",
    "drivers.toml",
    "archs.toml",
    "gpus.toml",
    "torch.toml",
    "cudnn.toml",
    "xid.toml",
    "interconnect.toml",
];
