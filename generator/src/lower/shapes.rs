//! The last pass of lowering: each operation's client and server shape ([`ClientShape`],
//! [`ServerShape`]) and how each of its parameters travels ([`ParamWire`]), and every Rust
//! name operations and groups add to the client and server crates claimed in one scope per
//! crate, beside the names those crates have of their own ([`CLIENT_ROOT`], [`SERVER_ROOT`]),
//! and the crates' own names ([`CrateNames`]). (The types crate's names, the answer
//! enumerations and response headers among them, are claimed with the types.)

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
    settle_param_wires(api);
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

/// Decides how each parameter of each operation travels ([`ParamWire`]), once the types are
/// known (an object, a map or a union in the query is sent whole). Lowering checked the
/// place, style and type go together (`lower/styles.rs`); what it refused never reaches here.
fn settle_param_wires(api: &mut Api) {
    let types = &api.types;
    for param in api.operations.iter_mut().flat_map(|op| op.params.iter_mut()) {
        param.wire_form = param_wire(types, param);
    }
}

/// How `param` travels (see [`settle_param_wires`]).
fn param_wire(types: &BTreeMap<String, TypeDef>, param: &Param) -> ParamWire {
    let kind = match &param.ty {
        TypeRef::Named(name) => types.get(name).map(|d| &d.kind),
        _ => None,
    };
    let union = matches!(kind, Some(TypeKind::Union(_)));
    let list = matches!(param.ty, TypeRef::List(_));
    let json = param.style == ParamStyle::Json;
    match param.location {
        ParamIn::Path => {
            let prefix = match param.style {
                ParamStyle::Label => Some(".".to_owned()),
                ParamStyle::Matrix => Some(format!(";{}=", param.wire)),
                _ => None,
            };
            if union {
                ParamWire::PathUnion { prefix }
            } else if list {
                ParamWire::PathList
            } else {
                ParamWire::Path { prefix }
            }
        }
        ParamIn::Query if json => ParamWire::QueryJson,
        ParamIn::Query => match (&param.ty, kind) {
            // Exploded, an object's fields are parameters of their own; anything else whole
            // goes under its name.
            (_, Some(TypeKind::Object(object))) if param.style == ParamStyle::Default => ParamWire::QueryObject(
                crate::model::shape::QueryObject::Flat(object.fields.iter().map(|f| f.wire.clone()).collect()),
            ),
            (TypeRef::Map(_), _) | (_, Some(TypeKind::Object(_) | TypeKind::Union(_))) => {
                ParamWire::QueryObject(crate::model::shape::QueryObject::Deep)
            }
            _ if list => match param.style.delimiter() {
                Some(delimiter) => ParamWire::QueryDelimited(delimiter),
                None if param.style == ParamStyle::Brackets => ParamWire::QueryBrackets,
                None => ParamWire::QueryRepeated,
            },
            _ if param.empty_is_absent() => ParamWire::QueryUnlessEmpty,
            _ => ParamWire::Query,
        },
        ParamIn::Header if json => ParamWire::HeaderJson,
        ParamIn::Header if list => ParamWire::HeaderList,
        ParamIn::Header => ParamWire::Header,
        ParamIn::Cookie => ParamWire::Cookie,
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Diagnostics;
    use crate::model::ParamWire;
    use crate::model::shape::QueryObject;

    /// The styles fixture has a parameter of every way to travel: each settled as its place,
    /// style and type say.
    #[test]
    fn each_style_of_the_styles_fixture_settles_its_wire() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/valid/styles");
        let mut diags = Diagnostics::new();
        let spec = crate::load::load(&dir, &mut diags);
        let api = crate::lower::lower(&spec, &mut diags).expect("the styles fixture lowers");
        let settled: Vec<(&str, &str, &ParamWire)> = api
            .operations
            .iter()
            .flat_map(|op| op.params.iter().map(move |p| (op.name.as_str(), p.wire.as_str(), &p.wire_form)))
            .collect();
        let path = |prefix: Option<&str>| ParamWire::Path { prefix: prefix.map(str::to_owned) };
        let flat = |fields: &[&str]| {
            ParamWire::QueryObject(QueryObject::Flat(fields.iter().map(|f| (*f).to_owned()).collect()))
        };
        let deep = ParamWire::QueryObject(QueryObject::Deep);
        let expected = [
            ("expireCheckout", "id", path(None)),
            ("holdCheckout", "id", path(None)),
            ("searchCheckouts", "ids", ParamWire::QueryDelimited(',')),
            ("searchCheckouts", "tags", ParamWire::QueryDelimited(' ')),
            ("searchCheckouts", "codes", ParamWire::QueryDelimited('|')),
            ("searchCheckouts", "expand", ParamWire::QueryRepeated),
            ("searchCheckouts", "include", ParamWire::QueryBrackets),
            ("countCheckouts", "limit", ParamWire::QueryUnlessEmpty),
            ("countCheckouts", "mode", ParamWire::QueryUnlessEmpty),
            // Text's empty value is `""`, not the parameter left out.
            ("countCheckouts", "q", ParamWire::Query),
            ("pickCheckouts", "ids", ParamWire::PathList),
            ("pickCheckouts", "modes", ParamWire::PathList),
            ("filterCheckouts", "created", deep.clone()),
            ("filterCheckouts", "customer", deep.clone()),
            ("filterCheckouts", "metadata", deep.clone()),
            ("filterCheckouts", "page", flat(&["number", "size"])),
            ("reportCheckouts", "bounds", ParamWire::QueryJson),
            ("reportCheckouts", "ids", ParamWire::QueryJson),
            ("reportCheckouts", "X-Customer", ParamWire::HeaderJson),
            ("lookupCheckout", "key", ParamWire::PathUnion { prefix: None }),
            // Unions in the query travel whole, exploded or not.
            ("lookupCheckout", "created", deep.clone()),
            ("lookupCheckout", "label", deep.clone()),
            ("lookupCheckout", "delay", deep),
            ("findNote", "text", path(None)),
            ("findNote", "Content-Type", ParamWire::Header),
            ("checkoutAt", "day", path(Some("."))),
            ("checkoutAt", "rev", path(Some(";rev="))),
            ("checkoutAt", "Rev", ParamWire::Query),
        ];
        let expected: Vec<(&str, &str, &ParamWire)> =
            expected.iter().map(|(op, wire, form)| (*op, *wire, form)).collect();
        assert_eq!(settled, expected);
    }
}
