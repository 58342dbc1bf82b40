//! Where one command's time goes, phase by phase, for whoever profiles apigen: with
//! `APIGEN_PHASES=1` in the environment, `generate` prints to standard error, at its end, each
//! phase's wall time and the process's CPU time (user + system, every thread) during it. A
//! hidden switch for measuring (docs/src/performance.md shows its use), not an interface.
//!
//! CPU time is read from `/proc/self/stat` (Linux; none elsewhere) in the kernel's clock ticks
//! (10 ms), so a phase under about 20 ms reads as 0 or 10: the total is exact to a tick.

use std::time::Instant;

/// The phases timed so far, or nothing when `APIGEN_PHASES` is not set.
pub(crate) struct Phases(Option<Timed>);

struct Timed {
    start: (Instant, Option<u64>),
    last: (Instant, Option<u64>),
    done: Vec<(&'static str, f64, Option<u64>)>,
    files: crate::emit::jobs::FilesDone,
}

impl Phases {
    /// No timing.
    pub(crate) fn off() -> Self {
        Phases(None)
    }

    /// Starts timing when `APIGEN_PHASES` is set (to anything but empty or `0`).
    pub(crate) fn start() -> Self {
        let on = std::env::var_os("APIGEN_PHASES").is_some_and(|v| !v.is_empty() && v != "0");
        Phases(on.then(|| {
            let now = (Instant::now(), cpu_ticks());
            Timed { start: now, last: now, done: Vec::new(), files: crate::emit::jobs::files_done() }
        }))
    }

    /// Ends the phase `name` (begun where the previous one ended).
    pub(crate) fn end(&mut self, name: &'static str) {
        if let Some(timed) = &mut self.0 {
            let now = (Instant::now(), cpu_ticks());
            let cpu = now.1.zip(timed.last.1).map(|(now, then)| now.saturating_sub(then));
            timed.done.push((name, (now.0 - timed.last.0).as_secs_f64() * 1e3, cpu));
            timed.last = now;
        }
    }
}

impl Drop for Phases {
    /// Prints the phases, and the whole run.
    fn drop(&mut self) {
        let Some(timed) = &self.0 else { return };
        let ms = |ticks: Option<u64>| ticks.map_or("?".to_owned(), |t| (t * 10).to_string());
        let mut out = String::from("apigen phases (wall ms, CPU ms in 10 ms ticks):\n");
        for (name, wall, cpu) in &timed.done {
            out.push_str(&format!("{wall:>9.1} {:>6}  {name}\n", ms(*cpu)));
        }
        let cpu = cpu_ticks().zip(timed.start.1).map(|(now, then)| now.saturating_sub(then));
        out.push_str(&format!("{:>9.1} {:>6}  total\n", timed.start.0.elapsed().as_secs_f64() * 1e3, ms(cpu)));
        let (before, after) = (timed.files, crate::emit::jobs::files_done());
        out.push_str(&format!(
            "files: {} found unchanged (not built), {} reused as printed, {} built\n",
            after.unchanged - before.unchanged,
            after.reused - before.reused,
            after.built - before.built
        ));
        eprint!("{out}");
    }
}

/// The process's user + system time so far, in clock ticks.
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces: the fields after it follow its `)`.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}
