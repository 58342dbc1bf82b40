//! What an import writes, as it is built: the named types, the operations, tags and shared
//! parameters, the gaps, the names taken, what is settled once everything is known (unions,
//! cursors, components needed later) and the counts the summary gives. Passes add to it; the
//! spec files are written from it ([`super::files`]).

use super::{gaps, names};
use crate::model::names::Case;
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A named type being built: its spec mapping and where the document declares it.
#[derive(Debug, Clone)]
pub(super) struct TypeOut {
    pub node: Map<String, Value>,
    pub pointer: String,
}

/// A union whose kind (tagged, untagged, `json`) is settled once every type is known.
#[derive(Debug, Clone)]
pub(super) struct PendingUnion {
    pub name: String,
    /// The discriminator: the tag and its explicit mapping (value -> reference).
    pub discriminator: Option<(String, Vec<(String, String)>)>,
    /// Each variant's `$ref`, when it is one.
    pub variant_refs: Vec<Option<String>>,
    pub pointer: String,
}

/// An operation being built.
#[derive(Debug, Clone)]
pub(super) struct OperationOut {
    pub name: String,
    pub tag: String,
    pub node: Map<String, Value>,
}

/// A list told, whose cursor parameter is shared once every list is known.
pub(super) struct PendingCursor {
    /// The index of its operation.
    pub op: usize,
    /// The cursor's wire name.
    pub wire: String,
    /// Its definition when inline (`None`: shared already).
    pub node: Option<Map<String, Value>>,
    /// The success response's pointer.
    pub pointer: String,
}

/// The spec being built by one pass of the import.
pub(super) struct Built {
    pub gaps: gaps::Gaps,
    pub type_names: names::Taken,
    /// A name claimed before its shape is built (a component's): the first claim of it takes it.
    pub reuse_name: Option<String>,
    /// Component keys whose type must be built though it is the format's own error body.
    pub needed: Vec<String>,
    pub types: IndexMap<String, TypeOut>,
    /// Types that could not be built: references to them become `json`.
    pub failed: BTreeMap<String, String>,
    /// Each inline shape met (its fields or values as JSON) and the type name it took.
    pub inline_shapes: BTreeMap<String, String>,
    /// How many inline shapes name an earlier copy instead of repeating it.
    pub shared_shapes: usize,
    pub pending_unions: Vec<PendingUnion>,
    pub operations: Vec<OperationOut>,
    /// The parameters of the operations kept, and how many of them were left out.
    pub params: (usize, usize),
    /// Shared parameters by wire name: their mapping and the component they come from.
    pub shared: IndexMap<String, (Map<String, Value>, String)>,
    /// Tags by name: title and description, in order.
    pub tags: IndexMap<String, (String, Option<String>)>,
    /// Document tags by their text, to the spec tag name.
    pub tag_names: BTreeMap<String, String>,
    pub tag_taken: names::Taken,
    /// Lists told whose cursor parameter is shared once every list is known.
    pub pending_cursors: Vec<PendingCursor>,
    /// The convention most lists share, told from names: `api.yaml`'s `pagination`.
    pub told_pagination: Option<Map<String, Value>>,
    /// Operation counts.
    pub total: usize,
    /// The error body gap is noted once, where first met.
    pub error_noted: bool,
    /// The document's error body, told from its error responses ([`super::errors`]) once the
    /// component types are built.
    pub errors: ErrorsTold,
    /// The keys of the error schemas `api.errors` stands for, when mapped (the shared one, the
    /// components alike it, or `#inline:` and the text of copies written inline).
    pub error_keys: Vec<String>,
    /// The other error bodies operations answer (`api.errors.bodies`), by the key of their
    /// schema: the type and its places, or `None` when `api.errors` could not say them.
    pub error_bodies: IndexMap<String, Option<ToldBody>>,
    /// An object schema with properties and no `additionalProperties` was met: the spec says
    /// `api.unknown_fields: ignore`.
    pub open_objects: bool,
}

impl Built {
    /// Nothing built yet; the component types' names (`type_names`) taken already.
    pub fn new(type_names: names::Taken) -> Self {
        Built {
            gaps: gaps::Gaps::default(),
            type_names,
            reuse_name: None,
            needed: Vec::new(),
            types: IndexMap::new(),
            failed: BTreeMap::new(),
            inline_shapes: BTreeMap::new(),
            shared_shapes: 0,
            pending_unions: Vec::new(),
            operations: Vec::new(),
            params: (0, 0),
            shared: IndexMap::new(),
            tags: IndexMap::new(),
            tag_names: BTreeMap::new(),
            tag_taken: names::Taken::new(Case::Snake),
            pending_cursors: Vec::new(),
            told_pagination: None,
            total: 0,
            error_noted: false,
            errors: ErrorsTold::NotShared,
            error_keys: Vec::new(),
            error_bodies: IndexMap::new(),
            open_objects: false,
        }
    }
}

/// One error body of `api.errors.bodies`: its type and its places (`api.errors`'s keys).
pub type ToldBody = (String, Map<String, Value>);

/// What the document's error responses share.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ErrorsTold {
    /// No error response has a JSON body, or no schema is the body of more than half.
    #[default]
    NotShared,
    /// A shared schema `api.errors` cannot describe, or apigen's own body: the built-in error
    /// body is kept, in the media type the document answers errors in.
    Unmapped(String),
    /// The shared schema, as `api.errors` says it.
    Mapped(Map<String, Value>),
}
