//! End to end: the probes between GPUs (P2P copies, an NCCL all-reduce) run by the real
//! binary in one worker over every GPU, against the fake libcuda (peer access, peer
//! copies that can corrupt, hang or crawl), the fake NVML (NVLink between pairs) and the
//! fake libnccl.so.2 (right or wrong sums, a hang, an init error, or no library at all).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;
#[path = "common/probe_run.rs"]
mod probe_run;

use std::time::Duration;

use fixture_root::{finding, problems, FixtureRoot};

const TWO_H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d-1111-2222-3333-444455556666;NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:02:00.0,GPU-0a1b2c3d-1111-2222-3333-444455556667";
const ONE_H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d-1111-2222-3333-444455556666";

/// A node with a loaded driver and, unless `nccl` is false, the system's libnccl.so.2
/// (the fake) where apt's libnccl2 puts it.
fn node(nccl: bool) -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(2);
    if nccl {
        let lib = root.path("usr/lib/x86_64-linux-gnu/libnccl.so.2");
        std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
        std::fs::copy(
            fake_driver::fake_driver()
                .current
                .join("nccl/lib/libnccl.so.2"),
            &lib,
        )
        .unwrap();
    }
    root
}

/// The probe harness with only the probes between GPUs.
fn run(root: &FixtureRoot, gpus: &str, vars: &[(&str, &str)], args: &[&str]) -> probe_run::Run {
    let mut all = vec!["--probes", "p2p,nccl"];
    all.extend_from_slice(args);
    probe_run::run(root, gpus, vars, &all)
}

fn probe<'a>(r: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    r["facts"]["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["probe"] == name)
        .unwrap_or_else(|| panic!("no {name} result: {:#}", r["facts"]["probes"]))
}

fn summary(r: &serde_json::Value, id: &str) -> String {
    finding(r, id)["summary"].as_str().unwrap().to_string()
}

fn severity(r: &serde_json::Value, id: &str) -> String {
    finding(r, id)["severity"].as_str().unwrap().to_string()
}

fn statuses(r: &serde_json::Value) -> Vec<(u64, u64, String)> {
    probe(r, "p2p")["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["src"].as_u64().unwrap(),
                p["dst"].as_u64().unwrap(),
                p["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn two_gpus_copy_to_each_other_intact_and_all_reduce_correctly() {
    let r = run(&node(true), TWO_H100, &[], &[]);
    let rep = &r.report;
    assert_eq!(
        severity(rep, "probe.p2p"),
        "pass",
        "{:#}",
        finding(rep, "probe.p2p")
    );
    assert!(summary(rep, "probe.p2p").contains("2 of 2 ordered GPU pairs have peer access"));
    assert_eq!(
        statuses(rep),
        vec![(0, 1, "verified".into()), (1, 0, "verified".into())]
    );
    // Judged against the slower GPU's PCIe link (NVML: no NVLink between them).
    let bw = finding(rep, "probe.p2p_bandwidth");
    assert_eq!(bw["severity"], "pass", "{bw:#}");
    assert!(bw["evidence"].to_string().contains("verified"), "{bw:#}");
    assert_eq!(
        severity(rep, "probe.nccl"),
        "pass",
        "{:#}",
        finding(rep, "probe.nccl")
    );
    let s = summary(rep, "probe.nccl");
    assert!(
        s.contains("NCCL 2.20.5") && s.contains("over 2 GPUs correct"),
        "{s}"
    );
    let f = finding(rep, "probe.nccl");
    assert!(
        f["evidence"].to_string().contains("probe.busbw_gbps"),
        "{f:#}"
    );
    assert!(
        f["evidence"].to_string().contains("PCIe Gen1 x1"),
        "the slowest link is named: {f:#}"
    );
    // NVML's view of the pair is in the report.
    let pairs = &rep["facts"]["driver_api"]["nvml"]["value"]["pairs"]["value"];
    assert_eq!(pairs[0]["nvlink"]["value"], false, "{pairs:#}");
    assert_eq!(pairs[0]["common_ancestor"]["value"], "hostbridge");
    assert!(
        problems(rep)
            .iter()
            .all(|(id, _)| !id.starts_with("probe.")),
        "{:?}",
        problems(rep)
    );
}

#[test]
fn gpus_without_peer_access_are_not_a_fault_unless_nvlink_joins_them() {
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_CUDA_P2P", "0")],
        &["--probes", "p2p"],
    );
    assert_eq!(
        severity(&r.report, "probe.p2p"),
        "info",
        "{:#}",
        finding(&r.report, "probe.p2p")
    );
    assert!(summary(&r.report, "probe.p2p").contains("no pair"));
    assert_eq!(
        statuses(&r.report),
        vec![(0, 1, "no_access".into()), (1, 0, "no_access".into())]
    );
    // Nothing was copied, so no bandwidth is judged.
    assert!(r.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| fixture_root::failure_id(f) != "probe.p2p_bandwidth"));
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_CUDA_P2P", "0"), ("FAKE_NVML_NVLINK_PAIRS", "0-1")],
        &["--probes", "p2p"],
    );
    let f = finding(&r.report, "probe.p2p");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("NVLink joins GPU 0 → GPU 1"),
        "{f:#}"
    );
}

