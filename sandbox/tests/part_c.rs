//! Part C: integrations (publish, install, events, entries, dev mode), translations (their
//! state table), conversations (ingest, issues and clusters), and their failure cases.

mod common;

use docs_api_types::{
    ConversationInput, ConversationMetadata, ConversationPart, ConversationPartRole, ConversationPartType,
    CreateTranslationBody, Document, IngestConversationsBody, IntegrationBlock, IntegrationEntrySpace,
    IntegrationEventPayload, TranslationLanguage, TranslationSource,
};
use std::collections::BTreeMap;

fn block(id: &str, unfurl: &str) -> IntegrationBlock {
    IntegrationBlock {
        id: id.into(),
        title: Some("Message".into()),
        description: None,
        icon: None,
        url_unfurl: Some(vec![unfurl.into()]),
        markdown: None,
    }
}

fn conversation(id: &str, subject: Option<&str>, message: &str, source: &str) -> IngestConversationsBody {
    IngestConversationsBody::from(ConversationInput {
        id: id.into(),
        metadata: Some(ConversationMetadata {
            url: Some(format!("https://support.example.com/c/{id}")),
            attributes: Some(BTreeMap::from([("source".to_owned(), source.to_owned())])),
            created_at: None,
        }),
        subject: subject.map(str::to_owned),
        parts: vec![ConversationPart {
            type_: Some(ConversationPartType::Message),
            role: Some(ConversationPartRole::User),
            body: Some(message.into()),
        }],
    })
}

fn document() -> Document {
    Document { data: None, nodes: vec![], extra: BTreeMap::new() }
}

#[tokio::test]
async fn an_integration_is_published_installed_and_its_events_recorded() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let space = sb.seed_space("Guides");
    let integrations = sb.client.integrations();

    // A new name needs the publishing organization; an unknown one is a 404.
    assert_eq!(common::status(integrations.publish("slack").title("Slack").send().await), 404);
    assert_eq!(common::status(integrations.publish("slack").organization("nowhere").send().await), 404);
    let slack = integrations
        .publish("slack")
        .organization(&org)
        .title("Slack")
        .blocks([block("message", "https://slack.com/archives/")])
        .send()
        .await
        .unwrap();
    assert_eq!((slack.name.as_str(), slack.version), ("slack", Some(1)));
    assert_eq!(slack.owner.as_ref().map(|o| o.id.as_str()), Some(org.as_str()));
    assert_eq!(slack.permissions.and_then(|p| p.admin), Some(true));
    integrations.publish("notes").organization(&org).title("Notes").send().await.unwrap();

    // Filters of the catalog.
    let by_domain = integrations.list().block_domain("slack.com").send().await.unwrap();
    assert_eq!(by_domain.items.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["slack"]);
    let without_blocks = integrations.list().blocks(false).send().await.unwrap();
    assert_eq!(without_blocks.items.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["notes"]);
    assert_eq!(integrations.list().content_sources(true).send().await.unwrap().count, Some(0));
    assert_eq!(integrations.list().send().await.unwrap().count, Some(2));

    // Installing records an installation_setup event; installing again changes nothing.
    let installation = integrations.install("slack", &org).send().await.unwrap();
    assert_eq!(installation.status.as_ref().map(|s| s.as_str()), Some("active"));
    assert_eq!(installation.spaces, Some(1));
    let again = integrations.install("slack", &org).send().await.unwrap();
    assert_eq!(again.id, installation.id);
    assert_eq!(integrations.list_installations("slack").send().await.unwrap().count, Some(1));
    let events = integrations.list_events("slack").send().await.unwrap();
    assert_eq!(events.count, Some(1));
    let event = &events.items[0];
    assert_eq!(event.installation_id.as_deref(), Some(installation.id.as_str()));
    assert!(matches!(event.payload, Some(IntegrationEventPayload::InstallationSetup(_))));

    // A new version sets every installation up again; with a tunnel the trace says so.
    integrations.update_dev_mode("slack", "https://abc.tunnel.example.com").send().await.unwrap();
    let v2 = integrations.publish("slack").description("Version two").send().await.unwrap();
    assert_eq!((v2.version, v2.title.as_deref()), (Some(2), Some("Slack")));
    let events = integrations.list_events("slack").send().await.unwrap();
    assert_eq!(events.count, Some(2));
    let detail = integrations.get_event("slack", &events.items[1].id).send().await.unwrap();
    let logs = detail.trace.and_then(|t| t.logs).unwrap_or_default();
    assert_eq!(logs.len(), 2);

    // Spaces of the installation: ids, or full objects when extended.
    let spaces = integrations.list_spaces("slack").send().await.unwrap();
    assert_eq!(spaces.items[0].space, Some(IntegrationEntrySpace::String(space.clone())));
    let extended = integrations.list_spaces("slack").extended(true).send().await.unwrap();
    assert!(matches!(&extended.items[0].space, Some(IntegrationEntrySpace::Space(s)) if s.id == space));
    assert_eq!(integrations.list_sites("slack").send().await.unwrap().count, Some(0));

    // Delete, also of what is absent.
    integrations.delete("slack").send().await.unwrap();
    integrations.delete("slack").send().await.unwrap();
    assert_eq!(common::status(integrations.get("slack").send().await), 404);
    assert_eq!(common::status(integrations.list_events("slack").send().await), 404);
}

