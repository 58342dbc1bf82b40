//! The request heads hyper would refuse with a bare status, found first: [`HeadGuard`] reads
//! the connection ahead of hyper, follows each request's framing (`Content-Length`, chunked)
//! to find where every head starts, and when one breaks a limit hyper enforces on its own (a
//! head over `max_head_bytes`, more headers than `max_headers`, a request target hyper cannot
//! hold) hands hyper a stand-in request in its place and ends the connection there. The
//! service answers the stand-in with the API's error body ([`crate::server::Refused`]).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// How long a connection closed with a request unread keeps reading (and dropping) what the
/// client still sends, so the client reads the answer instead of a reset; and how much.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 8 * 1024 * 1024;

/// What the guard and the service of one connection share.
#[derive(Debug, Default)]
pub(super) struct Shared {
    /// The refused head, if one was.
    pub refusal: Mutex<Option<Refusal>>,
    /// The connection closes with request bytes unread (a refused head, a body too slow).
    pub linger: AtomicBool,
}

/// Longest request target hyper parses (its own limit is 65,534 bytes).
pub(super) const MAX_TARGET_BYTES: usize = 65_000;

/// The request hyper receives in place of a refused head.
const STAND_IN: &[u8] = b"GET / HTTP/1.1\r\nhost: refused\r\n\r\n";

/// The limits of a head, and what was refused.
#[derive(Debug, Clone, Copy)]
pub(super) struct HeadLimits {
    pub max_head_bytes: usize,
    pub max_headers: usize,
}

/// A refused head: which request of the connection (counting from 0) and why.
#[derive(Debug, Clone)]
pub(super) struct Refusal {
    pub request: u64,
    pub status: u16,
    pub message: String,
}

/// Where the reader is in the stream of requests.
#[derive(Debug)]
enum State {
    /// Gathering a head (held back from hyper until it is whole and within limits).
    Head,
    /// Passing `remaining` body bytes.
    Body(u64),
    /// A chunked body: reading a chunk-size line.
    ChunkSize,
    /// A chunked body: passing a chunk's data, then its line end.
    ChunkData(u64),
    /// A chunked body: the line end after a chunk's data.
    ChunkEnd,
    /// A chunked body: trailer lines until an empty one.
    Trailers,
    /// Framing this reader does not follow (an upgrade, an unknown coding, a malformed
    /// size): everything passes and hyper judges.
    Pass,
    /// A head was refused: the stand-in is passed, then the connection ends.
    Refused,
}

/// Reads ahead of hyper on one connection (see the module docs).
pub(super) struct HeadGuard<T> {
    io: T,
    limits: HeadLimits,
    state: State,
    /// Bytes read and not yet passed on or consumed by the state machine.
    pending: Vec<u8>,
    /// Bytes ready for hyper, from `ready_at` on.
    ready: Vec<u8>,
    ready_at: usize,
    /// How far the head in `pending` has been scanned: up to `scanned`, with `lines` lines
    /// ended, the current one starting at `line_start`.
    scanned: usize,
    lines: usize,
    line_start: usize,
    /// The current line (chunk sizes and trailers).
    line: Vec<u8>,
    heads: u64,
    shared: Arc<Shared>,
    eof: bool,
    /// While closing: the write side is shut, and until when the rest is drained.
    shut: bool,
    lingering: Option<Pin<Box<Sleep>>>,
    drained: usize,
}

impl<T> HeadGuard<T> {
    pub(super) fn new(io: T, limits: HeadLimits, shared: Arc<Shared>) -> Self {
        HeadGuard {
            io,
            limits,
            state: State::Head,
            pending: Vec::new(),
            ready: Vec::new(),
            ready_at: 0,
            scanned: 0,
            lines: 0,
            line_start: 0,
            line: Vec::new(),
            heads: 0,
            shared,
            eof: false,
            shut: false,
            lingering: None,
            drained: 0,
        }
    }

    /// Runs the state machine over `pending`, moving what hyper may read to `ready`.
    fn advance(&mut self) {
        while !self.pending.is_empty() {
            match self.state {
                State::Head => {
                    if !self.take_head() {
                        return;
                    }
                }
                State::Body(remaining) => {
                    let n = (remaining.min(self.pending.len() as u64)) as usize;
                    self.ready.extend(self.pending.drain(..n));
                    let left = remaining - n as u64;
                    self.state = if left == 0 { State::Head } else { State::Body(left) };
                }
                State::ChunkSize | State::ChunkEnd | State::Trailers => {
                    let Some(line) = self.take_line() else { return };
                    self.state = match self.state {
                        State::ChunkSize => chunk_size(&line).map_or(State::Pass, |size| match size {
                            0 => State::Trailers,
                            n => State::ChunkData(n),
                        }),
                        State::ChunkEnd if is_blank(&line) => State::ChunkSize,
                        State::Trailers if is_blank(&line) => State::Head,
                        State::Trailers => State::Trailers,
                        _ => State::Pass,
                    };
                }
                State::ChunkData(remaining) => {
                    let n = (remaining.min(self.pending.len() as u64)) as usize;
                    self.ready.extend(self.pending.drain(..n));
                    let left = remaining - n as u64;
                    self.state = if left == 0 { State::ChunkEnd } else { State::ChunkData(left) };
                }
                State::Pass => self.ready.append(&mut self.pending),
                State::Refused => self.pending.clear(),
            }
        }
    }

