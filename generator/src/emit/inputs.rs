//! What each generated file is made from, hashed without building it: the key under which
//! `generate` remembers a file ([`crate::out::cache`]), so a file whose key is unchanged since
//! the run that wrote it is neither built as tokens nor printed again; its bytes are checked on
//! disk instead.
//!
//! The model is hashed in parts, through its `Debug` text (every model type derives it, so a
//! field added to the model is hashed without anyone listing it here):
//!
//! - the **shared** part: everything of the [`Api`] but its operations (the types, the groups
//!   without their operations' positions, the auth schemes, the servers, the error body, ...),
//!   with the options, the groups needing each type ([`Reach`]) and this build of apigen;
//! - each **operation**, on its own.
//!
//! A file reads the shared part and either every operation ([`Reads::Everything`], the default:
//! the crate roots, the manifests, `openapi.json`, the reference), the operations of one group
//! ([`Reads::Group`]: a group's module, its parts, its routes, its mock, its samples), or a list
//! of operations with a value derived from them all ([`Reads::Operations`]: a types module).
//! Each emitter says which when it makes its jobs; a file that says nothing reads everything.
//!
//! What is left out, on purpose: where each element was declared (line and column: see
//! [`crate::diag::without_lines`]; no emitter prints them), the spec's hash (shown only in the
//! stamp, which is written anew on every run), and the positions of a group's operations in
//! the API's list (the group's operations themselves are hashed, in order, where read).

use super::Options;
use crate::model::Api;
use crate::model::reach::Reach;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What a generated file reads of the model, besides the shared part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reads {
    /// Every operation.
    Everything,
    /// The operations of the group of that name (in the group's order).
    Group(String),
    /// These operations (positions in [`Api::operations`]) and a value derived from every
    /// operation, given as its `Debug` text's hash ([`digest`]).
    Operations(Vec<usize>, String),
}

/// The hashes a file's key is made of, taken once per run.
#[derive(Debug, Clone)]
pub struct Digests {
    shared: String,
    /// Each operation's hash, in the API's order.
    operations: Vec<String>,
    /// The hash of every operation's hash.
    everything: String,
    /// Each group's operations' hashes, hashed, by group name.
    groups: BTreeMap<String, String>,
}

impl Digests {
    /// The digests of `api` emitted with `options`; `reach` is `api.reach()`.
    pub fn of(api: &Api, options: &Options, reach: &Reach<'_>) -> Self {
        let shared = crate::diag::without_lines(|| shared(api, options, reach));
        let operations =
            crate::par::map(api.operations.iter().collect(), |op| crate::diag::without_lines(|| digest(op)));
        let everything = crate::hash::parts(&operations.iter().map(String::as_str).collect::<Vec<_>>());
        let groups = api
            .tags
            .iter()
            .map(|tag| {
                let ops: Vec<&str> = tag.operations.iter().map(|&i| operations[i].as_str()).collect();
                (tag.name.clone(), crate::hash::parts(&ops))
            })
            .collect();
        Digests { shared, operations, everything, groups }
    }

    /// The key of the file at `path` printed under `header` (a Rust file) that reads `reads`.
    pub fn key(&self, path: &str, header: Option<&str>, reads: &Reads) -> String {
        let read = match reads {
            Reads::Everything => format!("all {}", self.everything),
            Reads::Group(name) => format!("group {name} {}", self.groups.get(name).map_or("", String::as_str)),
            Reads::Operations(list, derived) => {
                let ops: Vec<&str> = list.iter().filter_map(|&i| self.operations.get(i)).map(String::as_str).collect();
                format!("ops {} {derived}", crate::hash::parts(&ops))
            }
        };
        crate::hash::parts(&[path, header.unwrap_or("\0text"), &self.shared, &read])
    }
}

impl Digests {
    /// The key of a fragment of an assembled file ([`super::fragments`]) of `kind`, reading
    /// the shared part, the operations at positions `operations` and `extra`.
    pub fn fragment_key(&self, kind: &str, operations: &[usize], extra: &str) -> String {
        let mut parts = vec![kind, self.shared.as_str(), extra];
        parts.extend(operations.iter().map(|&at| self.operations.get(at).map_or("", String::as_str)));
        crate::hash::parts(&parts)
    }
}

/// The hash of `value`'s `Debug` text, written straight into the hasher.
pub fn digest(value: &impl std::fmt::Debug) -> String {
    let mut hasher = crate::hash::Hasher::new();
    // Writing into the hasher cannot fail.
    let _ = write!(hasher, "{value:?}");
    hasher.hex()
}

/// The shared part: the API without its operations (named field by field, so a field added to
/// [`Api`] is a compile error here until it is hashed or left out on purpose), the options,
/// the reach and this build of apigen.
fn shared(api: &Api, options: &Options, reach: &Reach<'_>) -> String {
    let Api {
        name,
        crates,
        title,
        version,
        description,
        source,
        license,
        extensions,
        tags,
        types,
        operations: _,
        gaps,
        pagination,
        auth_schemes,
        servers,
        errors,
        spec_hash: _,
        tag_index,
    } = api;
    let mut hasher = crate::hash::Hasher::new();
    let _ = write!(hasher, "{name:?}{crates:?}{title:?}{version:?}{description:?}{source:?}{license:?}{extensions:?}");
    for tag in tags {
        let crate::model::Tag { name, title, description, source, rust, rust_type, names, origin, operations: _ } = tag;
        let _ = write!(hasher, "{name:?}{title:?}{description:?}{source:?}{rust:?}{rust_type:?}{names:?}{origin:?}");
    }
    let _ = write!(hasher, "{types:?}{gaps:?}{pagination:?}{auth_schemes:?}{servers:?}{errors:?}{tag_index:?}");
    let _ = write!(hasher, "{options:?}{}", env!("APIGEN_SOURCE_HASH"));
    write_reach(&mut hasher, api, reach);
    hasher.hex()
}

/// The groups needing each type, by the groups' names: `Reach`'s own `Debug` shows each group
/// whole, with its operations' positions, which an operation added before them moves.
fn write_reach(hasher: &mut crate::hash::Hasher, api: &Api, reach: &Reach<'_>) {
    use crate::model::reach::Need;
    let groups: Vec<&str> = reach.groups().iter().map(|tag| tag.name.as_str()).collect();
    let _ = write!(hasher, "{groups:?}");
    for name in api.types.keys() {
        let _ = match reach.of_type(name) {
            Need::Every => write!(hasher, "{name} every;"),
            Need::Some { groups, unreferenced } => {
                let names: Vec<&str> = groups.iter().map(|tag| tag.name.as_str()).collect();
                write!(hasher, "{name} {names:?} {unreferenced};")
            }
        };
    }
}
