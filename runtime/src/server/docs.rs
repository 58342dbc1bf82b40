//! The API's reference in the browser (feature `docs`): `GET /openapi.json` answers the
//! OpenAPI document, `GET /docs` an HTML page rendering it with Redoc (`GET /docs/` redirects
//! there), whose script
//! (`GET /docs/redoc.js`, Redoc 2.5.4 from npm, MIT, vendored in `assets/redoc/` with its
//! licenses) is served from the binary: the page needs no network at run time.
//!
//! The routes need no credentials: a reference describes the API, it holds nothing of a
//! caller's. Mount the router beside the API's (`router.merge(docs_router(..))`), or nest it
//! (`Router::new().nest("/api", ..)`: the page loads the script and the document by paths
//! relative to itself).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// Redoc's standalone bundle.
pub const REDOC_JS: &str = include_str!("../../assets/redoc/redoc.standalone.js");
/// Redoc's license, served beside the script.
const REDOC_LICENSE: &str = include_str!("../../assets/redoc/LICENSE");

/// A router serving `openapi_json` at `/openapi.json` and its reference page at `/docs`.
pub fn docs_router(openapi_json: &'static str) -> axum::Router {
    let page = page(openapi_json);
    axum::Router::new()
        .route("/openapi.json", get(move || async move { with_type(openapi_json, "application/json") }))
        .route("/docs", get(move || async move { with_type(page, "text/html; charset=utf-8") }))
        // `/docs/` is where a person types a trailing slash: sent to the page, by a path relative
        // to itself so that a nested router (`/api/docs/`) lands on its own page.
        .route("/docs/", get(|| async { to_page() }))
        .route("/docs/redoc.js", get(|| async { with_type(REDOC_JS, "text/javascript; charset=utf-8") }))
        .route("/docs/redoc.LICENSE.txt", get(|| async { with_type(REDOC_LICENSE, "text/plain; charset=utf-8") }))
}

/// 308 to the page from `/docs/`: `../docs` resolves against `/docs/` (or `/api/docs/`) to the
/// page itself, whose relative paths (`openapi.json`, `docs/redoc.js`) then resolve right.
fn to_page() -> Response {
    let mut response = axum::http::StatusCode::PERMANENT_REDIRECT.into_response();
    response.headers_mut().insert(header::LOCATION, HeaderValue::from_static("../docs"));
    response
}

fn with_type(body: &'static str, media_type: &'static str) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    response
}

/// The page: the document's title, Redoc rendering `openapi.json` (paths relative to the page).
fn page(openapi_json: &str) -> &'static str {
    let title = serde_json::from_str::<serde_json::Value>(openapi_json)
        .ok()
        .and_then(|doc| doc.pointer("/info/title").and_then(|t| t.as_str()).map(str::to_owned))
        .unwrap_or_else(|| "API".to_owned());
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} reference</title>\n<style>body {{ margin: 0; }}</style>\n</head>\n<body>\n\
         <redoc spec-url=\"openapi.json\"></redoc>\n<script src=\"docs/redoc.js\"></script>\n</body>\n</html>\n",
        escape(&title)
    );
    // Made once per router; a router is built once per server.
    Box::leak(html.into_boxed_str())
}

/// `text` with HTML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
