//! Which groups need each type, so a build that enables some groups compiles only what they
//! use (the generated crates have one cargo feature per group).
//!
//! A group needs the types its operations take and answer (bodies, parameters, every success
//! and error body, response headers) and every type those hold, through fields, additional
//! properties, list items and union variants. A type no operation needs belongs to the groups
//! whose operations are declared in its file (a group's own resources); one declared apart
//! from every operation (a shared `schemas.yaml`, say: webhook payloads) is *unreferenced*,
//! and what it holds is needed by the unreferenced types too. The API's error type is needed
//! by every group: the router and the client write and read it whatever the operation.

use super::{Api, ResponseBody, Tag, TypeKind, TypeRef};
use std::collections::{BTreeMap, BTreeSet};

/// What needs a type (or an operation's own items).
#[derive(Debug, Clone)]
pub enum Need<'a> {
    /// Every group, and there are several: compiled whatever the build enables.
    Every,
    /// Some groups (in declared order), the unreferenced types, or both.
    Some {
        /// The groups needing it.
        groups: Vec<&'a Tag>,
        /// Whether an unreferenced type holds it (or it is one).
        unreferenced: bool,
    },
}

/// The groups needing each type of an API ([`Api::reach`]).
#[derive(Debug, Clone)]
pub struct Reach<'a> {
    /// The groups with operations, in declared order; a type's groups are indexes into it.
    groups: Vec<&'a Tag>,
    /// Per type: one bit per group, then one bit for the unreferenced types.
    by_type: BTreeMap<&'a str, Bits>,
}

impl<'a> Reach<'a> {
    /// Walks the API once: per group, from its operations' types through everything they hold.
    pub fn of(api: &'a Api) -> Self {
        let groups: Vec<&Tag> = api.tags_with_operations().collect();
        let unreferenced = groups.len();
        let mut reach = Reach { groups, by_type: BTreeMap::new() };
        let mut seeds: Vec<Vec<&str>> = vec![Vec::new(); unreferenced + 1];
        let mut file_groups: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
        for op in &api.operations {
            let Some(group) = reach.index(&op.tag) else { continue };
            seeds[group].extend(operation_types(op));
            file_groups.entry(op.origin.file.as_str()).or_default().insert(group);
        }
        for roots in &mut seeds[..unreferenced] {
            roots.extend(api.errors.ty.as_deref());
        }
        let mut reached = Walk { api, bits: BTreeMap::new() };
        for (group, roots) in seeds.iter().enumerate() {
            reached.from(group, roots.iter().copied());
        }
        // Types nothing reached: their file's groups, or the unreferenced ones.
        let orphans: Vec<&str> =
            api.types.keys().map(String::as_str).filter(|name| !reached.bits.contains_key(name)).collect();
        for name in orphans {
            match file_groups.get(api.ty(name).origin.file.as_str()) {
                Some(groups) => groups.iter().for_each(|&group| reached.from(group, [name])),
                None => reached.from(unreferenced, [name]),
            }
        }
        reach.by_type = reached.bits;
        reach
    }

    /// The index of a group with operations.
    fn index(&self, tag: &str) -> Option<usize> {
        self.groups.iter().position(|g| g.name == tag)
    }

    /// What needs the type `name`.
    pub fn of_type(&self, name: &str) -> Need<'a> {
        self.of_any([name], [])
    }

    /// What needs any of `types` or of the operations of the groups `tags`: what a module
    /// holding them needs.
    pub fn of_any<'n>(
        &self,
        types: impl IntoIterator<Item = &'n str>,
        tags: impl IntoIterator<Item = &'n str>,
    ) -> Need<'a> {
        let mut bits = Bits::default();
        for name in types {
            // Every type is walked; one that is not would be an unreferenced one.
            match self.by_type.get(name) {
                Some(of_type) => bits.add(of_type),
                None => _ = bits.set(self.groups.len()),
            }
        }
        for tag in tags {
            bits.set(self.index(tag).unwrap_or(self.groups.len()));
        }
        let groups: Vec<&'a Tag> =
            self.groups.iter().enumerate().filter(|(i, _)| bits.has(*i)).map(|(_, g)| *g).collect();
        if groups.len() == self.groups.len() && groups.len() > 1 {
            Need::Every
        } else {
            Need::Some { groups, unreferenced: bits.has(self.groups.len()) }
        }
    }

    /// The groups with operations, in declared order.
    pub fn groups(&self) -> &[&'a Tag] {
        &self.groups
    }

    /// True when some type is needed by no group.
    pub fn has_unreferenced(&self) -> bool {
        let unreferenced = self.groups.len();
        self.by_type.values().any(|bits| bits.has(unreferenced))
    }
}

