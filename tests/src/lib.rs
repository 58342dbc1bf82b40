//! Shared helpers of the workspace-level tests in `tests/`.

pub mod edits;
pub mod memory;

use std::path::{Path, PathBuf};

/// Compares `actual` with the snapshot file at `path`. With `UPDATE_EXPECT=1` in the
/// environment the file is (re)written instead. Returns a readable diff on mismatch, so a
/// test can check every fixture before failing.
pub fn snapshot(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(&expected, actual)
        .unified_diff()
        .header(&format!("{} (expected)", path.display()), "actual")
        .to_string();
    Err(format!("{diff}\n(run with UPDATE_EXPECT=1 to accept)"))
}

/// Sub-directories of `dir`, sorted.
pub fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Fails with every message collected, or passes when there is none.
pub fn assert_all(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
}

pub mod calls {
    //! A sample HTTP call for every operation of a spec, built from its samples: what to send,
    //! what the handler must receive, what the mock answers.

    use apigen::model::{Api, Operation, ParamIn, Piece, sample};
    use serde_json::{Map, Value};

    /// One operation's sample call.
    #[derive(Debug, Clone)]
    pub struct SampleCall {
        /// The operation.
        pub op: Operation,
        /// Path and query string to request.
        pub uri: String,
        /// The JSON body to send, if the operation takes one.
        pub body: Option<Value>,
        /// The request the handler must receive: parameters and `body` by wire name.
        pub expected_request: Value,
        /// What the mock answers (and the client must decode back).
        pub response: Option<Value>,
    }

    /// A sample call for every operation, in spec order.
    pub fn sample_calls(api: &Api) -> Vec<SampleCall> {
        api.operations.iter().map(|op| sample_call(api, op)).collect()
    }

    fn sample_call(api: &Api, op: &Operation) -> SampleCall {
        let mut expected = Map::new();
        let mut path = String::new();
        for segment in &op.path.segments {
            path.push('/');
            for piece in segment.pieces() {
                match piece {
                    Piece::Text(text) => path.push_str(&text),
                    Piece::Param(name) => {
                        let param = op.params.iter().find(|p| p.wire == name).expect("lowered");
                        let value = sample::of_param(api, param);
                        let text = value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string());
                        path.push_str(&encode(&text));
                    }
                }
            }
        }
        if op.path.trailing_slash || op.path.segments.is_empty() {
            path.push('/');
        }
        let mut query = Vec::new();
        for param in &op.params {
            let value = sample::of_param(api, param);
            if param.location == ParamIn::Query {
                let values = match &value {
                    Value::Array(items) => items.clone(),
                    other => vec![other.clone()],
                };
                for item in values {
                    let text = item.as_str().map(str::to_owned).unwrap_or_else(|| item.to_string());
                    query.push(format!("{}={}", encode(&param.wire), encode(&text)));
                }
            }
            expected.insert(param.wire.clone(), value);
        }
        let body = sample::of_body(api, op);
        if let Some(body) = &body {
            expected.insert("body".into(), body.clone());
        }
        let uri = if query.is_empty() { path } else { format!("{path}?{}", query.join("&")) };
        SampleCall {
            op: op.clone(),
            uri,
            body,
            expected_request: Value::Object(expected),
            response: sample::of_response(api, op),
        }
    }

    /// Percent-encodes everything but unreserved characters.
    pub fn encode(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
                other => format!("%{other:02X}"),
            })
            .collect()
    }
}

/// The README's Rust examples, compiled (and the runnable ones run) as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;

/// The guide's Rust examples (`docs/src`), each chapter holding some compiled (and the
/// runnable ones run) as doctests; `generator/tests/guide.rs` fails on a block marked `ignore`.
#[cfg(doctest)]
pub mod guide {
    #[doc = include_str!("../../docs/src/tutorial.md")]
    pub struct Tutorial;
    #[doc = include_str!("../../docs/src/project.md")]
    pub struct Project;
    #[doc = include_str!("../../docs/src/server.md")]
    pub struct Server;
    #[doc = include_str!("../../docs/src/client.md")]
    pub struct Client;
    #[doc = include_str!("../../docs/src/sandbox.md")]
    pub struct Sandbox;
}
