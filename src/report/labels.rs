//! `gpu-doctor --labels FILE`: Kubernetes node labels in the style of NVIDIA's GPU Feature
//! Discovery, plus gpu-doctor's verdict, written as a Node Feature Discovery feature file.
//!
//! NFD's `local` source reads every file in `/etc/kubernetes/node-feature-discovery/features.d/`
//! on the node: one `key=value` per line, `#` comments, `# +expiry-time=RFC3339` after
//! which the file's features are dropped, and files whose names start with `.` ignored (so
//! a writer can rename into place). Keys with a namespace (`nvidia.com/…`) become labels
//! as they are; the verdict uses NFD's own `feature.node.kubernetes.io/` namespace, which
//! every NFD version allows.
//!
//! The GFD names are GFD's (k8s-device-plugin `docs/gpu-feature-discovery`, and the GPU
//! Operator's required-label list): `nvidia.com/cuda.driver-version.{full,major,minor,revision}`
//! and the older `nvidia.com/cuda.driver.{major,minor,rev}`, `nvidia.com/cuda.runtime-version.{full,major,minor}`
//! (the CUDA version the driver supports) and the older `nvidia.com/cuda.runtime.{major,minor}`,
//! `nvidia.com/gpu.product` (the NVML name, spaces as dashes), `nvidia.com/gpu.count`,
//! `nvidia.com/gpu.memory` (MiB), `nvidia.com/gpu.compute.{major,minor}`. A label is
//! written only where the report knows its value.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Report;
use crate::checks::view;

/// The prefix of gpu-doctor's own labels.
pub const VERDICT_PREFIX: &str = "feature.node.kubernetes.io/gpu-doctor.";

/// How long the labels stand when nothing rewrites the file (the DaemonSet rewrites it
/// every few minutes; a node whose gpu-doctor stopped loses its verdict label).
pub const DEFAULT_TTL: Duration = Duration::from_secs(3600);

/// The labels of one report, in a fixed order.
pub fn labels(r: &Report) -> Vec<(String, String)> {
    let f = &r.facts;
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |k: &str, v: String| {
        if let Some(v) = value(&v) {
            out.push((k.to_string(), v));
        }
    };
    if let Some(d) = view::driver_version(f) {
        let full = d.to_string();
        let parts: Vec<&str> = full.split('.').collect();
        add("nvidia.com/cuda.driver-version.full", full.clone());
        for (i, name) in ["major", "minor", "revision"].iter().enumerate() {
            if let Some(p) = parts.get(i) {
                add(
                    &format!("nvidia.com/cuda.driver-version.{name}"),
                    (*p).into(),
                );
            }
        }
        for (i, name) in ["major", "minor", "rev"].iter().enumerate() {
            if let Some(p) = parts.get(i) {
                add(&format!("nvidia.com/cuda.driver.{name}"), (*p).into());
            }
        }
    }
    let cuda = view::nvml(f)
        .and_then(|n| n.cuda_driver_version.value().cloned())
        .or_else(|| view::cuda(f).and_then(|c| c.driver_version.value().cloned()));
    if let Some(c) = cuda {
        let mut parts = c.split('.');
        let (major, minor) = (parts.next(), parts.next());
        add("nvidia.com/cuda.runtime-version.full", c.clone());
        if let (Some(ma), Some(mi)) = (major, minor) {
            add("nvidia.com/cuda.runtime-version.major", ma.into());
            add("nvidia.com/cuda.runtime-version.minor", mi.into());
            add("nvidia.com/cuda.runtime.major", ma.into());
            add("nvidia.com/cuda.runtime.minor", mi.into());
        }
    }
    let devices = view::nvml_devices(f);
    if let Some(d) = devices.first() {
        if let Some(name) = d.name.value() {
            add("nvidia.com/gpu.product", name.replace(' ', "-"));
        }
        add("nvidia.com/gpu.count", devices.len().to_string());
        if let Some(b) = d.memory_total_bytes.value() {
            add("nvidia.com/gpu.memory", (b / (1024 * 1024)).to_string());
        }
        if let Some((ma, mi)) = d.compute_capability.value().and_then(|c| view::parse_cc(c)) {
            add("nvidia.com/gpu.compute.major", ma.to_string());
            add("nvidia.com/gpu.compute.minor", mi.to_string());
        }
    }
    let verdict = match r.summary.verdict {
        super::Verdict::Healthy => "healthy",
        super::Verdict::Warnings => "warnings",
        super::Verdict::Failures => "failures",
    };
    add(&format!("{VERDICT_PREFIX}verdict"), verdict.into());
    let top = r
        .findings
        .iter()
        .filter(|x| x.severity >= crate::finding::Severity::Warn)
        .max_by_key(|x| x.severity);
    if let Some(t) = top {
        add(&format!("{VERDICT_PREFIX}top-finding"), t.id.clone());
    }
    add(&format!("{VERDICT_PREFIX}version"), r.tool.version.clone());
    out
}

/// A label value as Kubernetes takes it: at most 63 characters of `[A-Za-z0-9-_.]`,
/// beginning and ending with a letter or digit; other characters become `-`. `None` when
/// nothing is left.
pub fn value(v: &str) -> Option<String> {
    let cleaned: String = v
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .take(63)
        .collect();
    let trimmed = cleaned.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// The feature file: a header, the expiry directive, `key=value` lines.
pub fn feature_file(labels: &[(String, String)], now: SystemTime, ttl: Duration) -> String {
    let mut out =
        String::from("# Written by gpu-doctor --labels (Node Feature Discovery local source).\n");
    out.push_str(&format!("# +expiry-time={}\n", rfc3339(now + ttl)));
    for (k, v) in labels {
        out.push_str(&format!("{k}={v}\n"));
    }
    out
}

/// `2026-11-23T21:40:00Z`, in UTC, to the second.
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_709_164_800 + 3661)),
            "2024-02-29T01:01:01Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(4_102_444_799)),
            "2099-12-31T23:59:59Z"
        );
    }

    #[test]
    fn label_values_kubernetes_accepts() {
        assert_eq!(
            value("NVIDIA-H100-80GB-HBM3").as_deref(),
            Some("NVIDIA-H100-80GB-HBM3")
        );
        assert_eq!(
            value("GeForce RTX 4090 (rev a1)").as_deref(),
            Some("GeForce-RTX-4090--rev-a1")
        );
        assert_eq!(value("--").as_deref(), None);
        assert_eq!(value(&"x".repeat(100)).unwrap().len(), 63);
        assert_eq!(value("é").as_deref(), None);
    }

    #[test]
    fn a_healthy_h100_node() {
        let r = Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            Vec::new(),
            Vec::new(),
        );
        let l = labels(&r);
        let get = |k: &str| l.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        assert_eq!(
            get("feature.node.kubernetes.io/gpu-doctor.verdict"),
            Some("healthy")
        );
        assert!(
            get("nvidia.com/cuda.driver-version.major").is_some(),
            "{l:?}"
        );
        assert!(get("feature.node.kubernetes.io/gpu-doctor.top-finding").is_none());
        let text = feature_file(&l, UNIX_EPOCH, DEFAULT_TTL);
        assert!(
            text.contains("# +expiry-time=1970-01-01T01:00:00Z\n"),
            "{text}"
        );
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (k, v) = line.split_once('=').unwrap();
            assert!(k.contains('/'), "{line}");
            assert_eq!(value(v).as_deref(), Some(v), "{line}");
        }
    }
}
