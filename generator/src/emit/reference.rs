//! `REFERENCE.md`: every operation by tag, every type, every gap, for people.
//!
//! This module prepares the content (links between operations, types and gaps; table cells
//! made safe for Markdown); `templates/REFERENCE.md.j2` lays it out.

use super::escape::{flat, table_cell};
use super::text::describe_constraints;
use crate::model::{Access, Api, Field, Need, Operation, Presence, ResponseBody, Server, TypeDef, TypeKind, TypeRef};
use serde::Serialize;

/// Adds `REFERENCE.md` to `output`.
pub fn emit(api: &Api, options: &super::Options) -> String {
    let context = Context {
        header: super::text::header_text(api, options),
        title: api.title.clone(),
        description: api.description.clone().unwrap_or_default().trim().to_owned(),
        counts: format!(
            "{} operations in {} groups, {} types, {} recorded gaps.",
            api.operations.len(),
            api.tags.iter().filter(|t| api.operations_of(&t.name).next().is_some()).count(),
            api.types.len(),
            api.gaps.len()
        ),
        tags: api
            .tags
            .iter()
            .filter(|t| api.operations_of(&t.name).next().is_some())
            .map(|t| TagView {
                title: t.title.clone(),
                anchor: format!("tag-{}", t.name),
                description: t.description.clone().unwrap_or_default().trim().to_owned(),
                operations: api.operations_of(&t.name).map(|op| operation(api, op)).collect(),
            })
            .collect(),
        servers: api.servers.iter().map(server_view).collect(),
        types: api.types.values().map(type_view).collect(),
        gaps: api
            .gaps
            .values()
            .map(|g| GapView {
                id: g.id.clone(),
                anchor: format!("gap-{}", g.id),
                source: g.source.clone(),
                gap: flat(&g.gap),
                decision: flat(&g.decision),
                used_by: g.used_by.join(", "),
            })
            .collect(),
    };
    super::templates::render("REFERENCE.md.j2", minijinja::Value::from(minijinja::value::Serde(&context)))
}

#[derive(Serialize)]
struct Context {
    header: String,
    title: String,
    description: String,
    counts: String,
    tags: Vec<TagView>,
    servers: Vec<ServerView>,
    types: Vec<TypeView>,
    gaps: Vec<GapView>,
}

#[derive(Serialize)]
struct ServerView {
    /// Its module in the client.
    name: String,
    url: String,
    description: String,
    /// Each variable: its name, default, values and description, in one cell.
    variables: String,
}

/// One row of the servers' table.
fn server_view(server: &Server) -> ServerView {
    let variables: Vec<String> = server
        .variables
        .iter()
        .map(|variable| {
            let values = match variable.values.as_slice() {
                [] => format!("default `{}`", variable.default),
                values => {
                    let listed: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
                    format!("{} (default `{}`)", listed.join(", "), variable.default)
                }
            };
            let what = variable.description.as_deref().map(|d| format!(": {}", d.trim())).unwrap_or_default();
            format!("`{}` {values}{what}", variable.name)
        })
        .collect();
    ServerView {
        name: server.rust.clone(),
        url: table_cell(&server.url),
        description: server.description.as_deref().map(table_cell).unwrap_or_default(),
        variables: table_cell(&variables.join("; ")),
    }
}

#[derive(Serialize)]
struct TagView {
    title: String,
    anchor: String,
    description: String,
    operations: Vec<OperationView>,
}

#[derive(Serialize)]
struct OperationView {
    name: String,
    anchor: String,
    method: &'static str,
    path: String,
    summary: String,
    description: String,
    deprecated: String,
    params: Vec<ParamView>,
    body: String,
    status: String,
    public: bool,
    response: String,
    response_short: String,
    errors: Vec<String>,
    gaps: String,
    /// Statuses with bodies of their own.
    also: Vec<String>,
    /// Response headers.
    headers: Vec<String>,
    /// The schemes accepted, when the API has several.
    credentials: String,
    /// How it pages, when not the built-in envelope.
    paging: String,
}

