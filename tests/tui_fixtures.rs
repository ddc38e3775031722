#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The committed fixture reports are what the generator makes from this build's types and
//! checks (`GPU_DOCTOR_UPDATE_FIXTURES=1 cargo test --test tui_fixtures` rewrites them).

mod tui_reports;

use gpu_doctor::report::finding::Severity;
use gpu_doctor::report::Verdict;

#[test]
fn committed_fixtures_match_the_generator() {
    let update = std::env::var_os("GPU_DOCTOR_UPDATE_FIXTURES").is_some();
    for name in tui_reports::NAMES {
        let report = tui_reports::generate(name);
        let json = serde_json::to_string_pretty(&report).unwrap() + "\n";
        let path = tui_reports::path(name);
        if update {
            std::fs::create_dir_all(tui_reports::dir()).unwrap();
            std::fs::write(&path, &json).unwrap();
        }
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            committed == json,
            "{} is stale: GPU_DOCTOR_UPDATE_FIXTURES=1 cargo test --test tui_fixtures",
            path.display()
        );
        assert_eq!(tui_reports::load(name), report);
    }
}

#[test]
fn fixtures_show_what_their_names_say() {
    let healthy = tui_reports::load("healthy_8gpu");
    assert_eq!(healthy.summary.verdict, Verdict::Healthy);
    assert!(healthy.findings.len() >= 100);
    let has = |name: &str, id: &str, sev: Severity| {
        tui_reports::load(name)
            .findings
            .iter()
            .any(|f| f.id == id && f.severity == sev)
    };
    assert!(has("no_driver", "driver.not_installed", Severity::Fail));
    assert!(has(
        "mismatched_driver",
        "driver.library_mismatch",
        Severity::Fail
    ));
    assert!(has(
        "rtx5090_old_wheel",
        "torch.arch_unsupported",
        Severity::Fail
    ));
    assert!(has("probe_timeout", "probe.launch", Severity::Fail));
    assert!(has(
        "container_no_gpu",
        "host.container_no_gpu",
        Severity::Fail
    ));
}

/// A matrix release changes the bundled matrix's version: the fixtures must not name it,
/// or every release would rewrite them (and the snapshots drawn from them).
#[test]
fn fixtures_do_not_name_the_matrix_release() {
    let version = gpu_doctor::matrix::bundled().version;
    assert_ne!(version, tui_reports::MATRIX_VERSION);
    for name in tui_reports::NAMES {
        let text = std::fs::read_to_string(tui_reports::path(name)).unwrap();
        assert!(!text.contains(&version), "{name} names matrix {version}");
        assert_eq!(
            tui_reports::load(name).matrix.version,
            tui_reports::MATRIX_VERSION
        );
    }
}
