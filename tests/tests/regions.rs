//! Every server of a document (the regions fixture: a production server with a region from an
//! enumeration and a version of any text, and a sandbox): the generated client offers each,
//! builds each URL byte for byte, types the enumeration, and still takes any base URL; the
//! import keeps every server of an OpenAPI document, and the export of the spec imports back
//! to the same servers.

use apigen::model::Server;
use regions_client::servers::{production, sandbox};
use regions_client::{Client, DEFAULT_BASE_URL};
use std::path::Path;

#[test]
fn each_server_is_a_constant_at_its_defaults_and_a_url_of_its_typed_variables() {
    assert_eq!(production::URL, "https://eu.api.example.com/v1");
    assert_eq!(sandbox::URL, "https://sandbox.example.com/v1");
    assert_eq!(DEFAULT_BASE_URL, production::URL, "the first server, at its defaults");
    assert_eq!(production::url(production::Region::Us, "v2"), "https://us.api.example.com/v2");
    assert_eq!(production::url(production::Region::ApSoutheast, "v1"), "https://ap-southeast.api.example.com/v1");
    assert_eq!(production::url(production::Region::default(), "v1"), production::URL);
    // A free variable is written as given, not percent-encoded (OpenAPI substitutes it).
    assert_eq!(production::url(production::Region::Eu, "v1/beta"), "https://eu.api.example.com/v1/beta");
}

#[test]
fn an_enumerated_variable_lists_its_values_in_the_spec_order() {
    let values: Vec<String> = production::Region::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(values, ["eu", "us", "ap-southeast"]);
    assert_eq!(production::Region::default(), production::Region::Eu);
}

#[test]
fn the_client_takes_a_server_or_any_base_url() {
    let url = production::url(production::Region::Us, "v1");
    assert_eq!(Client::new(&url, "t").unwrap().settings().base_url, "https://us.api.example.com/v1");
    assert_eq!(Client::new(sandbox::URL, "t").unwrap().settings().base_url, sandbox::URL);
    let own = Client::new("http://127.0.0.1:8080/proxy", "t").unwrap();
    assert_eq!(own.settings().base_url, "http://127.0.0.1:8080/proxy");
}

/// The servers of a spec as lines: name, URL, description, then each variable with its
/// default, values and description.
fn servers(servers: &[Server]) -> Vec<String> {
    servers
        .iter()
        .map(|server| {
            let variables: Vec<String> = server
                .variables
                .iter()
                .map(|v| format!("{}={} {:?} {:?}", v.name, v.default, v.values, v.description))
                .collect();
            format!("{} {} {:?} [{}]", server.rust, server.url, server.description, variables.join(", "))
        })
        .collect()
}

#[test]
fn the_export_imports_back_to_the_same_servers() {
    let (original, _) = apigen::load(Path::new("fixtures/valid/regions")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("spec");
    apigen::import(Path::new("fixtures/generated/regions/openapi.json"), &out, false).unwrap();
    let (imported, _) = apigen::load(&out).unwrap();
    assert_eq!(servers(&imported.servers), servers(&original.servers));
    assert_eq!(
        servers(&original.servers),
        [
            "production https://{region}.api.example.com/{version} Some(\"Production, in the region of your data.\") \
             [region=eu [\"eu\", \"us\", \"ap-southeast\"] Some(\"Where your data lives.\"), \
             version=v1 [] Some(\"The API version.\")]",
            "sandbox https://sandbox.example.com/v1 Some(\"A sandbox with test data.\") []",
        ]
    );
}

#[test]
fn the_import_keeps_every_server_of_a_document_with_its_enumerations() {
    let doc = serde_json::json!({
        "openapi": "3.1.0",
        "info": { "title": "Many servers", "version": "1" },
        "servers": [
            {
                "url": "https://{tenant}.{region}.example.com:{port}/api",
                "description": "Per tenant and region.",
                "variables": {
                    "tenant": { "default": "demo" },
                    "region": { "default": "us-east-1", "enum": ["us-east-1", "eu-west-1"] },
                    "port": { "default": "443", "enum": ["443", "8443"], "description": "The port." }
                }
            },
            { "url": "https://staging.example.com/api", "description": "Staging.", "name": "staging" },
            { "url": "https://{host}/api", "variables": { "host": { "default": "a.example.com", "enum": ["b.example.com"] } } }
        ],
        "paths": { "/ping": { "get": { "operationId": "ping", "responses": { "204": { "description": "Up." } } } } }
    });
    let imported = apigen::import::import(&doc, "doc").unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in &imported.files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let (api, _) = apigen::load(dir.path()).unwrap_or_else(|diags| panic!("{}", diags.render()));
    assert_eq!(
        servers(&api.servers),
        [
            "server_1 https://{tenant}.{region}.example.com:{port}/api Some(\"Per tenant and region.\") \
             [tenant=demo [] None, region=us-east-1 [\"us-east-1\", \"eu-west-1\"] None, \
             port=443 [\"443\", \"8443\"] Some(\"The port.\")]",
            "staging https://staging.example.com/api Some(\"Staging.\") []",
            // A default outside its `enum` (which OpenAPI forbids) is read as allowing any value.
            "server_3 https://{host}/api None [host=a.example.com [] None]",
        ]
    );
    let port = &api.servers[0].variables[2];
    assert_eq!(
        (port.rust_type.as_str(), port.variants.as_slice()),
        ("Port", &["N443".to_owned(), "N8443".to_owned()][..])
    );
}
