//! The SARIF 2.1.0 format, for GitHub code scanning and other SARIF viewers: one run whose tool
//! driver lists every rule of the catalog (id, name, descriptions, help text and markdown, help
//! URI, default level) and one result per diagnostic with its 1-based region, related locations
//! and fixes. Columns count Unicode code points (`columnKind`).

use serde_sarif::sarif::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Fix, Location, Message,
    MultiformatMessageString, PhysicalLocation, PropertyBag, Region, Replacement,
    ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif,
    Suppression, Tool, ToolComponent,
};

use super::{fingerprint, BaselineEntry, Report, ShownDiagnostic, Span};
use crate::base::Severity;
use crate::check::catalog;
use crate::rules::Rule;

pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF log of `report`; each rule's `helpUri` is its page under `docs_url`.
pub fn render(report: &Report, docs_url: &str) -> String {
    let catalog: Vec<&'static Rule> = catalog::all().collect();
    let descriptors: Vec<ReportingDescriptor> =
        catalog.iter().map(|r| descriptor(r, docs_url)).collect();
    let baseline = report.baseline.as_ref();
    // Reported findings (`new` against a baseline), the baseline's `unchanged` and `absent`
    // ones, then the suppressed ones, each with why.
    let mut results: Vec<SarifResult> = report
        .diagnostics
        .iter()
        .chain(baseline.iter().flat_map(|b| &b.unchanged))
        .map(|d| result(&catalog, d))
        .collect();
    if let Some(baseline) = baseline {
        results.extend(baseline.absent.iter().map(|entry| absent(&catalog, entry)));
    }
    results.extend(report.suppressed.iter().map(|s| {
        let mut result = result(&catalog, &s.diagnostic);
        let mut suppression = Suppression::builder()
            .kind(serde_json::to_value(s.suppression.kind).expect("enum serializes"))
            .build();
        suppression.justification =
            (!s.suppression.justification.is_empty()).then(|| s.suppression.justification.clone());
        result.suppressions = Some(vec![suppression]);
        result
    }));
    let driver = ToolComponent::builder()
        .name("agentws")
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .rules(descriptors)
        .build();
    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .build();
    run.column_kind = Some(serde_json::json!("unicodeCodePoints"));
    // What the findings are true for: the runtime each checked project is modelled under.
    run.properties = Some(
        PropertyBag::builder()
            .additional_properties(
                [(
                    "agentws/runtimes".to_string(),
                    serde_json::to_value(&report.runtimes).expect("plain data serializes"),
                )]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
            )
            .build(),
    );
    let sarif = Sarif::builder()
        .schema(SARIF_SCHEMA)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    let mut out = serde_json::to_string_pretty(&sarif).expect("plain data serializes");
    out.push('\n');
    out
}

/// One finding as a result: its rule, level, message, place, related places, fixes, and its
/// fingerprint (and, against a baseline, whether it is new).
fn result(catalog: &[&'static Rule], d: &ShownDiagnostic) -> SarifResult {
    let mut result = SarifResult::builder()
        .rule_id(d.code)
        .level(level(d.severity))
        .message(text_message(format!("{}\n{}", d.message, d.consequence)))
        .locations(vec![location(&d.path, d.range, None)])
        .build();
    result.rule_index = catalog
        .iter()
        .position(|r| r.code == d.code)
        .map(|i| i as i64);
    result.partial_fingerprints = Some(
        [(fingerprint::SARIF_KEY.to_string(), d.fingerprint.clone())]
            .into_iter()
            .collect(),
    );
    result.baseline_state = d.baseline_state.map(|state| serde_json::json!(state));
    if !d.related.is_empty() {
        result.related_locations = Some(
            d.related
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let mut loc = location(&r.path, r.range, Some(&r.message));
                    loc.id = Some(i as i64);
                    loc
                })
                .collect(),
        );
    }
    if !d.fixes.is_empty() {
        result.fixes = Some(d.fixes.iter().map(fix).collect());
    }
    result
}

