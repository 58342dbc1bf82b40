//! Site structure (Part B §2.2–2.4, §4.2–4.4): the sections of a site, the section groups
//! that nest them, and the site spaces (spaces published in a site, at its root or in a
//! section).
//!
//! Storage (every row's `org` is the site's organization):
//! - `site-section`, `site-section-group` and `site-space` rows have the site's id as scope.
//!   A section's `sectionGroup` names its group; a group's `sectionGroup` its parent group; a
//!   site space's `section` its section (absent: the site's root).
//! - The order of the site's tree, where sections and groups mix, is kept by a private kind,
//!   [`ENTRY`]: one row per section or group, id the same, scope the parent (the site's id
//!   at the root, else the group's id), `{ "kind": <kind> }` as data. Moves place these rows,
//!   so a position naming something that is not a sibling is a 400.
//! - Computed when answered, never stored: a section's `siteSpaces`, a group's `children`,
//!   the `urls` (present once the site is published), the embedded `space` of a site space
//!   (the space as it is now; its title is the site space's title).
//!
//! Decisions where the documents are silent:
//! - The section list answers the root of the site's tree: root sections and root groups,
//!   each group with its `children` (sections and nested groups), as the published
//!   `structure` shows it. The section group list answers every group of the site, in tree
//!   order, each with its children.
//! - A space named by a body must be a live space of the site's organization: absent is a
//!   404, of another organization a 400. A section, site space or group named by a body
//!   (other than a move's position) must belong to the site: otherwise a 404.
//! - Defaults: the first section of a site is its default section; the first site space of a
//!   container (the root, or a section) is that container's default (`default` true), which
//!   `defaultSiteSpace` of the site or the section changes. Removing a default makes the
//!   first remaining one the default. When a site gets its first section, the site spaces at
//!   its root move into it: a site with sections has all its site spaces in sections.
//! - Paths: a new section's or site space's path is made from its title (lowercase letters,
//!   digits and dashes; `section` or `space` when nothing is left), made unique among its
//!   siblings with `-2`, `-3`…; a PATCH to a path a sibling already has is a 400.
//! - Deleting a section deletes its site spaces. Deleting a group keeps its children: they
//!   take the group's place in its parent (in their order). Removing a section from a group
//!   puts it just after the group in the group's parent.
//! - Moves: `before` or `after` places among the siblings; neither puts it last; both is a
//!   400. A site space's siblings are the site spaces of its container.
//! - Reading needs `read`; changing the structure needs `create`, the role that creates
//!   sites.

use crate::api::prelude::*;
use crate::api::sites::{self, PublishedUrls};

/// The kind site sections are stored under (scope: the site's id).
pub const SECTION: &str = "site-section";
/// The kind section groups are stored under (scope: the site's id).
pub const GROUP: &str = "site-section-group";
/// The kind site spaces are stored under (scope: the site's id).
pub const SITE_SPACE: &str = "site-space";
/// The order of the site's tree: one row per section or group (scope: its parent).
pub const ENTRY: &str = "site-structure-entry";

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
        View { site, urls: sites::published_urls(&site.data, share_key) }
    }
}

// ---- finding things of a site ----

/// A live row of `kind` belonging to `site`, or a 404.
fn of_site(tx: &Tx, kind: &str, site: &Row, id: &str) -> Result<Row, ApiError> {
    match tx.row(kind, id)? {
        Some(row) if row.deleted_at.is_none() && row.scope == site.id => Ok(row),
        _ => Err(ApiError::not_found(format!("no {kind} with id {id} in site {}", site.id))),
    }
}

/// Like [`of_site`], but `None` when absent (for deletes, which succeed then).
fn of_site_opt(tx: &Tx, kind: &str, site: &Row, id: &str) -> Result<Option<Row>, ApiError> {
    Ok(tx.row(kind, id)?.filter(|row| row.deleted_at.is_none() && row.scope == site.id))
}

