//! Rendering a list of [`Change`]s: readable text for people, JSON for tools.

use super::{Change, Class, bump};
use crate::diag::Location;
use serde_json::{Value, json};

/// One block per change, then the summary line.
pub fn text(changes: &[Change]) -> String {
    let mut out = String::new();
    for change in changes {
        out.push_str(&format!(
            "{:<8} callers, {:<8} implementers  {}: {}\n",
            change.callers.as_str(),
            change.implementers.as_str(),
            change.subject,
            change.kind
        ));
        out.push_str(&format!("    old: {}\n", location(change.old.as_ref())));
        out.push_str(&format!("    new: {}\n", location(change.new.as_ref())));
        out.push_str(&format!("    why: {}\n", change.reason));
    }
    out.push_str(&summary(changes));
    out.push('\n');
    out
}

/// `N changes: B breaking callers, I breaking implementers, S safe, D docs only; semver bump: X`.
pub fn summary(changes: &[Change]) -> String {
    let count = |pick: &dyn Fn(&Change) -> bool| changes.iter().filter(|c| pick(c)).count();
    let callers = count(&|c| c.callers == Class::Breaking);
    let implementers = count(&|c| c.implementers == Class::Breaking);
    let docs = count(&|c| c.callers.max(c.implementers) == Class::Docs);
    let safe = count(&|c| c.callers.max(c.implementers) == Class::Safe);
    format!(
        "{} change{}: {callers} breaking callers, {implementers} breaking implementers, {safe} safe, {docs} docs only; semver bump: {}",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" },
        bump(changes).as_str()
    )
}

fn location(at: Option<&Location>) -> String {
    at.map_or_else(|| "(absent)".to_owned(), ToString::to_string)
}

/// `{"changes": [...], "summary": {...}}`, pretty-printed, keys in a fixed order.
pub fn json(changes: &[Change]) -> String {
    let items: Vec<Value> = changes
        .iter()
        .map(|c| {
            json!({
                "kind": c.kind,
                "subject": c.subject,
                "old": c.old.as_ref().map(ToString::to_string),
                "new": c.new.as_ref().map(ToString::to_string),
                "callers": c.callers.as_str(),
                "implementers": c.implementers.as_str(),
                "reason": c.reason,
            })
        })
        .collect();
    let breaking = |pick: fn(&Change) -> Class| changes.iter().filter(|c| pick(c) == Class::Breaking).count();
    let document = json!({
        "changes": items,
        "summary": {
            "total": changes.len(),
            "breaking_callers": breaking(|c| c.callers),
            "breaking_implementers": breaking(|c| c.implementers),
            "bump": bump(changes).as_str(),
        },
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
