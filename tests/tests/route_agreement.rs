//! Lint agrees with the router: over route sets generated from a fixed seed, every set lint
//! accepts (each path parses, no two operations of one method conflict) is dispatched by the
//! runtime's router as lint's model predicts. For each request built from a route's template
//! (values that look like other routes' literals, near misses), the operation answering is
//! the most specific one whose path and selectors match ([`PathTemplate::ranks`], then more
//! selectors), a unique one since lint accepted the set; a path no operation of the method
//! matches answers 405 when another method's does, else 404; one whose selectors match none
//! answers 400.
//!
//! The router runs in process over `OperationInfo` tables built here, with no handler set:
//! `build_partial` answers 501 naming the operation the router chose. Compiling a generated
//! crate per set would take minutes; the tables are what a generated server hands the router.

use apigen::model::{PathTemplate, SelectIn, Selector as SpecSelector, routes_conflict};
use apigen_runtime::codegen::ErrorShape;
use apigen_runtime::server::axum::body::Body;
use apigen_runtime::server::axum::http::{Request, StatusCode};
use apigen_runtime::server::axum::{self, Router};
use apigen_runtime::server::{ApiError, MockService, OperationInfo, Routes, Selector};
use tower::ServiceExt;

/// An operation of a generated set: its method, path template and selectors.
#[derive(Debug, Clone)]
struct Op {
    name: String,
    method: &'static str,
    path: String,
    select: Vec<SpecSelector>,
}

/// A request: method, raw path, headers and query pairs (one value per name).
#[derive(Debug, Clone)]
struct Call {
    method: &'static str,
    path: String,
    headers: Vec<(&'static str, &'static str)>,
    query: Vec<(&'static str, &'static str)>,
}

/// What the router answers: the operation it chose (501 naming it), or a refusal's status.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Operation(String),
    Refused(u16),
}

/// SplitMix64: a few lines, deterministic, good enough to pick among a handful of choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Segment forms: literals some values repeat, a whole parameter, mixed segments (`P` and
/// `Q` stand for parameters), literals axum's router reads as syntax (`:x`, `*x`).
const SEGMENTS: [&str; 14] =
    ["files", "x", "a", "P", "P", "P.json", "x-P", "P-x", "vP", "P,Q", "fn(a=P,b=Q)", "P:x", ":x", "*x"];
/// Forms lint refuses, drawn now and then: a set holding one is refused whole.
const REFUSED: [&str; 3] = ["P.Q", "P-Q", "PQ"];
/// Parameter values, as a client sends them (percent-encoded): literal texts of other routes
/// among them, so a request of one route also tries the others.
const VALUES: [&str; 12] = ["files", "x", "a", "files", "x-x", "a.json", "v1", "1%2C2", "a%3Ax", "y.z", ":x", "*x"];

fn selector(location: SelectIn, name: &str, value: &str) -> SpecSelector {
    SpecSelector { location, name: name.into(), value: value.into() }
}

/// The selectors an operation may have: a header of two values, a query parameter of two
/// values, another header.
fn selector_pool() -> Vec<SpecSelector> {
    vec![
        selector(SelectIn::Header, "X-Target", "A"),
        selector(SelectIn::Header, "X-Target", "B"),
        selector(SelectIn::Query, "Action", "A"),
        selector(SelectIn::Query, "Action", "B"),
        selector(SelectIn::Header, "X-Other", "A"),
    ]
}

fn template(rng: &mut Rng, segments: usize) -> String {
    let mut path = String::new();
    let mut params = 0;
    let mut param = || {
        params += 1;
        format!("{{p{params}}}")
    };
    for _ in 0..segments {
        let form = if rng.below(40) == 0 { rng.pick(&REFUSED) } else { rng.pick(&SEGMENTS) };
        let mut segment = String::new();
        for c in form.chars() {
            match c {
                'P' | 'Q' => segment.push_str(&param()),
                c => segment.push(c),
            }
        }
        path.push('/');
        path.push_str(&segment);
    }
    if rng.below(8) == 0 {
        path.push('/');
    }
    path
}

fn operation(rng: &mut Rng, index: usize, segments: usize) -> Op {
    let pool = selector_pool();
    let mut select: Vec<SpecSelector> = Vec::new();
    for _ in 0..rng.pick(&[0, 0, 0, 1, 1, 2]) {
        let candidate = pool[rng.below(pool.len())].clone();
        if !select.iter().any(|s| s.key() == candidate.key()) {
            select.push(candidate);
        }
    }
    Op {
        name: format!("op{index}"),
        method: rng.pick(&["GET", "GET", "GET", "POST"]),
        path: template(rng, segments),
        select,
    }
}

/// Lint's verdict on a set: every path parses and no two operations of one method conflict.
fn lint_accepts(ops: &[Op]) -> Option<Vec<PathTemplate>> {
    let templates: Vec<PathTemplate> =
        ops.iter().map(|op| PathTemplate::parse(&op.path).ok()).collect::<Option<_>>()?;
    for (i, a) in ops.iter().enumerate() {
        for (j, b) in ops.iter().enumerate().take(i) {
            let conflict = routes_conflict((&templates[i], &a.select), (&templates[j], &b.select));
            if a.method == b.method && conflict {
                return None;
            }
        }
    }
    Some(templates)
}

