//! What gpu-doctor itself could not do: every such outcome is exit code 3 with one line
//! on standard error.

use crate::report;

/// Something gpu-doctor itself could not do (exit code 3).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    Load(#[from] report::LoadError),
    #[error("unknown check id or area {0:?}; `gpu-doctor checks` lists them")]
    UnknownCheck(String),
    #[error("could not write the report to {path:?}: {source}")]
    Save {
        path: String,
        source: std::io::Error,
    },
    #[error("the matrix {0} is invalid:\n{1}")]
    Matrix(String, String),
    #[error("{0}")]
    Update(#[from] crate::matrix::update::UpdateError),
    #[error("{0}")]
    NotInMatrix(String),
    #[error("could not encode the report: {0}")]
    Encode(#[from] serde_json::Error),
    #[error("could not read {path:?}: {error}")]
    Input { path: String, error: String },
    #[error("{0}")]
    Usage(String),
}

/// Pasted text larger than this is refused rather than read into memory.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file ('-' = standard input) as text: invalid UTF-8 is replaced, never an error.
pub fn read_text(path: &std::path::Path) -> Result<String, AppError> {
    let err = |error: String| AppError::Input {
        path: path.display().to_string(),
        error,
    };
    let reader = crate::host::open_input(path).map_err(|e| err(e.to_string()))?;
    let buf =
        crate::host::read_all_bounded(reader, MAX_INPUT_BYTES).map_err(|e| err(e.to_string()))?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}
