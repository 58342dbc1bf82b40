//! A site of an organization as every site operation finds it, and where a published site
//! is served.

use super::kinds::SITE;
use super::{require, url_component};
use crate::User;
use crate::store::{Row, Tx};
use apigen_runtime::server::ApiError;
use docs_api_types::Role;
use serde_json::{Value, json};

/// The live site `site_id` of organization `org`, if the user has `role` there; else 404/403.
pub fn site_for(tx: &Tx, user: &User, org: &str, site_id: &str, role: Role) -> Result<Row, ApiError> {
    let site = find_site(tx, org, site_id)?
        .ok_or_else(|| ApiError::not_found(format!("no site with id {site_id} in organization {org}")))?;
    require(tx, user, &site.org, role)?;
    Ok(site)
}

/// For deletes in a site: the site when it exists (the user must be allowed to change it),
/// `None` when it does not (the delete then succeeds with nothing to do).
pub fn site_for_delete(tx: &Tx, user: &User, org: &str, site_id: &str) -> Result<Option<Row>, ApiError> {
    let Some(site) = find_site(tx, org, site_id)? else { return Ok(None) };
    require(tx, user, &site.org, Role::Create)?;
    Ok(Some(site))
}

fn find_site(tx: &Tx, org: &str, site_id: &str) -> Result<Option<Row>, ApiError> {
    Ok(tx.row(SITE.name, site_id)?.filter(|row| row.deleted_at.is_none() && row.org == org))
}

/// Where a published site is served, and the query its URLs carry.
pub struct PublishedUrls {
    base: String,
    query: String,
}

impl PublishedUrls {
    /// The URL of a path under the site (segments are percent-encoded).
    pub fn at(&self, segments: &[String]) -> String {
        let path: Vec<String> = segments.iter().map(|segment| url_component(segment)).collect();
        format!("{}{}{}", self.base, path.join("/"), self.query)
    }
}

/// The published URLs of a site: none while it is unpublished.
pub fn published_urls(site: &Value, share_key: Option<&str>) -> Option<PublishedUrls> {
    if site["published"] != json!(true) {
        return None;
    }
    let base = match (site["hostname"].as_str(), site["basename"].as_str()) {
        (Some(hostname), _) => format!("https://{hostname}/"),
        (None, Some(basename)) if !basename.is_empty() => {
            format!("https://sites.example.com/{}/", url_component(basename))
        }
        _ => format!("https://sites.example.com/{}/", url_component(site["id"].as_str().unwrap_or_default())),
    };
    let query = match share_key {
        Some(key) if site["visibility"] == json!("share-link") => format!("?share-key={}", url_component(key)),
        _ => String::new(),
    };
    Some(PublishedUrls { base, query })
}
