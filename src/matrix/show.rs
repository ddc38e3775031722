//! `gpu-doctor matrix show`: direct answers from the matrix ("which builds run on an RTX
//! 5090?", "what does torch 2.4.1 need?", "what runs on driver 535?"), as text or JSON.

use std::fmt::Write as _;

use serde::Serialize;

use super::query::{install_command, variant_arch_list, DriverFit};
use super::schema::{Gpu, Segment, TorchRelease, TorchVariant};
use super::Matrix;
use crate::arch_list::{coverage, Coverage};
use crate::version::DottedVersion;

#[derive(Debug, Serialize)]
pub struct GpuAnswer {
    pub name: String,
    pub aliases: Vec<String>,
    pub pci_ids: Vec<String>,
    pub compute_capability: String,
    pub architecture: String,
    pub segment: Segment,
    pub memory_gib: Option<f64>,
    pub bandwidth_gbs: Option<f64>,
    /// First and last CUDA toolkit whose nvcc targets it.
    pub toolkits: String,
    /// First driver branch known to drive it.
    pub min_driver_branch: Option<u32>,
    pub last_driver_branch: Option<u32>,
    pub open_module_required: bool,
    /// NVLink links the product always has wired (0: a PCIe card, bridge optional).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nvlinks: Option<u32>,
    /// PyTorch builds (Linux x86_64) with kernels for it, newest first.
    pub torch_builds: Vec<BuildAnswer>,
}

#[derive(Debug, Serialize)]
pub struct BuildAnswer {
    pub torch: String,
    pub variant: String,
    pub cuda: String,
    /// "native" (SASS) or "ptx" (JIT-compiled at first use).
    pub kernels: &'static str,
    pub min_driver: Option<String>,
    /// The driver it needs on this GPU, in words ("driver 570.26 or newer").
    pub driver: String,
    pub install: String,
}

#[derive(Debug, Serialize)]
pub struct TorchAnswer {
    pub release: String,
    pub patches: Vec<String>,
    pub released: Option<String>,
    pub python: Vec<String>,
    pub pypi_default: Option<String>,
    pub variants: Vec<VariantAnswer>,
}

#[derive(Debug, Serialize)]
pub struct VariantAnswer {
    pub name: String,
    pub cuda: String,
    pub min_driver: Option<String>,
    /// The lowest driver it runs on through minor version compatibility.
    pub mvc_floor: Option<String>,
    pub arch_linux_x86_64: Vec<String>,
    pub arch_linux_aarch64: Option<Vec<String>>,
    pub arch_windows: Option<Vec<String>>,
    pub cudnn: Option<String>,
    pub nccl: Option<String>,
    pub install: String,
}

#[derive(Debug, Serialize)]
pub struct DriverAnswer {
    pub driver: String,
    pub branch: Option<u32>,
    pub max_cuda: Option<String>,
    pub kind: Option<String>,
    pub eol: Option<String>,
    /// True when the end of life lies before the matrix date.
    pub eol_passed: bool,
    pub min_cc: Option<String>,
    /// PyTorch variants whose CUDA this driver supports fully, newest first.
    pub torch_full: Vec<String>,
    /// Variants it runs only through minor version compatibility.
    pub torch_minor_version_compat: Vec<String>,
}

/// The builds with kernels (or PTX) for compute capability `major.minor` that a driver of
/// the GPU can run: within its last driver branch where it has one (fully, or with native
/// kernels through minor version compatibility), and whose cuDNN supports the GPU.
fn builds_for_cc(m: &Matrix, major: u32, minor: u32) -> Vec<BuildAnswer> {
    let last = m
        .arch(&format!("{major}.{minor}"))
        .and_then(|a| a.last_driver_branch);
    // A release of the last branch newer than any the matrix names: the most that branch can do.
    let last_driver = last.and_then(|b| DottedVersion::parse(&format!("{b}.9999.99")));
    let mut releases: Vec<&TorchRelease> = m.torch.release.iter().collect();
    releases
        .sort_by(|a, b| DottedVersion::parse(&b.version).cmp(&DottedVersion::parse(&a.version)));
    let mut out = Vec::new();
    for rel in releases {
        let mut variants: Vec<&TorchVariant> = rel.variant.iter().collect();
        variants.sort_by(|a, b| DottedVersion::parse(&b.cuda).cmp(&DottedVersion::parse(&a.cuda)));
        for var in variants {
            let Some(list) = variant_arch_list(var, "linux_x86_64") else {
                continue;
            };
            let targets: Vec<String> = list
                .iter()
                .flat_map(|e| {
                    let s = e.suffix.map(String::from).unwrap_or_default();
                    let mut v = vec![format!("sm_{}{}{s}", e.major, e.minor)];
                    if e.ptx {
                        v.push(format!("compute_{}{}{s}", e.major, e.minor));
                    }
                    v
                })
                .collect();
            let kernels = match coverage(&targets, major, minor) {
                Coverage::Sass(_) => "native",
                Coverage::PtxOnly(_) => "ptx",
                Coverage::None => continue,
            };
            if !m.variant_runs(var, &[(major, minor)], last_driver.as_ref(), "linux_x86_64") {
                continue;
            }
            let min_driver = m.min_driver_for_cuda(&var.cuda);
            let driver = match (last, &min_driver) {
                (Some(l), Some(d)) if d.major() > u64::from(l) => {
                    format!("driver R{l} (its last branch) through minor version compatibility")
                }
                (_, Some(d)) => format!("driver {d} or newer"),
                (_, None) => "driver ?".to_string(),
            };
            out.push(BuildAnswer {
                torch: rel.version.clone(),
                variant: var.name.clone(),
                cuda: var.cuda.clone(),
                kernels,
                min_driver: min_driver.map(|v| v.to_string()),
                driver,
                install: install_command("python3", rel, var),
            });
        }
    }
    out
}

