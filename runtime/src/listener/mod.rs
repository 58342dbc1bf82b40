//! Serving a router on a TCP listener, hardened (feature `server`): the accept loop, where
//! [`crate::server`] is the router it serves.
//!
//! `axum::serve` sets no timer on its connections, so a client that opens a connection and
//! sends nothing, sends its headers one byte at a time, or declares a large body and sends a
//! byte every few seconds, holds the connection (and a file descriptor) for as long as it
//! likes: a few hundred such clients starve the server. [`serve`]:
//!
//! - closes a connection whose request head does not arrive in time (the same timer covers an
//!   idle keep-alive connection waiting for its next request);
//! - demands a pace of request bodies: a body gets [`ServeConfig::body_read_timeout`], plus
//!   one second for every [`ServeConfig::min_body_rate`] bytes received, and never more than
//!   [`ServeConfig::max_body_time`] in all; one that falls behind is answered 408 with the
//!   API's error body and its connection closed (data already waiting is always read: only a
//!   body the server is left waiting for can fail);
//! - caps the connections served at once (further ones wait in the listen backlog instead of
//!   failing with "too many open files"), and when fewer than an eighth of the slots are free
//!   it closes first the connections idle for [`ServeConfig::shed_idle_after`] (no request
//!   in flight) and those whose request body, after as long, came slower than
//!   [`ServeConfig::shed_body_rate`] over the last [`ServeConfig::body_pace_window`] (answered
//!   408, unless the reset of a connection closed with bytes unread reaches the client
//!   first), whatever it sent before; when every slot is taken and a new connection waits,
//!   and nothing is that slow, it closes the connection idle longest or else cuts the body
//!   slowest over the window, whatever its pace: a flood of idle connections or of bodies of
//!   any pace cannot keep a request waiting;
//! - counts the request bodies being received against one budget for all connections
//!   ([`ServeConfig::max_buffered_body_bytes`]): past it, the bodies slowest over the window
//!   are cut (408) until the rest fit;
//! - answers a head past hyper's own limits (over [`ServeConfig::max_head_bytes`], more than
//!   [`ServeConfig::max_headers`] headers, a request target over 65,000 bytes) with the API's
//!   error body (414 or 431) instead of hyper's bare status, and closes the connection;
//! - keeps accepting after a failed accept, and gives every request its remote address as
//!   [`ConnectInfo`].

mod head;
mod pace;

