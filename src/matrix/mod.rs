//! The bundled compatibility matrix. This foundation carries only its manifest (schema
//! and version), which every report names; the tables and their loader come with the
//! matrix issue.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const BUNDLED_MANIFEST: &str = include_str!("../../compat-matrix/matrix.toml");

/// Which matrix a report was judged against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatrixInfo {
    /// The matrix version, a date ("2026-11-21").
    pub version: String,
    /// "bundled", or the folder it was loaded from.
    pub source: String,
    pub schema: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    schema: u32,
    version: String,
    #[allow(dead_code)]
    description: String,
}

/// The matrix built into this binary.
pub fn bundled() -> MatrixInfo {
    match toml::from_str::<Manifest>(BUNDLED_MANIFEST) {
        Ok(m) => MatrixInfo {
            version: m.version,
            source: "bundled".into(),
            schema: m.schema,
        },
        // The manifest is checked by a unit test; a broken build still reports honestly.
        Err(e) => MatrixInfo {
            version: format!("unreadable ({e})"),
            source: "bundled".into(),
            schema: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bundled_manifest_parses() {
        let m = super::bundled();
        assert_eq!(m.schema, 1);
        assert_eq!(m.version.len(), 10, "version is a date: {}", m.version);
        assert_eq!(m.source, "bundled");
    }
}
