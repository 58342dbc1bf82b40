//! `apigen import`: OpenAPI documents become specs that lint and generate; importing the
//! export of this repository's spec gives back the same Rust public API; the same document
//! gives the same bytes; what the format cannot hold is a gap; bad input is refused, located.

use apigen::model::{Api, ResponseBody, TypeKind};
use std::path::Path;

/// Imports `doc` into a new directory and loads the spec back.
fn import(doc: &str) -> (tempfile::TempDir, apigen::ImportReport, Api) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("spec");
    let report = apigen::import(Path::new(doc), &out, false).unwrap();
    let api = match apigen::load(&out) {
        Ok((api, _)) => api,
        Err(diags) => panic!("{doc} imports into a spec that does not lint:\n{}", diags.render()),
    };
    (dir, report, api)
}

/// The spec an in-memory import wrote, loaded (and so linted); `what` names it when it does
/// not lint.
fn lint_imported(imported: &apigen::import::Imported, what: &str) -> Api {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in &imported.files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    match apigen::load(dir.path()) {
        Ok((api, _)) => api,
        Err(diags) => panic!("{what}:\n{}", diags.render()),
    }
}

/// The text an in-memory import wrote into `file`, or (`None`) into its first file of
/// operations (neither `api.yaml` nor `schemas.yaml`).
fn written<'a>(imported: &'a apigen::import::Imported, file: Option<&str>) -> &'a str {
    let wanted = |name: &str| match file {
        Some(file) => name == file,
        None => name != "api.yaml" && name != "schemas.yaml",
    };
    &imported.files.iter().find(|(name, _)| wanted(name)).unwrap().1
}

/// The Rust-visible shape of an API: every type with its Rust name and fields (Rust name, wire
/// name, type, presence), every operation with its Rust names, route, parameters, body and
/// statuses.
fn public_api(api: &Api) -> Vec<String> {
    let mut lines = Vec::new();
    for ty in api.types.values() {
        match &ty.kind {
            TypeKind::Object(o) => {
                let extra = o.additional.as_ref().map(ToString::to_string);
                // What a request's undeclared fields meet matters where the type is read from
                // one (an object keeping its extra keys reads them all either way).
                let unknown = if ty.usage.input && extra.is_none() {
                    format!(" ignores_unknown={}", o.ignores_unknown)
                } else {
                    String::new()
                };
                lines.push(format!("struct {} extra={extra:?} includes={:?}{unknown}", ty.rust, o.includes));
                for f in &o.fields {
                    lines.push(format!(
                        "  {} {:?} {} optional={} nullable={} const={:?} default={:?} {:?}",
                        f.rust, f.wire, f.ty, f.optional, f.nullable, f.constant, f.default, f.access
                    ));
                }
            }
            TypeKind::Enum(e) => {
                let values: Vec<String> = e.values.iter().map(|v| format!("{}={}", v.rust, v.wire)).collect();
                lines.push(format!("enum {} open={} integer={} {}", ty.rust, e.open, e.integer, values.join(",")));
            }
            TypeKind::Union(u) => {
                let variants: Vec<String> =
                    u.variants.iter().map(|v| format!("{}:{}:{:?}", v.rust, v.ty, v.tag_value)).collect();
                lines.push(format!("union {} tag={:?} open={} {}", ty.rust, u.tag, u.open, variants.join(",")));
            }
        }
    }
    for op in &api.operations {
        let params: Vec<String> = op
            .params
            .iter()
            .map(|p| format!("{}:{}:{:?}:{}:{}", p.rust, p.wire, p.location, p.ty, p.required))
            .collect();
        let body = op.body.as_ref().map(|b| format!("{}{}", b.ty, if b.optional { "?" } else { "" }));
        let response = match &op.response.body {
            ResponseBody::Empty => "empty".to_owned(),
            ResponseBody::Value(ty) => ty.to_string(),
            ResponseBody::Page { item, envelope } => format!("page<{item}> {envelope:?}"),
        };
        lines.push(format!(
            "op {} {} client={:?} tag={} {} {} select={:?} params=[{}] body={body:?} -> {:?} {response} auth={:?}",
            op.rust,
            op.rust_type,
            op.client,
            op.tag,
            op.method.as_str(),
            op.path.raw,
            op.select,
            params.join(", "),
            op.response.statuses().collect::<Vec<_>>(),
            op.auth
        ));
    }
    lines.push(format!("crate {} pagination {:?} {}", api.name, api.pagination.params, api.pagination.cursor));
    lines
}

/// Fails with a unified diff when the two APIs' Rust-visible shapes differ.
fn assert_same_rust_api(original: &Api, imported: &Api) {
    let (want, got) = (public_api(original).join("\n"), public_api(imported).join("\n"));
    if want != got {
        let diff = similar::TextDiff::from_lines(&want, &got).unified_diff().header("spec", "imported").to_string();
        panic!("the imported spec's Rust API differs:\n{diff}");
    }
}

#[test]
fn importing_the_export_of_this_spec_gives_the_same_rust_api() {
    let (original, _) = apigen::load(Path::new("../spec")).unwrap();
    let (_dir, report, imported) = import("../generated/openapi.json");
    assert_eq!(report.summary.kept, 145);
    assert_same_rust_api(&original, &imported);
    // The gaps of the spec travel too (`x-gaps`), each used by the same elements.
    for (id, gap) in &original.gaps {
        let back = imported.gaps.get(id).unwrap_or_else(|| panic!("gap {id} was lost"));
        assert_eq!(back.decision.trim(), gap.decision.trim(), "{id}");
    }
}

#[test]
fn importing_the_export_of_a_composed_api_gives_the_same_rust_api() {
    // `allOf` of components back to `includes`, `readOnly`/`writeOnly` to their fields,
    // integer enumerations to integer enumerations.
    let (original, _) = apigen::load(Path::new("fixtures/valid/composition")).unwrap();
    let (_dir, report, imported) = import("fixtures/generated/composition/openapi.json");
    assert_eq!(report.summary.kept, 5);
    assert_same_rust_api(&original, &imported);
}

#[test]
fn importing_the_export_of_every_route_form_gives_the_same_routes_and_selectors() {
    // Mixed segments as written; selectors as AWS writes them (`/#X-Amz-Target=...`), read
    // back from `x-select`.
    let (original, _) = apigen::load(Path::new("fixtures/valid/routes")).unwrap();
    let (_dir, report, imported) = import("fixtures/generated/routes/openapi.json");
    assert_eq!(report.summary.kept, 17);
    assert_same_rust_api(&original, &imported);
}

#[test]
fn every_route_form_of_a_document_is_read_and_the_others_are_gaps_with_their_reason() {
    let (dir, report, api) = import("fixtures/openapi/routes-3.0.json");
    assert_eq!((report.summary.operations, report.summary.kept), (18, 12));
    let left_out: Vec<(&str, usize)> = report.summary.left_out.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(left_out, [("paths", 4), ("routes", 2)]);
    let routes: Vec<String> = api
        .operations
        .iter()
        .map(|op| {
            let select: Vec<String> =
                op.select.iter().map(|s| format!(" {} {}={}", s.location.as_str(), s.name, s.value)).collect();
            let params: Vec<&str> = op.params.iter().map(|p| p.wire.as_str()).collect();
            format!("{} {} {}{} {params:?}", op.name, op.method.as_str(), op.path.raw, select.concat())
        })
        .collect();
    assert_eq!(
        routes,
        [
            r#"getItem POST / header X-Amz-Target=Store_20240101.GetItem []"#,
            r#"putItem POST / header X-Amz-Target=Store_20240101.PutItem []"#,
            r#"listThings GET / query Action=ListThings query Version=2024-01-01 []"#,
            r#"describeThings GET / query Action=DescribeThings query Version=2024-01-01 ["MaxResults"]"#,
            r#"getFileJson GET /v1/files/{file_id}.json ["file_id"]"#,
            r#"listItems GET /v1/items []"#,
            r#"listItemsSlash GET /v1/items/ []"#,
            r#"cancelJob POST /v1/jobs/{name}:cancel ["name"]"#,
            r#"nearby GET /v1/near/{lat},{lon} ["lat", "lon"]"#,
            r#"getParticipant GET /v1/participants/${participantId} ["participantId"]"#,
            r#"untagThing DELETE /v1/tags/{id} ["id", "tagKeys"]"#,
            r#"itemAt GET /v1/fn(a='{a}',b={b}) ["a", "b"]"#,
        ]
    );
    let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    for reason in [
        "another POST operation answers the requests of `/v1/jobs/{job}:cancel`",
        "another DELETE operation answers the requests of `/v1/tags/{id}`",
        "the fragment of `/#Action=Undeclared` selects by `Action`, which the operation declares as no header or query parameter",
        "the path `/files/{file_id}#add_shared_link` ends in the fragment `#add_shared_link`, which names no header or query value to select the operation by (a fragment never travels)",
        "the path `/projects/{id}/repository/files(/ref/{ref})` holds optional segments in parentheses: one operation is one route",
        "the path `/alerts?lat={lat}&lon={lon}` holds a query (`?`): a path cannot say which query values select it",
    ] {
        assert!(api_yaml.contains(reason), "{reason}\n{api_yaml}");
    }
}

#[test]
fn bodies_that_are_not_json_keep_their_kind_and_media_types() {
    let (_dir, report, imported) = import("fixtures/generated/files/openapi.json");
    assert_eq!(report.summary.kept, 10);
    let kinds: Vec<String> = imported
        .operations
        .iter()
        .map(|op| {
            let body = op.body.as_ref().map(|b| format!("{} {}", b.ty, b.media_types.join("|")));
            let answer = format!("{:?} {}", op.response.body, op.response.media_types.join("|"));
            format!("{}: {body:?} -> {answer}", op.name)
        })
        .collect();
    let (original, _) = apigen::load(Path::new("fixtures/valid/files")).unwrap();
    for op in &original.operations {
        let found = imported.operations.iter().find(|o| o.name == op.name).expect("kept");
        let media = |b: &Option<apigen::model::Body>| b.as_ref().map(|b| b.media_types.clone());
        assert_eq!(media(&found.body), media(&op.body), "{}: {kinds:?}", op.name);
        assert_eq!(found.response.media_types, op.response.media_types, "{}", op.name);
    }
    // A part's declared media types come back from openapi.json's `encoding.<field>.contentType`.
    let part_types = |api: &Api| {
        let op = api.operations.iter().find(|o| o.name == "uploadAttachments").unwrap();
        let Some(apigen::model::TypeRef::Named(name)) = op.body.as_ref().map(|b| &b.ty) else { panic!("a body") };
        let TypeKind::Object(object) = &api.types[name].kind else { panic!("an object") };
        object.fields.iter().map(|f| (f.wire.clone(), f.media_types.clone())).collect::<Vec<_>>()
    };
    assert_eq!(part_types(&imported), part_types(&original));
    assert!(part_types(&imported).contains(&("preview".into(), vec!["image/png".into(), "image/jpeg".into()])));
}

#[test]
fn a_body_the_format_cannot_type_travels_raw_and_only_what_is_still_lost_is_a_gap() {
    let (_dir, report, api) = import("fixtures/openapi/raw-bodies-3.0.json");
    let mut shapes: Vec<String> = api
        .operations
        .iter()
        .map(|op| {
            let body = op.body.as_ref().map(|b| format!("{} {} sample={:?}", b.ty, b.media_types.join("|"), b.sample));
            let answer = format!("{:?} {}", op.response.body, op.response.media_types.join("|"));
            format!("{}: {body:?} -> {answer} gaps={:?}", op.name, op.gaps)
        })
        .collect();
    shapes.sort(); // The operations load by file.
    assert_eq!(
        shapes,
        [
            r#"getReport: None -> Value(String) application/atom+xml gaps=["xml-responses"]"#,
            r#"postBlob: None -> Empty  gaps=["non-json-request-bodies"]"#,
            // Files beside a nested object: one JSON part for the object since the multipart
            // encoding follows OpenAPI's defaults.
            r#"postBundle: Some("PostBundleBody multipart/form-data sample=None") -> Empty  gaps=[]"#,
            r#"postOrder: Some("string application/xml|text/xml sample=None") -> Value(String) application/xml gaps=["raw-request-bodies", "xml-responses"]"#,
            r#"postRows: Some("string text/csv sample=None") -> Value(Named("Taken")) application/json gaps=[]"#,
            r#"postToken: Some("string application/x-www-form-urlencoded sample=Some(String(\"grant_type=refresh_token&client_id=app-1&refresh_token=r-123\"))") -> Value(Named("Token")) application/json gaps=["raw-request-bodies"]"#,
            r#"putPicture: Some("bytes image/png|application/vnd.ms-excel sample=None") -> Empty  gaps=[]"#,
        ]
    );
    // Only the body of a media range (`*/*`) is still lost (optional, so the operation stays
    // without it); a file beside a nested object travels since the multipart encoding follows
    // OpenAPI's defaults.
    let kinds = &report.summary.kinds;
    assert_eq!(kinds.get("non-json-request-bodies"), Some(&1), "{kinds:?}");
    assert!(report.summary.left_out.is_empty(), "{:?}", report.summary.left_out);
    // The fixture `bodies` declares these operations' bodies as the import writes them.
    let (fixture, _) = apigen::load(Path::new("fixtures/valid/bodies")).unwrap();
    for name in ["postOrder", "postRows", "postToken"] {
        let find = |api: &Api| api.operations.iter().find(|op| op.name == name).cloned().unwrap();
        let (ours, theirs) = (find(&api), find(&fixture));
        let body = |op: &apigen::model::Operation| {
            op.body.as_ref().map(|b| (b.ty.clone(), b.media_types.clone(), b.sample.clone(), b.optional))
        };
        assert_eq!(body(&ours), body(&theirs), "{name}");
        assert_eq!(ours.response.media_types, theirs.response.media_types, "{name}");
        assert_eq!(ours.gaps, theirs.gaps, "{name}");
    }
}

#[test]
fn importing_the_export_of_nested_forms_and_query_styles_gives_them_back() {
    // The multipart body comes back as an inline copy beside its component (as every
    // multipart body does); the urlencoded one, its nested types and how both travel, exactly.
    let (original, _) = apigen::load(Path::new("fixtures/valid/styles")).unwrap();
    let (_dir, report, imported) = import("fixtures/generated/styles/openapi.json");
    assert_eq!(report.summary.kept, original.operations.len());
    let fields = |api: &Api, name: &str| -> Vec<String> {
        let TypeKind::Object(object) = &api.ty(name).kind else { panic!("{name} is an object") };
        object.fields.iter().map(|f| format!("{} {} {} optional={}", f.wire, f.rust, f.ty, f.optional)).collect()
    };
    for name in ["CheckoutForm", "LineItem", "Address", "FileLink", "Position"] {
        assert_eq!(fields(&imported, name), fields(&original, name), "{name}");
    }
    let styles = |api: &Api| -> Vec<String> {
        let params = api.operations.iter().flat_map(|op| op.params.iter());
        let mut found: Vec<String> =
            params.map(|p| format!("{} {} {:?} allow_empty={}", p.wire, p.rust, p.style, p.allow_empty)).collect();
        found.sort(); // The export lists operations by path.
        found
    };
    // The format's `Content-Type` parameter of a GET travels as a header parameter OpenAPI 3
    // says to ignore: the import leaves it out (gap `ignored-header-params`).
    let mut expected = styles(&original);
    expected.retain(|p| !p.starts_with("Content-Type "));
    assert_eq!(styles(&imported), expected);
    for op in imported.operations.iter().filter(|op| op.body.is_some()) {
        let source = original.operations.iter().find(|o| o.name == op.name).unwrap();
        let (body, expected) = (op.body.as_ref().unwrap(), source.body.as_ref().unwrap());
        assert_eq!(body.media_types, expected.media_types, "{}", op.name);
        assert_eq!(body.brackets, expected.brackets, "{}: the body's style", op.name);
        assert_eq!(imported.flat_form(&body.ty), original.flat_form(&expected.ty), "{}: flat or in brackets", op.name);
    }
}

