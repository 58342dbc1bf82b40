//! Sites (Part B §2.1, §2.5, §3.2, §4.1): the documentation sites of an organization, their
//! publication, their adaptive schema and template conditions, and their published profile.
//! The structure of a site (sections, groups, site spaces) is `crate::api::site_structure`.
//!
//! Storage: a site is a `site` row (scope: the organization's id); its adaptive schema a
//! `site-adaptive-schema` row whose id and scope are the site's id. `siteSpaces` (the count)
//! and `urls.published` are computed when answered.
//!
//! Decisions where the documents are silent:
//! - A site of another organization than the path's is a 404, as an absent one.
//! - Reading needs `read`; creating, changing, publishing and deleting sites needs `create`
//!   (the role that creates sites).
//! - A new site is `basic` unless told, `public` unless told, unpublished, adaptive content
//!   off; the spaces of `spaces` become site spaces at its root (an absent space is a 404,
//!   one of another organization a 400).
//! - Publication (§3.2): publishing an unpublished site makes it `published`; publishing a
//!   published site is a refused state change (400), as the table has no such row. It
//!   answers the site, never a checkout session (gap `site-publish-checkout`: the sandbox
//!   has no billing). The
//!   published profile exists once the site is published: before, it is a 404. Published
//!   URLs (`urls.published` of the site, its sections and site spaces) appear once the site
//!   is published: `https://<hostname>/` or `https://sites.example.com/<basename or id>/`,
//!   followed by the section's and the site space's paths; with `shareKey`, a share-link
//!   site's URLs carry it as `?share-key=` (the sandbox issues no keys, so any is taken).
//! - The published `structure` is `{ type: 'sections', structure }` when the site has
//!   sections (or groups); a site without them answers `{ type: 'site-spaces', structure:
//!   [site spaces at its root] }` (the open union keeps it as raw JSON). Customizations hold
//!   the site's title and each site space's title (customizations cannot be changed: their
//!   endpoints are not shown); scripts are empty.
//! - The list filter `title` matches titles containing the value, ignoring case; `space`
//!   keeps the sites with a site space of that space.
//! - `proxy` in a PATCH is `host/segment[/…]`: the stored proxy is `{ origin:
//!   'https://host', target: <the value> }`; a value without a host (letters, digits, `-`,
//!   `.`, `:`) and a path is a 400.
//! - The adaptive schema must be a JSON Schema object as Part B §2.5 describes it: `type`
//!   (when given) `object`, `additionalProperties` (when given) false, every property a
//!   boolean (`{ type: 'boolean' }`) except `unsigned`, an object whose properties are
//!   booleans; anything else is a 400. No schema yet is a 404 on reading it. The template
//!   conditions are one per boolean of the schema (`visitor.claims.<name>`, and
//!   `visitor.claims.unsigned.<name>` for unsigned claims), described by its `description`;
//!   none without a schema. Setting the schema answers 200 with it, never the 204 the
//!   service may answer (gap `update-no-content`).

use crate::api::prelude::*;
use crate::domain::kinds::{ORGANIZATION, SITE, SITE_SCHEMA, SITE_SPACE};
use crate::domain::site_structure::{self as structure, View};
use crate::domain::sites::{published_urls, site_for, site_for_delete};

/// A site as answered: its count of site spaces, its published URL once published.
fn present(tx: &Tx, site: &Row, share_key: Option<&str>) -> Result<Value, ApiError> {
    let mut data = site.data.clone();
    data["siteSpaces"] = json!(structure::count_site_spaces(tx, &site.id)?);
    if let Some(urls) = published_urls(&data, share_key) {
        data["urls"]["published"] = json!(urls.at(&[]));
    }
    Ok(data)
}

/// Indexes a site's title for the organization search.
fn index_site(tx: &Tx, site: &Value, org: &str) -> Result<(), ApiError> {
    let id = site["id"].as_str().unwrap_or_default();
    tx.index(org, SITE.name, id, site["title"].as_str().unwrap_or_default(), "")
}

/// The stored proxy of a PATCH's `proxy` value (`host/segment[/…]`).
fn proxy_of(value: &str) -> Result<Value, ApiError> {
    let refused = || {
        ApiError::bad_request(format!(
            "proxy {value:?} must be a host and one or more path segments, such as company-domain/docs"
        ))
    };
    let (host, path) = value.split_once('/').ok_or_else(refused)?;
    let host_ok = !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':'));
    if !host_ok || path.split('/').all(str::is_empty) {
        return Err(refused());
    }
    Ok(json!({"origin": format!("https://{host}"), "target": value}))
}

/// Checks a visitor attributes schema against Part B §2.5: an object schema whose
/// properties are booleans, and an `unsigned` object of booleans.
fn check_visitor_schema(schema: &Value) -> Result<(), String> {
    check_object_of_booleans(schema, "jsonSchema", true)
}