#[derive(Serialize)]
struct ParamView {
    name: String,
    location: &'static str,
    #[serde(rename = "type")]
    ty: String,
    required: &'static str,
    default: String,
    constraints: String,
    description: String,
}

#[derive(Serialize)]
struct TypeView {
    name: String,
    anchor: String,
    kind: String,
    inline_of: String,
    source: String,
    description: String,
    fields: Vec<FieldView>,
    additional: String,
    values: Vec<ValueView>,
    variants: Vec<VariantView>,
    gaps: String,
}

#[derive(Serialize)]
struct FieldView {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    presence: String,
    constraints: String,
    description: String,
}

#[derive(Serialize)]
struct ValueView {
    value: String,
    description: String,
}

#[derive(Serialize)]
struct VariantView {
    tag: String,
    #[serde(rename = "type")]
    ty: String,
}

#[derive(Serialize)]
struct GapView {
    id: String,
    anchor: String,
    source: String,
    gap: String,
    decision: String,
    used_by: String,
}

/// A type reference with links to the types it names.
fn type_link(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(name) => format!("[`{name}`](#type-{})", name.to_lowercase()),
        TypeRef::List(inner) => format!("list of {}", type_link(inner)),
        TypeRef::Map(inner) => format!("map of {}", type_link(inner)),
        other => format!("`{other}`"),
    }
}

fn gap_links(ids: &[String]) -> String {
    ids.iter().map(|id| format!("[`{id}`](#gap-{id})")).collect::<Vec<_>>().join(", ")
}

fn operation(api: &Api, op: &Operation) -> OperationView {
    let response = match &op.response.body {
        ResponseBody::Empty => "no body".to_owned(),
        ResponseBody::Value(ty) => type_link(ty),
        ResponseBody::Page { item, envelope: None } => format!("a page of {}", type_link(item)),
        ResponseBody::Page { item, envelope: Some(e) } => {
            format!("a page of {} in {}", type_link(item), type_link(&TypeRef::Named(e.clone())))
        }
    };
    let mut full_response = format!("{response}{}", media_note(&op.response.media_types, "by `Accept`"));
    if let Some(description) = &op.response.description {
        full_response.push_str(&format!(" — {}", flat(description)));
    }
    let deprecated = op.deprecated.as_ref().map_or(String::new(), |d| {
        let replacement = d.replacement.as_ref().map(|r| format!("use `{r}`")).unwrap_or_default();
        flat(&format!("{replacement} {}", d.note.clone().unwrap_or_default()))
    });
    OperationView {
        name: op.name.clone(),
        anchor: format!("op-{}", op.name.to_lowercase()),
        method: op.method.as_str(),
        path: op.path.raw.clone(),
        summary: op.summary.clone(),
        description: op.description.clone().unwrap_or_default().trim().to_owned(),
        deprecated,
        params: op.params.iter().map(param_view).collect(),
        body: op.body.as_ref().map_or(String::new(), |b| {
            let optional = match (b.optional, b.untyped, b.nullable) {
                (true, true, _) => " (optional; a value that is not an object reads as left out)",
                (false, true, _) => " (a value that is not an object reads as left out)",
                (true, false, true) => " (optional; `null` reads as left out)",
                (false, false, true) => " (`null` reads as left out)",
                (true, false, false) => " (optional)",
                (false, false, false) => "",
            };
            if !b.alternatives.is_empty() {
                return format!("{}{optional}", alternatives_text(b));
            }
            format!("{}{optional}{}", type_link(&b.ty), media_note(&b.media_types, "by `Content-Type`"))
        }),
        status: super::text::statuses_text(op),
        public: op.auth.is_public(),
        response: full_response,
        response_short: response,
        errors: op
            .errors
            .iter()
            .map(|e| {
                let ty = e.ty.as_ref().map(|ty| format!(" ({})", type_link(ty))).unwrap_or_default();
                format!("{}: {}{ty}", e.status, flat(&e.when))
            })
            .collect(),
        gaps: gap_links(&op.gaps),
        also: op
            .response
            .others
            .iter()
            .map(|other| {
                let meaning = other.description.as_deref().map(|d| format!(" — {}", flat(d))).unwrap_or_default();
                format!("{}: {}{meaning}", other.status, body_link(&other.body))
            })
            .collect(),
        headers: op
            .response
            .headers
            .iter()
            .map(|h| {
                let always = if h.required { ", always sent" } else { "" };
                let meaning = h.description.as_deref().map(|d| format!(": {}", flat(d))).unwrap_or_default();
                format!("`{}` ({}{always}){meaning}", h.wire, type_link(&h.ty))
            })
            .collect(),
        credentials: credentials(api, op),
        paging: paging(op),
    }
}

