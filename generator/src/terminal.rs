//! The command line's progress display: on a terminal, once a command has worked for a second,
//! one line under the output naming the phase and, while files are printed, how many of them
//! are done (`printing files [=====>     ] 812/1630`). Nothing is drawn when standard error is
//! not a terminal (CI logs, pipes, tests), so output stays byte for byte what it was; the line
//! is cleared before the command prints its results.

use apigen::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// How long a command works before its progress is shown, unless `APIGEN_PROGRESS_DELAY_MS`
/// says otherwise (0 shows it at once, as the tests do).
const DELAY: Duration = Duration::from_secs(1);

/// The progress line of one command.
#[derive(Clone)]
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A progress line drawn on standard error after [`DELAY`] if it is a terminal and the
    /// command still runs.
    pub fn on_stderr() -> Bar {
        let bar = Bar::drawn_on(ProgressDrawTarget::hidden());
        let delay = std::env::var("APIGEN_PROGRESS_DELAY_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(DELAY, Duration::from_millis);
        let shown = bar.bar.clone();
        let show = move || {
            if !shown.is_finished() && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        };
        if delay.is_zero() {
            show();
        } else {
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                show();
            });
        }
        bar
    }

    /// A progress line drawn on `target` from the start.
    pub fn drawn_on(target: ProgressDrawTarget) -> Bar {
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(spinner());
        Bar { bar }
    }

    /// Clears the line: the command prints its results next.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn spinner() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template")
}

fn counter() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} ({elapsed})")
        .expect("a valid template")
        .progress_chars("=> ")
}

impl Progress for Bar {
    fn phase(&self, name: &'static str, items: Option<u64>) {
        // Each setter may draw: the line never shows one phase's name or count with another's.
        match items {
            Some(items) => {
                self.bar.set_length(items);
                self.bar.set_position(0);
                self.bar.set_message(name);
                self.bar.set_style(counter());
            }
            None => {
                self.bar.set_style(spinner());
                self.bar.set_message(name);
                self.bar.unset_length();
                self.bar.set_position(0);
            }
        }
    }

    fn item(&self) {
        self.bar.inc(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::{InMemoryTerm, TermLike};

    #[test]
    fn the_line_names_the_phase_and_counts_the_files_printed() {
        let term = InMemoryTerm::new(4, 80);
        let bar = Bar::drawn_on(ProgressDrawTarget::term_like(Box::new(term.clone())));
        // The line less its spinner, whose frame depends on how often it was drawn.
        let line = || term.contents().split_once(' ').map(|(_, line)| line.to_owned()).unwrap_or_default();
        bar.phase(apigen::progress::phase::SPEC, None);
        bar.bar.tick();
        assert_eq!(line(), "reading the spec (0s)");
        bar.phase(apigen::progress::phase::PRINT, Some(4));
        for _ in 0..3 {
            bar.item();
        }
        bar.bar.tick();
        assert_eq!(line(), "printing files [======================>       ] 3/4 (0s)");
        bar.finish();
        assert_eq!(term.contents(), "");
        assert_eq!(term.width(), 80);
    }
}