#[test]
fn nested_forms_and_delimited_query_lists_are_kept_and_what_the_format_cannot_hold_is_a_gap() {
    let (_dir, report, api) = import("fixtures/openapi/styles-3.0.json");
    assert_eq!((report.summary.kept, report.summary.operations), (4, 4), "a file beside an object is kept");
    assert_eq!(
        (report.summary.params, report.summary.params_left_out),
        (13, 1),
        "the exploded object whose field is another parameter (`window.ids`) is left out; the CSV string \
         (`shape`, `content: text/csv`) is the text itself"
    );
    let kinds = &report.summary.kinds;
    assert!(!kinds.contains_key("param-styles"), "{kinds:?}");
    assert_eq!(kinds.get("object-params"), Some(&1), "one place: {kinds:?}");
    assert_eq!(kinds.get("content-scalar-params"), Some(&1), "`label`, a JSON string, is plain text: {kinds:?}");
    let search = api.operations.iter().find(|op| op.name == "getSearch").unwrap();
    let styles: Vec<String> = search.params.iter().map(|p| format!("{} {} {:?}", p.wire, p.ty, p.style)).collect();
    assert_eq!(
        styles,
        [
            "ids list<integer> Comma",
            "tags list<string> Space",
            "codes list<string> Pipe",
            "expand list<string> Default",
            "include list<string> Brackets",
            "filter GetSearchFilter Brackets",
            "page GetSearchPage Default",
            "created GetSearchCreated Brackets",
            "where GetSearchWhere Json",
            "label string Default",
            "shape string Default",
            "flag GetSearchFlag Default"
        ]
    );
    // An enumeration of booleans is that of their texts: `flag=true` only.
    let flag = search.params.iter().find(|p| p.wire == "flag").unwrap();
    let apigen::model::TypeKind::Enum(values) = &api.ty(flag.ty.named().unwrap()).kind else {
        panic!("an enumeration")
    };
    let texts: Vec<&str> = values.values.iter().map(|v| v.wire.as_str()).collect();
    assert_eq!((texts, values.open), (vec!["true"], false));
    let left_out: Vec<(&str, usize)> = report.summary.left_out.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(left_out, []);
    let bodies: Vec<String> = api
        .operations
        .iter()
        .filter(|op| op.body.is_some())
        .map(|op| {
            let body = op.body.as_ref().unwrap();
            let flat = api.flat_form(&body.ty);
            format!("{}: {} {} flat={flat} brackets={}", op.name, body.ty, body.media_types.join("|"), body.brackets)
        })
        .collect();
    assert_eq!(
        bodies,
        [
            "postCheckoutSessions: PostCheckoutSessionsBody application/x-www-form-urlencoded flat=false brackets=true",
            // Stripe's `file_link_data` says `deepObject`: brackets, a part a pair.
            "postFiles: PostFilesBody multipart/form-data flat=false brackets=true",
            // A file beside an object: OpenAPI's default sends the object as one JSON part.
            "postUploads: PostUploadsBody multipart/form-data flat=false brackets=false",
        ]
    );
    // A form body the document closes (`additionalProperties: false`) refuses fields it does
    // not declare; an open one ignores them, as OpenAPI's objects do.
    let ignores = |name: &str| match &api.types[name].kind {
        TypeKind::Object(o) => o.ignores_unknown,
        _ => panic!("{name} is an object"),
    };
    assert!(!ignores("PostCheckoutSessionsBody"), "the closed form refuses undeclared fields");
    assert!(ignores("PostFilesBody"), "the open form ignores them");
}

#[test]
fn importing_twice_gives_the_same_bytes() {
    for doc in ["fixtures/openapi/petstore-3.0.json", "fixtures/openapi/shapes-3.1.yaml", "../generated/openapi.json"] {
        let text = std::fs::read_to_string(doc).unwrap();
        let value = apigen::load::document::parse_document(&text).unwrap();
        let first = apigen::import::import(&value, "doc").unwrap();
        let second = apigen::import::import(&value, "doc").unwrap();
        assert_eq!(first, second, "{doc}");
    }
}

#[test]
fn a_3_0_json_document_keeps_what_the_format_holds_and_records_the_rest() {
    let (dir, report, api) = import("fixtures/openapi/petstore-3.0.json");
    assert_eq!(
        report.summary.line(),
        "6 of 6 operations kept, 6 of 6 parameters kept, 4 types, 4 gaps; gap places: unlisted-refusals 4, path-param-names 2, \
         error-body-by-name 1, undeclared-path-params 1"
    );
    let ops: Vec<String> = apigen::listing::operations(&api);
    assert_eq!(
        ops,
        [
            "GET    /pets listPets",
            "POST   /pets createPet",
            "HEAD   /pets/{petId}/owner hasOwner",
            "PUT    /pets/{petId}/photo uploadPhoto",
            "DELETE /pets/{pet_id} deletePet",
            "GET    /pets/{pet_id} getPetsPetId",
        ]
    );
    let pet = match &api.types["Pet"].kind {
        TypeKind::Object(o) => o,
        _ => panic!("Pet is an object"),
    };
    let wires: Vec<&str> = pet.fields.iter().map(|f| f.wire.as_str()).collect();
    assert_eq!(wires, ["name", "tag", "kind", "photoUrls", "status", "attributes", "pattern-field", "id"]);
    // A pattern without an example is kept: lint walks a sample from it.
    let patterned = pet.field("pattern-field").unwrap();
    assert_eq!(patterned.constraints.pattern.as_deref(), Some("^[a-z]+$"));
    assert_eq!(apigen::model::sample::of_type(&api, "Pet")["pattern-field"], "a");
    // `allOf` of `NewPet` and an inline part: `NewPet` included, its fields first.
    assert_eq!(pet.includes, ["NewPet"]);
    let id = pet.field("id").unwrap();
    assert_eq!((id.access, id.optional), (apigen::model::Access::ReadOnly, false), "required in responses");
    let list = api.operations.iter().find(|op| op.name == "listPets").unwrap();
    // A header parameter is a header parameter.
    let header = list.params.iter().find(|p| p.wire == "X-Request-Id").expect("the header parameter is kept");
    assert_eq!(header.location, apigen::model::ParamIn::Header);
    let delete = api.operations.iter().find(|op| op.name == "deletePet").unwrap();
    assert!(delete.auth.is_public());
    // A PNG upload is a raw body of that media type; HEAD is HEAD.
    let upload = api.operations.iter().find(|op| op.name == "uploadPhoto").unwrap();
    let body = upload.body.as_ref().unwrap();
    assert_eq!((body.ty.to_string(), body.media_types.clone()), ("bytes".to_owned(), vec!["image/png".to_owned()]));
    let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    assert!(api_yaml.contains("  limit:\n    in: query\n    type: integer\n"), "{api_yaml}");
    // `format: int32` bounds the value as bounds would (the format's integers are 64-bit);
    // bounds of the document's own stay where tighter (`limit`: 1 to 100).
    let error = match &api.types["Error"].kind {
        TypeKind::Object(o) => o,
        _ => panic!("Error is an object"),
    };
    // OpenAPI's objects are open unless closed: `api.unknown_fields: ignore`, and `Error`
    // (`additionalProperties: false`) refuses.
    assert!(api_yaml.contains("\n  unknown_fields: ignore\n"), "{api_yaml}");
    assert!(!error.ignores_unknown && pet.ignores_unknown);
    let code = &error.field("code").unwrap().constraints;
    assert_eq!(
        (code.minimum.as_ref().map(ToString::to_string), code.maximum.as_ref().map(ToString::to_string)),
        (Some("-2147483648".to_owned()), Some("2147483647".to_owned()))
    );
    let limit = &list.params.iter().find(|p| p.wire == "limit").unwrap().constraints;
    assert_eq!(
        (limit.minimum.as_ref().map(ToString::to_string), limit.maximum.as_ref().map(ToString::to_string)),
        (Some("1".to_owned()), Some("100".to_owned()))
    );
}

#[test]
fn a_3_1_yaml_document_keeps_unions_type_lists_and_constants() {
    let (_dir, report, api) = import("fixtures/openapi/shapes-3.1.yaml");
    assert_eq!(report.summary.kept, 3);
    let listing = apigen::listing::types(&api).join("\n");
    assert_eq!(
        listing,
        "object Circle (2 fields)\nobject Drawing (5 fields)\nenum   GetDrawingFormat (closed: json, svg)\n\
         union  Shape (tag `kind`, closed: Circle, Square)\nunion  Size (untagged, closed: integer, string)\n\
         object Square (3 fields)"
    );
    let create = api.operations.iter().find(|op| op.name == "createDrawing").unwrap();
    assert_eq!(create.response.statuses().collect::<Vec<_>>(), [201, 200]);
    assert!(!create.auth.is_public(), "the API key is sent");
    let gaps: Vec<&str> = api.gaps.keys().map(String::as_str).collect();
    for id in ["callbacks", "exclusive-bounds", "response-headers", "schema-keywords", "webhooks"] {
        assert!(gaps.contains(&id), "{id} missing from {gaps:?}");
    }
}

#[test]
fn a_non_empty_directory_is_refused_unless_replaced_and_nothing_is_written_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("spec");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("mine.yaml"), "api: {}\n").unwrap();
    let error = apigen::import(Path::new("fixtures/openapi/petstore-3.0.json"), &out, false).unwrap_err();
    assert!(error.to_string().ends_with("is not empty: pass --replace to replace its content"), "{error}");
    assert!(out.join("mine.yaml").exists());
    apigen::import(Path::new("fixtures/openapi/petstore-3.0.json"), &out, true).unwrap();
    assert!(!out.join("mine.yaml").exists());
    let beside: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(beside, ["spec"]);
}

#[test]
fn documents_that_cannot_be_read_get_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("broken.json", "{\n  \"openapi\": \"3.0.0\",\n  \"paths\": {,}\n}", "broken.json:3:13: JSON syntax error"),
        ("broken.yaml", "openapi: 3.1.0\ninfo:\n  title: [x\n", "broken.yaml:4:1: YAML syntax error"),
        ("swagger.json", "{\"swagger\": \"2.0\"}", "this is a Swagger 2.0 document"),
        ("other.json", "{\"openapi\": \"4.0.0\"}", "OpenAPI 4.0.0 is not supported"),
    ];
    for (name, text, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let error = apigen::import(&path, &dir.path().join("out"), false).unwrap_err().to_string();
        assert!(error.contains(expected), "{name}: {error}");
    }
}

