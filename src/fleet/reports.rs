//! `gpu-doctor fleet --reports DIR`: the fleet from saved reports, whatever carried them
//! (`srun -N… gpu-doctor --json > out/%N.json`, pdsh, Ansible, a Kubernetes Job writing to
//! a shared volume). One file per host; the host's name is the file's name (less `.json`),
//! or with `--names report` the host name inside the report.
//!
//! Each file goes through the same [`classify`](super::classify) as an ssh host's stdout,
//! so an empty, truncated, garbage, old-schema or oversized file ends in the same
//! [`Status`] an ssh host printing it would. Files are read one at a time and each host's
//! report is handed to `on_result` and dropped: what stays is the small
//! [`HostSummary`](super::HostSummary) per host, so memory grows by hundreds of bytes per
//! host, not by the report's size.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::value::RawValue;

use super::classify::{self, Classified, RawOutcome};
use super::expect::Expectation;
use super::{FleetError, HostResult, HostSummary, Status};
use crate::report::exit;

/// Where a host's name comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Names {
    /// The file name, less a `.json` ending (`srun … > out/%N.json` names files by node).
    #[default]
    File,
    /// The host name in the report (`facts.system.hostname`), else the file name.
    Report,
}

/// One saved report to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFile {
    /// The host name the file's name gives.
    pub host: String,
    pub path: PathBuf,
}

/// The files in `dir` (not its subfolders), sorted by name. Names starting with `.` are
/// left out (temporary files of writers that rename into place), and so are folders.
pub fn list(dir: &Path) -> Result<Vec<ReportFile>, FleetError> {
    let shown = || dir.display().to_string();
    let entries =
        std::fs::read_dir(dir).map_err(|e| FleetError::HostFile(shown(), e.to_string()))?;
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| FleetError::HostFile(shown(), e.to_string()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        // Follows symbolic links: a link to a report is a report. Folders, FIFOs, sockets
        // and devices are not reports (and a FIFO would block the read); a link to nothing
        // is kept, to end as `error`.
        if std::fs::metadata(entry.path()).is_ok_and(|m| !m.is_file()) {
            continue;
        }
        let stem = name.strip_suffix(".json").unwrap_or(&name);
        out.push(ReportFile {
            host: classify::clean_text(stem, 200),
            path: entry.path(),
        });
        if out.len() > super::inventory::MAX_HOSTS {
            return Err(FleetError::TooMany(out.len()));
        }
    }
    if out.is_empty() {
        return Err(FleetError::NoReports(shown()));
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// What reading one file came to, as ssh's outcome would be: the whole file is the
/// "stdout" of a run that exited 0.
fn read_raw(path: &Path, max_bytes: u64) -> Result<RawOutcome, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("could not read the file: {e}"))?;
    let mut stdout = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut stdout)
        .map_err(|e| format!("could not read the file: {e}"))?;
    let oversize = stdout.len() as u64 > max_bytes;
    if oversize {
        stdout = Vec::new();
    }
    Ok(RawOutcome {
        code: Some(0),
        oversize,
        stdout,
        ..RawOutcome::default()
    })
}

/// Reads and classifies one saved report, judged against `expect` (`--expect`) when given.
pub fn read_one(
    file: &ReportFile,
    max_bytes: u64,
    names: Names,
    keep_report: bool,
    expect: Option<&Expectation>,
) -> HostResult {
    let start = Instant::now();
    let c = match read_raw(&file.path, max_bytes) {
        Ok(raw) => {
            let mut c = classify::classify(&raw, max_bytes);
            if !raw.oversize && raw.stdout.iter().all(u8::is_ascii_whitespace) {
                c.detail = Some("the file is empty".into());
            }
            c
        }
        Err(e) => Classified {
            status: Status::Error,
            detail: Some(e),
            report: None,
        },
    };
    let mut c = c;
    if let (Some(e), Some(r)) = (expect, c.report.as_mut()) {
        e.apply(r);
    }
    let host = match (names, &c.report) {
        (Names::Report, Some(r)) => r
            .facts
            .system
            .hostname
            .value()
            .map(|h| classify::clean_text(h, 200))
            .filter(|h| !h.is_empty() && h != crate::facts::REDACTED)
            .unwrap_or_else(|| file.host.clone()),
        _ => file.host.clone(),
    };
    let elapsed_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    result(host, c, elapsed_ms, keep_report)
}

/// A host's result from its classified output (as [`super::check_host`] builds it).
pub fn result(host: String, c: Classified, elapsed_ms: u64, keep_report: bool) -> HostResult {
    let summary = c.report.as_ref().map(HostSummary::of);
    let report = c
        .report
        .as_ref()
        .filter(|_| keep_report)
        .and_then(|r| serde_json::to_string(r).ok())
        .and_then(|s| RawValue::from_string(s).ok());
    let exit_code = match (&c.status, &summary) {
        (Status::Ok, Some(s)) => s.exit_code.clamp(exit::OK, exit::FAILURES),
        _ => exit::FAILURES,
    };
    HostResult {
        host,
        status: c.status,
        exit_code,
        elapsed_ms,
        pushed: false,
        detail: c.detail,
        summary,
        report,
    }
}

