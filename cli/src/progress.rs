//! Progress on long runs (`alloc --count N`, bulk `--stdin`, `scan`), drawn
//! with indicatif on standard error — only when standard error is a
//! terminal (and `TERM` is set and not `dumb`: indicatif draws nothing on a
//! terminal it cannot move the cursor on) and `--quiet` is not given, so
//! pipes and scripts see exactly the output they always saw. The bar is
//! cleared when the run ends.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bulk loops report every this many rows (a power of two: one mask test
/// per row, no clock read).
const BULK_EVERY: u64 = 1 << 12;

/// A progress display, or nothing.
#[derive(Debug)]
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
}

/// Whether progress is drawn: stderr is a terminal and not `--quiet`.
fn enabled(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A style from `template`, whose `{rate}` is the items per second as a
/// whole number.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        )
}

impl Progress {
    /// No display.
    pub(crate) fn off() -> Progress {
        Progress { bar: None }
    }

    /// A bar to `total` with the rate and the time left (`alloc --count`).
    pub(crate) fn bar(total: u64, unit: &str, quiet: bool) -> Progress {
        if !enabled(quiet) || total < 2 {
            return Progress::off();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(style(&format!(
            "[{{bar:30}}] {{pos}}/{{len}} {unit}  {{rate}}  ETA {{eta}}"
        )));
        Progress { bar: Some(bar) }
    }

    /// A counter with the rate (bulk mode, `scan`): `N rows  R/s`.
    pub(crate) fn counter(unit: &str, quiet: bool) -> Progress {
        if !enabled(quiet) {
            return Progress::off();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(style(&format!("{{spinner}} {{pos}} {unit}  {{rate}}")));
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// `done` items so far.
    #[inline]
    pub(crate) fn set(&self, done: u64) {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }

    /// `done` rows so far in a bulk loop: drawn every [`BULK_EVERY`] rows.
    #[inline]
    pub(crate) fn row(&self, done: u64) {
        if self.bar.is_some() && done & (BULK_EVERY - 1) == 0 {
            self.set(done);
        }
    }

    /// Removes the display.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
