//! Conversations (Part C §2.6, §4.3): conversations ingested into an organization, the issues
//! found in them and the clusters grouping those issues.
//!
//! Storage: a conversation is kind `conversation`, stored under id `<organization>/<its id>`
//! (its id is the one the ingest body gives, unique within the organization), scope the
//! organization, as its `ConversationDetail`. An issue is kind `conversation-issue` (id
//! `issue_<n>`), scope the organization. Clusters are not stored: they are computed from the
//! issues each time they are listed, so they are always consistent with what was ingested.
//!
//! The rule that derives issues and clusters (deterministic, so tests and clients can rely on
//! it):
//! - The user messages of a conversation are its parts whose `type` is `message` (or absent),
//!   whose `role` is `user` (or absent), with a body that is not blank. A conversation with at
//!   least one user message has exactly one issue; one without has none.
//! - The issue's `title` is the conversation's subject when it has one (not blank), otherwise
//!   its first user message (both cut to 80 characters); its `summary` is the first user
//!   message (cut to 280 characters).
//! - The issue's cluster is named by the longest word (runs of letters and digits, lowercased;
//!   the first of equal length) of at least 3 characters of the title, `general` when there is
//!   none: id `cluster-<word>`, label the word capitalized.
//! - A cluster's `createdAt` is its oldest issue's, `updatedAt` its newest issue's ingestion;
//!   `weeklyPulse` counts its issues created in each of the last 13 weeks (the last number is
//!   the current week); `sources` counts its issues by their conversation's source; `stats`
//!   counts its issues and their distinct conversations (tasks are not modelled: 0); `icon`
//!   is `message-circle`.
//!
//! Other decisions where the documents are silent:
//! - Ingesting a conversation whose id the organization already has replaces it (its parts,
//!   subject and metadata; processed again) and derives its issue again, keeping the issue's
//!   id. A body of the second, unshown variant of the ingest body is a 400 (not understood);
//!   so is an id that is blank, or a conversation without parts.
//! - A conversation's `source` is the metadata attribute `source` when given, otherwise the
//!   host of the metadata `url`, otherwise `api`. `createdAt` is the metadata `createdAt`
//!   (when the conversation took place), otherwise the time of ingestion; `processedAt` is
//!   the time of ingestion.
//! - Clusters carry no status: every cluster is `active`, so the `status` filter `active`
//!   keeps them all and any other value keeps none. Orders other than `asc`/`desc` and sort
//!   keys other than `updatedAt` are a 400.
//! - Roles: reading needs `read`; ingesting needs `edit`.

use crate::api::prelude::*;
use crate::domain::host_of;
use crate::domain::kinds::{CONVERSATION, ISSUE, ORGANIZATION};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet};

/// The first `max` characters of `text`, trimmed.
fn cut(text: &str, max: usize) -> String {
    text.trim().chars().take(max).collect::<String>().trim().to_owned()
}

/// Where a conversation comes from: the metadata attribute `source`, or the host of the
/// metadata URL, or `api`.
fn source_of(metadata: Option<&ConversationMetadata>) -> String {
    let attribute = metadata.and_then(|m| m.attributes.as_ref()).and_then(|a| a.get("source")).map(|s| s.trim());
    if let Some(source) = attribute.filter(|s| !s.is_empty()) {
        return source.to_owned();
    }
    let host = metadata.and_then(|m| m.url.as_deref()).map(host_of).unwrap_or_default();
    if host.is_empty() { "api".to_owned() } else { host }
}

/// The bodies of the user messages of a conversation, in order.
fn user_messages(parts: &[ConversationPart]) -> Vec<&str> {
    parts
        .iter()
        .filter(|p| p.type_.as_ref().is_none_or(|t| *t == ConversationPartType::Message))
        .filter(|p| p.role.as_ref().is_none_or(|r| *r == ConversationPartRole::User))
        .filter_map(|p| p.body.as_deref())
        .filter(|body| !body.trim().is_empty())
        .collect()
}

/// The word naming the cluster of an issue titled `title`: its longest word of at least 3
/// characters (the first of equal length), lowercased; `general` when there is none.
fn cluster_word(title: &str) -> String {
    let mut best = String::new();
    for word in title.split(|c: char| !c.is_alphanumeric()) {
        if word.chars().count() >= 3 && word.chars().count() > best.chars().count() {
            best = word.to_lowercase();
        }
    }
    if best.is_empty() { "general".to_owned() } else { best }
}

