//! Integrations (Part C §2.1–2.4, §3, §4.1): the catalog of integrations organizations
//! publish, their installations on organizations, the events delivered to them, the spaces
//! and sites they apply to, and their development tunnel.
//!
//! Storage: an integration is kind `integration`, id its `name`, scope `integrations` (one
//! catalog, in publishing order), org its owner (the publishing organization). An
//! installation is kind `installation`, scope the integration's name, org the organization it
//! is installed on. An event is kind `integration-event`, scope the integration's name, org
//! the owner, stored as its `IntegrationEventDetail` (the list answers its `event`). The
//! development tunnel is kind `integration-dev`, id the name (never answered). The kinds are
//! declared in `crate::domain::kinds`.
//!
//! Decisions where the documents are silent:
//! - Publishing: a name no integration has yet publishes a new integration (version 1) for the
//!   `organization` of the body (an id, a hostname or the subdomain of a hostname); without
//!   `organization` there is nothing to publish a new version of, so it is the spec's 404 "no
//!   matching integration for the name". An unknown organization is a 404. Publishing again
//!   publishes a new version (version + 1): the fields given replace, the others are kept; an
//!   `organization` other than the owner is a 400 (the owner does not change). Publishing needs
//!   the `admin` role in the owner. `script`, `runtime` and `secrets` are accepted and not
//!   kept: the sandbox runs no script. `icon` and `previewImages` (base64) become URLs.
//!   Defaults: `visibility` `public`, `target` `all`, `verified` false.
//! - Visibility: an integration whose `visibility` is `public` is seen by every user; one of
//!   another visibility only by members of its owner (others get 404, as for an absent one).
//! - Installing needs `admin` in the organization installed on, and makes one installation per
//!   organization: installing again answers the existing installation unchanged. An
//!   installation is `active`, applies to `all` spaces and sites, with an empty configuration
//!   and no external ids (no operation sets them, so the `externalId` filters match nothing).
//! - Events: installing records an `installation_setup` event (no `previous`); publishing a new
//!   version records one per installation (the installation is set up again; `previous` holds
//!   its status and configuration). Events are delivered at once: status `success`, and the
//!   trace logs one `debug` line (two while a development tunnel is set). Reading events needs
//!   `admin` in the owner (they are the publisher's deliveries).
//! - Installations are listed to members of the organization installed on and to admins of
//!   the owner. The space and site entries derived from them (every live space, every site,
//!   of the organization installed on: selection `all`) are listed only to members of that
//!   organization (a publisher does not read its users' spaces).
//! - Deleting needs `admin` in the owner and removes the installations, events and tunnel too.

use crate::api::prelude::*;
use crate::domain::host_of;
use crate::domain::kinds::{
    CATALOG, INSTALLATION, INTEGRATION, INTEGRATION_DEV, INTEGRATION_EVENT, ORGANIZATION, ORGANIZATIONS, SITE, SPACE,
};

/// The integration named `name`, if the caller may see it; 404 otherwise.
fn visible_integration(tx: &Tx, user: &User, name: &str) -> Result<Row, ApiError> {
    let not_found = || ApiError::not_found(format!("no integration named {name}"));
    let row = tx.row(INTEGRATION.name, name)?.filter(|row| row.deleted_at.is_none()).ok_or_else(not_found)?;
    if is_visible_to(tx, user, &row)? { Ok(row) } else { Err(not_found()) }
}

/// A public integration is seen by everyone; another only by members of its owner.
fn is_visible_to(tx: &Tx, user: &User, row: &Row) -> Result<bool, ApiError> {
    let public = row.data["visibility"].as_str().is_none_or(|v| v == "public");
    Ok(public || role_of(tx, user, &row.org)?.is_some())
}

/// True when the user is an admin of `org`.
fn is_admin(tx: &Tx, user: &User, org: &str) -> Result<bool, ApiError> {
    Ok(require(tx, user, org, Role::Admin).is_ok())
}

