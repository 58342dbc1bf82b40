//! Servers: `api.servers`, each a base URL of the API with its placeholders, and the names the
//! generated client gives them (`servers::<name>`, an enumeration per placeholder with `enum`).
//!
//! A server's name is the spec's `name` (snake_case), else `server_<n>` counted from 1 in the
//! list. A placeholder's `enum` lists every value it may take, its default among them; the
//! client types it as an enumeration whose variants are the values in PascalCase. Placeholders
//! the URL does not use, and `{..}` the variables do not declare, are not errors: documents
//! have them, and the URL keeps an undeclared one as written.

use crate::diag::{Diagnostics, Location};
use crate::load::Origin;
use crate::load::raw::{RawServer, RawServerVariable};
use crate::model::names::{Case, sanitize};
use crate::model::{Server, ServerVariable};
use std::collections::BTreeSet;

/// The servers of `api.servers`, each checked; `origin` is `api.servers`, `locate` finds a
/// key below it.
pub(super) fn lower_servers(
    raw: &[RawServer],
    origin: &Origin,
    locate: impl Fn(&Origin) -> Location,
    diags: &mut Diagnostics,
) -> Vec<Server> {
    let mut taken = BTreeSet::new();
    let servers: Vec<Server> = raw
        .iter()
        .enumerate()
        .map(|(i, server)| {
            let at = origin.index(i);
            let rust = server_name(server, i, &locate(&at.key("name")), diags);
            if !taken.insert(rust.clone()) {
                diags
                    .error(locate(&at), format!("two servers are named `{rust}`"))
                    .hint("give each server its own `name`");
            }
            let variables = server
                .variables
                .iter()
                .map(|(name, variable)| lower_variable(name, variable, &locate(&at.key("variables").key(name)), diags))
                .collect();
            Server {
                name: server.name.clone(),
                rust,
                url: server.url.clone(),
                description: server.description.clone(),
                variables,
            }
        })
        .collect();
    servers.iter().zip(raw).enumerate().for_each(|(i, (server, raw))| {
        check_clashes(server, &locate(&origin.index(i).key("variables")), raw.variables.is_empty(), diags)
    });
    servers
}

/// The server's module name: its `name`, checked, or `server_<n>`.
fn server_name(server: &RawServer, index: usize, at: &Location, diags: &mut Diagnostics) -> String {
    let Some(name) = &server.name else { return format!("server_{}", index + 1) };
    if sanitize(name, Case::Snake) != *name || name.starts_with('_') {
        diags.error(at.clone(), format!("server name `{name}` is not a snake_case name")).hint(format!(
            "use lower-case letters, digits and `_`, starting with a letter (`{}`)",
            sanitize(name, Case::Snake)
        ));
    }
    name.clone()
}

/// One placeholder, its `enum` checked: not empty, no value twice or two giving one variant,
/// the default among them.
fn lower_variable(name: &str, raw: &RawServerVariable, at: &Location, diags: &mut Diagnostics) -> ServerVariable {
    let values = raw.values.clone().unwrap_or_default();
    let variants: Vec<String> = values.iter().map(|value| sanitize(value, Case::Pascal)).collect();
    if raw.values.as_ref().is_some_and(Vec::is_empty) {
        diags
            .error(at.clone(), format!("server variable `{name}` has an empty `enum`"))
            .hint("list the values it may take, or remove `enum` to allow any");
    } else if !values.is_empty() && !values.contains(&raw.default) {
        diags
            .error(
                at.clone(),
                format!("the default `{}` of server variable `{name}` is not in its `enum`", raw.default),
            )
            .hint(format!("add it to `enum`, or choose one of: {}", values.join(", ")));
    }
    let mut seen = BTreeSet::new();
    values.iter().zip(&variants).filter(|(_, variant)| !seen.insert(variant.as_str())).for_each(|(value, variant)| {
        diags
            .error(
                at.clone(),
                format!("the value `{value}` of server variable `{name}` repeats the variant `{variant}`"),
            )
            .hint("list each value once; values differing only in case or punctuation cannot be told apart in Rust");
    });
    ServerVariable {
        name: name.to_owned(),
        default: raw.default.clone(),
        description: raw.description.clone(),
        values,
        rust_param: sanitize(name, Case::Snake),
        rust_type: sanitize(name, Case::Pascal),
        variants,
    }
}

/// Two placeholders of one server giving one argument or one enumeration name in Rust.
fn check_clashes(server: &Server, at: &Location, none: bool, diags: &mut Diagnostics) {
    if none {
        return;
    }
    let mut params = BTreeSet::new();
    let mut types = BTreeSet::new();
    server.variables.iter().for_each(|variable| {
        let typed = !variable.values.is_empty();
        if !params.insert(variable.rust_param.as_str()) || (typed && !types.insert(variable.rust_type.as_str())) {
            diags
                .error(
                    at.clone(),
                    format!(
                        "server variable `{}` has the same Rust name as another variable of its server",
                        variable.name
                    ),
                )
                .hint("rename one: names differing only in case or punctuation cannot be told apart in Rust");
        }
    });
}
