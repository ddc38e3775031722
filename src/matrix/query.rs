//! Questions the checks and `matrix show` ask of the matrix: which GPU a name or PCI id
//! is, what a driver supports, which driver a CUDA version needs, which PyTorch builds
//! cover a GPU. Versions compare as numbers per component, never as strings.

use super::schema::{
    Arch, DriverBranch, Gpu, MinorVersionCompat, NvlinkProduct, TorchRelease, TorchVariant,
};
use super::Matrix;
use crate::arch_list::{arch_list_covers, parse_arch_list, ArchEntry};
use crate::version::DottedVersion;

/// Lower-case, without the "NVIDIA " prefix older drivers did not print and without the
/// "GeForce " brand people leave out when they write a name ("GTX 1080 Ti", "RTX 3090"),
/// single spaces.
pub fn normalize_gpu_name(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let words = match words.first() {
        Some(&"nvidia") => &words[1..],
        _ => &words[..],
    };
    let words = match words.first() {
        Some(&"geforce") if words.len() > 1 => &words[1..],
        _ => words,
    };
    words.join(" ")
}

/// How well a driver serves a CUDA version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriverFit {
    /// At or above the toolkit's minimum driver.
    Full,
    /// Below it, but at or above the CUDA major's minor-version-compatibility floor.
    MinorVersionCompat { needed: String, floor: String },
    /// Below both.
    TooOld { needed: String },
    /// The matrix does not know this CUDA version.
    Unknown,
}

/// "cu121" -> "12.1"; "cu118" -> "11.8"; "cu130" -> "13.0".
pub fn cuda_of_variant(name: &str) -> Option<String> {
    let digits = name.strip_prefix("cu")?;
    if digits.len() < 3 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (major, minor) = digits.split_at(digits.len() - 1);
    Some(format!("{}.{minor}", major.trim_start_matches('0')))
}

impl Matrix {
    pub fn gpu_by_name(&self, name: &str) -> Option<&Gpu> {
        let want = normalize_gpu_name(name);
        self.gpus.gpu.iter().find(|g| {
            normalize_gpu_name(&g.name) == want
                || g.aliases.iter().any(|a| normalize_gpu_name(a) == want)
        })
    }

    /// The product's NVLink (interconnect.toml), by the GPU's name or a gpus.toml alias.
    pub fn nvlink_product(&self, name: &str) -> Option<&NvlinkProduct> {
        let want = normalize_gpu_name(name);
        let canonical = self.gpu_by_name(name).map(|g| normalize_gpu_name(&g.name));
        self.interconnect.nvlink.iter().find(|n| {
            let have = normalize_gpu_name(&n.gpu);
            have == want || Some(&have) == canonical.as_ref()
        })
    }

    /// GB/s of one PCIe lane of this generation, one direction (interconnect.toml).
    pub fn pcie_lane_gbps(&self, generation: u32) -> Option<f64> {
        self.interconnect
            .pcie
            .iter()
            .find(|p| p.generation == generation)
            .map(|p| p.lane_gbps)
    }

    pub fn gpu_by_pci_id(&self, device_id: &str) -> Option<&Gpu> {
        let id = device_id.trim().to_lowercase();
        let id = id
            .trim_start_matches("10de:")
            .trim_start_matches("0x")
            .to_string();
        self.gpus.gpu.iter().find(|g| g.pci_ids.contains(&id))
    }

    /// Products whose name or alias contains every word of `query` (for `matrix show`).
    pub fn search_gpus(&self, query: &str) -> Vec<&Gpu> {
        let words: Vec<String> = normalize_gpu_name(query)
            .split(' ')
            .map(str::to_string)
            .collect();
        if let Some(exact) = self.gpu_by_name(query) {
            return vec![exact];
        }
        self.gpus
            .gpu
            .iter()
            .filter(|g| {
                std::iter::once(&g.name).chain(&g.aliases).any(|n| {
                    let n = normalize_gpu_name(n);
                    words.iter().all(|w| {
                        n.split(' ').any(|x| x == w) || n.contains(w.as_str()) && w.len() > 2
                    })
                })
            })
            .collect()
    }

