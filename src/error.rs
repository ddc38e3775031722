//! What gpu-doctor itself could not do: every such outcome is exit code 3 with one line
//! on standard error.

use std::io::Read;

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
    #[error("the --expect profile {path:?} is not valid: {error}")]
    Profile { path: String, error: String },
    #[error("--python {path:?}: {why}")]
    Python { path: String, why: String },
    #[error("this gpu-doctor is a static musl build, which cannot load the NVIDIA driver's libraries (libnvidia-ml.so.1, libcuda.so.1), so its verdict on this machine would be wrong. Use the glibc build here (`cargo install --locked --path .`, the -gnu release binary or deploy/Dockerfile); this build serves `fleet`, `explain`, `diagnose`, `diff`, `matrix` and `--from REPORT`")]
    StaticBuild,
}

/// Pasted text larger than this is refused rather than read into memory.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file ('-' = standard input) as text: invalid UTF-8 is replaced, never an error;
/// UTF-16 (a PowerShell `>` redirect) is decoded and NUL bytes are dropped.
pub fn read_text(path: &std::path::Path) -> Result<String, AppError> {
    let err = |error: String| AppError::Input {
        path: path.display().to_string(),
        error,
    };
    let reader = crate::host::open_input(path).map_err(|e| err(e.to_string()))?;
    let buf =
        crate::host::read_all_bounded(reader, MAX_INPUT_BYTES).map_err(|e| err(e.to_string()))?;
    Ok(decode(&buf))
}

/// Bytes of a log kept from its start and from its end when it is larger than both.
pub const LOG_HEAD_BYTES: usize = 8 * 1024 * 1024;
pub const LOG_TAIL_BYTES: usize = 8 * 1024 * 1024;

/// Reads a pasted log or environment ('-' = standard input) of any size: one larger than
/// `LOG_HEAD_BYTES + LOG_TAIL_BYTES` is read whole but only its head and tail are kept
/// (where errors and the environment are), with a line saying how much was left out.
/// Decoded as `read_text` does.
pub fn read_log(path: &std::path::Path) -> Result<String, AppError> {
    let err = |error: String| AppError::Input {
        path: path.display().to_string(),
        error,
    };
    let reader = crate::host::open_input(path).map_err(|e| err(e.to_string()))?;
    let (head, skipped, tail) =
        head_and_tail(reader, LOG_HEAD_BYTES, LOG_TAIL_BYTES).map_err(|e| err(e.to_string()))?;
    if skipped == 0 {
        return Ok(decode(&head));
    }
    // UTF-16 text cut at an odd offset would decode shifted: keep the tail even-aligned
    // to the head's start.
    let tail = if utf16_order(&head).is_some() && (head.len() + skipped as usize) % 2 == 1 {
        tail.get(1..).unwrap_or_default().to_vec()
    } else {
        tail
    };
    let mut tail_bytes = utf16_order(&head).map_or_else(Vec::new, |bom| bom.to_vec());
    tail_bytes.extend_from_slice(&tail);
    Ok(format!(
        "{}\n[gpu-doctor: {skipped} bytes in the middle of the input left out]\n{}",
        decode(&head),
        decode(&tail_bytes)
    ))
}

/// The first `head` bytes, how many were skipped, and the last `tail` bytes of a stream;
/// memory stays within about `head + 2 * tail` whatever its size.
pub fn head_and_tail(
    mut reader: impl std::io::Read,
    head: usize,
    tail: usize,
) -> std::io::Result<(Vec<u8>, u64, Vec<u8>)> {
    let mut first = Vec::new();
    (&mut reader).take(head as u64).read_to_end(&mut first)?;
    let mut last: Vec<u8> = Vec::new();
    let mut skipped = 0u64;
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        last.extend_from_slice(chunk.get(..n).unwrap_or_default());
        if last.len() > 2 * tail {
            let drop = last.len() - tail;
            last.drain(..drop);
            skipped += drop as u64;
        }
    }
    if last.len() > tail {
        let drop = last.len() - tail;
        last.drain(..drop);
        skipped += drop as u64;
    }
    if skipped == 0 {
        first.extend_from_slice(&last);
        last.clear();
    }
    Ok((first, skipped, last))
}

/// The byte-order mark of UTF-16 text (or, without one, UTF-16LE told by NUL bytes in
/// every other position of ASCII text, as Windows tools write it).
fn utf16_order(b: &[u8]) -> Option<&'static [u8]> {
    match b {
        [0xFF, 0xFE, ..] => Some(&[0xFF, 0xFE]),
        [0xFE, 0xFF, ..] => Some(&[0xFE, 0xFF]),
        _ => {
            let sample = b.get(..b.len().min(512)).unwrap_or_default();
            let pairs = sample.len() / 2;
            let le = sample
                .chunks_exact(2)
                .filter(|p| p[0] != 0 && p[1] == 0)
                .count();
            (pairs >= 4 && le * 10 >= pairs * 9).then_some(&[0xFF, 0xFE][..])
        }
    }
}

/// Bytes to text: UTF-16 with a BOM or in the shape of UTF-16LE is decoded, other text as
/// UTF-8 with invalid sequences replaced; NUL bytes are dropped (a Windows paste often
/// ends its lines with them), as is a UTF-8 BOM.
pub fn decode(b: &[u8]) -> String {
    let text = match utf16_order(b) {
        Some(bom) => {
            let big = bom == [0xFE, 0xFF];
            let body = if b.starts_with(bom) {
                b.get(2..).unwrap_or_default()
            } else {
                b
            };
            let units = body.chunks_exact(2).map(|p| {
                if big {
                    u16::from_be_bytes([p[0], p[1]])
                } else {
                    u16::from_le_bytes([p[0], p[1]])
                }
            });
            char::decode_utf16(units)
                .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect::<String>()
        }
        None => String::from_utf8_lossy(b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)).into_owned(),
    };
    if text.contains('\0') {
        text.replace('\0', "")
    } else {
        text
    }
}