#[test]
fn invalid_schemas_and_references_to_nothing_are_gaps_not_failures() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Odd", "version": "1"},
        "paths": {"/things": {"get": {"operationId": "listThings", "responses": {"200": {
            "description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}},
        "components": {"schemas": {"Thing": {"type": "object", "properties": {
            "code": {"type": "string", "pattern": 0},
            "owner": {"$ref": "#/components/schemas/Nobody"},
            "range": {"type": "integer", "minimum": 10, "maximum": 1},
            "self": {"$ref": "#/components/schemas/Thing"}
        }}}}
    });
    let imported = apigen::import::import(&doc, "odd.json").unwrap();
    assert_eq!(
        imported.summary.line(),
        "1 of 1 operations kept, 0 of 0 parameters kept, 1 type, 4 gaps; gap places: broken-refs 1, contradictory-constraints 1, invalid-schemas 1, \
         unlisted-refusals 1"
    );
    let schemas = written(&imported, Some("schemas.yaml"));
    assert_eq!(
        schemas,
        "types:\n  Thing:\n    fields:\n      code: { type: string, optional: true, gaps: [invalid-schemas] }\n      \
         owner: { type: json, optional: true, gaps: [broken-refs] }\n      \
         range: { type: integer, optional: true, gaps: [contradictory-constraints] }\n      \
         self: { type: Thing, optional: true }\n"
    );
}

#[test]
fn required_names_the_properties_do_not_declare_are_required_fields_of_any_value() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Loose", "version": "1"},
        "paths": {"/things": {"get": {"operationId": "listThings", "responses": {"200": {
            "description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}},
        "components": {"schemas": {
            "Thing": {"type": "object", "required": ["id", "output"], "properties": {"id": {"type": "string"}}},
            "Counts": {"type": "object", "required": ["total"], "properties": {"id": {"type": "string"}},
                "additionalProperties": {"type": "integer"}},
            "Closed": {"type": "object", "required": ["gone"], "properties": {"id": {"type": "string"}},
                "additionalProperties": false},
            // A base requiring what the schema including it declares (Box's `...--Base`).
            "Base": {"type": "object", "required": ["segment"], "properties": {"id": {"type": "string"}}},
            "Mini": {"allOf": [{"$ref": "#/components/schemas/Base"},
                {"type": "object", "properties": {"segment": {"type": "string"}}}]}
        }}
    });
    let imported = apigen::import::import(&doc, "loose.json").unwrap();
    assert!(imported.summary.line().contains("undeclared-required 3"), "{}", imported.summary.line());
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(
        schemas.contains(
            "  Thing:\n    fields:\n      id: { type: string }\n      output: { type: json, nullable: true, gaps: [undeclared-required] }\n"
        ),
        "{schemas}"
    );
    assert!(schemas.contains("total: { type: integer, gaps: [undeclared-required] }"), "{schemas}");
    assert!(!schemas.contains("gone"), "additionalProperties: false leaves no room for `gone`: {schemas}");
    assert!(schemas.contains("  Base:\n    fields:\n      id: { type: string, optional: true }\n"), "{schemas}");
    let api = lint_imported(&imported, "the required names do not lint");
    // Any value fits `output`, `null` too: a request holding `"output": null` is not refused.
    let TypeKind::Object(thing) = &api.ty("Thing").kind else { panic!("Thing is an object") };
    assert!(thing.fields.iter().any(|f| f.wire == "output" && f.nullable));
}

#[test]
fn patterns_with_look_around_and_backreferences_are_kept_and_checked() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Names", "version": "1"},
        "paths": {},
        "components": {"schemas": {
            "Account": {"type": "object", "required": ["login", "code", "tag"], "properties": {
                // Walked (the look-ahead writes nothing), checked by the backtracking engine.
                "login": {"type": "string", "pattern": "^(?!\\s*$).+$"},
                // Not walked (the shortest walk misses the look-ahead): kept with its example.
                "code": {"type": "string", "pattern": "^(?=.*[0-9])[a-z0-9]{6}$", "example": "abc123"},
                // Neither engine reads it: a gap.
                "tag": {"type": "string", "pattern": "^[a-z(+$"}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "names.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(schemas.contains(r#"login: { type: string, pattern: "^(?!\\s*$).+$" }"#), "{schemas}");
    assert!(
        schemas.contains(r#"code: { type: string, pattern: "^(?=.*[0-9])[a-z0-9]{6}$", sample: abc123 }"#),
        "{schemas}"
    );
    assert!(schemas.contains("tag: { type: string, gaps: [patterns] }"), "{schemas}");
    let api = lint_imported(&imported, "the patterns do not lint");
    assert!(api.needs_backtracking_patterns(), "the types crate turns the backtracking engine on");
}

#[test]
fn unicode_class_patterns_are_kept_and_a_list_bodys_item_bounds_are_a_gap() {
    // AWS's tag keys (lookoutvision's `TagKey`, behind an `allOf` with a description): the
    // walk did not read `\p{..}`, so the pattern was dropped (gap `patterns`) and a tag value
    // of a control character accepted. A list body's item bounds (opto22's `int32` tables)
    // were dropped without a word.
    let tag = r"^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$";
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Tags", "version": "1"},
        "paths": {"/tables/{name}": {"post": {
            "operationId": "writeTable",
            "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
            "requestBody": {"required": true, "content": {"application/json": {"schema":
                {"type": "array", "items": {"type": "integer", "format": "int32", "maximum": 100}}}}},
            "responses": {"200": {"description": "ok"}}
        }}},
        "components": {"schemas": {
            "TagKey": {"type": "string", "pattern": tag, "minLength": 1, "maxLength": 128},
            "Tag": {"type": "object", "required": ["Key"], "properties": {
                "Key": {"allOf": [{"$ref": "#/components/schemas/TagKey"}, {"description": "The key."}]}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "tags.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(!schemas.contains("gaps: [patterns]"), "{schemas}");
    let api = lint_imported(&imported, "the tag pattern does not lint");
    let TypeKind::Object(object) = &api.ty("Tag").kind else { panic!("Tag is an object") };
    let key = object.fields.iter().find(|f| f.wire == "Key").unwrap();
    assert_eq!(key.constraints.pattern.as_deref(), Some(tag));
    let all = written(&imported, None);
    assert!(all.contains("gaps: [item-constraints]"), "{all}");
}

#[test]
fn pem_and_look_ahead_patterns_without_examples_are_kept_and_sampled_by_a_real_match() {
    // ACM's certificate body (line breaks by code, `\u000A`), and a look-ahead the shortest
    // walk misses: both were a gap `patterns` (the pattern dropped, the sample breaking it).
    let acm = r"-{5}BEGIN CERTIFICATE-{5}\u000D?\u000A([A-Za-z0-9/+]{64}\u000D?\u000A)*[A-Za-z0-9/+]{1,64}={0,2}\u000D?\u000A-{5}END CERTIFICATE-{5}(\u000D?\u000A)?";
    let pin = "^(?=.*[0-9])[a-z0-9]{6}$";
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Certificates", "version": "1"},
        "paths": {"/certificates": {"post": {"operationId": "importCertificate",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Import"}}}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {"Import": {"type": "object", "required": ["certificate", "pin"], "properties": {
            "certificate": {"type": "string", "minLength": 1, "maxLength": 32768, "pattern": acm},
            "pin": {"type": "string", "pattern": pin}
        }}}}
    });
    let imported = apigen::import::import(&doc, "certificates.json").unwrap();
    assert!(!imported.summary.line().contains("patterns"), "{}", imported.summary.line());
    let api = lint_imported(&imported, "the patterns do not lint");
    let op = api.operations.iter().find(|op| op.name == "importCertificate").unwrap();
    let body = apigen::model::sample::of_body(&api, op).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"certificate": "-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----", "pin": "000000"})
    );
    assert!(apigen::model::pattern::matches(acm, body["certificate"].as_str().unwrap()));
    assert!(apigen::model::pattern::matches(pin, body["pin"].as_str().unwrap()));
}

#[test]
fn a_one_of_without_discriminator_is_sampled_by_a_value_valid_as_exactly_one_variant() {
    // `Named` requires `name` and may have a `code`; `Coded` requires `code`. `Named`'s sample
    // (every field) holds a `code`, so it is valid as both (`Coded` is open to `name`):
    // OpenAPI's `oneOf` refuses it. `Coded`'s lacks `name`, so it is valid as it only.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Items", "version": "1"},
        "paths": {"/items": {"post": {"operationId": "createItem",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {
            "Item": {"oneOf": [{"$ref": "#/components/schemas/Named"}, {"$ref": "#/components/schemas/Coded"}]},
            "Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "code": {"type": "string"}}},
            "Coded": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "items.json").unwrap();
    let api = lint_imported(&imported, "the union does not lint");
    let op = api.operations.iter().find(|op| op.name == "createItem").unwrap();
    let body = apigen::model::sample::of_body(&api, op).unwrap();
    assert_eq!(body, serde_json::json!({"code": "code"}));
}

#[test]
fn an_optional_field_typed_json_is_left_out_of_samples() {
    // `from` is a oneOf of open objects without required fields: any object is valid as all
    // three, so the import types it `json` (gap union-overlaps), and a made-up `{"key":
    // "value"}` in the mock's answer broke the document's `oneOf` (dnd5eapi's OptionSet).
    // Left out, the answer is valid whatever the variants are.
    let variant = |name: &str| serde_json::json!({"type": "object", "properties": {name: {"type": "string"}}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Choices", "version": "1"},
        "paths": {"/choice": {"get": {"operationId": "getChoice",
            "responses": {"200": {"description": "one", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Choice"}}}}}}}},
        "components": {"schemas": {
            "Choice": {"type": "object", "properties": {
                "desc": {"type": "string"},
                "from": {"oneOf": [variant("options"), variant("category"), variant("resource")]}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "choices.json").unwrap();
    let spec: String = imported.files.iter().map(|(_, text)| text.as_str()).collect();
    assert!(spec.contains("from: { type: json, optional: true }") && spec.contains("union-overlaps"), "{spec}");
    let api = lint_imported(&imported, "the choice does not lint");
    let op = api.operations.iter().find(|op| op.name == "getChoice").unwrap();
    let answer = apigen::model::sample::of_response(&api, op).unwrap();
    assert_eq!(answer, serde_json::json!({"desc": "desc"}));
}

#[test]
fn property_counts_of_maps_and_unique_items_are_kept() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Counts", "version": "1"},
        "paths": {},
        "components": {"schemas": {
            // honeycode's RowDataInput: a map of one to 100 entries.
            "Row": {"type": "object", "minProperties": 1, "maxProperties": 100,
                "additionalProperties": {"type": "string", "maxLength": 5}},
            "Mail": {"type": "object", "required": ["rows", "categories", "tags", "emails", "meta"], "properties": {
                "rows": {"$ref": "#/components/schemas/Row"},
                // SendGrid's categories: unique strings.
                "categories": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
                // `minProperties: 0` says nothing.
                "tags": {"type": "object", "minProperties": 0, "additionalProperties": {"type": "string"}},
                // Several unique items asked for: apigen's samples repeat one item, so the gap stays.
                "emails": {"type": "array", "uniqueItems": true, "minItems": 2, "items": {"type": "string"}},
                // An object of properties cannot count them: the gap stays.
                "meta": {"type": "object", "maxProperties": 3, "properties": {"a": {"type": "string"}}}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "counts.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(schemas.contains("min_items: 1\n        max_items: 100\n"), "{schemas}");
    assert!(schemas.contains("categories: { type: list<string>, unique_items: true }"), "{schemas}");
    assert_eq!(schemas.matches("unique_items").count(), 1, "{schemas}");
    assert_eq!(schemas.matches("min_items: 0").count(), 0, "{schemas}");
    let line = imported.summary.line();
    assert!(line.contains("property-counts 1") && line.contains("unique-items 1"), "{line}");
    let api = lint_imported(&imported, "the counts do not lint");
    let TypeKind::Object(mail) = &api.ty("Mail").kind else { panic!("Mail is an object") };
    let rows = mail.fields.iter().find(|f| f.wire == "rows").unwrap();
    assert_eq!((rows.constraints.min_items, rows.constraints.max_items), (Some(1), Some(100)), "{rows:?}");
    let categories = mail.fields.iter().find(|f| f.wire == "categories").unwrap();
    assert!(categories.constraints.unique_items);
}

#[test]
fn a_map_that_may_not_be_empty_is_sampled_with_an_entry_at_any_depth() {
    // honeycode's batchCreateTableRows: rowsToCreate[].cellsToCreate, a map of objects with
    // `minProperties: 1`, deep enough that samples stop filling optional parts; Prism refused
    // the client's `{}`.
    let object = |name: &str, inner: serde_json::Value| serde_json::json!({"type": "object", "required": [name], "properties": {name: inner}});
    let cells = serde_json::json!({"type": "object", "minProperties": 1,
        "additionalProperties": {"$ref": "#/components/schemas/Cell"}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Rows", "version": "1"},
        "paths": {},
        "components": {"schemas": {
            "Cell": {"type": "object", "properties": {"fact": {"type": "string"}}},
            "Batch": object("a", object("b", object("c", object("d", object("cells", cells)))))
        }}
    });
    let imported = apigen::import::import(&doc, "rows.json").unwrap();
    let api = lint_imported(&imported, "the rows do not lint");
    let sample = apigen::model::sample::of_type(&api, "Batch");
    let cells = &sample["a"]["b"]["c"]["d"]["cells"];
    assert!(cells.as_object().is_some_and(|cells| cells.len() == 1), "{sample}");
}

#[test]
fn a_nullable_enumeration_not_listing_null_is_optional_without_null_and_required_with_it() {
    // telnyx's EncryptedMedia: `nullable: true` beside an `enum` without `null`, which OpenAPI
    // 3.0.3 lets the enumeration refuse.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Media", "version": "1"},
        "paths": {},
        "components": {"schemas": {
            "EncryptedMedia": {"type": "string", "nullable": true, "enum": ["SRTP", "ZRTP"]},
            "Connection": {"type": "object", "required": ["kept"], "properties": {
                "encrypted_media": {"$ref": "#/components/schemas/EncryptedMedia"},
                "routing": {"type": "string", "nullable": true, "enum": ["sequential", "round-robin"]},
                "listed": {"type": "string", "nullable": true, "enum": ["a", "b", null]},
                "kept": {"$ref": "#/components/schemas/EncryptedMedia"}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "media.json").unwrap();
    let api = lint_imported(&imported, "the enumerations do not lint");
    let TypeKind::Object(connection) = &api.ty("Connection").kind else { panic!("Connection is an object") };
    let nullable = |wire: &str| connection.fields.iter().find(|f| f.wire == wire).unwrap().nullable;
    // Optional: `null` refused in requests, read as absent in answers (the client is lenient).
    assert!(!nullable("encrypted_media") && !nullable("routing"));
    // Listed, or required (a `null` answer could not be read otherwise): nullable.
    assert!(nullable("listed") && nullable("kept"));
}

#[test]
fn constraints_on_list_items_are_kept_as_the_lists_item_constraints() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Topics", "version": "1"},
        "paths": {},
        "components": {"schemas": {
            "Repo": {"type": "object", "required": ["topics", "scores", "labels", "groups"], "properties": {
                "topics": {"type": "array", "maxItems": 20,
                    "items": {"type": "string", "maxLength": 50, "pattern": "^[a-z0-9-]+$"}},
                "scores": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 10}},
                // The values of a map (AWS's tag maps): their constraints are the map's `item:`.
                "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 5}},
                // Values the format cannot constrain (a list's own count) keep the gap.
                "groups": {"type": "object", "additionalProperties": {"type": "array", "maxItems": 2, "items": {"type": "string"}}}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "topics.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(
        schemas.contains(
            "      topics:\n        type: list<string>\n        item: { max_length: 50, pattern: \"^[a-z0-9-]+$\" }\n        max_items: 20\n"
        ),
        "{schemas}"
    );
    assert!(schemas.contains("        type: list<integer>\n        item: { minimum: 0, maximum: 10 }\n"), "{schemas}");
    assert!(schemas.contains("        type: map<string>\n        item: { max_length: 5 }\n"), "{schemas}");
    assert_eq!(schemas.matches("gaps: [item-constraints]").count(), 1, "only the map of lists keeps it: {schemas}");
    let api = lint_imported(&imported, "the item constraints do not lint");
    let TypeKind::Object(repo) = &api.ty("Repo").kind else { panic!("Repo is an object") };
    let topics = repo.fields.iter().find(|f| f.wire == "topics").unwrap();
    let item = topics.constraints.item.as_deref().expect("the items' constraints");
    assert_eq!((item.max_length, item.pattern.as_deref()), (Some(50), Some("^[a-z0-9-]+$")));
    let labels = repo.fields.iter().find(|f| f.wire == "labels").unwrap();
    assert_eq!(labels.constraints.item.as_deref().and_then(|c| c.max_length), Some(5), "the map's values");
}

#[test]
fn names_whose_rust_names_collide_keep_their_wire_names_and_take_rust_names_of_their_own() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Feeds", "version": "1"},
        "paths": {"/statements/{statementID}": {"get": {"operationId": "getStatement",
            "parameters": [
                {"name": "statementID", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "statementId", "in": "query", "required": true, "schema": {"type": "string"}},
                {"name": "body", "in": "query", "schema": {"type": "string"}},
                // A query parameter named like the path's (SendGrid's `list_id`): one of its own.
                {"name": "statementID", "in": "query", "schema": {"type": "integer"}}
            ],
            "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Statement"}}}}}}}},
        "components": {"schemas": {"Statement": {"type": "object", "additionalProperties": true, "properties": {
            "fooBar": {"type": "string"}, "foo_bar": {"type": "integer"}, "extra": {"type": "string"},
            "kept": {"type": "string", "x-rust-name": "held"},
            // A keyword's `_` is not doubled by the number (rudder's `type` beside `Type`).
            "type": {"type": "string"}, "Type": {"type": "string"}
        }}}}
    });
    let imported = apigen::import::import(&doc, "feeds.json").unwrap();
    assert!(
        imported.summary.line().starts_with("1 of 1 operations kept, 4 of 4 parameters kept"),
        "{}",
        imported.summary.line()
    );
    let api = lint_imported(&imported, "the renamed names do not lint");
    let op = api.operations.iter().find(|op| op.name == "getStatement").unwrap();
    let params: Vec<(&str, &str)> = op.params.iter().map(|p| (p.wire.as_str(), p.rust.as_str())).collect();
    let expected = [
        ("statementID", "statement_id"),
        ("statementId", "statement_id_2"),
        ("body", "body_2"),
        ("statementID", "statement_id_3"),
    ];
    assert_eq!(params, expected);
    let TypeKind::Object(object) = &api.ty("Statement").kind else { panic!("Statement is an object") };
    let fields: Vec<(&str, &str)> = object.fields.iter().map(|f| (f.wire.as_str(), f.rust.as_str())).collect();
    let expected = [
        ("fooBar", "foo_bar"),
        ("foo_bar", "foo_bar_2"),
        ("extra", "extra_2"),
        ("kept", "held"),
        ("type", "type_"),
        ("Type", "type_2"),
    ];
    assert_eq!(fields, expected);
}

#[test]
fn enumeration_values_whose_rust_names_collide_are_kept_under_names_of_their_own() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Cards", "version": "1"},
        "paths": {"/cards": {"get": {"operationId": "listCards", "responses": {"200": {"description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Card"}}}}}}}},
        "components": {"schemas": {"Card": {"type": "object", "properties": {
            // Stripe's `funding`: `unknown` is a value, not the catch-all.
            "funding": {"type": "string", "enum": ["credit", "unknown", "a-b", "a_b", "A.B"]},
            // openapi-generator's names for the values, as apigen's openapi.json writes them.
            "network": {"type": "string", "enum": ["visa", "VISA", "mc"],
                "x-enum-varnames": ["Visa", "VisaUpper", "master card"]},
            // Items of a list keep their names too (fec's, vercel's).
            "checks": {"type": "array", "items": {"type": "string", "enum": ["cvc-ok", "cvc_ok"]}},
            // Any JSON with a default the format cannot write as a literal (superset's).
            "extra": {"default": "none"}
        }}}}
    });
    let imported = apigen::import::import(&doc, "cards.json").unwrap();
    assert!(!imported.summary.line().contains("enum-value"), "{}", imported.summary.line());
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(
        schemas
            .contains("- a-b\n          - { value: a_b, rust_name: AB2 }\n          - { value: A.B, rust_name: AB3 }"),
        "{schemas}"
    );
    let api = lint_imported(&imported, "the renamed values do not lint");
    let variants = |name: &str| match &api.ty(name).kind {
        TypeKind::Enum(e) => (e.values.iter().map(|v| format!("{}={}", v.rust, v.wire)).collect::<Vec<_>>(), e.open),
        _ => panic!("{name} is an enumeration"),
    };
    assert_eq!(
        variants("CardFunding"),
        (
            vec!["Credit=credit".into(), "Unknown=unknown".into(), "AB=a-b".into(), "AB2=a_b".into(), "AB3=A.B".into()],
            false
        )
    );
    assert_eq!(
        variants("CardNetwork"),
        (vec!["Visa=visa".into(), "VisaUpper=VISA".into(), "MasterCard=mc".into()], false)
    );
    assert_eq!(variants("CardChecksItem"), (vec!["CvcOk=cvc-ok".into(), "CvcOk2=cvc_ok".into()], false));
}

#[test]
fn a_property_two_parts_of_an_all_of_give_keeps_what_both_say() {
    // sendgrid's message: the shared part says `format: email`, the operation's a pattern.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Messages", "version": "1"},
        "paths": {"/messages": {"get": {"operationId": "getMessage", "responses": {"200": {"description": "ok",
            "content": {"application/json": {"schema": {
                "allOf": [{"$ref": "#/components/schemas/Common"}],
                "type": "object",
                "properties": {"from_email": {"type": "string", "maxLength": 64}, "count": {"type": "integer"}}
            }}}}}}}},
        "components": {"schemas": {"Common": {"type": "object", "properties": {
            "from_email": {"type": "string", "format": "email"},
            "count": {"type": "string", "format": "date-time"}
        }}}}
    });
    let imported = apigen::import::import(&doc, "messages.json").unwrap();
    let api = lint_imported(&imported, "the messages do not lint");
    let op = api.operations.iter().find(|o| o.name == "getMessage").unwrap();
    let sample = apigen::model::sample::of_response(&api, op).unwrap();
    assert_eq!(sample["from_email"], "user@example.com", "the format of one part, the length of the other");
    assert_eq!(sample["count"], 1, "parts giving different types: the later one's, as before");
}

#[test]
fn an_object_of_optional_fields_past_the_sample_depth_keeps_a_scalar_field() {
    // mailscript's `Criteria` (`minProperties: 1`, every field optional), three levels down:
    // sampled `{}` it broke its own document.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Triggers", "version": "1"},
        "paths": {"/triggers": {"get": {"operationId": "getTriggers", "responses": {"200": {"description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Triggers"}}}}}}}},
        "components": {"schemas": {
            "Triggers": {"type": "object", "required": ["list"], "properties": {"list": {"type": "array", "items": {"$ref": "#/components/schemas/Trigger"}}}},
            "Trigger": {"type": "object", "required": ["criteria", "labels"], "properties": {
                "criteria": {"$ref": "#/components/schemas/Criteria"},
                "labels": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}}}},
            "Criteria": {"type": "object", "minProperties": 1, "properties": {
                "nested": {"$ref": "#/components/schemas/Criteria"}, "domain": {"type": "string"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "triggers.json").unwrap();
    let api = lint_imported(&imported, "the triggers do not lint");
    let op = api.operations.iter().find(|o| o.name == "getTriggers").unwrap();
    let sample = apigen::model::sample::of_response(&api, op).unwrap();
    let trigger = &sample["list"][0];
    assert_eq!(trigger["criteria"], serde_json::json!({"domain": "domain"}), "a scalar field, not the recursive one");
    assert_eq!(trigger["labels"], serde_json::json!({"key": "labels"}), "a map of scalars keeps an entry");
}

#[test]
fn an_object_in_a_urlencoded_form_without_deep_object_encoding_is_a_recorded_gap() {
    // nordigen's payment: `instructed_amount` an object, in a form with no `encoding`, which
    // OpenAPI's default writes as `amount=1&currency=EUR`; Stripe's says `deepObject`.
    let amount = serde_json::json!({"type": "object", "properties": {"amount": {"type": "string"}}});
    let form = |encoding: serde_json::Value| {
        serde_json::json!({"requestBody": {"content": {"application/x-www-form-urlencoded": {
            "schema": {"type": "object", "properties": {"instructed_amount": amount.clone(), "name": {"type": "string"}}},
            "encoding": encoding}}}, "responses": {"204": {"description": "done"}}})
    };
    let mut exploded = form(serde_json::json!({}));
    exploded["operationId"] = "pay".into();
    let mut deep = form(serde_json::json!({"instructed_amount": {"style": "deepObject", "explode": true}}));
    deep["operationId"] = "payDeep".into();
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Payments", "version": "1"},
        "paths": {"/payments": {"post": exploded}, "/deep": {"post": deep}}
    });
    let imported = apigen::import::import(&doc, "payments.json").unwrap();
    assert!(imported.summary.line().contains("form-objects 1"), "{}", imported.summary.line());
    lint_imported(&imported, "the payments do not lint");
    let ops = written(&imported, None);
    let body_gaps: Vec<&str> = ops.lines().filter(|l| l.trim_start().starts_with("gaps:")).collect();
    assert_eq!(body_gaps, ["      gaps: [form-objects]"], "on `pay`'s body only: {ops}");
}

#[test]
fn a_multipart_body_keeps_its_objects_as_json_parts_and_its_lists_of_files_with_their_counts() {
    // OpenAPI's `encoding` defaults: an object (or a list of objects) is one JSON part, a list
    // of files a part each; only `style: deepObject` sends an object in brackets.
    let upload = |encoding: serde_json::Value| {
        serde_json::json!({"requestBody": {"required": true, "content": {"multipart/form-data": {
            "schema": {"type": "object", "required": ["meta", "files"], "properties": {
                "meta": {"type": "object", "properties": {"title": {"type": "string"}}},
                "owners": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}},
                "note": {"type": "string"},
                "files": {"type": "array", "minItems": 2, "items": {"type": "string", "format": "binary"}}}},
            "encoding": encoding}}}, "responses": {"204": {"description": "done"}}})
    };
    let mut default = upload(serde_json::json!({}));
    default["operationId"] = "upload".into();
    // Brackets only where no file is (a form in brackets is decoded whole, without files).
    let mut deep = upload(serde_json::json!({"meta": {"style": "deepObject", "explode": true}}));
    deep["operationId"] = "uploadDeep".into();
    let schema = &mut deep["requestBody"]["content"]["multipart/form-data"]["schema"];
    schema["properties"].as_object_mut().unwrap().remove("files");
    schema["required"] = serde_json::json!(["meta"]);
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Uploads", "version": "1"},
        "paths": {"/uploads": {"post": default}, "/deep": {"post": deep}}
    });
    let imported = apigen::import::import(&doc, "uploads.json").unwrap();
    let api = lint_imported(&imported, "the uploads do not lint");
    let found: Vec<String> = api
        .operations
        .iter()
        .map(|op| {
            let body = op.body.as_ref().unwrap();
            let TypeKind::Object(object) = &api.ty(body.ty.named().unwrap()).kind else { panic!("an object") };
            let fields: Vec<String> = object
                .fields
                .iter()
                .map(|f| {
                    format!(
                        "{} {} json_part={} min_items={:?}",
                        f.wire,
                        f.ty,
                        api.json_part(&f.ty),
                        f.constraints.min_items
                    )
                })
                .collect();
            let bracketed = body.bracketed(&api, apigen::model::Encoding::Multipart);
            format!("{}: bracketed={bracketed} {}", op.name, fields.join(", "))
        })
        .collect();
    assert_eq!(
        found,
        [
            "uploadDeep: bracketed=true meta UploadBodyMeta json_part=true min_items=None, \
             owners list<UploadDeepBodyOwnersItem> json_part=true min_items=None, note string json_part=false min_items=None",
            "upload: bracketed=false meta UploadBodyMeta json_part=true min_items=None, \
             owners list<UploadBodyOwnersItem> json_part=true min_items=None, note string json_part=false min_items=None, \
             files list<file> json_part=false min_items=Some(2)",
        ]
    );
}

#[test]
fn a_closed_base_closes_the_objects_that_include_it() {
    // Azure's `ResourceReference` (`additionalProperties: false`) under `ConnectionGatewayReference`:
    // by JSON Schema the base refuses every property it does not list, in the whole object.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Gateways", "version": "1"},
        "paths": {"/gateways": {"put": {"operationId": "putGateway",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/GatewayReference"}}}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {
            "ResourceReference": {"type": "object", "additionalProperties": false, "properties": {"id": {"type": "string"}}},
            "GatewayReference": {"type": "object", "allOf": [{"$ref": "#/components/schemas/ResourceReference"}],
                "properties": {"name": {"type": "string"}}},
            "Open": {"type": "object", "properties": {"id": {"type": "string"}}},
            "OpenReference": {"type": "object", "allOf": [{"$ref": "#/components/schemas/Open"}],
                "properties": {"name": {"type": "string"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "gateways.json").unwrap();
    let api = lint_imported(&imported, "the gateways do not lint");
    let ignores = |name: &str| match &api.ty(name).kind {
        TypeKind::Object(object) => (object.ignores_unknown, object.includes.clone()),
        _ => panic!("{name} is an object"),
    };
    assert_eq!(ignores("GatewayReference"), (false, vec!["ResourceReference".to_owned()]));
    assert_eq!(ignores("OpenReference"), (true, vec!["Open".to_owned()]), "an open base leaves it open");
}

#[test]
fn an_azure_enumeration_that_may_grow_is_closed_to_requests_as_its_schema_says() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Gateways", "version": "1"},
        "paths": {"/gateways": {"put": {"operationId": "putGateway",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Sku"}}}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {"Sku": {"type": "object", "properties": {"name": {
            "type": "string", "enum": ["Standard"], "x-ms-enum": {"name": "SkuName", "modelAsString": true}
        }}}}}
    });
    let imported = apigen::import::import(&doc, "gateways.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(schemas.contains("name: { optional: true, open: false, enum: [Standard] }"), "{schemas}");
}

#[test]
fn overlapping_variants_each_holding_one_constant_of_a_field_are_tagged_by_it() {
    let kind = |value: &str| serde_json::json!({"type": "string", "enum": [value]});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Verifications", "version": "1"},
        "paths": {"/verifications": {
            "post": {"operationId": "addVerification",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/AddEmail"}}}},
                "responses": {"204": {"description": "done"}}},
            "get": {"operationId": "listVerifications", "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"type": "array", "items": {"oneOf": [
                    {"$ref": "#/components/schemas/Email"}, {"$ref": "#/components/schemas/Sms"}
                ]}}}}}}}
        }},
        "components": {"schemas": {
            // Met first: `Email.type` shares its inline shape.
            "AddEmail": {"type": "object", "properties": {"type": kind("email"), "email": {"type": "string"}}},
            "Email": {"type": "object", "properties": {"type": kind("email"), "email": {"type": "string"}}},
            "Sms": {"type": "object", "properties": {"type": kind("sms"), "sms": {"type": "string"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "verifications.json").unwrap();
    assert!(imported.summary.line().contains("implicit-tags 1"), "{}", imported.summary.line());
    assert!(!imported.summary.line().contains("union-overlaps"), "{}", imported.summary.line());
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(schemas.contains("union: { tag: type, variants: [Email, Sms], open: false }"), "{schemas}");
    assert!(schemas.contains("  Sms:\n    fields:\n      type: { const: sms }\n"), "{schemas}");
    assert!(schemas.contains("  Email:\n    fields:\n      type: { const: email }\n"), "{schemas}");
}

#[test]
fn a_list_whose_items_have_constraints_the_format_cannot_keep_gets_a_sample_fitting_them() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Rows", "version": "1"},
        "paths": {"/rows": {"post": {"operationId": "deleteRows",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Rows"}}}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {"Rows": {"type": "object", "properties": {
            "rowIds": {"type": "array", "minItems": 2, "items": {
                "type": "string", "minLength": 8, "maxLength": 8, "pattern": "^row:[0-9]{4}$"}},
            "edges": {"type": "array", "items": {"type": "array", "minItems": 2, "items": {"type": "string"}}},
            "cells": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 5}},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "example": ["a", "b"]},
            // Defaults of lists and maps are not literals the format writes: left out.
            "decode": {"type": "object", "additionalProperties": true, "default": {"a": 1}},
            "ids": {"type": "array", "items": {"type": "integer"}, "default": [1]}
        }}}}
    });
    let imported = apigen::import::import(&doc, "rows.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    for expected in
        ["sample: [\"row:0000\", \"row:0000\"]", "sample: [[item, item]]", "sample: { key: 5 }", "sample: [a, b]"]
    {
        assert!(schemas.contains(expected), "{expected} in {schemas}");
    }
    lint_imported(&imported, "the samples do not lint");
}