/// The pieces of each segment of a template, as the request's path splits (a trailing slash
/// an empty last segment).
fn model_segments(template: &PathTemplate) -> Vec<Vec<apigen::model::Piece>> {
    let mut segments: Vec<Vec<apigen::model::Piece>> = template.segments.iter().map(|s| s.pieces()).collect();
    if template.trailing_slash {
        segments.push(Vec::new());
    }
    segments
}

/// True when `pieces` match `text` by some split, each parameter non-empty: the reference,
/// trying every split.
fn pieces_match(pieces: &[apigen::model::Piece], text: &str) -> bool {
    use apigen::model::Piece;
    match pieces.split_first() {
        None => text.is_empty(),
        Some((Piece::Text(literal), rest)) => {
            text.strip_prefix(literal.as_str()).is_some_and(|t| pieces_match(rest, t))
        }
        Some((Piece::Param(_), [])) => !text.is_empty(),
        Some((Piece::Param(_), rest)) => {
            (1..=text.len()).filter(|&end| text.is_char_boundary(end)).any(|end| pieces_match(rest, &text[end..]))
        }
    }
}

fn path_matches(template: &PathTemplate, path: &str) -> bool {
    let Some(rest) = path.strip_prefix('/') else { return false };
    let segments = model_segments(template);
    if segments.is_empty() {
        return rest.is_empty();
    }
    let texts: Vec<&str> = rest.split('/').collect();
    texts.len() == segments.len() && segments.iter().zip(texts).all(|(pieces, text)| pieces_match(pieces, text))
}

fn selectors_match(select: &[SpecSelector], call: &Call) -> bool {
    select.iter().all(|s| match s.location {
        SelectIn::Header => call.headers.iter().any(|(n, v)| n.eq_ignore_ascii_case(&s.name) && *v == s.value),
        SelectIn::Query => call.query.iter().any(|(n, v)| *n == s.name && *v == s.value),
    })
}

/// What lint's model says the router answers `call`.
fn predicted(ops: &[Op], templates: &[PathTemplate], call: &Call) -> Result<Answer, String> {
    let on_path: Vec<usize> = (0..ops.len()).filter(|&i| path_matches(&templates[i], &call.path)).collect();
    let of_method: Vec<usize> = on_path.iter().copied().filter(|&i| ops[i].method == call.method).collect();
    let chosen: Vec<usize> = of_method.iter().copied().filter(|&i| selectors_match(&ops[i].select, call)).collect();
    let key = |i: usize| (templates[i].ranks(), ops[i].select.len());
    let Some(best) = chosen.iter().map(|&i| key(i)).max() else {
        let status = match (of_method.is_empty(), on_path.is_empty()) {
            (false, _) => 400,
            (true, false) => 405,
            (true, true) => 404,
        };
        return Ok(Answer::Refused(status));
    };
    let winners: Vec<usize> = chosen.into_iter().filter(|&i| key(i) == best).collect();
    match winners.as_slice() {
        [one] => Ok(Answer::Operation(ops[*one].name.clone())),
        _ => Err(format!("lint accepted operations one request reaches alike: {:?}", winners)),
    }
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// The router a generated server would build for the set, no handler set.
fn router(ops: &[Op]) -> Router {
    let infos: Vec<OperationInfo> = ops
        .iter()
        .map(|op| {
            let select: Vec<Selector> = op
                .select
                .iter()
                .map(|s| match s.location {
                    SelectIn::Header => Selector::Header(leak(&s.name), leak(&s.value)),
                    SelectIn::Query => Selector::Query(leak(&s.name), leak(&s.value)),
                })
                .collect();
            OperationInfo {
                name: leak(&op.name),
                method: op.method,
                path: leak(&op.path),
                select: Box::leak(select.into_boxed_slice()),
                public: true,
                ..OperationInfo::BASE
            }
        })
        .collect();
    let service = MockService::new(|_| Err(ApiError::internal("no handler is set")));
    Routes::new(service, Box::leak(infos.into_boxed_slice()), &ErrorShape::DEFAULT).build_partial()
}

async fn answer(router: &Router, call: &Call) -> Answer {
    let mut uri = call.path.clone();
    if !call.query.is_empty() {
        let pairs: Vec<String> = call.query.iter().map(|(n, v)| format!("{n}={v}")).collect();
        uri = format!("{uri}?{}", pairs.join("&"));
    }
    let mut request = Request::builder().method(call.method).uri(uri);
    for (name, value) in &call.headers {
        request = request.header(*name, *value);
    }
    let response = router.clone().oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
    if status != StatusCode::NOT_IMPLEMENTED {
        return Answer::Refused(status.as_u16());
    }
    let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let message = body["error"]["message"].as_str().unwrap_or_default();
    let name = message.strip_prefix("the operation `").and_then(|m| m.strip_suffix("` is not implemented"));
    Answer::Operation(name.unwrap_or(message).to_owned())
}

/// A path of `template` with its parameters given values, or a near miss of it.
fn request_path(rng: &mut Rng, template: &str) -> String {
    let mut path = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        path.push_str(&rest[..start]);
        path.push_str(rng.pick(&VALUES));
        rest = &rest[rest.find('}').unwrap() + 1..];
    }
    path.push_str(rest);
    match rng.below(8) {
        0 => path.push_str("/x"),
        1 if path.len() > 1 && path.ends_with('/') => _ = path.pop(),
        1 => path.push('/'),
        2 => path = path.replacen("files", "filez", 1),
        _ => {}
    }
    path
}