    /// One line of `pending` (passed on to hyper as it is), once whole; a line longer than
    /// a head may be leaves the framing to hyper.
    fn take_line(&mut self) -> Option<Vec<u8>> {
        let Some(end) = self.pending.iter().position(|&b| b == b'\n') else {
            self.line.extend_from_slice(&self.pending);
            self.ready.append(&mut self.pending);
            if self.line.len() > self.limits.max_head_bytes {
                self.state = State::Pass;
            }
            return None;
        };
        let rest = self.pending.split_off(end + 1);
        self.line.extend_from_slice(&self.pending[..end]);
        self.ready.append(&mut self.pending);
        self.pending = rest;
        Some(std::mem::take(&mut self.line))
    }

    /// Moves a whole head within limits to `ready` (true), refuses one past them, or waits
    /// for more (false). Each byte of a head is scanned once, however it trickles in.
    fn take_head(&mut self) -> bool {
        // Empty lines before a request line are allowed (and skipped by hyper).
        if self.scanned == 0 {
            let blank = self.pending.iter().take_while(|b| matches!(b, b'\r' | b'\n')).count();
            self.ready.extend(self.pending.drain(..blank));
            if self.pending.is_empty() {
                return false;
            }
        }
        let mut end = None;
        while let Some(at) = self.pending[self.scanned..].iter().position(|&b| b == b'\n').map(|i| i + self.scanned) {
            self.scanned = at + 1;
            let line = &self.pending[self.line_start..at];
            self.line_start = at + 1;
            if is_blank(line) {
                end = Some(at + 1);
                break;
            }
            if self.lines == 0
                && let Some(refusal) = target_too_long(line).or_else(|| target_not_a_uri(line))
            {
                return self.refuse(refusal);
            }
            self.lines += 1;
            if self.lines > self.limits.max_headers + 1 {
                let message = format!("the request has more than {} headers", self.limits.max_headers);
                return self.refuse((431, message));
            }
        }
        let Some(end) = end else {
            self.scanned = self.pending.len();
            if self.pending.len() > self.limits.max_head_bytes {
                let message = format!("the request head is over {} bytes", self.limits.max_head_bytes);
                return self.refuse((431, message));
            }
            if self.lines == 0
                && let Some(refusal) = target_too_long(&self.pending)
            {
                return self.refuse(refusal);
            }
            return false;
        };
        if end > self.limits.max_head_bytes {
            let message = format!("the request head is over {} bytes", self.limits.max_head_bytes);
            return self.refuse((431, message));
        }
        let rest = self.pending.split_off(end);
        let head = std::mem::replace(&mut self.pending, rest);
        self.state = framing(&head);
        self.ready.extend_from_slice(&head);
        (self.scanned, self.lines, self.line_start) = (0, 0, 0);
        self.heads += 1;
        true
    }

    fn refuse(&mut self, (status, message): (u16, String)) -> bool {
        let refusal = Refusal { request: self.heads, status, message };
        *self.shared.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(refusal);
        self.shared.linger.store(true, Ordering::Release);
        self.ready.extend_from_slice(STAND_IN);
        self.pending.clear();
        self.state = State::Refused;
        true
    }
}

/// A 414 for a request line whose target is longer than hyper parses.
fn target_too_long(line: &[u8]) -> Option<(u16, String)> {
    let first_space = line.iter().position(|&b| b == b' ')?;
    let target = line[first_space + 1..].split(|&b| b == b' ').next().unwrap_or_default();
    (target.len() > MAX_TARGET_BYTES || line.len() > MAX_TARGET_BYTES + 32)
        .then(|| (414, format!("the request target is over {MAX_TARGET_BYTES} bytes")))
}

/// A 400 for a request line whose target hyper would refuse with an empty 400 (a raw byte
/// that is not UTF-8 text, `/a\xFF`, or a control), judged as hyper judges it: by `http`'s
/// own `Uri` parser. A line this cannot read is left to hyper.
fn target_not_a_uri(line: &[u8]) -> Option<(u16, String)> {
    let first_space = line.iter().position(|&b| b == b' ')?;
    let target = line[first_space + 1..].split(|&b| b == b' ').next().filter(|t| !t.is_empty())?;
    axum::http::Uri::try_from(target).err().map(|_| {
        let message =
            "the request target is not a valid URI: send bytes that are not UTF-8 text, spaces and controls percent-encoded";
        (400, message.to_owned())
    })
}