use crate::server::{ApiError, BodyTooSlow, Refused};
use axum::body::Bytes;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, header};
use futures_util::task::AtomicWaker;
use head::{HeadGuard, HeadLimits, Shared};
use http_body::{Body, Frame, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use pace::Window;
use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
/// The listener [`serve`] takes, re-exported so a service needs no direct dependency on tokio
/// to bind one (`TcpListener::bind("127.0.0.1:8080").await?`).
pub use tokio::net::TcpListener;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// How [`serve`] treats connections.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Longest wait for a request's head (request line and headers), from the moment the
    /// connection is ready for it: on a new connection, and on a kept-alive one between
    /// requests. Default 10 s.
    pub header_read_timeout: Duration,
    /// Time a request body has before it must keep [`ServeConfig::min_body_rate`]: the body
    /// fails (408) when the server waits for it past this plus one second per
    /// `min_body_rate` bytes already received. Default 10 s.
    pub body_read_timeout: Duration,
    /// The slowest pace a request body may average past [`ServeConfig::body_read_timeout`],
    /// in bytes a second. Default 1024 (a byte every five seconds fails after 10 s; a body
    /// keeping this pace is still cut at [`ServeConfig::max_body_time`]).
    pub min_body_rate: u32,
    /// Longest a request body may take, from the arrival of its request's head, however
    /// steadily it comes: the body fails (408, connection closed) when the server waits for
    /// it past this. Default 60 s: a 2 MiB body (the router's default limit) must average
    /// 35 KB/s. Raise it for operations taking large streamed uploads (a 1 GiB upload in 60 s
    /// needs 18 MB/s); a streamed body the handler reads slowly is not charged for the
    /// handler's time, only for the server waiting on the client.
    pub max_body_time: Duration,
    /// Most connections served at once (default 512, under the usual limit of 1024 open
    /// files); the next ones wait to be accepted until one closes.
    pub max_connections: usize,
    /// When fewer than an eighth of [`ServeConfig::max_connections`] are free, connections
    /// with no request in flight for this long are closed, oldest activity first, and so are
    /// connections whose request body has been arriving for this long at less than
    /// [`ServeConfig::shed_body_rate`] on average. Default 1 s.
    pub shed_idle_after: Duration,
    /// When fewer than an eighth of [`ServeConfig::max_connections`] are free, the pace (bytes
    /// a second over the last [`ServeConfig::body_pace_window`]) below which a request body
    /// the server is waiting for loses its connection once it has been arriving for
    /// [`ServeConfig::shed_idle_after`]: answered 408 and closed without lingering, so the
    /// slot is free at once. Default 32 KiB/s (a 2 MiB body at this pace takes 64 s); 0 sheds
    /// a body only when a new connection waits for a slot nothing else frees. Without
    /// pressure, only [`ServeConfig::min_body_rate`] and [`ServeConfig::max_body_time`] apply.
    pub shed_body_rate: u32,
    /// The span over which the pace of a request body is measured for shedding (default
    /// 2 s): what the body sent before it counts for nothing, so a burst followed by a trickle
    /// is judged by the trickle.
    pub body_pace_window: Duration,
    /// Most bytes of request bodies being received at once, over all connections (default
    /// 256 MiB; 512 connections each receiving the router's default 2 MiB limit would hold
    /// 1 GiB). A body whose bytes push the total past it makes the bodies slowest over
    /// [`ServeConfig::body_pace_window`] fail (408, connection closed) until the rest fit; a
    /// body counts until it has arrived whole.
    pub max_buffered_body_bytes: u64,
    /// Largest request head read, in bytes (default 1 MiB): a longer one is answered 431 with
    /// the error body and the connection closed. The router's own limits
    /// ([`crate::server::ServerConfig`]) are lower and apply first to what fits.
    pub max_head_bytes: usize,
    /// Most headers a request may have (default 100): more are answered 431 with the error
    /// body and the connection closed.
    pub max_headers: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            min_body_rate: 1024,
            max_body_time: Duration::from_secs(60),
            max_connections: 512,
            shed_idle_after: Duration::from_secs(1),
            shed_body_rate: 32 * 1024,
            body_pace_window: Duration::from_secs(2),
            max_buffered_body_bytes: 256 * 1024 * 1024,
            max_head_bytes: 1024 * 1024,
            max_headers: 100,
        }
    }
}

/// Serves `router` on `listener` until the task is dropped, with the protections of
/// [`ServeConfig`]. Never returns an error for one connection's failure.
pub async fn serve(listener: TcpListener, router: axum::Router, config: ServeConfig) -> std::io::Result<()> {
    let max = config.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let busy_below = (max / 8).max(1);
    let live = Arc::new(Connections::new(&config));
    loop {
        let free = Arc::clone(&slots).try_acquire_owned().ok();
        if free.is_none() {
            live.shed(&config, false);
        }
        // Accepted even when every slot is taken (one connection past the cap at most): a
        // connection waiting is what makes shedding close something whatever its pace.
        let (stream, remote) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted:
                // wait a little rather than spin, and keep serving.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let slot = match free {
            Some(slot) => slot,
            None => make_room(&slots, &live, &config).await,
        };
        if slots.available_permits() < busy_below {
            live.shed(&config, false);
        }
        let connection = live.open();
        let (router, config, live) = (router.clone(), config.clone(), Arc::clone(&live));
        tokio::spawn(async move {
            serve_connection(stream, remote, router, &config, &connection, &live).await;
            live.close(&connection);
            drop(slot);
        });
    }
}

/// How often a full server looks again for idle connections and slow bodies to close.
const SHED_EVERY: Duration = Duration::from_millis(100);

/// A slot for an accepted connection that found every slot taken: shedding runs until one is
/// free, closing something whatever its pace when nothing is slow enough.
async fn make_room(slots: &Arc<Semaphore>, live: &Connections, config: &ServeConfig) -> OwnedSemaphorePermit {
    loop {
        if let Ok(slot) = Arc::clone(slots).try_acquire_owned() {
            return slot;
        }
        live.shed(config, true);
        if let Ok(Ok(slot)) = tokio::time::timeout(SHED_EVERY, Arc::clone(slots).acquire_owned()).await {
            return slot;
        }
    }
}

