#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End-to-end tests of `explain`, `diagnose`, `grid` and `diff` through the real binary,
//! offline or on an empty fixture root so results do not depend on this machine.

mod fixture_root;

use std::io::Write;

use assert_cmd::Command;
use fixture_root::FixtureRoot;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpu-doctor"));
    cmd.env_remove("GPU_DOCTOR_MATRIX").env("NO_COLOR", "1");
    cmd
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(cmd: &mut Command) -> (i32, serde_json::Value) {
    let (code, out, err) = run(cmd.arg("--json"));
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

const NO_KERNEL: &str = "UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n";

#[test]
fn explain_text_argument_json_schema() {
    let (code, v) = json(bin().args(["explain", "--offline", NO_KERNEL]));
    assert_eq!(code, 0);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2);
    for m in matches {
        assert!(m["id"].is_string());
        assert!(m["text"].is_string());
        let span = m["span"].as_array().unwrap();
        let (s, e) = (span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
        assert!(s < e && e as usize <= NO_KERNEL.len());
        for c in m["causes"].as_array().unwrap() {
            for key in ["id", "confidence", "why", "fix"] {
                assert!(!c[key].is_null(), "{key} in {c}");
            }
        }
    }
    let primary = v["primary"].as_u64().unwrap() as usize;
    assert_eq!(
        matches[primary]["causes"][0]["id"],
        "torch.arch_unsupported"
    );
    assert_eq!(matches[primary]["extracted"]["sm"], "sm_120");
    assert_eq!(v["facts"], "none (--offline)");
}

#[test]
fn explain_reads_stdin_and_files_and_says_when_nothing_is_known() {
    let (code, out, _) = run(bin()
        .args(["explain", "--offline"])
        .write_stdin("RuntimeError: CUDA error: device-side assert triggered\n"));
    assert_eq!(code, 0);
    assert!(out.contains("workload.device_assert"), "{out}");
    assert!(out.contains("fix:"), "{out}");
    // `explain -` reads standard input too, like `diagnose -`
    let (code, out, _) = run(bin()
        .args(["explain", "--offline", "-"])
        .write_stdin("RuntimeError: CUDA error: device-side assert triggered\n"));
    assert_eq!(code, 0);
    assert!(out.contains("workload.device_assert"), "{out}");

    let mut log = tempfile::NamedTempFile::new().unwrap();
    log.write_all(b"[ 12.3] NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n")
        .unwrap();
    let (code, v) = json(
        bin()
            .args(["explain", "--offline", "--file"])
            .arg(log.path()),
    );
    assert_eq!(code, 0);
    assert_eq!(v["matches"][0]["causes"][0]["id"], "gpu.lost");

    let (code, out, _) = run(bin().args(["explain", "--offline", "all", "good", "here"]));
    assert_eq!(code, 1);
    assert!(out.contains("No known"), "{out}");
}

#[test]
fn explain_survives_binary_and_unreadable_input() {
    let mut garbage: Vec<u8> = (0..200_000u32).map(|i| (i * 31 % 251) as u8).collect();
    garbage.extend_from_slice(b"\xff\xfeCUDA out of memory. Tried to allocate 2.00 GiB\x00");
    let (code, v) = json(bin().args(["explain", "--offline"]).write_stdin(garbage));
    assert_eq!(code, 0);
    assert_eq!(v["matches"][0]["id"], "cuda.out_of_memory");
    let (code, _, err) = run(bin().args(["explain", "--file", "/nonexistent/log.txt"]));
    assert_eq!(code, 3);
    assert!(err.contains("could not read"), "{err}");
}

#[test]
fn explain_uses_this_machines_facts_unless_offline() {
    // An empty Ubuntu root: no GPU, no driver, no torch. The machine's findings rule
    // nothing in but the refinement runs and says so.
    let root = FixtureRoot::ubuntu();
    let (code, out, err) =
        run(root
            .command()
            .args(["explain", "--json", "Torch not compiled with CUDA enabled"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["facts"], "this machine");
    assert_eq!(v["matches"][0]["causes"][0]["id"], "torch.cpu_only");
}

#[test]
fn explain_with_a_saved_reports_facts_names_the_gpu_the_build_and_the_wheel() {
    let report = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reports/rtx5090_old_wheel.json");
    let (code, v) =
        json(bin().args(["explain", "--from"]).arg(&report).arg(
            "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        ));
    assert_eq!(code, 0);
    assert_eq!(v["facts"], "the saved report");
    let top = &v["matches"][0]["causes"][0];
    assert_eq!(top["id"], "torch.arch_unsupported");
    let seen = top["evidence"][0].as_str().unwrap();
    assert!(
        seen.contains("RTX 5090") && seen.contains("sm_120"),
        "{seen}"
    );
    let cmd = top["commands"][0].as_str().unwrap();
    assert!(
        cmd.contains("pip install torch==") && cmd.contains("cu12"),
        "{cmd}"
    );
    let (code, _, err) = run(bin().args([
        "explain",
        "--from",
        "/nonexistent.json",
        "CUDA out of memory",
    ]));
    assert_eq!(code, 3, "{err}");
}

const PASTE: &str = "Collecting environment information...
PyTorch version: 2.4.1+cu121
Is debug build: False
CUDA used to build PyTorch: 12.1
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.4 LTS (x86_64)
Python version: 3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0] (64-bit runtime)
Python platform: Linux-5.15.0-105-generic-x86_64-with-glibc2.35
Is CUDA available: True
CUDA runtime version: 12.1.105
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 5090
Nvidia driver version: 570.86.10
cuDNN version: Could not collect
";

#[test]
fn diagnose_a_paste_with_and_without_a_log() {
    let mut paste = tempfile::NamedTempFile::new().unwrap();
    paste.write_all(PASTE.as_bytes()).unwrap();
    let (code, v) = json(bin().args(["diagnose", "--collect-env"]).arg(paste.path()));
    assert_eq!(code, 2, "{:#}", v["findings"]);
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["diagnosis"]["cause"], "torch.arch_unsupported");
    let arch = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "torch.arch_unsupported" && f["severity"] == "fail")
        .unwrap();
    assert!(
        arch["summary"].as_str().unwrap().contains("sm_120"),
        "{arch}"
    );
    assert!(
        arch["fix"]["commands"][0]
            .as_str()
            .unwrap()
            .contains("cu12"),
        "{arch}"
    );
    assert_eq!(
        v["facts"]["driver_api"]["nvml"]["value"]["driver_version"]["value"],
        "570.86.10"
    );
    // a fact the paste lacks is missing with the way to get it
    assert!(v["facts"]["system"]["shm_bytes"]["why"]
        .as_str()
        .unwrap()
        .contains("df -h /dev/shm"));
    assert!(v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["id"] == "host.shm_small"
            && f["severity"] == "info"
            && f["summary"].as_str().unwrap().contains("not judged")));

    let mut log = tempfile::NamedTempFile::new().unwrap();
    log.write_all(b"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB")
        .unwrap();
    let (_, v) = json(
        bin()
            .args(["diagnose", "--collect-env"])
            .arg(paste.path())
            .arg("--log")
            .arg(log.path()),
    );
    assert_eq!(v["diagnosis"]["cause"], "workload.out_of_memory");
    assert_eq!(v["diagnosis"]["from"], "log");
    assert_eq!(
        v["diagnosis"]["log"]["matches"][0]["id"],
        "cuda.out_of_memory"
    );

    let (code, out, _) = run(bin()
        .args(["diagnose", "--collect-env", "-"])
        .write_stdin(PASTE));
    assert_eq!(code, 2);
    assert!(
        out.contains("Diagnosis from the paste: torch.arch_unsupported"),
        "{out}"
    );
}

#[test]
fn diagnose_refuses_what_is_not_a_paste() {
    let (code, _, err) = run(bin()
        .args(["diagnose", "--collect-env", "-"])
        .write_stdin(vec![0u8, 159, 146, 150, 10, 255]));
    assert_eq!(code, 3);
    assert!(err.contains("collect_env"), "{err}");
    let (code, _, _) = run(bin().args(["diagnose", "--collect-env", "/nonexistent"]));
    assert_eq!(code, 3);
}

#[test]
fn grid_the_seed_articles_example() {
    let (code, v) =
        json(bin().args(["grid", "--batch", "6", "--heads", "5", "--spatial", "40x64"]));
    assert_eq!(code, 1);
    assert_eq!(v["blocks"], 76800);
    assert_eq!(v["limit"], 65535);
    assert_eq!(v["fits"], false);
    assert_eq!(v["max_chunk"], 5);
    let (code, out, _) = run(bin().args([
        "grid",
        "--batch",
        "5",
        "--heads",
        "5",
        "--spatial",
        "40x64",
        "--axis",
        "z",
    ]));
    assert_eq!(code, 0);
    assert!(out.contains("64000 blocks on grid axis z"), "{out}");
    let (code, _, err) =
        run(bin().args(["grid", "--batch", "6", "--heads", "5", "--spatial", "forty"]));
    assert_eq!(code, 3);
    assert!(err.contains("HxW"), "{err}");
    // No GPU on the machine the tests run on: no real limit to read (tests/probes.rs reads
    // one from the fake driver).
    let root = tempfile::tempdir().unwrap();
    let (code, _, err) = run(bin()
        .env("GPU_DOCTOR_ROOT", root.path())
        .args(["grid", "--batch", "6", "--heads", "5", "--gpu", "0"]));
    assert_eq!(code, 3);
    assert!(
        err.contains("--gpu 0: cannot read the device's grid limits"),
        "{err}"
    );
}

#[test]
fn diff_two_saved_reports() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports");
    let a = dir.join("healthy_8gpu.json");
    let b = dir.join("mismatched_driver.json");
    let (code, out, _) = run(bin().arg("diff").arg(&a).arg(&a));
    assert_eq!(code, 0);
    assert!(out.contains("same facts and findings"), "{out}");
    let (code, v) = json(bin().arg("diff").arg(&a).arg(&b));
    assert_eq!(code, 1);
    assert_eq!(v["identical"], false);
    let diffs = v["differences"].as_array().unwrap();
    assert!(!diffs.is_empty());
    // most relevant first: never less relevant than the next
    let rel: Vec<u64> = diffs
        .iter()
        .map(|d| d["relevance"].as_u64().unwrap())
        .collect();
    assert!(rel.windows(2).all(|w| w[0] <= w[1]), "{rel:?}");
    assert_eq!(diffs[0]["kind"], "finding");
    let (code, _, err) = run(bin().arg("diff").arg(&a).arg("/nonexistent.json"));
    assert_eq!(code, 3);
    assert!(err.contains("could not read"), "{err}");
    let (code, _, _) = run(bin()
        .arg("diff")
        .arg(&a)
        .arg("-")
        .write_stdin("{\"not\": \"a report\"}"));
    assert_eq!(code, 3);
}

