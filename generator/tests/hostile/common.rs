//! Helpers shared by the generator's command-line tests: running the binary with a bound on
//! the CPU time it may use (a test that would hang or go quadratic fails instead), and copies
//! of fixture specs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The CPU time (user + system) one apigen run may use before the test calls it hung. CPU
/// time, not wall time: on a busy 2-core machine a run waits for a core as long as others
/// build, and a bound on wall time then fails a test that is not slow (issue 51: the
/// 100,000-value enumeration, 3.5 s alone, passed 30 s of wall time under load). The runs
/// these tests bound take at most a few seconds of CPU in a debug build; the quadratic or
/// exponential ones they guard against take minutes.
const CPU_BUDGET: Duration = Duration::from_secs(30);

/// A last bound on wall time, for a run that waits without using CPU (a lock, a pipe): 20
/// times the CPU budget, so no load short of a stalled machine reaches it.
const WALL_BUDGET: Duration = Duration::from_secs(600);

/// The repository's root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs apigen with `args` in `dir`; kills it and fails the test when it runs past the deadline.
pub fn run_in(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_apigen"));
    command.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // What apigen remembers of output directories goes beside the tests' scratch files.
    command.env("APIGEN_CACHE_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("apigen-cache"));
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("apigen starts");
    // Both streams are drained while the child runs: a full pipe would block it (and a run
    // printing a line per file written would then look hung).
    let drain = |stream: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut stream) = stream {
                let _ = stream.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>));
    let stderr = drain(child.stderr.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for apigen") {
            break status;
        }
        let used = cpu_time(child.id());
        if used.is_some_and(|used| used > CPU_BUDGET) || start.elapsed() > WALL_BUDGET {
            child.kill().expect("apigen is killed");
            let _ = child.wait();
            let stderr = stderr.join().unwrap_or_default();
            panic!(
                "apigen {args:?} in {} hung ({used:?} of CPU, {:?} of wall time); stderr so far:\n{}",
                dir.display(),
                start.elapsed(),
                text(&stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() }
}

/// The CPU time (user + system) process `pid` has used, from `/proc/<pid>/stat` (Linux; `None`
/// elsewhere or once the process is gone, leaving the wall bound).
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    // utime and stime, fields 14 and 15 of the line: 12 and 13 after the name.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux reports these in USER_HZ, 100 a second on every architecture it exports to user space.
    Some(Duration::from_millis(ticks * 10))
}

/// Lossy text of a byte stream.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Stdout of a run that must succeed.
pub fn ok(output: &Output) -> String {
    assert!(output.status.success(), "exit {:?}:\n{}{}", output.status, text(&output.stdout), text(&output.stderr));
    text(&output.stdout)
}

/// Stderr of a run that must fail with `code`.
pub fn failed(output: &Output, code: i32) -> String {
    assert_eq!(output.status.code(), Some(code), "{}{}", text(&output.stdout), text(&output.stderr));
    text(&output.stderr)
}

/// Copies the files of the fixture spec `name` (under tests/fixtures/valid) into `to`.
pub fn copy_fixture(name: &str, to: &Path) {
    let from = repository().join("tests/fixtures/valid").join(name);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}
/// Every entry below `dir` (links listed, not followed), relative and sorted: what a test
/// compares before and after a command that must write nothing.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            if kind.is_dir() {
                pending.push(path.clone());
            }
            found.push(path.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
        }
    }
    found.sort();
    found
}

#[test]
fn the_cpu_bound_reads_the_cpu_a_process_used() {
    let before = cpu_time(std::process::id()).expect("this process's CPU time");
    let started = std::time::Instant::now();
    let mut spin = 0u64;
    while started.elapsed() < Duration::from_millis(300) {
        spin = std::hint::black_box(spin.wrapping_add(1));
    }
    let used = cpu_time(std::process::id()).unwrap() - before;
    // This thread spun for 300 ms of wall time; however busy the machine, it ran for part of it.
    assert!(used > Duration::ZERO && used <= Duration::from_secs(5), "{used:?}");
}
