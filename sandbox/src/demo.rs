//! `--demo`: a small, deterministic data set, loaded once per database. What the API can
//! create goes through the generated router (validated like a client's request); what it
//! cannot (users, spaces, pages, files: the API has no operation creating them) goes through
//! the store, the way the sandbox's own handlers write them.
//!
//! The load is one transaction ([`crate::store::Store::begin_batch`]): every request of it
//! joins the batch, and the `demo` marker is written in it, so the data set is there whole
//! and once, or not at all. Killed midway, a sandbox leaves nothing of it, and the next start
//! with `--demo` loads it; a step that fails rolls everything back. Two sandboxes starting
//! on one new file: the batch begins with `BEGIN IMMEDIATE`, so the second waits for the
//! first's load, then finds the marker (read inside its own batch) and loads nothing.
//!
//! Ids are deterministic on a new database: `org_1` (the bootstrap organization, renamed
//! "Acme Docs"), `collection_1` "Product" with `collection_2` "Engineering" nested in it,
//! `space_1` "Getting started" and `space_2` "API guide" in `collection_1`, `space_3`
//! "Runbooks" in `collection_2`, pages and a file in `space_1`, a team, a site with a section
//! and site spaces, a change request with comments, an OpenAPI spec.

use crate::domain::kinds::{INVITE_LINK, USER};
use crate::domain::{content, members, spaces};
use crate::{Bootstrap, Sandbox};
use axum::body::Body;
use axum::http::{Method, Request};
use serde_json::{Value, json};
use tower::ServiceExt;

/// Loads the demo data set unless the database has it already, in one transaction.
pub async fn load(sandbox: &Sandbox, boot: &Bootstrap) -> Result<(), String> {
    let batch = sandbox.store().begin_batch().map_err(message)?;
    // Read inside the batch: another process that loaded the file first has committed.
    let loaded = sandbox.store().read(|tx| tx.meta("demo")).map_err(message)?;
    if loaded.is_some() {
        return Ok(());
    }
    load_data(sandbox, boot).await?;
    sandbox.store().write(|tx| tx.set_meta("demo", "loaded")).map_err(message)?;
    batch.commit().map_err(message)
}

/// The data set, request by request (each one a savepoint of the load's batch).
async fn load_data(sandbox: &Sandbox, boot: &Bootstrap) -> Result<(), String> {
    let org = boot.organization.clone();
    let call = |method: Method, path: String, body: Value| call(sandbox, &boot.token, method, path, body);
    call(Method::PATCH, format!("/v1/orgs/{org}"), json!({"title": "Acme Docs", "emailDomains": ["acme.test"]}))
        .await?;
    let product = call(Method::POST, format!("/v1/orgs/{org}/collections"), json!({"title": "Product"})).await?;
    let product = product["id"].as_str().unwrap_or_default().to_owned();
    let engineering =
        call(Method::POST, format!("/v1/orgs/{org}/collections"), json!({"title": "Engineering", "parent": product}))
            .await?;
    let engineering = engineering["id"].as_str().unwrap_or_default().to_owned();

    let (people, space) = sandbox
        .store()
        .write(|tx| {
            let mut people = Vec::new();
            for (name, role) in [("Alice Martin", "create"), ("Bob Chen", "edit"), ("Carol Diaz", "read")] {
                let id = tx.new_id(USER.prefix)?;
                let email = format!("{}@acme.test", name.split(' ').next().unwrap_or(name).to_lowercase());
                members::add_member(tx, &org, &json!({"object": "user", "id": id, "displayName": name, "email": email}), Some(role))?;
                people.push(id);
            }
            let getting_started = spaces::create_space(tx, &org, Some(&product), "Getting started")?;
            spaces::create_space(tx, &org, Some(&product), "API guide")?;
            spaces::create_space(tx, &org, Some(&engineering), "Runbooks")?;
            let logo = content::seed_file(tx, &getting_started, "logo.png", "image/png", 2048)?;
            content::seed_page(tx, &getting_started, "Welcome", &format!("Welcome to Acme Docs.\n\nStart with [the install guide](https://acme.test/install). ![logo]({logo})"))?;
            content::seed_page(tx, &getting_started, "Install", "Run the installer.\n\nThen read [the FAQ](faq).")?;
            let invite = tx.new_id(INVITE_LINK.prefix)?;
            tx.insert(INVITE_LINK.name, &invite, &org, &org, &json!({"id": invite}))?;
            Ok((people, getting_started))
        })
        .map_err(message)?;

    call(Method::PUT, format!("/v1/orgs/{org}/teams"), json!({"title": "Writers", "members": [people[0], people[1]]}))
        .await?;
    let site = call(Method::POST, format!("/v1/orgs/{org}/sites"), json!({"title": "Acme Docs"})).await?;
    let site = site["id"].as_str().unwrap_or_default().to_owned();
    call(Method::POST, format!("/v1/orgs/{org}/sites/{site}/sections"), json!({"spaceId": space, "title": "Guides"}))
        .await?;
    let change = call(
        Method::POST,
        format!("/v1/spaces/{space}/change-requests"),
        json!({"subject": "Clarify the install steps"}),
    )
    .await?;
    let change = change["id"].as_str().unwrap_or_default().to_owned();
    call(Method::PATCH, format!("/v1/spaces/{space}/change-requests/{change}"), json!({"status": "open"})).await?;
    let comment = call(
        Method::POST,
        format!("/v1/spaces/{space}/change-requests/{change}/comments"),
        json!({"body": {"markdown": "Should step 2 mention the proxy?"}}),
    )
    .await?;
    let comment = comment["id"].as_str().unwrap_or_default().to_owned();
    call(
        Method::POST,
        format!("/v1/spaces/{space}/change-requests/{change}/comments/{comment}/replies"),
        json!({"body": {"markdown": "Yes, added."}}),
    )
    .await?;
    call(
        Method::POST,
        format!("/v1/spaces/{space}/comments"),
        json!({"body": {"markdown": "Welcome page needs a screenshot."}}),
    )
    .await?;
    call(
        Method::POST,
        format!("/v1/orgs/{org}/openapi"),
        json!({"slug": "acme-api", "source": {"url": "https://acme.test/openapi.yaml"}}),
    )
    .await?;
    Ok(())
}

/// One request through the router as the admin; the JSON answered, or what went wrong.
async fn call(sandbox: &Sandbox, token: &str, method: Method, path: String, body: Value) -> Result<Value, String> {
    let request = Request::builder()
        .method(method.clone())
        .uri(&path)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .map_err(|error| error.to_string())?;
    let response = sandbox.app().oneshot(request).await.map_err(|error| error.to_string())?;
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.map_err(|error| error.to_string())?;
    if !status.is_success() {
        return Err(format!("{method} {path} answered {status}: {}", String::from_utf8_lossy(&bytes)));
    }
    Ok(serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn message(error: apigen_runtime::server::ApiError) -> String {
    error.to_string()
}
