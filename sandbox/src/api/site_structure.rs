//! Site structure (Part B §2.2–2.4, §4.2–4.4): the sections of a site, the section groups
//! that nest them, and the site spaces (spaces published in a site, at its root or in a
//! section).
//!
//! Storage and what answers the structure are `crate::domain::site_structure`.
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
//! - Groups nest at most 10 deep (`MAX_GROUP_DEPTH` of the domain): creating a group in a
//!   group at depth 10 is a 400 naming the rule, since groups are answered nested.
//! - Moves: `before` or `after` places among the siblings; neither puts it last; both is a
//!   400. A site space's siblings are the site spaces of its container.
//! - Reading needs `read`; changing the structure needs `create`, the role that creates
//!   sites.

use crate::api::prelude::*;
use crate::domain::kinds::{ENTRY, GROUP, SECTION, SITE_SPACE};
use crate::domain::site_structure::{
    MAX_GROUP_DEPTH, View, add_site_space, container, default_section, group_depth, linked_space, make_default_section,
    make_default_site_space, of_site, of_site_opt, present_group, present_level, present_section, present_site_space,
    slug, unique_path,
};
use crate::domain::sites::{site_for, site_for_delete};

// ---- finding things of a site ----

// ---- paths, titles, positions ----

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

/// Every group of the site, in tree order (each before its nested groups).
fn groups_in_tree_order(tx: &Tx, site: &str) -> Result<Vec<String>, ApiError> {
    let groups_in = |scope: &str| -> Result<Vec<String>, ApiError> {
        let entries = tx.all(ENTRY.name, scope)?.into_iter();
        Ok(entries.filter(|entry| entry.data["kind"] == json!(GROUP.name)).map(|entry| entry.id).rev().collect())
    };
    let mut out = Vec::new();
    let mut stack = groups_in(site)?;
    while let Some(group) = stack.pop() {
        stack.extend(groups_in(&group)?);
        out.push(group);
    }
    Ok(out)
}

// ---- changing the structure ----

/// A group of the site that may hold a new group: one at [`MAX_GROUP_DEPTH`] is a 400.
fn parent_group(tx: &Tx, site: &Row, id: &str) -> Result<Row, ApiError> {
    let group = of_site(tx, GROUP, site, id)?;
    if group_depth(tx, &group)? >= MAX_GROUP_DEPTH {
        return Err(ApiError::bad_request(format!(
            "section groups nest at most {MAX_GROUP_DEPTH} deep: group {id} is at depth {MAX_GROUP_DEPTH}, so a group in it would be deeper"
        )));
    }
    Ok(group)
}

/// After a default left a container: the first remaining site space becomes its default.
fn elect_default_site_space(tx: &Tx, site: &str, section: Option<&str>) -> Result<(), ApiError> {
    let spaces = container(tx, site, section)?;
    if !spaces.iter().any(|row| row.data["default"] == json!(true))
        && let Some(first) = spaces.first()
    {
        tx.modify(SITE_SPACE.name, &first.id, |data| data["default"] = json!(true))?;
    }
    Ok(())
}

/// Moves the entry of a section or group into `scope` (a group, or the site's root), last.
fn rehome_entry(tx: &Tx, site: &Row, id: &str, scope: &str) -> Result<(), ApiError> {
    tx.rehome(ENTRY.name, id, &site.org, scope)
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
    set_parent(tx, SECTION.name, &section.id, Some(group))
}

/// The scope a group's entry lives in (its parent group, or the site's root).
fn parent_scope(site: &Row, group: &Row) -> String {
    group.data["sectionGroup"].as_str().unwrap_or(&site.id).to_owned()
}

/// Removes a section and its site spaces; another section becomes default if it was.
fn remove_section(tx: &Tx, site: &Row, section: &Row) -> Result<(), ApiError> {
    for space in container(tx, &site.id, Some(&section.id))? {
        tx.delete(SITE_SPACE.name, &space.id)?;
    }
    tx.delete(ENTRY.name, &section.id)?;
    tx.delete(SECTION.name, &section.id)?;
    if section.data["default"] == json!(true)
        && let Some(first) = tx.all(SECTION.name, &site.id)?.first()
    {
        make_default_section(tx, &site.id, &first.id)?;
    }
    Ok(())
}