/// The organization named by an id, a hostname, or the subdomain of its hostname; 404 otherwise.
fn resolve_organization(tx: &Tx, given: &str) -> Result<String, ApiError> {
    if tx.row(ORGANIZATION.name, given)?.is_some_and(|row| row.deleted_at.is_none()) {
        return Ok(given.to_owned());
    }
    for row in tx.all(ORGANIZATION.name, ORGANIZATIONS)? {
        let hostname = row.data["hostname"].as_str().unwrap_or_default();
        let subdomain = hostname.split('.').next().unwrap_or_default();
        if !hostname.is_empty() && (hostname.eq_ignore_ascii_case(given) || subdomain.eq_ignore_ascii_case(given)) {
            return Ok(row.id);
        }
    }
    Err(ApiError::not_found(format!("no organization with id or hostname {given}")))
}

/// The stored document of an integration as the caller reads it: its owner and what the
/// caller may do filled in.
fn present(tx: &Tx, user: &User, row: &Row) -> Result<Integration, ApiError> {
    let mut data = row.data.clone();
    if let Some(owner) = tx.row(ORGANIZATION.name, &row.org)?.filter(|o| o.deleted_at.is_none()) {
        data["owner"] = owner.data;
    }
    data["permissions"] = json!({"admin": is_admin(tx, user, &row.org)?});
    decode(INTEGRATION.name, data)
}

/// The links of an integration.
fn integration_urls(name: &str) -> Value {
    json!({
        "location": format!("{API_URL}/v1/integrations/{}", url_component(name)),
        "app": format!("https://app.example.com/integrations/{}", url_component(name)),
        "assets": format!("https://assets.example.com/integrations/{}/", url_component(name)),
        "publicEndpoint": format!("https://integrations.example.com/v1/integrations/{}/integration", url_component(name)),
    })
}

/// The fields of a publish body an integration keeps as they are given.
const PUBLISHED_FIELDS: [&str; 12] = [
    "title",
    "description",
    "summary",
    "visibility",
    "target",
    "scopes",
    "categories",
    "blocks",
    "contentSources",
    "externalLinks",
    "configurations",
    "contentSecurityPolicy",
];

/// Applies a publish body to an integration's document at `version`: the fields given replace,
/// images become asset URLs, what the sandbox does not run (script, runtime, secrets) is dropped.
fn apply_publish(data: &mut Value, name: &str, version: i64, body: &Value) {
    for field in PUBLISHED_FIELDS {
        if let Some(value) = body.get(field).filter(|v| !v.is_null()) {
            data[field] = value.clone();
        }
    }
    data["version"] = json!(version);
    let assets = format!("https://assets.example.com/integrations/{}/v{version}", url_component(name));
    if let Some(images) = body["previewImages"].as_array() {
        data["previewImages"] =
            Value::Array((0..images.len()).map(|i| json!(format!("{assets}/preview-{}.png", i + 1))).collect());
    }
    if body.get("icon").is_some_and(|icon| !icon.is_null()) {
        data["urls"]["icon"] = json!(format!("{assets}/icon.png"));
    }
}

/// A new integration's document before its first publish body is applied.
fn new_integration(name: &str) -> Value {
    json!({
        "object": "integration", "name": name, "version": 0, "title": name, "verified": false,
        "visibility": "public", "target": "all", "scopes": [], "categories": [], "blocks": [],
        "contentSources": [], "externalLinks": [], "configurations": {}, "previewImages": [],
        "urls": integration_urls(name),
    })
}

/// Records an event delivered to the integration `integration` (its row) about an
/// installation: delivered at once, traced in the log.
fn record_event(tx: &Tx, integration: &Row, installation: &str, payload: Value, message: &str) -> Result<(), ApiError> {
    let id = tx.new_id(INTEGRATION_EVENT.prefix)?;
    let now = timestamp(tx.now());
    let mut payload = payload;
    payload["eventId"] = json!(id);
    let mut logs = vec![json!({"message": message, "timestamp": now, "level": "debug"})];
    if let Some(dev) = tx.row(INTEGRATION_DEV.name, &integration.id)? {
        let tunnel = dev.data["tunnelUrl"].as_str().unwrap_or_default().to_owned();
        logs.push(json!({"message": format!("Dispatched to the development tunnel {tunnel}."), "timestamp": now, "level": "debug"}));
    }
    let detail = json!({
        "event": {
            "id": id, "integrationId": integration.id, "installationId": installation,
            "createdAt": now, "payload": payload, "status": "success",
        },
        "trace": {"logs": logs},
    });
    tx.insert(INTEGRATION_EVENT.name, &id, &integration.org, &integration.id, &detail)
}