    pub fn arch(&self, cc: &str) -> Option<&Arch> {
        let want = DottedVersion::parse(cc)?;
        self.archs
            .arch
            .iter()
            .find(|a| DottedVersion::parse(&a.cc).is_some_and(|v| v == want))
    }

    pub fn branch(&self, driver: &DottedVersion) -> Option<&DriverBranch> {
        let major = u32::try_from(driver.major()).ok()?;
        self.drivers.branch.iter().find(|b| b.branch == major)
    }

    /// The lowest driver any update of CUDA `major.minor` needs (its first update's).
    pub fn min_driver_for_cuda(&self, cuda: &str) -> Option<DottedVersion> {
        let want = DottedVersion::parse(cuda)?;
        self.toolkits
            .toolkit
            .iter()
            .filter(|t| DottedVersion::parse(&t.version).is_some_and(|v| v.same_prefix(&want, 2)))
            .filter_map(|t| DottedVersion::parse(&t.min_driver_linux))
            .min()
    }

    pub fn mvc(&self, cuda_major: u64) -> Option<&MinorVersionCompat> {
        self.toolkits
            .minor_version_compat
            .iter()
            .find(|m| u64::from(m.cuda_major) == cuda_major)
    }

    pub fn driver_fit(&self, driver: &DottedVersion, cuda: &str) -> DriverFit {
        let Some(needed) = self.min_driver_for_cuda(cuda) else {
            return DriverFit::Unknown;
        };
        if *driver >= needed {
            return DriverFit::Full;
        }
        // A driver known only by its branch ("384", "the 535 drivers") may be any release of
        // it: against a minimum inside that branch (384.81) it is neither new enough nor too
        // old.
        if driver.parts().len() == 1 && driver.major() == needed.major() {
            return DriverFit::Unknown;
        }
        let major = DottedVersion::parse(cuda).map_or(0, |v| v.major());
        if let Some(floor) = self
            .mvc(major)
            .and_then(|m| DottedVersion::parse(&m.min_driver_linux))
        {
            if *driver >= floor {
                return DriverFit::MinorVersionCompat {
                    needed: needed.to_string(),
                    floor: floor.to_string(),
                };
            }
        }
        DriverFit::TooOld {
            needed: needed.to_string(),
        }
    }

    /// The release series of a torch version ("2.4.1+cu121" -> the "2.4" entry).
    pub fn torch_release(&self, version: &str) -> Option<&TorchRelease> {
        let v = DottedVersion::parse(version)?;
        self.torch
            .release
            .iter()
            .find(|r| DottedVersion::parse(&r.version).is_some_and(|rv| rv.same_prefix(&v, 2)))
    }

