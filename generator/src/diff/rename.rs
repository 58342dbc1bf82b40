//! Rewriting every reference to renamed types in a copy of a model, so a pure rename compares
//! equal everywhere except the type's Rust name.

use crate::model::{Api, ResponseBody, TypeKind, TypeRef};
use std::collections::BTreeMap;

/// A copy of `api` where each type named by a key of `renames` carries the new spec name.
pub(super) fn apply(api: &Api, renames: &BTreeMap<String, String>) -> Api {
    let mut api = api.clone();
    let fix = |ty: &mut TypeRef| rename_ref(ty, renames);
    for op in &mut api.operations {
        op.params.iter_mut().for_each(|p| fix(&mut p.ty));
        if let Some(body) = &mut op.body {
            fix(&mut body.ty);
        }
        match &mut op.response.body {
            ResponseBody::Value(ty) | ResponseBody::Page { item: ty, .. } => fix(ty),
            ResponseBody::Empty => {}
        }
    }
    let types = std::mem::take(&mut api.types);
    for (name, mut ty) in types {
        match &mut ty.kind {
            TypeKind::Object(o) => {
                o.fields.iter_mut().for_each(|f| fix(&mut f.ty));
                if let Some(additional) = &mut o.additional {
                    fix(additional);
                }
            }
            TypeKind::Union(u) => u.variants.iter_mut().for_each(|v| fix(&mut v.ty)),
            TypeKind::Enum(_) => {}
        }
        let name = renames.get(&name).cloned().unwrap_or(name);
        ty.name = name.clone();
        api.types.insert(name, ty);
    }
    api
}

fn rename_ref(ty: &mut TypeRef, renames: &BTreeMap<String, String>) {
    match ty {
        TypeRef::Named(name) => {
            if let Some(new) = renames.get(name) {
                *name = new.clone();
            }
        }
        TypeRef::List(inner) | TypeRef::Map(inner) => rename_ref(inner, renames),
        _ => {}
    }
}