/// The installations of an integration the caller may see: those on organizations they are
/// a member of, and every one for an admin of the owner.
fn visible_installations(tx: &Tx, user: &User, integration: &Row) -> Result<Vec<Row>, ApiError> {
    let owner_admin = is_admin(tx, user, &integration.org)?;
    let mut rows = Vec::new();
    for row in tx.all(INSTALLATION.name, &integration.id)? {
        if owner_admin || role_of(tx, user, &row.org)?.is_some() {
            rows.push(row);
        }
    }
    Ok(rows)
}

/// An installation as answered: its count of spaces is the current one (it applies to all).
fn present_installation(tx: &Tx, row: &Row) -> Value {
    let mut data = row.data.clone();
    let spaces = tx.all_in_org(SPACE.name, &row.org).map(|s| s.len()).unwrap_or(0);
    data["spaces"] = json!(spaces);
    data
}

/// True when the entry's (or installation's) external ids hold `wanted` (or no filter).
fn has_external_id(data: &Value, wanted: Option<&str>) -> bool {
    wanted.is_none_or(|wanted| {
        data["externalIds"].as_array().is_some_and(|ids| ids.iter().any(|id| id.as_str() == Some(wanted)))
    })
}

/// True when one of the integration's blocks unfurls URLs of `domain` (or a subdomain of it).
fn unfurls_domain(data: &Value, domain: &str) -> bool {
    let domain = domain.to_ascii_lowercase();
    let blocks = data["blocks"].as_array().map(Vec::as_slice).unwrap_or_default();
    blocks.iter().flat_map(|b| b["urlUnfurl"].as_array().cloned().unwrap_or_default()).any(|url| {
        let host = host_of(url.as_str().unwrap_or_default());
        host == domain || host.ends_with(&format!(".{domain}"))
    })
}

/// True when the JSON list `list` holds `value`.
fn list_has(list: &Value, value: &Value) -> bool {
    list.as_array().is_some_and(|items| items.contains(value))
}

/// True when a list field of the integration is not empty.
fn provides(data: &Value, field: &str) -> bool {
    data[field].as_array().is_some_and(|items| !items.is_empty())
}

/// True when the integration passes every filter of the list request.
fn passes_filters(row: &Row, request: &ListIntegrationsRequest) -> bool {
    let data = &row.data;
    let search = request.search.as_deref().map(str::to_lowercase);
    let matches_search = search.is_none_or(|s| {
        row.id.to_lowercase().contains(&s) || data["title"].as_str().is_some_and(|t| t.to_lowercase().contains(&s))
    });
    matches_search
        && request.category.as_ref().is_none_or(|c| list_has(&data["categories"], &encode(c)))
        && request.block_domain.as_deref().is_none_or(|d| unfurls_domain(data, d))
        && request.blocks.is_none_or(|wanted| provides(data, "blocks") == wanted)
        && request.content_sources.is_none_or(|wanted| provides(data, "contentSources") == wanted)
        && request.owner.as_deref().is_none_or(|owner| row.org == owner)
        && request.scope.as_ref().is_none_or(|s| list_has(&data["scopes"], &encode(s)))
        && request.target.as_ref().is_none_or(|t| data["target"] == encode(t))
}

/// What the entries of spaces or sites need to know of the installations they derive from.
struct EntryList<'a> {
    /// `space` or `site`: the entry's field and the path segment of its links.
    field: &'a str,
    /// The kind of the things listed.
    kind: &'a str,
    /// The API path of one thing, from its organization and id.
    location: fn(&str, &str) -> String,
}