#[tokio::test]
async fn integration_failures() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let integrations = sb.client.integrations();
    integrations.publish("slack").organization(&org).send().await.unwrap();
    let (_, reader) = sb.member("rita", Some("read"));

    assert_eq!(common::status(integrations.list().block_domain("not a domain!").send().await), 400);
    assert_eq!(common::status(integrations.get("unknown").send().await), 404);
    assert_eq!(common::status(integrations.install("unknown", &org).send().await), 404);
    // The integration is there; the organization named in the body is not: 400 naming it.
    let error = integrations.install("slack", "org_404").send().await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the service answered 400: the request is invalid; /organization: no organization with id org_404"
    );
    assert_eq!(common::status(integrations.get_event("slack", "event_404").send().await), 404);
    assert_eq!(common::status(integrations.update_dev_mode("unknown", "https://t.example.com").send().await), 404);
    // A reader sees the catalog but may not publish, install or read deliveries.
    assert_eq!(reader.integrations().get("slack").send().await.unwrap().permissions.and_then(|p| p.admin), Some(false));
    assert_eq!(common::status(reader.integrations().publish("slack").title("Mine").send().await), 403);
    assert_eq!(common::status(reader.integrations().install("slack", &org).send().await), 403);
    assert_eq!(common::status(reader.integrations().list_events("slack").send().await), 403);
    assert_eq!(common::status(reader.integrations().delete("slack").send().await), 403);
}

#[tokio::test]
async fn a_translation_stays_pending_and_records_each_run() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let space = sb.seed_space("Handbook");
    let translations = sb.client.translations();
    let body = CreateTranslationBody {
        language: TranslationLanguage::En,
        source: TranslationSource { space: Some(space.clone()), language: Some("fr".into()) },
        instructions: None,
    };
    let created = translations.create_organization_translation(&org, body.clone()).send().await.unwrap();
    assert_eq!(created.status.as_ref().map(|s| s.as_str()), Some("pending"));
    assert_eq!(created.stats.as_ref().and_then(|s| s.runs), Some(0));

    translations.run(&org, &created.id).send().await.unwrap();
    translations.run(&org, &created.id).send().await.unwrap();
    let ran = translations.get(&org, &created.id).send().await.unwrap();
    assert_eq!(ran.status.as_ref().map(|s| s.as_str()), Some("pending"));
    assert_eq!(ran.stats.as_ref().and_then(|s| s.runs), Some(2));

    let updated = translations.update_instructions(&org, &created.id, document()).send().await.unwrap();
    assert!(updated.instructions.is_some());
    assert_eq!(translations.list_organization_translations(&org).send().await.unwrap().count, Some(1));

    // Failures: a source that is no space, an absent translation, a reader.
    let mut nowhere = body.clone();
    nowhere.source.space = Some("space_404".into());
    assert_eq!(common::status(translations.create_organization_translation(&org, nowhere).send().await), 400);
    assert_eq!(common::status(translations.get(&org, "tr_404").send().await), 404);
    assert_eq!(common::status(translations.run(&org, "tr_404").send().await), 404);
    assert_eq!(common::status(translations.list_organization_translations("org_404").send().await), 404);
    let (_, reader) = sb.member("rita", Some("read"));
    assert_eq!(reader.translations().get(&org, &created.id).send().await.unwrap().id, created.id);
    assert_eq!(common::status(reader.translations().run(&org, &created.id).send().await), 403);
    assert_eq!(common::status(reader.translations().create_organization_translation(&org, body).send().await), 403);

    translations.delete(&org, &created.id).send().await.unwrap();
    translations.delete(&org, &created.id).send().await.unwrap();
    assert_eq!(common::status(translations.get(&org, &created.id).send().await), 404);
}

