//! `gpu-doctor diff A.json B.json`: what differs between two saved reports, most relevant
//! first — for "works on node A, fails on node B" and "worked last week". Findings that
//! appeared, disappeared or changed severity, and every fact that changed, ranked: failing
//! findings and driver / PyTorch changes before the rest.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::error::AppError;
use crate::finding::{Finding, Severity};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    pub identical: bool,
    /// Most relevant first.
    pub differences: Vec<Difference>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// "finding" or "fact".
    pub kind: String,
    /// A finding "check (scope)" (the check's neutral name) or a fact path such as
    /// "kernel_module.version".
    pub key: String,
    /// The value in A (`None`: absent there).
    pub a: Option<String>,
    pub b: Option<String>,
    /// Lower is more relevant.
    pub relevance: u8,
}

/// The parts of a saved report diff needs; anything else in the file is ignored.
#[derive(Debug, serde::Deserialize)]
pub struct Saved {
    pub schema_version: Option<u64>,
    pub facts: Value,
    /// Read leniently (a newer report may carry scopes this build does not know).
    #[serde(default)]
    pub findings: Vec<Value>,
}

/// A saved finding's check, id, scope, severity and summary, read from its JSON: schema 2
/// (`check` always, `id` on problems) or schema 1 (`id` always, no `check`).
pub fn lenient(v: &Value) -> Option<Finding> {
    use crate::checks::catalogue;
    let check = v
        .get("check")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty());
    let id = match (v.get("id").and_then(Value::as_str), check) {
        (Some(id), _) => id.to_string(),
        (None, Some(c)) => {
            catalogue::by_name(c).map_or_else(|| c.to_string(), |x| x.id.to_string())
        }
        (None, None) => return None,
    };
    let severity: Severity = serde_json::from_value(v.get("severity")?.clone()).ok()?;
    let summary = v.get("summary").and_then(Value::as_str).unwrap_or("");
    let mut f = Finding::new(&id, severity, summary);
    f.check = match check {
        Some(c) => c.to_string(),
        None => catalogue::by_id(&id).map_or_else(|| id.clone(), |x| x.name.to_string()),
    };
    if let Some(scope) = v.get("scope") {
        match serde_json::from_value(scope.clone()) {
            Ok(s) => f.scope = s,
            Err(_) => {
                f.scope = crate::finding::Scope::Python {
                    interpreter: scope.to_string(),
                }
            }
        }
    }
    Some(f)
}

pub fn load(path: &Path) -> Result<Saved, AppError> {
    // The same bound as --from (a saved report, not a log), and no text copy.
    let bytes = crate::host::open_input(path)
        .and_then(|r| crate::host::read_all_bounded(r, crate::report::MAX_REPORT_BYTES))
        .map_err(|e| AppError::Input {
            path: path.display().to_string(),
            error: e.to_string(),
        })?;
    let saved: Saved = serde_json::from_slice(&bytes).map_err(|e| AppError::Input {
        path: path.display().to_string(),
        error: format!("not a gpu-doctor JSON report: {e}"),
    })?;
    if saved.schema_version.is_none() {
        return Err(AppError::Input {
            path: path.display().to_string(),
            error: "no schema_version: not a gpu-doctor JSON report".into(),
        });
    }
    Ok(saved)
}

/// Flattens facts into "path" -> shown value. `Fact` wrappers disappear (a known value
/// sits at its own path; an absent one shows its state and reason); arrays of named
/// things are keyed by their name, so a reordered list is not a difference.
pub fn flatten(v: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    walk(v, String::new(), &mut out);
    out
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(v: &Value, path: String, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(state)) = map.get("state") {
                if state == "known" {
                    if let Some(inner) = map.get("value") {
                        walk(inner, path, out);
                    }
                } else {
                    let why = map
                        .get("why")
                        .or_else(|| map.get("error"))
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    out.insert(path, format!("({state}: {why})"));
                }
                return;
            }
            for (k, inner) in map {
                walk(inner, join(&path, k), out);
            }
        }
        Value::Array(items) => {
            if items.is_empty() {
                out.insert(path.clone(), "[]".into());
            }
            for (i, item) in items.iter().enumerate() {
                let key = name_of(item).unwrap_or_else(|| i.to_string());
                walk(item, format!("{path}[{key}]"), out);
            }
        }
        Value::String(s) => {
            out.insert(path, s.clone());
        }
        Value::Null => {
            out.insert(path, "null".into());
        }
        other => {
            out.insert(path, other.to_string());
        }
    }
}