    /// The variant an installed build is: from its local tag ("+cu121"), else by its CUDA version.
    pub fn torch_variant<'a>(
        &'a self,
        release: &'a TorchRelease,
        version: &str,
        cuda: Option<&str>,
    ) -> Option<&'a TorchVariant> {
        if let Some((_, tag)) = version.split_once('+') {
            if let Some(v) = release.variant.iter().find(|v| v.name == tag) {
                return Some(v);
            }
        }
        let cuda = DottedVersion::parse(cuda?)?;
        release
            .variant
            .iter()
            .find(|v| DottedVersion::parse(&v.cuda).is_some_and(|c| c.same_prefix(&cuda, 2)))
    }

    /// The newest build that runs on every GPU in `ccs` with this driver (the first of
    /// [`Matrix::torch_candidates`]).
    pub fn recommend_torch(
        &self,
        ccs: &[(u32, u32)],
        driver: Option<&DottedVersion>,
        current: Option<&str>,
        platform: &str,
    ) -> Option<(&TorchRelease, &TorchVariant)> {
        self.torch_candidates(ccs, driver, current, platform)
            .into_iter()
            .next()
    }

    /// Every build that runs on every GPU in `ccs` with this driver, best first: the
    /// user's own release series first when one of its variants fits, then newer series,
    /// newest first; within a series the newest CUDA first. A build fits when its kernels
    /// (or PTX) cover each GPU, its cuDNN supports each GPU's compute capability, and the
    /// driver runs its CUDA, fully or (with native kernels for every GPU, no PTX JIT
    /// needed) through minor version compatibility. `platform` is "linux_x86_64",
    /// "linux_aarch64" or "windows".
    pub fn torch_candidates(
        &self,
        ccs: &[(u32, u32)],
        driver: Option<&DottedVersion>,
        current: Option<&str>,
        platform: &str,
    ) -> Vec<(&TorchRelease, &TorchVariant)> {
        let mut releases: Vec<&TorchRelease> = self.torch.release.iter().collect();
        releases.sort_by(|a, b| {
            DottedVersion::parse(&b.version).cmp(&DottedVersion::parse(&a.version))
        });
        let current_rel = current.and_then(|c| self.torch_release(c));
        let ordered = current_rel
            .into_iter()
            .chain(releases.into_iter().filter(|r| Some(*r) != current_rel));
        let mut out = Vec::new();
        for rel in ordered {
            let mut variants: Vec<&TorchVariant> = rel.variant.iter().collect();
            variants
                .sort_by(|a, b| DottedVersion::parse(&b.cuda).cmp(&DottedVersion::parse(&a.cuda)));
            for var in variants {
                if self.variant_runs(var, ccs, driver, platform) {
                    out.push((rel, var));
                }
            }
        }
        out
    }

    /// Whether a build runs on GPUs `ccs` under `driver` (see [`Matrix::torch_candidates`]).
    pub fn variant_runs(
        &self,
        var: &TorchVariant,
        ccs: &[(u32, u32)],
        driver: Option<&DottedVersion>,
        platform: &str,
    ) -> bool {
        let Some(list) = variant_arch_list(var, platform) else {
            return false;
        };
        if !ccs
            .iter()
            .all(|(maj, min)| arch_list_covers(&list, *maj, *min))
        {
            return false;
        }
        let native = ccs.iter().all(|(maj, min)| {
            list.iter()
                .any(|e| e.major == *maj && e.minor <= *min && e.suffix.is_none())
        });
        let cudnn_ok = var
            .cudnn
            .as_deref()
            .and_then(|v| self.cudnn_release(v))
            .is_none_or(|c| {
                let min = DottedVersion::parse(&c.min_cc);
                ccs.iter().all(|(maj, mi)| {
                    min.as_ref().is_none_or(|m| {
                        DottedVersion::parse(&format!("{maj}.{mi}")).is_some_and(|cc| cc >= *m)
                    })
                })
            });
        if !cudnn_ok {
            return false;
        }
        driver.is_none_or(|d| match self.driver_fit(d, &var.cuda) {
            DriverFit::Full => true,
            DriverFit::MinorVersionCompat { .. } => native,
            DriverFit::TooOld { .. } | DriverFit::Unknown => false,
        })
    }

    /// The cuDNN minor release entry of a version ("9.10.2.21" -> the "9.10" entry).
    pub fn cudnn_release(&self, version: &str) -> Option<&super::schema::Cudnn> {
        let v = DottedVersion::parse(version)?;
        self.cudnn
            .cudnn
            .iter()
            .find(|c| DottedVersion::parse(&c.version).is_some_and(|cv| cv.same_prefix(&v, 2)))
    }

    /// A real release of a driver branch to name in a fix: its first release where the
    /// matrix records one, else the lowest Table-3 driver of the branch.
    pub fn branch_release(&self, branch: u32) -> Option<String> {
        let b = self.drivers.branch.iter().find(|b| b.branch == branch)?;
        if let Some(first) = &b.first_release {
            return Some(first.clone());
        }
        self.toolkits
            .toolkit
            .iter()
            .filter(|t| t.min_driver_linux.contains('.'))
            .filter_map(|t| DottedVersion::parse(&t.min_driver_linux))
            .filter(|v| v.major() == u64::from(branch))
            .min()
            .map(|v| v.to_string())
    }

    /// True when the branch's end of life lies before the matrix date.
    pub fn branch_past_eol(&self, b: &DriverBranch) -> bool {
        let today = super::validate::parse_date(&self.manifest.version);
        let eol = b.eol.as_deref().and_then(super::validate::parse_date);
        matches!((eol, today), (Some(e), Some(t)) if e < t)
    }
}

