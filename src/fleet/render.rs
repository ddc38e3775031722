//! The fleet as text (`--plain`) and as one JSON document (`--json`).

use serde::Serialize;

use super::aggregate::{self, Drift};
use super::{HostResult, Status};
use crate::report::Verdict;

/// Version of the fleet JSON document (each host's `report` carries its own
/// `schema_version`).
pub const FLEET_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct FleetSummary {
    pub hosts: usize,
    /// Hosts per status (every status, zeros included).
    pub statuses: std::collections::BTreeMap<&'static str, usize>,
    /// Hosts that answered, per verdict.
    pub verdicts: std::collections::BTreeMap<&'static str, usize>,
    pub elapsed_ms: u64,
}

pub fn summary(results: &[HostResult], elapsed_ms: u64) -> FleetSummary {
    summary_of(&aggregate::Tally::of(results), elapsed_ms)
}

pub fn summary_of(t: &aggregate::Tally, elapsed_ms: u64) -> FleetSummary {
    let statuses = Status::ALL
        .iter()
        .map(|s| (s.as_str(), t.status_count(*s)))
        .collect();
    let verdicts = [Verdict::Healthy, Verdict::Warnings, Verdict::Failures]
        .iter()
        .map(|v| (verdict_name(*v), t.verdict_count(*v)))
        .collect();
    FleetSummary {
        hosts: t.hosts(),
        statuses,
        verdicts,
        elapsed_ms,
    }
}

/// The fleet JSON document, written host by host as results come: the header, each
/// host (with its whole report) as soon as it is known, then the summary, groups, drift
/// and exit code, which need every host but only their small summaries. So the document
/// never sits whole in memory, however many hosts there are.
///
/// ```text
/// {"fleet_schema_version": 1, "tool": {…}, "hosts": [ {…}, {…}, … ],
///  "summary": {…}, "groups": […], "drift": […], "exit_code": N}
/// ```
pub struct JsonStream<W: std::io::Write> {
    out: W,
    hosts: usize,
}

impl<W: std::io::Write> JsonStream<W> {
    pub fn start(mut out: W) -> std::io::Result<JsonStream<W>> {
        let tool = crate::report::Tool {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
        };
        write!(
            out,
            "{{\n  \"fleet_schema_version\": {FLEET_SCHEMA_VERSION},\n  \"tool\": {},\n  \"hosts\": [",
            crate::report::safe_json::to_string(&tool)?
        )?;
        Ok(JsonStream { out, hosts: 0 })
    }

    /// One host, with its report when it carries one.
    pub fn host(&mut self, r: &HostResult) -> std::io::Result<()> {
        self.out
            .write_all(if self.hosts == 0 { b"\n" } else { b",\n" })?;
        crate::report::safe_json::to_writer_pretty(&mut self.out, r)?;
        self.hosts += 1;
        Ok(())
    }

    /// The closing parts, from the tally of every host.
    pub fn finish(
        mut self,
        tally: &aggregate::Tally,
        elapsed_ms: u64,
        drift: &[Drift],
        exit_code: i32,
    ) -> std::io::Result<W> {
        fn field(name: &str, v: &impl Serialize) -> std::io::Result<String> {
            Ok(format!(
                ",\n  \"{name}\": {}",
                crate::report::safe_json::to_string_pretty(v)?
            ))
        }
        let mut tail = String::from(if self.hosts == 0 { "]" } else { "\n  ]" });
        tail.push_str(&field("summary", &summary_of(tally, elapsed_ms))?);
        tail.push_str(&field("groups", &tally.groups())?);
        tail.push_str(&field("drift", &drift)?);
        tail.push_str(&format!(",\n  \"exit_code\": {exit_code}\n}}\n"));
        self.out.write_all(tail.as_bytes())?;
        Ok(self.out)
    }
}

/// The JSON document of a finished fleet (majority drift), encoded straight into `out`.
pub fn write_json(
    out: &mut impl std::io::Write,
    results: &[HostResult],
    elapsed_ms: u64,
) -> std::io::Result<()> {
    let mut s = JsonStream::start(&mut *out)?;
    for r in results {
        s.host(r)?;
    }
    let tally = aggregate::Tally::of(results);
    s.finish(&tally, elapsed_ms, &tally.drift(), tally.exit_code())?;
    Ok(())
}

pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Healthy => "healthy",
        Verdict::Warnings => "warnings",
        Verdict::Failures => "failures",
    }
}

/// What the table's result column says: the verdict for hosts that answered, else the status.
pub fn result_word(r: &HostResult) -> &'static str {
    match r.verdict() {
        Some(v) if r.status == Status::Ok => verdict_name(v),
        _ => r.status.as_str(),
    }
}

/// The table columns of one host: host, status, verdict, GPUs, driver, CUDA, torch, top
/// finding (or the reason it is not ok), time.
pub fn row(r: &HostResult) -> [String; 9] {
    let dash = || "-".to_string();
    let s = r.summary.as_ref();
    [
        r.host.clone(),
        r.status.as_str().to_string(),
        r.verdict()
            .map_or_else(dash, |v| verdict_name(v).to_string()),
        s.map_or_else(dash, |s| s.gpus.to_string()),
        s.and_then(|s| s.driver.clone()).unwrap_or_else(dash),
        s.and_then(|s| s.cuda.clone()).unwrap_or_else(dash),
        s.map(|s| s.torch.join(", "))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(dash),
        match s {
            Some(s) => s.top_finding.clone().unwrap_or_else(dash),
            None => r.detail.clone().unwrap_or_else(dash),
        },
        format!("{:.1}s", r.elapsed_ms as f64 / 1000.0),
    ]
}

pub const COLUMNS: [&str; 9] = [
    "HOST",
    "STATUS",
    "VERDICT",
    "GPUS",
    "DRIVER",
    "CUDA",
    "TORCH",
    "TOP FINDING",
    "TIME",
];

/// The plain text: one line per host, then the groups, the drift and a summary line.
pub fn plain(results: &[HostResult], elapsed_ms: u64) -> String {
    plain_with(
        results,
        elapsed_ms,
        &aggregate::drift(results),
        super::exit_code(results),
    )
}

/// [`plain`] with the drift and exit code given (drift from a golden report).
pub fn plain_with(results: &[HostResult], elapsed_ms: u64, drift: &[Drift], code: i32) -> String {
    let mut out = String::new();
    let rows: Vec<[String; 9]> = results.iter().map(row).collect();
    let mut widths = COLUMNS.map(|c| c.chars().count());
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(cell.chars().count().min(60));
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(widths.iter()).enumerate() {
            let c: String = c.chars().take(if i == 7 { 200 } else { 60 }).collect();
            if i + 1 == cells.len() {
                s.push_str(&c);
            } else {
                s.push_str(&format!("{c:<w$}  "));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(&COLUMNS.map(String::from)));
    for r in &rows {
        out.push_str(&line(r));
    }
    out.push_str("\nGroups\n");
    let groups = aggregate::groups(results);
    let gw = groups
        .iter()
        .map(|g| g.hosts.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    for g in &groups {
        let what = match (g.status, g.verdict) {
            (Status::Ok, Some(v)) => verdict_name(v).to_string(),
            (s, _) => s.as_str().to_string(),
        };
        let mut tail = g.problems.join(" ");
        if let Some(d) = &g.detail {
            tail = d.clone();
        }
        out.push_str(
            format!(
                "  {:<gw$}  {:>5}  {what:<17}  {tail}",
                g.hosts,
                format!("({})", g.count)
            )
            .trim_end(),
        );
        out.push('\n');
    }
    if !drift.is_empty() {
        if drift.iter().any(|d| d.reference == "golden") {
            out.push_str("\nDrift (hosts that differ from the golden report)\n");
        } else {
            out.push_str("\nDrift (hosts that differ from the majority)\n");
        }
        for d in drift {
            let golden = if d.reference == "golden" {
                " (golden)"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {}: {}{golden} on {} host(s)\n",
                d.attribute, d.majority, d.majority_count
            ));
            for o in &d.outliers {
                out.push_str(&format!("    {}  {}\n", o.value, o.hosts));
            }
        }
    }
    let counts: Vec<String> = aggregate::status_counts(results)
        .iter()
        .map(|(s, n)| format!("{n} {}", s.as_str()))
        .collect();
    out.push_str(&format!(
        "\n{} host(s): {} · {:.1}s · exit {}\n",
        results.len(),
        counts.join(", "),
        elapsed_ms as f64 / 1000.0,
        code
    ));
    out
}