/// A baseline entry no finding matches any more (`baselineState: absent`), at its file.
fn absent(catalog: &[&'static Rule], entry: &BaselineEntry) -> SarifResult {
    let mut result = SarifResult::builder()
        .rule_id(entry.rule.clone())
        .message(text_message(entry.message.clone()))
        .locations(vec![Location::builder()
            .physical_location(
                PhysicalLocation::builder()
                    .artifact_location(artifact(&entry.path))
                    .build(),
            )
            .build()])
        .build();
    result.rule_index = catalog
        .iter()
        .position(|r| r.code == entry.rule)
        .map(|i| i as i64);
    result.partial_fingerprints = Some(
        [(
            fingerprint::SARIF_KEY.to_string(),
            entry.fingerprint.clone(),
        )]
        .into_iter()
        .collect(),
    );
    result.baseline_state = Some(serde_json::json!("absent"));
    result
}

fn descriptor(rule: &Rule, docs_url: &str) -> ReportingDescriptor {
    let help_text = format!(
        "{}\n\nRuntime: {}\n\n{}",
        rule.summary, rule.consequence, rule.explanation
    );
    let help_markdown = format!(
        "{}\n\n**Runtime:** {}\n\n{}",
        rule.summary, rule.consequence, rule.explanation
    );
    let mut tags = std::collections::BTreeMap::new();
    tags.insert("tags".to_string(), serde_json::json!([rule.profile.name()]));
    ReportingDescriptor::builder()
        .id(rule.code)
        .name(rule.name)
        .short_description(
            MultiformatMessageString::builder()
                .text(rule.summary)
                .build(),
        )
        .full_description(
            MultiformatMessageString::builder()
                .text(format!("{} {}", rule.summary, rule.consequence))
                .build(),
        )
        .help(
            MultiformatMessageString::builder()
                .text(help_text)
                .markdown(help_markdown)
                .build(),
        )
        .help_uri(crate::rules::docs::rule_url(docs_url, rule.code))
        .default_configuration(
            ReportingConfiguration::builder()
                .level(serde_json::to_value(level(rule.severity)).expect("enum serializes"))
                .build(),
        )
        .properties(PropertyBag::builder().additional_properties(tags).build())
        .build()
}

fn level(severity: Severity) -> ResultLevel {
    match severity {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
        Severity::Info => ResultLevel::Note,
    }
}

fn text_message(text: impl Into<String>) -> Message {
    Message::builder().text(text.into()).build()
}

fn region(span: Span) -> Region {
    Region::builder()
        .start_line(span.start.line as i64)
        .start_column(span.start.column as i64)
        .end_line(span.end.line as i64)
        .end_column(span.end.column as i64)
        .build()
}

fn artifact(path: &str) -> ArtifactLocation {
    ArtifactLocation::builder().uri(uri_reference(path)).build()
}

fn location(path: &str, span: Span, message: Option<&str>) -> Location {
    let mut loc = Location::builder()
        .physical_location(
            PhysicalLocation::builder()
                .artifact_location(artifact(path))
                .region(region(span))
                .build(),
        )
        .build();
    loc.message = message.map(text_message);
    loc
}

fn fix(fix: &super::ShownFix) -> Fix {
    let mut changes: Vec<ArtifactChange> = Vec::new();
    for edit in &fix.edits {
        let replacement = Replacement::builder()
            .deleted_region(region(edit.range))
            .inserted_content(
                ArtifactContent::builder()
                    .text(edit.new_text.clone())
                    .build(),
            )
            .build();
        match changes
            .iter_mut()
            .find(|c| c.artifact_location.uri.as_deref() == Some(&uri_reference(&edit.path)))
        {
            Some(change) => change.replacements.push(replacement),
            None => changes.push(
                ArtifactChange::builder()
                    .artifact_location(artifact(&edit.path))
                    .replacements(vec![replacement])
                    .build(),
            ),
        }
    }
    Fix::builder()
        .description(text_message(fix.title.clone()))
        .artifact_changes(changes)
        .build()
}

/// A shown path as a URI reference: relative paths stay relative (GitHub resolves them against the
/// repository root), absolute ones become `file://` URIs; bytes outside the unreserved set and
/// `/` are percent-encoded.
pub fn uri_reference(path: &str) -> String {
    let mut out = String::new();
    // A remote store entry (docs/stores.md) keeps its `store:` scheme.
    let path = match path.strip_prefix("store:") {
        Some(rest) => {
            out.push_str("store:");
            rest
        }
        None => path,
    };
    if path.starts_with('/') {
        out.push_str("file://");
    }
    out.push_str(&crate::base::percent::encode_path(path));
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn results_point_at_one_based_regions() {
        let value: serde_json::Value = serde_json::from_str(&super::render(
            &sample(),
            crate::rules::docs::DEFAULT_DOCS_URL,
        ))
        .unwrap();
        let result = &value["runs"][0]["results"][1];
        assert_eq!(result["ruleId"], "SK998");
        assert_eq!(result["level"], "note");
        assert_eq!(
            result["locations"][0]["physicalLocation"]["region"],
            serde_json::json!({"startLine": 3, "startColumn": 19, "endLine": 3, "endColumn": 23})
        );
        assert_eq!(
            value["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0]
                ["insertedContent"]["text"],
            "\"yes\""
        );
        assert_eq!(value["runs"][0]["tool"]["driver"]["name"], "agentws");
        // Round-trips through the typed SARIF model.
        let _: serde_sarif::sarif::Sarif = serde_json::from_value(value).unwrap();
    }

    /// Fixes and related locations validate too (the end-to-end test validates the binary's
    /// output on a fixture; this one covers the parts that fixture may not produce).
    #[test]
    fn sample_with_fixes_and_related_locations_validates_against_the_schema() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = std::process::Command::new(cargo)
            .args([
                "metadata",
                "--format-version",
                "1",
                "--locked",
                "--manifest-path",
            ])
            .arg(root.join("Cargo.toml"))
            .output()
            .unwrap();
        let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let manifest = meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "serde-sarif")
            .and_then(|p| p["manifest_path"].as_str())
            .map(std::path::PathBuf::from)
            .expect("serde-sarif is a dependency");
        let schema = manifest.parent().unwrap().join("src/schema.json");
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log.sarif");
        std::fs::write(
            &log,
            super::render(&sample(), crate::rules::docs::DEFAULT_DOCS_URL),
        )
        .unwrap();
        // .ci/run's virtual environment (jsonschema with its format checkers), else python3.
        let python = std::env::var_os("AGENTWS_PYTHON").unwrap_or_else(|| "python3".into());
        let out = std::process::Command::new(python)
            .arg(root.join("../tests/tools/validate_sarif.py"))
            .arg(&schema)
            .arg(&log)
            .output()
            .expect("python3 with jsonschema (see .ci/run)");
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn uri_references_are_percent_encoded() {
        assert_eq!(super::uri_reference("a b/é.md"), "a%20b/%C3%A9.md");
        assert_eq!(
            super::uri_reference("store:agents/bot/users/a b/skills:/x/SKILL.md"),
            "store:agents/bot/users/a%20b/skills%3A/x/SKILL.md"
        );
        assert_eq!(super::uri_reference("/abs/x.md"), "file:///abs/x.md");
    }
}