/// The connections being served, to find the idle ones when slots run out, and the bytes of
/// request bodies they are receiving.
struct Connections {
    next: AtomicU64,
    open: Mutex<BTreeMap<u64, Arc<Connection>>>,
    /// Bytes of the bodies being received, over all connections.
    buffered: AtomicU64,
    /// The budget for `buffered` ([`ServeConfig::max_buffered_body_bytes`]).
    budget: u64,
    window_ms: u64,
    /// When shedding last closed a connection only because one waited for its slot.
    forced_at: Mutex<Option<Instant>>,
}

/// One connection's activity, shared by its task and the accept loop.
struct Connection {
    id: u64,
    /// Requests whose response has not been produced yet.
    in_flight: AtomicUsize,
    /// When the last request ended (or the connection opened), in milliseconds since `epoch`.
    idle_since: AtomicU64,
    epoch: Instant,
    shed: Notify,
    /// Asked to close once nothing is in flight (it was idle).
    closing: AtomicBool,
    /// The request body being read, if any.
    body: BodyWatch,
}

/// The progress of a connection's request body (one at a time: HTTP/1 reads requests in
/// turn), shared by its [`PacedBody`] and the accept loop, which may cut it.
struct BodyWatch {
    /// When its request's head arrived, in milliseconds since the connection's `epoch`;
    /// [`NO_BODY`] while no body is being read.
    since: AtomicU64,
    received: AtomicU64,
    /// The server is waiting for more of it (its last poll found nothing).
    waiting: AtomicBool,
    /// Set by the accept loop: the body fails at once, and the connection closes without
    /// lingering.
    cut: AtomicBool,
    waker: AtomicWaker,
    /// Counts the bodies of the connection, so that a body dropped late leaves the watch of
    /// the next one alone.
    generation: AtomicU64,
    /// Its bytes over the last [`ServeConfig::body_pace_window`].
    window: Mutex<Window>,
}

const NO_BODY: u64 = u64::MAX;

impl Connection {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Whether the body being read has been arriving for at least `grace`, slower than
    /// `rate` bytes a second over the recent window, with the server waiting for it.
    fn body_behind(&self, grace: Duration, rate: u32) -> bool {
        if rate == 0 || !self.body.waiting.load(Ordering::Acquire) {
            return false;
        }
        let since = self.body.since.load(Ordering::Acquire);
        let old_enough = since != NO_BODY && u128::from(self.now().saturating_sub(since)) >= grace.as_millis();
        old_enough && self.recent_pace().is_some_and(|pace| pace < u64::from(rate))
    }

    /// Bytes a second the body being read received over the recent window; `None` without a
    /// body, or one that arrived this very millisecond.
    fn recent_pace(&self) -> Option<u64> {
        let since = self.body.since.load(Ordering::Acquire);
        if since == NO_BODY {
            return None;
        }
        lock(&self.body.window).pace(self.now(), since)
    }

    /// The recent pace of a body the server is waiting for, if that is what the connection
    /// holds, with the bytes it holds.
    fn waiting_body(&self) -> Option<(u64, u64)> {
        if self.leaving() || !self.body.waiting.load(Ordering::Acquire) {
            return None;
        }
        Some((self.recent_pace()?, self.body.received.load(Ordering::Acquire)))
    }

    /// Whether the connection is on its way out: its body cut, or asked to close while idle
    /// (one that started a request meanwhile may still be shed for it).
    fn leaving(&self) -> bool {
        self.body.cut.load(Ordering::Acquire)
            || (self.closing.load(Ordering::Acquire) && self.in_flight.load(Ordering::Acquire) == 0)
    }

    /// Fails the body being read at once (its reader is woken to find out).
    fn cut_body(&self) {
        self.body.cut.store(true, Ordering::Release);
        self.body.waker.wake();
    }

    /// Asks the connection to close once nothing is in flight.
    fn close_idle(&self) {
        self.closing.store(true, Ordering::Release);
        self.shed.notify_one();
    }

