//! `matrix bundle` and `matrix update`: a maintainer packs a validated matrix folder into
//! one JSON bundle and signs it with minisign; users fetch it (reqwest, rustls), verify
//! the signature against the public key built into the binary, validate the contents,
//! and keep it in their cache. Anything short of all that leaves the bundled matrix in
//! force.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::load::{self, Problem, FILES};
use super::Matrix;

/// The key matrix bundles are signed with (`assets/matrix-signing.pub`).
pub const PUBLIC_KEY: &str = include_str!("../../assets/matrix-signing.pub");
/// Where `matrix update` looks when no `--url` is given: set at build time with
/// `GPU_DOCTOR_MATRIX_URL`; none is built in by default.
pub const DEFAULT_URL: Option<&str> = option_env!("GPU_DOCTOR_MATRIX_URL");
pub const BUNDLE_FORMAT: u32 = 1;
/// Bundles (and signatures) larger than this are refused.
pub const MAX_BUNDLE_BYTES: u64 = 32 * 1024 * 1024;
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// All matrix files in one document, so that one signature covers all of them.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    pub format: u32,
    pub files: BTreeMap<String, String>,
}

#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    #[error("no update URL is built into this gpu-doctor: pass --url URL")]
    NoUrl,
    #[error("could not fetch {url}: {error}")]
    Fetch { url: String, error: String },
    #[error("{url} is larger than {MAX_BUNDLE_BYTES} bytes")]
    TooLarge { url: String },
    #[error("the signature of {url} does not verify against the built-in key: {error}")]
    BadSignature { url: String, error: String },
    #[error("{url} is not a matrix bundle: {error}")]
    BadBundle { url: String, error: String },
    #[error("the matrix in {url} is invalid:\n{}", problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid { url: String, problems: Vec<Problem> },
    #[error("could not store the matrix in {dir}: {error}")]
    Store { dir: String, error: String },
    #[error("could not read the matrix folder {dir}:\n{}", problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Source { dir: String, problems: Vec<Problem> },
}

/// Packs a matrix folder (validated first) into a bundle document.
pub fn bundle_dir(dir: &Path) -> Result<String, UpdateError> {
    let src = || dir.display().to_string();
    Matrix::from_dir(dir).map_err(|problems| UpdateError::Source {
        dir: src(),
        problems,
    })?;
    let mut files = BTreeMap::new();
    for name in FILES {
        let text = std::fs::read_to_string(dir.join(name)).map_err(|e| UpdateError::Source {
            dir: src(),
            problems: vec![Problem {
                file: name.into(),
                line: None,
                message: e.to_string(),
            }],
        })?;
        files.insert(name.to_string(), text);
    }
    serde_json::to_string_pretty(&Bundle {
        format: BUNDLE_FORMAT,
        files,
    })
    .map_err(|e| UpdateError::BadBundle {
        url: src(),
        error: e.to_string(),
    })
}

/// Checks the signature, then the bundle's form, then the matrix itself.
pub fn verify_bundle(
    url: &str,
    bundle: &[u8],
    signature: &str,
    public_key: &str,
) -> Result<Matrix, UpdateError> {
    let bad_sig = |error: String| UpdateError::BadSignature {
        url: url.to_string(),
        error,
    };
    let pk = minisign_verify::PublicKey::decode(public_key.trim())
        .map_err(|e| bad_sig(format!("built-in key unreadable: {e}")))?;
    let sig =
        minisign_verify::Signature::decode(signature.trim()).map_err(|e| bad_sig(e.to_string()))?;
    pk.verify(bundle, &sig, false)
        .map_err(|e| bad_sig(e.to_string()))?;
    let b: Bundle = serde_json::from_slice(bundle).map_err(|e| UpdateError::BadBundle {
        url: url.to_string(),
        error: e.to_string(),
    })?;
    if b.format != BUNDLE_FORMAT {
        return Err(UpdateError::BadBundle {
            url: url.to_string(),
            error: format!(
                "bundle format {} (this gpu-doctor reads {BUNDLE_FORMAT})",
                b.format
            ),
        });
    }
    let pairs: Vec<(&str, &str)> = FILES
        .iter()
        .map(|f| (*f, b.files.get(*f).map_or("", String::as_str)))
        .collect();
    let missing: Vec<&str> = FILES
        .iter()
        .copied()
        .filter(|f| !b.files.contains_key(*f))
        .collect();
    if !missing.is_empty() {
        return Err(UpdateError::BadBundle {
            url: url.to_string(),
            error: format!("missing {}", missing.join(", ")),
        });
    }
    load::from_texts(&load::texts_from(&pairs), url).map_err(|problems| UpdateError::Invalid {
        url: url.to_string(),
        problems,
    })
}

