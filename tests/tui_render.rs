#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! How long a full redraw takes, and that colour follows NO_COLOR.
//!
//! `cargo test --release --test tui_render -- --nocapture` prints the frame times.

mod tui_reports;

use std::time::{Duration, Instant};

use gpu_doctor::tui::app::App;
use gpu_doctor::tui::view;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;

/// This thread's CPU time: unlike wall time, it does not grow when other work on a busy
/// machine preempts the test.
fn cpu_time() -> Duration {
    let t = nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID).unwrap();
    Duration::new(t.tv_sec() as u64, t.tv_nsec() as u32)
}

/// (CPU time, wall time) of each full redraw.
fn frame_times(app: &App, frames: usize) -> Vec<(Duration, Duration)> {
    let mut term = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    (0..frames)
        .map(|_| {
            // Clearing first makes every draw a full redraw, not a diff against the last.
            term.clear().unwrap();
            let (c0, t0) = (cpu_time(), Instant::now());
            term.draw(|f| view::draw(f, app)).unwrap();
            (cpu_time() - c0, t0.elapsed())
        })
        .collect()
}

#[test]
fn a_full_redraw_of_the_largest_fixture_takes_milliseconds() {
    let report = tui_reports::load("healthy_8gpu");
    assert!(report.findings.len() >= 100);
    assert_eq!(
        report
            .facts
            .driver_api
            .nvml
            .value()
            .unwrap()
            .devices
            .value()
            .unwrap()
            .len(),
        8
    );
    // A debug build is several times slower than the release binary people run.
    let limit = if cfg!(debug_assertions) {
        Duration::from_millis(60)
    } else {
        Duration::from_millis(4)
    };
    for size in [(80, 24), (160, 48), (240, 70)] {
        let app = App::with_report(report.clone(), size, true);
        let times = frame_times(&app, if cfg!(debug_assertions) { 40 } else { 200 });
        let stats = |mut v: Vec<Duration>| {
            v.sort();
            (v[v.len() / 2], v[v.len() * 99 / 100])
        };
        let (median, p99) = stats(times.iter().map(|t| t.0).collect());
        let (wall_median, wall_p99) = stats(times.iter().map(|t| t.1).collect());
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let build = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        };
        println!(
            "{}x{}: CPU median {:.3} ms, p99 {:.3} ms; wall median {:.3} ms, p99 {:.3} ms ({build} build)",
            size.0,
            size.1,
            ms(median),
            ms(p99),
            ms(wall_median),
            ms(wall_p99),
        );
        assert!(median < limit, "median frame {median:?} of CPU at {size:?}");
    }
}

/// The cell at the top left: the verdict marker.
fn verdict_color(color: bool) -> Color {
    let app = App::with_report(tui_reports::load("rtx5090_old_wheel"), (80, 24), color);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| view::draw(f, &app)).unwrap();
    let cell = term.backend().buffer()[(0, 0)].clone();
    assert_eq!(cell.symbol(), "✗");
    cell.fg
}

#[test]
fn colour_only_when_asked() {
    assert_eq!(verdict_color(true), Color::Red);
    assert_eq!(verdict_color(false), Color::Reset);
}

fn lines_of(app: &App) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    term.draw(|f| view::draw(f, app)).unwrap();
    let buf = term.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

/// The GPU table's row of GPU `i` ("1   H100 …").
fn gpu_row(lines: &[String], i: u32) -> String {
    lines
        .iter()
        .find(|l| l.starts_with(&format!("{i:<4}H100")))
        .cloned()
        .unwrap_or_else(|| panic!("no row for GPU {i}:\n{}", lines.join("\n")))
}

