//! OpenAPI links between operations, derived from the model so a client or a stateful fuzzer
//! can walk from what one operation answers to the operations on it.
//!
//! A *resource* is a named object type with a string `id` field that some `GET` answers at a
//! path ending in a parameter (`GET /v1/collections/{collectionId}` answers `Collection`): that
//! parameter names the resource (`collectionId`). An operation answering the resource (a
//! create, an update, a get) or a page of it links to every other operation whose path takes
//! that parameter and otherwise only parameters of its own request's path: the resource's
//! parameter from the answer's `id` (the first item's, for a page), the others from the
//! request. So a collection just created leads to its get, update, delete and move, and to
//! the list and create of the spaces in it.

use crate::model::{Api, Method, Operation, PathSegment, ResponseBody, TypeRef};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The links of each operation's main success response, by operation name, each by the name
/// of the operation it leads to.
pub fn of(api: &Api) -> BTreeMap<&str, Map<String, Value>> {
    let naming = naming_params(api);
    let mut links = BTreeMap::new();
    for source in &api.operations {
        let Some((ty, pointer)) = answered(api, source) else { continue };
        let Some(id_params) = naming.get(ty) else { continue };
        let mut found = Map::new();
        for target in api.operations.iter().filter(|t| t.name != source.name) {
            if let Some(parameters) = parameters(source, target, id_params, &pointer) {
                found.insert(target.name.clone(), json!({"operationId": target.name, "parameters": parameters}));
            }
        }
        if !found.is_empty() {
            links.insert(source.name.as_str(), found);
        }
    }
    links
}

/// The parameters naming each resource type: the last path parameter of every `GET`
/// answering the type at a path ending in one.
fn naming_params(api: &Api) -> BTreeMap<&str, Vec<&str>> {
    let mut naming: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for op in api.operations.iter().filter(|op| op.method == Method::Get) {
        let ResponseBody::Value(TypeRef::Named(ty)) = &op.response.body else { continue };
        let Some(PathSegment::Param(last)) = op.path.segments.last() else { continue };
        if has_string_id(api, ty) {
            let params = naming.entry(ty.as_str()).or_default();
            if !params.contains(&last.as_str()) {
                params.push(last.as_str());
            }
        }
    }
    naming
}

fn has_string_id(api: &Api, ty: &str) -> bool {
    let Some(def) = api.types.get(ty) else { return false };
    let crate::model::TypeKind::Object(object) = &def.kind else { return false };
    object.field("id").is_some_and(|field| field.ty == TypeRef::String && !field.optional)
}

/// The resource type `op` answers and the JSON pointer of its id in the answer.
fn answered<'a>(api: &Api, op: &'a Operation) -> Option<(&'a str, String)> {
    match &op.response.body {
        ResponseBody::Value(TypeRef::Named(ty)) => Some((ty.as_str(), "/id".to_owned())),
        ResponseBody::Page { item: TypeRef::Named(ty), .. } => {
            let items = op.pagination.as_ref().map_or_else(|| api.pagination.items.clone(), |p| p.items.clone());
            Some((ty.as_str(), format!("{items}/0/id")))
        }
        _ => None,
    }
}

/// The link's parameters when `target` takes one of `id_params` (from the answer) and
/// otherwise only path parameters of `source`'s request.
fn parameters(source: &Operation, target: &Operation, id_params: &[&str], pointer: &str) -> Option<Map<String, Value>> {
    let mut parameters = Map::new();
    let mut names_resource = false;
    for param in target.path.params() {
        let in_request = source.path_params().any(|p| p.wire == param);
        names_resource |= id_params.contains(&param);
        let value = if in_request {
            format!("$request.path.{param}")
        } else if id_params.contains(&param) {
            format!("$response.body#{pointer}")
        } else {
            return None;
        };
        parameters.insert(param.to_owned(), json!(value));
    }
    names_resource.then_some(parameters)
}
