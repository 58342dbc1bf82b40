//! Bounded, reproducible fuzzing (a fixed-seed generator, no extra dependency), run by
//! `cargo test` in CI: mutated specs never panic the loader, lowering or emission and always
//! come back with located diagnostics; mutated `apigen.toml` files are read or refused naming
//! the file, never a panic; two random variants of a spec diff without a panic and with a
//! consistent summary; random requests never make the generated server answer 5xx or anything
//! but the error body.

use apigen_runtime::server::axum::body::{Body, to_bytes};
use apigen_runtime::server::axum::http::{Request, header};
use apigen_tests::calls::{encode, sample_calls};
use docs_api_server::mock::{MockCall, MockService};
use serde_json::{Value, json};
use std::path::Path;
use tower::ServiceExt;

/// xorshift64*: small, fast, and the same sequence on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Text that tends to break YAML, type expressions, names and paths.
const SPEC_SNIPPETS: &[&str] = &[
    ":",
    "- ",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "'",
    "\t",
    "~",
    "null",
    "list<",
    "map<",
    ">",
    "&anchor ",
    "*anchor",
    "!!binary ",
    "? ",
    "|",
    ">-",
    "#",
    "%",
    "\n  ",
    "\n",
    "{{{{",
    "0x10",
    "1e999",
    "-",
    "type: ",
    "object",
    "optional: true",
    "Self",
    "type",
    "enum",
    "\u{0}",
    "\u{feff}",
    "é",
    "{petId}",
    "/..",
    "?x",
];

/// `text` with one to three random edits: a run deleted, a snippet inserted, a random byte
/// inserted, a line doubled, or a byte replaced by punctuation.
fn mutate(text: &str, snippets: &[&str], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 => {
                let end = (at + rng.below(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let snippet = rng.pick(snippets).as_bytes().to_vec();
                bytes.splice(at..at, snippet);
            }
            2 => bytes.insert(at.min(bytes.len()), rng.next() as u8), // may break UTF-8
            3 => {
                let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let line_end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |p| at + p);
                let line = bytes[line_start..line_end].to_vec();
                bytes.splice(line_end..line_end, [b"\n".as_slice(), &line].concat());
            }
            _ => {
                if let Some(b) = bytes.get_mut(at) {
                    *b = *rng.pick(b" :-{}[]\"'\n#&*!|>?%@`");
                }
            }
        }
    }
    bytes
}

#[test]
fn mutated_specs_give_located_diagnostics_and_never_panic() {
    let fixture = Path::new("fixtures/valid/petstore");
    let files: Vec<(String, String)> = ["api.yaml", "pets.yaml"]
        .iter()
        .map(|name| ((*name).to_owned(), std::fs::read_to_string(fixture.join(name)).unwrap()))
        .collect();
    let mut rng = Rng(0x05ee_d0fa_91e7);
    let (mut refused, mut generated) = (0, 0);
    for case in 0..400 {
        let dir = tempfile::tempdir().unwrap();
        let victim = rng.below(files.len());
        for (i, (name, text)) in files.iter().enumerate() {
            let bytes = if i == victim { mutate(text, SPEC_SNIPPETS, &mut rng) } else { text.clone().into_bytes() };
            std::fs::write(dir.path().join(name), &bytes).unwrap();
        }
        let outcome = std::panic::catch_unwind(|| match apigen::load(dir.path()) {
            Ok((api, _)) => {
                let output = apigen::emit::emit(&api, &apigen::emit::Options::default());
                Ok(output.files().len())
            }
            Err(diags) => Err(diags.render()),
        });
        let mutated = std::fs::read(dir.path().join(&files[victim].0)).unwrap();
        match outcome {
            Err(_) => panic!("case {case}: panicked on\n{}", String::from_utf8_lossy(&mutated)),
            Ok(Ok(count)) => {
                assert!(count > 10, "case {case}");
                generated += 1;
            }
            Ok(Err(rendered)) => {
                let shown = dir.path().display().to_string();
                for line in rendered.lines().filter(|l| l.starts_with("error: ") || l.starts_with("warning: ")) {
                    assert!(line.contains(&shown), "case {case}: a diagnostic without its file: {line}");
                }
                refused += 1;
            }
        }
    }
    assert!(refused > 100 && generated > 20, "{refused} refused, {generated} generated: the mutations must do both");
}

/// A settings file using every key: the seed of the config fuzzing.
const CONFIG: &str = "spec = \"spec\"\nout = \"generated\"\ncrate-prefix = \"acme-api\"\nregenerate = \"apigen generate\"\n\n\
                      [runtime]\npath = \"apigen-runtime\"\nversion = \"0.1\"\n\n[outputs]\nclient = false\nreference = true\n";

