//! Finite types: every type must have a finite JSON value.
//!
//! A type whose every value must contain a value of itself (`Node.parent: Node`, required and
//! not nullable; `A.b: B` with `B.a: A`; a union whose every variant is such an object) has no
//! finite value: no JSON document is one, the generated Rust type cannot be built, and sample
//! generation would recurse forever. Recursion through something that may be empty or absent
//! (a list or map, an optional or nullable field, a union with another way out) is legal:
//! a required `children: list<Tree>` is an ordinary tree.
//!
//! [`depths`] computes, for every type, the depth of its smallest value, or `None` when it has
//! none, in one pass over the types (a Knuth-style shortest-derivation search: an object is
//! as deep as its deepest required part, a union as its shallowest variant). Lowering reports
//! the types without one; the sampler uses the depths to pick, past its depth limit, the
//! variant that ends soonest.

use crate::model::{Field, TypeDef, TypeKind, TypeRef};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// What one type needs before it has a value.
enum Needs {
    /// Every one of these named types (an object's required parts).
    All(Vec<String>),
    /// Any one of these (a union's variants), or nothing when `free` (a scalar variant).
    Any { variants: Vec<String>, free: bool },
}

/// The depth of the smallest value of every type (1 for a type of scalars only), `None` for
/// a type with no finite value.
pub fn depths(types: &BTreeMap<String, TypeDef>) -> BTreeMap<String, Option<usize>> {
    let needs: BTreeMap<&str, Needs> = types.iter().map(|(name, def)| (name.as_str(), needs_of(def))).collect();
    let mut dependents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut waiting: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ready: BinaryHeap<Reverse<(usize, &str)>> = BinaryHeap::new();
    for (&name, need) in &needs {
        let deps = match need {
            Needs::All(deps) => deps,
            Needs::Any { variants, .. } => variants,
        };
        for dep in deps {
            if let Some((dep, _)) = types.get_key_value(dep) {
                dependents.entry(dep.as_str()).or_default().push(name);
            }
        }
        match need {
            Needs::All(deps) if deps.is_empty() => ready.push(Reverse((1, name))),
            Needs::All(deps) => {
                waiting.insert(name, deps.len());
            }
            Needs::Any { free: true, .. } => ready.push(Reverse((1, name))),
            Needs::Any { .. } => {}
        }
    }
    let mut depth: BTreeMap<String, Option<usize>> = types.keys().map(|name| (name.clone(), None)).collect();
    // Types leave the heap shallowest first, so the first time a type is settled its depth is
    // final: a union takes its shallowest variant, an object waits for its deepest part.
    while let Some(Reverse((d, name))) = ready.pop() {
        if depth[name].is_some() {
            continue;
        }
        depth.insert(name.to_owned(), Some(d));
        for &dependent in dependents.get(name).into_iter().flatten() {
            match &needs[dependent] {
                Needs::Any { .. } => ready.push(Reverse((d + 1, dependent))),
                Needs::All(deps) => {
                    // A type listed twice among the parts counts twice, so it is settled by
                    // the last of its parts whatever their order.
                    let times = deps.iter().filter(|dep| dep.as_str() == name).count();
                    let left = waiting.get_mut(dependent).expect("objects with parts wait");
                    *left -= times;
                    if *left == 0 {
                        ready.push(Reverse((d + 1, dependent)));
                    }
                }
            }
        }
    }
    depth
}

fn needs_of(def: &TypeDef) -> Needs {
    match &def.kind {
        TypeKind::Enum(_) => Needs::All(Vec::new()),
        TypeKind::Object(object) => {
            let mut deps: Vec<String> = object.fields.iter().filter_map(required_part).collect();
            deps.sort();
            deps.dedup();
            Needs::All(deps)
        }
        TypeKind::Union(union) => {
            let variants: Vec<String> = union
                .variants
                .iter()
                .filter_map(|v| match &v.ty {
                    TypeRef::Named(name) => Some(name.clone()),
                    _ => None,
                })
                .collect();
            let free = union.variants.iter().any(|v| !matches!(v.ty, TypeRef::Named(_)));
            Needs::Any { variants, free }
        }
    }
}

/// The named type a value of this field must contain, if any: a required, non-nullable field
/// of a named type, or of a list or map of one that may not be empty.
fn required_part(field: &Field) -> Option<String> {
    if field.optional || field.nullable || field.constant.is_some() {
        return None;
    }
    match &field.ty {
        TypeRef::Named(name) => Some(name.clone()),
        TypeRef::List(inner) | TypeRef::Map(inner) => {
            let non_empty = field.constraints.exact_items.or(field.constraints.min_items).unwrap_or(0) > 0;
            match inner.as_ref() {
                TypeRef::Named(name) if non_empty => Some(name.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// For a type with no finite value, why: the first required field whose type has none either,
/// or its variants.
pub fn why_infinite(def: &TypeDef, depths: &BTreeMap<String, Option<usize>>) -> String {
    let infinite = |name: &str| depths.get(name).is_some_and(Option::is_none);
    match &def.kind {
        TypeKind::Object(object) => object
            .fields
            .iter()
            .find_map(|f| required_part(f).filter(|name| infinite(name)).map(|name| (f, name)))
            .map(|(f, name)| {
                format!("its required field `{}` needs a value of `{name}`, which has none either", f.wire)
            })
            .unwrap_or_default(),
        TypeKind::Union(_) => "none of its variants has one".to_owned(),
        TypeKind::Enum(_) => String::new(),
    }
}
