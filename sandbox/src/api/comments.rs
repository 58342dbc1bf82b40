//! Comments and replies (Part B §2.11, §3.3, §4.8) on a space and on a change request.
//!
//! Comments are stored under kind `comment`, scope the space's id (space comments) or the
//! change request's id; replies under `comment-reply`, scope the comment's id. Resolution
//! (§3.3): `PUT` with `resolved: true` sets `status: resolved`, `resolvedAt` and `resolvedBy`;
//! `resolved: false` removes all three (the name of the unresolved status is not shown, so
//! an open comment has no `status`). The `comments` counter of the space (or of the change
//! request) is its number of open comments. Decisions where the documents are silent:
//! posting needs the `comment` role; editing a body needs to be its author; resolving and
//! deleting need the author or `review`; `order=desc` (the default) lists newest first and
//! any other value oldest first; a `status` filter other than `all` and `resolved` lists the
//! open comments; `format=document` answers bodies as `{ document }`; reactions add and
//! remove the caller per emoji; the commenters of a space are the members who posted there.

use crate::api::prelude::*;
use crate::domain::change_requests::change_request;
use crate::domain::kinds::{CHANGE_REQUEST, COMMENT, MEMBER, REPLY, SPACE};
use crate::domain::members::user_json;

/// Where comments live: a space, or a change request of it.
struct Thread {
    space: String,
    change_request: Option<String>,
    org: String,
}

impl Thread {
    fn scope(&self) -> &str {
        self.change_request.as_deref().unwrap_or(&self.space)
    }
}

fn thread(tx: &Tx, user: &User, space: &str, change_request_id: Option<&str>, min: Role) -> Result<Thread, ApiError> {
    let org = match change_request_id {
        Some(id) => change_request(tx, user, space, id, min)?.org,
        None => found(tx, SPACE, space, user, min)?.org,
    };
    Ok(Thread { space: space.to_owned(), change_request: change_request_id.map(str::to_owned), org })
}

fn comment_in(tx: &Tx, thread: &Thread, id: &str) -> Result<Row, ApiError> {
    match tx.row(COMMENT.name, id)? {
        Some(row) if row.scope == thread.scope() => Ok(row),
        _ => Err(ApiError::not_found(format!("no comment with id {id}"))),
    }
}

fn reply_in(tx: &Tx, comment: &str, id: &str) -> Result<Row, ApiError> {
    match tx.row(REPLY.name, id)? {
        Some(row) if row.scope == comment => Ok(row),
        _ => Err(ApiError::not_found(format!("no reply with id {id}"))),
    }
}

/// Recomputes the open-comment counter of the thread's space or change request.
fn recount(tx: &Tx, thread: &Thread) -> Result<(), ApiError> {
    let open = tx.count(COMMENT.name, thread.scope())? - tx.count_state(COMMENT.name, thread.scope(), "resolved")?;
    match &thread.change_request {
        Some(id) => tx.modify(CHANGE_REQUEST.name, id, |r| r["comments"] = json!(open))?,
        None => tx.modify(SPACE.name, &thread.space, |s| s["comments"] = json!(open))?,
    };
    Ok(())
}