/// The named types (not lifted inline shapes) that no operation takes or answers, directly or
/// through another type, the API's error type aside: the `unused-type` warnings.
pub fn unused_types(api: &Api) -> Vec<&str> {
    let mut walk = Walk { api, bits: BTreeMap::new() };
    let roots = api.operations.iter().flat_map(operation_types).chain(api.errors.ty.as_deref());
    walk.from(0, roots);
    api.types
        .iter()
        .filter(|(name, def)| def.inline_of.is_none() && !walk.bits.contains_key(name.as_str()))
        .map(|(name, _)| name.as_str())
        .collect()
}

/// The named types an operation mentions itself.
fn operation_types(op: &super::Operation) -> impl Iterator<Item = &str> {
    let body = op.body.iter().flat_map(|b| b.variants().map(|v| &v.ty));
    let params = op.params.iter().map(|p| &p.ty);
    let answers = op.response.bodies().flat_map(|(_, body)| match body {
        ResponseBody::Empty => Vec::new(),
        ResponseBody::Value(ty) => vec![ty.named()],
        ResponseBody::Page { item, envelope } => vec![item.named(), envelope.as_deref()],
    });
    let headers = op.response.headers.iter().map(|h| &h.ty);
    let errors = op.errors.iter().filter_map(|e| e.ty.as_ref());
    body.chain(params).chain(headers).chain(errors).filter_map(TypeRef::named).chain(answers.flatten())
}

/// A set of small indexes.
#[derive(Debug, Clone, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn has(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|word| word & (1 << (i % 64)) != 0)
    }

    /// Adds every bit of `other`.
    fn add(&mut self, other: &Bits) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (word, more) in self.0.iter_mut().zip(&other.0) {
            *word |= more;
        }
    }

    /// Sets bit `i`; false when it was set already.
    fn set(&mut self, i: usize) -> bool {
        if self.0.len() <= i / 64 {
            self.0.resize(i / 64 + 1, 0);
        }
        let word = &mut self.0[i / 64];
        let fresh = *word & (1 << (i % 64)) == 0;
        *word |= 1 << (i % 64);
        fresh
    }
}

/// The walk from roots through what types hold, marking each type with the walk's bit.
struct Walk<'a> {
    api: &'a Api,
    bits: BTreeMap<&'a str, Bits>,
}

impl<'a> Walk<'a> {
    /// Marks with `bit` every type reachable from `roots` (iteratively: types nest deep).
    fn from(&mut self, bit: usize, roots: impl IntoIterator<Item = &'a str>) {
        let mut pending: Vec<&'a str> = roots.into_iter().collect();
        while let Some(name) = pending.pop() {
            let Some((name, def)) = self.api.types.get_key_value(name) else { continue };
            if !self.bits.entry(name.as_str()).or_default().set(bit) {
                continue;
            }
            match &def.kind {
                TypeKind::Object(o) => {
                    pending.extend(o.fields.iter().filter_map(|f| f.ty.named()));
                    pending.extend(o.additional.iter().filter_map(TypeRef::named));
                }
                TypeKind::Union(u) => pending.extend(u.variants.iter().filter_map(|v| v.ty.named())),
                TypeKind::Enum(_) => {}
            }
        }
    }
}
