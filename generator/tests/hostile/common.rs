//! Helpers shared by the generator's command-line tests: running the binary with a deadline
//! (a test that would hang fails instead), and copies of fixture specs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long one apigen run may take before the test calls it hung.
const DEADLINE: Duration = Duration::from_secs(30);

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
        if start.elapsed() > DEADLINE {
            child.kill().expect("apigen is killed");
            let _ = child.wait();
            let stderr = stderr.join().unwrap_or_default();
            panic!("apigen {args:?} in {} hung; stderr so far:\n{}", dir.display(), text(&stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() }
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