#[test]
fn a_list_body_or_answer_whose_items_have_constraints_is_sampled_with_items_fitting_them() {
    // sendgrid's `PUT /subusers/{name}/ips` takes a list of IPv4 addresses; GitHub's
    // `GET /versions` answers a list of dates.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Ips", "version": "1"},
        "paths": {"/ips": {
            "put": {"operationId": "putIps",
                // An example that is no list (xero's is a string holding JSON) is left out.
                "requestBody": {"content": {"application/json": {"schema": {"type": "array",
                    "items": {"type": "string", "format": "ipv4"}, "example": "[\"1.2.3.4\"]"}}}},
                "responses": {"204": {"description": "done"}}},
            "get": {"operationId": "getVersions",
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                    "type": "array", "items": {"type": "string", "format": "date"}}}}}}}}}
    });
    let imported = apigen::import::import(&doc, "ips.json").unwrap();
    let api = lint_imported(&imported, "the list samples do not lint");
    let op = |name: &str| api.operations.iter().find(|op| op.name == name).unwrap();
    let body = apigen::model::sample::of_body(&api, op("putIps")).unwrap();
    let ip = body[0].as_str().unwrap();
    assert!(ip.parse::<std::net::Ipv4Addr>().is_ok(), "{body}");
    let answer = apigen::model::sample::of_response(&api, op("getVersions")).unwrap();
    let date = answer[0].as_str().unwrap();
    assert!(apigen_runtime::chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok(), "{answer}");
}

#[test]
fn a_scalar_parameter_given_as_text_content_is_the_value_checked_as_its_schema_says() {
    // telnyx's `GET /reports/batch_mdr_reports/{id}`: `content: {"*/*": {schema: uuid}}`.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Reports", "version": "1"},
        "paths": {"/reports/{id}": {"get": {"operationId": "getReport",
            "parameters": [{"name": "id", "in": "path", "required": true,
                "content": {"*/*": {"schema": {"type": "string", "format": "uuid"}}}},
                {"name": "q", "in": "query", "content": {"text/plain": {"schema": {"type": "integer"}}}}],
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "reports.json").unwrap();
    assert!(
        imported.summary.line().starts_with("1 of 1 operations kept, 2 of 2 parameters kept"),
        "{}",
        imported.summary.line()
    );
    let api = lint_imported(&imported, "the content parameters do not lint");
    let op = api.operations.iter().find(|op| op.name == "getReport").unwrap();
    let params: Vec<String> =
        op.params.iter().map(|p| format!("{} {} {:?}", p.wire, p.ty, p.constraints.format)).collect();
    assert_eq!(params, ["id string Some(Uuid)", "q integer None"]);
}

#[test]
fn format_uri_is_a_url_and_format_url_which_json_schema_does_not_define_is_text_sampled_as_one() {
    // telnyx's `webhook_url`: `format: url` with `default: ""`.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Hooks", "version": "1"},
        "paths": {"/hooks": {"post": {"operationId": "createHook",
            "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
                "webhook_url": {"type": "string", "format": "url", "default": ""},
                "callback": {"type": "string", "format": "uri"},
                "media_urls": {"type": "array", "items": {"type": "string", "format": "url"}},
                "interval": {"type": "string", "format": "duration"},
                "home": {"type": "string", "format": "iri"},
                "at": {"type": "string", "format": "json-pointer"},
                "short": {"type": "string", "format": "duration", "maxLength": 2}
            }}}}},
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "hooks.json").unwrap();
    let api = lint_imported(&imported, "the URL fields do not lint");
    let body = api.ty("CreateHookBody");
    let TypeKind::Object(object) = &body.kind else { panic!("an object") };
    let fields: Vec<String> = object.fields.iter().map(|f| format!("{} {} {:?}", f.wire, f.ty, f.default)).collect();
    assert_eq!(
        fields[..3],
        ["webhook_url string Some(String(\"\"))", "callback url None", "media_urls list<string> None"]
    );
    let op = api.operations.iter().find(|op| op.name == "createHook").unwrap();
    let sample = apigen::model::sample::of_body(&api, op).unwrap();
    assert_eq!(sample["webhook_url"], "https://example.com/", "sampled as a URL, which Prism checks");
    assert_eq!(sample["media_urls"], serde_json::json!(["https://example.com/"]), "items too");
    // Formats the format keeps as text, which judges check: not the field's name.
    let formats = ["interval", "home", "at", "short"].map(|name| sample[name].clone());
    assert_eq!(formats, ["P1D", "https://example.com/", "/", "sh"].map(serde_json::Value::from));
}

