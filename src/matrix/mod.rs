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

#[cfg(test)]
mod tests {
    use super::*;

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
