//! What `apigen list` and `apigen gaps` print: the model as lines of text.

use crate::model::{Api, TypeKind};

/// `apigen list`: one line per operation (`METHOD PATH name`), sorted by path then method.
pub fn operations(api: &Api) -> Vec<String> {
    let mut ops: Vec<_> = api.operations.iter().collect();
    ops.sort_by(|a, b| (&a.path.raw, a.method.as_str()).cmp(&(&b.path.raw, b.method.as_str())));
    ops.iter().map(|op| format!("{:<6} {} {}", op.method.as_str(), op.path.raw, op.name)).collect()
}

/// `apigen list --rust`: one line per operation (sorted as [`operations`]), with the call a
/// user of the generated client writes and the method a service implements: `GET /v1/health
/// getHealth  client.health().get_health()  HealthApi::get_health`. The client's method
/// drops what the group says already (`getHealthClock` is `health().get_clock()`), so a
/// user reads it here rather than guessing it from the operation's name.
pub fn rust(api: &Api) -> Vec<String> {
    let mut ops: Vec<_> = api.operations.iter().collect();
    ops.sort_by(|a, b| (&a.path.raw, a.method.as_str()).cmp(&(&b.path.raw, b.method.as_str())));
    ops.iter()
        .map(|op| {
            let tag = api.tags.iter().find(|t| t.name == op.tag);
            let (group, server_trait) = tag.map_or(("?", "?"), |t| (t.rust.as_str(), t.names.server_trait.as_str()));
            let args: Vec<&str> = op.client.args.iter().map(|a| a.name.as_str()).collect();
            format!(
                "{:<6} {} {}  client.{group}().{}({})  {server_trait}::{}",
                op.method.as_str(),
                op.path.raw,
                op.name,
                op.client.method,
                args.join(", "),
                op.rust
            )
        })
        .collect()
}

/// `apigen list --types`: one line per type, its kind and what it holds.
pub fn types(api: &Api) -> Vec<String> {
    api.types
        .values()
        .map(|t| match &t.kind {
            TypeKind::Object(o) => format!("object {} ({} fields)", t.name, o.fields.len()),
            TypeKind::Enum(e) => {
                let values: Vec<&str> = e.values.iter().map(|v| v.wire.as_str()).collect();
                let openness = if e.open { "open" } else { "closed" };
                format!("enum   {} ({openness}: {})", t.name, values.join(", "))
            }
            TypeKind::Union(u) => {
                let variants: Vec<String> = u.variants.iter().map(|v| v.ty.to_string()).collect();
                let tag = u.tag.as_ref().map_or("untagged".to_owned(), |t| format!("tag `{t}`"));
                let openness = if u.open { "open" } else { "closed" };
                format!("union  {} ({tag}, {openness}: {})", t.name, variants.join(", "))
            }
        })
        .collect()
}

/// `apigen gaps`: every gap with its decision and what uses it, then their number.
pub fn gaps(api: &Api) -> Vec<String> {
    let mut lines = Vec::new();
    for gap in api.gaps.values() {
        lines.push(format!("{} ({})", gap.id, gap.source));
        lines.push(format!("  gap:      {}", gap.gap.trim()));
        lines.push(format!("  decision: {}", gap.decision.trim()));
        if !gap.used_by.is_empty() {
            lines.push(format!("  used by:  {}", gap.used_by.join(", ")));
        }
    }
    lines.push(crate::diag::count(api.gaps.len(), "gap"));
    lines
}
