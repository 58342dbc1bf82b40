//! The generated traits implemented, one module per group of the spec; each handler reads
//! as the documents' rule it implements. Handler modules import only downward: the
//! [`prelude`], the shared rules of `crate::domain` and the store, never one another.

pub mod change_requests;
pub mod collections;
pub mod comments;
pub mod content;
pub mod conversations;
pub mod git;
pub mod integrations;
pub mod members;
pub mod openapi_specs;
pub mod organizations;
pub mod prelude;
pub mod site_structure;
pub mod sites;
pub mod spaces;
pub mod sso;
pub mod teams;
pub mod translations;
