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
