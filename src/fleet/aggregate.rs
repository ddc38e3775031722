//! Folding a fleet into what an operator reads: hosts with identical results as one row
//! (`node[01-31]  healthy`, as `clush -b` / `dshbak -c` fold output), and drift: the
//! hosts that differ from the majority in driver, toolkit, torch build, matrix version,
//! GPU model or count.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::{HostResult, Status};
use crate::report::Verdict;

/// Hosts whose results are the same: status, verdict, the warn/fail finding ids, and for
/// hosts that are not ok, the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    /// The hosts, folded: `node[01-31,33],gpu-a`.
    pub hosts: String,
    pub count: usize,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// `id:severity` of every warning and failure.
    pub problems: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub exit_code: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct GroupKey {
    exit_code: i32,
    status: Status,
    verdict: Option<u8>,
    problems: Vec<String>,
    detail: Option<String>,
}

/// The groups, worst first, then largest first.
pub fn groups(results: &[HostResult]) -> Vec<Group> {
    Tally::of(results).groups()
}

/// What the groups, the drift, the counts and the exit code need of each host, gathered
/// host by host: its name once, its group and its value of each drift attribute as small
/// numbers (the values themselves once per distinct value). So a streamed fleet keeps
/// tens of bytes per host, not the host's result.
#[derive(Debug, Default)]
pub struct Tally {
    hosts: Vec<Box<str>>,
    /// Group keys in first-seen order, each with its verdict and its hosts.
    groups: Vec<(GroupKey, Option<Verdict>, Vec<u32>)>,
    group_index: HashMap<GroupKey, usize>,
    /// Per drift attribute: each value with the hosts that have it (hosts that answered).
    values: Vec<BTreeMap<String, Vec<u32>>>,
    statuses: BTreeMap<Status, usize>,
    verdicts: BTreeMap<u8, usize>,
    exit_code: Option<i32>,
}

impl Tally {
    pub fn of(results: &[HostResult]) -> Tally {
        let mut t = Tally::default();
        for r in results {
            t.add(r);
        }
        t
    }

    pub fn add(&mut self, r: &HostResult) {
        let i = u32::try_from(self.hosts.len()).unwrap_or(u32::MAX);
        self.hosts.push(r.host.as_str().into());
        let key = GroupKey {
            exit_code: r.exit_code,
            status: r.status,
            verdict: r.verdict().map(|v| v as u8),
            problems: r
                .summary
                .as_ref()
                .map(|s| s.problems.clone())
                .unwrap_or_default(),
            // ssh's messages name the host; the status alone groups those, except for
            // `error`, whose text is all there is to tell errors apart.
            detail: match r.status {
                Status::Error => r.detail.as_deref().map(|d| generic(d, &r.host)),
                _ => None,
            },
        };
        match self.group_index.get(&key) {
            Some(&g) => self.groups[g].2.push(i),
            None => {
                self.group_index.insert(key.clone(), self.groups.len());
                self.groups.push((key, r.verdict(), vec![i]));
            }
        }
        if self.values.is_empty() {
            self.values = vec![BTreeMap::new(); DRIFT_ATTRIBUTES.len()];
        }
        if let Some(s) = &r.summary {
            for (name, values) in DRIFT_ATTRIBUTES.iter().zip(self.values.iter_mut()) {
                let v = attribute(s, name);
                match values.get_mut(&v) {
                    Some(hosts) => hosts.push(i),
                    None => {
                        values.insert(v, vec![i]);
                    }
                }
            }
        }
        *self.statuses.entry(r.status).or_default() += 1;
        if let Some(v) = r.verdict() {
            *self.verdicts.entry(v as u8).or_default() += 1;
        }
        self.exit_code = Some(self.exit_code.map_or(r.exit_code, |c| c.max(r.exit_code)));
    }

    pub fn hosts(&self) -> usize {
        self.hosts.len()
    }

    pub fn status_count(&self, s: Status) -> usize {
        self.statuses.get(&s).copied().unwrap_or(0)
    }