/// Fetches `url` and `url.minisig` with a time limit and a size cap.
pub fn fetch(url: &str) -> Result<(Vec<u8>, String), UpdateError> {
    // reqwest is built without a default crypto provider: install ring's once.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let fetch_err = |error: String| UpdateError::Fetch {
        url: url.to_string(),
        error,
    };
    let client = reqwest::blocking::Client::builder()
        .timeout(FETCH_TIMEOUT)
        .user_agent(concat!("gpu-doctor/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| fetch_err(e.to_string()))?;
    let get = |u: &str| -> Result<Vec<u8>, UpdateError> {
        let resp = client.get(u).send().map_err(|e| UpdateError::Fetch {
            url: u.to_string(),
            error: error_chain(&e),
        })?;
        let status = resp.status();
        if !status.is_success() {
            return Err(UpdateError::Fetch {
                url: u.to_string(),
                error: format!("HTTP {status}"),
            });
        }
        let mut buf = Vec::new();
        resp.take(MAX_BUNDLE_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|e| UpdateError::Fetch {
                url: u.to_string(),
                error: e.to_string(),
            })?;
        if buf.len() as u64 > MAX_BUNDLE_BYTES {
            return Err(UpdateError::TooLarge { url: u.to_string() });
        }
        Ok(buf)
    };
    let bundle = get(url)?;
    let sig_url = format!("{url}.minisig");
    let sig = String::from_utf8(get(&sig_url)?).map_err(|e| UpdateError::BadSignature {
        url: sig_url,
        error: e.to_string(),
    })?;
    Ok((bundle, sig))
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// Writes the matrix files into `dir` through a sibling temporary folder and a rename,
/// so a reader never sees half of an update.
pub fn store(
    m: &Matrix,
    texts: &BTreeMap<String, String>,
    dir: &Path,
) -> Result<PathBuf, UpdateError> {
    let err = |e: std::io::Error| UpdateError::Store {
        dir: dir.display().to_string(),
        error: e.to_string(),
    };
    let parent = dir
        .parent()
        .ok_or_else(|| err(std::io::Error::other("no parent folder")))?;
    std::fs::create_dir_all(parent).map_err(err)?;
    let tmp = parent.join(format!(
        ".matrix-{}-{}",
        m.manifest.version,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(err)?;
    for (name, text) in texts {
        if FILES.contains(&name.as_str()) {
            std::fs::write(tmp.join(name), text).map_err(err)?;
        }
    }
    let old = parent.join(format!(".matrix-old-{}", std::process::id()));
    if dir.exists() {
        std::fs::rename(dir, &old).map_err(err)?;
    }
    std::fs::rename(&tmp, dir).map_err(err)?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(dir.to_path_buf())
}

/// What an update did.
#[derive(Debug)]
pub enum Outcome {
    Stored { version: String, dir: PathBuf },
    NotNewer { fetched: String, current: String },
}

/// Fetch, verify, validate, and store when newer than `current_version`.
pub fn update(
    url: &str,
    public_key: &str,
    cache: &Path,
    current_version: &str,
) -> Result<Outcome, UpdateError> {
    let (bundle, sig) = fetch(url)?;
    let m = verify_bundle(url, &bundle, &sig, public_key)?;
    if m.manifest.version.as_str() <= current_version {
        return Ok(Outcome::NotNewer {
            fetched: m.manifest.version.clone(),
            current: current_version.to_string(),
        });
    }
    let b: Bundle = serde_json::from_slice(&bundle).map_err(|e| UpdateError::BadBundle {
        url: url.to_string(),
        error: e.to_string(),
    })?;
    let dir = store(&m, &b.files, cache)?;
    Ok(Outcome::Stored {
        version: m.manifest.version,
        dir,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_key_decodes() {
        assert!(minisign_verify::PublicKey::decode(PUBLIC_KEY.trim()).is_ok());
    }

    #[test]
    fn garbage_signatures_are_refused() {
        let err = verify_bundle("u", b"{}", "not a signature", PUBLIC_KEY).unwrap_err();
        assert!(matches!(err, UpdateError::BadSignature { .. }), "{err}");
    }
}
