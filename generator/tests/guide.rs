//! The guide (`docs/`, an mdBook) and the README as a reader meets them: every relative link
//! and anchor leads somewhere, every `apigen` command they show parses, the tutorial's
//! commands run in a new directory and print what the page shows, and no Rust block is left
//! uncompiled (`apigen-tests` compiles and runs them as doctests: `tests/src/lib.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The pages a reader opens: the guide's chapters, the README and the files the guide includes.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repo().join("docs/src"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    pages.extend(["README.md", "spec/README.md", "CONTRIBUTING.md", "bench/README.md"].map(|p| repo().join(p)));
    pages
}

/// A page's text as mdBook renders it: each `{{#include path}}` replaced by the file's text.
fn rendered(page: &Path) -> String {
    let text = read(page);
    let mut out = String::new();
    for line in text.lines() {
        match line.trim().strip_prefix("{{#include ").and_then(|rest| rest.strip_suffix("}}")) {
            Some(included) => out.push_str(&read(&page.parent().unwrap().join(included.trim()))),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The lines of a page outside its fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// A heading's anchor as mdBook and GitHub make it: lower case, spaces as dashes, only
/// letters, digits, `-` and `_` kept.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter(|line| line.starts_with('#'))
        .map(|line| anchor(line.trim_start_matches('#')))
        .collect()
}

/// Every `](target)` of a page's prose that is not a URL.
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    for line in prose(text) {
        for rest in line.split("](").skip(1) {
            let target = rest.split(')').next().unwrap_or("");
            if !target.contains("://") && !target.starts_with("mailto:") {
                links.push(target.to_owned());
            }
        }
    }
    links
}

#[test]
fn every_relative_link_and_anchor_of_the_guide_and_the_readme_leads_somewhere() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = rendered(&page);
        for link in relative_links(&text) {
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", page.display()));
                continue;
            }
            let is_markdown = target.extension().is_some_and(|ext| ext == "md");
            if !fragment.is_empty() && is_markdown && !anchors(&rendered(&target)).contains(fragment) {
                broken.push(format!("{}: {link}: no heading makes #{fragment}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_summary_lists_every_chapter_and_only_chapters_that_exist() {
    let summary = read(&repo().join("docs/src/SUMMARY.md"));
    let listed: BTreeSet<String> = relative_links(&summary).into_iter().collect();
    let chapters: BTreeSet<String> = pages()
        .iter()
        .filter(|page| page.parent().unwrap().ends_with("docs/src"))
        .map(|page| page.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "SUMMARY.md")
        .collect();
    assert_eq!(listed, chapters, "docs/src/SUMMARY.md and the chapters of docs/src");
}

/// The fenced blocks of a page with their info string (`sh`, `rust,no_run`, ...).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_owned(), String::new())),
            (Some(_), Some(_)) => blocks.push(open.take().unwrap()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

#[test]
fn no_rust_block_is_left_uncompiled() {
    // `ignore` would let an example rot: each block compiles (`no_run`) or runs as a doctest.
    for page in pages() {
        for (info, body) in blocks(&read(&page)) {
            assert!(
                !(info.starts_with("rust") && info.contains("ignore")),
                "{}: a Rust block marked ignore:\n{body}",
                page.display()
            );
        }
    }
}

/// The words of a shell line, its comment dropped (no quoting: the pages' commands need none).
fn words(line: &str) -> Vec<&str> {
    let line = line.split(" #").next().unwrap_or("");
    line.split_whitespace().collect()
}

fn apigen_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(args)
        .current_dir(dir)
        .env("APIGEN_CACHE_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("apigen-cache"))
        .output()
        .expect("apigen runs")
}

/// The arguments a shell line gives apigen, run as `apigen ...` or as `cargo run [...] -p apigen
/// [...] -- ...`; a shell variable or quoted word stands for some value (`X`).
fn apigen_args(line: &str) -> Option<Vec<&str>> {
    let words = words(line);
    let args = match words.as_slice() {
        ["apigen", args @ ..] => args,
        ["cargo", "run", rest @ ..] if rest.windows(2).any(|pair| pair == ["-p", "apigen"]) => {
            &rest[rest.iter().position(|word| *word == "--")? + 1..]
        }
        _ => return None,
    };
    Some(args.iter().map(|word| if word.contains('$') || word.contains('"') { "X" } else { word }).collect())
}

#[test]
fn every_apigen_command_the_pages_show_parses() {
    // Each command line of a shell block, with `--help` added: an unknown command or flag
    // fails there, before any work.
    let mut failed = Vec::new();
    for page in pages() {
        for (info, body) in blocks(&read(&page)) {
            if !matches!(info.as_str(), "sh" | "yaml") {
                continue;
            }
            for line in body.lines() {
                let line = line.trim_start().trim_start_matches("- run: ").trim_start_matches("$ ");
                let Some(mut args) = apigen_args(line) else { continue };
                args.push("--help");
                let output = apigen_in(&repo(), &args);
                if !output.status.success() {
                    failed.push(format!("{}: {line}\n{}", page.display(), String::from_utf8_lossy(&output.stderr)));
                }
            }
        }
    }
    assert!(failed.is_empty(), "commands that do not parse:\n{}", failed.join("\n"));
}

/// The tutorial's blocks in order from its marker: shell commands, the text its last command
/// prints, the dependencies and the programs it has the reader write.
fn tutorial() -> Vec<(String, String)> {
    let page = read(&repo().join("docs/src/tutorial.md"));
    let from = page.find("<!-- tutorial:").expect("docs/src/tutorial.md has its marker");
    blocks(&page[from..])
}

/// Does what the tutorial says in a new directory: runs its `apigen` commands (and with
/// `cargo`, its cargo commands too, offline on the heavy tier's target directory, writing the
/// files it shows), checking that each prints what the page shows after it. Returns how many
/// commands ran.
fn follow_the_tutorial(with_cargo: bool) -> usize {
    let home = tempfile::tempdir().unwrap();
    std::fs::copy(repo().join("tests/fixtures/generated/petstore/openapi.json"), home.path().join("petstore.json"))
        .unwrap();
    let mut dir = home.path().to_path_buf();
    let (mut ran, mut last) = (0, None);
    for (info, body) in tutorial() {
        match info.as_str() {
            "sh" => {
                for line in body.lines() {
                    match words(line).as_slice() {
                        ["cd", to] => dir = dir.join(to),
                        ["apigen", args @ ..] => last = Some(run(apigen_in(&dir, args), line)),
                        ["cargo", args @ ..] if with_cargo => last = Some(run(cargo_in(&dir, args), line)),
                        ["cargo", ..] | [] => continue,
                        other => panic!("the tutorial runs {other:?}: teach this test what it does"),
                    }
                    ran += 1;
                }
            }
            "text" => assert_eq!(last.as_deref(), Some(body.as_str()), "what the tutorial shows after a command"),
            "toml" if with_cargo => {
                let manifest = dir.join("app/Cargo.toml");
                let text = read(&manifest).replace("[dependencies]\n", &body);
                std::fs::write(manifest, text).unwrap();
            }
            "rust" if with_cargo => std::fs::write(dir.join("app/src/main.rs"), &body).unwrap(),
            _ => {}
        }
    }
    ran
}

fn run(output: Output, line: &str) -> String {
    assert!(output.status.success(), "{line}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// Cargo in the tutorial's workspace: offline (the lock file init wrote names crates this
/// repository's build fetched), on the target directory the heavy tests share.
fn cargo_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TARGET_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("outside-target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

#[test]
fn the_tutorial_s_apigen_commands_run_in_a_new_directory_and_print_what_it_shows() {
    // Its programs are compiled and run as doctests of apigen-tests, against the fixture
    // crates the same document generates; the heavy tier builds them here as the page says.
    assert_eq!(follow_the_tutorial(false), 7, "the tutorial's apigen commands and its cd");
}

#[test]
#[ignore = "heavy tier: builds crates outside the workspace; run with `cargo test --workspace -- --ignored` (CI does)"]
fn the_tutorial_runs_whole_as_a_reader_follows_it() {
    assert_eq!(follow_the_tutorial(true), 13, "the tutorial's commands");
}

#[test]
fn every_chapter_holding_rust_is_compiled_as_doctests() {
    let doctests = read(&repo().join("tests/src/lib.rs"));
    for page in pages().iter().filter(|page| page.parent().unwrap().ends_with("docs/src")) {
        let name = page.file_name().unwrap().to_string_lossy();
        if read(page).contains("```rust") {
            let included = format!("include_str!(\"../../docs/src/{name}\")");
            assert!(doctests.contains(&included), "tests/src/lib.rs should hold {included}");
        }
    }
}