    pub fn verdict_count(&self, v: Verdict) -> usize {
        self.verdicts.get(&(v as u8)).copied().unwrap_or(0)
    }

    /// The worst host's exit code; 3 when there were no hosts.
    pub fn exit_code(&self) -> i32 {
        self.exit_code.unwrap_or(crate::report::exit::NO_VERDICT)
    }

    fn names(&self, idx: &[u32]) -> Vec<&str> {
        idx.iter()
            .filter_map(|&i| self.hosts.get(i as usize).map(|h| &**h))
            .collect()
    }

    /// The groups, worst first, then largest first.
    pub fn groups(&self) -> Vec<Group> {
        let mut out: Vec<Group> = self
            .groups
            .iter()
            .map(|(k, verdict, idx)| Group {
                count: idx.len(),
                hosts: fold(&self.names(idx)),
                status: k.status,
                verdict: *verdict,
                problems: k.problems.clone(),
                detail: k.detail.clone(),
                exit_code: k.exit_code,
            })
            .collect();
        out.sort_by(|a, b| {
            b.exit_code
                .cmp(&a.exit_code)
                .then(a.status.cmp(&b.status))
                .then(b.count.cmp(&a.count))
                .then(a.hosts.cmp(&b.hosts))
        });
        out
    }

    /// For each attribute on which the hosts that answered do not all agree: the
    /// majority value and the hosts that differ.
    pub fn drift(&self) -> Vec<Drift> {
        let mut out = Vec::new();
        for (&name, by_value) in DRIFT_ATTRIBUTES.iter().zip(&self.values) {
            if by_value.len() < 2 {
                continue;
            }
            let mut values: Vec<(&String, &Vec<u32>)> = by_value.iter().collect();
            // Most common first; ties by value, so the output is stable.
            values.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
            let mut it = values.into_iter();
            let Some((majority, hosts)) = it.next() else {
                continue;
            };
            out.push(Drift {
                attribute: name,
                reference: "majority",
                majority: majority.clone(),
                majority_count: hosts.len(),
                outliers: it.map(|(v, idx)| self.outlier(v, idx)).collect(),
            });
        }
        out
    }

    /// For each attribute on which some host that answered differs from the known-good
    /// node's report: that node's value (in `majority`, with the hosts that share it) and
    /// the hosts that differ, most common value first.
    pub fn drift_from_golden(&self, golden: &super::HostSummary) -> Vec<Drift> {
        let mut out = Vec::new();
        for (&name, by_value) in DRIFT_ATTRIBUTES.iter().zip(&self.values) {
            let want = attribute(golden, name);
            let mut values: Vec<(&String, &Vec<u32>)> =
                by_value.iter().filter(|(v, _)| **v != want).collect();
            if values.is_empty() {
                continue;
            }
            values.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
            out.push(Drift {
                attribute: name,
                reference: "golden",
                majority_count: by_value.get(&want).map_or(0, Vec::len),
                majority: want,
                outliers: values
                    .into_iter()
                    .map(|(v, idx)| self.outlier(v, idx))
                    .collect(),
            });
        }
        out
    }

    fn outlier(&self, value: &str, idx: &[u32]) -> Outlier {
        Outlier {
            value: value.to_string(),
            count: idx.len(),
            hosts: fold(&self.names(idx)),
        }
    }
}

/// A message with the host name taken out, so the same error on two hosts groups.
fn generic(detail: &str, host: &str) -> String {
    let bare = host.rsplit('@').next().unwrap_or(host);
    let bare = bare.split(':').next().unwrap_or(bare);
    if bare.is_empty() {
        detail.to_string()
    } else {
        detail.replace(bare, "HOST")
    }
}

