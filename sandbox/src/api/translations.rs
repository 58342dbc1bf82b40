//! Translations (Part C §2.5, §3, §4.2): translations of an organization's spaces into other
//! languages, their instructions and their runs.
//!
//! Storage: kind `translation`, scope and org the organization (the list in creation order).
//!
//! Decisions where the documents are silent:
//! - States (Part C §3): the only status shown is `pending`. A translation is `pending` from
//!   its creation, and a run (`POST run`, 204) leaves it `pending`: the statuses a run leads
//!   to are not shown, so the sandbox answers none it would have to invent. What a run does is
//!   recorded in `stats`: `runs` counts them; `latestPages` and `latestWords` are the pages
//!   and words of the source space's current content when the run started, added to
//!   `totalPages` and `totalWords`; runs take no time in the sandbox (durations 0). `result`
//!   stays absent: the sandbox writes no translated content.
//! - Creating needs a `source.space` that is a live space of the organization (400 otherwise)
//!   and a `language` other than the source's `language` (400: nothing to translate).
//!   A run of a translation whose source space is gone is a refused state change (400).
//! - Roles: reading needs `read`; creating, updating instructions, running and deleting need
//!   `create` (a translation makes content in the organization). `permissions` says so for
//!   the caller. A translation of another organization than the path's is not found.
//! - Delete removes it for good; a delete of an absent translation answers 204.

use crate::api::prelude::*;
use crate::domain::content::current_revision;
use crate::domain::kinds::{ORGANIZATION, SPACE, TRANSLATION};

/// The role that may change translations.
const MANAGE: Role = Role::Create;

/// The organization of the path, which must exist (404).
fn organization(tx: &Tx, org: &str) -> Result<(), ApiError> {
    tx.live(ORGANIZATION.name, org).map(|_| ())
}

/// The translation `id` of organization `org`, or a 404.
fn translation_of(tx: &Tx, org: &str, id: &str) -> Result<Row, ApiError> {
    match tx.row(TRANSLATION.name, id)? {
        Some(row) if row.deleted_at.is_none() && row.org == org => Ok(row),
        _ => Err(ApiError::not_found(format!("no translation {id} in organization {org}"))),
    }
}

/// A stored translation as the caller reads it (with what the caller may do).
fn present(tx: &Tx, user: &User, data: Value, org: &str) -> Result<Translation, ApiError> {
    let mut data = data;
    data["permissions"] = json!({
        "view": require(tx, user, org, Role::Read).is_ok(),
        "edit": require(tx, user, org, MANAGE).is_ok(),
    });
    decode(TRANSLATION.name, data)
}

/// Stats of a translation that never ran.
fn no_runs() -> Value {
    json!({
        "runs": 0, "totalWords": 0, "totalPages": 0, "totalDuration": 0,
        "latestRunDuration": 0, "latestPages": 0, "latestWords": 0,
    })
}

/// The source space of a translation: a live space of the organization, or a 400.
fn source_space(tx: &Tx, org: &str, space: Option<&str>) -> Result<Row, ApiError> {
    let Some(space) = space else {
        return Err(ApiError::bad_request("`source.space` is required: the space to translate"));
    };
    match tx.row(SPACE.name, space)? {
        Some(row) if row.deleted_at.is_none() && row.org == org => Ok(row),
        _ => Err(ApiError::bad_request(format!("source space {space} is not a space of organization {org}"))),
    }
}

/// The words of a JSON document: those of every `title` and `text` string in it.
fn words_in(value: &Value) -> i64 {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) if key == "title" || key == "text" || key == "markdown" => {
                    text.split_whitespace().count() as i64
                }
                other => words_in(other),
            })
            .sum(),
        Value::Array(items) => items.iter().map(words_in).sum(),
        _ => 0,
    }
}

/// The pages and words of a space's current content (its revision's pages).
fn content_size(tx: &Tx, space: &Row) -> Result<(i64, i64), ApiError> {
    let revision = current_revision(tx, &space.id)?;
    let pages = revision["pages"].as_array().cloned().unwrap_or_default();
    Ok((pages.len() as i64, pages.iter().map(words_in).sum()))
}

