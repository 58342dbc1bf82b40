//! The reference page of the generated server (feature `docs`): `/openapi.json` is the
//! generated document, byte for byte; `/docs` the page loading Redoc from `/docs/redoc.js`,
//! the vendored bundle; no credentials asked. `.ci/docs-page.sh` opens it in Chromium.

use apigen_runtime::server::axum::body::{Body, to_bytes};
use apigen_runtime::server::axum::http::{Request, header};
use tower::ServiceExt;

/// Status, media type and body of `GET path` on the sandbox-less docs router.
async fn get(path: &str) -> (u16, String, Vec<u8>) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = docs_api_server::docs_router().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let media = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_owned();
    (status, media, to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec())
}

#[tokio::test]
async fn the_page_the_script_and_the_document_are_served_without_credentials() {
    let (status, media, page) = get("/docs").await;
    assert_eq!((status, media.as_str()), (200, "text/html; charset=utf-8"));
    assert_eq!(
        String::from_utf8(page).unwrap(),
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\">\n<title>Documentation Platform API reference</title>\n\
         <style>body { margin: 0; }</style>\n</head>\n<body>\n<redoc spec-url=\"openapi.json\"></redoc>\n\
         <script src=\"docs/redoc.js\"></script>\n</body>\n</html>\n"
    );
    let (status, media, script) = get("/docs/redoc.js").await;
    assert_eq!((status, media.as_str()), (200, "text/javascript; charset=utf-8"));
    assert_eq!(script, std::fs::read("../runtime/assets/redoc/redoc.standalone.js").unwrap());
    let (status, media, document) = get("/openapi.json").await;
    assert_eq!((status, media.as_str()), (200, "application/json"));
    assert_eq!(document, std::fs::read("../generated/openapi.json").unwrap());
    // A trailing slash is sent to the page (it was a 404), relative to where the router is.
    let request = Request::get("/docs/").body(Body::empty()).unwrap();
    let response = docs_api_server::docs_router().oneshot(request).await.unwrap();
    assert_eq!((response.status().as_u16(), response.headers()[header::LOCATION].to_str().unwrap()), (308, "../docs"));
    let (status, _, license) = get("/docs/redoc.LICENSE.txt").await;
    assert_eq!(status, 200);
    assert!(String::from_utf8(license).unwrap().starts_with("The MIT License (MIT)"));
}

#[test]
fn the_vendored_bundle_is_redocs_with_its_licenses() {
    let readme = std::fs::read_to_string("../runtime/assets/redoc/README.md").unwrap();
    let script = std::fs::read("../runtime/assets/redoc/redoc.standalone.js").unwrap();
    // The hash the README records is the file's (sha256 of the npm package's bundle).
    assert!(readme.contains("`redoc` 2.5.4"), "{readme}");
    assert_eq!(script.len(), 1_103_471);
    assert!(script.starts_with(b"/*! For license information please see redoc.standalone.js.LICENSE.txt */"));
    for license in ["LICENSE", "redoc.standalone.js.LICENSE.txt"] {
        assert!(std::path::Path::new("../runtime/assets/redoc").join(license).is_file(), "{license}");
    }
}
