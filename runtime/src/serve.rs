//! Serving a router on a TCP listener, hardened (feature `server`).
//!
//! `axum::serve` sets no timer on its connections, so a client that opens a connection and
//! sends nothing, or sends its headers one byte at a time, holds the connection (and a file
//! descriptor) for as long as it likes: a thousand such clients starve the server. [`serve`]
//! closes a connection whose request head does not arrive in time (the same timer covers an
//! idle keep-alive connection waiting for its next request), caps the connections served at
//! once (further ones wait in the listen backlog instead of failing with "too many open
//! files"), keeps accepting after a failed accept, and gives every request its remote address
//! as [`ConnectInfo`].

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
/// The listener [`serve`] takes, re-exported so a service needs no direct dependency on tokio
/// to bind one (`TcpListener::bind("127.0.0.1:8080").await?`).
pub use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How [`serve`] treats connections.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Longest wait for a request's head (request line and headers), from the moment the
    /// connection is ready for it: on a new connection, and on a kept-alive one between
    /// requests. Default 10 s.
    pub header_read_timeout: Duration,
    /// Most connections served at once (default 512, under the usual limit of 1024 open
    /// files); the next ones wait to be accepted until one closes.
    pub max_connections: usize,
    /// Largest request head hyper buffers, in bytes (default 1 MiB). The router's own limits
    /// ([`crate::server::ServerConfig`]) are lower and answer with the error body; past this
    /// one hyper answers 431 itself.
    pub max_head_bytes: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig { header_read_timeout: Duration::from_secs(10), max_connections: 512, max_head_bytes: 1024 * 1024 }
    }
}

/// Serves `router` on `listener` until the task is dropped, with the protections of
/// [`ServeConfig`]. Never returns an error for one connection's failure.
pub async fn serve(listener: TcpListener, router: axum::Router, config: ServeConfig) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(config.max_connections.max(1)));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return Ok(()); // the semaphore is never closed
        };
        let (stream, remote) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted:
                // wait a little rather than spin, and keep serving.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let router = router.clone();
        let config = config.clone();
        tokio::spawn(async move {
            serve_connection(stream, remote, router, &config).await;
            drop(slot);
        });
    }
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    remote: SocketAddr,
    router: axum::Router,
    config: &ServeConfig,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        request.extensions_mut().insert(ConnectInfo(remote));
        let mut router = router.clone();
        async move { tower::Service::call(&mut router, request.map(axum::body::Body::new)).await }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        .max_buf_size(config.max_head_bytes.max(8192));
    // A connection's failure (a reset, a timeout, a malformed request) ends that connection
    // only; there is no one to report it to.
    let _ = builder.serve_connection(TokioIo::new(stream), service).await;
}
