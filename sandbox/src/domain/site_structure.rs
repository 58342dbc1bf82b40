//! A site's structure as the sites and site-structure groups both read and change it:
//! finding a site's sections, groups and site spaces, answering them, publishing a space in a
//! site, and the defaults of each container.
//!
//! Storage (every row's `org` is the site's organization):
//! - `site-section`, `site-section-group` and `site-space` rows have the site's id as scope.
//!   A section's `sectionGroup` names its group; a group's `sectionGroup` its parent group; a
//!   site space's `section` its section (absent: the site's root).
//! - The order of the site's tree, where sections and groups mix, is kept by a private kind,
//!   [`ENTRY`]: one row per section or group, id the same, scope the parent (the site's id
//!   at the root, else the group's id), `{ "kind": <kind> }` as data.
//! - Computed when answered, never stored: a section's `siteSpaces`, a group's `children`,
//!   the `urls` (present once the site is published), the embedded `space` of a site space
//!   (the space as it is now; its title is the site space's title).

use super::kinds::{ENTRY, GROUP, Kind, SECTION, SITE_SPACE, SPACE};
use super::sites::{PublishedUrls, published_urls};
use crate::store::{Row, Tx};
use apigen_runtime::server::ApiError;
use serde_json::{Value, json};

/// What answering a part of a site's structure needs: the site and its published URLs.
/// What answering a part of a site's structure needs: the site and its published URLs.
pub struct View<'a> {
    /// The site.
    pub site: &'a Row,
    /// Where the site is published (absent while unpublished).
    pub urls: Option<PublishedUrls>,
}

impl<'a> View<'a> {
    /// The view of `site`, with the share key a share-link site's URLs carry.
    pub fn new(site: &'a Row, share_key: Option<&str>) -> View<'a> {
        View { site, urls: published_urls(&site.data, share_key) }
    }
}

/// A live row of `kind` belonging to `site`, or a 404.
pub fn of_site(tx: &Tx, kind: Kind, site: &Row, id: &str) -> Result<Row, ApiError> {
    match tx.row(kind.name, id)? {
        Some(row) if row.deleted_at.is_none() && row.scope == site.id => Ok(row),
        _ => Err(ApiError::not_found(format!("no {} with id {id} in site {}", kind.name, site.id))),
    }
}

/// Like [`of_site`], but `None` when absent (for deletes, which succeed then).
pub fn of_site_opt(tx: &Tx, kind: Kind, site: &Row, id: &str) -> Result<Option<Row>, ApiError> {
    Ok(tx.row(kind.name, id)?.filter(|row| row.deleted_at.is_none() && row.scope == site.id))
}

/// The live space a site space links, which must be of the site's organization.
pub fn linked_space(tx: &Tx, site: &Row, space_id: &str) -> Result<Value, ApiError> {
    let space = tx.live(SPACE.name, space_id)?;
    if space.org != site.org {
        return Err(ApiError::bad_request(format!(
            "space {space_id} is not a space of organization {}: a site publishes its organization's spaces",
            site.org
        )));
    }
    Ok(space.data)
}

/// The site spaces of a container: a section's, or the root's (`None`), in order.
pub fn container(tx: &Tx, site: &str, section: Option<&str>) -> Result<Vec<Row>, ApiError> {
    Ok(tx.all(SITE_SPACE.name, site)?.into_iter().filter(|row| row.data["section"].as_str() == section).collect())
}

/// The id of the site's default section, if it has sections.
pub fn default_section(tx: &Tx, site: &str) -> Result<Option<String>, ApiError> {
    let sections = tx.all(SECTION.name, site)?;
    let default = sections.iter().find(|row| row.data["default"] == json!(true)).or(sections.first());
    Ok(default.map(|row| row.id.clone()))
}

/// A path made from a title: lowercase letters, digits and single dashes, at most 90
/// characters (room for a suffix), or `fallback`.
pub fn slug(title: &str, fallback: &str) -> String {
    let mut slug = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 90 {
            break;
        }
    }
    let slug = slug.trim_matches('-');
    if slug.is_empty() { fallback.to_owned() } else { slug.to_owned() }
}

/// `path`, or `path-2`, `path-3`… : the first one no sibling has.
pub fn unique_path(path: String, siblings: &[Row]) -> String {
    let taken = |candidate: &str| siblings.iter().any(|row| row.data["path"].as_str() == Some(candidate));
    if !taken(&path) {
        return path;
    }
    (2..).map(|n| format!("{path}-{n}")).find(|candidate| !taken(candidate)).unwrap_or(path)
}

