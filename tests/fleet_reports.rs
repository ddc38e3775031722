#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End-to-end tests of `gpu-doctor fleet --reports DIR`: folders of saved reports, as
//! `srun -N… gpu-doctor --json > out/%N.json` leaves them, read by the real binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_gpu-doctor");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reports")
        .join(format!("{name}.json"))
}

fn fleet(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("fleet")
        .args(args)
        .env_remove("GPU_DOCTOR_MATRIX")
        .output()
        .unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn statuses(doc: &serde_json::Value) -> BTreeMap<String, String> {
    doc["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["host"].as_str().unwrap().to_string(),
                h["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// node01..node10 healthy, node11 with a mismatched driver, and the broken files an
/// srun run leaves when something goes wrong on a node.
fn cluster() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let healthy = std::fs::read(fixture("healthy_8gpu")).unwrap();
    for i in 1..=10 {
        std::fs::write(dir.path().join(format!("node{i:02}.json")), &healthy).unwrap();
    }
    std::fs::copy(fixture("mismatched_driver"), dir.path().join("node11.json")).unwrap();
    // The node was killed mid-write.
    std::fs::write(
        dir.path().join("node12.json"),
        &healthy[..healthy.len() / 3],
    )
    .unwrap();
    // gpu-doctor was not installed: srun's error went to stderr, the file is empty.
    std::fs::write(dir.path().join("node13.json"), b"").unwrap();
    // Something else answered.
    std::fs::write(
        dir.path().join("node14.json"),
        b"slurmstepd: error: *** STEP 42.0 ON node14 CANCELLED \x1b[2J***\n",
    )
    .unwrap();
    // An old gpu-doctor.
    std::fs::write(
        dir.path().join("node15.json"),
        br#"{"schema_version": 0, "verdict": "ok"}"#,
    )
    .unwrap();
    // Runaway output: larger than --max-output (16 MiB by default).
    let huge = vec![b'['; 17 * 1024 * 1024];
    std::fs::write(dir.path().join("node16.json"), huge).unwrap();
    // A writer's temporary file and a folder are not hosts.
    std::fs::write(dir.path().join(".node17.json.tmp"), &healthy).unwrap();
    std::fs::create_dir(dir.path().join("logs")).unwrap();
    dir
}

#[test]
fn saved_reports_get_the_statuses_groups_and_drift_of_the_ssh_fleet() {
    let dir = cluster();
    let out = fleet(&["--reports", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(&out);
    let s = statuses(&doc);
    assert_eq!(s.len(), 16, "{s:?}");
    for i in 1..=11 {
        assert_eq!(s[&format!("node{i:02}")], "ok");
    }
    assert_eq!(s["node12"], "bad_output");
    assert_eq!(s["node13"], "bad_output");
    assert_eq!(s["node14"], "bad_output");
    assert_eq!(s["node15"], "incompatible");
    assert_eq!(s["node16"], "bad_output");
    let hosts = doc["hosts"].as_array().unwrap();
    // Input order, each answering host with its whole report.
    assert_eq!(hosts[0]["host"], "node01");
    assert_eq!(hosts[0]["report"]["schema_version"], 2);
    assert_eq!(hosts[0]["summary"]["gpus"], 8);
    assert!(hosts[11]["detail"].as_str().unwrap().contains("truncated"));
    assert_eq!(hosts[12]["detail"], "the file is empty");
    assert!(!hosts[13]["detail"].as_str().unwrap().contains('\x1b'));
    assert_eq!(doc["summary"]["hosts"], 16);
    assert_eq!(doc["summary"]["statuses"]["ok"], 11);
    assert_eq!(doc["summary"]["statuses"]["bad_output"], 4);
    assert_eq!(doc["summary"]["verdicts"]["healthy"], 10);
    let groups = doc["groups"].as_array().unwrap();
    let healthy = groups
        .iter()
        .find(|g| g["verdict"] == "healthy")
        .unwrap_or_else(|| panic!("{groups:#?}"));
    assert_eq!(healthy["hosts"], "node[01-10]");
    let bad = groups.iter().find(|g| g["status"] == "bad_output").unwrap();
    assert_eq!(bad["hosts"], "node[12-14,16]");
    let drift = doc["drift"].as_array().unwrap();
    let driver = drift.iter().find(|d| d["attribute"] == "driver").unwrap();
    assert_eq!(driver["reference"], "majority");
    assert_eq!(driver["majority_count"], 10);
    assert_eq!(driver["outliers"][0]["hosts"], "node11");
    assert_eq!(doc["exit_code"], 2);

    // The plain view of the same folder.
    let out = fleet(&["--reports", dir.path().to_str().unwrap(), "--plain"]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("HOST"), "{text}");
    assert!(text.contains("node[01-10]"), "{text}");
    assert!(
        text.contains("Drift (hosts that differ from the majority)"),
        "{text}"
    );
    assert!(
        text.contains("16 host(s): 11 ok, 1 incompatible, 4 bad_output"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "{text}");
}

#[test]
fn a_golden_report_names_every_node_that_differs_from_it() {
    let dir = tempfile::tempdir().unwrap();
    // A fleet whose majority is on the wrong driver: majority drift would call the good
    // node the odd one out; the golden report does not.
    for i in 1..=3 {
        std::fs::copy(
            fixture("mismatched_driver"),
            dir.path().join(format!("gpu{i}.json")),
        )
        .unwrap();
    }
    std::fs::copy(fixture("healthy_8gpu"), dir.path().join("gpu4.json")).unwrap();
    let d = dir.path().to_str().unwrap();
    let by_majority = json(&fleet(&["--reports", d, "--json"]));
    let driver = by_majority["drift"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["attribute"] == "driver")
        .unwrap()
        .clone();
    assert_eq!(driver["outliers"][0]["hosts"], "gpu4");

    let golden = fixture("healthy_8gpu");
    let out = fleet(&[
        "--reports",
        d,
        "--json",
        "--golden",
        golden.to_str().unwrap(),
    ]);
    let doc = json(&out);
    let driver = doc["drift"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["attribute"] == "driver")
        .unwrap();
    assert_eq!(driver["reference"], "golden");
    assert_eq!(driver["majority_count"], 1);
    assert_eq!(driver["outliers"][0]["hosts"], "gpu[1-3]");
    assert_eq!(driver["outliers"][0]["count"], 3);

    // Only healthy nodes, but one is not like the golden node: exit 1, not 0.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("healthy_8gpu"), dir.path().join("a.json")).unwrap();
    let d = dir.path().to_str().unwrap();
    assert_eq!(fleet(&["--reports", d, "--json"]).status.code(), Some(0));
    let other = tempfile::NamedTempFile::new().unwrap();
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("healthy_8gpu")).unwrap()).unwrap();
    v["tool"]["version"] = "0.0.9".into();
    std::fs::write(other.path(), serde_json::to_vec(&v).unwrap()).unwrap();
    let out = fleet(&[
        "--reports",
        d,
        "--plain",
        "--golden",
        other.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Drift (hosts that differ from the golden report)"),
        "{text}"
    );
    assert!(
        text.contains("gpu_doctor: 0.0.9 (golden) on 0 host(s)"),
        "{text}"
    );

    // A golden report that is not one: exit 3, nothing read.
    let bad = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad.path(), b"{\"schema_version\": 1").unwrap();
    let out = fleet(&["--reports", d, "--golden", bad.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("golden report"), "{err}");
}

#[test]
fn host_names_from_the_reports_and_bad_folders() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("no_gpu"), dir.path().join("job-77-0.out")).unwrap();
    std::fs::copy(fixture("probe_timeout"), dir.path().join("job-77-1.out")).unwrap();
    let d = dir.path().to_str().unwrap();
    let doc = json(&fleet(&["--reports", d, "--json", "--names", "report"]));
    let s = statuses(&doc);
    assert_eq!(
        s.keys().collect::<Vec<_>>(),
        ["ci-runner", "gpu-03"],
        "{s:?}"
    );
    let doc = json(&fleet(&["--reports", d, "--json"]));
    assert!(statuses(&doc).contains_key("job-77-0.out"));

    let empty = tempfile::tempdir().unwrap();
    let out = fleet(&["--reports", empty.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no report files"));
    let out = fleet(&["--reports", "/nonexistent/gpu-doctor-reports"]);
    assert_eq!(out.status.code(), Some(3));
    // Hosts and a folder of reports are two different fleets.
    let out = fleet(&["--reports", d, "node1"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}

#[test]
fn prometheus_metrics_from_saved_reports() {
    let dir = cluster();
    let prom = tempfile::tempdir().unwrap();
    let path = prom.path().join("fleet.prom");
    let out = fleet(&[
        "--reports",
        dir.path().to_str().unwrap(),
        "--plain",
        "--prometheus",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains(r#"gpu_doctor_fleet_host_status{host="node13",status="bad_output"} 1"#),
        "{text}"
    );
    assert!(text.contains(r#"host="node01""#), "{text}");
}

#[test]
fn node_labels_for_node_feature_discovery() {
    let run = |fixture_name: &str, labels: &str| {
        Command::new(BIN)
            .args(["--from"])
            .arg(fixture(fixture_name))
            .args(["--labels", labels])
            .env_remove("GPU_DOCTOR_MATRIX")
            .output()
            .unwrap()
    };
    let out = run("healthy_8gpu", "-");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("# +expiry-time=20"), "{text}");
    for want in [
        "nvidia.com/cuda.driver-version.full=580.95.05",
        "nvidia.com/cuda.driver-version.major=580",
        "nvidia.com/cuda.driver-version.minor=95",
        "nvidia.com/cuda.driver-version.revision=05",
        "nvidia.com/cuda.driver.rev=05",
        "nvidia.com/cuda.runtime-version.major=13",
        "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3",
        "nvidia.com/gpu.count=8",
        "nvidia.com/gpu.compute.major=9",
        "nvidia.com/gpu.compute.minor=0",
        "feature.node.kubernetes.io/gpu-doctor.verdict=healthy",
    ] {
        assert!(lines.contains(&want), "{want} missing:\n{text}");
    }
    // A failing node: its verdict and why, no GPU labels that NVML could not give.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gpu-doctor");
    let out = run("mismatched_driver", file.to_str().unwrap());
    assert_eq!(out.status.code(), Some(2));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("feature.node.kubernetes.io/gpu-doctor.verdict=failures\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "feature.node.kubernetes.io/gpu-doctor.top-finding=driver.library_mismatch\n"
        ),
        "{text}"
    );
    assert!(!text.contains("nvidia.com/gpu.product"), "{text}");
    // Written by rename: no temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
    // An unwritable place: exit 3 and a message.
    let out = run("healthy_8gpu", "/nonexistent/features.d/gpu-doctor");
    assert_eq!(out.status.code(), Some(3));
}

/// `fleet --reports DIR --expect PROFILE`: the profile is read once here and every host's
/// report is judged against it (host.drift, host.expected_gpus from its `gpus`), as
/// `gpu-doctor --expect PROFILE` on each host would.
#[test]
fn expect_judges_every_host_against_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("healthy_8gpu"), dir.path().join("node01.json")).unwrap();
    // node02: a board swapped for another model.
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("healthy_8gpu")).unwrap()).unwrap();
    v["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"][3]["name"]["value"] =
        "NVIDIA A100-SXM4-80GB".into();
    std::fs::write(
        dir.path().join("node02.json"),
        serde_json::to_vec(&v).unwrap(),
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    // Without a profile both are healthy.
    assert_eq!(fleet(&["--reports", d, "--json"]).status.code(), Some(0));

    let profiles = tempfile::tempdir().unwrap();
    let profile = profiles.path().join("hgx-h100.toml");
    std::fs::write(
        &profile,
        "gpus = 8\ngpu_model = \"NVIDIA H100 80GB HBM3\"\ndriver_branch = \"580\"\n",
    )
    .unwrap();
    let p = profile.to_str().unwrap();
    let out = fleet(&["--reports", d, "--json", "--expect", p]);
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(2), "{doc}");
    let hosts = doc["hosts"].as_array().unwrap();
    let host = |name: &str| hosts.iter().find(|h| h["host"] == name).unwrap();
    let finding = |h: &serde_json::Value, id: &str| -> Vec<serde_json::Value> {
        h["report"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == id || f["id"] == id)
            .cloned()
            .collect()
    };
    // node01 matches: the profile's checks pass and it stays healthy.
    let n1 = host("node01");
    assert_eq!(n1["exit_code"], 0, "{n1}");
    assert_eq!(n1["summary"]["verdict"], "healthy");
    let drift = finding(n1, "host.profile");
    assert_eq!(drift.len(), 1, "{drift:?}");
    assert_eq!(drift[0]["severity"], "pass");
    assert_eq!(finding(n1, "host.gpu_count")[0]["severity"], "pass");
    // node02 drifted: a host.drift failure naming the GPU and the models.
    let n2 = host("node02");
    assert_eq!(n2["exit_code"], 2, "{n2}");
    assert_eq!(n2["summary"]["verdict"], "failures");
    assert_eq!(n2["summary"]["top_finding"], "host.drift");
    assert!(n2["summary"]["problems"]
        .as_array()
        .unwrap()
        .contains(&"host.drift:fail".into()));
    let drift = finding(n2, "host.drift");
    assert_eq!(drift.len(), 1, "{drift:?}");
    assert_eq!(drift[0]["severity"], "fail");
    let summary = drift[0]["summary"].as_str().unwrap();
    assert!(
        summary.contains("GPU 3") && summary.contains("NVIDIA A100-SXM4-80GB"),
        "{summary}"
    );
    assert_eq!(doc["exit_code"], 2);

    // The same in the text table; a golden report works as the profile too.
    let out = fleet(&[
        "--reports",
        d,
        "--plain",
        "--expect",
        fixture("healthy_8gpu").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().find(|l| l.starts_with("node02")).unwrap();
    assert!(row.contains("host.drift"), "{text}");

    // A profile with more GPUs than the hosts have: host.expected_gpus fails on each.
    std::fs::write(&profile, "gpus = 16\n").unwrap();
    let doc = json(&fleet(&["--reports", d, "--json", "--expect", p]));
    for h in doc["hosts"].as_array().unwrap() {
        assert_eq!(h["summary"]["top_finding"], "host.expected_gpus", "{h}");
    }

    // A profile that is not one: exit 3 before any report is read, naming the file.
    std::fs::write(&profile, "driver_branch = \"r550\"\n").unwrap();
    let out = fleet(&["--reports", d, "--json", "--expect", p]);
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(p) && err.contains("r550"), "{err}");
}