fn name_of(item: &Value) -> Option<String> {
    let map = item.as_object()?;
    for key in [
        "index",
        "bus_id",
        "root",
        "interpreter",
        "path",
        "name",
        "library",
        "file",
    ] {
        match map.get(key) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(Value::Number(n)) => return Some(n.to_string()),
            _ => {}
        }
    }
    None
}

/// How much a changed fact matters: driver and PyTorch first, then GPUs, toolkits,
/// CUDA variables, the rest of the driver stack, the OS.
fn fact_relevance(path: &str) -> u8 {
    let p = path;
    if p.starts_with("kernel_module.version")
        || p.contains("driver_version")
        || p.starts_with("driver_api.nvml.init")
        || p.starts_with("driver_api.cuda.init")
    {
        2
    } else if p.starts_with("python") && (p.contains(".torch[") || p.contains(".torch")) {
        if p.ends_with(".version") || p.ends_with(".cuda") || p.contains(".arch") {
            2
        } else {
            4
        }
    } else if p.starts_with("driver_api") || p.starts_with("pci_gpus") {
        3
    } else if p.starts_with("toolkits") || p.starts_with("env") {
        4
    } else if p.starts_with("python")
        || p.starts_with("ld_library_path_libs")
        || p.starts_with("kernel_module")
        || p.starts_with("driver_libs")
    {
        5
    } else if p.starts_with("system.hostname") {
        9
    } else {
        6
    }
}

fn finding_relevance(a: Option<Severity>, b: Option<Severity>) -> u8 {
    match a.max(b) {
        Some(Severity::Fail) => 0,
        Some(Severity::Warn) => 1,
        Some(Severity::Info) => 7,
        _ => 8,
    }
}

pub fn diff_values(a_facts: &Value, a: &[Finding], b_facts: &Value, b: &[Finding]) -> Diff {
    let mut out = Vec::new();
    // Keyed by the check's neutral name, so a pass and a failure of one check meet; the
    // failure id is shown only beside a side that is not a pass.
    let key = |f: &Finding| {
        let name = if f.check.is_empty() { &f.id } else { &f.check };
        format!("{name} ({})", f.scope)
    };
    let index = |fs: &[Finding]| -> BTreeMap<String, (Severity, String)> {
        let mut m = BTreeMap::new();
        for f in fs {
            m.entry(key(f)).or_insert_with(|| {
                let summary = if f.severity == Severity::Pass {
                    f.summary.clone()
                } else {
                    format!("[{}] {}", f.id, f.summary)
                };
                (f.severity, summary)
            });
        }
        m
    };
    let (fa, fb) = (index(a), index(b));
    let keys: std::collections::BTreeSet<&String> = fa.keys().chain(fb.keys()).collect();
    for k in keys {
        let (sa, sb) = (fa.get(k), fb.get(k));
        if sa.map(|s| s.0) == sb.map(|s| s.0) {
            continue;
        }
        let show =
            |s: Option<&(Severity, String)>| s.map(|(sev, summary)| format!("{sev}: {summary}"));
        out.push(Difference {
            kind: "finding".into(),
            key: k.clone(),
            a: show(sa),
            b: show(sb),
            relevance: finding_relevance(sa.map(|s| s.0), sb.map(|s| s.0)),
        });
    }
    let (xa, xb) = (flatten(a_facts), flatten(b_facts));
    let paths: std::collections::BTreeSet<&String> = xa.keys().chain(xb.keys()).collect();
    for p in paths {
        let (va, vb) = (xa.get(p), xb.get(p));
        if va == vb {
            continue;
        }
        out.push(Difference {
            kind: "fact".into(),
            key: p.clone(),
            a: va.cloned(),
            b: vb.cloned(),
            relevance: fact_relevance(p),
        });
    }
    out.sort_by(|x, y| {
        x.relevance
            .cmp(&y.relevance)
            .then_with(|| x.key.cmp(&y.key))
    });
    Diff {
        identical: out.is_empty(),
        differences: out,
    }
}

pub fn text(d: &Diff, a: &str, b: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if d.identical {
        let _ = writeln!(out, "{a} and {b} have the same facts and findings.");
        return out;
    }
    let _ = writeln!(
        out,
        "{} difference{} between A={a} and B={b}, most relevant first:",
        d.differences.len(),
        if d.differences.len() == 1 { "" } else { "s" }
    );
    for x in d.differences.iter().take(TEXT_LIMIT) {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(absent)".into());
        let _ = writeln!(out, "\n  {} {}", x.kind, x.key);
        let _ = writeln!(out, "    A: {}", show(&x.a));
        let _ = writeln!(out, "    B: {}", show(&x.b));
    }
    if d.differences.len() > TEXT_LIMIT {
        let _ = writeln!(
            out,
            "\n  … {} less relevant differences more (--json lists all)",
            d.differences.len() - TEXT_LIMIT
        );
    }
    out
}

