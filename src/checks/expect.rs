//! `--expect PROFILE`: what this node should be (GPU count and model, NVLinks per GPU,
//! driver branch, CUDA, torch), from a TOML profile or derived from a saved golden
//! report, and `host.drift` for each way the machine differs from it.
//!
//! The GPU count is judged by `host.expected_gpus` (the profile's `gpus` is what
//! `--expect-gpus` would say; an explicit `--expect-gpus` wins); `host.drift` judges the
//! rest. Only what was observed is compared: an item the facts do not hold (no NVML, no
//! torch found) is said, never guessed.

use serde::{Deserialize, Serialize};

use super::catalogue::{Action, Area, Check, PasteGap};
use super::view;
use super::Ctx;
use crate::facts::Facts;
use crate::finding::{Finding, Scope, Severity};

/// What a node should be. Every item is optional; a profile names at least one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// GPUs CUDA can use (at least).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpus: Option<u32>,
    /// The name NVML gives every GPU, e.g. "NVIDIA H100 80GB HBM3".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_model: Option<String>,
    /// Active NVLink links on every GPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvlinks_per_gpu: Option<u32>,
    /// The driver branch (major version), e.g. "550".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_branch: Option<String>,
    /// The CUDA version the driver supports (nvidia-smi's "CUDA Version"), e.g. "12.4".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda: Option<String>,
    /// A torch version some environment must have: "2.4.1" matches any build of it,
    /// "2.4.1+cu124" only that one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torch: Option<String>,
    /// Where the profile came from (file name, "golden report FILE"), for evidence.
    #[serde(skip)]
    pub source: String,
}

impl Profile {
    /// A TOML profile; the error says what is wrong with it.
    pub fn from_toml(text: &str, source: &str) -> Result<Profile, String> {
        let mut p: Profile = toml::from_str(text).map_err(|e| e.to_string())?;
        p.source = source.to_string();
        p.validate()?;
        Ok(p)
    }

    /// The profile a saved (golden) report's facts describe: the GPUs NVML listed (their
    /// count, their model when they all share one, their active NVLinks when all have
    /// the same number), the driver branch, the CUDA version the driver supports, and
    /// the torch version when the report found exactly one.
    pub fn from_facts(facts: &Facts, source: &str) -> Result<Profile, String> {
        let devices = view::nvml_devices(facts);
        let names: Vec<&String> = devices.iter().filter_map(|d| d.name.value()).collect();
        let gpu_model = match names.first() {
            Some(first) if names.len() == devices.len() && names.iter().all(|n| n == first) => {
                Some((*first).clone())
            }
            _ => None,
        };
        let links: Vec<u32> = devices
            .iter()
            .filter_map(|d| d.nvlinks.value())
            .map(|l| count_u32(l.iter().filter(|x| x.active).count()))
            .collect();
        let nvlinks_per_gpu = match links.first() {
            Some(&n) if links.len() == devices.len() && links.iter().all(|&x| x == n) => Some(n),
            _ => None,
        };
        let usable = view::usable_gpus(facts);
        let gpus = (usable > 0)
            .then_some(usable)
            .or_else(|| (!devices.is_empty()).then(|| count_u32(devices.len())));
        let mut torch: Vec<String> = torch_versions(facts);
        torch.dedup();
        let p = Profile {
            gpus,
            gpu_model,
            nvlinks_per_gpu,
            driver_branch: view::driver_version(facts).map(|v| v.major().to_string()),
            cuda: view::nvml(facts).and_then(|n| n.cuda_driver_version.value().cloned()),
            torch: (torch.len() == 1).then(|| torch.remove(0)),
            source: source.to_string(),
        };
        if p.is_empty() {
            return Err("the report holds no GPU, driver or torch facts to expect".to_string());
        }
        Ok(p)
    }

    fn is_empty(&self) -> bool {
        self.gpus.is_none()
            && self.gpu_model.is_none()
            && self.nvlinks_per_gpu.is_none()
            && self.driver_branch.is_none()
            && self.cuda.is_none()
            && self.torch.is_none()
    }