/// A site space as answered: its space as it is now, its URL once the site is published.
pub fn present_site_space(tx: &Tx, view: &View, mut data: Value) -> Result<Value, ApiError> {
    if let Some(space_id) = data["space"]["id"].as_str().map(str::to_owned) {
        match tx.row(SPACE.name, &space_id)? {
            Some(space) if space.deleted_at.is_none() => {
                if let Some(title) = space.data["title"].as_str() {
                    data["title"] = json!(title);
                }
                data["space"] = space.data;
            }
            _ => {
                if let Some(object) = data.as_object_mut() {
                    object.remove("space");
                }
            }
        }
    }
    if let Some(urls) = &view.urls {
        let mut segments = Vec::new();
        if let Some(section) = data["section"].as_str()
            && let Some(row) = of_site_opt(tx, SECTION, view.site, section)?
        {
            segments.push(row.data["path"].as_str().unwrap_or_default().to_owned());
        }
        segments.push(data["path"].as_str().unwrap_or_default().to_owned());
        data["urls"] = json!({"published": urls.at(&segments)});
    }
    Ok(data)
}

/// A section as answered: with its site spaces and its URL.
pub fn present_section(tx: &Tx, view: &View, mut data: Value) -> Result<Value, ApiError> {
    let id = data["id"].as_str().unwrap_or_default().to_owned();
    let spaces = container(tx, &view.site.id, Some(&id))?
        .into_iter()
        .map(|row| present_site_space(tx, view, row.data))
        .collect::<Result<Vec<_>, _>>()?;
    data["siteSpaces"] = Value::Array(spaces);
    if let Some(urls) = &view.urls {
        data["urls"] = json!({"published": urls.at(&[data["path"].as_str().unwrap_or_default().to_owned()])});
    }
    Ok(data)
}

/// How deep section groups nest: a group at the site's root is at depth 1, a group in it at
/// depth 2… Creating a group deeper is refused (400). Groups are answered nested (a group
/// holds its children), so an answer is as deep as the tree: the bound keeps every answer
/// far inside the nesting JSON parsers accept (serde_json stops at 128 levels) and every
/// walk over the tree short. The documents give no number; ten levels is more than any
/// navigation shows.
pub const MAX_GROUP_DEPTH: usize = 10;

/// The depth of a group (see [`MAX_GROUP_DEPTH`]), found by walking up its parents (at most
/// one step more than the bound).
pub fn group_depth(tx: &Tx, group: &Row) -> Result<usize, ApiError> {
    let parent_of = |data: &Value| data["sectionGroup"].as_str().map(str::to_owned);
    let mut depth = 1;
    let mut parent = parent_of(&group.data);
    while let Some(id) = parent
        && depth <= MAX_GROUP_DEPTH
    {
        depth += 1;
        parent = tx.row(GROUP.name, &id)?.and_then(|row| parent_of(&row.data));
    }
    Ok(depth)
}

/// A group as answered: with its children.
pub fn present_group(tx: &Tx, view: &View, data: Value) -> Result<Value, ApiError> {
    present_group_within(tx, view, data, MAX_GROUP_DEPTH)
}

/// The sections and groups of one level of the tree (the site's root, or a group), in order.
pub fn present_level(tx: &Tx, view: &View, scope: &str) -> Result<Vec<Value>, ApiError> {
    present_level_within(tx, view, scope, MAX_GROUP_DEPTH)
}

/// A group with its children, which may nest `levels` more groups.
fn present_group_within(tx: &Tx, view: &View, mut data: Value, levels: usize) -> Result<Value, ApiError> {
    let Some(below) = levels.checked_sub(1) else {
        return Err(ApiError::internal(format!(
            "site {}: its section groups nest deeper than {MAX_GROUP_DEPTH}, which the sandbox no longer makes",
            view.site.id
        )));
    };
    let id = data["id"].as_str().unwrap_or_default().to_owned();
    data["children"] = Value::Array(present_level_within(tx, view, &id, below)?);
    Ok(data)
}