#[test]
fn access_reported_but_data_changed_in_transit_fails_as_an_iommu_acs_finding() {
    let r = run(
        &node(true),
        TWO_H100,
        &[
            ("FAKE_CUDA_P2P_CORRUPT", "1"),
            ("FAKE_CUDA_P2P_PAIR", "1>0"),
        ],
        &["--probes", "p2p"],
    );
    let f = finding(&r.report, "probe.p2p");
    assert_eq!(f["severity"], "fail", "{f:#}");
    assert_eq!(f["action"], "drain");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("copies arrived changed: GPU 1 → GPU 0"), "{s}");
    assert!(f["details"].as_str().unwrap().contains("ACS"), "{f:#}");
    assert!(f["fix"].to_string().contains("NCCL_P2P_DISABLE=1"), "{f:#}");
    assert_eq!(
        statuses(&r.report),
        vec![(0, 1, "verified".into()), (1, 0, "corrupted".into())]
    );
}

#[test]
fn a_hanging_peer_copy_is_killed_at_the_time_limit_and_names_its_pair() {
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_CUDA_P2P_HANG", "1"), ("FAKE_CUDA_P2P_PAIR", "1>0")],
        &["--probes", "p2p", "--probe-timeout", "3s"],
    );
    assert!(r.took < Duration::from_secs(45), "{:?}", r.took);
    let f = finding(&r.report, "probe.p2p");
    assert_eq!(f["severity"], "fail", "{f:#}");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("the peer copy GPU 1 → GPU 0 hung"), "{s}");
    assert_eq!(probe(&r.report, "p2p")["outcome"]["status"], "timed_out");
    // The pair measured before the hang is kept.
    assert_eq!(
        statuses(&r.report),
        vec![(0, 1, "verified".into()), (1, 0, "hung".into())]
    );
}

#[test]
fn slow_peer_copies_warn_against_the_link_between_the_pair() {
    // NVLink4 on H100 SXM: 450 GB/s each way; 5 GB/s is far under it.
    let r = run(
        &node(true),
        TWO_H100,
        &[
            ("FAKE_CUDA_P2P_GBPS", "5"),
            ("FAKE_NVML_NVLINK_PAIRS", "0-1"),
        ],
        &["--probes", "p2p"],
    );
    let f = finding(&r.report, "probe.p2p_bandwidth");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("over NVLink4 (18 links"),
        "{f:#}"
    );
    assert_eq!(severity(&r.report, "probe.p2p"), "pass");
    // Over PCIe Gen4 x16 (31.5 GB/s each way) the same copies are also too slow, and named so.
    let gen4 = [
        ("FAKE_NVML_GPU0_PCIE", "4,16,4,16"),
        ("FAKE_NVML_GPU1_PCIE", "4,16,4,16"),
    ];
    let r = run(
        &node(true),
        TWO_H100,
        &[gen4[0], gen4[1], ("FAKE_CUDA_P2P_GBPS", "5")],
        &["--probes", "p2p"],
    );
    let f = finding(&r.report, "probe.p2p_bandwidth");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert!(
        f["summary"].as_str().unwrap().contains("PCIe Gen4 x16"),
        "{f:#}"
    );
    // At 30 GB/s the PCIe pair is healthy.
    let r = run(
        &node(true),
        TWO_H100,
        &[gen4[0], gen4[1], ("FAKE_CUDA_P2P_GBPS", "30")],
        &["--probes", "p2p"],
    );
    assert_eq!(severity(&r.report, "probe.p2p_bandwidth"), "pass");
}

#[test]
fn an_all_reduce_far_under_the_nvlink_between_the_gpus_warns() {
    // The fake all-reduce moves a few GB/s; NVLink4 carries 450 GB/s each way.
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_NVML_NVLINK_PAIRS", "0-1")],
        &["--probes", "nccl"],
    );
    let f = finding(&r.report, "probe.nccl");
    assert_eq!(f["severity"], "warn", "{f:#}");
    let s = f["summary"].as_str().unwrap();
    assert!(
        s.contains("bus bandwidth") && s.contains("NVLink4 (18 links"),
        "{s}"
    );
    assert_eq!(f["action"], "drain");
}