fn check_object_of_booleans(schema: &Value, name: &str, allow_unsigned: bool) -> Result<(), String> {
    let Some(object) = schema.as_object() else { return Err(format!("{name} must be a JSON Schema object")) };
    if object.get("type").is_some_and(|t| t != "object") {
        return Err(format!("{name}.type must be \"object\""));
    }
    if object.get("additionalProperties").is_some_and(|a| a != &json!(false)) {
        return Err(format!("{name}.additionalProperties must be false"));
    }
    let Some(properties) = object.get("properties") else { return Ok(()) };
    let Some(properties) = properties.as_object() else { return Err(format!("{name}.properties must be an object")) };
    for (key, property) in properties {
        if allow_unsigned && key == "unsigned" {
            check_object_of_booleans(property, &format!("{name}.properties.unsigned"), false)?;
        } else if property.get("type") != Some(&json!("boolean")) {
            return Err(format!("{name}.properties.{key} must be a boolean (`type: boolean`)"));
        }
    }
    Ok(())
}

/// The template conditions of a schema: one per boolean claim.
fn template_conditions(schema: &Value) -> Vec<Value> {
    let mut conditions = Vec::new();
    let mut add = |prefix: &str, properties: &Value| {
        for (key, property) in properties.as_object().into_iter().flatten() {
            if prefix.is_empty() && key == "unsigned" {
                continue;
            }
            let description = property["description"].as_str().map_or_else(|| format!("{key} is true"), str::to_owned);
            conditions.push(json!({"description": description, "condition": format!("visitor.claims.{prefix}{key}")}));
        }
    };
    add("", &schema["properties"]);
    add("unsigned.", &schema["properties"]["unsigned"]["properties"]);
    conditions
}

/// Applies `defaultSiteSpace`, `defaultSiteSection` and `proxy` of a site PATCH (taken out
/// of the patch: they are commands, not stored fields).
fn apply_site_commands(tx: &Tx, site: &Row, patch: &mut Value) -> Result<(), ApiError> {
    let Some(object) = patch.as_object_mut() else { return Ok(()) };
    if let Some(section) = object.remove("defaultSiteSection") {
        let made = structure::make_site_default_section(tx, site, section.as_str().unwrap_or_default());
        in_body("/defaultSiteSection", made)?;
    }
    if let Some(space) = object.remove("defaultSiteSpace") {
        let made = structure::make_site_default_site_space(tx, site, space.as_str().unwrap_or_default());
        in_body("/defaultSiteSpace", made)?;
    }
    if let Some(proxy) = object.get_mut("proxy")
        && let Some(value) = proxy.as_str()
    {
        *proxy = proxy_of(value)?;
    }
    Ok(())
}

impl SitesApi for Sandbox {
    async fn list_organization_sites(
        &self,
        context: Ctx,
        request: ListOrganizationSitesRequest,
    ) -> Result<ListPage<Site>, ApiError> {
        self.store()
            .read_async(move |tx| {
                tx.live(ORGANIZATION.name, &request.organization_id)?;
                require(tx, &context.principal, &request.organization_id, Role::Read)?;
                let title = request.title.as_deref().map(str::to_lowercase);
                let mut sites = Vec::new();
                for row in tx.all(SITE.name, &request.organization_id)? {
                    let titled = title
                        .as_deref()
                        .is_none_or(|t| row.data["title"].as_str().unwrap_or_default().to_lowercase().contains(t));
                    let published = request.published.is_none_or(|p| row.data["published"] == json!(p));
                    let publishes = match &request.space {
                        Some(space) => structure::publishes_space(tx, &row.id, space)?,
                        None => true,
                    };
                    if titled && published && publishes {
                        sites.push(present(tx, &row, None)?);
                    }
                }
                let list = format!(
                    "sites:{}:{:?}:{:?}:{:?}",
                    request.organization_id, request.space, request.title, request.published
                );
                tx.paginate(&list, sites, request.page.as_deref(), request.limit, |site| decode(SITE.name, site))
            })
            .await
    }

