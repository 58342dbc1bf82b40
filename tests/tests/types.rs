//! Behaviour of the generated `docs-api-types` a user relies on: lenient responses, strict
//! requests, unknown values kept, tri-state fields, every violation reported, secrets redacted.

use docs_api_types::runtime::json::decode;
use docs_api_types::runtime::{Mode, Patch, Validate};
use docs_api_types::*;
use serde_json::{Value, json};

fn messages(violations: docs_api_types::runtime::Violations) -> Vec<String> {
    violations.0.iter().map(ToString::to_string).collect()
}

fn space_json() -> Value {
    json!({
        "object": "space", "id": "space_1", "title": "Docs", "emoji": "📘",
        "visibility": "members-only", "createdAt": "2024-01-15T09:30:00Z",
        "updatedAt": "2024-01-15T09:30:00Z", "mergeRules": { "type": "inherit" },
        "organization": "org_1", "language": "fr", "revision": "rev_1", "defaultLevel": null,
        "comments": 0.0, "changeRequests": 0.0, "changeRequestsOpen": 0.0, "changeRequestsDraft": 0.0
    })
}

#[test]
fn unknown_enum_values_round_trip_and_only_closed_ones_fail_validation() {
    let space: Space = serde_json::from_value(space_json()).expect("a new value never breaks decoding");
    assert_eq!(space.visibility, SpaceVisibility::Unknown("members-only".into()));
    assert_eq!(space.language, Some(SpaceLanguage::Unknown("fr".into())));
    assert_eq!(serde_json::to_value(&space).unwrap(), space_json());
    // Visibility is closed (every value listed); language is open (only a sample shown).
    assert_eq!(
        messages(space.validate().unwrap_err()),
        [
            "/visibility: \"members-only\" is not one of: public, unlisted, share-link, visitor-auth, in-collection, private"
        ]
    );
}

#[test]
fn unknown_union_variants_are_kept_and_written_back_byte_for_byte() {
    let text = r#"{"type":"approvals","zeta":1,"alpha":{"b":2,"a":[true,null]}}"#;
    let rules: MergeRules = serde_json::from_str(text).unwrap();
    assert!(matches!(rules, MergeRules::Unknown(_)));
    assert_eq!(serde_json::to_string(&rules).unwrap(), text, "key order and values unchanged");
    // An open union accepts an unknown variant even in a request.
    let strict: MergeRules = decode(serde_json::from_str(text).unwrap(), Mode::Strict).unwrap();
    assert_eq!(strict, rules);
    assert_eq!(strict.validate(), Ok(()));
}

#[test]
fn known_union_variants_decode_by_tag() {
    let rules: MergeRules = serde_json::from_value(
        json!({"type": "rules", "rules": [{"rule": "require_specific_reviewers", "users": ["u1"]}]}),
    )
    .unwrap();
    let MergeRules::Rules(rules) = rules else { panic!("expected the `rules` variant, got {rules:?}") };
    let rule = &rules.rules.as_ref().unwrap()[0];
    assert_eq!(rule, &MergeRule::from(MergeRuleRequireSpecificReviewers { users: Some(vec!["u1".into()]) }));
}

#[test]
fn responses_ignore_unknown_fields_and_requests_reject_them() {
    let mut body = space_json();
    body["surprise"] = json!({"new": "field"});
    body["visibility"] = json!("public");
    let lenient: Space = serde_json::from_value(body.clone()).expect("unknown fields are ignored in responses");
    assert_eq!(lenient.id, "space_1");
    let strict = decode::<Space>(body, Mode::Strict).unwrap_err();
    assert_eq!(messages(strict), ["/surprise: is not a field of this object"]);
}

#[test]
fn a_wrong_object_constant_is_rejected_only_when_strict() {
    let collection = json!({"object": "space", "id": "c", "title": "T", "organization": "o", "defaultLevel": "read"});
    let lenient: Collection = decode(collection.clone(), Mode::Lenient).unwrap();
    assert_eq!(serde_json::to_value(&lenient).unwrap()["object"], "collection", "the constant is always written");
    let strict = decode::<Collection>(collection, Mode::Strict).unwrap_err();
    assert_eq!(messages(strict), ["/object: must be \"collection\", found the string \"space\""]);
}

#[test]
fn strict_decoding_reports_every_missing_and_mistyped_field() {
    let error = decode::<Collection>(json!({"object": "collection", "title": 7, "description": null}), Mode::Strict)
        .unwrap_err();
    assert_eq!(
        messages(error),
        [
            "/id: is required",
            "/title: expected a string, found the number 7",
            "/description: must not be null",
            "/organization: is required",
            "/defaultLevel: is required",
        ]
    );
}