#[test]
fn error_responses_given_only_as_text_are_a_recorded_gap() {
    // pinecone's `POST /collections`: its 400 is `text/plain`; the router's refusals are JSON.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Vectors", "version": "1"},
        "paths": {"/collections": {"post": {"operationId": "createCollection",
            "responses": {"201": {"description": "made"},
                "400": {"description": "bad", "content": {"text/plain": {"schema": {"type": "string"}}}},
                "500": {"description": "broken", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}
    });
    let imported = apigen::import::import(&doc, "vectors.json").unwrap();
    assert!(imported.summary.line().contains("error-media 1"), "{}", imported.summary.line());
    let api_yaml = written(&imported, Some("api.yaml"));
    assert!(api_yaml.contains("/paths/~1collections/post/responses/400"), "{api_yaml}");
    lint_imported(&imported, "the gap does not lint");
}

#[test]
fn a_path_list_of_numbers_is_kept_as_a_list_whose_items_travel_comma_separated() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Apps", "version": "1"},
        "paths": {"/apps/{ID}": {"get": {"operationId": "getApps",
            "parameters": [{"in": "path", "name": "ID", "required": true, "style": "simple", "schema": {
                "type": "array", "maxItems": 100, "items": {"type": "integer", "format": "int32", "minimum": 3}}}],
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "apps.json").unwrap();
    let ops = written(&imported, None);
    // The items' bounds (int32's too) are the list's `item:` constraints, checked on each item.
    let expected = "      - name: ID\n        in: path\n        type: list<integer>\n        item: { minimum: 3, maximum: 2147483647 }\n        max_items: 100\n        sample: [3]\n";
    assert!(ops.contains(expected), "{ops}");
    let api = lint_imported(&imported, "the apps do not lint");
    assert_eq!(api.operations[0].params[0].ty, apigen::model::TypeRef::List(Box::new(apigen::model::TypeRef::Integer)));
}

#[test]
fn a_number_of_an_integer_format_is_a_number_sampled_whole() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Spaces", "version": "1"},
        "paths": {"/spaces": {"get": {"operationId": "getSpaces",
            "parameters": [{"in": "query", "name": "numberOfResults", "schema": {
                "type": "number", "format": "int32", "minimum": 0, "maximum": 255}}],
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "spaces.json").unwrap();
    let ops = written(&imported, None);
    // JSON Schema's reading (schemathesis sends 251.66 as valid): a number, its bounds the
    // document's; the sample whole, as Prism's reading of the format asks of what the client sends.
    let expected = "name: numberOfResults\n        in: query\n        type: number\n        minimum: 0.0\n        maximum: 255.0\n        sample: 1\n        gaps: [number-as-integer]\n";
    assert!(ops.contains(expected), "{ops}");
    assert!(imported.summary.line().contains("number-as-integer 1"), "{}", imported.summary.line());
}

#[test]
fn a_number_enumeration_of_whole_numbers_is_one_of_integers_and_another_is_sampled_from_its_values() {
    let param = |name: &str, values: serde_json::Value| serde_json::json!({"in": "query", "name": name, "schema": {"type": "number", "enum": values}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Facilities", "version": "1"},
        "paths": {"/facilities": {"get": {"operationId": "getFacilities",
            "parameters": [param("years", serde_json::json!([1, 2, 5])), param("ratio", serde_json::json!([2.5, 0.5]))],
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "facilities.json").unwrap();
    let ops = written(&imported, None);
    assert!(ops.contains("{ name: years, in: query, open: false, enum: [1, 2, 5] }"), "{ops}");
    assert!(ops.contains("{ name: ratio, in: query, type: number, sample: 2.5, gaps: [non-string-enums] }"), "{ops}");
}

#[test]
fn a_type_beside_an_all_of_of_another_type_gives_way_to_the_all_of() {
    // Lyft's `ride_profile`: `type: object` beside an allOf of a string enumeration. No value
    // is both; it was typed `map<json>`, and the mock answered `{}` where the document's
    // examples say "personal". An integer beside `type: number` is no contradiction.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Rides", "version": "1"},
        "paths": {"/rides/{id}": {"get": {"operationId": "getRide",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ride"}}}}}}}},
        "components": {"schemas": {
            "ProfileEnum": {"type": "string", "enum": ["personal", "business"], "description": "The profile."},
            "Count": {"type": "integer", "minimum": 1},
            "Ride": {"type": "object", "required": ["profile", "seats"], "properties": {
                "profile": {"allOf": [{"$ref": "#/components/schemas/ProfileEnum"}], "type": "object", "description": "Which profile."},
                "seats": {"allOf": [{"$ref": "#/components/schemas/Count"}], "type": "number", "maximum": 6}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "rides.json").unwrap();
    let types = written(&imported, Some("schemas.yaml"));
    assert!(
        types.contains("profile: { type: ProfileEnum, description: Which profile., gaps: [contradicting-types] }"),
        "{types}"
    );
    assert!(types.contains("seats: { type: number, minimum: 1.0, maximum: 6.0 }"), "{types}");
    assert!(imported.summary.line().contains("contradicting-types 1"), "{}", imported.summary.line());
    lint_imported(&imported, "rides.json");
}

#[test]
fn accept_content_type_and_authorization_header_parameters_are_ignored_as_openapi_says() {
    // OpenAPI 3: such a parameter definition SHALL be ignored, in any case of its name.
    let header = |name: &str, sample: &str| {
        serde_json::json!({"in": "header", "name": name, "required": true,
            "schema": {"type": "string", "enum": [sample]}})
    };
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Orders", "version": "1"},
        "paths": {"/orders": {
            "get": {"operationId": "getOrders",
                "parameters": [header("Content-Type", "application/json"), header("accept", "application/json"),
                    header("AUTHORIZATION", "Bearer abc"), header("X-Trace", "t-1")],
                "responses": {"204": {"description": "done"}}},
            "post": {"operationId": "createOrder", "parameters": [header("Content-Type", "application/json")],
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"204": {"description": "done"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "orders.json").unwrap();
    let ops = "\
tag: orders

operations:
  getOrders:
    method: GET
    path: /orders
    summary: GET /orders
    params:
      - { name: X-Trace, in: header, required: true, open: false, enum: [t-1] }
    response: { status: 204, description: done }
    auth: none
    gaps: [ignored-header-params]
  createOrder:
    method: POST
    path: /orders
    summary: POST /orders
    body: { type: map<json>, optional: true }
    response: { status: 204, description: done }
    auth: none
    gaps: [ignored-header-params]
";
    assert_eq!(written(&imported, None), ops);
    let line = imported.summary.line();
    assert!(line.contains("2 of 2 operations kept, 1 of 5 parameters kept"), "{line}");
    assert!(line.contains("ignored-header-params 4"), "{line}");
    let api = lint_imported(&imported, "the orders do not lint");
    let params = |op: &str| -> Vec<String> {
        let op = api.operations.iter().find(|o| o.name == op).unwrap();
        op.params.iter().map(|p| format!("{} {} required={}", p.location.as_str(), p.wire, p.required)).collect()
    };
    // Neither the client's arguments nor the router's checks ask for them.
    assert_eq!(params("getOrders"), ["header X-Trace required=true"]);
    assert!(params("createOrder").is_empty(), "the body's media type is its Content-Type");
    assert!(api.operations.iter().all(|op| op.auth.is_public()), "an ignored Authorization asks for no credential");
}

#[test]
fn a_delete_keeps_its_body_and_a_get_leaves_its_body_out() {
    let body = serde_json::json!({"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {
        "type": "object", "required": ["moderators"],
        "properties": {"moderators": {"type": "array", "items": {"type": "string"}}}}}}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Moderators", "version": "1"},
        "paths": {"/moderators": {
            "delete": {"operationId": "removeModerators", "requestBody": body.clone(),
                "responses": {"204": {"description": "done"}}},
            "get": {"operationId": "findModerators", "requestBody": body,
                "responses": {"204": {"description": "done"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "moderators.json").unwrap();
    assert!(imported.summary.line().contains("bodies-on-get-delete 1"), "{}", imported.summary.line());
    let api = lint_imported(&imported, "the moderators do not lint");
    let has_body = |name: &str| api.operations.iter().find(|o| o.name == name).unwrap().body.is_some();
    assert!(has_body("removeModerators") && !has_body("findModerators"));
}

#[test]
fn a_head_answer_keeps_the_media_type_of_the_body_it_leaves_out() {
    let ok = |content: serde_json::Value| serde_json::json!({"200": {"description": "ok", "content": content}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Proxies", "version": "1"},
        "paths": {
            "/any/{name}": {"head": {"operationId": "headAny", "parameters": [
                {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": ok(serde_json::json!({"*/*": {"schema": {"type": "string"}}}))}},
            "/file": {"head": {"operationId": "headFile",
                "responses": ok(serde_json::json!({"application/pdf": {"schema": {"type": "string", "format": "binary"}}}))}},
            "/none": {"head": {"operationId": "headNone", "responses": {"200": {"description": "ok"}}}}
        }
    });
    let imported = apigen::import::import(&doc, "proxies.json").unwrap();
    let api = lint_imported(&imported, "the proxies do not lint");
    let media = |name: &str| api.operations.iter().find(|o| o.name == name).unwrap().response.media_types.clone();
    // A media range is answered as JSON, as the GET would; a file in its own media type.
    assert_eq!(media("headAny"), ["application/json"]);
    assert_eq!(media("headFile"), ["application/pdf"]);
    assert!(media("headNone").is_empty(), "no body, no media type");
}

#[test]
fn an_upload_keeps_every_media_type_the_document_gives_and_the_rest_are_alternatives() {
    let binary = serde_json::json!({"schema": {"type": "string", "format": "binary"}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Lockers", "version": "1"},
        "paths": {
            "/upload": {"post": {"operationId": "upload", "requestBody": {"content": {
                "application/octet-stream": {"schema": {"properties": {"Content-Type": {"type": "string"}}}},
                "image/png": binary.clone(), "image/jpeg": binary.clone()}},
                "responses": {"204": {"description": "done"}}}},
            "/note": {"post": {"operationId": "note", "requestBody": {"content": {
                "text/plain": {"schema": {"type": "string"}}, "image/png": binary}},
                "responses": {"204": {"description": "done"}}}}
        }
    });
    let imported = apigen::import::import(&doc, "lockers.json").unwrap();
    let api = lint_imported(&imported, "the lockers do not lint");
    let body = |name: &str| {
        let op = api.operations.iter().find(|o| o.name == name).unwrap();
        let body = op.body.as_ref().unwrap();
        (body.ty.to_string(), body.media_types.clone())
    };
    assert_eq!(
        body("upload"),
        ("bytes".into(), vec!["application/octet-stream".into(), "image/png".into(), "image/jpeg".into()])
    );
    // Text is the first media type's; the image beside it is an alternative of raw bytes.
    assert_eq!(body("note"), ("string".into(), vec!["text/plain".into()]));
    let note = api.operations.iter().find(|o| o.name == "note").unwrap().body.clone().unwrap();
    let alternatives: Vec<(String, Vec<String>)> =
        note.alternatives.iter().map(|a| (a.ty.to_string(), a.media_types.clone())).collect();
    assert_eq!(alternatives, [("bytes".to_owned(), vec!["image/png".to_owned()])]);
    assert!(!imported.summary.line().contains("request-media-alternatives"), "{}", imported.summary.line());
}

#[test]
fn an_xml_response_is_answered_and_read_as_raw_bytes() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Certificates", "version": "1"},
        "paths": {"/certificate": {"post": {"operationId": "getCertificate",
            "responses": {"200": {"description": "The certificate, in PDF or XML.", "content": {
                "application/pdf": {"example": "a PDF"},
                "application/xml": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}
            }}}}}}
    });
    let imported = apigen::import::import(&doc, "certificates.json").unwrap();
    assert!(imported.summary.line().contains("xml-responses 1"), "{}", imported.summary.line());
    let ops = written(&imported, None);
    assert!(ops.contains("type: bytes\n      media_type: [application/pdf, application/xml]"), "{ops}");
}

#[test]
fn a_response_given_only_as_a_media_range_is_raw_bytes_in_that_range_never_empty() {
    let answer = |content: serde_json::Value| serde_json::json!({"get": {"responses": {"200": {"description": "it", "content": content}}}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Media", "version": "1"},
        "paths": {
            "/image": answer(serde_json::json!({"image/*": {"schema": {"type": "string", "format": "binary"}}})),
            "/stream": answer(serde_json::json!({"audio/*": {}, "video/*": {}})),
            // A lone `*` is `*/*`; a binary schema under `*/*` is bytes, not a JSON string.
            "/any": answer(serde_json::json!({"*": {}})),
            "/file": answer(serde_json::json!({"*/*": {"schema": {"type": "string", "format": "binary"}}})),
            // `*/*` over a typed schema stays JSON, as converted Swagger documents mean it.
            "/json": answer(serde_json::json!({"*/*": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}})),
        }
    });
    let imported = apigen::import::import(&doc, "media.json").unwrap();
    let api = lint_imported(&imported, "the media ranges do not lint");
    assert!(!imported.summary.line().contains("non-json-responses"), "{}", imported.summary.line());
    let answered = |path: &str| {
        let op = api.operations.iter().find(|o| o.path.raw == path).unwrap();
        let ty = match &op.response.body {
            ResponseBody::Value(ty) => ty.to_string(),
            other => format!("{other:?}"),
        };
        (ty, op.response.media_types.clone())
    };
    assert_eq!(answered("/image"), ("bytes".into(), vec!["image/*".to_owned()]));
    assert_eq!(answered("/stream"), ("bytes".into(), vec!["audio/*".to_owned(), "video/*".to_owned()]));
    assert_eq!(answered("/any"), ("bytes".into(), vec!["*/*".to_owned()]));
    assert_eq!(answered("/file"), ("bytes".into(), vec!["*/*".to_owned()]));
    assert_eq!(answered("/json").1, vec!["application/json".to_owned()]);
}

#[test]
fn a_parts_declared_content_type_is_kept_and_its_headers_are_a_gap() {
    let binary = serde_json::json!({"type": "string", "format": "binary"});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Avatars", "version": "1"},
        "paths": {"/avatar": {"post": {"operationId": "pickAvatar",
            "requestBody": {"required": true, "content": {"multipart/form-data": {
                "schema": {"type": "object", "required": ["avatarfile"], "properties": {
                    "avatarfile": binary, "options": {"type": "string"}, "banner": binary}},
                // PeerTube's list, pdfbroker's JSON text part, a range with headers the
                // format does not keep.
                "encoding": {
                    "avatarfile": {"contentType": "image/png, image/jpeg"},
                    "options": {"contentType": "application/json"},
                    "banner": {"contentType": "image/*", "headers": {"X-Rate": {"schema": {"type": "integer"}}}}
                }}}},
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "avatars.json").unwrap();
    let api = lint_imported(&imported, "the avatars do not lint");
    assert!(imported.summary.line().contains("part-encoding 1"), "{}", imported.summary.line());
    let op = api.operations.iter().find(|o| o.name == "pickAvatar").unwrap();
    let apigen::model::TypeRef::Named(name) = &op.body.as_ref().unwrap().ty else { panic!("an object body") };
    let TypeKind::Object(object) = &api.types[name].kind else { panic!("an object") };
    let declared: Vec<(String, Vec<String>)> =
        object.fields.iter().map(|f| (f.wire.clone(), f.media_types.clone())).collect();
    let strings = |list: &[&str]| list.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    assert_eq!(
        declared,
        [
            ("avatarfile".into(), strings(&["image/png", "image/jpeg"])),
            ("options".into(), strings(&["application/json"])),
            ("banner".into(), strings(&["image/*"])),
        ]
    );
}

#[test]
fn a_forms_typed_additional_properties_are_kept_in_extra_not_ignored() {
    let form = |media: &str, properties: serde_json::Value| {
        serde_json::json!({"post": {
            "requestBody": {"required": true, "content": {media: {"schema": {"type": "object",
                "properties": properties, "additionalProperties": {"type": "integer", "minimum": 0}}}}},
            "responses": {"204": {"description": "done"}}}})
    };
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Tallies", "version": "1"},
        "paths": {
            "/tallies": form("application/x-www-form-urlencoded", serde_json::json!({"name": {"type": "string"}})),
            "/counts": form("multipart/form-data", serde_json::json!({"name": {"type": "string"}})),
        }
    });
    let imported = apigen::import::import(&doc, "tallies.json").unwrap();
    let api = lint_imported(&imported, "the tallies do not lint");
    for path in ["/tallies", "/counts"] {
        let op = api.operations.iter().find(|o| o.path.raw == path).unwrap();
        let Some(apigen::model::TypeRef::Named(name)) = op.body.as_ref().map(|b| &b.ty) else { panic!("a body") };
        let TypeKind::Object(object) = &api.types[name].kind else { panic!("an object") };
        assert_eq!(object.additional, Some(apigen::model::TypeRef::Integer), "{path}");
        assert!(!object.ignores_unknown, "{path}");
    }
}

#[test]
fn a_shared_parameter_renamed_in_one_operation_is_inline_there_and_shared_elsewhere() {
    let count = serde_json::json!({"$ref": "#/components/parameters/count"});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Counts", "version": "1"},
        "paths": {
            "/a": {"get": {"operationId": "listA", "parameters": [count.clone()],
                "responses": {"204": {"description": "done"}}}},
            // Graph's `count` beside `$count`: the shared one takes `count_2` here.
            "/b": {"get": {"operationId": "listB", "parameters": [
                {"name": "count", "in": "query", "schema": {"type": "integer"}}, count],
                "responses": {"204": {"description": "done"}}}}
        },
        "components": {"parameters": {"count": {"name": "$count", "in": "query", "schema": {"type": "boolean"}}}}
    });
    let imported = apigen::import::import(&doc, "counts.json").unwrap();
    let api = lint_imported(&imported, "the counts do not lint");
    let rust = |op: &str| -> Vec<String> {
        let op = api.operations.iter().find(|o| o.name == op).unwrap();
        op.params.iter().map(|p| format!("{} {}", p.wire, p.rust)).collect()
    };
    assert_eq!(rust("listA"), ["$count count"]);
    assert_eq!(rust("listB"), ["count count", "$count count_2"]);
}

#[test]
fn an_inline_shape_met_twice_is_declared_once_with_its_constraints() {
    let body = |op: &str| {
        serde_json::json!({"operationId": op, "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "required": ["kind"], "properties": {
                "kind": {"type": "string", "maxLength": 5000, "enum": ["eu_vat", "us_ein"]},
                "owner": {"type": "object", "properties": {"name": {"type": "string"}}}
            }}}}},
            "responses": {"204": {"description": "done"}}})
    };
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Taxes", "version": "1"},
        // The shape is declared in z.yaml and named from a.yaml, read first.
        "paths": {"/z": {"post": body("createZ")}, "/a": {"post": body("createA")}}
    });
    let imported = apigen::import::import(&doc, "taxes.json").unwrap();
    assert_eq!(imported.shared_shapes, 2, "createA's kind and owner name createZ's");
    let api = lint_imported(&imported, "the shared shapes do not lint");
    let listing = apigen::listing::types(&api).join("\n");
    assert_eq!(
        listing,
        "object CreateABody (2 fields)\nobject CreateZBody (2 fields)\n\
         enum   CreateZBodyKind (closed: eu_vat, us_ein)\nobject CreateZBodyOwner (1 fields)"
    );
}

#[test]
fn a_body_of_a_shape_the_format_cannot_type_is_sampled_with_the_documents_example_both_ways() {
    // GitHub's `issues/add-labels`: an object or a list, of names or of objects. A made-up
    // `{"key": "value"}` fits two object variants, which `oneOf` refuses.
    let labels = serde_json::json!({"oneOf": [
        {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}},
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "properties": {"labels": {"type": "array",
            "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}
    ]});
    let op = |id: &str, content: serde_json::Value| {
        serde_json::json!({"operationId": id, "requestBody": {"content": {"application/json": content}},
            "responses": {"204": {"description": "done"}}})
    };
    let example = serde_json::json!({"$ref": "#/components/examples/labels"});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Labels", "version": "1"},
        "paths": {
            "/add": {"post": op("addLabels", serde_json::json!({"schema": labels, "examples": {"default": example}}))},
            "/set": {"put": op("setLabels", serde_json::json!({"schema": labels, "example": ["bug"]}))},
            "/other": {"put": op("putOther", serde_json::json!({"schema": labels}))},
            "/meta": {"put": op("putMeta", serde_json::json!({"schema": {"$ref": "#/components/schemas/Meta"}}))},
            // A response of that shape: the mock answers the document's example.
            "/labels": {"get": {"operationId": "getLabels", "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": labels, "example": ["wontfix"]}}}}}}
        },
        "components": {
            "examples": {"labels": {"value": {"labels": ["bug", "enhancement"]}}},
            // A field of any JSON keeps its example too.
            // The object's own example gives the value of a field that ends up `json`, even one
            // named like a key holding data (`default`).
            "schemas": {"Meta": {"type": "object", "example": {"default": {"labels": ["x"]}}, "properties": {
                "default": labels,
                "extra": {"example": {"a": [1]}},
                // GitHub's gist files: a map of a union that turns out `json` once settled.
                "files": {"type": "object", "example": {"a.rb": {"content": "x"}}, "additionalProperties": {
                    "type": "object", "properties": {"content": {"type": "string"}},
                    "anyOf": [{"required": ["content"]}, {"maxProperties": 0, "type": "object"}]}}}}}
        }
    });
    let imported = apigen::import::import(&doc, "labels.json").unwrap();
    let api = lint_imported(&imported, "a json body with a sample does not lint");
    let sample = |name: &str| {
        let op = api.operations.iter().find(|op| op.name == name).unwrap();
        apigen::model::sample::of_body(&api, op).unwrap()
    };
    assert_eq!(sample("addLabels"), serde_json::json!({"labels": ["bug", "enhancement"]}));
    assert_eq!(sample("setLabels"), serde_json::json!(["bug"]));
    assert_eq!(sample("putOther"), serde_json::json!({"key": "value"}), "no example: made up");
    let meta =
        serde_json::json!({"default": {"labels": ["x"]}, "extra": {"a": [1]}, "files": {"a.rb": {"content": "x"}}});
    assert_eq!(sample("putMeta"), meta);
    assert!(!imported.summary.line().contains("examples"), "{}", imported.summary.line());
    let get = api.operations.iter().find(|op| op.name == "getLabels").unwrap();
    assert_eq!(apigen::model::sample::of_response(&api, get), Some(serde_json::json!(["wontfix"])));
}

#[test]
fn a_required_authorization_header_parameter_asks_for_no_credential() {
    // OpenAPI 3 ignores it: credentials are what the document's security schemes say, and
    // this document names none.
    let (dir, report, api) = import("fixtures/openapi/authorization-param-3.0.json");
    assert_eq!(report.summary.kept, 2);
    assert_eq!(report.summary.params - report.summary.params_left_out, 0, "{}", report.summary.line());
    for op in &api.operations {
        assert!(op.auth.is_public(), "{} asks for a credential", op.name);
        assert!(op.params.is_empty(), "{}: neither Authorization nor Accept is a parameter", op.name);
    }
    let entries = std::fs::read_to_string(dir.path().join("spec/entries.yaml")).unwrap();
    assert!(entries.contains("auth: none"), "{entries}");
    assert!(entries.contains("gaps: [ignored-header-params]"), "{entries}");
    let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    assert!(!api_yaml.contains("auth:"), "no scheme of the import's own:\n{api_yaml}");
}

#[test]
fn an_api_key_in_the_authorization_header_stays_an_opaque_key() {
    // AWS signatures, `OAuth <token>`, raw keys: the document says a key travels in
    // `Authorization`, not that it is a bearer token, so the import keeps it whole.
    let (dir, report, api) = import("fixtures/openapi/authorization-key-3.0.json");
    assert_eq!(report.summary.kept, 2);
    let gaps: Vec<&str> = api.gaps.keys().map(String::as_str).collect();
    assert_eq!(gaps, ["unlisted-refusals"], "no scheme left out (`api-key-auth`)");
    let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    assert!(
        api_yaml.contains(
            "signed: { type: api-key, in: header, name: Authorization, description: Amazon Signature authorization v4 }"
        ),
        "{api_yaml}"
    );
    assert!(api_yaml.contains("access: { type: api-key, in: header, name: authorization }"), "{api_yaml}");
    for scheme in &api.auth_schemes {
        assert!(
            matches!(&scheme.kind, apigen::model::SchemeKind::ApiKey { name, .. } if name.eq_ignore_ascii_case("authorization")),
            "{}: {:?}",
            scheme.name,
            scheme.kind
        );
    }
}

/// The `response:` of operation `op` as the import wrote it in `file` of the spec in `dir`, and
/// the operation's `gaps:` line (empty without one).
fn written_response(dir: &Path, file: &str, op: &str) -> (String, String) {
    let text = std::fs::read_to_string(dir.join("spec").join(file)).unwrap();
    let start = text.find(&format!("\n  {op}:\n")).unwrap_or_else(|| panic!("{op} not in {file}:\n{text}"));
    let lines: Vec<&str> = text[start + 1..].lines().skip(1).take_while(|l| l.starts_with("    ")).collect();
    let at = lines.iter().position(|l| l.starts_with("    response:")).expect("a response");
    let mut response = vec![lines[at]];
    response.extend(lines[at + 1..].iter().take_while(|l| l.starts_with("     ")));
    let gaps = lines.iter().find(|l| l.starts_with("    gaps:")).map_or(String::new(), |l| l.trim().to_owned());
    (response.join("\n"), gaps)
}

/// Generates the spec imported into `dir`, as a user would next.
fn generate(dir: &Path) -> apigen::model::Api {
    let spec = dir.join("spec");
    let generator = apigen::Generator::new()
        .spec(&spec)
        .out(dir.join("out"))
        .runtime_path(std::fs::canonicalize("../runtime").unwrap())
        .cache(apigen::CacheDir::none());
    if let Err(failure) = generator.generate() {
        panic!("{} does not generate: {failure}", spec.display());
    }
    generator.lint().unwrap().0
}

#[test]
fn pagination_is_told_from_names_and_written_in_the_spec() {
    let (dir, report, api) = import("fixtures/openapi/pagination-3.0.json");
    assert_eq!(report.summary.kept, 9);
    let cases = [
        (
            "repos.yaml",
            "listRepos",
            "    response:\n      status: 200\n      description: The repositories.\n      items: Repo\n      \
             pagination: { style: link, params: [page], cursor: page, items: \"\", gaps: [pagination] }",
            "gaps: [response-headers]",
        ),
        (
            "customers.yaml",
            "listCustomers",
            "    response:\n      status: 200\n      description: A page of customers.\n      items: Customer\n      \
             envelope: ListCustomersResponse\n      pagination:\n        style: has-more\n        \
             params: [starting_after]\n        cursor: starting_after\n        items: /data\n        \
             has_more: /has_more\n        item_id: /id\n        gaps: [pagination]",
            "",
        ),
        (
            "events.yaml",
            "listEvents",
            "    response:\n      status: 200\n      description: A page of events.\n      items: Event\n      \
             envelope: EventPage\n      pagination:\n        style: cursor\n        params: [cursor]\n        \
             cursor: cursor\n        items: /events\n        next: /response_metadata/next_cursor\n        \
             gaps: [pagination]",
            "",
        ),
        (
            "files.yaml",
            "listFiles",
            "    response:\n      status: 200\n      description: A page of files.\n      items: File\n      \
             envelope: ListFilesResponse\n      pagination:\n        style: cursor\n        params: [pageToken]\n        \
             cursor: pageToken\n        items: /files\n        next: /nextPageToken\n        gaps: [pagination]",
            "",
        ),
        (
            "invoices.yaml",
            "listInvoices",
            "    response:\n      status: 200\n      description: A page of invoices.\n      items: Invoice\n      \
             envelope: ListInvoicesResponse\n      \
             pagination: { style: offset, params: [offset], cursor: offset, items: /invoices, gaps: [pagination] }",
            "",
        ),
        (
            "tags.yaml",
            "listTags",
            // The list's `minItems` is kept: the mock answers no empty page of it.
            "    response:\n      status: 200\n      description: A page of tags.\n      items: Tag\n      \
             min_items: 1\n      \
             pagination: { style: page, params: [page], cursor: page, items: \"\", gaps: [pagination] }",
            "",
        ),
        // Azure's next page is a URL the format's cursor cannot pass: a plain response, a gap.
        (
            "vaults.yaml",
            "listVaults",
            "    response:\n      status: 200\n      description: A page of vaults.\n      fields:\n        \
             value: { type: list<Vault>, optional: true }\n        \
             nextLink: { type: string, optional: true, description: The next page's URL. }",
            "gaps: [pagination-next-url]",
        ),
        (
            "deliveries.yaml",
            "listDeliveries",
            "    response: { status: 200, description: Deliveries., type: list<Tag> }",
            "gaps: [pagination-unknown]",
        ),
        // No sign of paging: a plain list, nothing to note.
        (
            "licenses.yaml",
            "listLicenses",
            "    response: { status: 200, description: Every license., type: list<Tag> }",
            "",
        ),
    ];
    for (file, op, response, gaps) in cases {
        assert_eq!(written_response(dir.path(), file, op), (response.to_owned(), gaps.to_owned()), "{op}");
    }
    // The cursors are shared parameters (a convention's `params` are), the page sizes stay.
    let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    assert!(
        api_yaml.contains(
            "  starting_after: { in: query, type: string, description: The last item of the page before this one. }\n  \
             cursor: { in: query, type: string, description: Where the page starts. }\n  \
             pageToken: { in: query, type: string, description: The page's token. }\n  \
             offset: { in: query, type: integer, minimum: 0, description: Items to skip. }\n"
        ),
        "{api_yaml}"
    );
    let streams: Vec<&str> = api.operations.iter().filter(|op| op.client.streams).map(|op| op.name.as_str()).collect();
    assert_eq!(streams, ["listCustomers", "listEvents", "listFiles", "listInvoices", "listRepos", "listTags"]);
    let generated = generate(dir.path());
    assert_eq!(generated.operations.len(), 9);
    // Each list told pages in the generated client: `.stream()` follows its convention.
    for (group, style) in [
        ("customers", "HasMore {"),
        ("events", "Cursor {"),
        ("files", "Cursor {"),
        ("invoices", "Offset,"),
        ("repos", "Link,"),
        ("tags", "Page,"),
    ] {
        let client = std::fs::read_to_string(dir.path().join(format!("out/client/src/{group}.rs"))).unwrap();
        assert!(client.contains("    pub fn stream("), "{group}: {client}");
        assert!(client.contains(&format!("style: PageStyle::{style}")), "{group}: {client}");
    }
    let plain = std::fs::read_to_string(dir.path().join("out/client/src/vaults.rs")).unwrap();
    assert!(!plain.contains("pub fn stream("), "{plain}");
}

#[test]
fn a_convention_most_lists_share_is_declared_once_and_a_cursor_defined_otherwise_leaves_its_list_plain() {
    let list = |op: &str, max: Option<u64>| {
        let mut cursor = serde_json::json!({"type": "string"});
        if let Some(max) = max {
            cursor["maxLength"] = serde_json::json!(max);
        }
        serde_json::json!({"get": {"operationId": op, "parameters": [
            {"name": "starting_after", "in": "query", "schema": cursor, "description": "The last id seen."},
            {"name": "limit", "in": "query", "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "A page.", "content": {"application/json": {"schema": {
                "type": "object", "required": ["data", "has_more"],
                "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}},
                               "has_more": {"type": "boolean"}}}}}}}}})
    };
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Lists", "version": "1"},
        // The first list defines its cursor otherwise than the two after it.
        "paths": {"/a": list("listA", None), "/b": list("listB", Some(64)), "/c": list("listC", Some(64))},
        "components": {"schemas": {"Item": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}}}
    });
    let imported = apigen::import::import(&doc, "lists.json").unwrap();
    let file = |name: &str| imported.files.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()).unwrap();
    let api_yaml = file("api.yaml");
    assert!(
        api_yaml.contains(
            "parameters:\n  \
             starting_after: { in: query, type: string, max_length: 64, description: The last id seen. }\n\n\
             pagination:\n  style: has-more\n  params: [starting_after]\n  cursor: starting_after\n  items: /data\n  \
             has_more: /has_more\n  item_id: /id\n  gaps: [pagination]\n"
        ),
        "{api_yaml}"
    );
    assert!(
        file("b.yaml").contains(
            "    params:\n      - { name: limit, in: query, type: integer }\n    \
             response: { status: 200, description: A page., items: Item, envelope: ListBResponse }\n"
        ),
        "{}",
        file("b.yaml")
    );
    assert!(
        file("a.yaml").contains(
            "    params:\n      - { name: limit, in: query, type: integer }\n      \
             - { name: starting_after, in: query, type: string, description: The last id seen. }\n    \
             response: { status: 200, description: A page., type: ListAResponse }\n"
        ),
        "{}",
        file("a.yaml")
    );
    assert!(file("a.yaml").contains("    gaps: [pagination-cursor-param]\n"), "{}", file("a.yaml"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("spec")).unwrap();
    for (name, text) in &imported.files {
        std::fs::write(dir.path().join("spec").join(name), text).unwrap();
    }
    let api = generate(dir.path());
    let streams: Vec<&str> = api.operations.iter().filter(|op| op.client.streams).map(|op| op.name.as_str()).collect();
    assert_eq!(streams, ["listB", "listC"]);
}

#[test]
fn an_operation_answering_another_error_body_than_api_errors_is_a_recorded_gap() {
    // authentiq's: OAuth errors at most responses, RFC 9457 problems at some.
    let refer = |name: &str| serde_json::json!({"description": "failed", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{name}")}}}});
    let op = |id: &str, error: &str| serde_json::json!({"operationId": id, "responses": {"204": {"description": "done"}, "default": refer(error)}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Clients", "version": "1"},
        "paths": {
            "/a": {"get": op("getA", "OAuthError"), "post": op("postA", "Problem")},
            "/b": {"get": op("getB", "OAuthError")}
        },
        "components": {"schemas": {
            "OAuthError": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}, "error_description": {"type": "string"}}},
            "Problem": {"type": "object", "required": ["type", "status"], "properties": {"type": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}}}
        }}
    });
    let imported = apigen::import::import(&doc, "clients.json").unwrap();
    assert!(imported.summary.line().contains("error-body-elsewhere 1"), "{}", imported.summary.line());
    let api = lint_imported(&imported, "the clients do not lint");
    let gaps = |name: &str| api.operations.iter().find(|o| o.name == name).unwrap().gaps.clone();
    assert!(gaps("postA").contains(&"error-body-elsewhere".to_owned()), "{:?}", gaps("postA"));
    assert!(!gaps("getA").contains(&"error-body-elsewhere".to_owned()), "{:?}", gaps("getA"));
}

