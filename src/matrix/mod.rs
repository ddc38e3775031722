//! The compatibility matrix: versioned TOML data in `compat-matrix/`, bundled into the
//! binary, replaceable by a folder (`--matrix DIR`, `GPU_DOCTOR_MATRIX`) or by a signed
//! newer one fetched with `matrix update`. Judgements about versions come from this
//! data, not from code, so a release of NVIDIA or PyTorch is a data change.

pub mod load;
pub mod problem;
pub mod query;
pub mod schema;
pub mod show;
pub mod update;
pub mod validate;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use load::{Matrix, Problem};

/// Which matrix a report was judged against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatrixInfo {
    /// The matrix version, a date ("2026-11-21").
    pub version: String,
    /// "bundled", or the folder it was loaded from.
    pub source: String,
    pub schema: u32,
}

/// The bundled matrix's identity (what reports name when no other matrix is chosen).
pub fn bundled() -> MatrixInfo {
    match Matrix::bundled() {
        Ok(m) => m.info(),
        Err(problems) => MatrixInfo {
            version: format!("invalid ({} problems)", problems.len()),
            source: "bundled".into(),
            schema: load::SCHEMA,
        },
    }
}

/// A GPU known only by its PCI ids (the driver does not enumerate it), as a person reads
/// it: the product's name from the bundled matrix's `pci_ids`, with the ids that say it
/// ("NVIDIA GeForce RTX 4090 [10de:2684]"), else "NVIDIA GPU [10de:xxxx]". The text report
/// and the terminal UI both name such a GPU with this.
pub fn pci_gpu_label(vendor_id: &str, device_id: &str) -> String {
    static NAMES: std::sync::OnceLock<std::collections::HashMap<String, String>> =
        std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut names = std::collections::HashMap::new();
        if let Ok(m) = Matrix::bundled() {
            for g in &m.gpus.gpu {
                for id in &g.pci_ids {
                    names
                        .entry(id.to_lowercase())
                        .or_insert_with(|| g.name.clone());
                }
            }
        }
        names
    });
    let vendor = vendor_id.trim().trim_start_matches("0x").to_lowercase();
    let device = device_id.trim().trim_start_matches("0x").to_lowercase();
    let ids = format!("[{vendor}:{device}]");
    match names.get(&device).filter(|_| vendor == "10de") {
        Some(name) => format!("{name} {ids}"),
        None if vendor == "10de" => format!("NVIDIA GPU {ids}"),
        None => format!("GPU {ids}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_known_by_pci_ids_is_named_from_the_matrix_or_plainly() {
        assert_eq!(
            pci_gpu_label("10de", "2684"),
            "NVIDIA GeForce RTX 4090 [10de:2684]"
        );
        assert_eq!(
            pci_gpu_label("0x10DE", "0x2330"),
            "NVIDIA H100 80GB HBM3 [10de:2330]"
        );
        assert_eq!(pci_gpu_label("10de", "ffff"), "NVIDIA GPU [10de:ffff]");
        // Another vendor's id is never looked up as NVIDIA's.
        assert_eq!(pci_gpu_label("1002", "2684"), "GPU [1002:2684]");
    }

    #[test]
    fn bundled_matrix_is_valid() {
        let fast = Matrix::bundled().ok();
        match Matrix::bundled_validated() {
            Ok(m) => {
                assert_eq!(m.manifest.schema, 1);
                assert_eq!(
                    m.manifest.version.len(),
                    10,
                    "version is a date: {}",
                    m.manifest.version
                );
                assert_eq!(m.info().source, "bundled");
                let fast = fast.expect("the JSON build of the matrix loads");
                assert_eq!(fast.info(), m.info());
                assert!(
                    fast.toolkits == m.toolkits
                        && fast.drivers == m.drivers
                        && fast.archs == m.archs
                        && fast.gpus == m.gpus
                        && fast.torch == m.torch
                        && fast.cudnn == m.cudnn
                        && fast.xid == m.xid
                        && fast.interconnect == m.interconnect,
                    "the JSON build of the matrix differs from the TOML files"
                );
            }
            Err(problems) => panic!(
                "bundled matrix invalid:\n{}",
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }
    }
}
