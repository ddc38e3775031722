//! CUDA extension modules other than torch (flash-attn, xformers, vllm, bitsandbytes,
//! apex, ...): any shared object in site-packages with a `.nv_fatbin` section.
//!
//! A torch environment holds thousands of files, so the walk is bounded: `torch/` and
//! `nvidia/` (read elsewhere), metadata and cache folders are skipped, links are not
//! followed (no loops), and depth and the number of entries looked at are capped.

use std::path::{Path, PathBuf};

use crate::fact::Fact;
use crate::facts::fatbin;
use crate::host::Host;

use super::parse;
use super::CudaExtension;

/// Files up to two folders below a package (`vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so`,
/// `torchaudio/lib/libtorchaudio.so`): CUDA extensions sit near the package top, while
/// pure-Python trees (sympy: 3,400 files) go deeper.
const MAX_DEPTH: usize = 3;
/// Entries looked at per site-packages folder (a large ML venv has about 50,000 files).
const MAX_ENTRIES: usize = 100_000;
/// Shared objects smaller than this are not opened: the smallest real CUDA one we know,
/// tests/fixtures/python/libk.so (one kernel for six targets), is 22 KB, and skipping them spares
/// opening the many small C extensions of numpy, scipy and friends.
const MIN_SO_BYTES: u64 = 16 * 1024;

/// Folders not to enter: read elsewhere, or never holding CUDA extensions.
fn skipped(top_level: bool, name: &str) -> bool {
    (top_level && matches!(name, "torch" | "nvidia" | "triton"))
        || name == "__pycache__"
        || name.ends_with(".dist-info")
        || name.ends_with(".egg-info")
        || name.starts_with('.')
}

/// The CUDA extension modules below one site-packages folder (a machine path).
pub fn find(host: &Host, site: &Path) -> Vec<CudaExtension> {
    let mut out = Vec::new();
    let mut budget = MAX_ENTRIES;
    let mut stack: Vec<(PathBuf, usize)> = vec![(host.path(site), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in rd.filter_map(Result::ok) {
            if budget == 0 {
                return out;
            }
            budget -= 1;
            // DirEntry::file_type does not follow links: a link is neither entered nor read.
            let Ok(ft) = entry.file_type() else { continue };
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let path = entry.path();
            if ft.is_dir() {
                if depth + 1 < MAX_DEPTH && !skipped(depth == 0, name) {
                    stack.push((path, depth + 1));
                }
            } else if ft.is_file() && parse::is_shared_library(name) {
                let big = entry.metadata().is_ok_and(|m| m.len() >= MIN_SO_BYTES);
                if big {
                    if let Some(ext) = extension(host, site, &path) {
                        out.push(ext);
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn extension(host: &Host, site: &Path, real: &Path) -> Option<CudaExtension> {
    let arch = match fatbin::read_arch_list(real) {
        Fact::Missing { .. } | Fact::Unsupported { .. } => return None,
        Fact::Failed { error, .. } if error.contains(fatbin::NOT_ELF) => return None,
        Fact::Known { mut value } => {
            value.libraries.clear();
            Fact::known(value)
        }
        failed => failed,
    };
    let machine = host.machine_path(real);
    let rel = machine.strip_prefix(site).ok()?;
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .to_string();
    // `flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so` -> `flash_attn_2_cuda`.
    let package = first.split('.').next().unwrap_or(&first).to_string();
    Some(CudaExtension {
        package,
        path: machine.display().to_string(),
        arch,
    })
}
