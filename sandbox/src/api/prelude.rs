//! What every handler module imports: the layers under the handlers (the domain's shared
//! rules, the store), the generated traits and types, and JSON.

pub use crate::domain::{
    API_URL, create, found, in_body, merge, new_document, organization, out, place_of, remove, require, role_of,
    timestamp, touch, url_component,
};
pub use crate::store::{Place, Row, Tx, Where, decode, encode};
pub use crate::{Sandbox, User};
pub use apigen_runtime::server::{ApiError, Context};
pub use apigen_runtime::{Page as ListPage, PageNext, Patch};
pub use docs_api_server::*;
pub use docs_api_types::*;
pub use serde_json::{Value, json};

/// The context of an operation with one success status.
pub type Ctx = Context<User>;
