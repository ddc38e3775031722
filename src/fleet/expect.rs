//! `fleet --expect PROFILE`: every host judged against one profile, read once here and
//! applied to each host's report as `gpu-doctor --expect PROFILE` on that host would
//! judge it. The profile is never copied to the hosts: `host.drift` and
//! `host.expected_gpus` are pure functions of the facts every report carries.

use crate::checks::expect::Profile;
use crate::checks::{self, CheckOptions, Selection, HOST_DRIFT, HOST_EXPECTED_GPUS};
use crate::matrix::Matrix;
use crate::report::Report;

/// The profile and the matrix the checks are run with (neither check reads the matrix;
/// the checks' context needs one).
#[derive(Debug, Clone)]
pub struct Expectation {
    pub profile: Profile,
    pub matrix: Matrix,
}

impl Expectation {
    /// Judges `report` against the profile: its `host.drift` findings are replaced by the
    /// profile's; `host.expected_gpus` is judged from the profile's `gpus` unless the host
    /// judged it already (its own `--expect-gpus`, which wins as it does on one host).
    pub fn apply(&self, report: &mut Report) {
        let host_judged_count = report
            .findings
            .iter()
            .any(|f| f.id == HOST_EXPECTED_GPUS.id);
        let mut ids = vec![HOST_DRIFT.id];
        let opts = CheckOptions {
            expect_gpus: if host_judged_count {
                None
            } else {
                ids.push(HOST_EXPECTED_GPUS.id);
                self.profile.gpus
            },
            expect: Some(self.profile.clone()),
        };
        let selection = Selection {
            only: ids.iter().map(|s| (*s).to_string()).collect(),
            skip: Vec::new(),
        };
        let (findings, errors) = checks::evaluate(&report.facts, &self.matrix, &opts, &selection);
        report.check_errors.extend(errors);
        report.rejudge(&ids, findings);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Severity;

    fn fixture(name: &str) -> Report {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/fixtures/reports/{name}.json"));
        Report::from_json(&std::fs::read(path).unwrap()).unwrap()
    }

    fn expectation(toml: &str) -> Expectation {
        Expectation {
            profile: Profile::from_toml(toml, "node.toml").unwrap(),
            matrix: Matrix::bundled().unwrap(),
        }
    }

    #[test]
    fn a_drifted_host_gets_the_profiles_findings_and_its_exit_code() {
        let mut r = fixture("healthy_8gpu");
        assert_eq!(r.exit_code, 0);
        expectation("gpus = 16\ndriver_branch = \"550\"\n").apply(&mut r);
        let drift: Vec<_> = r.findings.iter().filter(|f| f.id == "host.drift").collect();
        assert_eq!(drift.len(), 1, "{drift:?}");
        assert_eq!(drift[0].severity, Severity::Warn);
        assert!(drift[0].summary.contains("550"), "{}", drift[0].summary);
        let count = r.findings.iter().find(|f| f.id == "host.expected_gpus");
        assert_eq!(count.map(|f| f.severity), Some(Severity::Fail));
        assert_eq!(r.exit_code, 2);
        assert_eq!(r.summary.fail, 1);
        assert_eq!(r.summary.warn, 1);
        // Failures first, as a report made on the host orders them.
        assert_eq!(r.findings[0].id, "host.expected_gpus");
    }

    #[test]
    fn a_matching_host_passes_and_a_second_apply_changes_nothing() {
        let mut r = fixture("healthy_8gpu");
        let passes = r.summary.pass;
        let e = expectation("gpus = 8\ngpu_model = \"NVIDIA H100 80GB HBM3\"\n");
        e.apply(&mut r);
        assert_eq!(r.exit_code, 0);
        assert_eq!(r.summary.pass, passes + 2);
        let once = r.clone();
        e.apply(&mut r);
        assert_eq!(r.findings, once.findings);
        assert_eq!(r.summary, once.summary);
    }

    #[test]
    fn the_hosts_own_expect_gpus_wins_over_the_profiles_gpus() {
        let mut r = fixture("healthy_8gpu");
        // As if the host ran `gpu-doctor --json --expect-gpus 8`.
        expectation("gpus = 8\n").apply(&mut r);
        expectation("gpus = 16\ndriver_branch = \"580\"\n").apply(&mut r);
        let count = r.findings.iter().find(|f| f.id == "host.expected_gpus");
        assert_eq!(count.map(|f| f.severity), Some(Severity::Pass));
        assert_eq!(r.exit_code, 0);
    }
}