pub fn gpu(m: &Matrix, query: &str) -> Vec<GpuAnswer> {
    let products: Vec<&Gpu> = match m.gpu_by_pci_id(query) {
        Some(g) => vec![g],
        None => m.search_gpus(query),
    };
    products
        .into_iter()
        .map(|g| {
            let arch = m.arch(&g.cc);
            let (major, minor) = crate::arch_list::parse_cc(&g.cc).unwrap_or((0, 0));
            let toolkits = match arch {
                Some(a) => match &a.last_toolkit {
                    Some(last) => format!("CUDA {} to {last}", a.first_toolkit),
                    None => format!("CUDA {} and newer", a.first_toolkit),
                },
                None => "unknown".into(),
            };
            GpuAnswer {
                name: g.name.clone(),
                aliases: g.aliases.clone(),
                pci_ids: g.pci_ids.clone(),
                compute_capability: g.cc.clone(),
                architecture: g.architecture.clone(),
                segment: g.segment,
                memory_gib: g.memory_gib,
                bandwidth_gbs: g.bandwidth_gbs,
                toolkits,
                min_driver_branch: arch.and_then(|a| a.min_driver_branch),
                last_driver_branch: arch.and_then(|a| a.last_driver_branch),
                open_module_required: g
                    .open_module_required
                    .unwrap_or_else(|| arch.is_some_and(|a| a.open_module_required)),
                nvlinks: g.nvlinks,
                torch_builds: builds_for_cc(m, major, minor),
            }
        })
        .collect()
}

fn variant_answer(m: &Matrix, rel: &TorchRelease, var: &TorchVariant) -> VariantAnswer {
    let major = DottedVersion::parse(&var.cuda).map_or(0, |v| v.major());
    VariantAnswer {
        name: var.name.clone(),
        cuda: var.cuda.clone(),
        min_driver: m.min_driver_for_cuda(&var.cuda).map(|v| v.to_string()),
        mvc_floor: m.mvc(major).map(|x| x.min_driver_linux.clone()),
        arch_linux_x86_64: var.arch_linux_x86_64.clone(),
        arch_linux_aarch64: var.arch_linux_aarch64.clone(),
        arch_windows: var.arch_windows.clone(),
        cudnn: var.cudnn.clone(),
        nccl: var.nccl.clone(),
        install: install_command("python3", rel, var),
    }
}

pub fn torch(m: &Matrix, version: &str) -> Option<TorchAnswer> {
    let rel = m.torch_release(version)?;
    Some(TorchAnswer {
        release: rel.version.clone(),
        patches: rel.patches.clone(),
        released: rel.released.clone(),
        python: rel.python.clone(),
        pypi_default: rel.pypi_default.clone(),
        variants: rel
            .variant
            .iter()
            .map(|v| variant_answer(m, rel, v))
            .collect(),
    })
}