#[test]
fn diagnose_json_is_a_valid_report_for_every_corpus_paste() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/report.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/collect_env");
    let mut n = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    // every seventh paste: all eras and formats, in bounded time
    for path in paths.iter().step_by(7) {
        n += 1;
        let (code, v) = json(bin().args(["diagnose", "--collect-env"]).arg(path));
        assert!((0..=2).contains(&code), "{}: {code}", path.display());
        let errors: Vec<String> = validator
            .iter_errors(&v)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        assert!(v["diagnosis"]["cause"].is_string());
        assert_eq!(v["exit_code"].as_i64(), Some(i64::from(code)));
    }
    assert!(n > 0);
}

/// A traceback that observed the driver too old ("found version 12020": CUDA 12.2) ranks
/// first although the paste's own nvidia-smi shows a driver new enough (the error came
/// from another environment): observation outranks inference (issue #12 item 5).
#[test]
fn what_the_log_observed_outranks_what_the_paste_infers() {
    let paste = "+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
|   0  NVIDIA A100-SXM4-80GB          Off |   00000000:07:00.0 Off |                    0 |
torch                    2.5.1+cu124
";
    let log = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    torch.zeros(1).cuda()\nRuntimeError: The NVIDIA driver on your system is too old (found version 12020). Please update your GPU driver\n";
    let mut p = tempfile::NamedTempFile::new().unwrap();
    p.write_all(paste.as_bytes()).unwrap();
    let mut l = tempfile::NamedTempFile::new().unwrap();
    l.write_all(log.as_bytes()).unwrap();
    let (_, v) = json(
        bin()
            .arg("diagnose")
            .arg(p.path())
            .arg("--log")
            .arg(l.path()),
    );
    assert_eq!(v["diagnosis"]["cause"], "driver.too_old_for_torch", "{v:#}");
    assert_eq!(v["diagnosis"]["from"], "log");
    let first = &v["diagnosis"]["log"]["matches"][0]["causes"][0];
    assert_eq!(first["id"], "driver.too_old_for_torch");
    assert_eq!(first["observed"], true);
    assert!(v["collect_env"]["formats"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f == "nvidia-smi"));
}

