//! Converts the bundled matrix (TOML, written by people) into one JSON document that the
//! binary deserializes at start-up: JSON parses several times faster than TOML, and every
//! report loads the matrix. Validation of the TOML itself is a unit test and
//! `gpu-doctor matrix validate`.

use std::error::Error;
use std::path::Path;

include!("src/matrix/files.rs");

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed=compat-matrix");
    let mut all = serde_json::Map::new();
    for name in FILES {
        let path = Path::new("compat-matrix").join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path)?;
        let value: toml::Value =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        all.insert(name.to_string(), serde_json::to_value(value)?);
    }
    let out = Path::new(&std::env::var("OUT_DIR")?).join("matrix.json");
    std::fs::write(out, serde_json::to_string(&all)?)?;
    Ok(())
}
