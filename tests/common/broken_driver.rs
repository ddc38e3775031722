//! Driver library folders that are broken the ways files on real machines break: a
//! library without its entry point, random bytes, 0-byte files, and a folder with only
//! libcuda (Jetson before JetPack 6 has no NVML). Built once per test process, beside
//! the fake driver of `fake_driver.rs`.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub struct BrokenDrivers {
    /// libcuda.so.1 without cuInit and libnvidia-ml.so.1 without nvmlInit_v2 (valid ELF
    /// shared objects that export something else).
    pub no_init: PathBuf,
    /// Both libraries 4 KiB of pseudo-random bytes.
    pub random_bytes: PathBuf,
    /// Both libraries 0-byte files.
    pub empty: PathBuf,
    /// Only libcuda (the working fake); no libnvidia-ml at all.
    pub cuda_only: PathBuf,
}

pub fn broken_drivers(working_cuda: &Path) -> &'static BrokenDrivers {
    static BUILT: OnceLock<BrokenDrivers> = OnceLock::new();
    BUILT.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("broken_driver-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let dir = |name: &str| {
            let d = base.join(name);
            std::fs::create_dir_all(&d).unwrap();
            d
        };
        let no_init = dir("no_init");
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_driver/fake_noinit.c");
        compile(&src, &no_init.join("libnvidia-ml.so.1"));
        compile(&src, &no_init.join("libcuda.so.1"));
        std::os::unix::fs::symlink("libcuda.so.1", no_init.join("libcuda.so")).unwrap();

        let random_bytes = dir("random_bytes");
        // A fixed xorshift stream: "random" bytes that are the same on every run.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let bytes: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        for lib in ["libnvidia-ml.so.1", "libcuda.so.1"] {
            std::fs::write(random_bytes.join(lib), &bytes).unwrap();
        }
        std::os::unix::fs::symlink("libcuda.so.1", random_bytes.join("libcuda.so")).unwrap();

        let empty = dir("empty");
        for lib in ["libnvidia-ml.so.1", "libcuda.so.1"] {
            std::fs::write(empty.join(lib), b"").unwrap();
        }
        std::os::unix::fs::symlink("libcuda.so.1", empty.join("libcuda.so")).unwrap();

        let cuda_only = dir("cuda_only");
        std::fs::copy(
            working_cuda.join("libcuda.so.1"),
            cuda_only.join("libcuda.so.1"),
        )
        .unwrap();
        std::os::unix::fs::symlink("libcuda.so.1", cuda_only.join("libcuda.so")).unwrap();
        BrokenDrivers {
            no_init,
            random_bytes,
            empty,
            cuda_only,
        }
    })
}

fn compile(source: &Path, out: &Path) {
    let soname = out.file_name().unwrap().to_str().unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O1", "-Wall"])
        .arg(format!("-Wl,-soname,{soname}"))
        .arg("-o")
        .arg(out)
        .arg(source)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {cc:?}: {e}"));
    assert!(
        status.success(),
        "{cc} failed to build {}",
        source.display()
    );
}