#[tokio::test]
async fn ingested_conversations_give_issues_and_clusters() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let conversations = sb.client.conversations();
    conversations
        .ingest_organization_conversations(&org, conversation("c1", Some("Cannot configure SSO"), "Help", "intercom"))
        .send()
        .await
        .unwrap();
    conversations
        .ingest_organization_conversations(&org, conversation("c2", None, "How to configure SAML?", "zendesk"))
        .send()
        .await
        .unwrap();
    conversations
        .ingest_organization_conversations(&org, conversation("c3", Some("Billing invoices"), "Where?", "intercom"))
        .send()
        .await
        .unwrap();

    let detail = conversations.get(&org, "c2").send().await.unwrap();
    let c2 = detail.conversation.unwrap();
    assert_eq!((c2.id.as_str(), c2.source.as_deref()), ("c2", Some("zendesk")));
    assert_eq!(detail.parts.unwrap()[0].body.as_deref(), Some("How to configure SAML?"));
    let intercom = conversations.list_organization_conversations(&org).source("intercom").send().await.unwrap();
    assert_eq!(intercom.items.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c1", "c3"]);

    // One issue per conversation; clusters by the longest word of the title.
    let issues = conversations.list_organization_conversation_issues(&org).send().await.unwrap();
    assert_eq!(issues.count, Some(3));
    let first = issues.items[0].issue.clone().unwrap();
    assert_eq!(
        (first.title.as_deref(), first.cluster.as_deref()),
        (Some("Cannot configure SSO"), Some("cluster-configure"))
    );
    let entry = conversations.get_issue(&org, &first.id).send().await.unwrap();
    assert_eq!(entry.conversation.map(|c| c.id), Some("c1".to_owned()));
    let configure =
        conversations.list_organization_conversation_issues(&org).cluster("cluster-configure").send().await.unwrap();
    assert_eq!(configure.count, Some(2));

    let clusters = conversations.list_organization_conversation_clusters(&org).send().await.unwrap();
    assert_eq!(clusters.count, Some(2));
    let cluster = clusters.items.iter().find(|c| c.id == "cluster-configure").unwrap();
    let stats = cluster.stats.clone().unwrap();
    assert_eq!((stats.issues, stats.conversations), (Some(2), Some(2)));
    assert_eq!(cluster.weekly_pulse.as_ref().map(|p| (p.len(), p[12])), Some((13, 2)));
    assert_eq!(cluster.sources.as_ref().and_then(|s| s.get("zendesk")).copied(), Some(1));

    // Ingesting an id again replaces the conversation and its issue.
    conversations
        .ingest_organization_conversations(&org, conversation("c1", Some("Billing export"), "CSV?", "intercom"))
        .send()
        .await
        .unwrap();
    let issues = conversations.list_organization_conversation_issues(&org).conversation("c1").send().await.unwrap();
    assert_eq!(issues.count, Some(1));
    assert_eq!(issues.items[0].issue.as_ref().and_then(|i| i.cluster.as_deref()), Some("cluster-billing"));

    // Failures.
    assert_eq!(common::status(conversations.get(&org, "c404").send().await), 404);
    assert_eq!(common::status(conversations.get_issue(&org, "issue_404").send().await), 404);
    assert_eq!(common::status(conversations.list_organization_conversations("org_404").send().await), 404);
    let unknown = IngestConversationsBody::Unknown(serde_json::json!({"conversations": []}));
    assert_eq!(common::status(conversations.ingest_organization_conversations(&org, unknown).send().await), 400);
    let no_parts = IngestConversationsBody::from(ConversationInput {
        id: "c8".into(),
        metadata: None,
        subject: None,
        parts: vec![],
    });
    assert_eq!(common::status(conversations.ingest_organization_conversations(&org, no_parts).send().await), 400);
    let (_, reader) = sb.member("rita", Some("read"));
    assert_eq!(reader.conversations().list_organization_conversations(&org).send().await.unwrap().count, Some(3));
    let refused = reader.conversations().ingest_organization_conversations(&org, conversation("c9", None, "Hi", "x"));
    assert_eq!(common::status(refused.send().await), 403);
}

#[tokio::test]
async fn the_conversation_list_reads_in_three_pages() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let conversations = sb.client.conversations();
    for n in 1..=5 {
        let body = conversation(&format!("c{n}"), Some("Question"), "Text", "api");
        conversations.ingest_organization_conversations(&org, body).send().await.unwrap();
    }
    let mut seen = Vec::new();
    let mut page = None::<String>;
    let mut pages = 0;
    loop {
        let mut request = conversations.list_organization_conversations(&org).limit(2);
        if let Some(cursor) = &page {
            request = request.page(cursor);
        }
        let answer = request.send().await.unwrap();
        assert_eq!(answer.count, Some(5));
        pages += 1;
        seen.extend(answer.items.into_iter().map(|c| c.id));
        match answer.next {
            Some(next) => page = Some(next.page),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(seen, ["c1", "c2", "c3", "c4", "c5"]);
}
