//! node_exporter textfile-collector metrics (`--prometheus FILE`), for one host or a
//! fleet, written atomically (a temporary file in the same folder, then rename) so the
//! collector never reads half a file.
//!
//! Metrics (every series of a fleet run also has a `host` label):
//!
//! ```text
//! gpu_doctor_up                       1 when a report was reached (fleet: the host answered)
//! gpu_doctor_exit_code                the report's exit code (0, 1, 2, 3)
//! gpu_doctor_verdict{verdict}         1 for the report's verdict, 0 for the others
//! gpu_doctor_findings{severity}       findings per severity
//! gpu_doctor_finding{check[,id]}      worst severity of each check: 0 pass, 1 info, 2 warn, 3 fail;
//!                                     the failure `id` label only when not a pass
//! gpu_doctor_finding_action{check,id,action}  1 for the action each warn/fail finding asks for
//! gpu_doctor_gpus                     GPUs seen (PCI, NVML, device nodes)
//! gpu_doctor_driver_init_ok{api}      nvmlInit / cuInit succeeded (1) or not (0), from the driver worker
//! gpu_doctor_probe_ok{gpu,probe,status}   1 passed, 0 otherwise (status: passed, failed, crashed, timed_out, skipped)
//! gpu_doctor_probe_duration_seconds{gpu,probe}
//! gpu_doctor_probe_measurement{gpu,probe,name,unit}  what a probe measured (JIT ms, GB/s …)
//! gpu_doctor_info{driver,cuda,torch,matrix,version}  1
//! gpu_doctor_run_duration_seconds     how long the run took
//! gpu_doctor_last_run_timestamp_seconds
//! gpu_doctor_fleet_host_status{host,status}  (fleet) 1 for the host's status
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Report, Verdict};
use crate::checks::view;
use crate::finding::Severity;

const HEADERS: &[(&str, &str)] = &[
    (
        "gpu_doctor_up",
        "1 when gpu-doctor reached a report for the host",
    ),
    (
        "gpu_doctor_exit_code",
        "gpu-doctor's exit code: 0 ok, 1 warnings, 2 failures, 3 no verdict",
    ),
    (
        "gpu_doctor_verdict",
        "1 for the report's verdict (healthy, warnings, failures)",
    ),
    ("gpu_doctor_findings", "Findings per severity"),
    (
        "gpu_doctor_finding",
        "Worst severity of each check (check: its neutral name; id: the failure id, only when not a pass): 0 pass, 1 info, 2 warn, 3 fail",
    ),
    (
        "gpu_doctor_finding_action",
        "1 for the action a warn or fail finding id asks a scheduler for (none, fix_software, restart_app, reset_gpu, reboot, drain, inspect_hardware)",
    ),
    (
        "gpu_doctor_gpus",
        "NVIDIA GPUs seen (PCI bus, NVML, device nodes)",
    ),
    (
        "gpu_doctor_driver_init_ok",
        "1 when the driver API initialised (nvml: nvmlInit, cuda: cuInit)",
    ),
    (
        "gpu_doctor_probe_ok",
        "1 when the smoke probe passed on the GPU (nvidia-smi index), 0 otherwise",
    ),
    (
        "gpu_doctor_probe_duration_seconds",
        "How long the smoke probe ran on the GPU",
    ),
    (
        "gpu_doctor_probe_measurement",
        "What a smoke probe measured (name and unit as labels)",
    ),
    ("gpu_doctor_info", "Versions of the stack, as labels"),
    (
        "gpu_doctor_run_duration_seconds",
        "How long gpu-doctor took for the host",
    ),
    (
        "gpu_doctor_last_run_timestamp_seconds",
        "When the metrics were written (Unix time)",
    ),
    (
        "gpu_doctor_fleet_host_status",
        "1 for each host's fleet status",
    ),
];