/// Differences the text output shows; `--json` has them all.
pub const TEXT_LIMIT: usize = 60;

/// `diff`'s exit code when the reports differ.
pub const DIFFERENT: i32 = 1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::healthy;
    use crate::fact::Fact;

    fn facts_json(f: &crate::facts::Facts) -> Value {
        serde_json::to_value(f).unwrap()
    }

    #[test]
    fn identical_reports_have_no_differences() {
        let f = facts_json(&healthy());
        let d = diff_values(&f, &[], &f, &[]);
        assert!(d.identical);
        assert!(d.differences.is_empty());
    }

    #[test]
    fn failing_findings_and_driver_changes_come_first() {
        let a = healthy();
        let mut b = healthy();
        b.kernel_module.version = Fact::known("550.54.15".into());
        b.system.hostname = Fact::known("node02".into());
        b.env.insert("CUDA_VISIBLE_DEVICES".into(), "1".into());
        let named = |id: &str, s, summary: &str| {
            let mut f = Finding::new(id, s, summary);
            f.check = crate::checks::catalogue::by_id(id)
                .unwrap()
                .name
                .to_string();
            f
        };
        let fa = vec![
            named("host.shm_small", Severity::Pass, "ok"),
            named("driver.library_mismatch", Severity::Pass, "both 580"),
        ];
        let fb = vec![
            named("host.shm_small", Severity::Pass, "ok"),
            named(
                "driver.library_mismatch",
                Severity::Fail,
                "module 550 vs libs 580",
            ),
            named("toolkit.multiple", Severity::Info, "two toolkits"),
        ];
        let d = diff_values(&facts_json(&a), &fa, &facts_json(&b), &fb);
        assert!(!d.identical);
        let keys: Vec<&str> = d.differences.iter().map(|x| x.key.as_str()).collect();
        assert_eq!(keys[0], "driver.library_version (host)");
        assert_eq!(d.differences[0].a.as_deref(), Some("pass: both 580"));
        assert_eq!(
            d.differences[0].b.as_deref(),
            Some("fail: [driver.library_mismatch] module 550 vs libs 580")
        );
        assert_eq!(keys[1], "kernel_module.version");
        assert_eq!(d.differences[1].b.as_deref(), Some("550.54.15"));
        assert!(keys.contains(&"env.CUDA_VISIBLE_DEVICES"));
        assert_eq!(keys.last(), Some(&"system.hostname"));
        // unchanged findings are not differences
        assert!(!keys.iter().any(|k| k.starts_with("host.shm_size")));
    }

    #[test]
    fn findings_with_unknown_scopes_are_read_not_refused() {
        let v = serde_json::json!({"id": "probe.launch", "severity": "fail", "summary": "x",
                                   "scope": {"kind": "probe", "gpu": 3}});
        let f = lenient(&v).unwrap();
        assert_eq!(f.id, "probe.launch");
        assert_eq!(
            f.check, "probe.kernel_launch",
            "a schema 1 finding gets its check's name"
        );
        let v2 = serde_json::json!({"check": "probe.kernel_launch", "severity": "pass",
                                    "summary": "ok", "scope": {"kind": "host"}});
        let g = lenient(&v2).unwrap();
        assert_eq!(
            (g.id.as_str(), g.check.as_str()),
            ("probe.launch", "probe.kernel_launch")
        );
        assert_eq!(f.severity, Severity::Fail);
        assert!(f.scope.to_string().contains("probe"));
        assert!(lenient(&serde_json::json!({"id": "x"})).is_none());
    }

    #[test]
    fn lists_keyed_by_name_ignore_order_and_absent_facts_show_their_reason() {
        let a = serde_json::json!({"python": [{"interpreter": "/a", "x": 1}, {"interpreter": "/b", "x": 2}],
                                   "v": {"state": "missing", "why": "no file"}});
        let b = serde_json::json!({"python": [{"interpreter": "/b", "x": 2}, {"interpreter": "/a", "x": 1}],
                                   "v": {"state": "known", "value": "1.0"}});
        let d = diff_values(&a, &[], &b, &[]);
        assert_eq!(d.differences.len(), 1, "{d:#?}");
        assert_eq!(d.differences[0].key, "v");
        assert_eq!(d.differences[0].a.as_deref(), Some("(missing: no file)"));
        assert_eq!(d.differences[0].b.as_deref(), Some("1.0"));
    }
}