/// Reads every file in order, handing each host's result to `on_result` (with its report
/// when `keep_reports`); nothing is kept here.
pub fn run(
    files: &[ReportFile],
    max_bytes: u64,
    names: Names,
    keep_reports: bool,
    expect: Option<&Expectation>,
    on_result: &mut dyn FnMut(HostResult),
) {
    for f in files {
        on_result(read_one(f, max_bytes, names, keep_reports, expect));
    }
}

/// The known-good node's summary, from its saved report (`--golden REPORT`).
pub fn golden(path: &Path, max_bytes: u64) -> Result<HostSummary, FleetError> {
    let file = ReportFile {
        host: path.display().to_string(),
        path: path.to_path_buf(),
    };
    let r = read_one(&file, max_bytes, Names::File, false, None);
    match (r.status, r.summary) {
        (Status::Ok, Some(s)) => Ok(s),
        (status, _) => Err(FleetError::Golden(
            file.host,
            format!(
                "{}: {}",
                status.as_str(),
                r.detail.unwrap_or_else(|| "no report".into())
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(files: &[ReportFile], max: u64, names: Names, keep: bool) -> Vec<HostResult> {
        let mut out = Vec::new();
        run(files, max, names, keep, None, &mut |r| out.push(r));
        out
    }

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/reports")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn every_kind_of_file_gets_the_status_an_ssh_host_would() {
        let dir = tempfile::tempdir().unwrap();
        let good = fixture("healthy_8gpu.json");
        let files: &[(&str, Vec<u8>)] = &[
            ("node01.json", good.clone()),
            ("node02.json", good[..good.len() / 2].to_vec()),
            (
                "node03.json",
                b"srun: error: node03: task 0: Exited\n".to_vec(),
            ),
            (
                "node04.json",
                br#"{"schema_version": 0, "facts": {}}"#.to_vec(),
            ),
            ("node05.json", Vec::new()),
            ("node06.json", vec![b' '; 5000]),
            (".node07.json.tmp", good.clone()),
            ("node08", good.clone()),
        ];
        for (name, bytes) in files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        nix::unistd::mkfifo(&dir.path().join("fifo.json"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        std::os::unix::fs::symlink("/nonexistent/x.json", dir.path().join("node09.json")).unwrap();
        let list = list(dir.path()).unwrap();
        let hosts: Vec<&str> = list.iter().map(|f| f.host.as_str()).collect();
        assert_eq!(
            hosts,
            ["node01", "node02", "node03", "node04", "node05", "node06", "node08", "node09"]
        );
        let results = collect(&list, 4096, Names::File, true);
        let got: Vec<(&str, Status)> = results
            .iter()
            .map(|r| (r.host.as_str(), r.status))
            .collect();
        assert_eq!(
            got,
            [
                // Over the 4096-byte cap: bad_output, as an ssh host printing that much.
                ("node01", Status::BadOutput),
                ("node02", Status::BadOutput),
                ("node03", Status::BadOutput),
                ("node04", Status::Incompatible),
                ("node05", Status::BadOutput),
                ("node06", Status::BadOutput),
                ("node08", Status::BadOutput),
                ("node09", Status::Error),
            ]
        );
        assert_eq!(results[4].detail.as_deref(), Some("the file is empty"));
        let results = collect(&list, 1 << 24, Names::File, true);
        for r in &results {
            assert_eq!(r.report.is_some(), r.status == Status::Ok);
        }
        assert_eq!(results[0].status, Status::Ok);
        assert_eq!(results[0].exit_code, 0);
        assert!(collect(&list, 1 << 24, Names::File, false)[0]
            .report
            .is_none());
        assert_eq!(results[1].status, Status::BadOutput);
        assert!(results[1].detail.as_deref().unwrap().contains("truncated"));
        assert!(results
            .iter()
            .all(|r| r.exit_code == 0 || r.status != Status::Ok || r.summary.is_some()));
    }

    #[test]
    fn host_names_from_the_report() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("job-1234-0.json"), fixture("no_gpu.json")).unwrap();
        std::fs::write(dir.path().join("job-1234-1.json"), b"{").unwrap();
        let list = list(dir.path()).unwrap();
        let r = collect(&list, 1 << 24, Names::Report, false);
        assert_eq!(r[0].host, "ci-runner");
        assert_eq!(r[1].host, "job-1234-1");
    }

    #[test]
    fn an_empty_or_missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(list(dir.path()), Err(FleetError::NoReports(_))));
        assert!(matches!(
            list(&dir.path().join("nope")),
            Err(FleetError::HostFile(..))
        ));
    }

    #[test]
    fn a_golden_report_must_be_a_good_report() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.json");
        std::fs::write(&good, fixture("healthy_8gpu.json")).unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, b"nope").unwrap();
        assert_eq!(golden(&good, 1 << 24).unwrap().gpus, 8);
        let e = golden(&bad, 1 << 24).unwrap_err().to_string();
        assert!(e.contains("bad_output"), "{e}");
        assert!(golden(&dir.path().join("missing"), 1 << 24).is_err());
    }
}
