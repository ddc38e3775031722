#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End-to-end tests of `gpu-doctor fleet` against a real OpenSSH server started on
//! loopback for each test: an unprivileged port, generated host and user keys, its own
//! sshd_config, running as the current user. An ssh_config with `Host` aliases makes many
//! "hosts" of the one server; `SetEnv` (accepted by the server) tells the fake remote
//! gpu-doctor how each alias behaves, or points the real binary at a fixture root.

mod fixture_root;

use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use fixture_root::FixtureRoot;

const SSHD: &str = "/usr/sbin/sshd";
const BIN: &str = env!("CARGO_BIN_EXE_gpu-doctor");

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn keygen(path: &Path) {
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "fleet-test", "-f"])
        .arg(path)
        .output()
        .expect("ssh-keygen (openssh-client) must be installed: scripts/test.sh installs it");
    assert!(out.status.success(), "{out:?}");
}

/// The tests that start an sshd run one at a time: ssh handshakes are CPU-bound, and
/// several fleets at once on a small CI machine would turn time limits into noise.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A running sshd on 127.0.0.1, killed on drop, and the files a client needs.
struct Sshd {
    _serial: std::sync::MutexGuard<'static, ()>,
    child: Child,
    dir: tempfile::TempDir,
    port: u16,
    /// Host alias blocks added to the client config, before `Host *`.
    aliases: String,
}

impl Sshd {
    fn start() -> Sshd {
        let serial = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        assert!(
            Path::new(SSHD).exists(),
            "{SSHD} is missing: install openssh-server (scripts/test.sh does) to run the fleet tests"
        );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        keygen(&d.join("host_key"));
        keygen(&d.join("other_host_key"));
        keygen(&d.join("user_key"));
        keygen(&d.join("wrong_key"));
        std::fs::copy(d.join("user_key.pub"), d.join("authorized_keys")).unwrap();
        std::fs::create_dir_all(d.join("bin")).unwrap();
        std::fs::create_dir_all(d.join("rtmp")).unwrap();
        // sshd wants its privilege-separation folder when it runs as root.
        let _ = std::fs::create_dir_all("/run/sshd");
        let port = free_port();
        std::fs::write(
            d.join("sshd_config"),
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {hk}\nPidFile none\n\
                 AuthorizedKeysFile {ak}\nStrictModes no\nUsePAM no\nPermitRootLogin yes\n\
                 PasswordAuthentication no\nKbdInteractiveAuthentication no\n\
                 PubkeyAuthentication yes\nMaxStartups 1000\nMaxSessions 1000\n\
                 AcceptEnv GPU_DOCTOR_FAKE GPU_DOCTOR_ROOT TMPDIR\nLogLevel ERROR\n",
                hk = d.join("host_key").display(),
                ak = d.join("authorized_keys").display(),
            ),
        )
        .unwrap();
        let host_pub = std::fs::read_to_string(d.join("host_key.pub")).unwrap();
        let other_pub = std::fs::read_to_string(d.join("other_host_key.pub")).unwrap();
        std::fs::write(
            d.join("known_hosts"),
            format!("[127.0.0.1]:{port} {host_pub}changedhost {other_pub}"),
        )
        .unwrap();
        let child = Command::new(SSHD)
            .arg("-D")
            .arg("-e")
            .arg("-f")
            .arg(d.join("sshd_config"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start sshd");
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "sshd did not listen on {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
        let s = Sshd {
            _serial: serial,
            child,
            dir,
            port,
            aliases: String::new(),
        };
        s.fake_remote();
        s.write_config();
        s
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Adds a `Host` block (before the defaults) and rewrites the client config.
    fn alias(&mut self, pattern: &str, lines: &[&str]) {
        self.aliases.push_str(&format!("Host {pattern}\n"));
        for l in lines {
            self.aliases.push_str(&format!("  {l}\n"));
        }
        self.write_config();
    }

    /// Hosts that behave as `fake` says (see `fake_remote`).
    fn fake(&mut self, pattern: &str, fake: &str) {
        self.alias(pattern, &[&format!("SetEnv GPU_DOCTOR_FAKE={fake}")]);
    }

    fn write_config(&self) {
        let d = self.dir.path();
        let user = String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_string();
        let text = format!(
            "{aliases}Host * !wrongkey\n  IdentityFile {key}\n\
             Host *\n  HostName 127.0.0.1\n  Port {port}\n  User {user}\n  \
             IdentitiesOnly yes\n  IdentityAgent none\n  \
             UserKnownHostsFile {kh}\n  GlobalKnownHostsFile /dev/null\n  \
             StrictHostKeyChecking yes\n  CheckHostIP no\n  LogLevel ERROR\n",
            aliases = self.aliases,
            port = self.port,
            key = d.join("user_key").display(),
            kh = d.join("known_hosts").display(),
        );
        std::fs::write(d.join("ssh_config"), text).unwrap();
    }

    /// `bin/gpu-doctor`: a stand-in for the remote gpu-doctor, behaving as the
    /// `GPU_DOCTOR_FAKE` the alias sets.
    fn fake_remote(&self) {
        let d = self.dir.path();
        let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports");
        for name in ["healthy_8gpu", "mismatched_driver"] {
            std::fs::copy(
                reports.join(format!("{name}.json")),
                d.join(format!("{name}.json")),
            )
            .unwrap();
        }
        let script = format!(
            r#"#!/bin/sh
d='{d}'
printf '%s\n' "$*" >> "$d/argv.log"
case "$GPU_DOCTOR_FAKE" in
  missing) echo "sh: 1: gpu-doctor: not found" >&2; exit 127 ;;
  hang) exec sleep 30 ;;
  garbage) printf 'Segmentation fault\033[2J\033]52;c;cm0gLXJmIC8=\007 not json\n'; exit 0 ;;
  huge) head -c 100000000 /dev/zero | tr '\0' x; exit 0 ;;
  old) printf '{{"schema_version": 0, "verdict": "ok"}}\n'; exit 0 ;;
  truncated) head -c 2000 "$d/healthy_8gpu.json"; exit 0 ;;
  failing) cat "$d/mismatched_driver.json"; exit 2 ;;
  older) sed 's/"version": "0.1.0"/"version": "0.0.1"/' "$d/healthy_8gpu.json"; exit 0 ;;
  *) cat "$d/healthy_8gpu.json"; exit 0 ;;