/// `diagnose FILE` reads pastes that are not collect_env (nvidia-smi, free-form lines),
/// UTF-16 from PowerShell's `>`, and lines ending in NUL bytes, with the same verdict.
#[test]
fn diagnose_reads_any_paste_utf16_and_nul_bytes() {
    let text = "I have CUDA 12.1, driver 470.82.01, RTX 3090 and torch 2.1.0+cu121\nRuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n";
    let mut plain = tempfile::NamedTempFile::new().unwrap();
    plain.write_all(text.as_bytes()).unwrap();
    let (_, a) = json(bin().arg("diagnose").arg(plain.path()));
    assert_eq!(a["diagnosis"]["cause"], "driver.too_old_for_torch", "{a:#}");
    assert_eq!(a["collect_env"]["driver"], "470.82.01");
    assert_eq!(a["collect_env"]["torch"], "2.1.0+cu121");
    assert!(a["diagnosis"]["found"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f == "driver 470.82.01"));
    assert!(a["diagnosis"]["lacking"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f == "nvcc"));
    let mut utf16 = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let (_, b) = json(bin().args(["diagnose", "-"]).write_stdin(utf16));
    assert_eq!(b["diagnosis"], a["diagnosis"]);
    let nul: Vec<u8> = text.replace('\n', "\0\0\n").into_bytes();
    let (_, c) = json(bin().args(["diagnose", "-"]).write_stdin(nul));
    assert_eq!(c["diagnosis"], a["diagnosis"]);
    let (code, out, _) = run(bin().args(["diagnose", "--plain", "-"]).write_stdin(text));
    assert!(out.contains("Found: driver 470.82.01"), "{code} {out}");
    assert!(out.contains("Lacking:"), "{out}");
}

