#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End to end: the real binary in a real pseudo-terminal (tmux), driven by key presses.
//! Each test checks what the screen shows, that the terminal is given back (alternate
//! screen left, cursor shown, mouse reporting off) and the exit code, on every exit
//! path: q, Ctrl-C, SIGTERM, a panic, and a UI that cannot start.
//!
//! Needs tmux (scripts/test.sh installs it).

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gpu-doctor");
const WAIT: Duration = Duration::from_secs(20);

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/reports/{name}.json"))
}

/// One tmux server on a private socket, with one pane running a script.
struct Tmux {
    dir: tempfile::TempDir,
}

impl Tmux {
    /// Runs `command` (shell words) in a `width`×`height` pane: it prints a marker, runs
    /// the command, prints its exit code, and stays open so the screen can be inspected.
    fn start(command: &str, width: u16, height: u16) -> Tmux {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("run.sh");
        std::fs::write(
            &script,
            format!("printf 'BEFORE-TUI\\n'\n{command}\necho \"EXIT=$?\"\nexec sleep 600\n"),
        )
        .unwrap();
        let t = Tmux { dir };
        let status = t
            .tmux()
            .args([
                "new-session",
                "-d",
                "-s",
                "t",
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
            ])
            .arg(format!("sh {}", script.display()))
            .status()
            .unwrap_or_else(|e| {
                panic!("tmux is needed for this test (scripts/test.sh installs it): {e}")
            });
        assert!(status.success());
        t
    }

    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S")
            .arg(self.dir.path().join("sock"))
            .args(["-f", "/dev/null"]);
        c
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            let ok = self
                .tmux()
                .args(["send-keys", "-t", "t", k])
                .status()
                .unwrap();
            assert!(ok.success());
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    fn text(&self, text: &str) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", "t", "-l", text])
            .status()
            .unwrap();
        assert!(ok.success());
    }

    fn screen_with(&self, escapes: bool) -> String {
        let mut c = self.tmux();
        c.args(["capture-pane", "-p", "-t", "t"]);
        if escapes {
            c.arg("-e");
        }
        String::from_utf8_lossy(&c.output().unwrap().stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.screen_with(false)
    }

    fn wait_for(&self, what: &str) -> String {
        let t0 = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            if t0.elapsed() > WAIT {
                panic!("{what:?} did not appear in {WAIT:?}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_gone(&self, what: &str) -> String {
        let t0 = Instant::now();
        loop {
            let s = self.screen();
            if !s.contains(what) {
                return s;
            }
            if t0.elapsed() > WAIT {
                panic!("{what:?} stayed on screen for {WAIT:?}:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// (alternate screen on, cursor shown, mouse reporting on) as tmux sees the pane.
    fn modes(&self) -> (bool, bool, bool) {
        let out = self
            .tmux()
            .args([
                "display-message",
                "-p",
                "-t",
                "t",
                "#{alternate_on} #{cursor_flag} #{mouse_any_flag}",
            ])
            .output()
            .unwrap();
        let s = String::from_utf8_lossy(&out.stdout);
        let f: Vec<bool> = s.split_whitespace().map(|w| w == "1").collect();
        assert_eq!(f.len(), 3, "{s}");
        (f[0], f[1], f[2])
    }

    /// Waits for the command to end and returns its exit code and the screen after it.
    fn exit(&self) -> (i32, String) {
        let s = self.wait_for("EXIT=");
        let code = s
            .split("EXIT=")
            .nth(1)
            .map(|r| {
                r.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no exit code in\n{s}"));
        (code, s)
    }

    /// The terminal is as it was: main screen, cursor shown, no mouse reporting, and the
    /// UI left nothing on the main screen.
    fn assert_restored(&self, screen: &str) {
        assert_eq!(self.modes(), (false, true, false), "{screen}");
        assert!(screen.contains("BEFORE-TUI"), "{screen}");
        assert!(
            !screen.contains("Findings ("),
            "UI drawn on the main screen:\n{screen}"
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

fn ui(args: &str) -> String {
    format!("{BIN} {args}")
}

#[test]
fn navigate_details_help_filter_and_quit() {
    let t = Tmux::start(
        &ui(&format!(
            "--from {}",
            fixture("mismatched_driver").display()
        )),
        100,
        30,
    );
    // The whole first screen, not just its header: on a loaded machine tmux can show a
    // frame whose header is drawn before the findings below it.
    let s = t.wait_for("✗ Driver");
    assert_eq!(
        t.modes(),
        (true, false, true),
        "the UI owns the screen while it runs"
    );
    assert!(s.contains("FAILURES"), "{s}");
    assert!(s.contains("user space 550.90.07"), "{s}");
    // The first failure is selected: Enter shows its fix.
    t.keys(&["j", "k", "Enter"]);
    let s = t.wait_for("$ ");
    assert!(s.contains("Fix"), "{s}");
    t.keys(&["?"]);
    t.wait_for("Keys (any key closes)");
    t.keys(&["Escape"]);
    t.wait_gone("Keys (any key closes)");
    // Detail -> GPUs -> Environment.
    t.keys(&["Tab", "Tab"]);
    t.wait_for("Python environments (1)");
    t.keys(&["Tab"]);
    let s = t.wait_for("NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)");
    assert!(s.contains("no probes run"), "{s}");
    t.keys(&["Tab", "/"]);
    t.text("shm");
    let s = t.wait_for("Findings (1/");
    assert!(s.contains("/dev/shm"), "{s}");
    t.keys(&["Enter", "q"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
}

#[test]
fn ctrl_c_restores_and_y_prints_the_fix() {
    let t = Tmux::start(
        &ui(&format!("--from {}", fixture("no_driver").display())),
        80,
        24,
    );
    t.wait_for("FAILURES");
    t.keys(&["y"]);
    t.wait_for("will be printed when you quit");
    t.keys(&["C-c"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
    assert!(
        s.contains("sudo ubuntu-drivers install"),
        "the fix is printed on exit:\n{s}"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    let t = Tmux::start(
        &format!(
            "{} </dev/tty & echo $! > {dir}/pid; wait $!",
            ui(&format!(
                "--from {}",
                fixture("mismatched_driver").display()
            )),
            dir = "$(dirname $0)"
        ),
        80,
        24,
    );
    t.wait_for("FAILURES");
    let pid = std::fs::read_to_string(t.dir.path().join("pid")).unwrap();
    let ok = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(ok.success());
    let (code, s) = t.exit();
    assert_eq!(code, 2, "the report's exit code");
    t.assert_restored(&s);
}

/// Closing the terminal (an ssh session dropped, a tmux server killed) ends the UI: it
/// must not stay behind spinning on a dead terminal.
#[test]
fn a_closed_terminal_ends_the_ui() {
    let t = Tmux::start(
        &format!(
            "{} </dev/tty & echo $! > {dir}/pid; wait $!",
            ui(&format!("--from {}", fixture("no_driver").display())),
            dir = "$(dirname $0)"
        ),
        80,
        24,
    );
    t.wait_for("FAILURES");
    let pid: i32 = std::fs::read_to_string(t.dir.path().join("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = t.tmux().arg("kill-server").status();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let alive = || {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .unwrap_or_default()
                .contains(") Z ")
    };
    while alive() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(!alive(), "gpu-doctor {pid} outlived its terminal");
}

#[test]
fn a_panic_restores_the_terminal_and_exits_3() {
    let t = Tmux::start(
        &format!(
            "RUST_BACKTRACE=0 GPU_DOCTOR_TUI_TEST_PANIC=1 {}",
            ui(&format!("--from {}", fixture("no_driver").display()))
        ),
        80,
        24,
    );
    let (code, s) = t.exit();
    assert_eq!(code, 3);
    t.assert_restored(&s);
    assert!(
        s.contains("GPU_DOCTOR_TUI_TEST_PANIC is set"),
        "the panic message shows:\n{s}"
    );
}

#[test]
fn no_controlling_terminal_means_exit_3() {
    // stdout is the pane, but there is no terminal to read keys from.
    let t = Tmux::start(
        &format!(
            "setsid -w {} </dev/null",
            ui(&format!("--from {}", fixture("no_driver").display()))
        ),
        100,
        24,
    );
    let (code, s) = t.exit();
    assert_eq!(code, 3, "{s}");
    assert!(s.contains("could not start the terminal UI"), "{s}");
    t.assert_restored(&s);
}

#[test]
fn plain_prints_the_text_report_on_a_terminal() {
    let t = Tmux::start(
        &ui(&format!(
            "--plain --from {}",
            fixture("no_driver").display()
        )),
        120,
        40,
    );
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    // The text report opens with its verdict.
    assert!(s.contains("Verdict ✗ failures"), "{s}");
    assert_eq!(t.modes(), (false, true, false));
}

#[test]
fn gathers_a_fixture_machine_live_and_reruns() {
    let root = fixture_root::FixtureRoot::ubuntu();
    root.gpu(None);
    let t = Tmux::start(
        &format!(
            "env -i GPU_DOCTOR_ROOT={} PATH=/usr/bin:/bin HOME=/root TERM=$TERM NO_COLOR=1 {BIN}",
            root.root().display()
        ),
        100,
        30,
    );
    let s = t.wait_for("An NVIDIA GPU is present but no NVIDIA driver is installed");
    // Known by its PCI ids only: named from the matrix, with the ids and why (cut to the
    // column at 100 columns; the findings say why in full).
    assert!(s.contains("GeForce RTX 4090 [10de:2684] (no dri"), "{s}");
    let colored = t.screen_with(true);
    assert!(colored.contains("\x1b[1m"), "bold stays without colour");
    for red in ["\x1b[31m", "\x1b[38;5;1m", "\x1b[91m"] {
        assert!(!colored.contains(red), "NO_COLOR: no red: {colored:?}");
    }
    t.keys(&["r"]);
    t.wait_for("An NVIDIA GPU is present but no NVIDIA driver is installed");
    t.keys(&["q"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
}

#[test]
fn colour_by_default() {
    let t = Tmux::start(
        &ui(&format!("--from {}", fixture("no_driver").display())),
        100,
        30,
    );
    t.wait_for("FAILURES");
    let colored = t.screen_with(true);
    assert!(
        colored.contains("\x1b[38;5;1m") || colored.contains("\x1b[31m"),
        "{colored:?}"
    );
    t.keys(&["q"]);
    assert_eq!(t.exit().0, 2);
}

#[test]
fn probe_progress_shows_live_in_the_gpu_table() {
    let root = fixture_root::FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    let t = Tmux::start(
        &format!(
            "env -i GPU_DOCTOR_ROOT={} GPU_DOCTOR_DRIVER_LIB_DIR={} \
             FAKE_NVML_GPUS='NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d' \
             FAKE_NVML_DRIVER_VERSION=550.54.15 FAKE_CUDA_HANG_KERNEL=add_one \
             PATH=/usr/bin:/bin HOME=/root TERM=$TERM NO_COLOR=1 {BIN} --probe-timeout 6s",
            root.root().display(),
            fake_driver::fake_driver().current.display()
        ),
        200,
        40,
    );
    // While the graph probe hangs, its cell spins and the later probes wait.
    let s = t.wait_for("pending");
    assert!(s.contains("graph") && s.contains("bandwidth"), "{s}");
    let t0 = Instant::now();
    let row = loop {
        let s = t.screen();
        let row = s
            .lines()
            .find(|l| l.contains("H100 80GB HBM3"))
            .unwrap_or("")
            .to_string();
        if row.contains(" run") && row.contains('✓') {
            break row;
        }
        assert!(t0.elapsed() < WAIT, "no probe ever showed as running:\n{s}");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Probes before the hanging one finished (✓ with a time), later ones wait.
    assert!(row.contains('✓'), "{row}");
    assert!(row.contains("pending"), "{row}");
    // After the time limit the worker is killed and the finding arrives.
    let s = t.wait_for("the graph probe hung and was killed");
    assert!(s.contains("FAILURES") || s.contains("failures"), "{s}");
    t.keys(&["q"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
}

/// Esc goes back one level (lazygit, k9s): from the full-screen detail to the list, and
/// the program keeps running; only at the top level does it quit.
#[test]
fn esc_in_the_detail_goes_back_to_the_list_and_keeps_running() {
    let t = Tmux::start(
        &ui(&format!(
            "--from {}",
            fixture("mismatched_driver").display()
        )),
        100,
        30,
    );
    t.wait_for("✗ Driver");
    // Below 110 columns the detail takes the whole body.
    t.keys(&["Enter"]);
    let s = t.wait_for("$ ");
    assert!(!s.contains("Findings ("), "the detail is full screen:\n{s}");
    t.keys(&["Escape"]);
    let s = t.wait_for("Findings (");
    assert!(s.contains("✗ Driver"), "{s}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!t.screen().contains("EXIT="), "Esc in a nested view quit");
    assert!(t.modes().0, "the UI still owns the screen");
    // Another pane: Esc comes back to the list, still running.
    t.keys(&["Tab", "Tab", "Tab"]);
    t.wait_for("Python environments (1)");
    t.keys(&["Escape"]);
    t.wait_for("Findings (");
    assert!(!t.screen().contains("EXIT="));
    // At the top level Esc quits, with the report's exit code.
    t.keys(&["Escape"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
}

/// Enter on GPU 1 shows GPU 1's findings by index: not GPU 10's or 11's. `/` then types
/// a filter beside the GPU scope, not into it.
#[test]
fn gpu_drill_down_is_by_index_and_the_filter_stays_apart() {
    let t = Tmux::start(
        &ui(&format!(
            "--from {}",
            fixture("twelve_gpu_probe_failures").display()
        )),
        100,
        40,
    );
    t.wait_for("✗ Probes");
    let s = t.screen();
    assert!(s.contains("[GPU 10]") && s.contains("[GPU 11]"), "{s}");
    // GPUs pane, second row (GPU 1), Enter.
    t.keys(&["Tab", "Tab", "j", "Enter"]);
    let s = t.wait_for("Findings (8/150) · GPU 1");
    assert!(
        s.contains("launch probe hung") && s.contains("[GPU 1]"),
        "{s}"
    );
    for other in ["[GPU 10]", "[GPU 11]", "[GPU 0]"] {
        assert!(!s.contains(other), "{other} in GPU 1's findings:\n{s}");
    }
    t.keys(&["/"]);
    t.text("launch");
    let s = t.wait_for("Findings (1/150) · GPU 1 · /launch");
    assert!(!s.contains("GPU 1launch"), "{s}");
    // Esc clears the filter, then leaves the GPU's findings for the GPU table.
    t.keys(&["Enter", "Escape"]);
    t.wait_for("Findings (8/150) · GPU 1");
    t.keys(&["Escape"]);
    let s = t.wait_for("Findings (150/150)");
    assert!(s.contains("[GPU 10]"), "{s}");
    t.keys(&["q"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
}

/// The cause comes first with its symptom folded under it; → unfolds, ← folds.
#[test]
fn a_cause_unfolds_its_symptoms_on_right() {
    let t = Tmux::start(
        &ui(&format!(
            "--from {}",
            fixture("mismatched_driver").display()
        )),
        100,
        30,
    );
    let s = t.wait_for("▸ ✗ Kernel module and user-space driver versions differ");
    assert!(!s.contains("(803)"), "the 803 symptom is folded:\n{s}");
    t.keys(&["Right"]);
    let s = t.wait_for("↳ ✗ CUDA reports a driver mismatch (803)");
    assert!(s.contains("▾ ✗ Kernel module"), "{s}");
    t.keys(&["Left"]);
    t.wait_gone("↳ ✗");
    t.keys(&["q"]);
    let (code, s) = t.exit();
    assert_eq!(code, 2);
    t.assert_restored(&s);
}

/// A node with one H100 and driver 550.54.15 (files), for the fake driver libraries.
fn one_h100_node() -> fixture_root::FixtureRoot {
    let root = fixture_root::FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    root
}

/// The clean environment that runs the doctor on [`one_h100_node`] behind the fake NVML and
/// libcuda, with `extra` variables.
fn one_h100_env(root: &fixture_root::FixtureRoot, extra: &str) -> String {
    format!(
        "env -i GPU_DOCTOR_ROOT={} GPU_DOCTOR_DRIVER_LIB_DIR={} {extra} \
         FAKE_NVML_GPUS='NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d' \
         FAKE_NVML_DRIVER_VERSION=550.54.15 PATH=/usr/bin:/bin HOME=/root TERM=$TERM NO_COLOR=1",
        root.root().display(),
        fake_driver::fake_driver().current.display()
    )
}

/// The `--gpus` check before the UI asks the driver worker once, and the UI's gathering uses
/// that answer: NVML is initialised as often with `--gpus 0` as without it.
#[test]
fn the_gpus_check_before_the_ui_does_not_ask_the_driver_twice() {
    let root = one_h100_node();
    let dir = tempfile::tempdir().unwrap();
    let inits = |args: &str, name: &str| {
        let log = dir.path().join(name);
        let env = one_h100_env(&root, &format!("FAKE_NVML_INIT_LOG={}", log.display()));
        let t = Tmux::start(&format!("{env} {BIN} --probes launch {args}"), 200, 40);
        // the probe's result in the GPU table: gathering and probing are done
        t.wait_for("✓ 1");
        t.keys(&["q"]);
        let (_, s) = t.exit();
        t.assert_restored(&s);
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let plain = inits("", "plain.log");
    let selected = inits("--gpus 0", "selected.log");
    assert!(plain >= 1, "NVML was never initialised");
    assert_eq!(selected, plain, "--gpus asked the driver again");
}

/// `--gpus` that matches no GPU is the same usage error as for the text report (exit 3,
/// the same message), found before the UI takes the screen.
#[test]
fn gpus_that_match_no_gpu_are_refused_before_the_ui_starts() {
    let root = one_h100_node();
    let env = one_h100_env(&root, "");
    let t = Tmux::start(&format!("{env} {BIN} --gpus 7"), 200, 40);
    let (code, s) = t.exit();
    assert_eq!(code, 3, "{s}");
    t.assert_restored(&s);
    let message =
        "gpu-doctor: --gpus 7 matches no GPU on this machine: CUDA sees GPU 0 (GPU-0a1b2c3d-";
    assert!(s.contains(message), "{s}");
    // The text report says the same, with the same exit code.
    let plain = Tmux::start(&format!("{env} {BIN} --plain --gpus 7"), 200, 40);
    let (plain_code, p) = plain.exit();
    assert_eq!(plain_code, 3, "{p}");
    assert!(p.contains(message), "{p}");
}
