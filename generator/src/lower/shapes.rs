//! The last pass of lowering: each operation's client and server shape ([`ClientShape`],
//! [`ServerShape`]), and every Rust name operations and groups add to the client and server
//! crates claimed in one scope per crate, beside the names those crates have of their own
//! ([`CLIENT_ROOT`], [`SERVER_ROOT`]), and the crates' own names ([`CrateNames`]). (The types
//! crate's names, the answer enumerations and response headers among them, are claimed with
//! the types.)

use super::*;
use crate::model::crates::{CLIENT_ROOT, SERVER_ROOT};

/// Settles every operation's shapes and claims the names they add (see the module docs).
pub(super) fn settle(api: &mut Api, diags: &mut Diagnostics) {
    api.crates = CrateNames::of(&api.name);
    let methods = client_methods(&api.operations);
    let mut client = Scope::reserving_each(CLIENT_ROOT.reserved());
    let mut server = Scope::reserving_each(SERVER_ROOT.reserved());
    for tag in api.tags_with_operations() {
        let names = &tag.names;
        client.claim(&names.client, &format!("the client handle of tag `{}`", tag.name), &tag.origin, diags);
        server.claim(&names.server_trait, &format!("the server trait of tag `{}`", tag.name), &tag.origin, diags);
    }
    let shapes: Vec<(ClientShape, ServerShape)> = api
        .operations
        .iter()
        .zip(methods)
        .map(|(op, method)| (ClientShape::of(api, op, method, &op.names), ServerShape::of(op)))
        .collect();
    for (op, (client_shape, server_shape)) in api.operations.iter_mut().zip(shapes) {
        let (name, names, at) = (&op.name, &op.names, &op.origin);
        client.claim(&names.builder, &format!("the client builder of operation `{name}`"), at, diags);
        client.claim(&names.request, &format!("the client parameters of operation `{name}`"), at, diags);
        for choice in &client_shape.media {
            let what = if choice.accept { "answer" } else { "body" };
            let element = format!("the {what} media types of operation `{name}`");
            client.claim(&choice.enumeration, &element, at, diags);
        }
        server.claim(&names.request, &format!("the server request of operation `{name}`"), at, diags);
        if server_shape.chooses_status {
            server.claim(&names.status, &format!("the success statuses of operation `{name}`"), at, diags);
        }
        op.client = client_shape;
        op.server = server_shape;
    }
}

/// Client method names: short (`get`) where no other operation of the tag ends up with the
/// same name, the full method name otherwise.
fn client_methods(operations: &[Operation]) -> Vec<String> {
    let candidates: Vec<String> = operations
        .iter()
        .map(|op| names::short_method_name(&op.name, &op.tag).unwrap_or_else(|| op.rust.clone()))
        .collect();
    // Counted per group, not compared pairwise (Microsoft Graph has 9,373 operations): how many
    // operations of a group want each short name, and which Rust names the group's take.
    let mut wanted: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut rust: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (op, candidate) in operations.iter().zip(&candidates) {
        *wanted.entry((&op.tag, candidate)).or_default() += 1;
        *rust.entry((&op.tag, &op.rust)).or_default() += 1;
    }
    let clashes: Vec<bool> = operations
        .iter()
        .zip(&candidates)
        .map(|(op, candidate)| {
            let others_wanting = wanted[&(op.tag.as_str(), candidate.as_str())] - 1;
            let own = usize::from(op.rust == *candidate);
            let others_named = rust.get(&(op.tag.as_str(), candidate.as_str())).map_or(0, |n| n - own);
            others_wanting > 0 || others_named > 0
        })
        .collect();
    operations
        .iter()
        .zip(candidates)
        .zip(clashes)
        .map(|((op, candidate), clash)| if clash { op.rust.clone() } else { candidate })
        .collect()
}