/// The entries (spaces or sites) an integration applies to, through the installations on
/// organizations the caller is a member of: each live thing of each one (selection `all`).
fn entries(
    tx: &Tx,
    user: &User,
    integration: &Row,
    list: &EntryList,
    extended: bool,
    external_id: Option<&str>,
) -> Result<Vec<Value>, ApiError> {
    let mut out = Vec::new();
    for installation in visible_installations(tx, user, integration)? {
        if role_of(tx, user, &installation.org)?.is_none() {
            continue;
        }
        for thing in tx.all_in_org(list.kind, &installation.org)? {
            let name = &integration.id;
            let entry = json!({
                "integration": name,
                "installation": installation.id,
                "status": installation.data["status"],
                "configuration": {},
                "externalIds": [],
                "urls": {
                    "location": format!("{API_URL}{}/integrations/{}", (list.location)(&thing.org, &thing.id), url_component(name)),
                    "publicEndpoint": format!(
                        "https://integrations.example.com/v1/integrations/{}/installations/{}/{}s/{}",
                        url_component(name), installation.id, list.field, thing.id
                    ),
                },
                list.field: if extended { thing.data } else { json!(thing.id) },
            });
            if has_external_id(&entry, external_id) {
                out.push(entry);
            }
        }
    }
    Ok(out)
}

