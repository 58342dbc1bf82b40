//! Routes: every request reaches at most one operation.
//!
//! The generated router (`apigen_runtime`'s `Routes`) gives axum each path with every segment
//! holding a parameter as a positional capture, and tries the operations sharing such a route
//! and a method most specific first: segment by segment, literal text before a mixed segment
//! (`{id}.json`; more literal text first) before a whole-segment parameter. So `/pets/mine`
//! beside `/pets/{id}`, or `/v1/{name}:cancel` beside `/v1/{name}`, is fine: the more specific
//! one wins, and so is `/r2/files/{id}.json` beside `/r2/{kind}/x`: the runtime orders the
//! operations of overlapping routes the same way, so lint needs compare only operations of one
//! route. Two operations of one method are an error when a request can match both and
//! neither is more specific: their paths rank the same and may match one request (equal up to
//! parameter names, or mixed segments whose literal ends agree), and their selectors may too
//! (no selector names one header or query parameter with two different values: selectors
//! of different names do not, since one request may carry both).

use crate::diag::Diagnostics;
use crate::model::{Operation, SelectIn};
use std::collections::BTreeMap;

/// Reports every operation a request could reach as well as an earlier one.
pub fn check_routes(operations: &[Operation], diags: &mut Diagnostics) {
    let mut groups: BTreeMap<(String, &str), Vec<&Operation>> = BTreeMap::new();
    for op in operations {
        let group = groups.entry((route(op), op.method.as_str())).or_default();
        if let Some(first) = group.iter().find(|other| conflict(other, op)) {
            let message = format!(
                "`{}` ({}) answers the same requests as `{}` ({}, at {})",
                op.name,
                describe(op),
                first.name,
                describe(first),
                first.origin
            );
            diags.error(op.origin.clone(), message).hint(hint(op, first));
            continue;
        }
        group.push(op);
    }
}

/// What to change: for two operations selected by different names (one request may carry
/// both), one name with different values.
fn hint(a: &Operation, b: &Operation) -> &'static str {
    let shared = a.select.iter().any(|x| b.select.iter().any(|y| x.key() == y.key()));
    if a.select.is_empty() || b.select.is_empty() || shared {
        return "give one of them another method, path or selector value";
    }
    "one request may carry selectors of different names: select both by one header or query parameter, with different values"
}

/// The route axum matches, as the model computes it.
fn route(op: &Operation) -> String {
    op.path.route()
}

/// `GET /v1/x` and its selectors (`POST / with header X-Amz-Target: A`).
fn describe(op: &Operation) -> String {
    let mut text = format!("{} {}", op.method.as_str(), op.path.raw);
    for (i, selector) in op.select.iter().enumerate() {
        text.push_str(if i == 0 { " with " } else { " and " });
        let (name, value) = (&selector.name, &selector.value);
        match selector.location {
            SelectIn::Header => text.push_str(&format!("header {name}: {value}")),
            SelectIn::Query => text.push_str(&format!("query {name}={value}")),
        }
    }
    text
}

/// Two operations of one route and method a request can reach both of, neither preferred.
fn conflict(a: &Operation, b: &Operation) -> bool {
    crate::model::routes_conflict((&a.path, &a.select), (&b.path, &b.select))
}