/// An error no rule knows still gets causes ranked from what it names, at a lower
/// confidence; a 100 MB log is read head and tail, not refused.
#[test]
fn explain_ranks_unknown_gpu_errors_and_reads_huge_logs() {
    let (code, v) = json(bin().args([
        "explain",
        "--offline",
        "custom_op: cudaSetDevice failed with error code 101",
    ]));
    assert_eq!(code, 0);
    let m = &v["matches"][0];
    assert_eq!(m["id"], "generic.gpu_error");
    assert_eq!(m["extracted"]["cuda_error"], "101 (cudaErrorInvalidDevice)");
    assert_eq!(m["causes"][0]["id"], "env.visible_devices_invalid");
    assert!(m["causes"][0]["confidence"].as_f64().unwrap() <= 0.5);
    let (_, v) = json(bin().args([
        "explain",
        "--offline",
        "myapp: GPU driver initialization failed on device 0",
    ]));
    // The generic answer reads a driver failing at initialisation; which driver cause comes
    // first is the known cases' vote (field data: NVML/library mismatches lead).
    let causes = v["matches"][0]["causes"].as_array().unwrap();
    assert!(
        causes[0]["id"].as_str().unwrap().starts_with("driver."),
        "{causes:?}"
    );
    assert!(causes.iter().any(|k| k["id"] == "driver.cuda_init_failed"));
    // text that names no GPU error stays unexplained
    let (code, _, _) = run(bin().args([
        "explain",
        "--offline",
        "the build failed: missing semicolon",
    ]));
    assert_eq!(code, 1);
    let mut big = vec![b'x'; 100 * 1024 * 1024];
    for i in (0..big.len()).step_by(100) {
        big[i] = b'\n';
    }
    let tail =
        b"\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n";
    big.extend_from_slice(tail);
    let (code, v) = json(
        bin()
            .args(["explain", "--offline", "--file", "-"])
            .write_stdin(big),
    );
    assert_eq!(code, 0);
    assert_eq!(v["matches"][0]["id"], "cuda.no_kernel_image");
}

/// Issue #14, the casebook: `explain` names the known real cases most like the text, with the
/// thread to read and the cause it established, in text and JSON; `diagnose` does not.
#[test]
fn explain_names_the_known_cases_most_like_the_text() {
    let msg =
        "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.120";
    let (code, v) = json(bin().args(["explain", "--offline", msg]));
    assert_eq!(code, 0);
    let similar = v["similar"].as_array().expect("similar");
    assert!(!similar.is_empty() && similar.len() <= 3, "{similar:?}");
    assert_eq!(similar[0]["cause"], "driver.library_mismatch");
    assert!(similar[0]["source"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    assert!(similar[0]["similarity"].as_f64().unwrap() >= 0.3);
    let (code, out, _) = run(bin().args(["explain", "--offline", msg]));
    assert_eq!(code, 0);
    let tail = out
        .split("Known cases that read like this")
        .nth(1)
        .expect("a known-cases section");
    assert!(tail.contains("driver.library_mismatch  https://"), "{out}");
}