#[test]
fn a_wrong_all_reduce_fails() {
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_NCCL_WRONG", "1")],
        &["--probes", "nccl"],
    );
    let f = finding(&r.report, "probe.nccl");
    assert_eq!(f["severity"], "fail", "{f:#}");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("computed wrong sums: rank 1 element"),
        "{f:#}"
    );
}

#[test]
fn a_hanging_all_reduce_is_a_finding_not_a_hung_doctor() {
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_NCCL_HANG", "1")],
        &["--probes", "nccl", "--probe-timeout", "3s"],
    );
    assert!(r.took < Duration::from_secs(45), "{:?}", r.took);
    let f = finding(&r.report, "probe.nccl");
    assert_eq!(f["severity"], "fail", "{f:#}");
    assert!(
        f["summary"].as_str().unwrap().contains("all-reduce hung"),
        "{f:#}"
    );
    assert_eq!(probe(&r.report, "nccl")["outcome"]["status"], "timed_out");
}

#[test]
fn nccl_that_cannot_set_up_names_its_error() {
    let r = run(
        &node(true),
        TWO_H100,
        &[("FAKE_NCCL_INIT_ERROR", "2")],
        &["--probes", "nccl"],
    );
    let f = finding(&r.report, "probe.nccl");
    assert_eq!(f["severity"], "fail", "{f:#}");
    let text = f.to_string();
    assert!(
        text.contains("ncclCommInitAll returned ncclSystemError (2)"),
        "{f:#}"
    );
    assert!(text.contains("unhandled system error"), "{f:#}");
}

#[test]
fn a_missing_libnccl_is_skipped_with_where_it_looked() {
    let r = run(&node(false), TWO_H100, &[], &["--probes", "nccl"]);
    let f = finding(&r.report, "probe.nccl");
    assert_eq!(f["severity"], "info", "{f:#}");
    let s = f["summary"].as_str().unwrap();
    assert!(
        s.contains("no libnccl.so.2 found; looked in") && s.contains("/usr/lib/x86_64-linux-gnu"),
        "{s}"
    );
}

#[test]
fn one_gpu_has_no_probes_between_gpus_and_a_busy_gpu_keeps_them_off_unless_forced() {
    let r = run(&node(true), ONE_H100, &[], &[]);
    assert!(r.report["findings"].as_array().unwrap().iter().all(|f| ![
        "probe.p2p",
        "probe.nccl",
        "probe.p2p_bandwidth"
    ]
    .contains(&fixture_root::failure_id(f).as_str())));
    let busy = [("FAKE_NVML_GPU1_PROCS", "4242:8589934592:python")];
    let r = run(&node(true), TWO_H100, &busy, &[]);
    let f = finding(&r.report, "probe.p2p");
    assert_eq!(f["severity"], "info", "{f:#}");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("fewer than two idle GPUs"),
        "{f:#}"
    );
    assert!(f["summary"].as_str().unwrap().contains("--force"), "{f:#}");
    let r = run(&node(true), TWO_H100, &busy, &["--force"]);
    assert_eq!(severity(&r.report, "probe.p2p"), "pass");
    assert_eq!(severity(&r.report, "probe.nccl"), "pass");
}

#[test]
fn explain_ranks_a_failed_p2p_probe_first_for_an_nccl_error_on_this_machine() {
    let root = node(true);
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", TWO_H100)
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    .env("FAKE_CUDA_P2P_CORRUPT", "1")
    .args([
        "--json",
        "explain",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
    ]);
    let out = cmd.output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let m = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == "nccl.error")
        .unwrap_or_else(|| panic!("{v:#}"));
    let top = &m["causes"][0];
    assert_eq!(top["id"], "probe.p2p", "{m:#}");
    assert!(
        top["evidence"].to_string().contains("arrived changed"),
        "{top:#}"
    );
    assert!(top["fix"].as_str().unwrap().contains("ACS"), "{top:#}");
}

#[test]
fn a_peer_copy_that_poisons_the_context_fails_its_pair_and_nccl_runs_in_a_fresh_worker() {
    let r = run(
        &node(true),
        TWO_H100,
        &[
            ("FAKE_CUDA_P2P_ERROR", "700"),
            ("FAKE_CUDA_P2P_PAIR", "0>1"),
        ],
        &[],
    );
    let f = finding(&r.report, "probe.p2p");
    assert_eq!(f["severity"], "fail", "{f:#}");
    assert!(
        f.to_string().contains("CUDA_ERROR_ILLEGAL_ADDRESS (700)"),
        "{f:#}"
    );
    // The pair after the poisoned one is not tried in that worker.
    assert_eq!(
        statuses(&r.report),
        vec![(0, 1, "failed".into()), (1, 0, "not_run".into())]
    );
    assert_eq!(severity(&r.report, "probe.nccl"), "pass");
}