/// A body as answered in `format`.
fn formatted(mut document: Value, format: Option<&str>) -> Value {
    if format == Some("document") {
        let text = document["body"]["markdown"].as_str().unwrap_or_default().to_owned();
        document["body"] = json!({"document": {"object": "document", "nodes": [
            {"object": "block", "type": "paragraph", "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text}]}]}
        ]}});
    }
    document
}

/// What a posted body is stored as: `{ markdown }` (an empty or unknown body: empty Markdown).
fn stored_body(body: &Value) -> Value {
    json!({"markdown": body["markdown"].as_str().unwrap_or_default()})
}

fn is_author(document: &Value, user: &User) -> bool {
    document["postedBy"]["id"] == user.id.as_str()
}

/// Adds and removes the caller's reactions.
fn react(tx: &Tx, document: &mut Value, user: &User, body: &Value) -> Result<(), ApiError> {
    let me = user_json(tx, user)?;
    let now = timestamp(tx.now());
    let mut reactions: Vec<Value> = document["reactions"].as_array().cloned().unwrap_or_default();
    for emoji in body["addedReactions"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let index = match reactions.iter().position(|r| r["emoji"] == emoji) {
            Some(index) => index,
            None => {
                reactions.push(json!({"emoji": emoji, "count": 0, "users": []}));
                reactions.len() - 1
            }
        };
        let users = reactions[index]["users"].as_array_mut().expect("users is an array");
        if !users.iter().any(|u| u["user"]["id"] == user.id.as_str()) {
            users.push(json!({"user": me, "reactedAt": now}));
        }
        reactions[index]["count"] = json!(reactions[index]["users"].as_array().map_or(0, Vec::len));
    }
    for emoji in body["removedReactions"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        for reaction in reactions.iter_mut().filter(|r| r["emoji"] == emoji) {
            if let Some(users) = reaction["users"].as_array_mut() {
                users.retain(|u| u["user"]["id"] != user.id.as_str());
            }
            reaction["count"] = json!(reaction["users"].as_array().map_or(0, Vec::len));
        }
    }
    reactions.retain(|r| r["count"] != 0);
    document["reactions"] = Value::Array(reactions);
    Ok(())
}

fn post_comment(tx: &Tx, user: &User, thread: &Thread, body: &Value) -> Result<Value, ApiError> {
    let mut target = json!({"space": thread.space});
    if let Some(id) = &thread.change_request {
        target["changeRequest"] = json!(id);
    }
    if let Some(page) = body["page"].as_str() {
        target["page"] = json!({"id": page});
    }
    if let Some(node) = body["node"].as_str() {
        target["node"] = json!({"id": node});
    }
    if body["tableCell"].is_object() {
        target["tableCell"] = body["tableCell"].clone();
    }
    let (id, mut document) = new_document(tx, COMMENT, &json!({}))?;
    let base = match &thread.change_request {
        Some(cr) => format!("{API_URL}/v1/spaces/{}/change-requests/{cr}/comments/{id}", thread.space),
        None => format!("{API_URL}/v1/spaces/{}/comments/{id}", thread.space),
    };
    merge(
        &mut document,
        &json!({
            "object": "comment", "postedBy": user_json(tx, user)?, "postedAt": timestamp(tx.now()),
            "reactions": [], "replies": 0, "repliers": [], "body": stored_body(&body["body"]), "target": target,
            "urls": {"location": base}, "permissions": {"view": true, "edit": true, "reply": true, "delete": true},
        }),
    );
    tx.insert(COMMENT.name, &id, &thread.org, thread.scope(), &document)?;
    recount(tx, thread)?;
    Ok(document)
}

fn update_comment(tx: &Tx, user: &User, thread: &Thread, id: &str, body: &Value) -> Result<Value, ApiError> {
    let row = comment_in(tx, thread, id)?;
    let mut document = row.data;
    if body.get("body").is_some() {
        if !is_author(&document, user) {
            return Err(ApiError::forbidden("only the author of a comment edits its body"));
        }
        document["body"] = stored_body(&body["body"]);
        document["editedAt"] = timestamp(tx.now());
    }
    if let Some(resolved) = body["resolved"].as_bool() {
        if !is_author(&document, user) {
            require(tx, user, &thread.org, Role::Review)?;
        }
        if resolved {
            document["status"] = json!("resolved");
            document["resolvedAt"] = timestamp(tx.now());
            document["resolvedBy"] = user_json(tx, user)?;
        } else if let Value::Object(object) = &mut document {
            for key in ["status", "resolvedAt", "resolvedBy"] {
                object.remove(key);
            }
        }
    }
    react(tx, &mut document, user, body)?;
    tx.put(COMMENT.name, id, &document)?;
    recount(tx, thread)?;
    Ok(document)
}

fn delete_comment(tx: &Tx, user: &User, thread: &Thread, id: &str) -> Result<(), ApiError> {
    let Ok(row) = comment_in(tx, thread, id) else { return Ok(()) };
    if !is_author(&row.data, user) {
        require(tx, user, &thread.org, Role::Review)?;
    }
    tx.delete_scope(REPLY.name, id)?;
    tx.delete(COMMENT.name, id)?;
    recount(tx, thread)
}

fn post_reply(tx: &Tx, user: &User, thread: &Thread, comment: &str, body: &Value) -> Result<Value, ApiError> {
    let parent = comment_in(tx, thread, comment)?;
    let (id, mut document) = new_document(tx, REPLY, &json!({}))?;
    let location = format!("{}/replies/{id}", parent.data["urls"]["location"].as_str().unwrap_or_default());
    let me = user_json(tx, user)?;
    let now = timestamp(tx.now());
    merge(
        &mut document,
        &json!({
            "object": "comment-reply", "postedBy": me, "postedAt": now, "reactions": [], "body": stored_body(&body["body"]),
            "urls": {"location": location}, "permissions": {"view": true, "edit": true, "reply": true, "delete": true},
        }),
    );
    tx.insert(REPLY.name, &id, &thread.org, comment, &document)?;
    refresh_repliers(tx, comment)?;
    Ok(document)
}

/// Recomputes a comment's `replies` and `repliers` from its replies.
fn refresh_repliers(tx: &Tx, comment: &str) -> Result<(), ApiError> {
    let replies = tx.all(REPLY.name, comment)?;
    let mut repliers: Vec<Value> = Vec::new();
    for reply in &replies {
        let user = reply.data["postedBy"].clone();
        match repliers.iter_mut().find(|r| r["user"]["id"] == user["id"]) {
            Some(replier) => {
                replier["count"] = json!(replier["count"].as_i64().unwrap_or(0) + 1);
                replier["updatedAt"] = reply.data["postedAt"].clone();
            }
            None => repliers.push(json!({"user": user, "count": 1, "updatedAt": reply.data["postedAt"]})),
        }
    }
    tx.modify(COMMENT.name, comment, |c| {
        c["replies"] = json!(replies.len());
        c["repliers"] = Value::Array(repliers);
    })?;
    Ok(())
}

struct ListOptions<'a> {
    order: &'a CommentOrder,
    status: &'a CommentStatusFilter,
    target_page: Option<&'a str>,
    authors: &'a [String],
    format: Option<&'a str>,
    page: Option<&'a str>,
    limit: i64,
}