    fn validate(&self) -> Result<(), String> {
        if self.is_empty() {
            return Err("the profile names nothing to expect (keys: gpus, gpu_model, nvlinks_per_gpu, driver_branch, cuda, torch)".to_string());
        }
        if let Some(b) = &self.driver_branch {
            if b.is_empty() || !b.chars().all(|c| c.is_ascii_digit()) {
                return Err(format!(
                    "driver_branch {b:?} is not a driver branch (its major version, e.g. \"550\")"
                ));
            }
        }
        if let Some(c) = &self.cuda {
            let ok = c.split_once('.').is_some_and(|(a, b)| num(a) && num(b));
            if !ok {
                return Err(format!("cuda {c:?} is not a CUDA version such as \"12.4\""));
            }
        }
        if let Some(t) = &self.torch {
            if !t.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                return Err(format!(
                    "torch {t:?} is not a torch version such as \"2.4.1\""
                ));
            }
        }
        if let Some(m) = &self.gpu_model {
            if m.trim().is_empty() {
                return Err("gpu_model is empty".to_string());
            }
        }
        Ok(())
    }
}

fn num(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Every torch version found, in environment order.
fn torch_versions(facts: &Facts) -> Vec<String> {
    facts
        .python
        .iter()
        .flat_map(|e| e.torch.iter())
        .filter_map(|t| t.version.value().cloned())
        .collect()
}

/// "2.4.1" matches "2.4.1" and "2.4.1+cu124"; "2.4.1+cu124" only itself.
fn torch_matches(expected: &str, found: &str) -> bool {
    found == expected || (!expected.contains('+') && found.split('+').next() == Some(expected))
}

pub const HOST_DRIFT: Check = Check {
    id: "host.drift",
    name: "host.profile",
    area: Area::Host,
    title: "the node matches its --expect profile",
    failing: "the node differs from its `--expect` profile: another GPU model or fewer active NVLinks per GPU (fail), another driver branch, CUDA or torch (warn)",
    why: "A node that drifted from its golden profile runs jobs differently from its peers, or not at all.",
    next_step: "Bring the node back to its profile (hardware: drain and inspect; software: reinstall the expected versions).",
    action: Action::Drain,
    reads: &["driver_api", "kernel_module", "python", "options"],
    not_in_paste: Some(PasteGap {
        what: "the GPUs, driver and torch of the node",
        how: "`gpu-doctor --expect PROFILE` on the machine",
    }),
    run: drift,
};

pub fn drift(ctx: &Ctx) -> Vec<Finding> {
    let Some(p) = &ctx.opts.expect else {
        return Vec::new();
    };
    let f = ctx.facts;
    let id = &HOST_DRIFT;
    let mut findings = Vec::new();
    let mut matched = Vec::new();
    let devices = view::nvml_devices(f);
    let profile = if p.source.is_empty() {
        "the profile".to_string()
    } else {
        p.source.clone()
    };
    let gpu_label = |d: &crate::facts::driver_api::NvmlDevice| format!("GPU {}", d.index);
    let gpu_scope = |d: &crate::facts::driver_api::NvmlDevice| Scope::Gpu {
        index: Some(d.index),
        pci_bus_id: d.pci_bus_id.value().cloned(),
    };

    if let Some(model) = &p.gpu_model {
        let mut checked = 0;
        for d in devices {
            let Some(name) = d.name.value() else { continue };
            checked += 1;
            if name != model {
                findings.push(
                    id.finding(
                        Severity::Fail,
                        format!("{} is {name:?}, expected {model:?}", gpu_label(d)),
                    )
                    .scope(gpu_scope(d))
                    .details(format!(
                        "{profile} expects every GPU to be {model:?}; NVML names this one {name:?}. \
                         A swapped board or a wrong node in the pool runs jobs sized for another GPU."
                    ))
                    .evidence("expect.gpu_model", model)
                    .evidence(&format!("driver_api.nvml.devices[{}].name", d.index), name)
                    .fix("Check the node's inventory against its profile.", &["nvidia-smi -L"]),
                );
            }
        }
        if checked > 0 {
            matched.push("GPU model");
        }
    }

    if let Some(want) = p.nvlinks_per_gpu {
        let mut checked = 0;
        for d in devices.iter().filter(|d| !d.lost) {
            let Some(links) = d.nvlinks.value() else {
                continue;
            };
            checked += 1;
            let active = count_u32(links.iter().filter(|l| l.active).count());
            if active != want {
                let (sev, action) = if active < want {
                    (Severity::Fail, Action::Drain)
                } else {
                    // More links than the profile names: the profile is out of date.
                    (Severity::Warn, Action::None)
                };
                findings.push(
                    id.finding(
                        sev,
                        format!(
                            "{} has {active} active NVLink links, expected {want}",
                            gpu_label(d)
                        ),
                    )
                    .scope(gpu_scope(d))
                    .action(action)
                    .details(format!(
                        "{profile} expects {want} active NVLink links per GPU; NVML reports {active} \
                         active of {} on this one.",
                        links.len()
                    ))
                    .evidence("expect.nvlinks_per_gpu", want)
                    .evidence(
                        &format!("driver_api.nvml.devices[{}].nvlinks", d.index),
                        format!("{active} active of {}", links.len()),
                    )
                    .fix_owned(
                        "Compare the link states; gpu.nvlink_down says which link is down.",
                        vec![format!("nvidia-smi nvlink --status -i {}", d.index)],
                    ),
                );
            }
        }
        if checked > 0 {
            matched.push("NVLinks per GPU");
        }
    }

    if let Some(branch) = &p.driver_branch {
        if let Some(v) = view::driver_version(f) {
            let found = v.major().to_string();
            if &found != branch {
                findings.push(software_drift(
                    id,
                    &profile,
                    "driver branch",
                    branch,
                    &v.to_string(),
                    "expect.driver_branch",
                    "kernel_module.version",
                    format!("Install the R{branch} driver branch the profile names (and reboot)."),
                ));
            } else {
                matched.push("driver branch");
            }
        }
    }

    if let Some(cuda) = &p.cuda {
        if let Some(found) = view::nvml(f).and_then(|n| n.cuda_driver_version.value()) {
            if found != cuda {
                findings.push(software_drift(
                    id,
                    &profile,
                    "CUDA version the driver supports",
                    cuda,
                    found,
                    "expect.cuda",
                    "driver_api.nvml.cuda_driver_version",
                    format!("Install the driver whose CUDA version is {cuda}, as the profile's nodes run."),
                ));
            } else {
                matched.push("CUDA");
            }
        }
    }

    if let Some(torch) = &p.torch {
        let found = torch_versions(f);
        if !found.iter().any(|v| torch_matches(torch, v)) {
            let shown = if found.is_empty() {
                "no torch".to_string()
            } else {
                found.join(", ")
            };
            findings.push(software_drift(
                id,
                &profile,
                "torch",
                torch,
                &shown,
                "expect.torch",
                "python[].torch[].version",
                format!(
                    "Install torch {torch} in the job's environment (pip install torch=={})",
                    torch.split('+').next().unwrap_or(torch)
                ),
            ));
        } else {
            matched.push("torch");
        }
    }

    if findings.is_empty() {
        if matched.is_empty() {
            return vec![id
                .finding(
                    Severity::Info,
                    format!("Nothing {profile} names could be compared on this machine"),
                )
                .details("The facts the profile's items rest on (NVML's GPUs, the driver, torch) were not gathered here; other findings say why.")];
        }
        return vec![id.finding(
            Severity::Pass,
            format!("Matches {profile}: {}", matched.join(", ")),
        )];
    }
    findings
}

#[allow(clippy::too_many_arguments)]
fn software_drift(
    id: &Check,
    profile: &str,
    what: &str,
    expected: &str,
    found: &str,
    expected_path: &str,
    found_path: &str,
    fix: String,
) -> Finding {
    id.finding(
        Severity::Warn,
        format!("{what}: found {found}, expected {expected}"),
    )
    .action(Action::FixSoftware)
    .details(format!(
        "{profile} expects {what} {expected}; this machine has {found}. Jobs validated on the \
         profile's nodes may behave differently here."
    ))
    .evidence(expected_path, expected)
    .evidence(found_path, found)
    .fix(fix, &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::checks::CheckOptions;

    fn drift_of(facts: &Facts, p: Profile) -> Vec<Finding> {
        let opts = CheckOptions {
            expect: Some(p),
            ..CheckOptions::default()
        };
        let ctx = Ctx {
            facts,
            opts: &opts,
            matrix: matrix(),
        };
        drift(&ctx)
    }

    #[test]
    fn toml_profiles_parse_and_bad_ones_say_why() {
        let p = Profile::from_toml(
            "gpus = 8\ngpu_model = \"NVIDIA H100 80GB HBM3\"\nnvlinks_per_gpu = 18\ndriver_branch = \"550\"\ncuda = \"12.4\"\ntorch = \"2.4.1\"\n",
            "node.toml",
        )
        .unwrap();
        assert_eq!(p.gpus, Some(8));
        assert_eq!(p.nvlinks_per_gpu, Some(18));
        assert_eq!(p.source, "node.toml");
        for (text, says) in [
            ("", "names nothing"),
            ("gpus = \"eight\"", "invalid type"),
            ("gpu = 8", "unknown field"),
            ("driver_branch = \"r550\"", "not a driver branch"),
            ("cuda = \"12\"", "not a CUDA version"),
            ("torch = \"latest\"", "not a torch version"),
            ("gpus = 8\n[[", "expected"),
            ("gpus = -1", "invalid value"),
        ] {
            let e = Profile::from_toml(text, "p.toml").unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_golden_report_gives_its_profile() {
        let facts = healthy();
        let p = Profile::from_facts(&facts, "golden.json").unwrap();
        assert_eq!(p.gpu_model.as_deref(), Some("NVIDIA H100 80GB HBM3"));
        assert_eq!(p.nvlinks_per_gpu, Some(18));
        assert!(p.driver_branch.is_some());
        // The same machine matches its own profile.
        let got = drift_of(&facts, p);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].severity, Severity::Pass, "{got:?}");
        assert!(no_gpu_profile_is_an_error());
    }

    fn no_gpu_profile_is_an_error() -> bool {
        let mut facts = no_gpu();
        facts.python.clear();
        Profile::from_facts(&facts, "empty.json").is_err()
    }

    #[test]
    fn each_drift_names_expected_and_found() {
        let facts = healthy();
        let mut p = Profile::from_facts(&facts, "golden.json").unwrap();
        p.gpu_model = Some("NVIDIA A100-SXM4-80GB".into());
        p.nvlinks_per_gpu = Some(12);
        p.driver_branch = Some("535".into());
        p.cuda = Some("12.2".into());
        p.torch = Some("9.9.9".into());
        let got = drift_of(&facts, p);
        let sev: Vec<(Severity, &str)> = got
            .iter()
            .map(|f| (f.severity, f.summary.as_str()))
            .collect();
        assert_eq!(got.len(), 5, "{sev:?}");
        assert_eq!(got[0].severity, Severity::Fail);
        assert!(
            got[0]
                .summary
                .contains("expected \"NVIDIA A100-SXM4-80GB\""),
            "{sev:?}"
        );
        // More links than expected: a warning, not a failure.
        assert_eq!(got[1].severity, Severity::Warn);
        assert_eq!(got[1].action, Some(Action::None));
        assert!(got[1]
            .summary
            .contains("18 active NVLink links, expected 12"));
        for f in &got[2..] {
            assert_eq!(f.severity, Severity::Warn);
            assert_eq!(f.action, Some(Action::FixSoftware));
            assert!(
                f.summary.contains("found") && f.summary.contains("expected"),
                "{}",
                f.summary
            );
        }
        assert!(got[4].summary.contains("expected 9.9.9"));
    }

    #[test]
    fn fewer_nvlinks_than_the_profile_fail() {
        let mut facts = healthy();
        if let crate::fact::Fact::Known { value: nvml } = &mut facts.driver_api.nvml {
            if let crate::fact::Fact::Known { value: devices } = &mut nvml.devices {
                if let crate::fact::Fact::Known { value: links } = &mut devices[0].nvlinks {
                    links[3].active = false;
                }
            }
        }
        let p = Profile {
            nvlinks_per_gpu: Some(18),
            ..Profile::default()
        };
        let got = drift_of(&facts, p);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].severity, Severity::Fail);
        assert_eq!(got[0].action, Some(Action::Drain));
        assert!(got[0].summary.contains("17 active"));
    }

    #[test]
    fn torch_versions_match_with_or_without_the_local_part() {
        assert!(torch_matches("2.4.1", "2.4.1+cu124"));
        assert!(torch_matches("2.4.1", "2.4.1"));
        assert!(torch_matches("2.4.1+cu124", "2.4.1+cu124"));
        assert!(!torch_matches("2.4.1+cu121", "2.4.1+cu124"));
        assert!(!torch_matches("2.4", "2.4.1"));
    }
}