    async fn create_organization_site(
        &self,
        context: Ctx,
        request: CreateOrganizationSiteRequest,
    ) -> Result<Site, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = request.organization_id;
                tx.live(ORGANIZATION.name, &org)?;
                require(tx, &context.principal, &org, Role::Create)?;
                let body = request.body;
                let id = tx.new_id(SITE.prefix)?;
                let mut site = json!({
                    "object": "site", "id": id, "type": encode(&body.type_), "published": false,
                    "visibility": body.visibility.as_ref().map_or_else(|| json!("public"), encode),
                    "createdAt": timestamp(tx.now()), "adaptiveContent": {"enabled": false},
                    "urls": {
                        "location": format!("https://api.example.com/v1/orgs/{org}/sites/{id}"),
                        "app": format!("https://app.example.com/o/{org}/sites/{id}"),
                    },
                });
                if let Some(title) = &body.title {
                    site["title"] = json!(title);
                }
                tx.insert(SITE.name, &id, &org, &org, &site)?;
                let row = tx.live(SITE.name, &id)?;
                for space in body.spaces.iter().flatten() {
                    structure::add_site_space(tx, &row, space, None)?;
                }
                index_site(tx, &site, &org)?;
                decode(SITE.name, present(tx, &row, None)?)
            })
            .await
    }

    async fn get_site(&self, context: Ctx, request: GetSiteRequest) -> Result<Site, ApiError> {
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                decode(SITE.name, present(tx, &site, None)?)
            })
            .await
    }

    async fn delete_site(&self, context: Ctx, request: DeleteSiteRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(site) = site_for_delete(tx, &context.principal, &request.organization_id, &request.site_id)?
                else {
                    return Ok(());
                };
                structure::remove_all(tx, &site.id)?;
                tx.delete(SITE_SCHEMA.name, &site.id)?;
                tx.delete(SITE.name, &site.id)?;
                Ok(())
            })
            .await
    }

    async fn update_site(&self, context: Ctx, request: UpdateSiteRequest) -> Result<Site, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                let mut patch = encode(&request.body);
                apply_site_commands(tx, &site, &mut patch)?;
                let data = tx.modify(SITE.name, &site.id, |data| merge(data, &patch))?;
                index_site(tx, &data, &site.org)?;
                decode(SITE.name, present(tx, &tx.live(SITE.name, &site.id)?, None)?)
            })
            .await
    }

    async fn get_site_adaptive_schema(
        &self,
        context: Ctx,
        request: GetSiteAdaptiveSchemaRequest,
    ) -> Result<SiteAdaptiveSchema, ApiError> {
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                let schema = tx
                    .row(SITE_SCHEMA.name, &site.id)?
                    .ok_or_else(|| ApiError::not_found(format!("site {} has no visitor attributes schema", site.id)))?;
                decode(SITE_SCHEMA.name, schema.data)
            })
            .await
    }

    async fn update_site_adaptive_schema(
        &self,
        context: Ctx,
        request: UpdateSiteAdaptiveSchemaRequest,
    ) -> Result<UpdateSiteAdaptiveSchemaAnswer, ApiError> {
        self.store().write_async(move |tx| {
            let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
            let json_schema = request.body.json_schema;
            check_visitor_schema(&json_schema).map_err(ApiError::bad_request)?;
            let schema =
                json!({"object": "site-adaptive-schema", "jsonSchema": json_schema, "updatedAt": timestamp(tx.now())});
            if tx.row(SITE_SCHEMA.name, &site.id)?.is_some() {
                tx.put(SITE_SCHEMA.name, &site.id, &schema)?;
            } else {
                tx.insert(SITE_SCHEMA.name, &site.id, &site.org, &site.id, &schema)?;
            }
            decode(SITE_SCHEMA.name, schema)
        }).await.map(UpdateSiteAdaptiveSchemaAnswer::Ok)
    }

    async fn list_site_template_conditions(
        &self,
        context: Ctx,
        request: ListSiteTemplateConditionsRequest,
    ) -> Result<SiteTemplateConditionList, ApiError> {
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                let items = match tx.row(SITE_SCHEMA.name, &site.id)? {
                    Some(schema) => template_conditions(&schema.data["jsonSchema"]),
                    None => Vec::new(),
                };
                decode("site-template-conditions", json!({"items": items}))
            })
            .await
    }

    async fn get_published_site(
        &self,
        context: Ctx,
        request: GetPublishedSiteRequest,
    ) -> Result<PublishedContentSite, ApiError> {
        self.store()
            .read_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Read)?;
                if site.data["published"] != json!(true) {
                    return Err(ApiError::not_found(format!("site {} is not published: publish it first", site.id)));
                }
                let share_key = request.share_key.as_deref();
                let view = View::new(&site, share_key);
                let sections = structure::present_level(tx, &view, &site.id)?;
                let structure = if sections.is_empty() {
                    json!({"type": "site-spaces", "structure": structure::present_root_spaces(tx, &view)?})
                } else {
                    json!({"type": "sections", "structure": sections})
                };
                let mut space_customizations = serde_json::Map::new();
                for row in tx.all(SITE_SPACE.name, &site.id)? {
                    space_customizations.insert(row.id.clone(), json!({"title": row.data["title"]}));
                }
                let mut site_customization = json!({});
                if let Some(title) = site.data["title"].as_str() {
                    site_customization["title"] = json!(title);
                }
                let profile = json!({
                    "object": "published-content-site",
                    "site": present(tx, &site, share_key)?,
                    "structure": structure,
                    "customizations": {"site": site_customization, "siteSpaces": space_customizations},
                    "scripts": [],
                });
                decode("published-content-site", profile)
            })
            .await
    }

    async fn publish_site(&self, context: Ctx, request: PublishSiteRequest) -> Result<SitePublication, ApiError> {
        self.store()
            .write_async(move |tx| {
                let site = site_for(tx, &context.principal, &request.organization_id, &request.site_id, Role::Create)?;
                if site.data["published"] == json!(true) {
                    return Err(ApiError::bad_request(format!("site {} is already published", site.id)));
                }
                tx.modify(SITE.name, &site.id, |data| data["published"] = json!(true))?;
                decode::<Site>(SITE.name, present(tx, &tx.live(SITE.name, &site.id)?, None)?)
            })
            .await
            .map(SitePublication::from)
    }
}