#[test]
fn the_error_body_most_error_responses_share_becomes_api_errors() {
    // Without `api.errors`: the format's own `{"error": {"code", "message", "violations"}}`.
    const BUILT_IN: &str = "    message: \"/error/message\",\n    code: ::core::option::Option::None,\n    violations: ::core::option::Option::Some(\"/error/violations\"),\n";
    let cases = [
        (
            "errors-oauth-3.0.json",
            "  errors: { type: OAuthError, media_type: application/json, message: /error_description }\n",
            "error-body-by-name",
            "    status: ::core::option::Option::None,\n    message: \"/error_description\",\n",
        ),
        (
            "errors-problem-3.0.json",
            "  errors:\n    type: Problem\n    media_type: application/problem+json\n    status: /status\n    \
             message: /detail\n    violations: /invalid_params\n    violation: { path: name, message: reason }\n",
            "error-body-by-name",
            "    media_type: \"application/problem+json\",\n    status: ::core::option::Option::Some(\"/status\"),\n    \
             message: \"/detail\",\n    code: ::core::option::Option::None,\n    violations: ::core::option::Option::Some(\"/invalid_params\"),\n    \
             violation_path: \"name\",\n    violation_message: \"reason\",\n",
        ),
        (
            "errors-google-3.0.json",
            "  errors: { type: Status, media_type: application/json, status: /error/code, message: /error/message }\n",
            "error-body-by-name",
            "    message: \"/error/message\",\n    code: ::core::option::Option::None,\n    violations: ::core::option::Option::None,\n",
        ),
        // A component per status, all of one shape: counted as one, answered as the one used most.
        (
            "errors-alike-3.0.json",
            "  errors: { type: BadRequestResponse, media_type: application/json, message: /message }\n",
            "error-body-by-name",
            "    status: ::core::option::Option::None,\n    message: \"/message\",\n",
        ),
        // One shape in names, but one message is an object: a body written as one is not the
        // other, so none is shared and each is one of `bodies`, the status's own.
        (
            "errors-unalike-3.0.json",
            "  errors:\n    bodies:\n      BadRequestResponse: { media_type: application/json, message: /message }\n      \
             UnauthorizedResponse: { media_type: application/json, message: /message }\n      \
             NotFoundResponse: { media_type: application/json, message: /detail }\n",
            "error-body-by-name",
            BUILT_IN,
        ),
        // No schema is the body of more than half of the error responses: the 400's, whose
        // message is told, is one of `bodies`; the 404's (`reason`) is left a gap.
        (
            "errors-unshared-3.0.json",
            "  errors:\n    bodies:\n      Invalid: { media_type: application/json, message: /message }\n",
            "error-body,error-body-by-name",
            BUILT_IN,
        ),
        // Shared, with a required `error.type` no pointer names: filled with its first value.
        (
            "errors-filled-3.0.json",
            "  errors: { type: ApiError, media_type: application/json, message: /error/message, fill: [/error/type] }\n",
            "error-body-by-name",
            "    violation_message: \"message\",\n    fill: &[(\"/error/type\", \"\\\"api_error\\\"\")],\n",
        ),
        // Shared, but its required `error.details` (objects, not violations) no pointer fills.
        ("errors-unfillable-3.0.json", "", "error-body-unfillable", BUILT_IN),
        // A required string code beside the message (OAuth's `error`): filled from the status.
        (
            "errors-coded-3.0.json",
            "  errors: { type: OAuth2Error, media_type: application/json, message: /error_description, code: /error }\n",
            "error-body-by-name",
            "    message: \"/error_description\",\n    code: ::core::option::Option::Some(\"/error\"),\n",
        ),
        // A required integer `errorCode`: the router writes the status there.
        (
            "errors-numbered-3.0.json",
            "  errors: { type: ControllerError, media_type: application/json, status: /errorCode, message: /message }\n",
            "error-body-by-name",
            "    status: ::core::option::Option::Some(\"/errorCode\"),\n    message: \"/message\",\n",
        ),
        // Written inline at every response, copy for copy: declared once as `ErrorBody`, with
        // Azure's `details` as the violations (`target` names where).
        (
            "errors-inline-3.0.json",
            "  errors:\n    type: ErrorBody\n    media_type: application/json\n    message: /error/message\n    \
             violations: /error/details\n    violation: { path: target, message: message }\n",
            "error-body-by-name",
            "    status: ::core::option::Option::None,\n    message: \"/error/message\",\n    code: ::core::option::Option::None,\n    \
             violations: ::core::option::Option::Some(\"/error/details\"),\n    violation_path: \"target\",\n",
        ),
        // Written inline under each shared response (`components/responses`), copies whose
        // descriptions and examples differ: one shape, `ErrorBody`; its required `extensions`
        // object (nothing required inside) is filled with `{}`.
        (
            "errors-responses-3.0.json",
            "  errors: { type: ErrorBody, media_type: application/json, message: /message, fill: [/extensions] }\n",
            "error-body-by-name",
            "    violation_message: \"message\",\n    fill: &[(\"/extensions\", \"{}\")],\n",
        ),
        // Repeated inline at each operation's 4xx and 5xx, each copy documented its own way.
        (
            "errors-repeated-3.0.json",
            "  errors: { type: ErrorBody, media_type: application/json, status: /status, message: /detail }\n",
            "error-body-by-name",
            "    status: ::core::option::Option::Some(\"/status\"),\n    message: \"/detail\",\n",
        ),
        // Shared and without a message, answered as `application/problem+json`: the built-in
        // body, in that media type.
        (
            "errors-problem-unmapped-3.0.json",
            "  errors: { media_type: application/problem+json }\n",
            "error-body-no-message",
            "    media_type: \"application/problem+json\",\n    status: ::core::option::Option::Some(\"/error/code\"),\n    \
             message: \"/error/message\",\n",
        ),
    ];
    for (doc, errors, gap, shape) in cases {
        let (dir, _, api) = import(&format!("fixtures/openapi/{doc}"));
        let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
        // The `errors:` block: up to the next key of `api` or the blank line ending it.
        let written = api_yaml.find("  errors:").map_or("", |at| {
            let rest = &api_yaml[at + 1..];
            let end = [rest.find("\n\n"), rest.find("\n  unknown_fields:")]
                .into_iter()
                .flatten()
                .min()
                .map_or(api_yaml.len(), |e| at + 1 + e + 1);
            &api_yaml[at..end]
        });
        assert_eq!(written, errors, "{doc}");
        let gaps: Vec<&str> = api.gaps.keys().map(String::as_str).collect();
        assert_eq!(gaps.join(","), gap, "{doc}");
        assert_eq!(api.errors.ty.is_some(), errors.contains(" type:"), "{doc}");
        generate(dir.path());
        // The generated router writes its own refusals (400, 401, 404, ...) in that shape.
        let root = std::fs::read_to_string(dir.path().join("out/server/src/root.rs")).unwrap();
        assert!(root.contains(shape), "{doc}: {root}");
        assert!(root.contains("&ERRORS,"), "{doc}: the router is given the shape");
    }
}

