//! Reading a matrix: the files bundled into the binary, a folder (`--matrix DIR`,
//! `GPU_DOCTOR_MATRIX`), or the cache that `matrix update` fills. Every problem is
//! reported with its file and line, all at once, so a maintainer fixes them in one pass.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::schema::*;
use super::validate;

pub use super::problem::{Problem, Texts, SCHEMA}; // moved: src/matrix/problem.rs

include!("files.rs");

const BUNDLED: [(&str, &str); 9] = [
    (
        "matrix.toml",
        include_str!("../../compat-matrix/matrix.toml"),
    ),
    (
        "toolkits.toml",
        include_str!("../../compat-matrix/toolkits.toml"),
    ),
    (
        "drivers.toml",
        include_str!("../../compat-matrix/drivers.toml"),
    ),
    ("archs.toml", include_str!("../../compat-matrix/archs.toml")),
    ("gpus.toml", include_str!("../../compat-matrix/gpus.toml")),
    ("torch.toml", include_str!("../../compat-matrix/torch.toml")),
    ("cudnn.toml", include_str!("../../compat-matrix/cudnn.toml")),
    ("xid.toml", include_str!("../../compat-matrix/xid.toml")),
    (
        "interconnect.toml",
        include_str!("../../compat-matrix/interconnect.toml"),
    ),
];

/// The bundled files as one JSON document (see build.rs).
const BUNDLED_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/matrix.json"));

/// A matrix file larger than this is refused (the real ones are a few hundred KiB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A loaded, validated matrix.
#[derive(Debug, Clone)]
pub struct Matrix {
    pub manifest: Manifest,
    pub toolkits: ToolkitsFile,
    pub drivers: DriversFile,
    pub archs: ArchsFile,
    pub gpus: GpusFile,
    pub torch: TorchFile,
    pub cudnn: CudnnFile,
    /// NVIDIA's Xid catalogue (`xid.toml`).
    pub xid: XidFile,
    /// Links between GPUs (`interconnect.toml`): PCIe lane rates, NVLink per product.
    pub interconnect: InterconnectFile,
    /// "bundled", or the folder it came from.
    pub source: String,
}

impl Matrix {
    /// The matrix built into this binary, from the JSON that build.rs made of the TOML
    /// files (fast: every report loads it). Its validity is a unit test
    /// (`bundled_matrix_is_valid`), so failing here is a broken build; the caller still
    /// reports it rather than panicking.
    pub fn bundled() -> Result<Matrix, Vec<Problem>> {
        // Raw parts: each file is deserialized straight into its type, in one pass.
        let all: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
            serde_json::from_str(BUNDLED_JSON).map_err(|e| {
                vec![Problem {
                    file: "bundled matrix".into(),
                    line: None,
                    message: e.to_string(),
                }]
            })?;
        assemble(&JsonParts(&all), "bundled")
    }

    /// The bundled TOML parsed and validated as a maintainer's folder would be.
    pub fn bundled_validated() -> Result<Matrix, Vec<Problem>> {
        let texts = Texts {
            files: BUNDLED
                .iter()
                .map(|(f, t)| ((*f).to_string(), (*t).to_string()))
                .collect(),
        };
        from_texts(&texts, "bundled")
    }