fn list_comments(tx: &Tx, thread: &Thread, options: &ListOptions) -> Result<ListPage<Comment>, ApiError> {
    let list = format!(
        "comments:{}:{}:{}:{:?}:{:?}",
        thread.scope(),
        options.order.as_str(),
        options.status.as_str(),
        options.target_page,
        options.authors
    );
    let mut conditions = Vec::new();
    match options.status {
        CommentStatusFilter::All => {}
        CommentStatusFilter::Resolved => conditions.push(Where::Is("$.status", "resolved")),
        CommentStatusFilter::Unknown(_) => conditions.push(Where::IsNot("$.status", "resolved")),
    }
    if let Some(page) = options.target_page {
        conditions.push(Where::Is("$.target.page.id", page));
    }
    if !options.authors.is_empty() {
        conditions.push(Where::OneOf("$.postedBy.id", options.authors));
    }
    let newest_first = matches!(options.order, CommentOrder::Desc);
    let mut page: ListPage<Value> =
        tx.page_where(COMMENT.name, thread.scope(), &conditions, newest_first, (&list, options.page, options.limit))?;
    page.items = page.items.into_iter().map(|c| formatted(c, options.format)).collect();
    Ok(ListPage {
        next: page.next,
        count: page.count,
        items: page.items.into_iter().map(|c| out(COMMENT, c)).collect::<Result<_, _>>()?,
    })
}

