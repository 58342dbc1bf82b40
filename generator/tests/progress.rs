//! Progress: the phases and items the library reports, drawn by the command line on a terminal
//! only.

use apigen::progress::{Progress, Reporter, phase};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// Records what is reported: each phase with its item count, and the items as one entry per run
/// of them.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Progress for Recorder {
    fn phase(&self, name: &'static str, items: Option<u64>) {
        let entry = match items {
            Some(items) => format!("{name} ({items})"),
            None => name.to_owned(),
        };
        self.0.lock().unwrap().push(entry);
    }

    fn item(&self) {
        let mut entries = self.0.lock().unwrap();
        match entries.last_mut() {
            Some(last) if last.starts_with("item ") => {
                let count: usize = last["item ".len()..].parse().unwrap();
                *last = format!("item {}", count + 1);
            }
            _ => entries.push("item 1".to_owned()),
        }
    }
}

fn repository() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn generate_and_check_report_each_phase_and_every_file_printed() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Recorder::default();
    let generator = apigen::Generator::new()
        .spec(repository().join("tests/fixtures/valid/petstore"))
        .out(dir.path().join("generated"))
        .runtime_path(repository().join("runtime"))
        .cache(apigen::CacheDir::none())
        .progress(Reporter::new(recorder.clone()));
    generator.generate().unwrap();
    generator.check().unwrap();
    assert_eq!(
        *recorder.0.lock().unwrap(),
        [
            phase::SPEC.to_owned(),
            format!("{} (21)", phase::PRINT),
            "item 21".to_owned(),
            phase::WRITE.to_owned(),
            phase::SPEC.to_owned(),
            format!("{} (21)", phase::PRINT),
            "item 21".to_owned(),
            phase::COMPARE.to_owned(),
        ]
    );
}

#[test]
fn import_reports_its_phases() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Recorder::default();
    let document = repository().join("tests/fixtures/openapi/petstore-3.0.json");
    apigen::import_named(&document, &dir.path().join("spec"), false, None, None, &recorder).unwrap();
    assert_eq!(*recorder.0.lock().unwrap(), [phase::DOCUMENT, phase::IMPORT, phase::SPEC_FILES]);
}

/// `apigen generate --full` of the petstore into `out`, progress shown at once: in a terminal
/// (through `script`, which gives it one) or not.
fn generate(out: &Path, terminal: bool) -> String {
    let apigen = env!("CARGO_BIN_EXE_apigen");
    let args = format!(
        "{apigen} generate --full --spec {} --out {} --runtime {}",
        repository().join("tests/fixtures/valid/petstore").display(),
        out.display(),
        repository().join("runtime").display()
    );
    let mut command = if terminal {
        let mut script = Command::new("script");
        script.args(["-qec", &args, "/dev/null"]);
        script
    } else {
        let mut words = args.split(' ');
        let mut direct = Command::new(words.next().unwrap());
        direct.args(words);
        direct
    };
    let output = command.env("APIGEN_PROGRESS_DELAY_MS", "0").env("APIGEN_CACHE_DIR", "").output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn the_progress_line_is_drawn_on_a_terminal_and_never_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    if Command::new("script").arg("--version").output().is_err() {
        panic!("`script` (util-linux) is needed to give apigen a terminal");
    }
    let drawn = generate(&dir.path().join("a"), true);
    // What is drawn between phases depends on the redraw rate (the line's format and counts
    // are `terminal.rs`'s tests, the phases and items `generate_and_check_report_...`).
    assert!(drawn.contains(" reading the spec (0s)"), "{drawn}");
    assert!(!drawn.contains("0/0"), "{drawn}");
    // The line is cleared before the results are printed.
    assert!(drawn.contains("\r\u{1b}[2K"), "{drawn:?}");
    assert!(drawn.ends_with("22 written, 0 unchanged, 0 removed\r\n"), "{drawn:?}");

    let piped = generate(&dir.path().join("b"), false);
    assert!(!piped.contains('\r') && !piped.contains('\u{1b}'), "{piped:?}");
    assert!(piped.ends_with("22 written, 0 unchanged, 0 removed\n"), "{piped}");
    assert_eq!(piped.lines().filter(|l| l.starts_with("wrote ")).count(), 22);
    assert_eq!(piped.lines().count(), 23, "nothing but the results: {piped}");
}