esac
"#,
            d = d.display()
        );
        let p = d.join("bin/gpu-doctor");
        std::fs::write(&p, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// `gpu-doctor fleet --ssh-config ... ARGS`, timed.
    fn fleet(&self, args: &[&str]) -> (Output, Duration) {
        let start = Instant::now();
        let out = Command::new(BIN)
            .arg("fleet")
            .arg("--ssh-config")
            .arg(self.path("ssh_config"))
            .args(args)
            .env_remove("SSH_AUTH_SOCK")
            .env_remove("GPU_DOCTOR_SSH")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (out, start.elapsed())
    }

    fn remote_cmd(&self) -> String {
        self.path("bin/gpu-doctor").display().to_string()
    }

    /// `fleet --json` with the fake remote: (exit code, document, elapsed).
    fn fleet_json(&self, args: &[&str]) -> (i32, serde_json::Value, Duration) {
        let cmd = self.remote_cmd();
        let mut all = vec!["--json", "--remote-cmd", &cmd];
        all.extend_from_slice(args);
        let (out, t) = self.fleet(&all);
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}\nstderr: {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().unwrap(), doc, t)
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// host -> status, from a fleet JSON document.
fn statuses(doc: &serde_json::Value) -> BTreeMap<String, String> {
    doc["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["host"].as_str().unwrap().to_string(),
                h["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn host<'a>(doc: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    doc["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == name)
        .unwrap_or_else(|| panic!("no host {name} in {doc:#}"))
}

#[test]
fn a_healthy_fleet_folds_into_one_group() {
    let sshd = Sshd::start();
    let (code, doc, t) = sshd.fleet_json(&["--jobs", "16", "node[01-40]"]);
    let st = statuses(&doc);
    assert_eq!(st.len(), 40);
    assert!(st.values().all(|s| s == "ok"), "{st:?}\n{doc:#}");
    assert_eq!(code, 0);
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["summary"]["statuses"]["ok"], 40);
    assert_eq!(doc["summary"]["verdicts"]["healthy"], 40);
    let groups = doc["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:#?}");
    assert_eq!(groups[0]["hosts"], "node[01-40]");
    assert_eq!(groups[0]["count"], 40);
    assert_eq!(groups[0]["verdict"], "healthy");
    assert_eq!(doc["drift"].as_array().unwrap().len(), 0);
    // Every host's full report is in the document, readable as a report.
    let h = host(&doc, "node07");
    assert_eq!(h["report"]["schema_version"], 2);
    assert_eq!(h["summary"]["gpus"], 8);
    assert!(t < Duration::from_secs(60), "took {t:?}");
}

#[test]
fn every_failure_mode_ends_in_its_own_status() {
    let mut sshd = Sshd::start();
    let closed = free_port();
    sshd.fake("missing", "missing");
    sshd.fake("hang", "hang");
    sshd.fake("garbage", "garbage");
    sshd.fake("huge", "huge");
    sshd.fake("old", "old");
    sshd.fake("truncated", "truncated");
    sshd.fake("failing", "failing");
    sshd.alias("refused", &[&format!("Port {closed}")]);
    let wrong = sshd.path("wrong_key").display().to_string();
    sshd.alias("wrongkey", &[&format!("IdentityFile {wrong}")]);
    sshd.alias("changed", &["HostKeyAlias changedhost"]);
    // Jump hosts come from the user's ssh_config; a hang behind one is cut with its proxy.
    sshd.alias("jumped", &["ProxyJump node01"]);
    sshd.alias(
        "jumphang",
        &["ProxyJump node01", "SetEnv GPU_DOCTOR_FAKE=hang"],
    );
    let (code, doc, t) = sshd.fleet_json(&[
        "--timeout",
        "15",
        "--jobs",
        "14",
        "jumped",
        "jumphang",
        "node[01-02]",
        "missing",
        "refused",
        "wrongkey",
        "changed",
        "hang",
        "garbage",
        "huge",
        "old",
        "truncated",
        "failing",
    ]);
    let want: BTreeMap<String, String> = [
        ("node01", "ok"),
        ("node02", "ok"),
        ("missing", "not_installed"),
        ("refused", "unreachable"),
        ("wrongkey", "auth_failed"),
        ("changed", "host_key_mismatch"),
        ("hang", "timeout"),
        ("garbage", "bad_output"),
        ("huge", "bad_output"),
        ("old", "incompatible"),
        ("truncated", "bad_output"),
        ("failing", "ok"),
        ("jumped", "ok"),
        ("jumphang", "timeout"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(statuses(&doc), want, "{doc:#}");
    assert_eq!(code, 2, "an unreachable host is a failure");
    assert_eq!(doc["exit_code"], 2);
    assert_eq!(host(&doc, "failing")["summary"]["verdict"], "failures");
    assert_eq!(
        host(&doc, "failing")["summary"]["top_finding"],
        "driver.library_mismatch"
    );
    // ssh's own words are kept; nothing the remote printed reaches us raw.
    let refused = host(&doc, "refused")["detail"].as_str().unwrap();
    assert!(refused.contains("Connection refused"), "{refused}");
    let garbage = host(&doc, "garbage")["detail"].as_str().unwrap();
    assert!(
        !garbage.contains('\u{1b}') && !garbage.contains('\u{7}'),
        "{garbage:?}"
    );
    assert!(host(&doc, "huge")["detail"]
        .as_str()
        .unwrap()
        .contains("went past"));
    assert!(host(&doc, "old")["detail"]
        .as_str()
        .unwrap()
        .contains("schema_version 0"));
    // The hang is cut at the time limit, and the run does not wait for it further.
    let config = sshd.path("ssh_config").display().to_string();
    let left: Vec<String> = processes_mentioning(&config)
        .into_iter()
        .filter(|c| c.starts_with("ssh "))
        .collect();
    assert!(
        left.is_empty(),
        "ssh or its proxy outlived the run: {left:#?}"
    );
    let hang = host(&doc, "hang")["elapsed_ms"].as_u64().unwrap();
    assert!((15_000..18_000).contains(&hang), "{hang} ms");
    assert!(t < Duration::from_secs(40), "took {t:?}");
}

#[test]
fn push_runs_this_binary_where_gpu_doctor_is_missing_and_cleans_up() {
    let mut sshd = Sshd::start();
    let rtmp = sshd.path("rtmp").display().to_string();
    sshd.alias(
        "missing*",
        &[&format!("SetEnv GPU_DOCTOR_FAKE=missing TMPDIR={rtmp}")],
    );
    sshd.fake("older", "older");
    sshd.fake("oldschema", "old");
    let (code, doc, t) = sshd.fleet_json(&[
        "--push",
        "--timeout",
        "60",
        "missing[1-2]",
        "node01",
        "older",
        "oldschema",
        "--",
        "--only",
        "host",
    ]);
    let st = statuses(&doc);
    assert!(st.values().all(|s| s == "ok"), "{doc:#}");
    // Missing, older than this binary, or an unreadable schema: this binary is pushed.
    for h in ["missing1", "missing2", "older", "oldschema"] {
        let r = host(&doc, h);
        assert_eq!(r["pushed"], true, "{h}");
        assert_eq!(r["report"]["tool"]["version"], env!("CARGO_PKG_VERSION"));
        // The pushed binary ran on "this machine" (no GPU) with the passed-through args.
        let ids: Vec<String> = r["report"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(fixture_root::failure_id)
            .collect();
        assert!(ids.iter().all(|i| i.starts_with("host.")), "{ids:?}");
        assert!(ids.iter().any(|i| i == "host.no_nvidia_gpu"), "{ids:?}");
    }
    assert!(host(&doc, "node01").get("pushed").is_none());
    // No GPU here: the pushed reports fail, so the fleet does.
    assert_eq!(code, 2);
    let left: Vec<_> = std::fs::read_dir(sshd.path("rtmp")).unwrap().collect();
    assert!(
        left.is_empty(),
        "the pushed binary was left behind: {left:?}"
    );
    assert!(t < Duration::from_secs(60), "took {t:?}");
}

#[test]
fn without_push_a_missing_gpu_doctor_is_not_installed() {
    let mut sshd = Sshd::start();
    sshd.fake("missing*", "missing");
    let (code, doc, t) = sshd.fleet_json(&["missing[1-3]"]);
    assert!(
        statuses(&doc).values().all(|s| s == "not_installed"),
        "{doc:#}"
    );
    assert_eq!(code, 2);
    assert_eq!(doc["groups"][0]["hosts"], "missing[1-3]");
    assert!(t < Duration::from_secs(30), "took {t:?}");
}

#[test]
fn the_real_binary_on_fixture_hosts_shows_drift() {
    let mut sshd = Sshd::start();
    let a = FixtureRoot::ubuntu();
    a.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .device_nodes(1);
    let b = FixtureRoot::ubuntu();
    b.gpu(Some("nvidia"))
        .kernel_module("535.104.05")
        .device_nodes(1);
    sshd.alias(
        "new*",
        &[&format!("SetEnv GPU_DOCTOR_ROOT={}", a.root().display())],
    );
    sshd.alias(
        "old*",
        &[&format!("SetEnv GPU_DOCTOR_ROOT={}", b.root().display())],
    );
    let start = Instant::now();
    let (out, _) = sshd.fleet(&["--json", "--remote-cmd", BIN, "new[1-3]", "old1"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(statuses(&doc).values().all(|s| s == "ok"), "{doc:#}");
    let drift = doc["drift"].as_array().unwrap();
    let driver = drift
        .iter()
        .find(|d| d["attribute"] == "driver")
        .unwrap_or_else(|| panic!("no driver drift: {drift:#?}"));
    assert_eq!(driver["majority"], "550.54.15");
    assert_eq!(driver["majority_count"], 3);
    assert_eq!(driver["outliers"][0]["hosts"], "old1");
    assert_eq!(driver["outliers"][0]["value"], "535.104.05");
    assert_eq!(
        i64::from(out.status.code().unwrap()),
        doc["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["report"]["exit_code"].as_i64().unwrap().min(2))
            .max()
            .unwrap()
    );
    // The plain table shows the same fleet.
    let (plain, _) = sshd.fleet(&["--plain", "--remote-cmd", BIN, "new[1-3]", "old1"]);
    let text = String::from_utf8(plain.stdout).unwrap();
    assert!(text.starts_with("HOST"), "{text}");
    assert!(text.contains("new[1-3]"), "{text}");
    assert!(text.contains("Drift"), "{text}");
    assert!(text.contains("535.104.05  old1"), "{text}");
    assert!(start.elapsed() < Duration::from_secs(60));
}

/// `fleet --expect PROFILE` over ssh: the profile is read here and each host's report is
/// judged against it; the remote gpu-doctor is run as without it (nothing is copied).
#[test]
fn expect_judges_each_ssh_host_here() {
    let sshd = Sshd::start();
    let profiles = tempfile::tempdir().unwrap();
    let profile = profiles.path().join("a100.toml");
    std::fs::write(&profile, "gpu_model = \"NVIDIA A100-SXM4-80GB\"\n").unwrap();
    let p = profile.to_str().unwrap();
    let (code, doc, _) = sshd.fleet_json(&["--expect", p, "node[1-2]"]);
    assert_eq!(code, 2, "{doc:#}");
    for name in ["node1", "node2"] {
        let h = host(&doc, name);
        assert_eq!(h["status"], "ok", "{h}");
        assert_eq!(h["summary"]["top_finding"], "host.drift", "{h}");
        let drift: Vec<&serde_json::Value> = h["report"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["id"] == "host.drift")
            .collect();
        // Every one of the 8 H100s is another model than the profile's.
        assert_eq!(drift.len(), 8, "{drift:#?}");
        assert!(drift.iter().all(|f| f["severity"] == "fail"));
    }
    let argv = std::fs::read_to_string(sshd.path("argv.log")).unwrap();
    assert_eq!(argv.lines().count(), 2, "{argv}");
    assert!(
        argv.lines().all(|l| l == "--json") && !argv.contains("a100.toml"),
        "the remote gpu-doctor got only --json:\n{argv}"
    );
}

#[test]
fn host_lists_from_files_and_stdin() {
    let sshd = Sshd::start();
    let list = sshd.path("hosts.txt");
    std::fs::write(
        &list,
        "# rack 1\nnode[01-03]  # three\n\nnode03\ngpu-[a,b]\n",
    )
    .unwrap();
    let (code, doc, t) = sshd.fleet_json(&["--hosts", list.to_str().unwrap()]);
    let names: Vec<&str> = doc["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["node01", "node02", "node03", "gpu-a", "gpu-b"]);
    assert_eq!(code, 0);
    assert!(t < Duration::from_secs(30));

    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(["fleet", "--json", "--ssh-config"])
        .arg(sshd.path("ssh_config"))
        .args(["--remote-cmd", &sshd.remote_cmd(), "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"node[1-2]\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(statuses(&doc).len(), 2);
    assert_eq!(out.status.code(), Some(0));
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn hostile_host_names_are_refused_before_ssh_runs() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let list = dir.path().join("hosts");
    std::fs::write(
        &list,
        format!("ok-host\n-oProxyCommand=touch {}\n", marker.display()),
    )
    .unwrap();
    let start = Instant::now();
    let out = Command::new(BIN)
        .args(["fleet", "--hosts"])
        .arg(&list)
        .env("GPU_DOCTOR_SSH", "/bin/false")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":2: host") && err.contains("starts with '-'"),
        "{err}"
    );
    for bad in ["a;touch x", "$(touch x)", "a b", "n[1-"] {
        let out = Command::new(BIN)
            .args(["fleet", bad])
            .env("GPU_DOCTOR_SSH", "/bin/false")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{bad}");
    }
    let out = Command::new(BIN).arg("fleet").output().unwrap();
    assert_eq!(out.status.code(), Some(3), "no hosts is no verdict");
    assert!(!marker.exists());
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// A host list expanded onto argv (`fleet $(cat hosts)`) never becomes options: ssh (here a
/// script that leaves a mark whenever it runs at all) is never started, exit 3.
#[test]
fn options_smuggled_after_a_host_run_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let ssh = dir.path().join("ssh");
    std::fs::write(
        &ssh,
        format!("#!/bin/sh\ntouch '{}'\nexit 255\n", marker.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let touch = format!("touch {}", marker.display());
    let proxy = format!("-oProxyCommand={touch}");
    let remote = format!("--remote-cmd={touch}");
    let config = format!("--ssh-config={}", dir.path().join("evil").display());
    let cases: [&[&str]; 6] = [
        &["node01", &proxy],
        &["node01", "-o", &format!("ProxyCommand={touch}")],
        &["node01", "node02", &remote],
        &["node01", &config],
        &["node01", "--push"],
        &["-o", &format!("ProxyCommand={touch}"), "node01"],
    ];
    for args in cases {
        let out = Command::new(BIN)
            .arg("fleet")
            .args(args)
            .env("GPU_DOCTOR_SSH", &ssh)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!marker.exists(), "{args:?} ran ssh");
    }
    // Options before the hosts still work (ssh runs and fails: the mark is made).
    let out = Command::new(BIN)
        .args([
            "fleet",
            "--plain",
            "-o",
            "User=ops",
            "--timeout",
            "5",
            "node01",
        ])
        .env("GPU_DOCTOR_SSH", &ssh)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(marker.exists());
}

#[test]
fn fleet_prometheus_metrics_per_host() {
    let mut sshd = Sshd::start();
    sshd.fake("failing", "failing");
    sshd.alias("refused-nowhere", &[&format!("Port {}", free_port())]);
    let prom = sshd.path("fleet.prom");
    let (code, _doc, t) = sshd.fleet_json(&[
        "--prometheus",
        prom.to_str().unwrap(),
        "node01",
        "failing",
        "refused-nowhere",
    ]);
    assert_eq!(code, 2);
    let text = std::fs::read_to_string(&prom).unwrap();
    for want in [
        "gpu_doctor_fleet_host_status{host=\"refused-nowhere\",status=\"unreachable\"} 1",
        "gpu_doctor_up{host=\"refused-nowhere\"} 0",
        "gpu_doctor_verdict{host=\"failing\",verdict=\"failures\"} 1",
        "gpu_doctor_finding{host=\"failing\",check=\"driver.library_version\",id=\"driver.library_mismatch\"} 3",
    ] {
        assert!(text.contains(want), "{want} missing:\n{text}");
    }
    assert!(t < Duration::from_secs(30));
}

#[test]
fn slurm_mode_and_single_host_prometheus() {
    let dir = tempfile::tempdir().unwrap();
    let prom = dir.path().join("node.prom");
    let out = Command::new(BIN)
        .arg("--slurm")
        .arg("--prometheus")
        .arg(&prom)
        .env_remove("GPU_DOCTOR_ROOT")
        .output()
        .unwrap();
    // This machine has no GPU: a failure, one line, non-zero.
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("gpu-doctor: host.no_nvidia_gpu: "),
        "{text}"
    );
    let metrics = std::fs::read_to_string(&prom).unwrap();
    assert!(
        metrics.contains("gpu_doctor_verdict{verdict=\"failures\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics
            .contains("gpu_doctor_finding{check=\"host.gpu_present\",id=\"host.no_nvidia_gpu\"} 3"),
        "{metrics}"
    );
}

/// Processes whose command line mentions `needle` (read from /proc).
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(needle) {
                out.push(cmd);
            }
        }
    }
    out
}

#[test]
fn an_interrupted_fleet_leaves_no_ssh_behind() {
    let mut sshd = Sshd::start();
    sshd.fake("hang*", "hang");
    let config = sshd.path("ssh_config").display().to_string();
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args([
            "fleet",
            "--plain",
            "--timeout",
            "60",
            "--ssh-config",
            &config,
        ])
        .args(["--remote-cmd", &sshd.remote_cmd(), "hang[1-4]"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the four ssh children are up.
    let deadline = Instant::now() + Duration::from_secs(30);
    while processes_mentioning(&config)
        .iter()
        .filter(|c| c.starts_with("ssh "))
        .count()
        < 4
    {
        assert!(Instant::now() < deadline, "the ssh children never started");
        std::thread::sleep(Duration::from_millis(100));
    }
    nix_kill(child.id(), "TERM");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15));
    std::thread::sleep(Duration::from_millis(300));
    let left: Vec<String> = processes_mentioning(&config)
        .into_iter()
        .filter(|c| c.starts_with("ssh "))
        .collect();
    assert!(
        left.is_empty(),
        "ssh children outlived gpu-doctor: {left:#?}"
    );
    assert!(start.elapsed() < Duration::from_secs(40));
}

fn nix_kill(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// The fleet UI in a real pseudo-terminal (tmux on a private socket): the live table,
/// Enter into one host's report in the local views, back, the groups page, quit with the
/// fleet's exit code and the terminal given back.
#[test]
fn the_fleet_ui_in_a_terminal() {
    let mut sshd = Sshd::start();
    sshd.fake("failing", "failing");
    let tmux_dir = tempfile::tempdir().unwrap();
    let sock = tmux_dir.path().join("sock");
    let tmux = |args: &[&str]| -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&sock)
            .args(["-f", "/dev/null"])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("tmux is needed (scripts/test.sh installs it): {e}"));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let script = tmux_dir.path().join("run.sh");
    std::fs::write(
        &script,
        format!(
            "TERM=xterm-256color '{BIN}' fleet --ssh-config '{}' --remote-cmd '{}' node[01-03] failing\necho \"EXIT=$?\"\nexec sleep 600\n",
            sshd.path("ssh_config").display(),
            sshd.remote_cmd()
        ),
    )
    .unwrap();
    let start = Instant::now();
    tmux(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "140",
        "-y",
        "30",
        &format!("sh {}", script.display()),
    ]);
    let wait_for = |what: &str| -> String {
        let t0 = Instant::now();
        loop {
            let s = tmux(&["capture-pane", "-p", "-t", "t"]);
            if s.contains(what) {
                return s;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "{what:?} never appeared:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let keys = |k: &[&str]| {
        for key in k {
            tmux(&["send-keys", "-t", "t", key]);
            std::thread::sleep(Duration::from_millis(150));
        }
    };
    let s = wait_for("4 hosts in");
    assert!(s.contains("FAILURES"), "{s}");
    assert!(s.contains("3 healthy") && s.contains("1 failures"), "{s}");
    assert!(s.contains("driver.library_mismatch"), "{s}");
    // Sort worst first: the failing host is on top; Enter opens its report.
    keys(&["s", "Enter"]);
    let s = wait_for("Findings │");
    assert!(s.contains("FAILURES"), "{s}");
    assert!(s.contains("Driver "), "{s}");
    keys(&["q"]);
    wait_for("gpu-doctor fleet");
    keys(&["Tab"]);
    let s = wait_for("Groups (hosts with identical results)");
    assert!(s.contains("node[01-03]  (3)  healthy"), "{s}");
    assert!(s.contains("Drift"), "{s}");
    keys(&["q"]);
    let s = wait_for("EXIT=");
    assert!(s.contains("EXIT=2"), "{s}");
    let modes = tmux(&[
        "display-message",
        "-p",
        "-t",
        "t",
        "#{alternate_on} #{cursor_flag}",
    ]);
    assert_eq!(modes.trim(), "0 1", "the terminal was not given back");
    tmux(&["kill-server"]);
    assert!(start.elapsed() < Duration::from_secs(90));
}
