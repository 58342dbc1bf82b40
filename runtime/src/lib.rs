//! Hand-written support shared by the crates apigen generates.
//!
//! Generated code is mostly declarations; the logic lives here, compiled once:
//!
//! - [`json`]: decoding from JSON with every problem located (lenient for responses,
//!   strict for requests) and the helper generated `Serialize` impls write through;
//! - [`validate`]: the spec's constraints, checked with every violation reported;
//! - [`Patch`]: absent / null / value for request fields where each means something;
//! - [`Page`]: the list envelope of paginated operations;
//! - [`ErrorBody`]: the error body of every failure;
//! - [`Redacted`]: secrets in `Debug` output;
//! - `server` (feature `server`): what every generated axum router shares;
//! - `listener` (feature `server`): the hardened accept loop that serves a router on TCP;
//! - `client` (feature `client`): what every generated reqwest client shares.
//!
//! The items only generated code needs are gathered in one hidden module, `codegen`: the seam
//! between generator and runtime, with no stability promise for hand-written code. What users
//! meet, generated code names by the public paths documented here.

pub mod auth;
#[cfg(feature = "client")]
pub mod client;
#[doc(hidden)]
pub mod codegen;
pub mod defaults;
pub mod error;
pub mod form;
pub mod format;
pub mod json;
#[cfg(feature = "server")]
pub mod listener;
pub mod media;
pub mod page;
pub mod params;
pub mod patch;
pub mod redact;
#[cfg(feature = "server")]
pub mod server;
#[doc(hidden)]
pub mod testing;
#[cfg(feature = "tracing")]
pub(crate) mod trace;
pub mod validate;

pub use bytes::Bytes;
pub use error::{ErrorBody, ErrorDetail, ErrorShape};
pub use format::Format;
pub use json::{Decoder, FromJson, Mode, NotUnderstood};
pub use media::FilePart;
pub use page::{Page, PageNext, PageStyle, Paginated, Paging};
pub use params::{FromParam, HeaderSet};
pub use patch::Patch;
pub use redact::Redacted;
pub use validate::{At, Pattern, Validate, Validator, Violation, Violations};

/// Re-exported so generated crates name one version of each.
pub use {chrono, serde, serde_json};