fn param_view(p: &crate::model::Param) -> ParamView {
    ParamView {
        name: p.wire.clone(),
        location: p.location.as_str(),
        ty: type_link(&p.ty),
        required: if p.required { "yes" } else { "no" },
        default: p.default.as_ref().map(|d| format!("`{d}`")).unwrap_or_default(),
        constraints: table_cell(&describe_constraints(&p.ty, &p.constraints).unwrap_or_default()),
        description: table_cell(&format!(
            "{}{}{}",
            p.description.clone().unwrap_or_default(),
            if p.empty_is_absent() { " An empty value counts as absent." } else { "" },
            if p.gaps.is_empty() { String::new() } else { format!(" Gaps: {}.", gap_links(&p.gaps)) }
        )),
    }
}

/// The schemes an operation accepts, when the API has several.
fn credentials(api: &Api, op: &Operation) -> String {
    if api.auth_schemes.len() > 1 && !op.auth.is_public() {
        let together = |set: &Vec<Need>| {
            set.iter()
                .map(|need| format!("`{}` ({}){}", need.scheme, api.scheme(&need.scheme).kind.describe(), scopes(need)))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        op.auth.alternatives().iter().map(together).collect::<Vec<_>>().join(" or ")
    } else {
        String::new()
    }
}

/// The scopes a scheme of an alternative requires, in words (` with scopes `a`, `b``).
fn scopes(need: &Need) -> String {
    if need.scopes.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = need.scopes.iter().map(|scope| format!("`{scope}`")).collect();
    format!(" with {} {}", if listed.len() == 1 { "scope" } else { "scopes" }, listed.join(", "))
}

/// How a list pages, when not by the standard envelope.
fn paging(op: &Operation) -> String {
    match &op.pagination {
        Some(p) if !p.is_standard() => {
            let items =
                if p.items.is_empty() { "the body is the list".to_owned() } else { format!("items at `{}`", p.items) };
            format!("`{}` style by `{}`, {items}", p.style.as_str(), p.cursor)
        }
        _ => String::new(),
    }
}

/// ` as `text/csv``, or ` as `application/pdf` or `text/markdown` (chosen by `Accept`)`: the
/// media types of a body, said when it is not plain JSON.
/// A body with alternatives: each variant's type and media types, told apart by `Content-Type`.
fn alternatives_text(body: &crate::model::Body) -> String {
    let each: Vec<String> = body
        .variants()
        .map(|v| {
            let listed: Vec<String> = v.media_types.iter().map(|m| format!("`{m}`")).collect();
            format!("{} as {} (`{}`)", type_link(&v.ty), listed.join(" or "), v.variant)
        })
        .collect();
    format!("{}; told apart by `Content-Type`", each.join("; or "))
}

fn media_note(media_types: &[String], chosen: &str) -> String {
    match media_types {
        [] => String::new(),
        [json] if json == "application/json" => String::new(),
        [one] => format!(" as `{one}`"),
        several => {
            let listed: Vec<String> = several.iter().map(|m| format!("`{m}`")).collect();
            format!(" as {} (chosen {chosen})", listed.join(" or "))
        }
    }
}

fn body_link(body: &ResponseBody) -> String {
    match body {
        ResponseBody::Empty => "no body".to_owned(),
        ResponseBody::Value(ty) => type_link(ty),
        ResponseBody::Page { item, .. } => format!("a page of {}", type_link(item)),
    }
}

fn type_view(def: &TypeDef) -> TypeView {
    let mut view = TypeView {
        name: def.name.clone(),
        anchor: format!("type-{}", def.name.to_lowercase()),
        kind: String::new(),
        inline_of: def.inline_of.clone().unwrap_or_default(),
        source: def.source.clone().unwrap_or_default(),
        description: def.description.clone().unwrap_or_default().trim().to_owned(),
        fields: Vec::new(),
        additional: String::new(),
        values: Vec::new(),
        variants: Vec::new(),
        gaps: gap_links(&def.gaps),
    };
    match &def.kind {
        TypeKind::Object(o) => {
            view.kind = if o.includes.is_empty() {
                "Object".into()
            } else {
                let links: Vec<String> =
                    o.includes.iter().map(|name| type_link(&TypeRef::Named(name.clone()))).collect();
                format!("Object, including the fields of {}", links.join(", "))
            };
            view.fields = o.fields.iter().map(|f| field_view(f, def)).collect();
            view.additional = o.additional.as_ref().map(type_link).unwrap_or_default();
        }
        TypeKind::Enum(e) => {
            let of = if e.integer { " of integers" } else { "" };
            view.kind = if e.open {
                format!("Open enumeration{of} (values beyond these may appear)")
            } else {
                format!("Closed enumeration{of}")
            };
            view.values = e
                .values
                .iter()
                .map(|v| ValueView {
                    value: v.wire.clone(),
                    description: table_cell(v.description.as_deref().unwrap_or("")),
                })
                .collect();
        }
        TypeKind::Union(u) => {
            let how = match &u.tag {
                Some(tag) => format!("Union tagged by `{tag}`"),
                None => "Untagged union".to_owned(),
            };
            let openness = if u.open { ", open (variants not listed are kept as they come)" } else { "" };
            view.kind = format!("{how}{openness}");
            view.variants = u
                .variants
                .iter()
                .map(|v| VariantView {
                    tag: v.tag_value.as_ref().map(|t| format!("`{t}`")).unwrap_or_else(|| "—".into()),
                    ty: type_link(&v.ty),
                })
                .collect();
        }
    }
    view
}

fn field_view(field: &Field, owner: &TypeDef) -> FieldView {
    let presence = match (&field.constant, field.presence(owner.usage)) {
        (Some(constant), _) => format!("always `{constant}`"),
        (None, _) if field.access == Access::ReadOnly => {
            let answered = if field.optional { "optional" } else { "always" };
            format!("read-only: {answered} in responses, refused in requests")
        }
        (None, _) if field.access == Access::WriteOnly => {
            let sent = if field.optional { "optional" } else { "required" };
            format!("write-only: {sent} in requests, never in responses")
        }
        (None, Presence::Required) => "required".into(),
        (None, Presence::Defaulted) => {
            format!("optional, default `{}`", field.default.as_ref().map(ToString::to_string).unwrap_or_default())
        }
        (None, Presence::Optional) => "optional".into(),
        (None, Presence::Nullable) => "required, nullable".into(),
        (None, Presence::TriState) => "optional, nullable: absent leaves it, null removes it".into(),
    };
    let mut description = field.description.clone().unwrap_or_default();
    if field.sensitive {
        description.push_str(" Sensitive.");
    }
    if !field.gaps.is_empty() {
        description.push_str(&format!(" Gaps: {}.", gap_links(&field.gaps)));
    }
    FieldView {
        name: field.wire.clone(),
        ty: type_link(&field.ty),
        presence,
        constraints: table_cell(&describe_constraints(&field.ty, &field.constraints).unwrap_or_default()),
        description: table_cell(&description),
    }
}
