#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The deployment files in deploy/: the Kubernetes manifests validate against the
//! Kubernetes schemas (scripts/validate-k8s.sh, kubernetes-validate --strict) and a
//! broken copy does not; node-problem-detector's plugin config is one NPD accepts; the
//! Slurm/NHC scripts are valid shell that pass gpu-doctor's reason line through.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn manifests() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("deploy/k8s"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    v.sort();
    assert!(v.len() >= 3, "{v:?}");
    v
}

fn validate(files: &[PathBuf]) -> std::process::Output {
    Command::new(root().join("scripts/validate-k8s.sh"))
        .args(files)
        .output()
        .unwrap()
}

#[test]
fn kubernetes_manifests_validate_and_broken_copies_do_not() {
    let out = validate(&manifests());
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let daemonset = std::fs::read_to_string(root().join("deploy/k8s/daemonset.yaml")).unwrap();
    let job = std::fs::read_to_string(root().join("deploy/k8s/deep-job.yaml")).unwrap();
    let broken = [
        // A required field gone.
        (
            "missing.yaml",
            daemonset.replacen("      containers:", "      containerz:", 1),
        ),
        // A wrong type.
        (
            "type.yaml",
            job.replacen("  parallelism: 4", "  parallelism: \"four\"", 1),
        ),
        // A field Kubernetes does not have (only --strict catches it).
        (
            "unknown.yaml",
            job.replacen("  backoffLimit: 0", "  backoffLimit: 0\n  retries: 3", 1),
        ),
    ];
    for (name, text) in broken {
        assert_ne!(
            text,
            if name == "missing.yaml" {
                &daemonset
            } else {
                &job
            }
            .as_str(),
            "{name}: the breakage did not apply"
        );
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = validate(&[path]);
        assert!(!out.status.success(), "{name} validated");
        let said = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("did not validate"), "{name}: {said}");
    }
}

/// The custom plugin monitor config inside the DaemonSet's ConfigMap, as NPD reads it.
fn npd_config() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("deploy/k8s/daemonset.yaml")).unwrap();
    let start = text.find("gpu-doctor-monitor.json: |").unwrap();
    let body: String = text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("    ") || l.is_empty())
        .map(|l| l.get(4..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn seconds(v: &serde_json::Value) -> u64 {
    v.as_str()
        .unwrap()
        .strip_suffix('s')
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn the_npd_plugin_config_is_one_npd_accepts() {
    let c = npd_config();
    assert_eq!(c["plugin"], "custom");
    let global = seconds(&c["pluginConfig"]["timeout"]);
    let conditions: Vec<&str> = c["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["type"].as_str().unwrap())
        .collect();
    for rule in c["rules"].as_array().unwrap() {
        // NPD refuses a rule timeout above the global one, and a permanent rule without
        // a default condition.
        assert!(seconds(&rule["timeout"]) <= global, "{rule}");
        assert!(seconds(&rule["timeout"]) < seconds(&c["pluginConfig"]["invoke_interval"]));
        if rule["type"] == "permanent" {
            assert!(conditions.contains(&rule["condition"].as_str().unwrap()));
        }
        assert_eq!(rule["path"], "/opt/gpu-doctor/gpu-doctor");
        let args: Vec<&str> = rule["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(args, ["--npd", "--tier", "quick"]);
    }
}

const BIN: &str = env!("CARGO_BIN_EXE_gpu-doctor");

fn report(name: &str) -> String {
    root()
        .join("tests/fixtures/reports")
        .join(format!("{name}.json"))
        .display()
        .to_string()
}

/// A folder with `scontrol` and `sinfo` stand-ins that log their arguments (one call a
/// line) to `calls`; `sinfo` prints `reason`.
fn slurm_stubs(reason: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls");
    for (name, extra) in [
        ("scontrol", String::new()),
        ("sinfo", format!("echo '{reason}'\n")),
    ] {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\necho \"{name} $*\" >> '{}'\n{extra}",
                log.display()
            ),
        )
        .unwrap();
        let mut p = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut p, 0o755);
        std::fs::set_permissions(&path, p).unwrap();
    }
    dir
}

fn calls(stubs: &tempfile::TempDir) -> String {
    std::fs::read_to_string(stubs.path().join("calls")).unwrap_or_default()
}

fn script(name: &str, stubs: &tempfile::TempDir, args: &str) -> Command {
    let mut c = Command::new("bash");
    c.arg(root().join("deploy/slurm").join(name))
        .env(
            "PATH",
            format!(
                "{}:{}",
                stubs.path().display(),
                std::env::var("PATH").unwrap()
            ),
        )
        .env("GPU_DOCTOR", BIN)
        .env("GPU_DOCTOR_ARGS", args)
        .env("SLURMD_NODENAME", "gpu017")
        .env_remove("GPU_DOCTOR_MATRIX");
    c
}

/// Runs `check_gpu_doctor ARGS` inside bash with NHC's `die` stood in for.
fn nhc(env: &[(&str, &str)], args: &str) -> (String, i32, std::time::Duration) {
    let start = std::time::Instant::now();
    let module = root().join("deploy/slurm/gpu_doctor.nhc");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "die() {{ echo \"DIE $1 $2\"; }}; GPU_DOCTOR_ARGS=; source '{}'; check_gpu_doctor {args}; echo \"rc=$?\"",
            module.display()
        ))
        .env("GPU_DOCTOR", BIN)
        .envs(env.iter().copied())
        .env_remove("GPU_DOCTOR_MATRIX")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap(),
        start.elapsed(),
    )
}