/// Text that tends to break TOML and the settings' rules.
const CONFIG_SNIPPETS: &[&str] = &[
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "\"",
    "'",
    "'''",
    "\"\"\"",
    "\\",
    "\\u0000",
    "\\uD800",
    "#",
    "\n",
    ".",
    "{",
    "}",
    ",",
    "true",
    "1e999",
    "-0",
    "inf",
    "nan",
    "1979-05-27T07:32:00Z",
    "\ngit = \"https://example.com/x\"\n",
    "\nrev = \"a\"\n",
    "\nbranch = \"b\"\n",
    "\npath = \"\"\n",
    "\ntypes = false\n",
    "\n[runtime]\n",
    "\n[outputs]\n",
    "\ncrate-prefix = \"A b\"\n",
    "\u{feff}",
    "é",
    "\u{0}",
    "/..",
    "../../..",
];

#[test]
fn mutated_config_files_are_read_or_refused_naming_the_file_and_never_panic() {
    let mut rng = Rng(0x00c0_ffee_70a1);
    let (mut refused, mut read) = (0, 0);
    for case in 0..400 {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(apigen::config::FILE);
        let bytes = mutate(CONFIG, CONFIG_SNIPPETS, &mut rng);
        std::fs::write(&file, &bytes).unwrap();
        let outcome = std::panic::catch_unwind(|| {
            apigen::config::resolve(apigen::config::Flags::default(), dir.path()).map_err(|e| e.to_string())
        });
        match outcome {
            Err(_) => panic!("case {case}: panicked on\n{}", String::from_utf8_lossy(&bytes)),
            Ok(Ok(settings)) => {
                assert_eq!(settings.file.as_deref(), Some(file.as_path()), "case {case}");
                read += 1;
            }
            Ok(Err(message)) => {
                let shown = file.display().to_string();
                assert!(message.starts_with(&shown), "case {case}: an error without its file: {message}");
                refused += 1;
            }
        }
    }
    assert!(refused > 100 && read > 10, "{refused} refused, {read} read: the mutations must do both");
}

/// Variants of the diff fixtures' base spec: random combinations of the fixture cases' edits
/// (each a real change of the API), a third of them also mutated byte by byte; the base first,
/// then every variant that loads, up to `count`.
fn spec_variants(count: usize, rng: &mut Rng) -> Vec<apigen::model::Api> {
    let base = Path::new("fixtures/diff/base");
    let mut paths: Vec<_> = std::fs::read_dir("fixtures/diff/cases")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "edit"))
        .collect();
    paths.sort(); // the same cases in the same order on every machine
    let cases: Vec<Vec<apigen_tests::edits::Edit>> =
        paths.iter().map(|p| apigen_tests::edits::parse(&std::fs::read_to_string(p).unwrap())).collect();
    let load = |dir: &Path| apigen::load(dir).map(|(api, _)| api).ok();
    let mut variants = vec![load(base).expect("the base loads")];
    for _ in 0..count * 10 {
        if variants.len() >= count {
            break;
        }
        let dir = tempfile::tempdir().unwrap();
        for name in ["api.yaml", "pets.yaml"] {
            std::fs::copy(base.join(name), dir.path().join(name)).unwrap();
        }
        for _ in 0..=rng.below(4) {
            // An edit whose text another edit changed does not apply: the others still do.
            let _ = apigen_tests::edits::apply(rng.pick(&cases).as_slice(), dir.path());
        }
        if rng.below(3) == 0 {
            let victim = dir.path().join(*rng.pick(&["api.yaml", "pets.yaml"]));
            let text = std::fs::read_to_string(&victim).unwrap();
            std::fs::write(&victim, mutate(&text, SPEC_SNIPPETS, rng)).unwrap();
        }
        let loaded = std::panic::catch_unwind(|| load(dir.path()));
        variants.extend(loaded.unwrap_or_else(|_| panic!("loading a variant panicked")));
    }
    variants
}