/// Folds host names the way ClusterShell writes node sets: `node01,node02,node03,node07`
/// → `node[01-03,07]`. Names are grouped by what surrounds their last run of digits (and
/// its width); other names are listed as they are. The result is sorted.
pub fn fold(hosts: &[&str]) -> String {
    // (prefix, suffix, width) -> numbers; width 0 for numbers without leading zeros.
    let mut sets: BTreeMap<(String, String, usize), Vec<u64>> = BTreeMap::new();
    let mut plain: Vec<String> = Vec::new();
    for h in hosts {
        match split_number(h) {
            Some((pre, digits, suf)) => {
                let width = if digits.len() > 1 && digits.starts_with('0') {
                    digits.len()
                } else {
                    0
                };
                match digits.parse::<u64>() {
                    Ok(n) => sets
                        .entry((pre.to_string(), suf.to_string(), width))
                        .or_default()
                        .push(n),
                    Err(_) => plain.push((*h).to_string()),
                }
            }
            None => plain.push((*h).to_string()),
        }
    }
    // `node10` (no leading zero) belongs with `node[01-09]` (width 2): a number at least
    // as long as a padded set's width prints the same in it.
    let unpadded: Vec<(String, String)> = sets
        .keys()
        .filter(|(_, _, w)| *w == 0)
        .map(|(p, s, _)| (p.clone(), s.clone()))
        .collect();
    for (pre, suf) in unpadded {
        let widths: Vec<usize> = sets
            .keys()
            .filter(|(p, s, w)| *p == pre && *s == suf && *w > 0)
            .map(|(_, _, w)| *w)
            .collect();
        if widths.is_empty() {
            continue;
        }
        let nums = sets
            .remove(&(pre.clone(), suf.clone(), 0))
            .unwrap_or_default();
        let mut rest = Vec::new();
        for n in nums {
            let len = n.to_string().len();
            match widths.iter().filter(|w| **w <= len).max() {
                Some(w) => sets
                    .entry((pre.clone(), suf.clone(), *w))
                    .or_default()
                    .push(n),
                None => rest.push(n),
            }
        }
        if !rest.is_empty() {
            sets.insert((pre, suf, 0), rest);
        }
    }
    let mut parts: Vec<String> = plain;
    for ((pre, suf, width), mut nums) in sets {
        nums.sort_unstable();
        nums.dedup();
        if nums.len() == 1 {
            parts.push(format!("{pre}{:0width$}{suf}", nums[0]));
            continue;
        }
        let mut ranges: Vec<String> = Vec::new();
        let mut i = 0;
        while i < nums.len() {
            let start = nums[i];
            let mut end = start;
            while i + 1 < nums.len() && nums[i + 1] == end + 1 {
                i += 1;
                end = nums[i];
            }
            ranges.push(if start == end {
                format!("{start:0width$}")
            } else {
                format!("{start:0width$}-{end:0width$}")
            });
            i += 1;
        }
        parts.push(format!("{pre}[{}]{suf}", ranges.join(",")));
    }
    parts.sort();
    parts.join(",")
}

/// `node07.dc` → (`node`, `07`, `.dc`): the last run of ASCII digits.
fn split_number(h: &str) -> Option<(&str, &str, &str)> {
    let bytes = h.as_bytes();
    let end = bytes.iter().rposition(u8::is_ascii_digit)? + 1;
    let start = bytes[..end]
        .iter()
        .rposition(|b| !b.is_ascii_digit())
        .map_or(0, |i| i + 1);
    if end - start > 18 {
        return None;
    }
    Some((&h[..start], &h[start..end], &h[end..]))
}

/// One attribute where some hosts differ from the majority.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Drift {
    /// `driver`, `cuda`, `toolkit`, `torch`, `matrix`, `gpu_model`, `gpu_count`, `gpu_doctor`.
    pub attribute: &'static str,
    /// What the hosts are compared with: `majority`, or `golden` (`--golden REPORT`: the
    /// known-good node's value, which `majority` then holds).
    pub reference: &'static str,
    pub majority: String,
    pub majority_count: usize,
    /// The other values, each with its hosts (folded), most common first.
    pub outliers: Vec<Outlier>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outlier {
    pub value: String,
    pub hosts: String,
    pub count: usize,
}

/// The attributes compared, in the order reported.
pub const DRIFT_ATTRIBUTES: &[&str] = &[
    "driver",
    "cuda",
    "toolkit",
    "torch",
    "matrix",
    "gpu_model",
    "gpu_count",
    "gpu_doctor",
];