/// The issue found in a conversation: `(title, summary)`, or none without user messages.
fn issue_of(subject: Option<&str>, parts: &[ConversationPart]) -> Option<(String, String)> {
    let first = *user_messages(parts).first()?;
    let title = match subject.map(str::trim).filter(|s| !s.is_empty()) {
        Some(subject) => cut(subject, 80),
        None => cut(first, 80),
    };
    Some((title, cut(first, 280)))
}

/// The stored key of conversation `id` of organization `org`.
fn conversation_key(org: &str, id: &str) -> String {
    format!("{org}/{id}")
}

/// The issue of a conversation already derived, if any.
fn existing_issue(tx: &Tx, org: &str, conversation: &str) -> Result<Option<Row>, ApiError> {
    Ok(tx.all(ISSUE.name, org)?.into_iter().find(|row| row.data["conversation"].as_str() == Some(conversation)))
}

/// Ingests one conversation into `org`: stores it (replacing one of the same id) and derives
/// its issue again.
fn ingest(tx: &Tx, org: &str, input: &ConversationInput) -> Result<(), ApiError> {
    let id = input.id.as_str();
    if id.trim().is_empty() {
        return Err(ApiError::bad_request("a conversation's `id` must not be blank"));
    }
    if input.parts.is_empty() {
        return Err(ApiError::bad_request("a conversation is ingested for its `parts`: give at least one"));
    }
    let now = timestamp(tx.now());
    let metadata = input.metadata.as_ref();
    let created = metadata.and_then(|m| m.created_at.as_ref()).map(encode).unwrap_or_else(|| now.clone());
    let mut conversation = json!({
        "object": "conversation", "id": id, "createdAt": created, "processedAt": now,
        "source": source_of(metadata),
        "urls": {"location": format!("{API_URL}/v1/orgs/{org}/conversations/{}", url_component(id))},
    });
    if let Some(subject) = &input.subject {
        conversation["subject"] = json!(subject);
    }
    if let Some(url) = metadata.and_then(|m| m.url.as_deref()) {
        conversation["urls"]["source"] = json!(url);
    }
    let mut detail = json!({"conversation": conversation, "parts": encode(&input.parts)});
    if let Some(metadata) = metadata {
        detail["metadata"] = encode(metadata);
    }
    let key = conversation_key(org, id);
    if tx.row(CONVERSATION.name, &key)?.is_some() {
        tx.put(CONVERSATION.name, &key, &detail)?;
    } else {
        tx.insert(CONVERSATION.name, &key, org, org, &detail)?;
    }
    derive_issue(tx, org, id, input)
}

/// Derives the issue of a freshly ingested conversation (see the module docs for the rule).
fn derive_issue(tx: &Tx, org: &str, id: &str, input: &ConversationInput) -> Result<(), ApiError> {
    let existing = existing_issue(tx, org, id)?;
    let Some((title, summary)) = issue_of(input.subject.as_deref(), &input.parts) else {
        if let Some(old) = existing {
            tx.delete(ISSUE.name, &old.id)?;
        }
        return Ok(());
    };
    let now = timestamp(tx.now());
    let issue_id = match &existing {
        Some(old) => old.id.clone(),
        None => tx.new_id(ISSUE.prefix)?,
    };
    let issue = json!({
        "object": "conversation-issue", "id": issue_id, "title": title, "summary": summary,
        "createdAt": now, "ingestedAt": now, "conversation": id,
        "cluster": format!("cluster-{}", cluster_word(&title)),
        "urls": {"location": format!("{API_URL}/v1/orgs/{org}/conversations-issues/{issue_id}")},
    });
    match existing {
        Some(_) => tx.put(ISSUE.name, &issue_id, &issue),
        None => tx.insert(ISSUE.name, &issue_id, org, org, &issue),
    }
}

