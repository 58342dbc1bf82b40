//! Each command's `--help`, compared with its snapshot under `tests/snapshots/help/`: a command
//! shows its own flags only, and one example. After an intended change, rewrite the snapshots
//! with `APIGEN_BLESS=1 cargo test -p apigen --test help` and review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every command, and the top level (`""`).
const COMMANDS: [&str; 10] = ["", "init", "import", "lint", "schema", "list", "gaps", "generate", "check", "diff"];

fn help(command: &str) -> String {
    let mut apigen = Command::new(env!("CARGO_BIN_EXE_apigen"));
    if !command.is_empty() {
        apigen.arg(command);
    }
    let output = apigen.arg("--help").env("COLUMNS", "100").output().expect("apigen runs");
    assert!(output.status.success(), "apigen {command} --help: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

fn snapshot(command: &str) -> PathBuf {
    let name = if command.is_empty() { "apigen" } else { command };
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/help").join(format!("{name}.txt"))
}

#[test]
fn each_command_help_matches_its_snapshot() {
    let bless = std::env::var_os("APIGEN_BLESS").is_some();
    let mut stale = Vec::new();
    for command in COMMANDS {
        let (text, path) = (help(command), snapshot(command));
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(format!("{}:\n{text}", path.display()));
        }
    }
    assert!(stale.is_empty(), "help differs from its snapshot (APIGEN_BLESS=1 rewrites):\n{}", stale.join("\n"));
}

/// The flags a command's help shows, in order (`--spec`, `-v`, ...).
fn flags(help: &str) -> Vec<&str> {
    help.lines()
        .filter_map(|line| line.trim_start().strip_prefix("-"))
        .map(|rest| rest.split([' ', ',']).next().unwrap_or(""))
        .collect()
}

#[test]
fn a_command_shows_only_the_flags_it_reads_and_one_example() {
    let expected: [(&str, &[&str]); 9] = [
        ("init", &["-from", "-name", "-spec", "-out", "-runtime", "-runtime-version", "v", "h"]),
        ("import", &["-replace", "-name", "-spec", "v", "h"]),
        ("lint", &["-config", "-spec", "v", "h"]),
        ("schema", &["h"]),
        ("list", &["-types", "-rust", "-config", "-spec", "v", "h"]),
        ("gaps", &["-config", "-spec", "v", "h"]),
        ("generate", &["-full", "-config", "-spec", "-out", "-runtime", "v", "h"]),
        ("check", &["-config", "-spec", "-out", "-runtime", "v", "h"]),
        ("diff", &["-base-rev", "-format", "-allow-breaking", "-config", "-spec", "v", "h"]),
    ];
    for (command, shown) in expected {
        let text = help(command);
        assert_eq!(flags(&text), shown, "apigen {command} --help");
        assert_eq!(text.matches("\nExample:\n  apigen ").count(), 1, "apigen {command} --help: one example");
    }
}

#[test]
fn the_old_spellings_still_work() {
    // Scripts written when the flags were global give them before the command's name, and
    // `init --runtime-path` is `init --runtime`'s earlier name.
    let home = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(["--spec", "tests/fixtures/valid/petstore", "lint"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("APIGEN_CACHE_DIR", home.path().join("cache"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(["init", "acme", "--runtime-path", "../vendor/rt"])
        .current_dir(home.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let config = std::fs::read_to_string(home.path().join("acme/apigen.toml")).unwrap();
    assert!(config.contains("path = \"../vendor/rt\""), "{config}");
}
