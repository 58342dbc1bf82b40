//! The OpenAPI document and the reference cover the whole spec, and the reference's links
//! all lead somewhere.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn api() -> apigen::model::Api {
    apigen::load(Path::new("../spec")).expect("the spec loads").0
}

fn openapi() -> Value {
    serde_json::from_str(&std::fs::read_to_string("../generated/openapi.json").unwrap()).unwrap()
}

#[test]
fn openapi_has_every_operation_at_its_method_and_path() {
    let (api, doc) = (api(), openapi());
    assert_eq!(doc["openapi"], "3.1.0");
    for op in &api.operations {
        let found = &doc["paths"][&op.path.raw][op.method.as_str().to_lowercase()];
        assert_eq!(found["operationId"], op.name.as_str(), "{} {}", op.method.as_str(), op.path.raw);
        assert_eq!(found["tags"][0], op.tag.as_str());
        assert!(found["responses"][op.response.status.to_string()].is_object(), "{}", op.name);
        assert_eq!(found["deprecated"].as_bool().unwrap_or(false), op.deprecated.is_some(), "{}", op.name);
        let params = found["parameters"].as_array().map_or(0, Vec::len);
        assert_eq!(params, op.params.len(), "{}", op.name);
    }
    let operations: usize = doc["paths"].as_object().unwrap().values().map(|p| p.as_object().unwrap().len()).sum();
    assert_eq!(operations, api.operations.len());
}