#[test]
fn an_error_body_written_inline_is_declared_once_as_error_body_where_it_is_shared() {
    // Under `components/responses`: the type is the first shared response's copy, and the
    // gap points there rather than at an operation.
    let (dir, _, _) = import("fixtures/openapi/errors-responses-3.0.json");
    let schemas = std::fs::read_to_string(dir.path().join("spec/schemas.yaml")).unwrap();
    let declared = "  ErrorBody:\n    description: A bad request\n    fields:\n      \
                    message: { type: string, description: What went wrong. }\n      extensions:\n        \
                    description: Details of a bad request\n        fields:\n          \
                    code: { type: string, optional: true }\n          trace: { type: string, optional: true }\n    \
                    gaps: [error-body-by-name]\n";
    assert!(schemas.contains(declared), "{schemas}");
    let api_yaml = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    let source =
        "source: \"errors-responses-3.0.json: \\x23/components/responses/BadRequest/content/application~1json/schema\"";
    assert!(api_yaml.contains(source), "{api_yaml}");
    // Repeated at each operation: declared once, the copies' own descriptions aside.
    let (dir, _, api) = import("fixtures/openapi/errors-repeated-3.0.json");
    let schemas = std::fs::read_to_string(dir.path().join("spec/schemas.yaml")).unwrap();
    assert_eq!(schemas.matches("fields:").count(), 2, "ErrorBody and Thing only: {schemas}");
    assert!(
        schemas.contains("      status: { type: integer, sample: 400 }\n      detail: { type: string, description: What went wrong with getA. }\n      hint: { type: string, optional: true }\n"),
        "{schemas}"
    );
    assert_eq!(api.errors.ty.as_deref(), Some("ErrorBody"));
}

#[test]
fn an_api_without_types_gets_no_round_trip_test_and_no_unused_sample_helpers() {
    let (dir, report, _) = import("fixtures/openapi/no-types-3.0.json");
    assert_eq!(report.summary.kept, 1);
    generate(dir.path());
    // An empty test left `failures` untyped (E0282) and `check` unused (dead code, denied).
    let samples = std::fs::read_to_string(dir.path().join("out/types/src/samples.rs")).unwrap();
    assert!(!samples.contains("fn check") && !samples.contains("#[test]"), "{samples}");
    // Without bodies or JSON answers, the client's samples need neither helper.
    let calls = std::fs::read_to_string(dir.path().join("out/client/src/samples.rs")).unwrap();
    assert!(!calls.contains("fn sample<") && !calls.contains("fn to_json<"), "{calls}");
}

#[test]
fn media_types_a_json_response_offers_beside_json_are_a_recorded_gap() {
    // `application/xml` and `text/plain` beside JSON, a ZIP file beside JSON, and `*/*`: the
    // JSON body is kept, and what is not kept is said, at each response's content.
    let (_dir, report, api) = import("fixtures/openapi/media-alternatives-3.0.json");
    assert_eq!(report.summary.kept, 3);
    let gap = &api.gaps["response-media-alternatives"];
    assert_eq!(
        gap.source,
        "media-alternatives-3.0.json: #/paths/~1a/get/responses/200/content, \
         #/paths/~1export/get/responses/200/content, #/paths/~1any/get/responses/200/content"
    );
    for op in &api.operations {
        assert_eq!(op.response.media_types, ["application/json"], "{}", op.name);
        assert!(op.gaps.contains(&"response-media-alternatives".to_owned()), "{}", op.name);
    }
}

#[test]
fn a_page_keeps_one_body_and_leaves_a_bodiless_status_out_as_a_gap() {
    // A list paged by offset that answers 204 when nothing is left: the page is kept (the
    // 204 would be a response of its own, which a page cannot have), the 204 is a gap.
    let (_dir, report, api) = import("fixtures/openapi/page-or-nothing-3.0.json");
    assert_eq!(report.summary.kept, 1);
    let list = &api.operations[0];
    assert!(list.client.streams, "the list pages");
    assert_eq!(list.response.statuses().collect::<Vec<_>>(), [200]);
    assert!(api.gaps.contains_key("success-bodies"), "{:?}", api.gaps.keys());
}

#[test]
fn a_vendor_json_media_type_is_kept_and_asked_for() {
    let (dir, _, api) = import("fixtures/openapi/vendor-json-3.0.json");
    let list = api.operations.iter().find(|op| op.name == "listOffers").unwrap();
    assert_eq!(list.response.media_types, ["application/vnd.amadeus+json"]);
    generate(dir.path());
    let openapi = std::fs::read_to_string(dir.path().join("out/openapi.json")).unwrap();
    assert!(openapi.contains("\"application/vnd.amadeus+json\": {"), "{openapi}");
    let client = std::fs::read_to_string(dir.path().join("out/client/src/offers.rs")).unwrap();
    assert!(client.contains("application/vnd.amadeus+json"), "the client asks for it: {client}");
}