/// The live space a site space links, which must be of the site's organization.
fn linked_space(tx: &Tx, site: &Row, space_id: &str) -> Result<Value, ApiError> {
    let space = tx.live(crate::api::spaces::KIND, space_id)?;
    if space.org != site.org {
        return Err(ApiError::bad_request(format!(
            "space {space_id} is not a space of organization {}: a site publishes its organization's spaces",
            site.org
        )));
    }
    Ok(space.data)
}

/// The site spaces of a container: a section's, or the root's (`None`), in order.
fn container(tx: &Tx, site: &str, section: Option<&str>) -> Result<Vec<Row>, ApiError> {
    Ok(tx.all(SITE_SPACE, site)?.into_iter().filter(|row| row.data["section"].as_str() == section).collect())
}

/// The id of the site's default section, if it has sections.
pub fn default_section(tx: &Tx, site: &str) -> Result<Option<String>, ApiError> {
    let sections = tx.all(SECTION, site)?;
    let default = sections.iter().find(|row| row.data["default"] == json!(true)).or(sections.first());
    Ok(default.map(|row| row.id.clone()))
}

// ---- paths, titles, positions ----

/// A path made from a title: lowercase letters, digits and single dashes, at most 90
/// characters (room for a suffix), or `fallback`.
fn slug(title: &str, fallback: &str) -> String {
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
fn unique_path(path: String, siblings: &[Row]) -> String {
    let taken = |candidate: &str| siblings.iter().any(|row| row.data["path"].as_str() == Some(candidate));
    if !taken(&path) {
        return path;
    }
    (2..).map(|n| format!("{path}-{n}")).find(|candidate| !taken(candidate)).unwrap_or(path)
}

/// Refuses a path a sibling (other than `id`) already has.
fn check_path_free(path: &str, id: &str, siblings: &[Row]) -> Result<(), ApiError> {
    if siblings.iter().any(|row| row.id != id && row.data["path"].as_str() == Some(path)) {
        return Err(ApiError::bad_request(format!("path {path:?} is already used by a sibling")));
    }
    Ok(())
}

/// Where a move puts something: before or after a sibling, or last when neither is given.
fn place_of(before: Option<String>, after: Option<String>) -> Result<Place, ApiError> {
    match (before, after) {
        (Some(_), Some(_)) => {
            Err(ApiError::bad_request("give one of `position.before` and `position.after`, not both"))
        }
        (Some(before), None) => Ok(Place::Before(before)),
        (None, Some(after)) => Ok(Place::After(after)),
        (None, None) => Ok(Place::End),
    }
}

// ---- answering ----

/// A site space as answered: its space as it is now, its URL once the site is published.
fn present_site_space(tx: &Tx, view: &View, mut data: Value) -> Result<Value, ApiError> {
    if let Some(space_id) = data["space"]["id"].as_str().map(str::to_owned) {
        match tx.row(crate::api::spaces::KIND, &space_id)? {
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
fn present_section(tx: &Tx, view: &View, mut data: Value) -> Result<Value, ApiError> {
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

/// A group as answered: with its children.
fn present_group(tx: &Tx, view: &View, mut data: Value) -> Result<Value, ApiError> {
    let id = data["id"].as_str().unwrap_or_default().to_owned();
    data["children"] = Value::Array(present_level(tx, view, &id)?);
    Ok(data)
}

/// The sections and groups of one level of the tree (the site's root, or a group), in order.
pub fn present_level(tx: &Tx, view: &View, scope: &str) -> Result<Vec<Value>, ApiError> {
    let mut items = Vec::new();
    for entry in tx.all(ENTRY, scope)? {
        let kind = entry.data["kind"].as_str().unwrap_or_default();
        let Some(row) = tx.row(kind, &entry.id)?.filter(|row| row.deleted_at.is_none()) else { continue };
        items.push(match kind {
            GROUP => present_group(tx, view, row.data)?,
            _ => present_section(tx, view, row.data)?,
        });
    }
    Ok(items)
}

/// The site spaces at the root of a site, as answered.
pub fn present_root_spaces(tx: &Tx, view: &View) -> Result<Vec<Value>, ApiError> {
    container(tx, &view.site.id, None)?.into_iter().map(|row| present_site_space(tx, view, row.data)).collect()
}

/// Every group of the site, in tree order (each before its nested groups).
fn groups_in_tree_order(tx: &Tx, scope: &str, out: &mut Vec<String>) -> Result<(), ApiError> {
    for entry in tx.all(ENTRY, scope)? {
        if entry.data["kind"] == json!(GROUP) {
            out.push(entry.id.clone());
            groups_in_tree_order(tx, &entry.id, out)?;
        }
    }
    Ok(())
}

fn decode_page<T: apigen_runtime::FromJson>(kind: &str, page: ListPage<Value>) -> Result<ListPage<T>, ApiError> {
    Ok(ListPage {
        next: page.next,
        count: page.count,
        items: page.items.into_iter().map(|data| decode(kind, data)).collect::<Result<_, _>>()?,
    })
}

// ---- changing the structure ----

/// Publishes `space_id` in `site` as a new site space of a section (or the root): the
/// container's default when it is its first.
pub fn add_site_space(tx: &Tx, site: &Row, space_id: &str, section: Option<&str>) -> Result<Value, ApiError> {
    let space = linked_space(tx, site, space_id)?;
    let siblings = container(tx, &site.id, section)?;
    let title = space["title"].as_str().unwrap_or_default().to_owned();
    let id = tx.new_id("sitesp")?;
    let mut data = json!({
        "object": "site-space", "id": id, "path": unique_path(slug(&title, "space"), &siblings),
        "title": title, "space": space, "default": siblings.is_empty(),
    });
    if let Some(section) = section {
        data["section"] = json!(section);
    }
    tx.insert(SITE_SPACE, &id, &site.org, &site.id, &data)?;
    Ok(data)
}

/// Makes `id` the only default site space of its container.
fn make_default_site_space(tx: &Tx, site: &str, section: Option<&str>, id: &str) -> Result<(), ApiError> {
    for row in container(tx, site, section)? {
        let default = row.id == id;
        if row.data["default"].as_bool().unwrap_or(false) != default {
            tx.modify(SITE_SPACE, &row.id, |data| data["default"] = json!(default))?;
        }
    }
    Ok(())
}

/// After a default left a container: the first remaining site space becomes its default.
fn elect_default_site_space(tx: &Tx, site: &str, section: Option<&str>) -> Result<(), ApiError> {
    let spaces = container(tx, site, section)?;
    if !spaces.iter().any(|row| row.data["default"] == json!(true))
        && let Some(first) = spaces.first()
    {
        tx.modify(SITE_SPACE, &first.id, |data| data["default"] = json!(true))?;
    }
    Ok(())
}

/// Makes `id` the site's only default section.
pub fn make_default_section(tx: &Tx, site: &str, id: &str) -> Result<(), ApiError> {
    for row in tx.all(SECTION, site)? {
        let default = row.id == id;
        if row.data["default"].as_bool().unwrap_or(false) != default {
            tx.modify(SECTION, &row.id, |data| data["default"] = json!(default))?;
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

/// Moves the entry of a section or group into `scope` (a group, or the site's root), last.
fn rehome_entry(tx: &Tx, site: &Row, id: &str, scope: &str) -> Result<(), ApiError> {
    tx.rehome(ENTRY, id, &site.org, scope)
}

/// Sets (or clears) the parent group a section or group records.
fn set_parent(tx: &Tx, kind: &str, id: &str, parent: Option<&str>) -> Result<(), ApiError> {
    tx.modify(kind, id, |data| match parent {
        Some(parent) => data["sectionGroup"] = json!(parent),
        None => {
            if let Some(object) = data.as_object_mut() {
                object.remove("sectionGroup");
            }
        }
    })?;
    Ok(())
}

/// Puts a section into a group (last among the group's children).
fn put_in_group(tx: &Tx, site: &Row, section: &Row, group: &str) -> Result<(), ApiError> {
    if section.data["sectionGroup"].as_str() == Some(group) {
        return Ok(());
    }
    rehome_entry(tx, site, &section.id, group)?;
    set_parent(tx, SECTION, &section.id, Some(group))
}

/// The scope a group's entry lives in (its parent group, or the site's root).
fn parent_scope(site: &Row, group: &Row) -> String {
    group.data["sectionGroup"].as_str().unwrap_or(&site.id).to_owned()
}

/// Removes a section and its site spaces; another section becomes default if it was.
fn remove_section(tx: &Tx, site: &Row, section: &Row) -> Result<(), ApiError> {
    for space in container(tx, &site.id, Some(&section.id))? {
        tx.delete(SITE_SPACE, &space.id)?;
    }
    tx.delete(ENTRY, &section.id)?;
    tx.delete(SECTION, &section.id)?;
    if section.data["default"] == json!(true)
        && let Some(first) = tx.all(SECTION, &site.id)?.first()
    {
        make_default_section(tx, &site.id, &first.id)?;
    }
    Ok(())
}

/// Removes a group; its children take its place in its parent, in their order.
fn remove_group(tx: &Tx, site: &Row, group: &Row) -> Result<(), ApiError> {
    let parent = parent_scope(site, group);
    let parent_group = group.data["sectionGroup"].as_str().map(str::to_owned);
    for child in tx.all(ENTRY, &group.id)? {
        rehome_entry(tx, site, &child.id, &parent)?;
        tx.place(ENTRY, &child.id, &Place::Before(group.id.clone()))?;
        let kind = child.data["kind"].as_str().unwrap_or(SECTION).to_owned();
        set_parent(tx, &kind, &child.id, parent_group.as_deref())?;
    }
    tx.delete(ENTRY, &group.id)?;
    tx.delete(GROUP, &group.id)?;
    Ok(())
}

/// Removes everything of a site's structure (the site is being deleted).
pub fn remove_all(tx: &Tx, site: &str) -> Result<(), ApiError> {
    for kind in [SECTION, GROUP] {
        for row in tx.all(kind, site)? {
            tx.delete(ENTRY, &row.id)?;
        }
        tx.delete_scope(kind, site)?;
    }
    tx.delete_scope(ENTRY, site)?;
    tx.delete_scope(SITE_SPACE, site)?;
    Ok(())
}

/// The number of site spaces of a site.
pub fn count_site_spaces(tx: &Tx, site: &str) -> Result<i64, ApiError> {
    tx.count(SITE_SPACE, site)
}

/// The spaces a site publishes (ids), for the site list's `space` filter.
pub fn publishes_space(tx: &Tx, site: &str, space: &str) -> Result<bool, ApiError> {
    Ok(tx.all(SITE_SPACE, site)?.iter().any(|row| row.data["space"]["id"].as_str() == Some(space)))
}

/// The title of a new section: the one given, else its space's if long enough.
fn section_title(given: &Patch<String>, space: &Value) -> String {
    if let Patch::Value(title) = given {
        return title.clone();
    }
    match space["title"].as_str() {
        Some(title) if (2..=128).contains(&title.chars().count()) => title.to_owned(),
        _ => "Section".to_owned(),
    }
}

/// Removes from a PATCH body's JSON the fields that are commands, not stored fields.
fn take(patch: &mut Value, key: &str) -> Option<Value> {
    patch.as_object_mut().and_then(|object| object.remove(key))
}

impl SiteStructureApi for Sandbox {
    async fn list_site_sections(
        &self,
        context: Ctx,
        request: ListSiteSectionsRequest,
    ) -> Result<ListPage<SiteSectionOrGroup>, ApiError> {
        self.store().read(|tx| {
            let site = sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
            let view = View::new(&site, request.share_key.as_deref());
            let items = present_level(tx, &view, &site.id)?;
            let page =
                tx.paginate(&format!("site-sections:{}", site.id), items, request.page.as_deref(), request.limit)?;
            decode_page(SECTION, page)
        })
    }

    async fn create_site_section(
        &self,
        context: Ctx,
        request: CreateSiteSectionRequest,
    ) -> Result<SiteSection, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let body = request.body;
            let space = linked_space(tx, &site, &body.space_id)?;
            let title = section_title(&body.title, &space);
            let sections = tx.all(SECTION, &site.id)?;
            let id = tx.new_id("section")?;
            let mut data = json!({
                "object": "site-section", "id": id, "title": title,
                "path": unique_path(slug(&title, "section"), &sections), "default": sections.is_empty(),
            });
            if let Patch::Value(icon) = &body.icon {
                data["icon"] = json!(icon);
            }
            tx.insert(SECTION, &id, &site.org, &site.id, &data)?;
            tx.insert(ENTRY, &id, &site.org, &site.id, &json!({"kind": SECTION}))?;
            if sections.is_empty() {
                // The site's first section gathers the site spaces of its root.
                for root in container(tx, &site.id, None)? {
                    tx.modify(SITE_SPACE, &root.id, |data| data["section"] = json!(id))?;
                }
            }
            add_site_space(tx, &site, &body.space_id, Some(&id))?;
            let view = View::new(&site, None);
            decode(SECTION, present_section(tx, &view, tx.live(SECTION, &id)?.data)?)
        })
    }

    async fn delete_site_section(&self, context: Ctx, request: DeleteSiteSectionRequest) -> Result<(), ApiError> {
        self.store().write(|tx| {
            let Some(site) =
                sites::site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
            else {
                return Ok(());
            };
            if let Some(section) = of_site_opt(tx, SECTION, &site, &request.site_section_id)? {
                remove_section(tx, &site, &section)?;
            }
            Ok(())
        })
    }

    async fn update_site_section(
        &self,
        context: Ctx,
        request: UpdateSiteSectionRequest,
    ) -> Result<SiteSection, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let section = of_site(tx, SECTION, &site, &request.site_section_id)?;
            let mut patch = encode(&request.body);
            if let Some(space) = take(&mut patch, "defaultSiteSpace") {
                let space = of_site(tx, SITE_SPACE, &site, space.as_str().unwrap_or_default())?;
                if space.data["section"].as_str() != Some(&section.id) {
                    return Err(ApiError::bad_request(format!(
                        "site space {} is not in section {}",
                        space.id, section.id
                    )));
                }
                make_default_site_space(tx, &site.id, Some(&section.id), &space.id)?;
            }
            if let Some(path) = patch["path"].as_str() {
                check_path_free(path, &section.id, &tx.all(SECTION, &site.id)?)?;
            }
            let data = tx.modify(SECTION, &section.id, |data| merge(data, &patch))?;
            decode(SECTION, present_section(tx, &View::new(&site, None), data)?)
        })
    }

    async fn move_site_section(&self, context: Ctx, request: MoveSiteSectionRequest) -> Result<SiteSection, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let section = of_site(tx, SECTION, &site, &request.site_section_id)?;
            let position = request.body.position.unwrap_or_default();
            let place = place_of(position.before.map(|t| t.site_section), position.after.map(|t| t.site_section))?;
            tx.place(ENTRY, &section.id, &place)?;
            decode(SECTION, present_section(tx, &View::new(&site, None), section.data)?)
        })
    }

    async fn list_site_spaces(
        &self,
        context: Ctx,
        request: ListSiteSpacesRequest,
    ) -> Result<ListPage<SiteSpace>, ApiError> {
        self.store().read(|tx| {
            let site = sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
            let view = View::new(&site, request.share_key.as_deref());
            let items = tx
                .all(SITE_SPACE, &site.id)?
                .into_iter()
                .filter(|row| request.default.is_none_or(|d| row.data["default"].as_bool().unwrap_or(false) == d))
                .map(|row| present_site_space(tx, &view, row.data))
                .collect::<Result<Vec<_>, _>>()?;
            let list = format!("site-spaces:{}:{:?}", site.id, request.default);
            let page = tx.paginate(&list, items, request.page.as_deref(), request.limit)?;
            decode_page(SITE_SPACE, page)
        })
    }

    async fn create_site_space(&self, context: Ctx, request: CreateSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let section = match &request.body.section_id {
                Some(id) => Some(of_site(tx, SECTION, &site, id)?.id),
                None => default_section(tx, &site.id)?,
            };
            let data = add_site_space(tx, &site, &request.body.space_id, section.as_deref())?;
            decode(SITE_SPACE, present_site_space(tx, &View::new(&site, None), data)?)
        })
    }

    async fn delete_site_space(&self, context: Ctx, request: DeleteSiteSpaceRequest) -> Result<(), ApiError> {
        self.store().write(|tx| {
            let Some(site) =
                sites::site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
            else {
                return Ok(());
            };
            if let Some(space) = of_site_opt(tx, SITE_SPACE, &site, &request.site_space_id)? {
                tx.delete(SITE_SPACE, &space.id)?;
                elect_default_site_space(tx, &site.id, space.data["section"].as_str())?;
            }
            Ok(())
        })
    }

    async fn update_site_space(&self, context: Ctx, request: UpdateSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let space = of_site(tx, SITE_SPACE, &site, &request.site_space_id)?;
            let mut patch = encode(&request.body);
            let linked = match take(&mut patch, "spaceId") {
                Some(space_id) => Some(linked_space(tx, &site, space_id.as_str().unwrap_or_default())?),
                None => None,
            };
            if let Some(path) = patch["path"].as_str() {
                check_path_free(path, &space.id, &container(tx, &site.id, space.data["section"].as_str())?)?;
            }
            let data = tx.modify(SITE_SPACE, &space.id, |data| {
                if let Some(linked) = linked {
                    if let Some(title) = linked["title"].as_str() {
                        data["title"] = json!(title);
                    }
                    data["space"] = linked;
                }
                merge(data, &patch);
            })?;
            decode(SITE_SPACE, present_site_space(tx, &View::new(&site, None), data)?)
        })
    }

    async fn move_site_space(&self, context: Ctx, request: MoveSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let space = of_site(tx, SITE_SPACE, &site, &request.site_space_id)?;
            let position = request.body.position.unwrap_or_default();
            let place = place_of(position.before.map(|t| t.site_space), position.after.map(|t| t.site_space))?;
            if let Place::Before(target) | Place::After(target) = &place {
                let sibling = of_site_opt(tx, SITE_SPACE, &site, target)?
                    .is_some_and(|row| row.id != space.id && row.data["section"] == space.data["section"]);
                if !sibling {
                    return Err(ApiError::bad_request(format!("{target} is not a sibling of {}", space.id)));
                }
            }
            tx.place(SITE_SPACE, &space.id, &place)?;
            decode(SITE_SPACE, present_site_space(tx, &View::new(&site, None), space.data)?)
        })
    }

    async fn list_site_section_groups(
        &self,
        context: Ctx,
        request: ListSiteSectionGroupsRequest,
    ) -> Result<ListPage<SiteSectionGroup>, ApiError> {
        self.store().read(|tx| {
            let site = sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
            let view = View::new(&site, None);
            let mut ids = Vec::new();
            groups_in_tree_order(tx, &site.id, &mut ids)?;
            let items = ids
                .iter()
                .map(|id| present_group(tx, &view, tx.live(GROUP, id)?.data))
                .collect::<Result<Vec<_>, _>>()?;
            let page = tx.paginate(
                &format!("site-section-groups:{}", site.id),
                items,
                request.page.as_deref(),
                request.limit,
            )?;
            decode_page(GROUP, page)
        })
    }

    async fn create_site_section_group(
        &self,
        context: Ctx,
        request: CreateSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let body = request.body;
            let parent = match &body.parent {
                Some(parent) => Some(of_site(tx, GROUP, &site, parent)?.id),
                None => None,
            };
            let sections = body
                .sections
                .iter()
                .flatten()
                .map(|id| of_site(tx, SECTION, &site, id))
                .collect::<Result<Vec<_>, _>>()?;
            let id = tx.new_id("group")?;
            let mut data = json!({"object": "site-section-group", "id": id, "title": body.title});
            if let Some(icon) = &body.icon {
                data["icon"] = json!(icon);
            }
            if let Some(parent) = &parent {
                data["sectionGroup"] = json!(parent);
            }
            tx.insert(GROUP, &id, &site.org, &site.id, &data)?;
            tx.insert(ENTRY, &id, &site.org, parent.as_deref().unwrap_or(&site.id), &json!({"kind": GROUP}))?;
            for section in &sections {
                put_in_group(tx, &site, section, &id)?;
            }
            decode(GROUP, present_group(tx, &View::new(&site, None), data)?)
        })
    }

    async fn delete_site_section_group(
        &self,
        context: Ctx,
        request: DeleteSiteSectionGroupRequest,
    ) -> Result<(), ApiError> {
        self.store().write(|tx| {
            let Some(site) =
                sites::site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
            else {
                return Ok(());
            };
            if let Some(group) = of_site_opt(tx, GROUP, &site, &request.site_section_group_id)? {
                remove_group(tx, &site, &group)?;
            }
            Ok(())
        })
    }

    async fn update_site_section_group(
        &self,
        context: Ctx,
        request: UpdateSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let group = of_site(tx, GROUP, &site, &request.site_section_group_id)?;
            if request.body.title.as_deref().is_some_and(str::is_empty) {
                return Err(ApiError::bad_request("a section group's title cannot be empty"));
            }
            let patch = encode(&request.body);
            let data = tx.modify(GROUP, &group.id, |data| merge(data, &patch))?;
            decode(GROUP, present_group(tx, &View::new(&site, None), data)?)
        })
    }

    async fn add_site_section_group_section(
        &self,
        context: Ctx,
        request: AddSiteSectionGroupSectionRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let group = of_site(tx, GROUP, &site, &request.site_section_group_id)?;
            let section = of_site(tx, SECTION, &site, &request.body.section_id)?;
            put_in_group(tx, &site, &section, &group.id)?;
            decode(GROUP, present_group(tx, &View::new(&site, None), group.data)?)
        })
    }

    async fn remove_site_section_group_section(
        &self,
        context: Ctx,
        request: RemoveSiteSectionGroupSectionRequest,
    ) -> Result<(), ApiError> {
        self.store().write(|tx| {
            let Some(site) =
                sites::site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
            else {
                return Ok(());
            };
            let Some(group) = of_site_opt(tx, GROUP, &site, &request.site_section_group_id)? else { return Ok(()) };
            let Some(section) = of_site_opt(tx, SECTION, &site, &request.site_section_id)? else { return Ok(()) };
            if section.data["sectionGroup"].as_str() != Some(&group.id) {
                return Ok(());
            }
            rehome_entry(tx, &site, &section.id, &parent_scope(&site, &group))?;
            tx.place(ENTRY, &section.id, &Place::After(group.id.clone()))?;
            set_parent(tx, SECTION, &section.id, group.data["sectionGroup"].as_str())
        })
    }

    async fn move_site_section_group(
        &self,
        context: Ctx,
        request: MoveSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store().write(|tx| {
            let site =
                sites::site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let group = of_site(tx, GROUP, &site, &request.site_section_group_id)?;
            let position = request.body.position.unwrap_or_default();
            let place = place_of(position.before.map(|t| t.id), position.after.map(|t| t.id))?;
            tx.place(ENTRY, &group.id, &place)?;
            decode(GROUP, present_group(tx, &View::new(&site, None), group.data)?)
        })
    }
}
