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
