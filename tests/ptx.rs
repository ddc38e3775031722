//! The probe kernels (assets/probes.ptx) assemble with NVIDIA's ptxas, from the pip
//! `nvidia-cuda-nvcc-cu12` wheel that scripts/prepare-test-venvs.sh installs, for every
//! GPU target from sm_50 up: whatever GPU a driver JITs them for, they are valid PTX.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every target ptxas 12.9 accepts from Maxwell on, arch-specific ones included.
const TARGETS: &[&str] = &[
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80",
    "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_101", "sm_103",
    "sm_120", "sm_121",
];

fn ptxas() -> PathBuf {
    if let Some(p) = std::env::var_os("GPU_DOCTOR_PTXAS") {
        return PathBuf::from(p);
    }
    let root = std::env::var_os("GPU_DOCTOR_TEST_VENVS").map_or_else(
        || Path::new(&std::env::var_os("HOME").unwrap()).join(".cache/gpu-doctor/test-venvs"),
        PathBuf::from,
    );
    let lib = root.join("ptxas-12.9/lib");
    let found = std::fs::read_dir(&lib).ok().and_then(|rd| {
        rd.flatten()
            .map(|e| e.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas"))
            .find(|p| p.exists())
    });
    found.unwrap_or_else(|| {
        panic!(
            "ptxas not found under {}: run scripts/prepare-test-venvs.sh (or set GPU_DOCTOR_PTXAS)",
            lib.display()
        )
    })
}

#[test]
fn probe_kernels_assemble_for_every_target() {
    let ptxas = ptxas();
    let version = Command::new(&ptxas).arg("--version").output().unwrap();
    assert!(
        String::from_utf8_lossy(&version.stdout).contains("release 12.9"),
        "{}",
        String::from_utf8_lossy(&version.stdout)
    );
    let ptx = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/probes.ptx");
    let out_dir = tempfile::tempdir().unwrap();
    for target in TARGETS {
        let cubin = out_dir.path().join(format!("{target}.cubin"));
        let out = Command::new(&ptxas)
            .arg(format!("-arch={target}"))
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "ptxas -arch={target} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(std::fs::metadata(&cubin).unwrap().len() > 0, "{target}");
    }
}

#[test]
fn broken_ptx_is_refused_so_the_test_can_fail() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ptx");
    let good =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/probes.ptx"))
            .unwrap();
    std::fs::write(&bad, good.replace("st.global.u32", "st.global.u33")).unwrap();
    let out = Command::new(ptxas())
        .args(["-arch=sm_90"])
        .arg(&bad)
        .arg("-o")
        .arg(dir.path().join("bad.cubin"))
        .output()
        .unwrap();
    assert!(!out.status.success());
}