impl IntegrationsApi for Sandbox {
    async fn list_integrations(
        &self,
        context: Ctx,
        request: ListIntegrationsRequest,
    ) -> Result<ListPage<Integration>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let user = &context.principal;
                let mut kept = Vec::new();
                for row in tx.all(INTEGRATION.name, CATALOG)? {
                    if passes_filters(&row, &request) && is_visible_to(tx, user, &row)? {
                        kept.push(row);
                    }
                }
                let list = format!(
                    "integrations:{}:{:?}",
                    user.id,
                    (
                        &request.search,
                        request.category.as_ref().map(encode),
                        &request.block_domain,
                        request.blocks,
                        request.content_sources,
                        &request.owner,
                        request.scope.as_ref().map(encode),
                        request.target.as_ref().map(encode)
                    )
                );
                tx.paginate(&list, kept, request.page.as_deref(), request.limit, |row| present(tx, user, &row))
            })
            .await
    }

    async fn get_integration(&self, context: Ctx, request: GetIntegrationRequest) -> Result<Integration, ApiError> {
        self.store()
            .read_async(move |tx| {
                let row = visible_integration(tx, &context.principal, &request.integration_name)?;
                present(tx, &context.principal, &row)
            })
            .await
    }

    async fn publish_integration(
        &self,
        context: Ctx,
        request: PublishIntegrationRequest,
    ) -> Result<Integration, ApiError> {
        self.store()
            .write_async(move |tx| {
                let user = &context.principal;
                let name = &request.integration_name;
                let body = encode(&request.body);
                let named = match request.body.organization.as_deref() {
                    Some(given) => Some(resolve_organization(tx, given)?),
                    None => None,
                };
                match tx.row(INTEGRATION.name, name)?.filter(|row| row.deleted_at.is_none()) {
                    Some(row) => {
                        if !is_visible_to(tx, user, &row)? {
                            return Err(ApiError::not_found(format!("no integration named {name}")));
                        }
                        if named.as_ref().is_some_and(|org| *org != row.org) {
                            return Err(ApiError::bad_request(format!(
                                "integration {name} is published by organization {}: its owner does not change",
                                row.org
                            )));
                        }
                        require(tx, user, &row.org, Role::Admin)?;
                        let version = row.data["version"].as_i64().unwrap_or(0) + 1;
                        let data =
                            tx.modify(INTEGRATION.name, name, |data| apply_publish(data, name, version, &body))?;
                        let integration = Row { data, ..row };
                        for installation in tx.all(INSTALLATION.name, name)? {
                            let payload = json!({
                                "type": "installation_setup", "installationId": installation.id,
                                "status": installation.data["status"],
                                "previous": {
                                    "status": installation.data["status"],
                                    "configuration": installation.data["configuration"],
                                },
                            });
                            let message = format!("Installation {} set up for version {version}.", installation.id);
                            record_event(tx, &integration, &installation.id, payload, &message)?;
                        }
                        present(tx, user, &integration)
                    }
                    None => {
                        let Some(org) = named else {
                            return Err(ApiError::not_found(format!(
                                "no integration named {name}: name the publishing `organization` to publish a new one"
                            )));
                        };
                        require(tx, user, &org, Role::Admin)?;
                        // A name deleted before is free again.
                        tx.delete(INTEGRATION.name, name)?;
                        let mut data = new_integration(name);
                        apply_publish(&mut data, name, 1, &body);
                        tx.insert(INTEGRATION.name, name, &org, CATALOG, &data)?;
                        present(tx, user, &tx.live(INTEGRATION.name, name)?)
                    }
                }
            })
            .await
    }

    async fn delete_integration(&self, context: Ctx, request: DeleteIntegrationRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let name = &request.integration_name;
                let Some(row) = tx.row(INTEGRATION.name, name)?.filter(|row| row.deleted_at.is_none()) else {
                    return Ok(());
                };
                if !is_visible_to(tx, &context.principal, &row)? {
                    return Ok(());
                }
                require(tx, &context.principal, &row.org, Role::Admin)?;
                tx.delete(INTEGRATION.name, name)?;
                tx.delete_scope(INSTALLATION.name, name)?;
                tx.delete_scope(INTEGRATION_EVENT.name, name)?;
                tx.delete(INTEGRATION_DEV.name, name)?;
                Ok(())
            })
            .await
    }

    async fn list_integration_installations(
        &self,
        context: Ctx,
        request: ListIntegrationInstallationsRequest,
    ) -> Result<ListPage<Installation>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let user = &context.principal;
                let integration = visible_integration(tx, user, &request.integration_name)?;
                let external_id = request.external_id.as_deref();
                let items: Vec<Value> = visible_installations(tx, user, &integration)?
                    .iter()
                    .map(|row| present_installation(tx, row))
                    .filter(|data| has_external_id(data, external_id))
                    .collect();
                let list = format!("installations:{}:{}:{external_id:?}", integration.id, user.id);
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| {
                    decode(INSTALLATION.name, item)
                })
            })
            .await
    }

    async fn install_integration(
        &self,
        context: Ctx,
        request: InstallIntegrationRequest,
    ) -> Result<Installation, ApiError> {
        self.store().write_async(move |tx| {
            let user = &context.principal;
            let integration = visible_integration(tx, user, &request.integration_name)?;
            let org = &request.body.organization;
            in_body("/organization", tx.live(ORGANIZATION.name, org))?;
            require(tx, user, org, Role::Admin)?;
            if let Some(existing) = tx.all(INSTALLATION.name, &integration.id)?.into_iter().find(|row| row.org == *org) {
                return decode(INSTALLATION.name, present_installation(tx, &existing));
            }
            let id = tx.new_id(INSTALLATION.prefix)?;
            let name = &integration.id;
            let now = timestamp(tx.now());
            let installation = json!({
                "id": id, "status": "active", "space_selection": "all", "site_selection": "all",
                "spaces": 0, "configuration": {}, "createdAt": now, "updatedAt": now,
                "urls": {
                    "location": format!("{API_URL}/v1/integrations/{}/installations/{id}", url_component(name)),
                    "app": format!("https://app.example.com/integrations/{}/installations/{id}", url_component(name)),
                    "publicEndpoint": format!("https://integrations.example.com/v1/integrations/{}/installations/{id}", url_component(name)),
                },
                "externalIds": [], "target": {"organization": org},
            });
            tx.insert(INSTALLATION.name, &id, org, name, &installation)?;
            let payload = json!({"type": "installation_setup", "installationId": id, "status": "active"});
            record_event(tx, &integration, &id, payload, &format!("Installation {id} set up on organization {org}."))?;
            decode(INSTALLATION.name, present_installation(tx, &tx.live(INSTALLATION.name, &id)?))
        }).await
    }

    async fn list_integration_events(
        &self,
        context: Ctx,
        request: ListIntegrationEventsRequest,
    ) -> Result<ListPage<IntegrationEvent>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let integration = visible_integration(tx, &context.principal, &request.integration_name)?;
                require(tx, &context.principal, &integration.org, Role::Admin)?;
                let items: Vec<Value> = tx
                    .all(INTEGRATION_EVENT.name, &integration.id)?
                    .into_iter()
                    .map(|row| row.data["event"].clone())
                    .collect();
                let list = format!("events:{}", integration.id);
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| {
                    decode(INTEGRATION_EVENT.name, item)
                })
            })
            .await
    }

    async fn get_integration_event(
        &self,
        context: Ctx,
        request: GetIntegrationEventRequest,
    ) -> Result<IntegrationEventDetail, ApiError> {
        self.store()
            .read_async(move |tx| {
                let integration = visible_integration(tx, &context.principal, &request.integration_name)?;
                let event = tx
                    .row(INTEGRATION_EVENT.name, &request.event_id)?
                    .filter(|row| row.scope == integration.id)
                    .ok_or_else(|| {
                        ApiError::not_found(format!("no event {} of integration {}", request.event_id, integration.id))
                    })?;
                require(tx, &context.principal, &integration.org, Role::Admin)?;
                decode(INTEGRATION_EVENT.name, event.data)
            })
            .await
    }

    async fn list_integration_spaces(
        &self,
        context: Ctx,
        request: ListIntegrationSpacesRequest,
    ) -> Result<ListPage<IntegrationSpaceEntry>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let user = &context.principal;
                let integration = visible_integration(tx, user, &request.integration_name)?;
                let list = EntryList { field: "space", kind: SPACE.name, location: |_, id| format!("/v1/spaces/{id}") };
                let items = entries(tx, user, &integration, &list, request.extended, request.external_id.as_deref())?;
                let name = format!(
                    "integration-spaces:{}:{}:{}:{:?}",
                    integration.id, user.id, request.extended, request.external_id
                );
                tx.paginate(&name, items, request.page.as_deref(), request.limit, |item| {
                    decode("integration space entry", item)
                })
            })
            .await
    }

    async fn list_integration_sites(
        &self,
        context: Ctx,
        request: ListIntegrationSitesRequest,
    ) -> Result<ListPage<IntegrationSiteEntry>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let user = &context.principal;
                let integration = visible_integration(tx, user, &request.integration_name)?;
                let list = EntryList {
                    field: "site",
                    kind: SITE.name,
                    location: |org, id| format!("/v1/orgs/{org}/sites/{id}"),
                };
                let items = entries(tx, user, &integration, &list, request.extended, request.external_id.as_deref())?;
                let name = format!(
                    "integration-sites:{}:{}:{}:{:?}",
                    integration.id, user.id, request.extended, request.external_id
                );
                tx.paginate(&name, items, request.page.as_deref(), request.limit, |item| {
                    decode("integration site entry", item)
                })
            })
            .await
    }

    async fn update_integration_dev_mode(
        &self,
        context: Ctx,
        request: UpdateIntegrationDevModeRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let integration = visible_integration(tx, &context.principal, &request.integration_name)?;
                require(tx, &context.principal, &integration.org, Role::Admin)?;
                let tunnel = json!({
                    "tunnelUrl": request.body.tunnel_url, "all": request.body.all, "updatedAt": timestamp(tx.now()),
                });
                if tx.row(INTEGRATION_DEV.name, &integration.id)?.is_some() {
                    tx.put(INTEGRATION_DEV.name, &integration.id, &tunnel)
                } else {
                    tx.insert(INTEGRATION_DEV.name, &integration.id, &integration.org, "integrations-dev", &tunnel)
                }
            })
            .await
    }
}