#[test]
fn patch_fields_keep_absent_null_and_value_apart() {
    let cases = [
        (json!({}), Patch::Absent),
        (json!({"condition": null}), Patch::Null),
        (json!({"condition": "visitor.beta"}), Patch::Value("visitor.beta".to_owned())),
    ];
    for (sent, expected) in cases {
        let body: UpdateSiteSectionBody = decode(sent.clone(), Mode::Strict).unwrap();
        assert_eq!(body.condition, expected, "{sent}");
        assert_eq!(serde_json::to_value(&body).unwrap(), sent, "written back unchanged");
    }
    let cleared = UpdateSiteSectionBody { icon: Patch::Null, ..UpdateSiteSectionBody::default() };
    assert_eq!(serde_json::to_string(&cleared).unwrap(), r#"{"icon":null}"#);
}

#[test]
fn validate_reports_every_violation_with_its_pointer() {
    let body = UpdateSiteSectionBody {
        title: Some("x".into()),
        path: Some(String::new()),
        condition: Patch::Value("c".repeat(1025)),
        icon: Patch::Value("é".repeat(51)),
        description: Patch::Null,
        ..UpdateSiteSectionBody::default()
    };
    assert_eq!(
        messages(body.validate().unwrap_err()),
        [
            "/title: must be at least 2 characters long (found 1)",
            "/path: must be at least 1 characters long (found 0)",
            "/condition: must be at most 1024 characters long (found 1025)",
            "/icon: must be at most 50 characters long (found 51)",
        ]
    );
}

#[test]
fn exact_item_counts_patterns_and_nested_pointers_are_checked() {
    let mut cluster: IssuesCluster = serde_json::from_value(json!({
        "object": "issues-cluster", "id": "cl_1", "icon": "k".repeat(51), "weeklyPulse": [1, 2, 3]
    }))
    .unwrap();
    assert_eq!(
        messages(cluster.validate().unwrap_err()),
        ["/icon: must be at most 50 characters long (found 51)", "/weeklyPulse: must hold exactly 13 items (found 3)",]
    );
    cluster.icon = "key".into();
    cluster.weekly_pulse = Some(vec![0; 13]);
    assert_eq!(cluster.validate(), Ok(()));

    let body: CreateOpenApiSpecBody =
        serde_json::from_value(json!({"slug": "Not A Slug", "source": {"url": "not a url"}})).unwrap();
    assert_eq!(
        messages(body.validate().unwrap_err()),
        ["/slug: must match the pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$", "/source/url: must be an absolute URL"]
    );
}

#[test]
fn an_untagged_union_says_why_each_variant_failed() {
    let error = decode::<IntegrationEntrySpace>(json!(42), Mode::Strict).unwrap_err();
    let text = error.to_string();
    assert!(text.starts_with("(root): matches no variant (String: (root): expected a string, found the number 42; Space: (root): expected an object"), "{text}");
    // Leniently, an id and a full object both decode, and anything else is kept.
    let id: IntegrationEntrySpace = serde_json::from_value(json!("space_1")).unwrap();
    assert_eq!(id, IntegrationEntrySpace::String("space_1".into()));
    let kept: IntegrationEntrySpace = serde_json::from_value(json!(42)).unwrap();
    assert_eq!(kept, IntegrationEntrySpace::Unknown(json!(42)));
}

#[test]
fn untagged_object_variants_are_chosen_by_their_fields() {
    let markdown: CommentBody = serde_json::from_value(json!({"markdown": "Hi"})).unwrap();
    assert!(matches!(markdown, CommentBody::Markdown(_)), "{markdown:?}");
    let empty: CommentBody = serde_json::from_value(json!({})).unwrap();
    assert!(matches!(empty, CommentBody::Empty(_)), "{empty:?}");
    let other: CommentBody = serde_json::from_value(json!({"document": {"nodes": []}})).unwrap();
    assert!(matches!(other, CommentBody::Unknown(_)), "a variant not shown is kept: {other:?}");
}

#[test]
fn secrets_are_redacted_in_debug_output() {
    let body: ImportSpaceFromGitBody = serde_json::from_value(json!({
        "url": "https://user:hunter2@git.example.com/docs.git", "ref": "refs/heads/main"
    }))
    .unwrap();
    let debug = format!("{body:?}");
    assert!(!debug.contains("hunter2"), "{debug}");
    assert!(debug.contains("url: \"<redacted>\""), "{debug}");
    assert!(debug.contains("refs/heads/main"), "non-secret fields stay visible: {debug}");
}

#[test]
fn deserialize_errors_name_the_json_pointer() {
    let error = serde_json::from_value::<Collection>(json!({"id": "c", "title": "T", "organization": 5})).unwrap_err();
    assert_eq!(error.to_string(), "/organization: expected a string, found the number 5");
}

#[test]
fn documents_keep_keys_the_spec_does_not_list() {
    let document = json!({
        "object": "document",
        "data": {"schemaVersion": 1, "theme": "dark"},
        "nodes": [{"object": "text", "leaves": [{"text": "hi", "marks": []}]}],
        "extraTop": true
    });
    let decoded: Document = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(serde_json::to_value(&decoded).unwrap(), document);
}