/// Removes a group; its children take its place in its parent, in their order.
fn remove_group(tx: &Tx, site: &Row, group: &Row) -> Result<(), ApiError> {
    let parent = parent_scope(site, group);
    let parent_group = group.data["sectionGroup"].as_str().map(str::to_owned);
    for child in tx.all(ENTRY.name, &group.id)? {
        rehome_entry(tx, site, &child.id, &parent)?;
        tx.place(ENTRY.name, &child.id, &Place::Before(group.id.clone()))?;
        let kind = child.data["kind"].as_str().unwrap_or(SECTION.name).to_owned();
        set_parent(tx, &kind, &child.id, parent_group.as_deref())?;
    }
    tx.delete(ENTRY.name, &group.id)?;
    tx.delete(GROUP.name, &group.id)?;
    Ok(())
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
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                let view = View::new(&site, request.share_key.as_deref());
                let items = present_level(tx, &view, &site.id)?;
                tx.paginate(
                    &format!("site-sections:{}", site.id),
                    items,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(SECTION.name, item),
                )
            })
            .await
    }

    async fn create_site_section(
        &self,
        context: Ctx,
        request: CreateSiteSectionRequest,
    ) -> Result<SiteSection, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let body = request.body;
                let space = in_body("/spaceId", linked_space(tx, &site, &body.space_id))?;
                let title = section_title(&body.title, &space);
                let sections = tx.all(SECTION.name, &site.id)?;
                let id = tx.new_id(SECTION.prefix)?;
                let mut data = json!({
                    "object": "site-section", "id": id, "title": title,
                    "path": unique_path(slug(&title, "section"), &sections), "default": sections.is_empty(),
                });
                if let Patch::Value(icon) = &body.icon {
                    data["icon"] = json!(icon);
                }
                tx.insert(SECTION.name, &id, &site.org, &site.id, &data)?;
                tx.insert(ENTRY.name, &id, &site.org, &site.id, &json!({"kind": SECTION.name}))?;
                if sections.is_empty() {
                    // The site's first section gathers the site spaces of its root.
                    for root in container(tx, &site.id, None)? {
                        tx.modify(SITE_SPACE.name, &root.id, |data| data["section"] = json!(id))?;
                    }
                }
                add_site_space(tx, &site, &body.space_id, Some(&id))?;
                let view = View::new(&site, None);
                decode(SECTION.name, present_section(tx, &view, tx.live(SECTION.name, &id)?.data)?)
            })
            .await
    }

    async fn delete_site_section(&self, context: Ctx, request: DeleteSiteSectionRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(site) = site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
                else {
                    return Ok(());
                };
                if let Some(section) = of_site_opt(tx, SECTION, &site, &request.site_section_id)? {
                    remove_section(tx, &site, &section)?;
                }
                Ok(())
            })
            .await
    }

    async fn update_site_section(
        &self,
        context: Ctx,
        request: UpdateSiteSectionRequest,
    ) -> Result<UpdateSiteSectionAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
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
                    check_path_free(path, &section.id, &tx.all(SECTION.name, &site.id)?)?;
                }
                let data = tx.modify(SECTION.name, &section.id, |data| merge(data, &patch))?;
                decode(SECTION.name, present_section(tx, &View::new(&site, None), data)?)
            })
            .await
            .map(UpdateSiteSectionAnswer::Ok)
    }

    async fn move_site_section(&self, context: Ctx, request: MoveSiteSectionRequest) -> Result<SiteSection, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let section = of_site(tx, SECTION, &site, &request.site_section_id)?;
                let position = request.body.position.unwrap_or_default();
                let place = place_of(position.before.map(|t| t.site_section), position.after.map(|t| t.site_section))?;
                tx.place(ENTRY.name, &section.id, &place)?;
                decode(SECTION.name, present_section(tx, &View::new(&site, None), section.data)?)
            })
            .await
    }

    async fn list_site_spaces(
        &self,
        context: Ctx,
        request: ListSiteSpacesRequest,
    ) -> Result<ListPage<SiteSpace>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                let view = View::new(&site, request.share_key.as_deref());
                let items = tx
                    .all(SITE_SPACE.name, &site.id)?
                    .into_iter()
                    .filter(|row| request.default.is_none_or(|d| row.data["default"].as_bool().unwrap_or(false) == d))
                    .map(|row| present_site_space(tx, &view, row.data))
                    .collect::<Result<Vec<_>, _>>()?;
                let list = format!("site-spaces:{}:{:?}", site.id, request.default);
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| decode(SITE_SPACE.name, item))
            })
            .await
    }

    async fn create_site_space(
        &self,
        context: Ctx,
        request: CreateSiteSpaceRequest,
    ) -> Result<CreateSiteSpaceAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let section = match &request.body.section_id {
                    Some(id) => Some(in_body("/sectionId", of_site(tx, SECTION, &site, id))?.id),
                    None => default_section(tx, &site.id)?,
                };
                let data = in_body("/spaceId", add_site_space(tx, &site, &request.body.space_id, section.as_deref()))?;
                decode(SITE_SPACE.name, present_site_space(tx, &View::new(&site, None), data)?)
            })
            .await
            .map(CreateSiteSpaceAnswer::Created)
    }

    async fn delete_site_space(&self, context: Ctx, request: DeleteSiteSpaceRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(site) = site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
                else {
                    return Ok(());
                };
                if let Some(space) = of_site_opt(tx, SITE_SPACE, &site, &request.site_space_id)? {
                    tx.delete(SITE_SPACE.name, &space.id)?;
                    elect_default_site_space(tx, &site.id, space.data["section"].as_str())?;
                }
                Ok(())
            })
            .await
    }

    async fn update_site_space(
        &self,
        context: Ctx,
        request: UpdateSiteSpaceRequest,
    ) -> Result<UpdateSiteSpaceAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let space = of_site(tx, SITE_SPACE, &site, &request.site_space_id)?;
                let mut patch = encode(&request.body);
                let linked = match take(&mut patch, "spaceId") {
                    Some(space_id) => Some(linked_space(tx, &site, space_id.as_str().unwrap_or_default())?),
                    None => None,
                };
                if let Some(path) = patch["path"].as_str() {
                    check_path_free(path, &space.id, &container(tx, &site.id, space.data["section"].as_str())?)?;
                }
                let data = tx.modify(SITE_SPACE.name, &space.id, |data| {
                    if let Some(linked) = linked {
                        if let Some(title) = linked["title"].as_str() {
                            data["title"] = json!(title);
                        }
                        data["space"] = linked;
                    }
                    merge(data, &patch);
                })?;
                decode(SITE_SPACE.name, present_site_space(tx, &View::new(&site, None), data)?)
            })
            .await
            .map(UpdateSiteSpaceAnswer::Ok)
    }

    async fn move_site_space(&self, context: Ctx, request: MoveSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
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
                tx.place(SITE_SPACE.name, &space.id, &place)?;
                decode(SITE_SPACE.name, present_site_space(tx, &View::new(&site, None), space.data)?)
            })
            .await
    }

    async fn list_site_section_groups(
        &self,
        context: Ctx,
        request: ListSiteSectionGroupsRequest,
    ) -> Result<ListPage<SiteSectionGroup>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                let view = View::new(&site, None);
                let items = groups_in_tree_order(tx, &site.id)?
                    .iter()
                    .map(|id| present_group(tx, &view, tx.live(GROUP.name, id)?.data))
                    .collect::<Result<Vec<_>, _>>()?;
                tx.paginate(
                    &format!("site-section-groups:{}", site.id),
                    items,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(GROUP.name, item),
                )
            })
            .await
    }

    async fn create_site_section_group(
        &self,
        context: Ctx,
        request: CreateSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let body = request.body;
                let parent = match &body.parent {
                    Some(parent) => Some(parent_group(tx, &site, parent)?.id),
                    None => None,
                };
                let sections = body
                    .sections
                    .iter()
                    .flatten()
                    .map(|id| of_site(tx, SECTION, &site, id))
                    .collect::<Result<Vec<_>, _>>()?;
                let id = tx.new_id(GROUP.prefix)?;
                let mut data = json!({"object": "site-section-group", "id": id, "title": body.title});
                if let Some(icon) = &body.icon {
                    data["icon"] = json!(icon);
                }
                if let Some(parent) = &parent {
                    data["sectionGroup"] = json!(parent);
                }
                tx.insert(GROUP.name, &id, &site.org, &site.id, &data)?;
                tx.insert(
                    ENTRY.name,
                    &id,
                    &site.org,
                    parent.as_deref().unwrap_or(&site.id),
                    &json!({"kind": GROUP.name}),
                )?;
                for section in &sections {
                    put_in_group(tx, &site, section, &id)?;
                }
                decode(GROUP.name, present_group(tx, &View::new(&site, None), data)?)
            })
            .await
    }

    async fn delete_site_section_group(
        &self,
        context: Ctx,
        request: DeleteSiteSectionGroupRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(site) = site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
                else {
                    return Ok(());
                };
                if let Some(group) = of_site_opt(tx, GROUP, &site, &request.site_section_group_id)? {
                    remove_group(tx, &site, &group)?;
                }
                Ok(())
            })
            .await
    }

    async fn update_site_section_group(
        &self,
        context: Ctx,
        request: UpdateSiteSectionGroupRequest,
    ) -> Result<UpdateSiteSectionGroupAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let group = of_site(tx, GROUP, &site, &request.site_section_group_id)?;
                if request.body.title.as_deref().is_some_and(str::is_empty) {
                    return Err(ApiError::bad_request("a section group's title cannot be empty"));
                }
                let patch = encode(&request.body);
                let data = tx.modify(GROUP.name, &group.id, |data| merge(data, &patch))?;
                decode(GROUP.name, present_group(tx, &View::new(&site, None), data)?)
            })
            .await
            .map(UpdateSiteSectionGroupAnswer::Ok)
    }

    async fn add_site_section_group_section(
        &self,
        context: Ctx,
        request: AddSiteSectionGroupSectionRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let group = of_site(tx, GROUP, &site, &request.site_section_group_id)?;
                let section = in_body("/sectionId", of_site(tx, SECTION, &site, &request.body.section_id))?;
                put_in_group(tx, &site, &section, &group.id)?;
                decode(GROUP.name, present_group(tx, &View::new(&site, None), group.data)?)
            })
            .await
    }

    async fn remove_site_section_group_section(
        &self,
        context: Ctx,
        request: RemoveSiteSectionGroupSectionRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(site) = site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
                else {
                    return Ok(());
                };
                let Some(group) = of_site_opt(tx, GROUP, &site, &request.site_section_group_id)? else { return Ok(()) };
                let Some(section) = of_site_opt(tx, SECTION, &site, &request.site_section_id)? else { return Ok(()) };
                if section.data["sectionGroup"].as_str() != Some(&group.id) {
                    return Ok(());
                }
                rehome_entry(tx, &site, &section.id, &parent_scope(&site, &group))?;
                tx.place(ENTRY.name, &section.id, &Place::After(group.id.clone()))?;
                set_parent(tx, SECTION.name, &section.id, group.data["sectionGroup"].as_str())
            })
            .await
    }

    async fn move_site_section_group(
        &self,
        context: Ctx,
        request: MoveSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let group = of_site(tx, GROUP, &site, &request.site_section_group_id)?;
                let position = request.body.position.unwrap_or_default();
                let place = place_of(position.before.map(|t| t.id), position.after.map(|t| t.id))?;
                tx.place(ENTRY.name, &group.id, &place)?;
                decode(GROUP.name, present_group(tx, &View::new(&site, None), group.data)?)
            })
            .await
    }
}