/// One level of the tree, whose groups may nest `levels` groups (each one counted).
fn present_level_within(tx: &Tx, view: &View, scope: &str, levels: usize) -> Result<Vec<Value>, ApiError> {
    let mut items = Vec::new();
    for entry in tx.all(ENTRY.name, scope)? {
        let kind = entry.data["kind"].as_str().unwrap_or_default();
        let Some(row) = tx.row(kind, &entry.id)?.filter(|row| row.deleted_at.is_none()) else { continue };
        items.push(if kind == GROUP.name {
            present_group_within(tx, view, row.data, levels)?
        } else {
            present_section(tx, view, row.data)?
        });
    }
    Ok(items)
}

/// The site spaces at the root of a site, as answered.
pub fn present_root_spaces(tx: &Tx, view: &View) -> Result<Vec<Value>, ApiError> {
    container(tx, &view.site.id, None)?.into_iter().map(|row| present_site_space(tx, view, row.data)).collect()
}

/// Publishes `space_id` in `site` as a new site space of a section (or the root): the
/// container's default when it is its first.
pub fn add_site_space(tx: &Tx, site: &Row, space_id: &str, section: Option<&str>) -> Result<Value, ApiError> {
    let space = linked_space(tx, site, space_id)?;
    let siblings = container(tx, &site.id, section)?;
    let title = space["title"].as_str().unwrap_or_default().to_owned();
    let id = tx.new_id(SITE_SPACE.prefix)?;
    let mut data = json!({
        "object": "site-space", "id": id, "path": unique_path(slug(&title, "space"), &siblings),
        "title": title, "space": space, "default": siblings.is_empty(),
    });
    if let Some(section) = section {
        data["section"] = json!(section);
    }
    tx.insert(SITE_SPACE.name, &id, &site.org, &site.id, &data)?;
    Ok(data)
}

/// Makes `id` the only default site space of its container.
pub fn make_default_site_space(tx: &Tx, site: &str, section: Option<&str>, id: &str) -> Result<(), ApiError> {
    for row in container(tx, site, section)? {
        let default = row.id == id;
        if row.data["default"].as_bool().unwrap_or(false) != default {
            tx.modify(SITE_SPACE.name, &row.id, |data| data["default"] = json!(default))?;
        }
    }
    Ok(())
}

/// Makes `id` the site's only default section.
pub fn make_default_section(tx: &Tx, site: &str, id: &str) -> Result<(), ApiError> {
    for row in tx.all(SECTION.name, site)? {
        let default = row.id == id;
        if row.data["default"].as_bool().unwrap_or(false) != default {
            tx.modify(SECTION.name, &row.id, |data| data["default"] = json!(default))?;
        }
    }
    Ok(())
}

/// The site's `defaultSiteSpace`: the default at the root, or in the default section when
/// the site has sections; a site space elsewhere is a 400.
pub fn make_site_default_site_space(tx: &Tx, site: &Row, id: &str) -> Result<(), ApiError> {
    let space = of_site(tx, SITE_SPACE, site, id)?;
    let container_id = space.data["section"].as_str().map(str::to_owned);
    if container_id != default_section(tx, &site.id)? {
        return Err(ApiError::bad_request(format!(
            "site space {id} is not in the default section of the site: make its section the default first"
        )));
    }
    make_default_site_space(tx, &site.id, container_id.as_deref(), id)
}

/// The site's `defaultSiteSection`.
pub fn make_site_default_section(tx: &Tx, site: &Row, id: &str) -> Result<(), ApiError> {
    of_site(tx, SECTION, site, id)?;
    make_default_section(tx, &site.id, id)
}

/// Removes everything of a site's structure (the site is being deleted).
pub fn remove_all(tx: &Tx, site: &str) -> Result<(), ApiError> {
    for kind in [SECTION.name, GROUP.name] {
        for row in tx.all(kind, site)? {
            tx.delete(ENTRY.name, &row.id)?;
        }
        tx.delete_scope(kind, site)?;
    }
    tx.delete_scope(ENTRY.name, site)?;
    tx.delete_scope(SITE_SPACE.name, site)?;
    Ok(())
}

/// The number of site spaces of a site.
pub fn count_site_spaces(tx: &Tx, site: &str) -> Result<i64, ApiError> {
    tx.count(SITE_SPACE.name, site)
}

/// The spaces a site publishes (ids), for the site list's `space` filter.
pub fn publishes_space(tx: &Tx, site: &str, space: &str) -> Result<bool, ApiError> {
    Ok(tx.all(SITE_SPACE.name, site)?.iter().any(|row| row.data["space"]["id"].as_str() == Some(space)))
}
