//! Reads torch builds and nvidia-*/cuda-* wheels from site-packages folders: dist-info
//! folders, `torch/version.py`, headers and library file names. Nothing is imported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::fact::Fact;
use crate::facts::fatbin;
use crate::host::Host;

use super::discover::Layout;
use super::marker::{self, MarkerEnv};
use super::parse::{self, PyValue};
use super::{Requirement, TorchBuild, Wheel};

/// An installed distribution (a `*.dist-info` or `*.egg-info` folder).
#[derive(Debug, Clone)]
pub struct Dist {
    pub name: String,
    pub version: String,
    pub folder: PathBuf,
    pub site: PathBuf,
}

/// Conda packages of a prefix, from `conda-meta/<name>-<version>-<build>.json` file names
/// (the files themselves list every installed path and can be megabytes).
#[derive(Debug, Clone, Default)]
pub struct CondaMeta {
    pub prefix: PathBuf,
    /// name -> (version, build)
    pub packages: BTreeMap<String, (String, String)>,
}

impl CondaMeta {
    pub fn read(host: &Host, prefix: &Path) -> CondaMeta {
        let packages = host
            .read_dir(prefix.join("conda-meta"))
            .iter()
            .filter_map(|p| parse::conda_meta_name(&p.file_name()?.to_string_lossy()))
            .map(|(n, v, b)| (n, (v, b)))
            .collect();
        CondaMeta {
            prefix: prefix.to_path_buf(),
            packages,
        }
    }

    fn get(&self, name: &str) -> Option<&(String, String)> {
        self.packages.get(name)
    }

    fn torch(&self) -> Option<&(String, String)> {
        ["pytorch", "pytorch-gpu", "torch"]
            .iter()
            .find_map(|n| self.get(n))
    }
}

/// Distributions installed in `site`, by dist-info folder name.
pub fn dists(host: &Host, site: &Path) -> Vec<Dist> {
    host.read_dir(site)
        .into_iter()
        .filter_map(|folder| {
            let (name, version) = parse::dist_folder(folder.file_name()?.to_str()?)?;
            Some(Dist {
                name,
                version,
                folder,
                site: site.to_path_buf(),
            })
        })
        .collect()
}

fn is_cuda_wheel(name: &str) -> bool {
    name.starts_with("nvidia-") || name.starts_with("cuda-")
}

/// The nvidia-*/cuda-* wheels of all folders, in import order.
pub fn cuda_wheels(host: &Host, all: &[Dist]) -> Vec<Wheel> {
    all.iter()
        .filter(|d| is_cuda_wheel(&d.name))
        .map(|d| wheel(host, d))
        .collect()
}

fn wheel(host: &Host, d: &Dist) -> Wheel {
    let mut lib_dirs: Vec<String> = Vec::new();
    let mut libraries: Vec<String> = Vec::new();
    let record = host
        .read_string(d.folder.join("RECORD"))
        .unwrap_or_default();
    for rel in parse::record_paths(&record) {
        // Filter on the name first: cuda-cccl's RECORD lists thousands of headers.
        let name = rel.rsplit('/').next().unwrap_or(&rel);
        // Python extension modules in the wheel are not CUDA libraries.
        if !parse::is_shared_library(name) || name.contains(".cpython-") || name.contains(".abi3.")
        {
            continue;
        }
        let name = name.to_string();
        let path = crate::host::normalize(&d.site.join(&rel));
        if !path.starts_with(&d.site) {
            continue;
        }
        let name = name.as_str();
        if let Some(dir) = path.parent().map(|p| p.display().to_string()) {
            if !lib_dirs.contains(&dir) {
                lib_dirs.push(dir);
            }
        }
        if !libraries.iter().any(|l| l == name) {
            libraries.push(name.to_string());
        }
    }
    if record.is_empty() {
        // No RECORD (a hand-copied or conda-converted install): the CUDA 12 layout.
        let component = d
            .name
            .trim_start_matches("nvidia-")
            .rsplit_once("-cu")
            .map_or(d.name.as_str(), |(c, _)| c)
            .replace('-', "_");
        let dir = d.site.join("nvidia").join(component).join("lib");
        for f in host.read_dir(&dir) {
            if let Some(n) = f.file_name().and_then(|n| n.to_str()) {
                if parse::is_shared_library(n) {
                    libraries.push(n.to_string());
                }
            }
        }
        if !libraries.is_empty() {
            lib_dirs.push(dir.display().to_string());
        }
    }
    libraries.sort();
    Wheel {
        name: d.name.clone(),
        version: d.version.clone(),
        site_packages: d.site.display().to_string(),
        lib_dirs,
        libraries,
    }
}