/// The TORCH_CUDA_ARCH_LIST of a variant on a platform, parsed.
pub fn variant_arch_list(var: &TorchVariant, platform: &str) -> Option<Vec<ArchEntry>> {
    let list = match platform {
        "linux_aarch64" => var.arch_linux_aarch64.as_ref()?,
        "windows" => var.arch_windows.as_ref()?,
        _ => &var.arch_linux_x86_64,
    };
    if list.is_empty() {
        return None;
    }
    parse_arch_list(&list.join(";")).ok()
}

/// The platform key for the facts' CPU architecture.
pub fn platform_of(arch: &str) -> &'static str {
    match arch {
        "aarch64" | "arm64" => "linux_aarch64",
        _ => "linux_x86_64",
    }
}

/// The pip command that installs a release's newest patch of a variant.
pub fn install_command(python: &str, rel: &TorchRelease, var: &TorchVariant) -> String {
    let patch = rel
        .patches
        .iter()
        .max_by(|a, b| DottedVersion::parse(a).cmp(&DottedVersion::parse(b)))
        .cloned()
        .unwrap_or_else(|| rel.version.clone());
    format!(
        "{python} -m pip install torch=={patch} --index-url {}",
        var.index_url
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise() {
        assert_eq!(normalize_gpu_name("NVIDIA GeForce  RTX 4090"), "rtx 4090");
        assert_eq!(normalize_gpu_name("GeForce RTX 4090"), "rtx 4090");
        // written without the brand, as forum posts do
        assert_eq!(normalize_gpu_name("GTX 1080 Ti"), "gtx 1080 ti");
        assert_eq!(normalize_gpu_name("GeForce"), "geforce");
        let m = crate::matrix::Matrix::bundled().unwrap();
        assert_eq!(
            m.gpu_by_name("GTX 1080 Ti").map(|g| g.cc.as_str()),
            m.gpu_by_name("NVIDIA GeForce GTX 1080 Ti")
                .map(|g| g.cc.as_str())
        );
        assert!(m.gpu_by_name("GTX 1080 Ti").is_some());
        assert_eq!(
            normalize_gpu_name(" Tesla V100-SXM2-32GB "),
            "tesla v100-sxm2-32gb"
        );
    }

    #[test]
    fn a_driver_known_by_its_branch_alone_is_not_judged_inside_it() {
        let m = crate::matrix::Matrix::bundled().unwrap();
        let v = |s: &str| DottedVersion::parse(s).unwrap();
        // CUDA 9.0 needs 384.81: "the 384 drivers" may be that release or an older one
        assert!(matches!(m.driver_fit(&v("384"), "9.0"), DriverFit::Unknown));
        assert!(matches!(
            m.driver_fit(&v("384.59"), "9.0"),
            DriverFit::TooOld { .. }
        ));
        // a branch below the minimum's is too old whatever its release
        assert!(matches!(
            m.driver_fit(&v("375"), "9.0"),
            DriverFit::TooOld { .. }
        ));
        assert!(matches!(m.driver_fit(&v("390"), "9.0"), DriverFit::Full));
    }

    #[test]
    fn variant_names() {
        assert_eq!(cuda_of_variant("cu121").as_deref(), Some("12.1"));
        assert_eq!(cuda_of_variant("cu102").as_deref(), Some("10.2"));
        assert_eq!(cuda_of_variant("cu130").as_deref(), Some("13.0"));
        assert_eq!(cuda_of_variant("cpu"), None);
        assert_eq!(cuda_of_variant("cu1"), None);
    }
}
