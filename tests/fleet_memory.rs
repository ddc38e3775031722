#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `fleet --reports DIR --json` keeps its memory flat as the fleet grows: each host's
//! report is written and dropped as it is read. This file holds one test, so the peak
//! resident size of this process's children (getrusage RUSAGE_CHILDREN, the largest of
//! every child waited for) is the fleet run's and nothing else's.

use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_gpu-doctor");

/// `n` saved reports, the fixture reports in turn, each under its own node name.
fn saved_reports(n: usize) -> tempfile::TempDir {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports");
    let mut reports: Vec<Vec<u8>> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    reports.sort();
    assert!(reports.len() >= 5, "fixture reports missing");
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        std::fs::write(
            dir.path().join(format!("node{i:05}.json")),
            &reports[i % reports.len()],
        )
        .unwrap();
    }
    dir
}

/// Runs `fleet --reports DIR --json` (its output counted and thrown away) and returns the
/// largest peak RSS of any child so far, in KiB, with the bytes written.
fn run(dir: &Path) -> (i64, u64) {
    let mut child = Command::new(BIN)
        .args(["fleet", "--json", "--reports"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let bytes = std::io::copy(&mut out, &mut std::io::sink()).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "the fixtures include failing hosts");
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    (usage.max_rss(), bytes)
}

#[test]
fn fleet_json_memory_is_flat_from_200_to_2000_hosts() {
    let small = saved_reports(200);
    let large = saved_reports(2000);
    // The smaller run first: after it, the children's peak is its own.
    let (rss_200, bytes_200) = run(small.path());
    let (rss_max, bytes_2000) = run(large.path());
    // After the second, the peak is the larger of the two runs'.
    eprintln!(
        "fleet --reports --json: 200 hosts: peak RSS {rss_200} KiB, {bytes_200} bytes out; \
         2000 hosts: peak RSS {rss_max} KiB, {bytes_2000} bytes out"
    );
    assert!(bytes_2000 > 9 * bytes_200, "{bytes_200} vs {bytes_2000}");
    assert!(
        rss_max * 2 <= rss_200 * 3,
        "peak RSS grew from {rss_200} KiB (200 hosts) to {rss_max} KiB (2000 hosts): more than 1.5x"
    );
}
