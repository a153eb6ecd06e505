//! The JSON format: the stable, versioned contract documented in docs/cli.md. Adding a field is a
//! compatible change; renaming or removing one needs a new `version`.

use serde::Serialize;

use super::{Report, ShownDiagnostic, Summary};

/// Version of the JSON contract.
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    files_checked: usize,
    summary: Summary,
    diagnostics: &'a [ShownDiagnostic],
}

pub fn render(report: &Report) -> String {
    let json = JsonReport {
        version: JSON_VERSION,
        files_checked: report.total_files(),
        summary: report.summary(),
        diagnostics: &report.diagnostics,
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
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        insta::assert_json_snapshot!(value);
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
                    "fixes"
                ]
            );
        }
    }
}
