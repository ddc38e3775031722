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
