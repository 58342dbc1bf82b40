//! Every kind of stored resource, declared once: its name in the store, the prefix of the ids
//! made for it, and the API type its documents have. Handlers, the demo data and the store's
//! callers name kinds only through these constants.

/// A kind of stored resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// Its name in the store (the `kind` column), and what error messages call it.
    pub name: &'static str,
    /// The prefix of the ids [`crate::store::Tx::new_id`] makes for it (`<prefix>_<n>`). A
    /// kind keyed otherwise (a membership by `<org>/<user>`, an integration by its name) has
    /// its store name here, and no id is ever made from it.
    pub prefix: &'static str,
    /// The API type its documents have; empty for the sandbox's own records, which no
    /// operation answers as they are stored.
    pub schema: &'static str,
}

impl Kind {
    /// A kind whose documents are answered as the API type `schema`.
    const fn api(name: &'static str, prefix: &'static str, schema: &'static str) -> Kind {
        Kind { name, prefix, schema }
    }

    /// A record of the sandbox's own (no API type; ids made from its name when it makes any).
    const fn record(name: &'static str) -> Kind {
        Kind { name, prefix: name, schema: "" }
    }

    /// The same kind, its ids made with another prefix.
    const fn with_prefix(self, prefix: &'static str) -> Kind {
        Kind { prefix, ..self }
    }
}

// ---- organizations and people (Part A) ----

/// Organizations (scope: `orgs`).
pub const ORGANIZATION: Kind = Kind::api("organization", "org", "Organization");
/// The scope every organization is listed in.
pub const ORGANIZATIONS: &str = "orgs";
/// The scope every user is stored in.
pub const USERS: &str = "users";
/// Users (scope: [`USERS`]), embedded in their memberships.
pub const USER: Kind = Kind::api("user", "user", "User");
/// Memberships: id `<org>/<user>`, scope the organization.
pub const MEMBER: Kind = Kind::api("member", "member", "Member");
/// Invite links (scope: the organization). The API only deletes them; the demo data makes one.
pub const INVITE_LINK: Kind = Kind::record("invite-link").with_prefix("invite");
/// The agent instructions of an organization (id and scope: the organization's id).
pub const AGENT_INSTRUCTIONS: Kind =
    Kind::api("agent-instructions", "agent-instructions", "OrganizationAgentInstructions");
/// Teams (scope: the organization).
pub const TEAM: Kind = Kind::api("team", "team", "Team");
/// Team memberships: id `<team>/<user>`, scope the team, `role` `owner` or `member`.
pub const TEAM_MEMBER: Kind = Kind::record("team-member");
/// SAML providers (scope: the organization).
pub const SAML_PROVIDER: Kind = Kind::api("saml-provider", "saml", "SamlProvider");

// ---- collections, spaces, content (Parts A and B) ----

/// Collections (scope: the parent collection, or the organization at the top level).
pub const COLLECTION: Kind = Kind::api("collection", "collection", "Collection");
/// Spaces (scope: the parent collection, or the organization).
pub const SPACE: Kind = Kind::api("space", "space", "Space");
/// Revisions, each holding its pages and files inline (scope: the space).
pub const REVISION: Kind = Kind::api("revision", "rev", "Revision");
/// Pages: not stored on their own (they live in revisions); ids and search entries
/// (`<space>/<page>`) are made under this kind.
pub const PAGE: Kind = Kind::api("page", "page", "Page");
/// Files: not stored on their own (they live in revisions); ids are made under this kind.
pub const FILE: Kind = Kind::api("file", "file", "File");
/// Change requests (scope: the space).
pub const CHANGE_REQUEST: Kind = Kind::api("change-request", "cr", "ChangeRequest");
/// Comments (scope: the space, or the change request).
pub const COMMENT: Kind = Kind::api("comment", "comment", "Comment");
/// Replies to comments (scope: the comment).
pub const REPLY: Kind = Kind::api("comment-reply", "reply", "CommentReply");
/// OpenAPI specs: id `<org>/<slug>`, scope the organization.
pub const OPENAPI_SPEC: Kind = Kind::api("openapi-spec", "spec", "OpenApiSpec");
/// The versions a processed OpenAPI spec records: ids only.
pub const SPEC_VERSION: Kind = Kind::record("version");

// ---- sites (Part B) ----

/// Sites (scope: the organization).
pub const SITE: Kind = Kind::api("site", "site", "Site");
/// The visitor attributes schema of a site (id and scope: the site's id).
pub const SITE_SCHEMA: Kind = Kind::api("site-adaptive-schema", "site-adaptive-schema", "SiteAdaptiveSchema");
/// Site sections (scope: the site).
pub const SECTION: Kind = Kind::api("site-section", "section", "SiteSection");
/// Section groups (scope: the site).
pub const GROUP: Kind = Kind::api("site-section-group", "group", "SiteSectionGroup");
/// Site spaces (scope: the site).
pub const SITE_SPACE: Kind = Kind::api("site-space", "sitesp", "SiteSpace");
/// The order of a site's tree: one row per section or group, id the same, scope its parent
/// (the site, or a group), `{ "kind": <its kind's name> }` as data.
pub const ENTRY: Kind = Kind::record("site-structure-entry");

// ---- integrations, translations, conversations, Git (Part C) ----

/// Integrations: id the name, scope [`CATALOG`], org the publishing organization.
pub const INTEGRATION: Kind = Kind::api("integration", "integration", "Integration");
/// The scope of every integration: the catalog.
pub const CATALOG: &str = "integrations";
/// Installations (scope: the integration's name, org the organization installed on).
pub const INSTALLATION: Kind = Kind::api("installation", "inst", "Installation");
/// Events delivered to an integration, stored as their detail (scope: the integration's name).
pub const INTEGRATION_EVENT: Kind = Kind::api("integration-event", "event", "IntegrationEventDetail");
/// The development tunnel of an integration (id: the integration's name; never answered).
pub const INTEGRATION_DEV: Kind = Kind::record("integration-dev");
/// Translations (scope: the organization).
pub const TRANSLATION: Kind = Kind::api("translation", "tr", "Translation");
/// Conversations, stored as their detail: id `<org>/<conversation id>`, scope the organization.
pub const CONVERSATION: Kind = Kind::api("conversation", "conversation", "ConversationDetail");
/// The issues found in conversations (scope: the organization).
pub const ISSUE: Kind = Kind::api("conversation-issue", "issue", "ConversationIssue");
/// Recorded Git imports and exports (scope: the space).
pub const GIT_JOB: Kind = Kind::record("git-job").with_prefix("gitjob");
/// A space's Git information (id and scope: the space's id).
pub const GIT_INFO: Kind = Kind::api("git-info", "git-info", "SpaceGitInfo");