#[test]
fn the_nhc_check_passes_the_reason_line_through() {
    let (out, _, _) = nhc(&[], &format!("--from {}", report("healthy_8gpu")));
    assert_eq!(out, "rc=0\n");
    let (out, _, _) = nhc(&[], &format!("--from {}", report("mismatched_driver")));
    let mut lines = out.lines();
    let die = lines.next().unwrap();
    assert!(die.starts_with("DIE 1 gpu-doctor: driver."), "{out}");
    // Exactly the line --slurm prints.
    let direct = Command::new(BIN)
        .args(["--slurm", "--from", &report("mismatched_driver")])
        .env_remove("GPU_DOCTOR_MATRIX")
        .output()
        .unwrap();
    assert_eq!(
        die.strip_prefix("DIE 1 ").unwrap(),
        String::from_utf8_lossy(&direct.stdout).trim_end()
    );
    assert_eq!(lines.next(), Some("rc=1"));

    // A gpu-doctor that hangs costs the check's own limit, not NHC's watchdog.
    let dir = tempfile::tempdir().unwrap();
    let hang = dir.path().join("gpu-doctor");
    std::fs::write(&hang, "#!/bin/sh\nsleep 30\n").unwrap();
    let mut p = std::fs::metadata(&hang).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut p, 0o755);
    std::fs::set_permissions(&hang, p).unwrap();
    let (out, _, took) = nhc(
        &[
            ("GPU_DOCTOR", hang.to_str().unwrap()),
            ("GPU_DOCTOR_TIMEOUT", "1"),
        ],
        "",
    );
    assert!(
        out.starts_with("DIE 1 gpu-doctor: no answer within 1s"),
        "{out}"
    );
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    let (out, _, _) = nhc(&[("GPU_DOCTOR", "/nonexistent/gpu-doctor")], "");
    assert!(out.contains("is not installed"), "{out}");
}

#[test]
fn the_health_check_program_drains_and_resumes_its_own_drains() {
    let stubs = slurm_stubs("");
    let out = script(
        "healthcheck.sh",
        &stubs,
        &format!("--from {}", report("mismatched_driver")),
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let c = calls(&stubs);
    assert!(
        c.starts_with("scontrol update nodename=gpu017 state=drain reason=gpu-doctor: driver."),
        "{c}"
    );
    // Healthy again: the drain gpu-doctor set is lifted; someone else's is not.
    let stubs = slurm_stubs("gpu-doctor: driver.library_mismatch: old");
    let healthy = format!("--from {}", report("healthy_8gpu"));
    script("healthcheck.sh", &stubs, &healthy).output().unwrap();
    assert!(calls(&stubs).contains("scontrol update nodename=gpu017 state=resume"));
    let stubs = slurm_stubs("bad DIMM, ticket 4411");
    script("healthcheck.sh", &stubs, &healthy).output().unwrap();
    assert!(!calls(&stubs).contains("scontrol"), "{}", calls(&stubs));
}

#[test]
fn the_prolog_fails_a_gpu_job_on_a_broken_node_and_skips_cpu_jobs() {
    let stubs = slurm_stubs("");
    let broken = format!("--from {}", report("no_driver"));
    let out = script("prolog.sh", &stubs, &broken)
        .env("SLURM_JOB_GPUS", "0,1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("gpu-doctor: "));
    assert!(calls(&stubs).contains("state=drain reason=gpu-doctor: "));
    // A CPU-only job is not held up, whatever the GPUs' state.
    let stubs = slurm_stubs("");
    let out = script("prolog.sh", &stubs, &broken)
        .env_remove("SLURM_JOB_GPUS")
        .env_remove("CUDA_VISIBLE_DEVICES")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(calls(&stubs), "");
    let out = script(
        "prolog.sh",
        &stubs,
        &format!("--from {}", report("healthy_8gpu")),
    )
    .env("SLURM_JOB_GPUS", "0")
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_manifests_run_the_binary_where_the_image_puts_it() {
    let dockerfile = std::fs::read_to_string(root().join("deploy/Dockerfile")).unwrap();
    assert!(dockerfile.contains("COPY --from=build /out/gpu-doctor /usr/local/bin/gpu-doctor"));
    assert!(dockerfile.contains("cargo build --release --locked"));
    for m in manifests() {
        let text = std::fs::read_to_string(&m).unwrap();
        for line in text
            .lines()
            .filter(|l| l.contains("gpu-doctor --") && !l.trim_start().starts_with('#'))
        {
            assert!(
                line.contains("/usr/local/bin/gpu-doctor") || line.contains("/opt/gpu-doctor/"),
                "{}: {line}",
                m.display()
            );
        }
    }
    // The labels container writes where NFD's local source reads.
    let ds = std::fs::read_to_string(root().join("deploy/k8s/daemonset.yaml")).unwrap();
    assert!(ds.contains("--labels /etc/kubernetes/node-feature-discovery/features.d/gpu-doctor"));
    assert!(ds.contains("path: /etc/kubernetes/node-feature-discovery/features.d\n"));
}
