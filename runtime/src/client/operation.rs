//! What a generated request is made of, written once for every operation: an operation's
//! parameters build its [`Call`] ([`Operation`]), and its answer's [`Kind`] says how the answer
//! is read. A generated client's `Request<'a, P>` is one generic builder over them, so an
//! operation's generated code is only what is its own: its parameters, setters and docs.

use super::call::Call;
use super::core::Core;
use super::error::Error;
use super::transfer::{Answer, Download, Response, decode_body, text_of};
use crate::json::FromJson;
use std::future::Future;
use std::marker::PhantomData;

/// The parameters of one operation, as a generated client holds them until `.send()`.
pub trait Operation {
    /// How the answer is read, and what `send` gives.
    type Kind: Kind;

    /// The request as the runtime sends it, with the caller's `headers` (after the client's
    /// default ones); `core` encodes (and, when the client validates requests, checks) the body
    /// and object query parameters, and fails when one is invalid.
    fn call(&self, core: &Core, headers: Vec<(String, String)>) -> Result<Call, Error>;
}

/// How an operation's answer is read: its `send`.
pub trait Kind {
    /// What `send` gives.
    type Value;

    /// Sends `call` and reads its answer.
    fn send(core: &Core, call: Call) -> impl Future<Output = Result<Self::Value, Error>> + Send;
}

/// An answer read with its status and headers: `send_with_response`.
pub trait WithResponse: Kind {
    /// Sends `call` and reads its answer, keeping the status and headers.
    fn send_with_response(core: &Core, call: Call)
    -> impl Future<Output = Result<Response<Self::Value>, Error>> + Send;
}

/// An answer decoded from JSON as `T`.
#[derive(Debug)]
pub struct Json<T>(PhantomData<fn() -> T>);

/// An answer without a body: `()`.
#[derive(Debug)]
pub struct Empty;

/// An answer read as text.
#[derive(Debug)]
pub struct Text;

/// An answer of raw bytes, read as they arrive ([`Download`]).
#[derive(Debug)]
pub struct Raw;

/// An answer whose statuses answer different bodies: `D` decodes it by its status.
#[derive(Debug)]
pub struct Varied<D>(PhantomData<fn() -> D>);

/// Decodes an answer by its status (generated for each operation whose statuses answer
/// different bodies).
pub trait DecodeAnswer {
    /// The answer enumeration, one variant per status.
    type Value;

    /// The answer, decoded as its status says.
    fn decode(answer: &Answer) -> Result<Self::Value, Error>;
}

impl<T: FromJson + Send> Kind for Json<T> {
    type Value = T;

    fn send(core: &Core, call: Call) -> impl Future<Output = Result<T, Error>> + Send {
        core.send::<T>(call)
    }
}

impl<T: FromJson + Send> WithResponse for Json<T> {
    fn send_with_response(core: &Core, call: Call) -> impl Future<Output = Result<Response<T>, Error>> + Send {
        core.send_with_response::<T>(call)
    }
}

impl Kind for Empty {
    type Value = ();

    fn send(core: &Core, call: Call) -> impl Future<Output = Result<(), Error>> + Send {
        core.send_empty(call)
    }
}

impl WithResponse for Empty {
    fn send_with_response(core: &Core, call: Call) -> impl Future<Output = Result<Response<()>, Error>> + Send {
        core.send_empty_with_response(call)
    }
}

impl Kind for Text {
    type Value = String;

    fn send(core: &Core, call: Call) -> impl Future<Output = Result<String, Error>> + Send {
        core.send_text(call)
    }
}

impl WithResponse for Text {
    async fn send_with_response(core: &Core, call: Call) -> Result<Response<String>, Error> {
        let answer = core.send_raw(call).await?;
        let text = text_of(answer.body.into_bytes(), &core.redactor)?;
        Ok(Response { status: answer.status, headers: answer.headers, body: text, not_understood: Vec::new() })
    }
}

impl Kind for Raw {
    type Value = Download;

    fn send(core: &Core, call: Call) -> impl Future<Output = Result<Download, Error>> + Send {
        core.send_download(call)
    }
}

impl<D: DecodeAnswer> Kind for Varied<D> {
    type Value = D::Value;

    async fn send(core: &Core, call: Call) -> Result<D::Value, Error> {
        D::decode(&core.send_raw(call).await?)
    }
}

impl<D: DecodeAnswer> WithResponse for Varied<D> {
    async fn send_with_response(core: &Core, call: Call) -> Result<Response<D::Value>, Error> {
        let answer = core.send_raw(call).await?;
        let body = D::decode(&answer)?;
        let not_understood = answer.body.take_not_understood();
        Ok(Response { status: answer.status, headers: answer.headers, body, not_understood })
    }
}

/// The body of `answer` decoded as `T` (an answer enumeration's variant).
pub fn variant<T: FromJson>(answer: &Answer) -> Result<T, Error> {
    decode_body::<T>(&answer.body)
}
