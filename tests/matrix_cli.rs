//! End to end: `matrix validate/show/bundle/update`, `--matrix DIR`, `GPU_DOCTOR_MATRIX`,
//! and the cached matrix, against the real binary; updates are served by a small HTTP
//! server on loopback.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use assert_cmd::Command;

const MATRIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/compat-matrix");

fn bin() -> Command {
    let mut c = Command::cargo_bin("gpu-doctor").unwrap();
    c.env_remove("GPU_DOCTOR_MATRIX")
        .env_remove("GPU_DOCTOR_ROOT")
        .env("XDG_CACHE_HOME", "/nonexistent-cache");
    c
}

/// A copy of the bundled matrix with a newer version date.
fn newer_matrix(dir: &Path, version: &str) -> PathBuf {
    let m = dir.join("matrix");
    std::fs::create_dir_all(&m).unwrap();
    for e in std::fs::read_dir(MATRIX).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), m.join(e.file_name())).unwrap();
    }
    let manifest = std::fs::read_to_string(m.join("matrix.toml")).unwrap();
    let re = manifest
        .lines()
        .map(|l| {
            if l.starts_with("version = ") {
                format!("version = \"{version}\"")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(m.join("matrix.toml"), re + "\n").unwrap();
    m
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn bundled_matrix_validates() {
    let out = bin().args(["matrix", "validate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("matrix bundled is valid") && text.contains("GPUs"),
        "{text}"
    );
    let out = bin().args(["matrix", "validate", MATRIX]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn invalid_matrix_exits_3_with_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let m = newer_matrix(tmp.path(), "2030-01-01");
    let drivers = std::fs::read_to_string(m.join("drivers.toml")).unwrap();
    let line = drivers
        .lines()
        .position(|l| l.starts_with("max_cuda"))
        .unwrap()
        + 1;
    std::fs::write(
        m.join("drivers.toml"),
        drivers.replacen("\nmax_cuda", "\nmax_kuda", 1),
    )
    .unwrap();
    let out = bin().args(["matrix", "validate"]).arg(&m).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("drivers.toml:{line}: unknown field `max_kuda`")),
        "{err}"
    );
    // The same folder given to a report is refused, not half-used.
    let out = bin()
        .arg("--json")
        .arg("--matrix")
        .arg(&m)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is invalid"));
    std::fs::remove_file(m.join("gpus.toml")).unwrap();
    let out = bin().args(["matrix", "validate"]).arg(&m).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gpus.toml: cannot read"));
}

#[test]
fn matrix_folder_overrides_the_bundled_one() {
    let tmp = tempfile::tempdir().unwrap();
    let m = newer_matrix(tmp.path(), "2031-02-03");
    let r = json(
        &bin()
            .arg("--json")
            .arg("--matrix")
            .arg(&m)
            .output()
            .unwrap(),
    );
    assert_eq!(r["matrix"]["version"], "2031-02-03");
    assert_eq!(r["matrix"]["source"], m.display().to_string());
    let r = json(
        &bin()
            .arg("--json")
            .env("GPU_DOCTOR_MATRIX", &m)
            .output()
            .unwrap(),
    );
    assert_eq!(r["matrix"]["version"], "2031-02-03");
    let r = json(&bin().arg("--json").output().unwrap());
    assert_eq!(r["matrix"]["source"], "bundled");
}

#[test]
fn a_newer_cached_matrix_is_used_and_a_broken_one_set_aside() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let m = newer_matrix(tmp.path(), "2032-01-01");
    std::fs::create_dir_all(cache.join("gpu-doctor")).unwrap();
    std::fs::rename(&m, cache.join("gpu-doctor/matrix")).unwrap();
    let r = json(
        &bin()
            .arg("--json")
            .env("XDG_CACHE_HOME", &cache)
            .output()
            .unwrap(),
    );
    assert_eq!(r["matrix"]["version"], "2032-01-01");
    std::fs::write(cache.join("gpu-doctor/matrix/torch.toml"), "schema = [").unwrap();
    let out = bin()
        .arg("--json")
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    let r = json(&out);
    assert_eq!(r["matrix"]["source"], "bundled");
    assert!(String::from_utf8_lossy(&out.stderr).contains("ignoring the cached matrix"));
}

#[test]
fn show_answers_gpu_torch_and_driver_questions() {
    let r = json(
        &bin()
            .args(["matrix", "show", "--json", "--gpu", "RTX 5090"])
            .output()
            .unwrap(),
    );
    let g = &r["gpus"][0];
    assert_eq!(g["name"], "NVIDIA GeForce RTX 5090");
    assert_eq!(g["compute_capability"], "12.0");
    assert_eq!(g["open_module_required"], true);
    let first = &g["torch_builds"][0];
    let cuda: Vec<u32> = first["cuda"]
        .as_str()
        .unwrap()
        .split('.')
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(cuda >= vec![12, 8], "{first}");
    assert!(
        g["torch_builds"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["variant"] != "cu121"),
        "no cu121 build has sm_120"
    );

    let r = json(
        &bin()
            .args(["matrix", "show", "--json", "--torch", "2.4.1"])
            .output()
            .unwrap(),
    );
    let cu121 = r["torch"]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "cu121")
        .unwrap();
    assert!(cu121["install"]
        .as_str()
        .unwrap()
        .ends_with("torch==2.4.1 --index-url https://download.pytorch.org/whl/cu121"));
    assert!(cu121["min_driver"].as_str().unwrap().starts_with("530."));

    let r = json(
        &bin()
            .args(["matrix", "show", "--json", "--driver", "535.104.05"])
            .output()
            .unwrap(),
    );
    assert_eq!(r["driver"]["branch"], 535);
    assert_eq!(r["driver"]["max_cuda"], "12.2");
    let full = r["driver"]["torch_full"].as_array().unwrap();
    assert!(full.iter().any(|v| v == "torch 2.4 cu121"));
    assert!(
        !full.iter().any(|v| v == "torch 2.4 cu124"),
        "cu124 needs 550+ without MVC"
    );

    let text = String::from_utf8(
        bin()
            .args(["matrix", "show", "--gpu", "10de:2684"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        text.contains("RTX 4090") && text.contains("sm_89"),
        "{text}"
    );
    // The NVLink links an SXM part has wired (gpu.nvlink_down judges against them).
    let out = bin()
        .args(["matrix", "show", "--json", "--gpu", "10de:2330"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["gpus"][0]["nvlinks"], 18);

    let out = bin()
        .args(["matrix", "show", "--gpu", "Voodoo 5 6000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let out = bin().args(["matrix", "show"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
}

/// Serves fixed responses by path for a few connections, then stops.
fn serve(routes: HashMap<String, (u16, Vec<u8>)>, connections: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let routes = Arc::new(routes);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            let _ = reader.read_line(&mut request);
            let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
            loop {
                let mut l = String::new();
                if reader.read_line(&mut l).unwrap_or(0) == 0 || l == "\r\n" {
                    break;
                }
            }
            let (code, body) = routes
                .get(&path)
                .cloned()
                .unwrap_or((404, b"not found".to_vec()));
            let _ = write!(
                stream,
                "HTTP/1.1 {code} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(&body);
        }
    });
    format!("http://{addr}")
}

fn bundle(dir: &Path) -> Vec<u8> {
    let out = bin().args(["matrix", "bundle"]).arg(dir).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// minisign signs with a throw-away key: the CLI from Debian's `minisign` package.
fn sign(data: &[u8], dir: &Path) -> Option<(String, String)> {
    if std::process::Command::new("minisign")
        .arg("-v")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "minisign is missing (scripts/test.sh installs it)"
        );
        eprintln!("SKIP: minisign not installed");
        return None;
    }
    let (pk, sk, f) = (
        dir.join("t.pub"),
        dir.join("t.key"),
        dir.join("bundle.json"),
    );
    let ok = std::process::Command::new("minisign")
        .args(["-G", "-W", "-f", "-p"])
        .arg(&pk)
        .arg("-s")
        .arg(&sk)
        .output()
        .unwrap()
        .status
        .success();
    assert!(ok);
    std::fs::write(&f, data).unwrap();
    let ok = std::process::Command::new("minisign")
        .args(["-S", "-s"])
        .arg(&sk)
        .arg("-m")
        .arg(&f)
        .output()
        .unwrap()
        .status
        .success();
    assert!(ok);
    Some((
        std::fs::read_to_string(pk).unwrap(),
        std::fs::read_to_string(dir.join("bundle.json.minisig")).unwrap(),
    ))
}

#[test]
fn update_refuses_a_bundle_not_signed_by_the_project_key() {
    let tmp = tempfile::tempdir().unwrap();
    let m = newer_matrix(tmp.path(), "2033-01-01");
    let data = bundle(&m);
    let Some((_, sig)) = sign(&data, tmp.path()) else {
        return;
    };
    let base = serve(
        HashMap::from([
            ("/m.json".to_string(), (200, data)),
            ("/m.json.minisig".to_string(), (200, sig.into_bytes())),
        ]),
        2,
    );
    let cache = tmp.path().join("cache");
    let out = bin()
        .args(["matrix", "update", "--url", &format!("{base}/m.json")])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not verify against the built-in key"),
        "{err}"
    );
    assert!(err.contains("the matrix in use stays"), "{err}");
    assert!(!cache.join("gpu-doctor/matrix").exists(), "nothing stored");
}

#[test]
fn update_offline_or_missing_leaves_the_bundled_matrix() {
    let tmp = tempfile::tempdir().unwrap();
    // A port nothing listens on.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = bin()
        .args([
            "matrix",
            "update",
            "--url",
            &format!("http://127.0.0.1:{port}/m.json"),
        ])
        .env("XDG_CACHE_HOME", tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not fetch"));
    let base = serve(HashMap::new(), 1);
    let out = bin()
        .args(["matrix", "update", "--url", &format!("{base}/m.json")])
        .env("XDG_CACHE_HOME", tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("HTTP 404"));
    let out = bin().args(["matrix", "update"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --url URL"));
}

/// The whole path with a key the test holds: fetch, verify, validate, store; then the
/// report uses the stored matrix.
#[test]
fn update_with_a_trusted_key_stores_and_reports_use_it() {
    use gpu_doctor::matrix::update;
    let tmp = tempfile::tempdir().unwrap();
    let m = newer_matrix(tmp.path(), "2034-05-06");
    let data = bundle(&m);
    let Some((pk, sig)) = sign(&data, tmp.path()) else {
        return;
    };
    // A tampered copy fails the signature even with the right key.
    let mut tampered = data.clone();
    let last = tampered.len() - 3;
    tampered[last] ^= 1;
    assert!(matches!(
        update::verify_bundle("t", &tampered, &sig, &pk),
        Err(update::UpdateError::BadSignature { .. })
    ));
    let base = serve(
        HashMap::from([
            ("/m.json".to_string(), (200, data)),
            ("/m.json.minisig".to_string(), (200, sig.into_bytes())),
        ]),
        2,
    );
    let cache_root = tmp.path().join("xdg");
    let cache = cache_root.join("gpu-doctor/matrix");
    let outcome = update::update(&format!("{base}/m.json"), &pk, &cache, "2026-01-01").unwrap();
    assert!(
        matches!(outcome, update::Outcome::Stored { ref version, .. } if version == "2034-05-06"),
        "{outcome:?}"
    );
    let r = json(
        &bin()
            .arg("--json")
            .env("XDG_CACHE_HOME", &cache_root)
            .output()
            .unwrap(),
    );
    assert_eq!(r["matrix"]["version"], "2034-05-06");
    assert_eq!(r["matrix"]["source"], cache.display().to_string());
}
