//! The JSON format: the stable, versioned contract documented in docs/cli.md. Adding a field is a
//! compatible change; renaming or removing one needs a new `version`.

use serde::Serialize;

use super::{BaselineOutcome, Report, ShownDiagnostic, ShownRuntime, ShownSuppressed, Summary};

/// Version of the JSON contract.
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    /// The runtime each checked project is modelled under.
    runtimes: &'a [ShownRuntime],
    files_checked: usize,
    /// Counts `diagnostics` alone: neither the suppressed findings nor the baselined ones.
    summary: Summary,
    diagnostics: &'a [ShownDiagnostic],
    suppressed: &'a [ShownSuppressed],
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineOutcome>,
}

pub fn render(report: &Report) -> String {
    let json = JsonReport {
        version: JSON_VERSION,
        runtimes: &report.runtimes,
        files_checked: report.total_files(),
        summary: report.summary(),
        diagnostics: &report.diagnostics,
        suppressed: &report.suppressed,
        baseline: report.baseline.as_ref(),
    };
    let mut out = serde_json::to_string_pretty(&json).expect("plain data serializes");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn json_contract() {
        let text = super::render(&sample());
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/cli/output/snapshots/json_contract.json");
        crate::base::expect::assert_file(&path, &text);
    }

    /// The example in docs/cli.md has exactly the shape this module writes.
    #[test]
    fn the_documented_example_matches_the_contract() {
        fn shape(value: &serde_json::Value) -> serde_json::Value {
            match value {
                serde_json::Value::Object(map) => serde_json::Value::Object(
                    map.iter().map(|(k, v)| (k.clone(), shape(v))).collect(),
                ),
                // One element is enough to compare shapes.
                serde_json::Value::Array(items) => {
                    serde_json::Value::Array(items.iter().take(1).map(shape).collect())
                }
                serde_json::Value::Number(_) => serde_json::json!(0),
                serde_json::Value::String(_) => serde_json::json!(""),
                other => other.clone(),
            }
        }
        let doc = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md"),
        )
        .unwrap();
        let contract = doc
            .find("### JSON contract")
            .expect("docs/cli.md has a JSON contract section");
        let start = contract
            + doc[contract..]
                .find("```json\n")
                .expect("docs/cli.md has a JSON example")
            + 8;
        let end = start + doc[start..].find("```").unwrap();
        let documented: serde_json::Value = serde_json::from_str(&doc[start..end]).unwrap();
        let ours: serde_json::Value = serde_json::from_str(&super::render(&sample())).unwrap();
        assert_eq!(shape(&documented), shape(&ours));
        let summary = &documented["summary"];
        let listed = documented["diagnostics"].as_array().unwrap().len() as u64;
        let counted: u64 = ["errors", "warnings", "infos"]
            .iter()
            .map(|k| summary[k].as_u64().unwrap())
            .sum();
        assert_eq!(listed, counted);
    }

    #[test]
    fn every_diagnostic_has_every_field() {
        let value: serde_json::Value = serde_json::from_str(&super::render(&sample())).unwrap();
        for d in value["diagnostics"].as_array().unwrap() {
            let keys: Vec<&str> = d.as_object().unwrap().keys().map(|k| k.as_str()).collect();
            assert_eq!(
                keys,
                [
                    "path",
                    "range",
                    "severity",
                    "code",
                    "message",
                    "consequence",
                    "fixes",
                    "related",
                    "fingerprint"
                ]
            );
        }
    }
}