/// The conversation of an issue (its `Conversation` JSON), if it is still there.
fn conversation_of_issue(tx: &Tx, org: &str, issue: &Value) -> Result<Option<Value>, ApiError> {
    let id = issue["conversation"].as_str().unwrap_or_default();
    Ok(tx.row(CONVERSATION.name, &conversation_key(org, id))?.map(|row| row.data["conversation"].clone()))
}

/// An issue with its conversation.
fn issue_entry(tx: &Tx, org: &str, issue: Value) -> Result<Value, ApiError> {
    let mut entry = json!({"issue": issue});
    if let Some(conversation) = conversation_of_issue(tx, org, &entry["issue"])? {
        entry["conversation"] = conversation;
    }
    Ok(entry)
}

/// A time the API wrote.
fn parse_time(value: &Value) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(value.as_str()?).ok().map(|t| t.with_timezone(&Utc))
}

/// Weekly counts of issues created over the last 13 weeks, the current week last.
fn weekly_pulse(now: DateTime<Utc>, issues: &[&Value]) -> Vec<i64> {
    let mut pulse = vec![0i64; 13];
    for issue in issues {
        let Some(created) = parse_time(&issue["createdAt"]) else { continue };
        let weeks_ago = (now - created).num_days().max(0) / 7;
        if let Ok(weeks_ago) = usize::try_from(weeks_ago)
            && weeks_ago < 13
        {
            pulse[12 - weeks_ago] += 1;
        }
    }
    pulse
}

