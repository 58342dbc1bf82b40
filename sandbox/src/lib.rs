//! # docs-api-sandbox
//!
//! The Documentation Platform API running: every operation of the generated
//! `docs-api-server` traits implemented with the behaviour of the three API documents, over
//! SQLite. A dev server for client users, the proof that the generated skeleton carries a
//! whole service, and the target of API fuzzing in CI.
//!
//! - [`store`] owns the database: resources are JSON documents in the shape the API answers,
//!   keyed by kind and id, ordered within a list scope; one transaction per request.
//! - [`domain`] holds the rules the handlers share: the kinds of stored resources, roles, how
//!   documents are made and changed, and the rules of one group that another applies.
//! - [`api`] implements the traits, one module per group of the spec; each handler reads as
//!   the documents' rule it implements. Handler modules import only downward (the domain and
//!   the store), never one another.
//! - [`Sandbox`] is the service: [`Sandbox::app`] is the generated router over it.
//!
//! Conventions of the data: ids are `<kind>_<n>`; the list scope of an organization's
//! resources is the organization's id, of a space's content the space's id, and so on; every
//! handler checks the caller's role in the organization that owns what it touches
//! ([`domain::require`]). Updates the service may answer 204 (gap `update-no-content`)
//! answer 200 with the resource here, and counters (a space's `comments` and change request
//! counts) are whole numbers.

pub mod api;
pub mod clock;
pub mod demo;
pub mod domain;
pub mod store;

use apigen_runtime::server::{ApiError, Authenticator, Credential};
use std::sync::Arc;
use store::Store;

/// Who is calling: the user a bearer token belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The user's id.
    pub id: String,
}

/// The service: a handle on the store, cheap to clone.
#[derive(Clone)]
pub struct Sandbox {
    store: Arc<Store>,
}

/// What [`Sandbox::bootstrap`] made: the organization every new database starts with, and
/// its admin.
#[derive(Debug, Clone)]
pub struct Bootstrap {
    /// The organization's id.
    pub organization: String,
    /// The admin's user id.
    pub user: String,
    /// The admin's bearer token.
    pub token: String,
}

impl Sandbox {
    /// A sandbox over `store`.
    pub fn new(store: Store) -> Sandbox {
        Sandbox { store: Arc::new(store) }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The generated router serving every operation over this sandbox, with the API's reference
    /// page at `/docs` and its document at `/openapi.json`.
    pub fn app(&self) -> axum::Router {
        // The API, and beside it its reference: `/docs` (Redoc) and `/openapi.json`.
        docs_api_server::router(self.clone()).merge(docs_api_server::docs_router())
    }

    /// [`Sandbox::app`] for a sandbox reached at `base_url`: the document at `/openapi.json`
    /// (and the reference page at `/docs` reading it) lists this sandbox as its first server,
    /// then every server of the spec, so a tool or reader of the page calls the sandbox.
    pub fn app_at(&self, base_url: &str) -> axum::Router {
        let document = apigen_runtime::server::docs_router(served_document(base_url));
        docs_api_server::router(self.clone()).merge(document)
    }

    /// On an empty database, creates one organization and its admin user, owner of `token`
    /// (a random one when `None`); on a database that has them, keeps them and adds `token`
    /// to the admin. Every operation is reachable with the admin's token. One transaction,
    /// which reads the markers of a bootstrap done and writes them: two processes starting
    /// on one new file make one organization (the second waits for the first's write lock).
    pub fn bootstrap(&self, token: Option<&str>) -> Result<Bootstrap, ApiError> {
        self.store.write(|tx| {
            let (organization, user) = match (tx.meta("organization")?, tx.meta("admin")?) {
                (Some(org), Some(user)) => (org, user),
                _ => {
                    let (org, user) = domain::organizations::create_first(tx)?;
                    tx.set_meta("organization", &org)?;
                    tx.set_meta("admin", &user)?;
                    (org, user)
                }
            };
            let token = match token {
                Some(token) => token.to_owned(),
                None => match tx.meta("admin-token")? {
                    Some(token) => token,
                    None => format!("sandbox-{}", random_token(16)),
                },
            };
            tx.add_token(&token, &user)?;
            tx.set_meta("admin-token", &token)?;
            Ok(Bootstrap { organization, user, token })
        })
    }
}

/// The API's OpenAPI document as generated.
pub const OPENAPI_JSON: &str = include_str!("../../generated/openapi.json");

/// The servers of the spec (`servers` of the API's document), each as its URL (its variables
/// at their defaults) and its description: what the sandbox prints when it starts.
pub fn spec_servers() -> Vec<(String, String)> {
    let document: serde_json::Value = serde_json::from_str(OPENAPI_JSON).unwrap_or_default();
    let servers = document["servers"].as_array().cloned().unwrap_or_default();
    servers
        .iter()
        .map(|server| {
            let mut url = server["url"].as_str().unwrap_or_default().to_owned();
            for (name, variable) in server["variables"].as_object().into_iter().flatten() {
                url = url.replace(&format!("{{{name}}}"), variable["default"].as_str().unwrap_or_default());
            }
            (url, server["description"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

/// The document with this sandbox at `base_url` as its first server. Made once per router
/// and leaked: the docs router serves a `&'static str`, and a process builds one or two.
fn served_document(base_url: &str) -> &'static str {
    let mut document: serde_json::Value = serde_json::from_str(OPENAPI_JSON).unwrap_or_default();
    let sandbox = serde_json::json!({"url": base_url, "description": "This sandbox (docs-api-sandbox)."});
    match document["servers"].as_array_mut() {
        Some(servers) => servers.insert(0, sandbox),
        None => document["servers"] = serde_json::json!([sandbox]),
    }
    Box::leak(document.to_string().into_boxed_str())
}

impl Authenticator for Sandbox {
    type Principal = User;

    async fn authenticate(&self, credential: Credential<'_>) -> Result<User, ApiError> {
        let token = credential.token().unwrap_or_default().to_owned();
        match self.store.read_async(move |tx| tx.token_user(&token)).await? {
            Some(id) => Ok(User { id }),
            None => Err(ApiError::unauthorized("unknown token")),
        }
    }
}

/// `length` random lowercase letters and digits, from the OS's randomness (through the
/// standard library's randomly keyed hasher, which needs no dependency).
pub fn random_token(length: usize) -> String {
    use std::hash::{BuildHasher, Hasher};
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = String::with_capacity(length);
    while out.len() < length {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_usize(out.len());
        let mut bits = hasher.finish();
        for _ in 0..8 {
            if out.len() == length {
                break;
            }
            out.push(ALPHABET[(bits % ALPHABET.len() as u64) as usize] as char);
            bits /= ALPHABET.len() as u64;
        }
    }
    out
}
