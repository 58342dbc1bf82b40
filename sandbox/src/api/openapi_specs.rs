//! OpenAPI specs (Part B §2.12, §3.4, §4.9) of an organization, by slug.
//!
//! Stored under kind `openapi-spec`, scope the organization's id, id `<org>/<slug>` (a slug
//! names one spec per organization). Processing (§3.4 names only `pending`): a created spec,
//! or one whose source changes, is `pending`; the sandbox fetches nothing, and the first read
//! at least one second after the change finds it processed (`processingState: processed`,
//! `lastProcessedAt`, a new `lastVersion`), so a client sees the pending state and its end.
//! A source that is not a URL is processed with the error code `UNSUPPORTED_SOURCE`.
//! Decisions where the documents are silent: creating a slug that exists is 409 (PUT is the
//! create-or-update); writing needs `edit`, deleting `admin`.

use crate::api::prelude::*;
use crate::domain::kinds::{OPENAPI_SPEC, SPEC_VERSION};

fn key(org: &str, slug: &str) -> String {
    format!("{org}/{slug}")
}

/// Marks the spec's source changed: pending from now.
fn pending(document: &mut Value, source: &Value, now: &Value) {
    document["processingState"] = json!("pending");
    document["sourceChangedAt"] = now.clone();
    match source["url"].as_str() {
        Some(url) => document["sourceURL"] = json!(url),
        None => {
            document.as_object_mut().map(|d| d.remove("sourceURL"));
        }
    }
}

/// The spec as read at `now`: processed when its source changed at least a second ago.
fn processed(tx: &Tx, row: Row) -> Result<Value, ApiError> {
    let mut document = row.data;
    let changed = document["sourceChangedAt"].as_str().and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
    if document["processingState"] == "pending"
        && changed.is_some_and(|at| tx.now() - at.to_utc() >= chrono::Duration::seconds(1))
    {
        document["processingState"] = json!("processed");
        document["lastProcessedAt"] = timestamp(tx.now());
        if document.get("sourceURL").is_some() {
            document["lastVersion"] = json!(tx.new_id(SPEC_VERSION.prefix)?);
            document.as_object_mut().map(|d| d.remove("lastProcessErrorCode"));
            document["lastProcessedErrors"] = json!([]);
        } else {
            document["lastProcessErrorCode"] = json!("UNSUPPORTED_SOURCE");
            document["lastProcessedErrors"] =
                json!([{"code": "UNSUPPORTED_SOURCE", "message": "the sandbox processes URL sources only"}]);
        }
        tx.put(OPENAPI_SPEC.name, &row.id, &document)?;
    }
    Ok(document)
}

fn answer(document: Value) -> Result<OpenApiSpec, ApiError> {
    let mut document = document;
    document.as_object_mut().map(|d| d.remove("sourceChangedAt"));
    out(OPENAPI_SPEC, document)
}

fn spec_row(tx: &Tx, org: &str, slug: &str) -> Result<Row, ApiError> {
    tx.live(OPENAPI_SPEC.name, &key(org, slug))
        .map_err(|_| ApiError::not_found(format!("no OpenAPI spec {slug} in organization {org}")))
}

fn create_spec(tx: &Tx, org: &str, slug: &str, source: &Value) -> Result<Value, ApiError> {
    let (_, mut document) = new_document(tx, OPENAPI_SPEC, &json!({}))?;
    let id = key(org, slug);
    let now = timestamp(tx.now());
    merge(
        &mut document,
        &json!({
            "object": "openapi-spec", "id": id, "slug": slug, "visibility": "private",
            "permissions": {"view": true, "edit": true},
            "urls": {"location": format!("{API_URL}/v1/orgs/{org}/openapi/{slug}"), "app": format!("https://app.example.com/o/{org}/openapi/{slug}")},
        }),
    );
    pending(&mut document, source, &now);
    tx.insert(OPENAPI_SPEC.name, &id, org, org, &document)?;
    Ok(document)
}

impl OpenapiSpecsApi for Sandbox {
    async fn list_organization_open_api_specs(
        &self,
        context: Ctx,
        request: ListOrganizationOpenApiSpecsRequest,
    ) -> Result<ListPage<OpenApiSpec>, ApiError> {
        self.store()
            .write_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Read)?;
                let specs = tx
                    .all(OPENAPI_SPEC.name, &request.organization_id)?
                    .into_iter()
                    .map(|row| processed(tx, row))
                    .collect::<Result<Vec<_>, _>>()?;
                tx.paginate(
                    &format!("openapi:{}", request.organization_id),
                    specs,
                    request.page.as_deref(),
                    request.limit,
                    answer,
                )
            })
            .await
    }

    async fn create_organization_open_api_spec(
        &self,
        context: Ctx,
        request: CreateOrganizationOpenApiSpecRequest,
    ) -> Result<OpenApiSpec, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Edit)?;
                if tx.row(OPENAPI_SPEC.name, &key(org, &request.body.slug))?.is_some() {
                    return Err(ApiError::conflict(format!(
                        "an OpenAPI spec with slug {} exists: PUT updates it",
                        request.body.slug
                    )));
                }
                answer(create_spec(tx, org, &request.body.slug, &encode(&request.body.source))?)
            })
            .await
    }

    async fn get_open_api_spec(&self, context: Ctx, request: GetOpenApiSpecRequest) -> Result<OpenApiSpec, ApiError> {
        self.store()
            .write_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Read)?;
                answer(processed(tx, spec_row(tx, &request.organization_id, &request.spec_slug)?)?)
            })
            .await
    }

    async fn create_or_update_open_api_spec(
        &self,
        context: Ctx,
        request: CreateOrUpdateOpenApiSpecRequest,
    ) -> Result<OpenApiSpec, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Edit)?;
                let source = encode(&request.body.source);
                if !slug_is_valid(&request.spec_slug) {
                    return Err(ApiError::bad_request(format!(
                        "slug {:?} is not 1 to 100 of a-z, 0-9 and single dashes",
                        request.spec_slug
                    )));
                }
                match tx.row(OPENAPI_SPEC.name, &key(org, &request.spec_slug))? {
                    None => answer(create_spec(tx, org, &request.spec_slug, &source)?),
                    Some(row) => {
                        let now = timestamp(tx.now());
                        let document = tx.modify(OPENAPI_SPEC.name, &row.id, |d| {
                            pending(d, &source, &now);
                            d["updatedAt"] = now.clone();
                        })?;
                        answer(document)
                    }
                }
            })
            .await
    }

    async fn delete_open_api_spec(&self, context: Ctx, request: DeleteOpenApiSpecRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(row) = tx.row(OPENAPI_SPEC.name, &key(&request.organization_id, &request.spec_slug))? else {
                    return Ok(());
                };
                require(tx, &context.principal, &row.org, Role::Admin)?;
                tx.delete(OPENAPI_SPEC.name, &row.id)?;
                Ok(())
            })
            .await
    }

    async fn update_open_api_spec(
        &self,
        context: Ctx,
        request: UpdateOpenApiSpecRequest,
    ) -> Result<OpenApiSpec, ApiError> {
        self.store()
            .write_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Edit)?;
                let row = spec_row(tx, &request.organization_id, &request.spec_slug)?;
                let document = touch(tx, OPENAPI_SPEC, &row.id, &encode(&request.body))?;
                answer(processed(tx, Row { data: document, ..row })?)
            })
            .await
    }
}

/// The slug rule of Part B §2.12 (the router checks it on create; a PUT's slug is a path
/// parameter, checked here).
fn slug_is_valid(slug: &str) -> bool {
    (1..=100).contains(&slug.len())
        && slug
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}