/// Records a run in a translation's stats: it translated `pages` pages and `words` words, at once.
fn record_run(stats: &mut Value, pages: i64, words: i64) {
    if !stats.is_object() {
        *stats = no_runs();
    }
    let add = |stats: &mut Value, field: &str, more: i64| {
        stats[field] = json!(stats[field].as_i64().unwrap_or(0) + more);
    };
    add(stats, "runs", 1);
    add(stats, "totalPages", pages);
    add(stats, "totalWords", words);
    add(stats, "totalDuration", 0);
    stats["latestRunDuration"] = json!(0);
    stats["latestPages"] = json!(pages);
    stats["latestWords"] = json!(words);
}

impl TranslationsApi for Sandbox {
    async fn list_organization_translations(
        &self,
        context: Ctx,
        request: ListOrganizationTranslationsRequest,
    ) -> Result<ListPage<Translation>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, org)?;
                require(tx, &context.principal, org, Role::Read)?;
                let rows: Vec<Value> = tx.all(TRANSLATION.name, org)?.into_iter().map(|row| row.data).collect();
                tx.paginate(
                    &format!("{}:{org}", TRANSLATION.name),
                    rows,
                    request.page.as_deref(),
                    request.limit,
                    |data| present(tx, &context.principal, data, org),
                )
            })
            .await
    }

    async fn create_organization_translation(
        &self,
        context: Ctx,
        request: CreateOrganizationTranslationRequest,
    ) -> Result<Translation, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, org)?;
                require(tx, &context.principal, org, MANAGE)?;
                let body = &request.body;
                source_space(tx, org, body.source.space.as_deref())?;
                let language = encode(&body.language);
                if body.source.language.as_deref().is_some_and(|source| Value::String(source.to_owned()) == language) {
                    return Err(ApiError::bad_request(format!(
                        "the source is already in {language}: a translation goes into another language"
                    )));
                }
                let id = tx.new_id(TRANSLATION.prefix)?;
                let now = timestamp(tx.now());
                let mut translation = json!({
                    "object": "translation", "id": id, "status": "pending", "source": encode(&body.source),
                    "language": language, "createdAt": now, "updatedAt": now, "stats": no_runs(),
                    "urls": {"location": format!("https://api.example.com/v1/orgs/{org}/translations/{id}")},
                });
                if let Some(instructions) = &body.instructions {
                    translation["instructions"] = encode(instructions);
                }
                tx.insert(TRANSLATION.name, &id, org, org, &translation)?;
                present(tx, &context.principal, translation, org)
            })
            .await
    }

    async fn get_translation(&self, context: Ctx, request: GetTranslationRequest) -> Result<Translation, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                let row = translation_of(tx, org, &request.translation_id)?;
                require(tx, &context.principal, org, Role::Read)?;
                present(tx, &context.principal, row.data, org)
            })
            .await
    }

    async fn update_translation_instructions(
        &self,
        context: Ctx,
        request: UpdateTranslationInstructionsRequest,
    ) -> Result<Translation, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                let row = translation_of(tx, org, &request.translation_id)?;
                require(tx, &context.principal, org, MANAGE)?;
                let now = timestamp(tx.now());
                let data = tx.modify(TRANSLATION.name, &row.id, |data| {
                    data["instructions"] = encode(&request.body.instructions);
                    data["updatedAt"] = now;
                })?;
                present(tx, &context.principal, data, org)
            })
            .await
    }

    async fn delete_translation(&self, context: Ctx, request: DeleteTranslationRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                let Ok(row) = translation_of(tx, org, &request.translation_id) else { return Ok(()) };
                require(tx, &context.principal, org, MANAGE)?;
                tx.delete(TRANSLATION.name, &row.id)?;
                Ok(())
            })
            .await
    }

    async fn run_translation(&self, context: Ctx, request: RunTranslationRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                let row = translation_of(tx, org, &request.translation_id)?;
                require(tx, &context.principal, org, MANAGE)?;
                let space = row.data["source"]["space"].as_str().map(str::to_owned);
                let space = source_space(tx, org, space.as_deref()).map_err(|_| {
                    ApiError::bad_request(format!(
                        "the source space of translation {} no longer exists: it cannot run",
                        row.id
                    ))
                })?;
                let (pages, words) = content_size(tx, &space)?;
                let now = timestamp(tx.now());
                tx.modify(TRANSLATION.name, &row.id, |data| {
                    record_run(&mut data["stats"], pages, words);
                    data["status"] = json!("pending");
                    data["updatedAt"] = now;
                })?;
                Ok(())
            })
            .await
    }
}
