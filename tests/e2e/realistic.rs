//! End-to-end tests: the real binary on `tests/fixtures/realistic/`, a valid workspace written like a
//! real team's (33 skills with long bodies, `license`, `metadata`, `allowed-tools`, references/ and
//! scripts/, Chinese and Japanese text; five subagents; a scaffold-style tools.json). Every
//! diagnostic reported on it is a false positive, under both profiles.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::fixture;

/// Diagnostic codes accepted on the realistic workspace, each with the reason it is not a false
/// positive. Add a code here only with a justification.
const JUSTIFIED_CODES: &[(&str, &str)] = &[(
    "SK025",
    "info on every `allowed-tools`: true (the harness renders it but enforces nothing), and real \
     skills do carry `allowed-tools` (the Agent Skills spec defines it), so the fixture keeps it",
)];

/// Runs `agentws check --format json [extra] <realistic>` and returns the parsed report.
///
/// While `--format json` is not yet on this branch the CLI rejects it with exit code 2; then the
/// default output is checked instead (no diagnostic lines at all, exit 0). Drop the fallback once
/// the JSON contract has landed on main.
fn check_realistic(extra: &[&str]) -> Option<Value> {
    let dir = fixture("realistic");
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .arg("check")
        .args(["--format", "json"])
        .args(extra)
        .arg(&dir)
        .output()
        .unwrap();
    if output.status.code() == Some(2) {
        let fallback = Command::cargo_bin("agentws")
            .unwrap()
            .arg("check")
            .arg(&dir)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&fallback.stdout);
        let problems: Vec<&str> = stdout
            .lines()
            .filter(|l| l.contains(": error ") || l.contains(": warning ") || l.contains(": info "))
            .collect();
        assert!(
            problems.is_empty(),
            "diagnostics on a valid workspace:\n{}",
            problems.join("\n")
        );
        assert_eq!(fallback.status.code(), Some(0), "{stdout}");
        return None;
    }
    let stdout = String::from_utf8(output.stdout).unwrap();
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("--format json printed invalid JSON ({e}):\n{stdout}"));
    assert_eq!(
        output.status.code(),
        Some(0),
        "exit code on a valid workspace; report:\n{stdout}"
    );
    Some(report)
}

fn unjustified(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .expect("`diagnostics` is an array")
        .iter()
        .filter(|d| {
            let code = d["code"].as_str().unwrap_or_default();
            !JUSTIFIED_CODES.iter().any(|(c, _)| *c == code)
        })
        .map(|d| {
            format!(
                "{}:{}:{} {} {} {}",
                d["path"].as_str().unwrap_or_default(),
                d["range"]["start"]["line"],
                d["range"]["start"]["column"],
                d["severity"].as_str().unwrap_or_default(),
                d["code"].as_str().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn realistic_workspace_has_no_diagnostics() {
    let Some(report) = check_realistic(&[]) else {
        return;
    };
    assert_eq!(report["summary"]["errors"], 0, "{report:#}");
    let unexpected = unjustified(&report);
    assert!(
        unexpected.is_empty(),
        "diagnostics on a valid workspace:\n{}",
        unexpected.join("\n")
    );
    // 33 SKILL.md + 5 subagents + AGENTS.md + MEMORY.md + tools.json + KNOWLEDGE.md + CONVENTIONS.md
    // are read at least; knowledge files and agentws.toml may be counted too.
    let checked = report["files_checked"].as_u64().expect("files_checked");
    assert!(checked >= 43, "files_checked = {checked}");
}

#[test]
fn realistic_workspace_is_clean_under_the_strict_profile() {
    // The skills follow the Agent Skills open specification too: names equal their folders, string
    // metadata, a space-separated `allowed-tools`, only the spec's keys.
    let Some(report) = check_realistic(&["--profile", "strict"]) else {
        return;
    };
    assert_eq!(report["summary"]["errors"], 0, "{report:#}");
    let unexpected = unjustified(&report);
    assert!(
        unexpected.is_empty(),
        "diagnostics on a valid workspace:\n{}",
        unexpected.join("\n")
    );
}