#[test]
fn two_random_spec_variants_diff_without_panicking_and_with_a_consistent_summary() {
    use apigen::diff::{self, Bump, render};
    let mut rng = Rng(0xd1ff_5eed_0042);
    let variants = spec_variants(60, &mut rng);
    assert!(variants.len() >= 60, "only {} variants load", variants.len());
    let mut changed = 0;
    for case in 0..400 {
        let (old, new) = (rng.pick(&variants), rng.pick(&variants));
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let changes = diff::diff(old, new);
            let (text, json) = (render::text(&changes), render::json(&changes));
            (changes, text, json)
        }));
        let Ok((changes, text, json)) = outcome else { panic!("case {case}: diff panicked") };
        let summary: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("case {case}: {e}"));
        assert_eq!(summary["summary"]["total"], changes.len(), "case {case}");
        assert_eq!(diff::is_breaking(&changes), diff::bump(&changes) == Bump::Major, "case {case}:\n{text}");
        assert!(text.ends_with(&format!("{}\n", render::summary(&changes))), "case {case}");
        assert!(diff::diff(new, new).is_empty(), "case {case}: a variant differs from itself");
        changed += usize::from(!changes.is_empty());
    }
    assert!(changed > 200, "only {changed} of 400 pairs differ: the variants must vary");
}

/// A value of another JSON kind, deeper, or odd: what a careless or hostile caller sends.
fn scramble(value: &Value, rng: &mut Rng, depth: usize) -> Value {
    let odd = [
        json!(null),
        json!(""),
        json!(-1),
        json!(1e308),
        json!(18446744073709551615u64),
        json!(0.5),
        json!(true),
        json!([]),
        json!({}),
        json!("\u{0}\u{feff}é"),
        json!("x".repeat(3000)),
        json!([[[[[[[[[[[]]]]]]]]]]]),
    ];
    if depth > 4 || rng.below(4) == 0 {
        return rng.pick(&odd).clone();
    }
    match value {
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (key, item) in map {
                match rng.below(6) {
                    0 => {}                                                 // drop it
                    1 => drop(out.insert(format!("{key}X"), item.clone())), // unknown key
                    _ => drop(out.insert(key.clone(), scramble(item, rng, depth + 1))),
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| scramble(item, rng, depth + 1)).collect()),
        other => other.clone(),
    }
}

#[tokio::test]
async fn random_requests_never_make_the_server_fail_or_answer_without_the_error_body() {
    let (api, _) = apigen::load(Path::new("../spec")).expect("the spec loads");
    let calls = sample_calls(&api);
    let answers: std::collections::BTreeMap<String, Value> =
        calls.iter().filter_map(|c| Some((c.op.name.clone(), c.response.clone()?))).collect();
    let service = MockService::new(move |call: MockCall| Ok(answers.get(call.operation).cloned().unwrap_or(json!({}))));
    let app = docs_api_server::router(service);
    let mut rng = Rng(0xdead_beef_cafe);
    let odd_params = ["limit", "page", "nested", "x", "limit", "%ff", "a%00b", ""];
    let odd_values = ["-1", "99999999999999999999", "true", "", "%zz", "é", "1.5", "null", "[1]"];
    for case in 0..600 {
        let call = rng.pick(&calls);
        let mut uri = call.uri.clone();
        if rng.below(3) == 0 {
            // A path segment replaced by something odd.
            let segments: Vec<&str> = call.uri.split('?').next().unwrap_or_default().split('/').collect();
            let k = 1 + rng.below(segments.len().saturating_sub(1));
            let mut changed: Vec<String> = segments.iter().map(|s| (*s).to_owned()).collect();
            if let Some(segment) = changed.get_mut(k) {
                let value = rng.pick::<&str>(&odd_values);
                *segment = encode(value);
            }
            uri = changed.join("/");
        }
        for _ in 0..rng.below(4) {
            let separator = if uri.contains('?') { '&' } else { '?' };
            uri.push_str(&format!("{separator}{}={}", rng.pick(&odd_params), rng.pick(&odd_values)));
        }
        let body = match (&call.body, rng.below(5)) {
            (_, 0) => Some(b"{\"unterminated\": [1, 2".to_vec()),
            (_, 1) => Some(vec![0xff, 0xfe, b'{', b'}']),
            (Some(sample), _) => Some(serde_json::to_vec(&scramble(sample, &mut rng, 0)).unwrap()),
            (None, _) => None,
        };
        let mut request = Request::builder()
            .method(call.op.method.as_str())
            .uri(&uri)
            .header(header::AUTHORIZATION, "Bearer fuzz-token");
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let Ok(request) = request.body(body.clone().map_or_else(Body::empty, Body::from)) else {
            continue; // not even a valid HTTP request: no server would see it
        };
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let shown = || {
            format!(
                "case {case}: {} {uri} {:?} -> {status} {}",
                call.op.method.as_str(),
                body.as_deref().map(String::from_utf8_lossy),
                String::from_utf8_lossy(&bytes)
            )
        };
        assert!(status < 500, "{}", shown());
        if status >= 400 {
            let error: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("{}", shown()));
            assert_eq!(error["error"]["code"], status, "{}", shown());
            assert!(error["error"]["message"].is_string(), "{}", shown());
        }
    }
}
