//! Revisions and what they hold. A revision is one document (kind `revision`, scope the
//! space's id) holding its `pages` and `files` inline, so a revision is immutable once
//! superseded and a change request's revision is a copy of the space's. Spaces, change
//! requests and translations make and read revisions through here.

use super::kinds::{FILE, PAGE, REVISION, SPACE};
use super::timestamp;
use crate::store::Tx;
use apigen_runtime::server::ApiError;
use serde_json::{Value, json};

/// Creates the first (empty) revision of a new space and answers its id: the space's
/// `revision`.
pub fn first_revision(tx: &Tx, org: &str, space: &str) -> Result<String, ApiError> {
    let id = tx.new_id(REVISION.prefix)?;
    let revision = json!({
        "object": "revision", "id": id, "type": "edits", "parents": [], "pages": [], "files": [],
        "createdAt": timestamp(tx.now()),
    });
    tx.insert(REVISION.name, &id, org, space, &revision)?;
    Ok(id)
}

/// A new revision of `space` whose content is that of revision `from`, of type `kind`, with
/// `parents`; answers its id.
pub fn derive_revision(
    tx: &Tx,
    org: &str,
    space: &str,
    from: &str,
    kind: &str,
    parents: &[&str],
) -> Result<String, ApiError> {
    let base = tx.live(REVISION.name, from)?.data;
    let id = tx.new_id(REVISION.prefix)?;
    let revision = json!({
        "object": "revision", "id": id, "type": kind, "parents": parents,
        "pages": base["pages"].clone(), "files": base["files"].clone(), "createdAt": timestamp(tx.now()),
    });
    tx.insert(REVISION.name, &id, org, space, &revision)?;
    Ok(id)
}

/// Copies the content of space `from` (its current revision's pages and files) into
/// `revision` (the first revision of its duplicate).
pub fn copy_space_content(tx: &Tx, from: &str, revision: &str) -> Result<(), ApiError> {
    let source = current_revision(tx, from)?;
    tx.modify(REVISION.name, revision, |r| {
        r["pages"] = source["pages"].clone();
        r["files"] = source["files"].clone();
    })?;
    Ok(())
}

/// The current revision document of a space.
pub fn current_revision(tx: &Tx, space: &str) -> Result<Value, ApiError> {
    let space = tx.live(SPACE.name, space)?.data;
    let id = space["revision"].as_str().unwrap_or_default();
    Ok(tx.live(REVISION.name, id)?.data)
}

/// Adds a page to the current revision of a space (in place: the sandbox has no page-edit
/// operation, so seeded and templated pages are the space's live edits); answers its id.
pub fn seed_page(tx: &Tx, space: &str, title: &str, markdown: &str) -> Result<String, ApiError> {
    let revision = current_revision(tx, space)?;
    let id = tx.new_id(PAGE.prefix)?;
    let slug: String = title
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let now = timestamp(tx.now());
    let page = json!({
        "type": "document", "id": id, "title": title, "slug": slug, "path": slug, "markdown": markdown,
        "createdAt": now, "updatedAt": now, "pages": [],
    });
    tx.modify(REVISION.name, revision["id"].as_str().unwrap_or_default(), |r| {
        if let Some(pages) = r["pages"].as_array_mut() {
            pages.push(page);
        }
    })?;
    let org = tx.live(SPACE.name, space)?.org;
    tx.index(&org, PAGE.name, &format!("{space}/{id}"), title, markdown)?;
    Ok(id)
}

/// Adds a file to the current revision of a space; answers its id.
pub fn seed_file(tx: &Tx, space: &str, name: &str, content_type: &str, size: i64) -> Result<String, ApiError> {
    let revision = current_revision(tx, space)?;
    let id = tx.new_id(FILE.prefix)?;
    let file = json!({"id": id, "name": name, "contentType": content_type, "size": size, "downloadUrl": format!("https://files.example.com/{id}/{name}")});
    tx.modify(REVISION.name, revision["id"].as_str().unwrap_or_default(), |r| {
        if let Some(files) = r["files"].as_array_mut() {
            files.push(file);
        }
    })?;
    Ok(id)
}

/// Every page of a revision, nested ones included, in document order (the walk keeps its
/// own stack).
pub fn pages_of(revision: &Value) -> Vec<Value> {
    fn children(pages: &Value) -> impl Iterator<Item = &Value> {
        pages.as_array().into_iter().flatten().rev()
    }
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = children(&revision["pages"]).collect();
    while let Some(page) = stack.pop() {
        stack.extend(children(&page["pages"]));
        out.push(page.clone());
    }
    out
}

/// The Markdown links of a page as link-report items: `ok` when absolute (`http://`,
/// `https://`), `broken` otherwise.
pub fn links_of(page: &Value) -> Vec<Value> {
    let markdown = page["markdown"].as_str().unwrap_or_default();
    let mut links = Vec::new();
    let mut rest = markdown;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        let target = &after[..end];
        let status = if target.starts_with("http://") || target.starts_with("https://") { "ok" } else { "broken" };
        links.push(json!({"status": status, "url": target, "page": page["id"]}));
        rest = &after[end..];
    }
    links
}

/// Every link of a revision's pages.
pub fn revision_links(revision: &Value) -> Vec<Value> {
    pages_of(revision).iter().flat_map(links_of).collect()
}