pub fn driver(m: &Matrix, version: &str) -> Option<DriverAnswer> {
    let d = DottedVersion::parse(version)?;
    let b = m.branch(&d);
    let mut releases: Vec<&TorchRelease> = m.torch.release.iter().collect();
    releases
        .sort_by(|a, b| DottedVersion::parse(&b.version).cmp(&DottedVersion::parse(&a.version)));
    let (mut full, mut mvc) = (Vec::new(), Vec::new());
    for rel in releases {
        for var in &rel.variant {
            let label = format!("torch {} {}", rel.version, var.name);
            match m.driver_fit(&d, &var.cuda) {
                DriverFit::Full => full.push(label),
                DriverFit::MinorVersionCompat { .. } => mvc.push(label),
                DriverFit::TooOld { .. } | DriverFit::Unknown => {}
            }
        }
    }
    Some(DriverAnswer {
        driver: d.to_string(),
        branch: b.map(|b| b.branch),
        max_cuda: b.map(|b| b.max_cuda.clone()),
        kind: b
            .and_then(|b| serde_json::to_value(b.kind).ok())
            .and_then(|v| v.as_str().map(str::to_string)),
        eol: b.and_then(|b| b.eol.clone()),
        eol_passed: b.is_some_and(|b| m.branch_past_eol(b)),
        min_cc: b.map(|b| b.min_cc.clone()),
        torch_full: full,
        torch_minor_version_compat: mvc,
    })
}

pub fn gpu_text(answers: &[GpuAnswer]) -> String {
    let mut out = String::new();
    for a in answers {
        let segment = serde_json::to_value(a.segment)
            .ok()
            .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{}  (sm_{}, {}, {segment})",
            a.name,
            a.compute_capability.replace('.', ""),
            a.architecture
        );
        if !a.pci_ids.is_empty() {
            let _ = writeln!(
                out,
                "  PCI ids         {}",
                a.pci_ids
                    .iter()
                    .map(|i| format!("10de:{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let _ = writeln!(out, "  toolkits        {}", a.toolkits);
        let _ = writeln!(
            out,
            "  driver          {}{}{}",
            match a.min_driver_branch {
                Some(b) => format!("R{b} or newer"),
                None if a.segment == crate::matrix::schema::Segment::Jetson =>
                    "the Jetson Linux (L4T) driver".to_string(),
                None => "first branch not recorded in this matrix".to_string(),
            },
            a.last_driver_branch
                .map_or(String::new(), |b| format!(", up to R{b}")),
            if a.open_module_required {
                ", open kernel modules only"
            } else {
                ""
            }
        );
        match a.nvlinks {
            Some(0) => {
                let _ = writeln!(out, "  NVLink          none wired (a bridge is optional)");
            }
            Some(n) => {
                let _ = writeln!(out, "  NVLink          {n} links");
            }
            None => {}
        }
        match a.torch_builds.first() {
            None => {
                let _ = writeln!(
                    out,
                    "  PyTorch         no published build has kernels for it"
                );
            }
            Some(newest) => {
                let _ = writeln!(
                    out,
                    "  PyTorch         {} builds; newest: torch {} {} ({} kernels, {})",
                    a.torch_builds.len(),
                    newest.torch,
                    newest.variant,
                    newest.kernels,
                    newest.driver
                );
                let _ = writeln!(out, "                  {}", newest.install);
            }
        }
        let _ = writeln!(out);
    }
    out
}

pub fn torch_text(a: &TorchAnswer) -> String {
    let mut out = format!(
        "PyTorch {} ({}; Python {}; PyPI default {})\n",
        a.release,
        a.patches.join(", "),
        a.python.join(", "),
        a.pypi_default.as_deref().unwrap_or("?")
    );
    for v in &a.variants {
        let _ = writeln!(
            out,
            "  {:<6} CUDA {:<5} driver >= {} (minor version compat >= {})  arch {}",
            v.name,
            v.cuda,
            v.min_driver.as_deref().unwrap_or("?"),
            v.mvc_floor.as_deref().unwrap_or("-"),
            v.arch_linux_x86_64.join(";")
        );
        let _ = writeln!(out, "         {}", v.install);
    }
    out
}

pub fn driver_text(a: &DriverAnswer) -> String {
    let mut out = match (a.branch, &a.max_cuda) {
        (Some(b), Some(c)) => format!(
            "Driver {} (R{b}, {}): CUDA up to {c}; GPUs from compute capability {}{}\n",
            a.driver,
            a.kind.as_deref().unwrap_or("?").replace('_', " "),
            a.min_cc.as_deref().unwrap_or("?"),
            a.eol.as_ref().map_or(String::new(), |e| if a.eol_passed {
                format!("; end of life {e} (passed: no more fixes from NVIDIA)")
            } else {
                format!("; end of life {e}")
            })
        ),
        _ => format!("Driver {}: branch not in this matrix\n", a.driver),
    };
    let _ = writeln!(
        out,
        "  PyTorch builds it runs fully ({}): {}",
        a.torch_full.len(),
        a.torch_full
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !a.torch_minor_version_compat.is_empty() {
        let _ = writeln!(
            out,
            "  only through minor version compatibility: {}",
            a.torch_minor_version_compat.join(", ")
        );
    }
    out
}