/// Every torch in import order across the environment's folders.
pub fn torch_builds(
    host: &Host,
    layout: &Layout,
    all: &[Dist],
    wheels: &[Wheel],
    conda: &CondaMeta,
) -> Vec<TorchBuild> {
    let markers = MarkerEnv::linux(layout.version.value().map(String::as_str));
    layout
        .site_packages
        .iter()
        .filter(|site| {
            let t = site.join("torch");
            host.exists(t.join("__init__.py")) || host.exists(t.join("version.py"))
        })
        .map(|site| {
            let ctx = TorchContext {
                host,
                site,
                dists: all,
                wheels,
                conda: site.starts_with(&conda.prefix).then_some(conda),
                markers: &markers,
            };
            ctx.read()
        })
        .collect()
}

struct TorchContext<'a> {
    host: &'a Host,
    site: &'a Path,
    dists: &'a [Dist],
    wheels: &'a [Wheel],
    conda: Option<&'a CondaMeta>,
    markers: &'a MarkerEnv,
}

impl TorchContext<'_> {
    fn read(&self) -> TorchBuild {
        let dir = self.site.join("torch");
        let vpy = self.host.read_string(dir.join("version.py"));
        let assign = vpy.as_ref().map(|t| parse::py_assignments(t));
        let dist = self.dist(assign.as_ref().ok().and_then(|a| str_of(a, "__version__")));
        let conda_torch = self.conda.and_then(CondaMeta::torch);
        let version = match (&assign, &dist, conda_torch) {
            (Ok(a), _, _) if str_of(a, "__version__").is_some() => {
                Fact::known(str_of(a, "__version__").unwrap_or_default())
            }
            (_, Some(d), _) => Fact::known(d.version.clone()),
            (_, _, Some((v, _))) => Fact::known(v.clone()),
            (Err(e), _, _) => {
                Fact::missing(format!("cannot read {}/version.py: {e}", dir.display()))
            }
            (Ok(_), _, _) => {
                Fact::failed(format!("{}/version.py has no __version__", dir.display()))
            }
        };
        let cuda = match &assign {
            Ok(a) => match a.get("cuda") {
                Some(PyValue::Str(s)) => Fact::known(Some(s.clone())),
                Some(PyValue::None) => Fact::known(None),
                Some(other) => Fact::failed(format!(
                    "torch.version.cuda is {other:?} in {}/version.py",
                    dir.display()
                )),
                None => Fact::failed(format!("{}/version.py has no `cuda =` line", dir.display())),
            },
            Err(e) => Fact::missing(format!("cannot read {}/version.py: {e}", dir.display())),
        };
        let hip = assign.as_ref().ok().and_then(|a| str_of(a, "hip"));
        let lib = dir.join("lib");
        let bundled_libs: Vec<String> = self
            .host
            .read_dir(&lib)
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
            .filter(|n| parse::is_shared_library(n))
            .collect();
        let installer = self.installer(dist.as_ref(), conda_torch.is_some());
        let cuda_build = cuda.value().map(Option::is_some);
        TorchBuild {
            path: dir.display().to_string(),
            site_packages: self.site.display().to_string(),
            version,
            cuda,
            hip: hip.clone(),
            git_version: assign.as_ref().ok().and_then(|a| str_of(a, "git_version")),
            cudnn: self.cudnn(&bundled_libs, cuda_build, hip.is_some(), conda_torch),
            nccl: self.nccl(&bundled_libs, cuda_build, hip.is_some()),
            installer,
            requires: dist.as_ref().map(|d| self.requires(d)).unwrap_or_default(),
            arch: self.arch(&lib, &bundled_libs, cuda_build),
            bundled_libs,
        }
    }

    /// The torch dist-info of this folder; the one matching version.py if there are several
    /// (a failed uninstall leaves the old one behind).
    fn dist(&self, version: Option<String>) -> Option<Dist> {
        let mine: Vec<&Dist> = self
            .dists
            .iter()
            .filter(|d| d.site == self.site && d.name == "torch")
            .collect();
        mine.iter()
            .find(|d| Some(&d.version) == version.as_ref())
            .or(mine.first())
            .map(|d| (*d).clone())
    }

    fn installer(&self, dist: Option<&Dist>, conda_owned: bool) -> Fact<String> {
        if let Some(d) = dist {
            if let Ok(text) = self.host.read_string(d.folder.join("INSTALLER")) {
                let t = text.trim();
                if !t.is_empty() {
                    return Fact::known(t.to_string());
                }
            }
        }
        if conda_owned {
            return Fact::known("conda".to_string());
        }
        match dist {
            Some(d) => Fact::missing(format!("{} has no INSTALLER file", d.folder.display())),
            None => Fact::missing(format!(
                "no torch dist-info in {} (a source checkout or a copied folder?)",
                self.site.display()
            )),
        }
    }

    fn requires(&self, d: &Dist) -> Vec<Requirement> {
        let file = if d.folder.extension().is_some_and(|e| e == "egg-info") {
            "PKG-INFO"
        } else {
            "METADATA"
        };
        let text = self
            .host
            .read_string(d.folder.join(file))
            .unwrap_or_default();
        parse::metadata_field(&text, "Requires-Dist")
            .into_iter()
            .filter_map(parse::requires_dist)
            .filter(|r| is_cuda_wheel(&r.name))
            .filter(|r| {
                r.marker
                    .as_deref()
                    .is_none_or(|m| marker::applies(m, self.markers))
            })
            .map(|r| Requirement {
                name: r.name,
                specifier: r.specifier,
                extras: r.extras,
            })
            .collect()
    }

    /// The wheel torch loads: the one in its own folder (its RPATH points there), else the
    /// first in import order (torch also searches `sys.path`).
    fn wheel_named(&self, component: &str) -> Option<&Wheel> {
        let matches = |w: &&Wheel| {
            let n = w.name.as_str();
            n == format!("nvidia-{component}")
                || n.strip_prefix(&format!("nvidia-{component}-cu"))
                    .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit()))
        };
        let site = self.site.display().to_string();
        self.wheels
            .iter()
            .filter(matches)
            .find(|w| w.site_packages == site)
            .or_else(|| self.wheels.iter().find(matches))
    }

    fn header_version(&self, rel: &[&str], prefix: &str) -> Option<String> {
        rel.iter().find_map(|r| {
            let text = self.host.read_string(self.site.join(r)).ok()?;
            parse::header_version(&text, prefix)
        })
    }

    fn cudnn(
        &self,
        bundled: &[String],
        cuda_build: Option<bool>,
        rocm: bool,
        conda_torch: Option<&(String, String)>,
    ) -> Fact<String> {
        if rocm {
            return Fact::unsupported("a ROCm build (uses MIOpen, not cuDNN)");
        }
        if cuda_build == Some(false) {
            return Fact::unsupported("a CPU-only build (no cuDNN)");
        }
        if let Some(c) = conda_torch {
            if let Some((v, _)) = self.conda.and_then(|m| m.get("cudnn")) {
                return Fact::known(v.clone());
            }
            if let Some(v) = c.1.split('_').find_map(|p| p.strip_prefix("cudnn")) {
                return Fact::known(v.to_string());
            }
        }
        if let Some(w) = self.wheel_named("cudnn") {
            return Fact::known(w.version.clone());
        }
        let headers = [
            "nvidia/cudnn/include/cudnn_version.h",
            "nvidia/cu13/include/cudnn_version.h",
        ];
        if let Some(v) = self.header_version(&headers, "CUDNN") {
            return Fact::known(v);
        }
        if let Some(v) = bundled_version(bundled, "libcudnn") {
            return Fact::known(v);
        }
        Fact::missing(format!(
            "no nvidia-cudnn wheel, cudnn_version.h or libcudnn in torch/lib visible from {}",
            self.site.display()
        ))
    }

    fn nccl(&self, bundled: &[String], cuda_build: Option<bool>, rocm: bool) -> Fact<String> {
        if rocm {
            return Fact::unsupported("a ROCm build (uses RCCL, not NCCL)");
        }
        if cuda_build == Some(false) {
            return Fact::unsupported("a CPU-only build (no NCCL)");
        }
        if let Some(w) = self.wheel_named("nccl") {
            return Fact::known(w.version.clone());
        }
        if let Some(v) = self.header_version(
            &["nvidia/nccl/include/nccl.h", "nvidia/cu13/include/nccl.h"],
            "NCCL",
        ) {
            return Fact::known(v);
        }
        if let Some(v) = bundled_version(bundled, "libnccl") {
            return Fact::known(v);
        }
        if let Some((v, _)) = self.conda.and_then(|m| m.get("nccl")) {
            return Fact::known(v.clone());
        }
        Fact::missing(format!(
            "no nvidia-nccl wheel, nccl.h or libnccl in torch/lib visible from {} (older wheels link NCCL statically)",
            self.site.display()
        ))
    }

    fn arch(
        &self,
        lib: &Path,
        bundled: &[String],
        cuda_build: Option<bool>,
    ) -> Fact<crate::facts::python::ArchList> {
        // libtorch_cuda_linalg.so is left out: its kernels come from MAGMA, built with an
        // arch list of its own (torch 2.4.1's lacks sm_75), not from TORCH_CUDA_ARCH_LIST.
        let mut paths: Vec<PathBuf> = bundled
            .iter()
            .filter(|n| TORCH_CUDA_LIBS.contains(&n.as_str()))
            .map(|n| self.host.path(lib.join(n)))
            .collect();
        paths.sort();
        if paths.is_empty() {
            return match cuda_build {
                Some(false) => Fact::unsupported("a CPU-only or ROCm build (no libtorch_cuda*.so)"),
                _ => Fact::missing(format!(
                    "no libtorch_cuda.so (or _cu/_cpp) in {}",
                    lib.display()
                )),
            };
        }
        let mut fact = fatbin::read_arch_lists(&paths);
        if let Fact::Known { value } = &mut fact {
            value.libraries = value
                .libraries
                .iter()
                .map(|l| self.host.machine_path(Path::new(l)).display().to_string())
                .collect();
        }
        fact
    }
}