#[test]
fn a_bodiless_success_beside_a_body_is_a_response_of_its_own() {
    // `200` the resource or `204` nothing (an update), `201` or `202` accepted without a body.
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Updates", "version": "1"},
        "paths": {"/things/{id}": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "patch": {"operationId": "updateThing", "responses": {
                "200": {"description": "Updated.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                "204": {"description": "Updated; no content."}}},
            "put": {"operationId": "putThing", "responses": {
                "201": {"description": "Created.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                "202": {"description": "Queued."}}}}},
        "components": {"schemas": {"Thing": {"type": "object", "properties": {"id": {"type": "string"}}}}}
    });
    let imported = apigen::import::import(&doc, "updates.json").unwrap();
    assert_eq!(imported.summary.kept, 2);
    assert!(!imported.summary.kinds.contains_key("success-bodies"), "{}", imported.summary.line());
    let api = lint_imported(&imported, "the updates do not lint");
    let statuses = |name: &str| {
        let op = api.operations.iter().find(|op| op.name == name).unwrap();
        let others: Vec<(u16, bool)> =
            op.response.others.iter().map(|o| (o.status, matches!(o.body, ResponseBody::Empty))).collect();
        (op.response.status, others)
    };
    assert_eq!(statuses("updateThing"), (200, vec![(204, true)]));
    assert_eq!(statuses("putThing"), (201, vec![(202, true)]));
}

#[test]
fn an_api_without_operations_gets_samples_that_use_nothing_unused() {
    let (dir, report, _) = import("fixtures/openapi/no-operations-3.0.json");
    assert_eq!(report.summary.kept, 0);
    generate(dir.path());
    // `client` unused denied the crate with `--all-features` (the directory slice in CI).
    let calls = std::fs::read_to_string(dir.path().join("out/client/src/samples.rs")).unwrap();
    assert!(calls.contains("pub fn calls<'a>(_client: &'a Client)"), "{calls}");
}

#[test]
fn a_query_parameter_the_document_lets_be_sent_empty_keeps_allow_empty() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Apps", "version": "1"},
        "paths": {"/apps": {"get": {"operationId": "getApps",
            "parameters": [
                {"in": "query", "name": "limit", "allowEmptyValue": true, "schema": {"type": "integer", "default": 50}},
                {"in": "query", "name": "q", "allowEmptyValue": true, "schema": {"type": "string"}},
                {"in": "query", "name": "page", "schema": {"type": "integer"}}
            ],
            "responses": {"204": {"description": "done"}}}}}
    });
    let imported = apigen::import::import(&doc, "apps.json").unwrap();
    let api = lint_imported(&imported, "the apps do not lint");
    let params = &api.operations[0].params;
    let read: Vec<(&str, bool, bool)> =
        params.iter().map(|p| (p.wire.as_str(), p.allow_empty, p.empty_is_absent())).collect();
    assert_eq!(read, [("limit", true, true), ("q", true, false), ("page", false, false)]);
}

#[test]
fn a_json_body_keeps_its_forms_of_the_same_schema_and_the_other_media_types_are_a_gap() {
    let user = serde_json::json!({"schema": {"$ref": "#/components/schemas/User"}});
    let team = serde_json::json!({"schema": {"$ref": "#/components/schemas/Team"}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Users", "version": "1"},
        "paths": {"/users": {"post": {"operationId": "createUser",
            "requestBody": {"required": true, "content": {
                "application/json": user, "text/json": user, "application/octet-stream": user,
                "multipart/form-data": user, "application/xml": user}},
            "responses": {"204": {"description": "done"}}}},
            "/admins": {"post": {"operationId": "createAdmin",
            "requestBody": {"required": true, "content": {
                "application/json": user, "application/x-www-form-urlencoded": user, "multipart/form-data": user}},
            "responses": {"204": {"description": "done"}}}},
            "/teams": {"post": {"operationId": "createTeam",
            "requestBody": {"required": true, "content": {
                "application/json": team, "application/x-www-form-urlencoded": team, "multipart/form-data": team}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {"User": {"type": "object",
            "properties": {"user": {"type": "string"}, "age": {"type": "integer"}}},
            "Team": {"type": "object", "properties": {"lead": {"$ref": "#/components/schemas/User"}}}}}
    });
    let imported = apigen::import::import(&doc, "users.json").unwrap();
    assert!(!imported.summary.line().contains("request-media-alternatives"), "{}", imported.summary.line());
    let api = lint_imported(&imported, "the users do not lint");
    let media = |name: &str| api.operations.iter().find(|o| o.name == name).unwrap().body.clone().unwrap().media_types;
    assert_eq!(media("createUser"), ["application/json", "multipart/form-data"]);
    // The object as raw bytes and as XML: alternatives, never 415.
    let user = api.operations.iter().find(|o| o.name == "createUser").unwrap().body.clone().unwrap();
    let alternatives: Vec<(String, Vec<String>)> =
        user.alternatives.iter().map(|a| (a.ty.to_string(), a.media_types.clone())).collect();
    assert_eq!(
        alternatives,
        [
            ("bytes".to_owned(), vec!["application/octet-stream".to_owned()]),
            ("string".into(), vec!["application/xml".into()])
        ]
    );
    assert_eq!(media("createAdmin"), ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
    // A nested value travels in brackets in a urlencoded form, and as one JSON part in a
    // multipart one (OpenAPI's `encoding` default).
    assert_eq!(media("createTeam"), ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
}

#[test]
fn a_uri_default_or_example_that_is_a_template_is_not_a_uri_and_is_left_out() {
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Links", "version": "1"},
        "paths": {"/links": {"get": {"operationId": "getLink",
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/Link"}}}}}}}},
        "components": {"schemas": {"Link": {"type": "object", "required": ["link"], "properties": {
            "link": {"type": "string", "format": "uri", "default": "https://x.example/start/{$INSTITUTION_ID}"},
            "home": {"type": "string", "format": "uri", "example": "https://x.example/"},
            "page": {"type": "string", "format": "iri", "example": "https://例え.jp/"}}}}}
    });
    let imported = apigen::import::import(&doc, "links.json").unwrap();
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(!schemas.contains("INSTITUTION_ID"), "{schemas}");
    assert!(schemas.contains("sample: \"https://x.example/\""), "{schemas}");
    // An IRI may hold what a URI may not: text, its example kept.
    assert!(schemas.contains("page: { type: string, optional: true, sample: \"https://例え.jp/\" }"), "{schemas}");
    let api = lint_imported(&imported, "the links do not lint");
    let sample = apigen::model::sample::of_type(&api, "Link");
    assert!(apigen::model::is_absolute_url(sample["link"].as_str().unwrap()), "{sample}");
}

#[test]
fn a_required_error_field_with_a_pattern_is_filled_with_the_documents_example() {
    // A pattern apigen cannot walk (word boundaries) with an example: the router writes the
    // example.
    let error = serde_json::json!({"description": "failed", "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/Failure"}}}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Traced", "version": "1"},
        "paths": {"/things": {"get": {"operationId": "listThings", "responses": {
            "204": {"description": "done"}, "400": error, "404": error}}}},
        "components": {"schemas": {"Failure": {"type": "object", "required": ["message", "correlationId"],
            "properties": {"message": {"type": "string"},
                "correlationId": {"type": "string", "pattern": "^\\bc1\\b$", "example": "c1"}}}}}
    });
    let imported = apigen::import::import(&doc, "traced.json").unwrap();
    let api = lint_imported(&imported, "the traced errors do not lint");
    let schemas = written(&imported, Some("schemas.yaml"));
    assert!(schemas.contains("correlationId: { type: string, pattern: "), "the pattern is kept: {schemas}");
    assert_eq!(api.errors.fill, [("/correlationId".to_owned(), serde_json::json!("c1"))]);
}

#[test]
fn an_http_scheme_other_than_bearer_and_basic_is_kept_for_the_signer_with_its_gap() {
    let doc = serde_json::json!({
        "openapi": "3.1.0",
        "info": { "title": "Signed", "version": "1" },
        "components": { "securitySchemes": {
            "digest": { "type": "http", "scheme": "Digest", "description": "RFC 7616." },
            "hmac": { "type": "http", "scheme": "HMAC-SHA256" },
            "tls": { "type": "mutualTLS" }
        } },
        "paths": {
            "/a": { "get": { "operationId": "a", "security": [{ "hmac": [] }], "responses": { "204": { "description": "Done." } } } },
            "/b": { "get": { "operationId": "b", "security": [{ "tls": [] }], "responses": { "204": { "description": "Done." } } } }
        },
        "security": [{ "digest": [] }]
    });
    let imported = apigen::import::import(&doc, "signed.json").unwrap();
    let api = lint_imported(&imported, "the signed document");
    let kinds: Vec<String> = api.auth_schemes.iter().map(|s| format!("{} {:?}", s.name, s.kind)).collect();
    assert_eq!(kinds, ["digest Http { scheme: \"Digest\" }", "hmac Http { scheme: \"HMAC-SHA256\" }"]);
    let auth_of = |name: &str| format!("{:?}", api.operations.iter().find(|op| op.name == name).unwrap().auth);
    assert_eq!(auth_of("a"), "Any([[Need { scheme: \"hmac\", scopes: [] }]])");
    // Mutual TLS is still left out: the operation needing only it is public, with its gap.
    assert_eq!(auth_of("b"), "None");
    let gaps: Vec<&str> = api.gaps.keys().map(String::as_str).collect();
    assert!(gaps.contains(&"http-signer") && gaps.contains(&"other-http-auth"), "{gaps:?}");
    assert!(api.gaps["http-signer"].decision.contains("`.signer(..)`"));
}

#[test]
fn oauth2_flows_scopes_and_openid_connect_are_kept_with_the_scopes_each_operation_requires() {
    let doc = serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Vault", "version": "1"},
        "paths": {
            "/secrets": {
                "get": {"operationId": "listSecrets", "security": [{"vault": ["secrets:read"]}],
                    "responses": {"204": {"description": "ok"}, "400": {"description": "bad"}}},
                "delete": {"operationId": "deleteSecrets",
                    "security": [{"vault": ["admin", "audit", "two words"]}, {"sso": ["vault-admin"]}],
                    "responses": {"204": {"description": "ok"}, "400": {"description": "bad"}}}
            },
            "/count": {"get": {"operationId": "countSecrets",
                "responses": {"204": {"description": "ok"}, "400": {"description": "bad"}}}}
        },
        "security": [{"vault": []}],
        "components": {"securitySchemes": {
            "vault": {"type": "oauth2", "flows": {
                "clientCredentials": {"tokenUrl": "https://auth.example.com/token",
                    "scopes": {"secrets:read": "Read secrets.", "admin": "Everything."}},
                "authorizationCode": {"authorizationUrl": "https://auth.example.com/authorize",
                    "tokenUrl": "https://auth.example.com/token", "refreshUrl": "https://auth.example.com/refresh",
                    "scopes": {"secrets:read": "Read secrets."}},
                "password": {"scopes": {}}
            }},
            "sso": {"type": "openIdConnect", "openIdConnectUrl": "https://sso.example.com/.well-known/openid-configuration"}
        }}
    });
    let imported = apigen::import::import(&doc, "vault.json").unwrap();
    // No gap: before, both schemes were bearer tokens with gap `oauth-as-bearer`.
    assert_eq!(imported.summary.line(), "3 of 3 operations kept, 0 of 0 parameters kept, 0 types, 0 gaps");
    let api_yaml = written(&imported, Some("api.yaml"));
    let auth = &api_yaml[api_yaml.find("  auth:").unwrap()..api_yaml.find("\ntags:").unwrap()];
    // The password flow, without its token URL, is left out; `audit`, required but not
    // declared, is declared in the first flow; `two words` is no scope-token.
    assert_eq!(
        auth,
        "  auth:\n    vault:\n      type: oauth2\n      flows:\n        client_credentials:\n          \
         token_url: \"https://auth.example.com/token\"\n          \
         scopes: { \"secrets:read\": Read secrets., admin: Everything., audit: \"\" }\n        authorization_code:\n          \
         authorization_url: \"https://auth.example.com/authorize\"\n          token_url: \"https://auth.example.com/token\"\n          \
         refresh_url: \"https://auth.example.com/refresh\"\n          scopes: { \"secrets:read\": Read secrets. }\n    \
         sso: { type: openid-connect, url: \"https://sso.example.com/.well-known/openid-configuration\" }\n"
    );
    let api = lint_imported(&imported, "the import of an OAuth 2.0 document");
    let auth_of = |name: &str| api.operations.iter().find(|op| op.name == name).unwrap().auth.describe();
    assert_eq!(auth_of("listSecrets"), "`vault` (scope `secrets:read`)");
    assert_eq!(auth_of("deleteSecrets"), "`vault` (scopes `admin`, `audit`) or `sso` (scope `vault-admin`)");
    assert_eq!(auth_of("countSecrets"), "`vault`");
}

#[test]
fn a_directory_document_keeps_its_oauth2_flows_and_the_scopes_of_its_operations() {
    let (_dir, _report, api) = import("fixtures/directory/googleapis.com_siteVerification.json");
    assert!(!api.gaps.keys().any(|id| id.contains("oauth")), "{:?}", api.gaps.keys());
    let flows: Vec<String> = api
        .auth_schemes
        .iter()
        .map(|scheme| match &scheme.kind {
            apigen::model::SchemeKind::OAuth2 { flows } => {
                let flows: Vec<String> =
                    flows.iter().map(|f| format!("{}: {} scopes", f.grant.spec_name(), f.scopes.len())).collect();
                format!("{} {}", scheme.name, flows.join(", "))
            }
            other => format!("{} {other:?}", scheme.name),
        })
        .collect();
    assert_eq!(flows, ["Oauth2 implicit: 2 scopes", "Oauth2c authorization_code: 2 scopes"]);
    let get = api
        .operations
        .iter()
        .find(|op| op.method == apigen::model::Method::Get && op.path.raw == "/webResource")
        .unwrap();
    assert_eq!(
        get.auth.describe(),
        "`Oauth2` (scope `https://www.googleapis.com/auth/siteverification`) and `Oauth2c` (scope `https://www.googleapis.com/auth/siteverification`)"
    );
}

#[test]
fn importing_the_export_of_oauth_schemes_gives_back_their_flows_and_every_operation_its_scopes() {
    let (original, _) = apigen::load(Path::new("fixtures/valid/oauth")).unwrap();
    let (_dir, _report, imported) = import("fixtures/generated/oauth/openapi.json");
    assert_same_rust_api(&original, &imported);
    let kinds = |api: &Api| api.auth_schemes.iter().map(|s| (s.name.clone(), s.kind.clone())).collect::<Vec<_>>();
    assert_eq!(kinds(&imported), kinds(&original));
    for op in &original.operations {
        let back = imported.operations.iter().find(|o| o.name == op.name).unwrap();
        assert_eq!(back.auth, op.auth, "{}", op.name);
    }
}

#[test]
fn a_requirement_naming_two_schemes_needs_both_at_once() {
    // One requirement object naming two API keys: both are needed at once (OpenAPI's AND);
    // two objects are alternatives (OR). Before, the lone pair was written `[key, token]`,
    // which the format reads as alternatives, and the client sent the key alone.
    let doc = serde_json::json!({
        "openapi": "3.0.3",
        "info": { "title": "Pair", "version": "1" },
        "components": { "securitySchemes": {
            "key": { "type": "apiKey", "in": "header", "name": "X-App-Key" },
            "token": { "type": "apiKey", "in": "header", "name": "X-App-Token" },
            "bearer": { "type": "http", "scheme": "bearer" }
        } },
        "paths": {
            "/a": { "get": { "operationId": "both", "responses": { "204": { "description": "Done." } } } },
            "/a/either": { "get": { "operationId": "eitherPairOrBearer",
                "security": [{ "key": [], "token": [] }, { "bearer": [] }],
                "responses": { "204": { "description": "Done." } } } }
        },
        "security": [{ "key": [], "token": [] }]
    });
    let imported = apigen::import::import(&doc, "pair.json").unwrap();
    let ops = written(&imported, None);
    assert!(ops.contains("    auth: [[key, token]]\n"), "{ops}");
    assert!(ops.contains("    auth: [[key, token], bearer]\n"), "{ops}");
    let api = lint_imported(&imported, "the pair document");
    let auth_of = |name: &str| api.operations.iter().find(|op| op.name == name).unwrap().auth.describe();
    assert_eq!(auth_of("both"), "`key` and `token`");
    assert_eq!(auth_of("eitherPairOrBearer"), "`key` and `token` or `bearer`");
}

#[test]
fn error_bodies_differing_per_status_are_each_declared_where_their_places_can_be_told() {
    // API Setu's: each status its own inline body of two enumerations (no free message);
    // SendGrid's: a 400 listing its errors, and one that is a list itself (left a gap).
    let json = |schema: serde_json::Value| serde_json::json!({"content": {"application/json": {"schema": schema}}});
    let coded = |codes: &[&str], words: &[&str]| {
        let mut response = json(serde_json::json!({"type": "object", "properties": {
            "error": {"type": "string", "enum": codes}, "errorDescription": {"type": "string", "enum": words}
        }}));
        response["description"] = "failed".into();
        response
    };
    let item = serde_json::json!({"type": "object", "required": ["message"], "properties": {
        "field": {"type": "string"}, "message": {"type": "string"}, "error_id": {"type": "string"}
    }});
    let mut listed = json(serde_json::json!({"type": "object", "required": ["errors"], "properties": {
        "errors": {"type": "array", "items": item}
    }}));
    listed["description"] = "invalid".into();
    let mut bare = json(serde_json::json!({"type": "array", "items": item}));
    bare["description"] = "invalid".into();
    let ok = serde_json::json!({"description": "done"});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Statuses", "version": "1"},
        "paths": {
            "/a": {"get": {"operationId": "getA", "responses": {
                "204": ok,
                "401": coded(&["invalid_authentication", "invalid_authorization"], &["Authentication failed", "Not allowed"]),
                "404": coded(&["record_not_found", "url_not_found"], &["No record found", "Wrong path"])
            }}},
            "/b": {"post": {"operationId": "postB", "responses": {"204": ok, "400": listed}}},
            "/c": {"post": {"operationId": "postC", "responses": {"204": ok, "400": bare}}}
        }
    });
    let imported = apigen::import::import(&doc, "statuses.json").unwrap();
    let api_yaml = &imported.files.iter().find(|(name, _)| name.as_str() == "api.yaml").unwrap().1;
    assert!(
        api_yaml.contains(
            "  errors:\n    bodies:\n      ErrorBody401: { media_type: application/json, fill: [/error, /errorDescription] }\n      \
             ErrorBody404: { media_type: application/json, fill: [/error, /errorDescription] }\n      \
             ErrorBody400:\n        media_type: application/json\n        violations: /errors\n        \
             violation: { path: field, message: message }\n"
        ),
        "{api_yaml}"
    );
    // The body that is a list itself keeps gap `error-body`; the others are told by name.
    let line = imported.summary.line();
    assert!(line.contains("error-body 1") && line.contains("error-body-by-name 3"), "{line}");
    let api = lint_imported(&imported, "the statuses do not lint");
    let op = |name: &str| api.operations.iter().find(|o| o.name == name).unwrap();
    let types =
        |name: &str| -> Vec<String> { op(name).errors.iter().map(|e| format!("{}", e.ty.as_ref().unwrap())).collect() };
    assert_eq!(types("getA"), ["ErrorBody401", "ErrorBody404"]);
    assert_eq!(types("postB"), ["ErrorBody400"]);
    assert!(op("postC").errors.iter().all(|e| e.ty.is_none()));
    // Each status's first code is what the router writes.
    let body = |name: &str| api.errors.bodies[name].fill.clone();
    assert_eq!(body("ErrorBody401")[0], ("/error".to_owned(), serde_json::json!("invalid_authentication")));
    assert_eq!(body("ErrorBody404")[1], ("/errorDescription".to_owned(), serde_json::json!("No record found")));
}

#[test]
fn a_shared_error_body_without_a_message_but_with_its_list_of_errors_is_api_errors() {
    // Mastercard's `{Errors: {Error: [{Source, ReasonCode, Description}]}}`, shared by every
    // error response: the list two objects down, `Source` where, `Description` what.
    let error = serde_json::json!({"description": "failed", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Payments", "version": "1"},
        "paths": {"/p": {"post": {"operationId": "pay", "responses": {"204": {"description": "done"}, "400": error, "500": error}}}},
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["Errors"], "properties": {"Errors": {"$ref": "#/components/schemas/Errors"}}},
            "Errors": {"type": "object", "required": ["Error"], "properties": {"Error": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}},
            "Item": {"type": "object", "properties": {
                "Source": {"type": "string"}, "ReasonCode": {"type": "string"}, "Description": {"type": "string"}, "Recoverable": {"type": "boolean"}
            }}
        }}
    });
    let imported = apigen::import::import(&doc, "payments.json").unwrap();
    let api_yaml = &imported.files.iter().find(|(name, _)| name.as_str() == "api.yaml").unwrap().1;
    assert!(
        api_yaml.contains(
            "  errors:\n    type: Error\n    media_type: application/json\n    violations: /Errors/Error\n    \
             violation: { path: Source, message: Description }\n"
        ),
        "{api_yaml}"
    );
    let api = lint_imported(&imported, "the payments do not lint");
    assert_eq!(api.errors.message, "", "no message place");
}

/// Issue 48, `request-media-alternatives`: a body offered in several media types keeps each,
/// typed as its format can. The shapes of slicebox (one array schema as JSON, raw bytes and a
/// multipart form, which cannot type an array), of Walmart's orders (JSON beside XML), of
/// telnyx (JSON beside a multipart upload) and of sakari (a file upload beside raw bytes; CSV
/// beside JSON).
#[test]
fn a_body_offered_in_several_media_types_keeps_each_as_an_alternative() {
    let keys = serde_json::json!({"schema": {"type": "array", "items": {"type": "integer"}}});
    let order = serde_json::json!({"schema": {"$ref": "#/components/schemas/Order"}});
    let upload = serde_json::json!({"schema": {"type": "object", "required": ["file"], "properties": {
        "file": {"type": "string", "format": "binary"}, "note": {"type": "string"}}}});
    let body = |content: serde_json::Value| serde_json::json!({"required": true, "content": content});
    let post = |id: &str, content: serde_json::Value| serde_json::json!({"post": {"operationId": id, "requestBody": body(content), "responses": {"204": {"description": "done"}}}});
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Media", "version": "1"},
        "paths": {
            "/keys": post("queryKeys", serde_json::json!({
                "application/json": keys, "application/octet-stream": keys, "multipart/form-data": keys})),
            "/orders": post("placeOrder", serde_json::json!({"application/json": order, "application/xml": order})),
            "/media": post("uploadMedia", serde_json::json!({"application/json": order, "multipart/form-data": upload})),
            "/files": post("uploadFile", serde_json::json!({
                "multipart/form-data": upload, "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}})),
            "/contacts": post("importContacts", serde_json::json!({
                "text/csv": {"schema": {"type": "string"}, "example": "name\nada\n"}, "application/json": order}))
        },
        "components": {"schemas": {"Order": {"type": "object", "properties": {"item": {"type": "string"}}}}}
    });
    let imported = apigen::import::import(&doc, "media.json").unwrap();
    assert!(!imported.summary.line().contains("request-media-alternatives"), "{}", imported.summary.line());
    // Passed raw, a schema saying more than text or bytes goes unchecked, and says so: the
    // order as XML, the array as raw bytes and as a multipart form.
    assert!(imported.summary.line().contains("raw-request-bodies 3"), "{}", imported.summary.line());
    let ops: String = imported.files.iter().map(|(_, text)| text.as_str()).collect();
    assert!(
        ops.contains("type: list<integer>\n      alternatives:\n        - { type: bytes, media_type: [application/octet-stream, multipart/form-data] }"),
        "{ops}"
    );
    assert!(
        ops.contains("type: Order\n      alternatives:\n        - { type: string, media_type: application/xml }"),
        "{ops}"
    );
    // CSV's example text is its alternative's sample.
    assert!(
        ops.contains(
            "- type: string\n          media_type: text/csv\n          sample: |\n            name\n            ada\n"
        ),
        "{ops}"
    );
    let api = lint_imported(&imported, "the media do not lint");
    let shape = |name: &str| {
        let body = api.operations.iter().find(|o| o.name == name).unwrap().body.clone().unwrap();
        body.variants().map(|b| format!("{} {} {}", b.variant, b.ty, b.media_types.join(","))).collect::<Vec<_>>()
    };
    assert_eq!(
        shape("queryKeys"),
        [
            "ApplicationJson list<integer> application/json",
            "ApplicationOctetStream bytes application/octet-stream,multipart/form-data"
        ]
    );
    assert_eq!(
        shape("placeOrder"),
        ["ApplicationJson Order application/json", "ApplicationXml string application/xml"]
    );
    assert_eq!(
        shape("uploadMedia"),
        [
            "ApplicationJson Order application/json",
            "MultipartFormData UploadMediaMultipartFormDataBody multipart/form-data"
        ]
    );
    assert_eq!(
        shape("uploadFile"),
        [
            "MultipartFormData UploadFileBody multipart/form-data",
            "ApplicationOctetStream bytes application/octet-stream"
        ]
    );
    assert_eq!(shape("importContacts"), ["ApplicationJson Order application/json", "TextCsv string text/csv"]);
}

#[test]
fn importing_the_export_of_a_body_with_alternatives_gives_each_alternative_back() {
    // openapi.json writes each alternative's media types beside the body's own, each with its
    // schema; the import reads them back as the same alternatives (the multipart form's object
    // inline again, its component kept as a type of its own, so numbered).
    let (original, _) = apigen::load(Path::new("fixtures/valid/reqmedia")).unwrap();
    let (_dir, report, imported) = import("fixtures/generated/reqmedia/openapi.json");
    assert_eq!(report.summary.kept, 5);
    let shape = |api: &Api| -> Vec<String> {
        let bodies = api.operations.iter().filter_map(|op| op.body.as_ref());
        let variants =
            bodies.flat_map(|body| body.variants().map(|b| (b.variant.clone(), b.media_types.clone(), b.ty.clone())));
        let fields = |ty: &apigen::model::TypeRef| match ty {
            apigen::model::TypeRef::Named(n) => match &api.ty(n).kind {
                apigen::model::TypeKind::Object(o) => {
                    o.fields.iter().map(|f| format!("{}: {}", f.wire, f.ty)).collect::<Vec<_>>().join(", ")
                }
                _ => ty.to_string(),
            },
            _ => ty.to_string(),
        };
        variants.map(|(variant, media, ty)| format!("{variant} {} {}", media.join(","), fields(&ty))).collect()
    };
    assert_eq!(shape(&imported), shape(&original));
    assert_eq!(
        shape(&original),
        [
            "ApplicationJson application/json item: string, quantity: integer",
            "MultipartFormData multipart/form-data item: string, quantity: integer, receipt: file",
            "ApplicationXml application/xml,text/xml string",
            "ApplicationJson application/json list<Order>",
            "ApplicationOctetStream application/octet-stream bytes",
            "ApplicationJson application/json note: string",
            "TextPlain text/plain string",
            "ImagePng image/png,application/pdf bytes",
            "MultipartFormData multipart/form-data name: string, scan: file",
            "ApplicationJson application/json string",
            "ApplicationXml application/xml string",
        ]
    );
}
