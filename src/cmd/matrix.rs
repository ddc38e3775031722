//! `gpu-doctor matrix ...`: validate a matrix folder, answer questions from it, bundle
//! it, fetch a newer one.

use std::io::Write;

use super::output::print;
use super::Settings;
use crate::cli::MatrixCommand;
use crate::error::AppError;
use crate::host::Host;
use crate::matrix::Matrix;
use crate::pipeline::{choose_matrix, problems_text};
use crate::report::exit;

/// `gpu-doctor matrix ...`.
pub fn run(settings: &Settings, action: &MatrixCommand, host: &Host) -> Result<i32, AppError> {
    use crate::matrix::{show, update};
    match action {
        MatrixCommand::Validate { dir, .. } => {
            let (what, result) = match dir {
                Some(d) => (d.display().to_string(), Matrix::from_dir(d)),
                None => match &settings.matrix_dir {
                    Some(d) => (d.display().to_string(), Matrix::from_dir(d)),
                    None => ("bundled".to_string(), Matrix::bundled_validated()),
                },
            };
            match result {
                Ok(m) => Ok(print(&format!(
                    "matrix {what} is valid: version {}, {} toolkits, {} driver branches, {} compute capabilities, {} GPUs, {} PyTorch releases, {} cuDNN releases\n",
                    m.manifest.version,
                    m.toolkits.toolkit.len(),
                    m.drivers.branch.len(),
                    m.archs.arch.len(),
                    m.gpus.gpu.len(),
                    m.torch.release.len(),
                    m.cudnn.cudnn.len()
                ))),
                Err(problems) => {
                    let _ = writeln!(std::io::stderr(), "gpu-doctor: matrix {what} is invalid ({} problem(s)):", problems.len());
                    let _ = writeln!(std::io::stderr(), "{}", problems_text(&problems));
                    Ok(exit::NO_VERDICT)
                }
            }
        }
        MatrixCommand::Show {
            gpu, torch, driver, ..
        } => {
            let m = choose_matrix(settings.matrix_dir.as_deref(), host)?;
            let mut json = serde_json::Map::new();
            let mut text = String::new();
            if gpu.is_none() && torch.is_none() && driver.is_none() {
                return Err(AppError::NotInMatrix(
                    "matrix show needs --gpu, --torch or --driver".into(),
                ));
            }
            if let Some(q) = gpu {
                let answers = show::gpu(&m, q);
                if answers.is_empty() {
                    return Err(AppError::NotInMatrix(format!(
                        "no GPU matching {q:?} in matrix {}",
                        m.manifest.version
                    )));
                }
                text.push_str(&show::gpu_text(&answers));
                json.insert("gpus".into(), serde_json::to_value(&answers)?);
            }
            if let Some(v) = torch {
                let a = show::torch(&m, v).ok_or_else(|| {
                    AppError::NotInMatrix(format!(
                        "no PyTorch {v:?} in matrix {}",
                        m.manifest.version
                    ))
                })?;
                text.push_str(&show::torch_text(&a));
                json.insert("torch".into(), serde_json::to_value(&a)?);
            }
            if let Some(v) = driver {
                let a = show::driver(&m, v).ok_or_else(|| {
                    AppError::NotInMatrix(format!("{v:?} is not a driver version"))
                })?;
                text.push_str(&show::driver_text(&a));
                json.insert("driver".into(), serde_json::to_value(&a)?);
            }
            json.insert("matrix".into(), serde_json::to_value(m.info())?);
            Ok(if settings.json {
                print(&format!(
                    "{}\n",
                    crate::report::safe_json::to_string_pretty(&json)?
                ))
            } else {
                // A local matrix (--matrix DIR) is outside text: no escape sequences.
                print(&crate::report::defang_text(&text))
            })
        }
        MatrixCommand::Bundle { dir, output } => {
            let dir = dir
                .clone()
                .unwrap_or_else(|| std::path::PathBuf::from("compat-matrix"));
            let bundle = update::bundle_dir(&dir)?;
            match output {
                Some(path) => {
                    super::output::write_atomic(path, &(bundle + "\n"))?;
                    Ok(exit::OK)
                }
                None => Ok(print(&(bundle + "\n"))),
            }
        }
        MatrixCommand::Update { url, .. } => {
            let url = url
                .as_deref()
                .or(update::DEFAULT_URL)
                .ok_or(update::UpdateError::NoUrl)?;
            let cache =
                crate::matrix::load::cache_dir(host.var("XDG_CACHE_HOME"), host.var("HOME"))
                    .ok_or_else(|| update::UpdateError::Store {
                        dir: "~/.cache".into(),
                        error: "neither XDG_CACHE_HOME nor HOME is set".into(),
                    })?;
            let current = choose_matrix(settings.matrix_dir.as_deref(), host)?;
            match update::update(url, update::PUBLIC_KEY, &cache, &current.manifest.version) {
                Ok(update::Outcome::Stored { version, dir }) => Ok(print(&format!("matrix {version} verified and stored in {}; reports now use it\n", dir.display()))),
                Ok(update::Outcome::NotNewer { fetched, current }) => Ok(print(&format!("matrix {fetched} at {url} is not newer than the one in use ({current}); nothing changed\n"))),
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "gpu-doctor: {e}\ngpu-doctor: the matrix in use stays {} ({})", current.manifest.version, current.source);
                    Ok(exit::NO_VERDICT)
                }
            }
        }
    }
}