/// The libraries holding torch's own kernels: one since 1.13, split in two before.
const TORCH_CUDA_LIBS: [&str; 3] = [
    "libtorch_cuda.so",
    "libtorch_cuda_cu.so",
    "libtorch_cuda_cpp.so",
];

fn str_of(a: &BTreeMap<String, PyValue>, key: &str) -> Option<String> {
    match a.get(key) {
        Some(PyValue::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

/// "8.9.2" from `libcudnn.so.8.9.2`, "8" from `libcudnn.so.8` or `libcudnn-9a7e2c1f.so.8`.
fn bundled_version(bundled: &[String], stem: &str) -> Option<String> {
    bundled
        .iter()
        .filter(|n| {
            n.strip_prefix(stem)
                .is_some_and(|rest| rest.starts_with(".so") || rest.starts_with('-'))
        })
        .filter_map(|n| n.split_once(".so.").map(|(_, v)| v.to_string()))
        .max_by_key(|v| v.len())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn bundled_library_versions() {
        let libs: Vec<String> = [
            "libc10.so",
            "libcudnn.so.8",
            "libcudnn_ops_infer.so.8",
            "libnccl.so.2.10.3",
            "libtorch_cuda.so",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(bundled_version(&libs, "libcudnn").as_deref(), Some("8"));
        assert_eq!(bundled_version(&libs, "libnccl").as_deref(), Some("2.10.3"));
        let hashed = vec!["libcudnn-3a1b2c4d.so.8".to_string()];
        assert_eq!(bundled_version(&hashed, "libcudnn").as_deref(), Some("8"));
        assert_eq!(bundled_version(&libs, "libcublas"), None);
    }
}