fn is_blank(line: &[u8]) -> bool {
    matches!(line, [] | [b'\r'])
}

/// How the body after `head` is framed, as hyper reads it.
fn framing(head: &[u8]) -> State {
    let text = String::from_utf8_lossy(head);
    let mut length = None;
    let mut chunked = false;
    let mut other = false;
    for line in text.split('\n').skip(1) {
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            match (length, value.parse::<u64>()) {
                (None, Ok(n)) => length = Some(n),
                (Some(m), Ok(n)) if m == n => {}
                _ => other = true,
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.rsplit(',').next().is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
            other |= !chunked;
        } else if name.eq_ignore_ascii_case("upgrade") {
            other = true;
        }
    }
    match (other, chunked, length) {
        (true, _, _) => State::Pass,
        (false, true, _) => State::ChunkSize,
        (false, false, Some(n)) if n > 0 => State::Body(n),
        _ => State::Head,
    }
}

/// The size of a chunk-size line (hex digits, then extensions after `;`).
fn chunk_size(line: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(line).ok()?;
    let digits = text.split(';').next()?.trim();
    u64::from_str_radix(digits, 16).ok()
}

impl<T> HeadGuard<T> {
    /// Body bytes that may be read straight into hyper's buffer: none are held back and the
    /// state passes the next `n` bytes as they are.
    fn passing(&self) -> Option<u64> {
        if self.ready_at < self.ready.len() || !self.pending.is_empty() {
            return None;
        }
        match self.state {
            State::Body(n) | State::ChunkData(n) => Some(n),
            State::Pass => Some(u64::MAX),
            _ => None,
        }
    }

    fn passed(&mut self, n: u64) {
        self.state = match self.state {
            State::Body(left) if left == n => State::Head,
            State::Body(left) => State::Body(left - n),
            State::ChunkData(left) if left == n => State::ChunkEnd,
            State::ChunkData(left) => State::ChunkData(left - n),
            State::Pass => State::Pass,
            _ => unreachable!("passing() allows body states only"),
        };
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for HeadGuard<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.ready_at < this.ready.len() {
                let n = (this.ready.len() - this.ready_at).min(buf.remaining());
                buf.put_slice(&this.ready[this.ready_at..this.ready_at + n]);
                this.ready_at += n;
                if this.ready_at == this.ready.len() {
                    (this.ready_at, this.ready) = (0, Vec::new());
                }
                return Poll::Ready(Ok(()));
            }
            if matches!(this.state, State::Refused) {
                // Nothing after the stand-in: an end of input would make hyper drop the
                // connection before answering it. Its answer closes the connection.
                return Poll::Pending;
            }
            if this.eof {
                return Poll::Ready(Ok(()));
            }
            if let Some(n) = this.passing() {
                // A body passes straight through, without a copy of its own.
                let room = buf.remaining().min(usize::try_from(n).unwrap_or(usize::MAX));
                let mut direct = ReadBuf::new(buf.initialize_unfilled_to(room));
                return match Pin::new(&mut this.io).poll_read(cx, &mut direct) {
                    Poll::Ready(Ok(())) => {
                        let read = direct.filled().len();
                        buf.advance(read);
                        if read > 0 {
                            this.passed(read as u64);
                        }
                        Poll::Ready(Ok(()))
                    }
                    other => other,
                };
            }
            let mut chunk = [0u8; 16 * 1024];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.io).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) if read.filled().is_empty() => {
                    // The end: whatever is held back goes to hyper, which judges it.
                    this.eof = true;
                    this.ready.append(&mut this.pending);
                }
                Poll::Ready(Ok(())) => {
                    this.pending.extend_from_slice(read.filled());
                    this.advance();
                }
                Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncWrite for HeadGuard<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    /// Shuts the write side; when request bytes were left unread, then reads and drops what
    /// the client still sends, for [`LINGER`] at most, so closing does not reset the answer.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if !this.shut {
            std::task::ready!(Pin::new(&mut this.io).poll_shutdown(cx))?;
            this.shut = true;
        }
        if !this.shared.linger.load(Ordering::Acquire) {
            return Poll::Ready(Ok(()));
        }
        let deadline = this.lingering.get_or_insert_with(|| Box::pin(tokio::time::sleep(LINGER)));
        if deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Ok(()));
        }
        let mut scratch = [0u8; 16 * 1024];
        while this.drained < LINGER_BYTES {
            let mut read = ReadBuf::new(&mut scratch);
            match Pin::new(&mut this.io).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) if !read.filled().is_empty() => this.drained += read.filled().len(),
                Poll::Ready(_) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