    /// A matrix folder: every file of [`FILES`] must be there.
    pub fn from_dir(dir: &Path) -> Result<Matrix, Vec<Problem>> {
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for name in FILES {
            match read_bounded(&dir.join(name)) {
                Ok(text) => files.push((name.to_string(), text)),
                Err(e) => problems.push(Problem {
                    file: dir.join(name).display().to_string(),
                    line: None,
                    message: e,
                }),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        from_texts(&Texts { files }, &dir.display().to_string())
    }

    pub fn info(&self) -> super::MatrixInfo {
        super::MatrixInfo {
            version: self.manifest.version.clone(),
            source: self.source.clone(),
            schema: self.manifest.schema,
        }
    }
}

fn read_bounded(path: &Path) -> Result<String, String> {
    // A regular file only, opened without blocking: a FIFO in a --matrix folder is an
    // error, not a hang.
    let file = crate::host::open_regular(path).map_err(|e| format!("cannot read: {e}"))?;
    let buf = crate::host::read_all_bounded(file, MAX_FILE_BYTES).map_err(|e| match e.kind() {
        std::io::ErrorKind::Other => e.to_string(),
        _ => format!("cannot read: {e}"),
    })?;
    String::from_utf8(buf).map_err(|e| format!("not UTF-8: {e}"))
}

/// Where the matrix files come from: people's TOML, or the JSON build.rs made of it.
trait Parts {
    fn part<T: DeserializeOwned>(&self, file: &str, problems: &mut Vec<Problem>) -> Option<T>;
}

impl Parts for Texts {
    fn part<T: DeserializeOwned>(&self, file: &str, problems: &mut Vec<Problem>) -> Option<T> {
        let text = self.get(file);
        toml::from_str::<T>(text)
            .map_err(|e| {
                let line = e
                    .span()
                    .map(|s| text.get(..s.start).unwrap_or(text).matches('\n').count() + 1);
                problems.push(Problem {
                    file: file.to_string(),
                    line,
                    message: e.message().trim().to_string(),
                });
            })
            .ok()
    }
}

struct JsonParts<'a>(&'a std::collections::BTreeMap<&'a str, &'a serde_json::value::RawValue>);

impl Parts for JsonParts<'_> {
    fn part<T: DeserializeOwned>(&self, file: &str, problems: &mut Vec<Problem>) -> Option<T> {
        let raw = self.0.get(file).map_or("null", |r| r.get());
        serde_json::from_str(raw)
            .map_err(|e| {
                problems.push(Problem {
                    file: file.to_string(),
                    line: None,
                    message: e.to_string(),
                })
            })
            .ok()
    }
}

/// Reads every file (collecting every parse problem), then builds the matrix.
fn assemble(parts: &impl Parts, source: &str) -> Result<Matrix, Vec<Problem>> {
    let mut problems = Vec::new();
    let manifest = parts.part(FILES[0], &mut problems);
    let toolkits = parts.part(FILES[1], &mut problems);
    let drivers = parts.part(FILES[2], &mut problems);
    let archs = parts.part(FILES[3], &mut problems);
    let gpus = parts.part(FILES[4], &mut problems);
    let torch = parts.part(FILES[5], &mut problems);
    let cudnn = parts.part(FILES[6], &mut problems);
    let xid = parts.part(FILES[7], &mut problems);
    let interconnect = parts.part(FILES[8], &mut problems);
    match (
        manifest,
        toolkits,
        drivers,
        archs,
        gpus,
        torch,
        cudnn,
        xid,
        interconnect,
    ) {
        (
            Some(manifest),
            Some(toolkits),
            Some(drivers),
            Some(archs),
            Some(gpus),
            Some(torch),
            Some(cudnn),
            Some(xid),
            Some(interconnect),
        ) => Ok(Matrix {
            manifest,
            toolkits,
            drivers,
            archs,
            gpus,
            torch,
            cudnn,
            xid,
            interconnect,
            source: source.to_string(),
        }),
        _ => Err(problems),
    }
}

pub fn from_texts(texts: &Texts, source: &str) -> Result<Matrix, Vec<Problem>> {
    let m = assemble(texts, source)?;
    let problems = validate::validate(&m, texts);
    if problems.is_empty() {
        Ok(m)
    } else {
        Err(problems)
    }
}

/// Test helper and `matrix validate` input: texts from (name, content) pairs.
pub fn texts_from(pairs: &[(&str, &str)]) -> Texts {
    Texts {
        files: pairs
            .iter()
            .map(|(f, t)| ((*f).to_string(), (*t).to_string()))
            .collect(),
    }
}

/// The bundled files as (name, text), for tests and `matrix validate` of a variant.
pub fn bundled_texts() -> Vec<(&'static str, &'static str)> {
    BUNDLED.to_vec()
}

/// Where `matrix update` stores a verified matrix: `$XDG_CACHE_HOME/gpu-doctor/matrix`
/// or `~/.cache/gpu-doctor/matrix`.
pub fn cache_dir(xdg_cache_home: Option<&str>, home: Option<&str>) -> Option<PathBuf> {
    let base = match (
        xdg_cache_home.filter(|p| p.starts_with('/')),
        home.filter(|h| h.starts_with('/')),
    ) {
        (Some(x), _) => PathBuf::from(x),
        (None, Some(h)) => Path::new(h).join(".cache"),
        (None, None) => return None,
    };
    Some(base.join("gpu-doctor").join("matrix"))
}
