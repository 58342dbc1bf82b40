//! Bounded, reproducible fuzzing (a fixed-seed generator, no extra dependency), run by
//! `cargo test` in CI: mutated specs never panic the loader, lowering or emission and always
//! come back with located diagnostics; random requests never make the generated server answer
//! 5xx or anything but the error body.

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

fn mutate(text: &str, rng: &mut Rng) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 => {
                let end = (at + rng.below(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let snippet = rng.pick(SPEC_SNIPPETS).as_bytes().to_vec();
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
            let bytes = if i == victim { mutate(text, &mut rng) } else { text.clone().into_bytes() };
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