    fn idle_for(&self) -> Option<Duration> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(Duration::from_millis(self.now().saturating_sub(self.idle_since.load(Ordering::Acquire))))
    }
}

/// Locks a mutex whose data a panic cannot leave inconsistent (counters and plain fields).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Least time between two connections closed only because one waited for a slot: the first
/// one's slot is usually free by then.
const FORCE_EVERY: Duration = Duration::from_millis(200);

impl Connections {
    fn new(config: &ServeConfig) -> Self {
        Connections {
            next: AtomicU64::new(0),
            open: Mutex::new(BTreeMap::new()),
            buffered: AtomicU64::new(0),
            budget: config.max_buffered_body_bytes,
            window_ms: (config.body_pace_window.as_millis() as u64).max(8),
            forced_at: Mutex::new(None),
        }
    }

    fn open(&self) -> Arc<Connection> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection {
            id,
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            epoch: Instant::now(),
            shed: Notify::new(),
            closing: AtomicBool::new(false),
            body: BodyWatch {
                since: AtomicU64::new(NO_BODY),
                received: AtomicU64::new(0),
                waiting: AtomicBool::new(false),
                cut: AtomicBool::new(false),
                waker: AtomicWaker::new(),
                generation: AtomicU64::new(0),
                window: Mutex::new(Window::new(self.window_ms)),
            },
        });
        self.lock().insert(id, Arc::clone(&connection));
        connection
    }

    fn close(&self, connection: &Connection) {
        self.lock().remove(&connection.id);
    }

    /// Asks every connection idle for at least `shed_idle_after` to close (each finishes
    /// nothing, as it has nothing in flight; one that started a request meanwhile finishes it
    /// first), and cuts every body behind `shed_body_rate` after as long. When `waited` (a
    /// connection waits for a slot) and none of these was found, closes one connection
    /// whatever its pace: the one idle longest, else the body slowest over the window.
    fn shed(&self, config: &ServeConfig, waited: bool) {
        let open = self.lock();
        let mut freed = false;
        for connection in open.values() {
            if connection.idle_for().is_some_and(|idle| idle >= config.shed_idle_after) {
                connection.close_idle();
                freed = true;
            } else if connection.body_behind(config.shed_idle_after, config.shed_body_rate) {
                connection.cut_body();
                freed = true;
            }
        }
        if waited && !freed && self.may_force() {
            Self::force_one(&open);
        }
    }

    /// Whether a connection may be closed only because one waits: not twice in a row before
    /// the first had time to free its slot.
    fn may_force(&self) -> bool {
        let mut forced_at = lock(&self.forced_at);
        if forced_at.is_some_and(|at| at.elapsed() < FORCE_EVERY) {
            return false;
        }
        *forced_at = Some(Instant::now());
        true
    }

    /// Closes the connection idle longest, or else cuts the body slowest over the window.
    fn force_one(open: &BTreeMap<u64, Arc<Connection>>) {
        let staying = || open.values().filter(|connection| !connection.leaving());
        if let Some(idle) = staying().filter_map(|c| Some((c.idle_for()?, c))).max_by_key(|(idle, _)| *idle) {
            idle.1.close_idle();
        } else if let Some(slowest) =
            staying().filter_map(|c| Some((c.waiting_body()?.0, c))).min_by_key(|(pace, _)| *pace)
        {
            slowest.1.cut_body();
        }
    }

    /// Counts `bytes` more of bodies being received; past the budget, cuts the bodies slowest
    /// over the window until the rest fit.
    fn hold(&self, bytes: u64) {
        let total = self.buffered.fetch_add(bytes, Ordering::AcqRel) + bytes;
        if total > self.budget {
            self.relieve(total);
        }
    }

    /// Counts `bytes` of bodies no longer being received.
    fn release(&self, bytes: u64) {
        self.buffered.fetch_sub(bytes, Ordering::AcqRel);
    }

    fn relieve(&self, mut total: u64) {
        let open = self.lock();
        let mut bodies: Vec<(u64, u64, &Arc<Connection>)> = open
            .values()
            .filter(|connection| !connection.leaving())
            .filter_map(|connection| {
                let held = connection.body.received.load(Ordering::Acquire);
                let pace = connection.recent_pace()?;
                (held > 0).then_some((pace, held, connection))
            })
            .collect();
        bodies.sort_by_key(|(pace, _, _)| *pace);
        for (_, held, connection) in bodies {
            if total <= self.budget {
                break;
            }
            connection.cut_body();
            total = total.saturating_sub(held);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Connection>>> {
        // A panic while holding the lock leaves the map consistent (inserts and removes only).
        lock(&self.open)
    }
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    remote: SocketAddr,
    router: axum::Router,
    config: &ServeConfig,
    connection: &Arc<Connection>,
    live: &Arc<Connections>,
) {
    let pace = Pace { grace: config.body_read_timeout, rate: config.min_body_rate.max(1), most: config.max_body_time };
    let limits = HeadLimits { max_head_bytes: config.max_head_bytes.max(1024), max_headers: config.max_headers.max(1) };
    let shared = Arc::new(Shared::default());
    let io = HeadGuard::new(stream, limits, Arc::clone(&shared));
    let activity = Arc::clone(connection);
    let live = Arc::clone(live);
    let requests = AtomicU64::new(0);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        request.extensions_mut().insert(ConnectInfo(remote));
        let refused = refused(&shared, requests.fetch_add(1, Ordering::Relaxed));
        let close = refused.is_some();
        if let Some(refused) = refused {
            request.extensions_mut().insert(refused);
        }
        let mut router = router.clone();
        let activity = Arc::clone(&activity);
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        let timed_out = Arc::new(AtomicBool::new(close));
        let shared = Arc::clone(&shared);
        let watch = Watch { connection: Arc::clone(&activity), live: Arc::clone(&live) };
        let request =
            request.map(|body| axum::body::Body::new(PacedBody::new(body, pace, Arc::clone(&timed_out), watch)));
        async move {
            let mut response = tower::Service::call(&mut router, request).await?;
            if timed_out.load(Ordering::Acquire) {
                // The rest of a body that came too slowly, or of a refused head, is not read;
                // a body cut to free a slot closes at once, without lingering.
                response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                shared.linger.store(!activity.body.cut.load(Ordering::Acquire), Ordering::Release);
            }
            activity.idle_since.store(activity.now(), Ordering::Release);
            activity.in_flight.fetch_sub(1, Ordering::AcqRel);
            Ok::<_, std::convert::Infallible>(response)
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        // Above the guard's limits, so hyper never refuses a head with a bare status.
        .max_buf_size(limits.max_head_bytes + 64 * 1024)
        .max_headers(limits.max_headers + 1);
    // A connection's failure (a reset, a timeout, a malformed request) ends that connection
    // only; there is no one to report it to.
    let mut served = std::pin::pin!(builder.serve_connection(TokioIo::new(io), service));
    let shed = std::pin::pin!(connection.shed.notified());
    if let futures_util::future::Either::Right(((), mut served)) =
        futures_util::future::select(served.as_mut(), shed).await
    {
        served.as_mut().graceful_shutdown();
        let _ = served.await;
    }
}

/// The refusal of the connection's request number `request`, if its head was refused.
fn refused(shared: &Shared, request: u64) -> Option<Refused> {
    let slot = shared.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let found = slot.as_ref().filter(|refusal| refusal.request == request)?;
    let status = axum::http::StatusCode::from_u16(found.status).ok()?;
    Some(Refused(ApiError::new(status, found.message.clone())))
}

/// The pace a request body must keep.
#[derive(Debug, Clone, Copy)]
struct Pace {
    grace: Duration,
    rate: u32,
    /// The most it may take in all.
    most: Duration,
}

/// Longest wait a deadline is set for (a longer one is as good as none, and cannot overflow).
const FOREVER: Duration = Duration::from_secs(365 * 24 * 3600);

/// Where a body is followed: its connection's activity, and all connections' (for the budget
/// of bodies being received).
struct Watch {
    connection: Arc<Connection>,
    live: Arc<Connections>,
}

/// A request body that fails with [`BodyTooSlow`] when the server waits for it past its
/// deadline: the grace time from the request's arrival, plus a second per `rate` bytes, at
/// most `most`; or at once when the accept loop cuts it to free a slot or memory.
struct PacedBody {
    inner: hyper::body::Incoming,
    pace: Pace,
    arrived: Instant,
    received: u64,
    timer: Option<Pin<Box<Sleep>>>,
    timed_out: Arc<AtomicBool>,
    /// The connection's activity, where the accept loop follows this body (the connection's
    /// body number `generation`).
    watch: Arc<Connection>,
    live: Arc<Connections>,
    generation: u64,
    done: bool,
}

impl PacedBody {
    fn new(inner: hyper::body::Incoming, pace: Pace, timed_out: Arc<AtomicBool>, watch: Watch) -> Self {
        let Watch { connection: watch, live } = watch;
        let generation = watch.body.generation.fetch_add(1, Ordering::AcqRel) + 1;
        // A request without a body (a GET) is never followed: there is nothing to wait for.
        let done = inner.is_end_stream();
        if !done {
            let now = watch.now();
            watch.body.received.store(0, Ordering::Release);
            watch.body.waiting.store(false, Ordering::Release);
            watch.body.cut.store(false, Ordering::Release);
            lock(&watch.body.window).reset(now);
            watch.body.since.store(now, Ordering::Release);
        }
        PacedBody {
            inner,
            pace,
            arrived: Instant::now(),
            received: 0,
            timer: None,
            timed_out,
            watch,
            live,
            generation,
            done,
        }
    }

    /// Counts a frame of `bytes`: for the body's pace, and against the budget of bodies being
    /// received.
    fn count(&mut self, bytes: u64) {
        self.received += bytes;
        self.watch.body.received.store(self.received, Ordering::Release);
        self.watch.body.waiting.store(false, Ordering::Release);
        lock(&self.watch.body.window).record(self.watch.now(), bytes);
        self.live.hold(bytes);
    }

    fn allowed(&self) -> Duration {
        let paced =
            self.pace.grace.saturating_add(Duration::from_secs_f64(self.received as f64 / f64::from(self.pace.rate)));
        paced.min(self.pace.most).min(FOREVER)
    }

    /// Ends the body with [`BodyTooSlow`], having had `allowed`.
    fn fail(&mut self, allowed: Duration) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        self.finish();
        self.timed_out.store(true, Ordering::Release);
        Poll::Ready(Some(Err(Box::new(BodyTooSlow { received: self.received, allowed }))))
    }

    /// The body is over: the accept loop no longer follows it.
    fn finish(&mut self) {
        if !self.done {
            self.done = true;
            self.live.release(self.received);
            if self.watch.body.generation.load(Ordering::Acquire) != self.generation {
                return;
            }
            self.watch.body.since.store(NO_BODY, Ordering::Release);
            self.watch.body.waiting.store(false, Ordering::Release);
        }
    }

    /// `Ready` once the deadline for the bytes received so far has passed.
    fn poll_deadline(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let deadline = self.arrived + self.allowed();
        let timer = self.timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if timer.deadline() != deadline {
            timer.as_mut().reset(deadline);
        }
        timer.as_mut().poll(cx)
    }
}

/// Why a request body ended early.
type BodyError = Box<dyn std::error::Error + Send + Sync>;

impl Body for PacedBody {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.done {
            return Poll::Ready(None);
        }
        if self.watch.body.cut.load(Ordering::Acquire) {
            let taken = self.arrived.elapsed();
            return self.fail(taken);
        }
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                self.count(frame.data_ref().map_or(0, |data| data.len() as u64));
                if self.watch.body.cut.load(Ordering::Acquire) {
                    // Cut to bring the bodies being received back within their budget.
                    let taken = self.arrived.elapsed();
                    return self.fail(taken);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => {
                self.finish();
                Poll::Ready(Some(Err(error.into())))
            }
            Poll::Ready(None) => {
                self.finish();
                Poll::Ready(None)
            }
            Poll::Pending => {
                self.watch.body.waker.register(cx.waker());
                self.watch.body.waiting.store(true, Ordering::Release);
                if self.watch.body.cut.load(Ordering::Acquire) {
                    let taken = self.arrived.elapsed();
                    return self.fail(taken);
                }
                match self.poll_deadline(cx) {
                    Poll::Ready(()) => {
                        let allowed = self.allowed();
                        self.fail(allowed)
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for PacedBody {
    fn drop(&mut self) {
        self.finish();
    }
}