/// The label of a cluster: its word, capitalized.
fn label_of(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The clusters of an organization's issues (see the module docs for the rule), by id.
fn clusters(tx: &Tx, org: &str) -> Result<Vec<Value>, ApiError> {
    let issues: Vec<Value> = tx.all(ISSUE.name, org)?.into_iter().map(|row| row.data).collect();
    let mut by_cluster: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for issue in &issues {
        by_cluster.entry(issue["cluster"].as_str().unwrap_or("cluster-general").to_owned()).or_default().push(issue);
    }
    let mut out = Vec::new();
    for (id, members) in by_cluster {
        let word = id.strip_prefix("cluster-").unwrap_or(&id).to_owned();
        let oldest = members.iter().filter_map(|i| i["createdAt"].as_str()).min().unwrap_or_default();
        let newest = members.iter().filter_map(|i| i["ingestedAt"].as_str()).max().unwrap_or_default();
        let mut sources: BTreeMap<String, i64> = BTreeMap::new();
        let mut conversations = BTreeSet::new();
        for issue in &members {
            conversations.insert(issue["conversation"].as_str().unwrap_or_default().to_owned());
            if let Some(conversation) = conversation_of_issue(tx, org, issue)? {
                *sources.entry(conversation["source"].as_str().unwrap_or("api").to_owned()).or_default() += 1;
            }
        }
        let count = members.len();
        out.push(json!({
            "object": "issues-cluster", "id": id, "label": label_of(&word),
            "createdAt": oldest, "updatedAt": newest, "icon": "message-circle",
            "summary": format!("{count} issue{} about “{word}”.", if count == 1 { "" } else { "s" }),
            "weeklyPulse": weekly_pulse(tx.now(), &members),
            "sources": sources,
            "stats": {
                "issues": count, "conversations": conversations.len(), "tasksTotal": 0,
                "tasksBacklog": 0, "tasksStarted": 0, "tasksCompleted": 0, "tasksCancelled": 0,
            },
            "urls": {
                "location": format!("{API_URL}/v1/orgs/{org}/conversations-clusters/{}", url_component(&id)),
                "app": format!("https://app.example.com/o/{org}/insights/{}", url_component(&id)),
            },
        }));
    }
    Ok(out)
}

/// Sorts clusters as the list asks: by `updatedAt` (then id), ascending or descending.
fn sort_clusters(
    clusters: &mut [Value],
    order: &ConversationClusterOrder,
    order_by: &ConversationClusterOrderBy,
) -> Result<(), ApiError> {
    if !matches!(order_by, ConversationClusterOrderBy::UpdatedAt) {
        return Err(ApiError::bad_request("clusters are sorted by `updatedAt` only"));
    }
    let descending = match order {
        ConversationClusterOrder::Asc => false,
        ConversationClusterOrder::Desc => true,
        ConversationClusterOrder::Unknown(other) => {
            return Err(ApiError::bad_request(format!("`order` is `asc` or `desc`, not {other:?}")));
        }
    };
    clusters.sort_by(|a, b| {
        let key = |c: &Value| (c["updatedAt"].as_str().unwrap_or_default().to_owned(), c["id"].to_string());
        if descending { key(b).cmp(&key(a)) } else { key(a).cmp(&key(b)) }
    });
    Ok(())
}

impl ConversationsApi for Sandbox {
    async fn list_organization_conversation_clusters(
        &self,
        context: Ctx,
        request: ListOrganizationConversationClustersRequest,
    ) -> Result<ListPage<IssuesCluster>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                let mut items = clusters(tx, org)?;
                sort_clusters(&mut items, &request.order, &request.order_by)?;
                if let Some(status) = &request.status
                    && status != "active"
                {
                    items.clear();
                }
                let list = format!("clusters:{org}:{}:{:?}", encode(&request.order), request.status);
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| decode("issues cluster", item))
            })
            .await
    }

    async fn list_organization_conversations(
        &self,
        context: Ctx,
        request: ListOrganizationConversationsRequest,
    ) -> Result<ListPage<Conversation>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                let items: Vec<Value> = tx
                    .all(CONVERSATION.name, org)?
                    .into_iter()
                    .map(|row| row.data["conversation"].clone())
                    .filter(|c| request.source.as_deref().is_none_or(|s| c["source"].as_str() == Some(s)))
                    .collect();
                let list = format!("conversations:{org}:{:?}", request.source);
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| {
                    decode(CONVERSATION.name, item)
                })
            })
            .await
    }

    async fn ingest_organization_conversations(
        &self,
        context: Ctx,
        request: IngestOrganizationConversationsRequest,
    ) -> Result<(), ApiError> {
        self.store().write_async(move |tx| {
            let org = &request.organization_id;
            organization(tx, &context.principal, org, Role::Edit)?;
            match &request.body {
                IngestConversationsBody::ConversationInput(input) => ingest(tx, org, input),
                IngestConversationsBody::Unknown(_) => Err(ApiError::bad_request(
                    "the ingest body is one conversation `{ id, metadata, subject, parts }` (`id` and `parts` required)",
                )),
            }
        }).await
    }

    async fn list_organization_conversation_issues(
        &self,
        context: Ctx,
        request: ListOrganizationConversationIssuesRequest,
    ) -> Result<ListPage<ConversationIssueEntry>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                let mut items = Vec::new();
                for row in tx.all(ISSUE.name, org)? {
                    let issue = row.data;
                    let in_cluster = request.cluster.as_deref().is_none_or(|c| issue["cluster"].as_str() == Some(c));
                    let in_conversation =
                        request.conversation.as_deref().is_none_or(|c| issue["conversation"].as_str() == Some(c));
                    if in_cluster && in_conversation {
                        items.push(issue_entry(tx, org, issue)?);
                    }
                }
                let list = format!("issues:{org}:{:?}:{:?}", request.cluster, request.conversation);
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| decode(ISSUE.name, item))
            })
            .await
    }

    async fn get_conversation_issue(
        &self,
        context: Ctx,
        request: GetConversationIssueRequest,
    ) -> Result<ConversationIssueEntry, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                let issue = match tx.row(ISSUE.name, &request.issue_id)? {
                    Some(row) if row.org == *org && row.deleted_at.is_none() => row,
                    _ => {
                        return Err(ApiError::not_found(format!(
                            "no issue {} in organization {org}",
                            request.issue_id
                        )));
                    }
                };
                require(tx, &context.principal, org, Role::Read)?;
                decode(ISSUE.name, issue_entry(tx, org, issue.data)?)
            })
            .await
    }

    async fn get_conversation(
        &self,
        context: Ctx,
        request: GetConversationRequest,
    ) -> Result<ConversationDetail, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                let row =
                    tx.live(CONVERSATION.name, &conversation_key(org, &request.conversation_id)).map_err(|_| {
                        ApiError::not_found(format!(
                            "no conversation {} in organization {org}",
                            request.conversation_id
                        ))
                    })?;
                require(tx, &context.principal, org, Role::Read)?;
                decode(CONVERSATION.name, row.data)
            })
            .await
    }
}
