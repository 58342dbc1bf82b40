//! How long `apigen diff` takes when every type of a spec is renamed: two synthetic specs of N
//! types each (the petstore plus N objects of distinct shapes, named `T<i>` in the old spec
//! and `R<i>` in the new), loaded once, then diffed, median of R runs, in this process
//! (release build, the allocator apigen uses). Every type must come out as one
//! `type-rust-renamed` change. Usage:
//! `cargo run --release -p apigen-bench --bin diff_renames -- [runs] [sizes...]`
//! (default: 3 runs of 2000, 5000 and 20000).

use std::path::Path;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut sizes: Vec<usize> = args.filter_map(|s| s.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![2000, 5000, 20000];
    }
    for n in sizes {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (old, new) = (dir.path().join("old"), dir.path().join("new"));
        write_spec(&old, n, "T");
        write_spec(&new, n, "R");
        let start = Instant::now();
        let old = load(&old);
        let new = load(&new);
        let loading = start.elapsed() / 2;
        let mut times = Vec::new();
        let mut renamed = 0;
        for _ in 0..runs {
            let start = Instant::now();
            let changes = apigen::diff::diff(&old, &new);
            times.push(start.elapsed());
            renamed = changes.iter().filter(|c| c.kind == "type-rust-renamed").count();
            assert_eq!(changes.len(), renamed, "every change is a rename");
        }
        assert_eq!(renamed, n, "every type renamed is found");
        times.sort();
        println!(
            "{n:>6} types renamed: diff {:>9} (median of {runs}), loading one spec {:>9}",
            shown(times[times.len() / 2]),
            shown(loading)
        );
    }
}

fn shown(time: Duration) -> String {
    format!("{:.1} ms", time.as_secs_f64() * 1000.0)
}

/// The petstore and `n` objects `{prefix}<i>`, each of its own shape (its field's name and
/// length bound differ), so each old type matches exactly one new one.
fn write_spec(dir: &Path, n: usize, prefix: &str) {
    let petstore = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/valid/petstore");
    std::fs::create_dir_all(dir).expect("the spec directory");
    for file in ["api.yaml", "pets.yaml"] {
        std::fs::copy(petstore.join(file), dir.join(file)).expect("the petstore fixture");
    }
    let mut text = String::from("types:\n");
    for i in 0..n {
        text.push_str(&format!(
            "  {prefix}{i}:\n    description: Type {i}.\n    fields:\n      \
             f{i}: {{ type: string, max_length: {}, description: Field {i}. }}\n",
            i + 1
        ));
    }
    std::fs::write(dir.join("many.yaml"), text).expect("the synthetic spec");
}

fn load(dir: &Path) -> apigen::model::Api {
    match apigen::load(dir) {
        Ok((api, _warnings)) => api,
        Err(diags) => panic!("{}", diags.render()),
    }
}