/// Label values: `\`, `"` and newlines escaped; other control characters dropped.
pub fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars().take(256) {
        match c {
            '\\' => out.push_str(r"\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str(r"\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Samples by metric name, so each metric's HELP/TYPE is written once.
#[derive(Default)]
pub struct Metrics {
    samples: BTreeMap<&'static str, Vec<String>>,
}

impl Metrics {
    pub fn add(&mut self, name: &'static str, labels: &[(&str, &str)], value: f64) {
        let mut s = name.to_string();
        if !labels.is_empty() {
            s.push('{');
            let parts: Vec<String> = labels
                .iter()
                .map(|(k, v)| format!("{k}=\"{}\"", escape(v)))
                .collect();
            s.push_str(&parts.join(","));
            s.push('}');
        }
        let _ = write!(s, " {value}");
        self.samples.entry(name).or_default().push(s);
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, help) in HEADERS {
            let Some(lines) = self.samples.get(name) else {
                continue;
            };
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
}

/// The neutral name of a finding's check (a finding read from a schema 1 report has none:
/// the catalogue's, else its id).
fn check_of(f: &crate::finding::Finding) -> &str {
    if f.check.is_empty() {
        crate::checks::catalogue::by_id(&f.id).map_or(f.id.as_str(), |c| c.name)
    } else {
        f.check.as_str()
    }
}

fn severity_value(s: Severity) -> f64 {
    match s {
        Severity::Pass => 0.0,
        Severity::Info => 1.0,
        Severity::Warn => 2.0,
        Severity::Fail => 3.0,
    }
}

/// The metrics of one report; `host` adds a `host` label to every series.
pub fn add_report(m: &mut Metrics, r: &Report, host: Option<&str>) {
    let with = |extra: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        let mut v: Vec<(&'static str, String)> = Vec::new();
        if let Some(h) = host {
            v.push(("host", h.to_string()));
        }
        v.extend(extra.iter().map(|(k, x)| (*k, (*x).to_string())));
        v
    };
    let add = |m: &mut Metrics, name: &'static str, extra: &[(&'static str, &str)], value: f64| {
        let labels = with(extra);
        let refs: Vec<(&str, &str)> = labels.iter().map(|(k, v)| (*k, v.as_str())).collect();
        m.add(name, &refs, value);
    };
    add(m, "gpu_doctor_up", &[], 1.0);
    add(m, "gpu_doctor_exit_code", &[], f64::from(r.exit_code));
    for (v, name) in [
        (Verdict::Healthy, "healthy"),
        (Verdict::Warnings, "warnings"),
        (Verdict::Failures, "failures"),
    ] {
        let on = if r.summary.verdict == v { 1.0 } else { 0.0 };
        add(m, "gpu_doctor_verdict", &[("verdict", name)], on);
    }
    for (sev, n) in [
        ("pass", r.summary.pass),
        ("info", r.summary.info),
        ("warn", r.summary.warn),
        ("fail", r.summary.fail),
    ] {
        add(m, "gpu_doctor_findings", &[("severity", sev)], f64::from(n));
    }
    // One series per check, by its neutral name; the failure id is a label only while the
    // check does not pass, so a healthy host exports no failure-named series.
    let mut worst: BTreeMap<&str, (Severity, &str)> = BTreeMap::new();
    for f in &r.findings {
        let e = worst
            .entry(check_of(f))
            .or_insert((f.severity, f.id.as_str()));
        if f.severity > e.0 {
            *e = (f.severity, f.id.as_str());
        }
    }
    for (check, (s, id)) in worst {
        if s == Severity::Pass {
            add(
                m,
                "gpu_doctor_finding",
                &[("check", check)],
                severity_value(s),
            );
        } else {
            add(
                m,
                "gpu_doctor_finding",
                &[("check", check), ("id", id)],
                severity_value(s),
            );
        }
    }
    let actions: std::collections::BTreeSet<(&str, &str, &str)> = r
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warn)
        .filter_map(|f| Some((check_of(f), f.id.as_str(), f.action?.as_str())))
        .collect();
    for (check, id, action) in actions {
        add(
            m,
            "gpu_doctor_finding_action",
            &[("check", check), ("id", id), ("action", action)],
            1.0,
        );
    }
    let f = &r.facts;
    add(m, "gpu_doctor_gpus", &[], view::gpus_seen(f) as f64);
    if let Some(n) = view::nvml(f) {
        let ok = if n.init_ok() { 1.0 } else { 0.0 };
        add(
            m,
            "gpu_doctor_driver_init_ok",
            &[("api", "nvml"), ("result", &n.init.name)],
            ok,
        );
    }
    if let Some(c) = view::cuda(f) {
        let ok = if c.init_ok() { 1.0 } else { 0.0 };
        add(
            m,
            "gpu_doctor_driver_init_ok",
            &[("api", "cuda"), ("result", &c.init.name)],
            ok,
        );
    }
    for p in &f.probes {
        let gpu = p
            .nvml_index
            .map_or_else(|| format!("cuda{}", p.cuda_ordinal), |i| i.to_string());
        let probe = p.probe.as_str();
        let status = p.outcome.status();
        let ok = if status == "passed" { 1.0 } else { 0.0 };
        add(
            m,
            "gpu_doctor_probe_ok",
            &[("gpu", &gpu), ("probe", probe), ("status", status)],
            ok,
        );
        add(
            m,
            "gpu_doctor_probe_duration_seconds",
            &[("gpu", &gpu), ("probe", probe)],
            p.elapsed_ms as f64 / 1e3,
        );
        // One series per label set: node_exporter rejects a whole file that repeats
        // one (reports from before measurement names were unique repeat them).
        let mut named: Vec<&str> = Vec::new();
        for x in p.outcome.measurements() {
            if named.contains(&x.name.as_str()) {
                continue;
            }
            named.push(&x.name);
            add(
                m,
                "gpu_doctor_probe_measurement",
                &[
                    ("gpu", &gpu),
                    ("probe", probe),
                    ("name", &x.name),
                    ("unit", &x.unit),
                ],
                x.value,
            );
        }
    }
    let driver = view::driver_version(f).map_or_else(String::new, |v| v.to_string());
    let cuda = view::nvml(f)
        .and_then(|n| n.cuda_driver_version.value().cloned())
        .or_else(|| view::cuda(f).and_then(|c| c.driver_version.value().cloned()))
        .unwrap_or_default();
    let mut torch: Vec<String> = f
        .python
        .iter()
        .filter_map(|e| e.torch.first())
        .filter_map(|t| t.version.value().cloned())
        .collect();
    torch.sort();
    torch.dedup();
    let torch = torch.join(",");
    add(
        m,
        "gpu_doctor_info",
        &[
            ("driver", &driver),
            ("cuda", &cuda),
            ("torch", &torch),
            ("matrix", &r.matrix.version),
            ("version", &r.tool.version),
        ],
        1.0,
    );
}

pub fn add_common(m: &mut Metrics, host: Option<&str>, duration_s: f64) {
    let labels: Vec<(&str, &str)> = host.map(|h| vec![("host", h)]).unwrap_or_default();
    m.add("gpu_doctor_run_duration_seconds", &labels, duration_s);
}

/// The time the metrics were written.
pub fn timestamp(m: &mut Metrics) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    m.add("gpu_doctor_last_run_timestamp_seconds", &[], now as f64);
}