impl CommentsApi for Sandbox {
    async fn list_space_comments(
        &self,
        context: Ctx,
        request: ListSpaceCommentsRequest,
    ) -> Result<ListPage<Comment>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Read)?;
                list_comments(
                    tx,
                    &thread,
                    &ListOptions {
                        order: &request.order,
                        status: &request.status,
                        target_page: request.target_page.as_deref(),
                        authors: &request.authors,
                        format: request.format.as_deref(),
                        page: request.page.as_deref(),
                        limit: request.limit,
                    },
                )
            })
            .await
    }

    async fn create_space_comment(
        &self,
        context: Ctx,
        request: CreateSpaceCommentRequest,
    ) -> Result<Comment, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Comment)?;
                out(COMMENT, post_comment(tx, &context.principal, &thread, &encode(&request.body))?)
            })
            .await
    }

    async fn get_space_comment(&self, context: Ctx, request: GetSpaceCommentRequest) -> Result<Comment, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Read)?;
                out(COMMENT, formatted(comment_in(tx, &thread, &request.comment_id)?.data, request.format.as_deref()))
            })
            .await
    }

    async fn update_space_comment(
        &self,
        context: Ctx,
        request: UpdateSpaceCommentRequest,
    ) -> Result<Comment, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Comment)?;
                out(
                    COMMENT,
                    update_comment(tx, &context.principal, &thread, &request.comment_id, &encode(&request.body))?,
                )
            })
            .await
    }

    async fn delete_space_comment(&self, context: Ctx, request: DeleteSpaceCommentRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Ok(thread) = thread(tx, &context.principal, &request.space_id, None, Role::Comment) else {
                    return Ok(());
                };
                delete_comment(tx, &context.principal, &thread, &request.comment_id)
            })
            .await
    }

    async fn create_space_comment_reply(
        &self,
        context: Ctx,
        request: CreateSpaceCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Comment)?;
                out(REPLY, post_reply(tx, &context.principal, &thread, &request.comment_id, &encode(&request.body))?)
            })
            .await
    }

    async fn get_space_comment_reply(
        &self,
        context: Ctx,
        request: GetSpaceCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Read)?;
                comment_in(tx, &thread, &request.comment_id)?;
                out(
                    REPLY,
                    formatted(
                        reply_in(tx, &request.comment_id, &request.comment_reply_id)?.data,
                        request.format.as_deref(),
                    ),
                )
            })
            .await
    }

    async fn update_space_comment_reply(
        &self,
        context: Ctx,
        request: UpdateSpaceCommentReplyRequest,
    ) -> Result<UpdateSpaceCommentReplyAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Comment)?;
                comment_in(tx, &thread, &request.comment_id)?;
                let mut document = reply_in(tx, &request.comment_id, &request.comment_reply_id)?.data;
                let body = encode(&request.body);
                if body.get("body").is_some() {
                    if !is_author(&document, &context.principal) {
                        return Err(ApiError::forbidden("only the author of a reply edits its body"));
                    }
                    document["body"] = stored_body(&body["body"]);
                    document["editedAt"] = timestamp(tx.now());
                }
                react(tx, &mut document, &context.principal, &body)?;
                tx.put(REPLY.name, &request.comment_reply_id, &document)?;
                out(REPLY, document)
            })
            .await
            .map(UpdateSpaceCommentReplyAnswer::Ok)
    }

    async fn delete_space_comment_reply(
        &self,
        context: Ctx,
        request: DeleteSpaceCommentReplyRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Ok(thread) = thread(tx, &context.principal, &request.space_id, None, Role::Comment) else {
                    return Ok(());
                };
                let Ok(reply) = reply_in(tx, &request.comment_id, &request.comment_reply_id) else { return Ok(()) };
                if !is_author(&reply.data, &context.principal) {
                    require(tx, &context.principal, &thread.org, Role::Review)?;
                }
                tx.delete(REPLY.name, &reply.id)?;
                refresh_repliers(tx, &request.comment_id)
            })
            .await
    }

    async fn list_space_commenters(
        &self,
        context: Ctx,
        request: ListSpaceCommentersRequest,
    ) -> Result<ListPage<Member>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread = thread(tx, &context.principal, &request.space_id, None, Role::Read)?;
                let mut authors: Vec<String> = Vec::new();
                for comment in tx.all(COMMENT.name, &thread.space)? {
                    let mut ids = vec![comment.data["postedBy"]["id"].as_str().unwrap_or_default().to_owned()];
                    ids.extend(
                        tx.all(REPLY.name, &comment.id)?
                            .iter()
                            .map(|r| r.data["postedBy"]["id"].as_str().unwrap_or_default().to_owned()),
                    );
                    for id in ids {
                        if !authors.contains(&id) {
                            authors.push(id);
                        }
                    }
                }
                let mut members = Vec::new();
                for author in authors {
                    if let Some(row) = tx.row(MEMBER.name, &format!("{}/{author}", thread.org))? {
                        members.push(row.data);
                    }
                }
                tx.paginate(
                    &format!("commenters:{}", thread.space),
                    members,
                    request.page.as_deref(),
                    request.limit,
                    |m| decode(MEMBER.name, m),
                )
            })
            .await
    }

    async fn list_change_request_comments(
        &self,
        context: Ctx,
        request: ListChangeRequestCommentsRequest,
    ) -> Result<ListPage<Comment>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Read)?;
                list_comments(
                    tx,
                    &thread,
                    &ListOptions {
                        order: &request.order,
                        status: &request.status,
                        target_page: request.target_page.as_deref(),
                        authors: &request.authors,
                        format: request.format.as_deref(),
                        page: request.page.as_deref(),
                        limit: request.limit,
                    },
                )
            })
            .await
    }

    async fn create_change_request_comment(
        &self,
        context: Ctx,
        request: CreateChangeRequestCommentRequest,
    ) -> Result<Comment, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Comment)?;
                out(COMMENT, post_comment(tx, &context.principal, &thread, &encode(&request.body))?)
            })
            .await
    }

    async fn get_change_request_comment(
        &self,
        context: Ctx,
        request: GetChangeRequestCommentRequest,
    ) -> Result<Comment, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Read)?;
                out(COMMENT, formatted(comment_in(tx, &thread, &request.comment_id)?.data, request.format.as_deref()))
            })
            .await
    }

    async fn update_change_request_comment(
        &self,
        context: Ctx,
        request: UpdateChangeRequestCommentRequest,
    ) -> Result<Comment, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Comment)?;
                out(
                    COMMENT,
                    update_comment(tx, &context.principal, &thread, &request.comment_id, &encode(&request.body))?,
                )
            })
            .await
    }

    async fn delete_change_request_comment(
        &self,
        context: Ctx,
        request: DeleteChangeRequestCommentRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Ok(thread) =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Comment)
                else {
                    return Ok(());
                };
                delete_comment(tx, &context.principal, &thread, &request.comment_id)
            })
            .await
    }

    async fn create_change_request_comment_reply(
        &self,
        context: Ctx,
        request: CreateChangeRequestCommentReplyRequest,
    ) -> Result<CommentReply, ApiError> {
        self.store()
            .write_async(move |tx| {
                let thread =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Comment)?;
                let reply = post_reply(tx, &context.principal, &thread, &request.comment_id, &encode(&request.body))?;
                out(REPLY, formatted(reply, request.format.as_deref()))
            })
            .await
    }

    async fn list_change_request_comment_replies(
        &self,
        context: Ctx,
        request: ListChangeRequestCommentRepliesRequest,
    ) -> Result<ListPage<CommentReply>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let thread =
                    thread(tx, &context.principal, &request.space_id, Some(&request.change_request_id), Role::Read)?;
                comment_in(tx, &thread, &request.comment_id)?;
                let replies: Vec<Value> = tx
                    .all(REPLY.name, &request.comment_id)?
                    .into_iter()
                    .map(|r| formatted(r.data, request.format.as_deref()))
                    .collect();
                tx.paginate(
                    &format!("replies:{}:{:?}", request.comment_id, request.format),
                    replies,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(REPLY.name, item),
                )
            })
            .await
    }
}
