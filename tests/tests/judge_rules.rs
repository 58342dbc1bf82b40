//! The conformance judge names gaps by id (bench/conformance/rules.toml and
//! known_failures.tsv): each id it names must be a gap kind the import records
//! (`apigen::import::gaps::kinds()`), or a failure would be excused by a gap nothing records.

use apigen::import::gaps;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The directory of the judge's data, from the `tests` crate where cargo runs these tests.
const JUDGE: &str = "../bench/conformance";

/// The id of every gap kind.
fn kind_ids() -> BTreeSet<&'static str> {
    gaps::kinds().iter().map(|kind| kind.id).collect()
}

/// The rules of rules.toml, each a table.
fn rules() -> Vec<toml::Table> {
    let text = fs::read_to_string(Path::new(JUDGE).join("rules.toml")).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let rules = table["rule"].as_array().expect("rules.toml holds [[rule]] tables");
    rules.iter().map(|rule| rule.as_table().unwrap().clone()).collect()
}

/// The strings of a rule's field holding a list of strings (none when absent).
fn strings(rule: &toml::Table, field: &str) -> Vec<String> {
    let values = rule.get(field).and_then(|v| v.as_array()).cloned().unwrap_or_default();
    values.iter().map(|v| v.as_str().unwrap().to_owned()).collect()
}

/// Every gap id a rule names: its class's (unless filled in from what the import recorded),
/// those the import must have recorded, and those its example records.
fn gap_ids_of_rule(rule: &toml::Table) -> Vec<String> {
    let class = rule["class"].as_str().unwrap();
    let mut ids = strings(rule, "gaps");
    if let Some(id) = class.strip_prefix("gap ")
        && !id.starts_with('{')
    {
        ids.push(id.to_owned());
    }
    if let Some(facts) = rule.get("example_facts").and_then(|f| f.as_table()) {
        ids.extend(strings(facts, "recorded"));
    }
    ids
}

/// (line number, gap id) of each entry of known_failures.tsv classed `gap <id>`.
fn gap_ids_of_known_failures() -> Vec<(usize, String)> {
    let text = fs::read_to_string(Path::new(JUDGE).join("known_failures.tsv")).unwrap();
    let entries =
        text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'));
    let classes = entries.map(|(n, line)| (n + 1, line.split('\t').nth(3).unwrap_or("").trim().to_owned()));
    classes.filter_map(|(n, class)| class.strip_prefix("gap ").map(|id| (n, id.to_owned()))).collect()
}

#[test]
fn every_gap_a_rule_names_is_a_gap_kind() {
    let known = kind_ids();
    let rules = rules();
    assert!(!rules.is_empty());
    for rule in &rules {
        let name = rule["name"].as_str().unwrap();
        for id in gap_ids_of_rule(rule) {
            assert!(known.contains(id.as_str()), "rule `{name}` names gap `{id}`, which gaps.rs has no kind of");
        }
    }
}

#[test]
fn a_gap_class_filled_in_names_where_it_comes_from() {
    for rule in rules() {
        let class = rule["class"].as_str().unwrap();
        if let Some(id) = class.strip_prefix("gap {") {
            let from = id.trim_end_matches('}');
            assert!(from == "left_out" || (from == "recorded" && !strings(&rule, "gaps").is_empty()), "{class}");
        }
    }
}

#[test]
fn every_gap_a_known_failure_names_is_a_gap_kind() {
    let known = kind_ids();
    for (line, id) in gap_ids_of_known_failures() {
        assert!(
            known.contains(id.as_str()),
            "known_failures.tsv line {line} names gap `{id}`, which gaps.rs has no kind of"
        );
    }
}

#[test]
fn the_kinds_are_listed_once_each() {
    let ids: Vec<&str> = gaps::kinds().iter().map(|kind| kind.id).collect();
    assert_eq!(ids.len(), kind_ids().len(), "a gap id is given to two kinds");
    assert!(ids.contains(&gaps::HEADER_PARAM.id) && ids.contains(&gaps::PATTERN.id));
}

/// The client's report on `calls` (calls.tsv lines) against the document
/// tests/fixtures/judge/overlap.json: report.py's output.
fn client_report(calls: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let doc = fs::canonicalize("fixtures/judge/overlap.json").unwrap();
    fs::write(dir.path().join("documents.tsv"), format!("{}\tjudged\toverlap.json\n", doc.display())).unwrap();
    fs::write(dir.path().join("calls.tsv"), calls).unwrap();
    let out = std::process::Command::new("python3")
        .arg(Path::new(JUDGE).join("report.py"))
        .args([dir.path().join("calls.tsv"), dir.path().join("documents.tsv")])
        .output()
        .expect("python3 runs the judge's report");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_oneof_refusal_is_set_aside_only_where_the_documents_own_example_matches_several_variants() {
    // `search`'s variants are open objects its example `{name}` matches both of; `pick`'s
    // example matches `Strict` alone, so Prism refusing it is the client's failure.
    let refusal = r#"{"type":"https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY","status":422,"validation":[{"location":["body"],"severity":"Error","code":"oneOf","message":"Request body must match exactly one schema in oneOf"}]}"#;
    let report =
        client_report(&format!("overlap.json\tsearch\tapi\t422\t{refusal}\noverlap.json\tpick\tapi\t422\t{refusal}\n"));
    assert!(
        report.contains(
            "    document-overlapping-one-of (1): the request body's oneOf variants overlap \
             (#/paths/~1search/post/requestBody: its example `by name` matches \
             #/components/schemas/ByName and #/components/schemas/ByAge)\n      overlap.json search\n"
        ),
        "{report}"
    );
    assert!(report.contains("calls accepted by Prism and decoded over calls judged: 0/1 = 0.0%"), "{report}");
}