#[test]
fn a_rerun_shows_none_of_the_last_runs_probe_results() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use gpu_doctor::report::finding::Severity;
    use gpu_doctor::tui::msg::{Msg, ProbeState};
    use gpu_doctor::tui::update::update;
    let report = tui_reports::load("probe_timeout");
    let mut app = App::with_report(report.clone(), (160, 48), false);
    update(
        &mut app,
        Msg::Probe {
            gpu: 0,
            probe: "oom".into(),
            state: ProbeState::Done(Severity::Warn, Some(2300)),
        },
    );
    let before = lines_of(&app);
    assert!(
        gpu_row(&before, 1).contains("✗ 10s"),
        "{}",
        gpu_row(&before, 1)
    );
    assert!(gpu_row(&before, 1).contains("✗ 1 probe"));
    assert!(gpu_row(&before, 0).contains("! 2.3s"));
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE)),
    );
    let during = lines_of(&app);
    for i in 0..2 {
        let row = gpu_row(&during, i);
        // NVML's health is the report's; the probe cells and what they add are not.
        for old in ["✗", "!", "10s", "42ms", "2.3s", "probe"] {
            assert!(!row.contains(old), "GPU {i} still shows {old:?}: {row}");
        }
        assert!(row.contains("✓ pass") && row.contains('—'), "{row}");
    }
    assert!(during[0].contains("re-gathering"), "{}", during[0]);
    // The new run's report brings its own results.
    update(
        &mut app,
        Msg::Loaded {
            generation: 1,
            report: Box::new(report),
            elapsed_ms: 5,
        },
    );
    let after = lines_of(&app);
    assert!(gpu_row(&after, 1).contains("✗ 10s"));
    assert!(
        !gpu_row(&after, 0).contains("2.3s"),
        "the old live state is gone"
    );
}

/// "Health ✓ pass" never sits next to a failed probe, on any fixture.
#[test]
fn health_is_never_pass_beside_a_failed_probe() {
    for name in tui_reports::NAMES {
        let app = App::with_report(tui_reports::load(name), (200, 60), false);
        for line in lines_of(&app).iter().skip(5) {
            if line.contains("✓ pass") {
                assert!(!line.contains('✗'), "{name}: {line}");
            }
        }
    }
    let app = App::with_report(
        tui_reports::load("twelve_gpu_probe_failures"),
        (200, 60),
        false,
    );
    let lines = lines_of(&app);
    for i in [1, 10, 11] {
        if let Some(row) = lines.iter().find(|l| l.starts_with(&format!("{i:<4}H100"))) {
            assert!(row.contains("✗ 1 probe"), "{row}");
        }
    }
    assert!(gpu_row(&lines, 1).contains("✗ 1 probe"));
}

/// Causes over symptoms: the 803 error folds under "kernel module and user space differ"
/// (its cause comes first), and → unfolds it.
#[test]
fn symptoms_fold_under_their_cause_and_unfold_on_right() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use gpu_doctor::tui::msg::Msg;
    use gpu_doctor::tui::update::update;
    let report = tui_reports::load("mismatched_driver");
    let symptom = report
        .findings
        .iter()
        .find(|f| f.caused_by.is_some())
        .expect("the fixture has a finding with a cause")
        .clone();
    let cause = report
        .findings
        .iter()
        .find(|c| c.explains(&symptom))
        .unwrap()
        .clone();
    let mut app = App::with_report(report, (100, 30), false);
    let head = |s: &str| s.chars().take(30).collect::<String>();
    let before = lines_of(&app).join("\n");
    let cause_line = before
        .lines()
        .find(|l| l.contains(&head(&cause.summary)))
        .unwrap_or_else(|| panic!("no cause line:\n{before}"));
    assert!(cause_line.starts_with("▸ ✗"), "{cause_line}");
    assert!(cause_line.contains("(+1 caused by this)"), "{cause_line}");
    assert!(
        !before.contains(&head(&symptom.summary)),
        "folded:\n{before}"
    );
    // The cause is the first failure, so it is selected on start.
    assert_eq!(app.selected_finding().unwrap().id, cause.id);
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE)),
    );
    let after = lines_of(&app);
    let at = after
        .iter()
        .position(|l| l.contains(&head(&cause.summary)))
        .unwrap();
    assert!(after[at].starts_with("▾ ✗"), "{}", after[at]);
    assert!(
        after[at + 1].starts_with("    ↳ ✗") && after[at + 1].contains(&head(&symptom.summary)),
        "the symptom right under its cause:\n{}",
        after.join("\n")
    );
}
