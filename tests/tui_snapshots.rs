#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every screen of the terminal UI, drawn with ratatui's TestBackend from the fixture
//! reports at 80×24 and 160×48, compared with insta snapshots (tests/snapshots/).

mod tui_reports;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use gpu_doctor::tui::app::App;
use gpu_doctor::tui::msg::Msg;
use gpu_doctor::tui::{update::update, view};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];

fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

fn app(name: &str, size: (u16, u16), keys: &[KeyCode]) -> App {
    let mut app = App::with_report(tui_reports::load(name), size, false);
    for k in keys {
        update(&mut app, key(*k));
    }
    app
}

pub fn screen(app: &App) -> String {
    let mut term = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    term.draw(|f| view::draw(f, app)).unwrap();
    term.backend().to_string()
}

fn snapshot(name: &str, app: &App) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    // Volatile: the tool's version (it changes with every release).
    settings.add_filter(r"gpu-doctor \d+\.\d+\.\d+\S*", "gpu-doctor [version]");
    // Volatile: the matrix's version, a date (it changes with every matrix release); the
    // placeholder has the same width, so the layout around it is kept.
    settings.add_filter(r"matrix \d{4}-\d{2}-\d{2}", "matrix YYYY-MM-DD");
    settings.bind(|| insta::assert_snapshot!(name, screen(app)));
}

/// The screens, by the keys that reach them from the start.
const SCREENS: &[(&str, &[KeyCode])] = &[
    ("overview", &[]),
    ("detail", &[KeyCode::Enter]),
    ("gpus", &[KeyCode::Tab, KeyCode::Tab]),
    ("environment", &[KeyCode::Tab, KeyCode::Tab, KeyCode::Tab]),
    ("probe_log", &[KeyCode::BackTab]),
];

#[test]
fn every_screen_of_every_fixture() {
    for name in tui_reports::NAMES {
        for size in SIZES {
            for (screen_name, keys) in SCREENS {
                let a = app(name, size, keys);
                snapshot(&format!("{name}_{screen_name}_{}x{}", size.0, size.1), &a);
            }
        }
    }
}

#[test]
fn overlays_and_filter() {
    for size in SIZES {
        let s = format!("{}x{}", size.0, size.1);
        snapshot(
            &format!("help_{s}"),
            &app("mismatched_driver", size, &[KeyCode::Char('?')]),
        );
        snapshot(
            &format!("picker_{s}"),
            &app(
                "healthy_8gpu",
                size,
                &[KeyCode::Char('p'), KeyCode::Down, KeyCode::Char(' ')],
            ),
        );
        let filtered = app(
            "healthy_8gpu",
            size,
            &[
                KeyCode::Char('/'),
                KeyCode::Char('g'),
                KeyCode::Char('p'),
                KeyCode::Char('u'),
                KeyCode::Char(' '),
                KeyCode::Char('3'),
            ],
        );
        snapshot(&format!("filter_{s}"), &filtered);
    }
}

/// GPU 1's findings (by index: not GPUs 10 and 11), then `/` typed over the drill-down:
/// the title shows the GPU and the filter apart.
#[test]
fn gpu_drill_down_and_filter() {
    for size in SIZES {
        let s = format!("{}x{}", size.0, size.1);
        let keys = [KeyCode::Tab, KeyCode::Tab, KeyCode::Down, KeyCode::Enter];
        snapshot(
            &format!("drill_down_gpu1_{s}"),
            &app("twelve_gpu_probe_failures", size, &keys),
        );
        let mut typed = keys.to_vec();
        typed.extend("/probe".chars().map(KeyCode::Char));
        snapshot(
            &format!("drill_down_gpu1_filter_{s}"),
            &app("twelve_gpu_probe_failures", size, &typed),
        );
    }
}

#[test]
fn loading_and_failure_states() {
    let mut a = App::new("gpu-doctor-report.json".into(), false, true);
    a.size = (80, 24);
    update(
        &mut a,
        Msg::Stage {
            generation: 0,
            stage: 0,
            done: true,
        },
    );
    update(
        &mut a,
        Msg::Stage {
            generation: 0,
            stage: 1,
            done: true,
        },
    );
    update(
        &mut a,
        Msg::Stage {
            generation: 0,
            stage: 2,
            done: false,
        },
    );
    snapshot("loading_80x24", &a);
    update(
        &mut a,
        Msg::LoadFailed {
            generation: 0,
            error: "\"r.json\" is not a gpu-doctor JSON report: expected value at line 1 column 1"
                .into(),
        },
    );
    snapshot("load_failed_80x24", &a);
    // Probe cells as a runner streams results: pending, a spinner, then a marker and time.
    let mut live = App::with_report(tui_reports::load("probe_timeout"), (100, 24), false);
    for (gpu, state) in [
        (
            0,
            gpu_doctor::tui::msg::ProbeState::Done(
                gpu_doctor::report::finding::Severity::Warn,
                Some(2300),
            ),
        ),
        (1, gpu_doctor::tui::msg::ProbeState::Running),
    ] {
        update(
            &mut live,
            Msg::Probe {
                gpu,
                probe: "oom".into(),
                state,
            },
        );
    }
    update(
        &mut live,
        Msg::Probe {
            gpu: 1,
            probe: "graph".into(),
            state: gpu_doctor::tui::msg::ProbeState::Pending,
        },
    );
    snapshot("probes_streaming_100x24", &live);
    update(&mut live, key(KeyCode::BackTab));
    snapshot("probes_streaming_log_100x24", &live);
    // Narrow: columns drop by priority instead of wrapping.
    let narrow = App::with_report(tui_reports::load("probe_timeout"), (50, 16), false);
    snapshot("narrow_50x16", &narrow);
    let tiny = App::with_report(tui_reports::load("no_driver"), (30, 8), false);
    snapshot("too_small_30x8", &tiny);
}
