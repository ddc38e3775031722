//! Builds the fake driver libraries (tests/fake_driver/*.c) once per test process.
//!
//! Each process gets its own folder: test binaries run in parallel, and other checkouts
//! may share the target directory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Folders holding `libnvidia-ml.so.1`, `libcuda.so.1` and `libcuda.so` (the first name
/// cudarc tries), `cublas/libcublasLt.so.12` and `nccl/lib/libnccl.so.2`.
pub struct FakeDriver {
    /// Every entry point present.
    pub current: PathBuf,
    /// Built with FAKE_OLD_DRIVER: lacks nvmlDeviceGetMemoryInfo_v2,
    /// nvmlSystemGetCudaDriverVersion_v2 and nvmlDeviceGetFieldValues (row remapper), and
    /// a CUDA 11.2 libcuda (no cuGraphInstantiateWithFlags, no cuDeviceGetUuid_v2).
    pub old: PathBuf,
    /// Every library current, but libcuda lacks one entry point (cuCtxSetCurrent).
    pub missing_symbol: PathBuf,
    /// The current libraries, plus the toolkit's stub as `libcuda.so` (a plain file, not a
    /// link to libcuda.so.1): what a loader trying `libcuda.so` first gets.
    pub with_stub: PathBuf,
}

pub fn fake_driver() -> &'static FakeDriver {
    static BUILT: OnceLock<FakeDriver> = OnceLock::new();
    BUILT.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        remove_stale(tmp);
        let base = tmp.join(format!("fake_driver-{}", std::process::id()));
        let with_stub = build(&base.join("with_stub"), &[]);
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_driver");
        std::fs::remove_file(with_stub.join("libcuda.so")).unwrap();
        // The real stub's soname is libcuda.so.1, like the driver's.
        compile(
            &src.join("fake_cuda.c"),
            &with_stub.join("libcuda.so"),
            &["-DFAKE_STUB", "-Wl,-soname,libcuda.so.1"],
        );
        FakeDriver {
            current: build(&base.join("current"), &[]),
            old: build(&base.join("old"), &["-DFAKE_OLD_DRIVER"]),
            missing_symbol: build(&base.join("missing_symbol"), &["-DFAKE_MISSING_SYMBOL"]),
            with_stub,
        }
    })
}

/// Folders left by test processes that have ended.
fn remove_stale(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("fake_driver-")) else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn build(dir: &Path, defines: &[&str]) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_driver");
    compile(
        &src.join("fake_nvml.c"),
        &dir.join("libnvidia-ml.so.1"),
        defines,
    );
    compile(&src.join("fake_cuda.c"), &dir.join("libcuda.so.1"), defines);
    // A wheel-like folder: nvidia/cublas/lib/libcublasLt.so.12 beside the driver.
    let cublas = dir.join("cublas");
    std::fs::create_dir_all(&cublas).unwrap();
    compile(
        &src.join("fake_cublaslt.c"),
        &cublas.join("libcublasLt.so.12"),
        defines,
    );
    // A wheel-like folder: nvidia/nccl/lib/libnccl.so.2, the layout of PyTorch's
    // nvidia-nccl-cu12 / -cu13 wheels.
    let nccl = dir.join("nccl/lib");
    std::fs::create_dir_all(&nccl).unwrap();
    compile(
        &src.join("fake_nccl.c"),
        &nccl.join("libnccl.so.2"),
        defines,
    );
    std::os::unix::fs::symlink("libcuda.so.1", dir.join("libcuda.so")).unwrap();
    dir.to_path_buf()
}

fn compile(source: &Path, out: &Path, defines: &[&str]) {
    let soname = out.file_name().unwrap().to_str().unwrap();
    let soname_flag = if defines.iter().any(|d| d.starts_with("-Wl,-soname,")) {
        Vec::new()
    } else {
        vec![format!("-Wl,-soname,{soname}")]
    };
    let compilers = match std::env::var("CC") {
        Ok(cc) => vec![cc],
        Err(_) => vec!["cc".to_string(), "gcc".to_string()],
    };
    for cc in &compilers {
        let status = Command::new(cc)
            .args(["-shared", "-fPIC", "-O1", "-Wall"])
            .args(defines)
            .args(&soname_flag)
            .arg("-o")
            .arg(out)
            .arg(source)
            .arg("-lm")
            .arg("-ldl")
            .status();
        match status {
            Ok(s) => {
                assert!(s.success(), "{cc} failed to build {}", source.display());
                return;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("cannot run the C compiler {cc:?}: {e}"),
        }
    }
    panic!("no C compiler found (tried {compilers:?}; set CC)");
}