/// The metrics of one host's report (`gpu-doctor --prometheus FILE`).
pub fn single(r: &Report, duration_s: f64) -> String {
    let mut m = Metrics::default();
    add_report(&mut m, r, None);
    add_common(&mut m, None, duration_s);
    timestamp(&mut m);
    m.render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Finding;

    #[test]
    fn one_host_metrics() {
        let r = Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            vec![
                Finding::new("driver.library_mismatch", Severity::Fail, "x")
                    .action(crate::finding::Action::Reboot),
                Finding::new("host.shm_small", Severity::Pass, "y"),
            ],
            Vec::new(),
        );
        let text = single(&r, 0.25);
        assert!(
            !text.contains("host.shm_small"),
            "a pass exports no failure id:\n{text}"
        );
        for want in [
            "# TYPE gpu_doctor_verdict gauge",
            "gpu_doctor_verdict{verdict=\"failures\"} 1",
            "gpu_doctor_verdict{verdict=\"healthy\"} 0",
            "gpu_doctor_findings{severity=\"fail\"} 1",
            "gpu_doctor_finding{check=\"driver.library_version\",id=\"driver.library_mismatch\"} 3",
            "gpu_doctor_finding{check=\"host.shm_size\"} 0",
            "gpu_doctor_finding_action{check=\"driver.library_version\",id=\"driver.library_mismatch\",action=\"reboot\"} 1",
            "gpu_doctor_exit_code 2",
            "gpu_doctor_run_duration_seconds 0.25",
            "gpu_doctor_info{driver=",
        ] {
            assert!(text.contains(want), "{want} missing from\n{text}");
        }
        assert_eq!(text.matches("# HELP gpu_doctor_verdict ").count(), 1);
    }

    #[test]
    fn probe_results_and_measurements() {
        use crate::facts::probe::{Measurement, ProbeKind, ProbeOutcome, ProbeResult};
        let mut facts = crate::checks::testutil::healthy();
        facts.probes = vec![
            ProbeResult {
                probe: ProbeKind::Bandwidth,
                cuda_ordinal: 0,
                nvml_index: Some(3),
                gpu_name: None,
                pci_bus_id: None,
                elapsed_ms: 1500,
                outcome: ProbeOutcome::Passed {
                    summary: "ok".into(),
                    measurements: vec![Measurement::new("host_to_device_gbps", 52.5, "GB/s")],
                    notes: vec![],
                },
                pairs: Vec::new(),
            },
            ProbeResult {
                probe: ProbeKind::Launch,
                cuda_ordinal: 1,
                nvml_index: None,
                gpu_name: None,
                pci_bus_id: None,
                elapsed_ms: 60_000,
                outcome: ProbeOutcome::TimedOut {
                    after_ms: 60_000,
                    stderr_tail: String::new(),
                    limit_ms: None,
                },
                pairs: Vec::new(),
            },
        ];
        let r = Report::new(crate::matrix::bundled(), facts, Vec::new(), Vec::new());
        let text = single(&r, 1.0);
        for want in [
            "gpu_doctor_probe_ok{gpu=\"3\",probe=\"bandwidth\",status=\"passed\"} 1",
            "gpu_doctor_probe_ok{gpu=\"cuda1\",probe=\"launch\",status=\"timed_out\"} 0",
            "gpu_doctor_probe_duration_seconds{gpu=\"3\",probe=\"bandwidth\"} 1.5",
            "gpu_doctor_probe_measurement{gpu=\"3\",probe=\"bandwidth\",name=\"host_to_device_gbps\",unit=\"GB/s\"} 52.5",
        ] {
            assert!(text.contains(want), "{want} missing from\n{text}");
        }
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd\x1be"), "a\\\"b\\\\c\\nde");
    }
}