fn attribute(s: &super::HostSummary, name: &str) -> String {
    let or_none = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    match name {
        "driver" => or_none(&s.driver),
        "cuda" => or_none(&s.cuda),
        "toolkit" => list(&s.toolkits),
        "torch" => list(&s.torch),
        "matrix" => s.matrix.clone(),
        "gpu_model" => list(&s.gpu_models),
        "gpu_count" => s.gpus.to_string(),
        _ => s.gpu_doctor.clone(),
    }
}

/// For each attribute on which the hosts that answered do not all agree: the majority
/// value and the hosts that differ.
pub fn drift(results: &[HostResult]) -> Vec<Drift> {
    Tally::of(results).drift()
}

/// Drift from a known-good node's report (`--golden`) instead of from the majority.
pub fn drift_from_golden(results: &[HostResult], golden: &super::HostSummary) -> Vec<Drift> {
    Tally::of(results).drift_from_golden(golden)
}

/// Counts per status, in the order of [`Status::ALL`] (zeros left out).
pub fn status_counts(results: &[HostResult]) -> Vec<(Status, usize)> {
    Status::ALL
        .iter()
        .map(|s| (*s, results.iter().filter(|r| r.status == *s).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::HostSummary;

    #[test]
    fn folding_host_names() {
        let names: Vec<String> = (1..=31).map(|i| format!("node{i:02}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(fold(&refs), "node[01-31]");
        assert_eq!(
            fold(&["node03", "node01", "node02", "node07", "gpu-a", "n9", "n10"]),
            "gpu-a,n[9-10],node[01-03,07]"
        );
        assert_eq!(fold(&["node1.dc", "node2.dc", "node2.dc"]), "node[1-2].dc");
        assert_eq!(fold(&["a"]), "a");
        assert_eq!(
            fold(&["n08", "n09", "n10", "n100", "n7"]),
            "n7,n[08-10,100]"
        );
        assert_eq!(fold(&["x5"]), "x5");
        assert_eq!(fold(&[]), "");
        assert_eq!(fold(&["r1-n01", "r1-n02", "r2-n01"]), "r1-n[01-02],r2-n01");
        assert_eq!(
            fold(&["h99999999999999999999999"]),
            "h99999999999999999999999"
        );
    }

    fn host(name: &str, status: Status, summary: Option<HostSummary>) -> HostResult {
        HostResult {
            host: name.into(),
            status,
            exit_code: summary.as_ref().map_or(2, |s| s.exit_code),
            elapsed_ms: 1,
            pushed: false,
            detail: (status != Status::Ok).then(|| format!("ssh: connect to host {name}: boom")),
            summary,
            report: None,
        }
    }

    fn summary(driver: &str, gpus: u32, problems: &[&str]) -> HostSummary {
        HostSummary {
            verdict: if problems.is_empty() {
                Verdict::Healthy
            } else {
                Verdict::Failures
            },
            exit_code: if problems.is_empty() { 0 } else { 2 },
            pass: 10,
            info: 0,
            warn: 0,
            fail: u32::try_from(problems.len()).unwrap(),
            gpus,
            gpu_models: vec!["NVIDIA H100 80GB HBM3".into()],
            driver: Some(driver.into()),
            cuda: Some("12.4".into()),
            toolkits: vec![],
            torch: vec!["2.4.1 (CUDA 12.1)".into()],
            matrix: "2026-11-21".into(),
            gpu_doctor: "0.1.0".into(),
            problems: problems.iter().map(|s| (*s).to_string()).collect(),
            top_finding: None,
            top_summary: None,
        }
    }

    fn fleet() -> Vec<HostResult> {
        let mut v: Vec<HostResult> = (1..=31)
            .map(|i| {
                host(
                    &format!("node{i:02}"),
                    Status::Ok,
                    Some(summary("550.54.15", 8, &[])),
                )
            })
            .collect();
        v[6] = host("node07", Status::Ok, Some(summary("535.104.05", 8, &[])));
        v.push(host(
            "node32",
            Status::Ok,
            Some(summary("550.54.15", 7, &["driver.library_mismatch:fail"])),
        ));
        v.push(host("node33", Status::Unreachable, None));
        v.push(host("node34", Status::Unreachable, None));
        v.push(host("node35", Status::Error, None));
        v.push(host("node36", Status::Error, None));
        v
    }

    #[test]
    fn identical_results_fold_into_one_row() {
        let g = groups(&fleet());
        let rows: Vec<(String, Status, usize)> = g
            .iter()
            .map(|g| (g.hosts.clone(), g.status, g.count))
            .collect();
        assert_eq!(
            rows,
            [
                ("node32".into(), Status::Ok, 1),
                ("node[33-34]".into(), Status::Unreachable, 2),
                ("node[35-36]".into(), Status::Error, 2),
                ("node[01-31]".into(), Status::Ok, 31),
            ]
        );
        assert_eq!(g[0].problems, ["driver.library_mismatch:fail"]);
        assert_eq!(g[0].verdict, Some(Verdict::Failures));
        assert_eq!(
            g[2].detail.as_deref(),
            Some("ssh: connect to host HOST: boom")
        );
        assert_eq!(g[3].verdict, Some(Verdict::Healthy));
    }

    #[test]
    fn drift_names_the_odd_hosts() {
        let d = drift(&fleet());
        let attrs: Vec<&str> = d.iter().map(|d| d.attribute).collect();
        assert_eq!(attrs, ["driver", "gpu_count"]);
        assert_eq!(d[0].majority, "550.54.15");
        assert_eq!(d[0].majority_count, 31);
        assert_eq!(
            d[0].outliers,
            [Outlier {
                value: "535.104.05".into(),
                hosts: "node07".into(),
                count: 1
            }]
        );
        assert_eq!(d[1].majority, "8");
        assert_eq!(d[1].outliers[0].hosts, "node32");
        assert_eq!(d[1].outliers[0].value, "7");
        // A uniform fleet has no drift.
        assert!(drift(&fleet()[..5]).is_empty());
    }

    #[test]
    fn drift_from_a_golden_node() {
        // The golden node runs the driver only node07 has: the other 31 answering hosts drift.
        let golden = summary("535.104.05", 8, &[]);
        let d = drift_from_golden(&fleet(), &golden);
        let attrs: Vec<&str> = d.iter().map(|d| d.attribute).collect();
        assert_eq!(attrs, ["driver", "gpu_count"]);
        assert_eq!(d[0].reference, "golden");
        assert_eq!(d[0].majority, "535.104.05");
        assert_eq!(d[0].majority_count, 1);
        assert_eq!(d[0].outliers.len(), 1);
        assert_eq!(d[0].outliers[0].hosts, "node[01-06,08-32]");
        assert_eq!(d[0].outliers[0].count, 31);
        assert_eq!(d[1].outliers[0].hosts, "node32");
        // Hosts that did not answer are not compared; a fleet equal to its golden node has none.
        assert!(drift_from_golden(&fleet()[..5], &summary("550.54.15", 8, &[])).is_empty());
    }

    #[test]
    fn the_tally_does_not_depend_on_the_order_hosts_come_in() {
        let mut reversed = fleet();
        reversed.reverse();
        let mut t = Tally::default();
        for r in &reversed {
            t.add(r);
        }
        assert_eq!(t.groups(), groups(&fleet()));
        assert_eq!(t.drift(), drift(&fleet()));
        assert_eq!(t.hosts(), 36);
        assert_eq!(t.status_count(Status::Unreachable), 2);
        assert_eq!(t.verdict_count(Verdict::Healthy), 31);
        assert_eq!(t.exit_code(), 2);
        assert_eq!(Tally::default().exit_code(), 3);
    }

    #[test]
    fn counts_per_status() {
        assert_eq!(
            status_counts(&fleet()),
            [
                (Status::Ok, 32),
                (Status::Unreachable, 2),
                (Status::Error, 2)
            ]
        );
    }
}
