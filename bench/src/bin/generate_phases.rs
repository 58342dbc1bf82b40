//! Where `apigen generate` spends its time: loading (YAML), lowering, each output on its own,
//! all outputs printed, and all outputs with every Rust file reused from an earlier run (what
//! `generate` does after a change that touches no Rust file), timed on one spec, median of N
//! runs, in this process (release build, the allocator apigen uses). Usage:
//! `cargo run --release -p apigen-bench --bin generate_phases -- [spec dir] [runs]`.

use apigen::diag::Diagnostics;
use apigen::emit::{self, Options, Outputs};
use apigen::out::{Build, CacheDir, OutputDir};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const NONE: Outputs = Outputs { types: false, server: false, client: false, openapi: false, reference: false };

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let spec_dir = PathBuf::from(args.next().unwrap_or_else(|| "spec".to_owned()));
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(9);
    let options = Options::default();
    let mut phases: Vec<(&str, Vec<Duration>)> = Vec::new();
    let mut record = |name: &'static str, took: Duration| match phases.iter_mut().find(|(n, _)| *n == name) {
        Some((_, times)) => times.push(took),
        None => phases.push((name, vec![took])),
    };
    let mut bytes = 0;
    let earlier = tempfile::tempdir().expect("a temporary directory");
    for _ in 0..runs {
        let start = Instant::now();
        let mut diags = Diagnostics::new();
        let spec = apigen::load::load(&spec_dir, &mut diags);
        record("load (read + YAML)", start.elapsed());
        let at = Instant::now();
        let Some(api) = apigen::lower::lower(&spec, &mut diags) else {
            eprintln!("the spec does not lint: run `apigen lint --spec {}`", spec_dir.display());
            std::process::exit(1);
        };
        record("lower", at.elapsed());
        for (name, only) in [
            ("emit types (printed)", Outputs { types: true, ..NONE }),
            ("emit server (printed)", Outputs { server: true, ..NONE }),
            ("emit client (printed)", Outputs { client: true, ..NONE }),
            ("emit openapi", Outputs { openapi: true, ..NONE }),
            ("emit reference", Outputs { reference: true, ..NONE }),
        ] {
            let at = Instant::now();
            emit::emit(&api, &Options { outputs: only, ..options.clone() });
            record(name, at.elapsed());
        }
        let at = Instant::now();
        let all = emit::emit(&api, &options);
        record("emit all, every file printed", at.elapsed());
        let build = Build::of(&api, &options);
        let all = apigen::out::stamp::stamped(&api, &options, all);
        let cache = CacheDir::at(earlier.path().join("cache"));
        let dir = OutputDir::open(&earlier.path().join("out"), cache.clone()).expect("a temporary directory");
        dir.write(&all).expect("the temporary directory is writable");
        dir.remember(&all, &build);
        let at = Instant::now();
        let dir = OutputDir::open(&earlier.path().join("out"), cache).expect("a temporary directory");
        emit::emit_reusing(&api, &options, &dir.printed(&build));
        record("emit all, every Rust file reused", at.elapsed());
        bytes = all.files().values().map(String::len).sum::<usize>();
    }
    println!("{} ({} runs, {} output bytes, load {})", spec_dir.display(), runs, bytes, loadavg());
    for (name, mut times) in phases {
        times.sort();
        println!("{:>9.1} ms  {name}", times[times.len() / 2].as_secs_f64() * 1e3);
    }
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map_or_else(|_| "unknown".to_owned(), |l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
}