#[test]
fn openapi_has_every_type_constraint_and_gap() {
    let (api, doc) = (api(), openapi());
    let schemas = &doc["components"]["schemas"];
    for name in api.types.keys() {
        assert!(schemas[name].is_object(), "schema {name}");
    }
    let title = &schemas["Collection"]["properties"]["title"];
    assert_eq!((title["type"].as_str(), title["maxLength"].as_u64()), (Some("string"), Some(50)));
    assert_eq!(
        schemas["Collection"]["properties"]["defaultLevel"]["anyOf"][1]["type"], "null",
        "nullable as a type union"
    );
    assert_eq!(schemas["IssuesCluster"]["properties"]["weeklyPulse"]["minItems"], 13);
    assert_eq!(schemas["IssuesCluster"]["properties"]["weeklyPulse"]["maxItems"], 13);
    // An open tagged union also accepts (exactly once) an object whose tag is none of the
    // known values, as the server does; a discriminator would forbid it.
    let merge_rules = schemas["MergeRules"]["oneOf"].as_array().unwrap();
    assert_eq!(merge_rules[0]["$ref"], "#/components/schemas/MergeRulesInherit");
    let unknown = merge_rules.last().unwrap();
    assert_eq!(unknown["required"], serde_json::json!(["type"]));
    assert_eq!(unknown["properties"]["type"]["not"]["enum"].as_array().unwrap().len(), merge_rules.len() - 1);
    assert!(schemas["MergeRules"]["discriminator"].is_null());
    // Request objects are closed, as the server is; response-only ones stay open.
    assert_eq!(schemas["UpdateCommentBody"]["additionalProperties"], false);
    assert!(schemas["Space"]["additionalProperties"].is_null());
    // An open untagged union takes any value; a field that is not nullable still refuses null.
    assert_eq!(schemas["CommentBody"]["anyOf"].as_array().unwrap().len(), 3);
    assert_eq!(schemas["UpdateCommentBody"]["properties"]["body"]["not"], serde_json::json!({"type": "null"}));
    assert_eq!(
        schemas["SpaceVisibility"]["enum"].as_array().unwrap().len(),
        6,
        "closed enumerations list their values"
    );
    assert_eq!(
        schemas["SpaceLanguage"]["anyOf"][1],
        serde_json::json!({"type": "string"}),
        "open ones accept any string"
    );
    assert_eq!(doc["components"]["securitySchemes"]["bearerAuth"]["scheme"], "bearer");

    let gaps: BTreeSet<&str> = doc["x-gaps"].as_object().unwrap().keys().map(String::as_str).collect();
    let expected: BTreeSet<&str> = api.gaps.keys().map(String::as_str).collect();
    assert_eq!(gaps, expected);
    // Shared parameters are components, referred to by each operation.
    let resolve = |p: &serde_json::Value| match p["$ref"].as_str() {
        Some(reference) => doc.pointer(&reference[1..]).unwrap().clone(),
        None => p.clone(),
    };
    let limit = doc["paths"]["/v1/orgs"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(resolve)
        .find(|p| p["name"] == "limit")
        .unwrap();
    assert_eq!(limit["x-gap"], serde_json::json!(["limit-default"]));
    assert_eq!((limit["schema"]["default"].as_u64(), limit["schema"]["maximum"].as_u64()), (Some(50), Some(1000)));
}

#[test]
fn the_reference_lists_everything_and_every_link_has_an_anchor() {
    let api = api();
    let reference = std::fs::read_to_string("../generated/REFERENCE.md").unwrap();
    let anchors: BTreeSet<&str> =
        reference.split("<a id=\"").skip(1).filter_map(|rest| rest.split('"').next()).collect();
    let links: BTreeSet<&str> = reference.split("](#").skip(1).filter_map(|rest| rest.split(')').next()).collect();
    let dangling: Vec<&&str> = links.iter().filter(|l| !anchors.contains(**l)).collect();
    assert!(dangling.is_empty(), "links without anchor: {dangling:?}");
    for op in &api.operations {
        assert!(reference.contains(&format!("### `{}`", op.name)), "{}", op.name);
    }
    for name in api.types.keys() {
        assert!(anchors.contains(format!("type-{}", name.to_lowercase()).as_str()), "{name}");
    }
    for gap in api.gaps.values() {
        assert!(reference.contains(&format!("### `{}`", gap.id)), "{}", gap.id);
    }
}

#[test]
fn the_readme_counts_what_the_spec_holds() {
    // The numbers a reader meets first come from the spec, so they cannot go stale unseen.
    let readme = std::fs::read_to_string("../README.md").unwrap().replace('\n', " ");
    let api = api();
    let groups = api.tags_with_operations().count();
    let expected = format!(
        "**{} operations in {groups} groups, {} types, and {} recorded gaps**",
        api.operations.len(),
        api.types.len(),
        api.gaps.len()
    );
    assert!(readme.contains(&expected), "README.md should say {expected}");
}

#[test]
fn openapi_links_lead_from_what_an_operation_answers_to_the_operations_on_it() {
    let doc = openapi();
    let create = &doc["paths"]["/v1/orgs/{organizationId}/collections"]["post"]["responses"]["201"]["links"];
    assert_eq!(
        create["getCollection"],
        serde_json::json!({"operationId": "getCollection", "parameters": {"collectionId": "$response.body#/id"}})
    );
    assert_eq!(create["listCollectionSpaces"]["parameters"]["collectionId"], "$response.body#/id");
    let list = &doc["paths"]["/v1/orgs/{organizationId}/collections"]["get"]["responses"]["200"]["links"];
    assert_eq!(list["deleteCollection"]["parameters"]["collectionId"], "$response.body#/items/0/id");

    // Every link names an operation and gives exactly the path parameters it takes.
    let mut targets = std::collections::BTreeMap::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for op in item.as_object().unwrap().values() {
            let params: BTreeSet<String> =
                path.split('/').filter_map(|s| s.strip_prefix('{')?.strip_suffix('}').map(str::to_owned)).collect();
            targets.insert(op["operationId"].as_str().unwrap().to_owned(), params);
        }
    }
    let mut links = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            for response in op["responses"].as_object().unwrap().values() {
                for (name, link) in response["links"].as_object().into_iter().flatten() {
                    let given: BTreeSet<String> = link["parameters"].as_object().unwrap().keys().cloned().collect();
                    assert_eq!(Some(&given), targets.get(name), "{} -> {name}", op["operationId"]);
                    links += 1;
                }
            }
        }
    }
    assert!(links > 400, "{links} links");
}

#[test]
fn a_fixture_api_gets_links_from_its_own_resources() {
    let text = std::fs::read_to_string("fixtures/generated/petstore/openapi.json").unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let list = &doc["paths"]["/v2/pets"]["get"]["responses"]["200"]["links"];
    assert_eq!(
        list["getPet"],
        serde_json::json!({"operationId": "getPet", "parameters": {"petId": "$response.body#/items/0/id"}})
    );
    let get = &doc["paths"]["/v2/pets/{petId}"]["get"]["responses"]["200"]["links"];
    assert_eq!(get["deletePet"]["parameters"]["petId"], "$request.path.petId");
    assert!(get.get("getPet").is_none(), "no operation links to itself");
}