/// A request for `op`: its method (sometimes another), its path, and its selectors (sometimes
/// none, sometimes another of the pool), never a name twice.
fn request(rng: &mut Rng, op: &Op) -> Call {
    let method = if rng.below(6) == 0 { rng.pick(&["GET", "POST"]) } else { op.method };
    let mut call = Call { method, path: request_path(rng, &op.path), headers: Vec::new(), query: Vec::new() };
    let mut select = if rng.below(5) == 0 { Vec::new() } else { op.select.clone() };
    if rng.below(3) == 0 {
        let pool = selector_pool();
        let extra = pool[rng.below(pool.len())].clone();
        if !select.iter().any(|s| s.key() == extra.key()) {
            select.push(extra);
        }
    }
    for s in select {
        match s.location {
            SelectIn::Header => call.headers.push((leak(&s.name), leak(&s.value))),
            SelectIn::Query => call.query.push((leak(&s.name), leak(&s.value))),
        }
    }
    call
}

/// Route sets tried: about a second of CPU in a debug build.
const SETS: usize = 600;

#[tokio::test]
async fn every_route_set_lint_accepts_is_dispatched_as_lint_predicts() {
    let mut rng = Rng(50);
    let (mut accepted, mut refused, mut requests, mut contested) = (0, 0, 0, 0);
    let mut failures: Vec<String> = Vec::new();
    for _ in 0..SETS {
        // One number of segments per set, most often: paths of others never match.
        let segments = 1 + rng.below(3);
        let count = 2 + rng.below(5);
        let ops: Vec<Op> = (0..count)
            .map(|index| {
                let more = rng.below(6) / 5;
                operation(&mut rng, index, segments + more)
            })
            .collect();
        let Some(templates) = lint_accepts(&ops) else {
            refused += 1;
            continue;
        };
        accepted += 1;
        let router = router(&ops);
        for op in &ops {
            for _ in 0..6 {
                let call = request(&mut rng, op);
                let expected = match predicted(&ops, &templates, &call) {
                    Ok(expected) => expected,
                    Err(why) => {
                        failures.push(format!("{ops:#?}\n{call:?}: {why}"));
                        continue;
                    }
                };
                let found = answer(&router, &call).await;
                requests += 1;
                contested += usize::from(templates.iter().filter(|t| path_matches(t, &call.path)).count() > 1);
                if found != expected && failures.len() < 5 {
                    failures
                        .push(format!("{ops:#?}\n{call:?}: lint predicts {expected:?}, the router answers {found:?}"));
                }
            }
        }
    }
    eprintln!(
        "{accepted} sets accepted, {refused} refused, {requests} requests, {contested} matching two paths or more"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The seed gives enough of each to mean something.
    assert!(accepted >= 400 && refused >= 30, "{accepted} sets accepted, {refused} refused");
    assert!(requests >= 8_000 && contested >= 800, "{requests} requests, {contested} matching two paths or more");
}

#[tokio::test]
async fn a_request_reaches_a_route_matchit_passes_over() {
    // matchit takes `/r2/files/x` to the route of `/r2/files/{id}.json` (literal `files`
    // first) and never tries `/r2/{p1}/x`: the router tries its operations too.
    let ops = [("getJson", "/r2/files/{id}.json"), ("getKind", "/r2/{kind}/x")].map(|(name, path)| Op {
        name: name.into(),
        method: "GET",
        path: path.into(),
        select: Vec::new(),
    });
    assert!(lint_accepts(&ops).is_some());
    let router = router(&ops);
    let get = |path: &str| Call { method: "GET", path: path.into(), headers: Vec::new(), query: Vec::new() };
    // What the user sees: the operation's answer (here the 501 of one without a handler), not
    // a 404 saying no operation matches.
    let request = Request::builder().uri("/r2/files/x").body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_IMPLEMENTED);
    let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
    assert_eq!(body, r#"{"error":{"code":501,"message":"the operation `getKind` is not implemented"}}"#);
    assert_eq!(answer(&router, &get("/r2/files/7.json")).await, Answer::Operation("getJson".into()));
    assert_eq!(answer(&router, &get("/r2/other/x")).await, Answer::Operation("getKind".into()));
    assert_eq!(answer(&router, &get("/r2/files/y")).await, Answer::Refused(404));
    let post = Call { method: "POST", ..get("/r2/files/x") };
    assert_eq!(answer(&router, &post).await, Answer::Refused(405));
}
