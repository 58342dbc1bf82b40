//! Routes: every request reaches at most one operation, and the router can be built.
//!
//! Two operations with the same method and the same path (up to parameter names) would answer
//! the same requests. Two paths equal up to parameter names (`/pets/{petId}` for GET and
//! `/pets/{id}` for DELETE) cannot share one routing tree: axum refuses them at start-up.
//! (Paths that only share a prefix may name its parameters differently.) Both are spec
//! errors, reported here rather than as a panic of the generated router.

use crate::diag::Diagnostics;
use crate::model::{Operation, PathSegment};
use std::collections::BTreeMap;

/// Reports every operation whose route collides with an earlier one's.
pub fn check_routes(operations: &[Operation], diags: &mut Diagnostics) {
    let mut methods: BTreeMap<(String, &str), &Operation> = BTreeMap::new();
    let mut shapes: BTreeMap<String, &Operation> = BTreeMap::new();
    for op in operations {
        let shape = shape(&op.path.segments);
        if let Some(first) = methods.get(&(shape.clone(), op.method.as_str())) {
            let message = format!(
                "`{}` ({} {}) answers the same requests as `{}` ({} {}, at {})",
                op.name,
                op.method.as_str(),
                op.path.raw,
                first.name,
                first.method.as_str(),
                first.path.raw,
                first.origin
            );
            diags.error(op.origin.clone(), message).hint("give one of them another method or path");
            continue;
        }
        methods.insert((shape.clone(), op.method.as_str()), op);
        match shapes.get(&shape) {
            Some(first) if first.path.raw != op.path.raw => {
                let message = format!(
                    "the path `{}` of `{}` differs from `{}` of `{}` (at {}) only by parameter names: the router cannot hold both",
                    op.path.raw, op.name, first.path.raw, first.name, first.origin
                );
                diags
                    .error(op.origin.clone(), message)
                    .hint("name the parameters of one path the same way in every operation");
            }
            Some(_) => {}
            None => {
                shapes.insert(shape, op);
            }
        }
    }
}

/// The path with every parameter written `{}`: what the router matches on.
fn shape(segments: &[PathSegment]) -> String {
    segments
        .iter()
        .map(|segment| match segment {
            PathSegment::Literal(text) => format!("/{text}"),
            PathSegment::Param(_) => "/{}".to_owned(),
        })
        .collect()
}
