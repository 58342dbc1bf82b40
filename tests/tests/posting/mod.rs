//! A request posted to the files fixture's generated server, its memory measured: shared by the
//! memory tests (`body_memory.rs`, `form_memory.rs`), each a binary whose global allocator is
//! `apigen_tests::memory::Counting`.

use apigen_runtime::server::axum::body::Body;
use apigen_runtime::server::axum::http::Request;
use apigen_tests::memory::peak_during;
use files_server::ServerConfig;
use files_server::mock::{MockCall, MockService};
use serde_json::json;
use tower::ServiceExt;

/// The status, the error body and the peak of bytes allocated above the start while the files
/// server's router answers `body` posted as `content_type` to `createCharge` (to
/// `uploadAttachments` when multipart).
pub fn post(config: &ServerConfig, content_type: &str, body: String) -> (u16, serde_json::Value, usize) {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let router = files_server::router_with(MockService::new(|_: MockCall| Ok(json!({}))), config.clone());
    let path = if content_type.starts_with("multipart/") { "/attachments" } else { "/charges" };
    let request = Request::post(path)
        .header("authorization", "Bearer tok")
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap();
    let ((status, bytes), peak) = peak_during(|| {
        runtime.block_on(async {
            let response = router.oneshot(request).await.unwrap();
            let status = response.status().as_u16();
            (status, apigen_runtime::server::axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap())
        })
    });
    (status, serde_json::from_slice(&bytes).unwrap_or_default(), peak)
}
