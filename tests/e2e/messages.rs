//! End-to-end: what a user reads. Plain-text snapshots of `agentws check`'s human output for the
//! demo and for fixture workspaces that together trigger every rule a workspace can show
//! (tests/e2e/snapshots/check-human/; `UPDATE_SNAPSHOTS=1` rewrites them), and properties every
//! message keeps: no diagnostic says the same sentence twice.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use assert_cmd::Command;

use crate::rules::NOT_IN_FIXTURES;
use crate::support::{assert_snapshot_file, fixture};

/// The fixture workspaces whose human output is snapshotted: together one of every rule a
/// committed workspace can trigger (the rest are in `rules::NOT_IN_FIXTURES`). Several
/// workspaces because some problems hide others (a broken agentws.toml stops the check).
const CATALOG_WORKSPACES: &[&str] = &[
    "rules-all",
    "parse-broken",
    "rules-runtime",
    "config-errors",
    "preview-additional",
    "rules-config",
    "tools-invalid",
    "lsp-basic",
    "preview-overrides",
    "rules-agent-scope",
    "rules-tools-blank",
    "tools-valid",
    "preview-memory-exhausted",
    "rules-config-syntax",
    "rules-no-workspace",
    "rules-tools-deep",
    "rules-tools-env",
    "tools-sandbox",
    "fix-tagged",
];

fn repo_root() -> std::path::PathBuf {
    fixture("../..")
}

/// `agentws check ARGS` in `dir` as a user runs it: human format, no colour.
fn human(dir: &Path, args: &[&str]) -> String {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("AGENTWS_FIXTURE_QUOTE", "say \"hi\"")
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

fn demo_output() -> String {
    human(&repo_root(), &["examples/demo"])
}

fn workspace_output(name: &str) -> String {
    human(&fixture(""), &["--profile", "strict", name])
}

#[test]
fn demo_human_output() {
    assert_snapshot_file("check-human/demo.txt", &demo_output());
}

#[test]
fn one_of_every_rule_human_output() {
    for name in CATALOG_WORKSPACES {
        assert_snapshot_file(&format!("check-human/{name}.txt"), &workspace_output(name));
    }
}

/// The snapshotted workspaces show every rule of the catalog a committed workspace can trigger.
#[test]
fn the_snapshots_show_every_rule() {
    let listed = Command::cargo_bin("agentws")
        .unwrap()
        .args(["explain", "--list"])
        .output()
        .unwrap();
    let catalog: BTreeSet<String> = String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    let mut shown = BTreeSet::new();
    for output in CATALOG_WORKSPACES
        .iter()
        .map(|name| workspace_output(name))
        .chain([demo_output()])
    {
        shown.extend(diagnostics(&output).into_iter().map(|(code, _)| code));
    }
    let missing: Vec<&String> = catalog
        .iter()
        .filter(|code| !shown.contains(*code))
        .filter(|code| !NOT_IN_FIXTURES.iter().any(|(c, _)| c == code))
        .collect();
    assert!(missing.is_empty(), "rules no snapshot shows: {missing:?}");
}

/// `(code, texts)` of each diagnostic in a human report: its message, notes and help titles.
fn diagnostics(output: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in output.lines() {
        let header = ["error[", "warning[", "info["]
            .iter()
            .find_map(|p| line.strip_prefix(p));
        if let Some(rest) = header {
            let (code, message) = rest.split_once("]: ").expect("code and message");
            out.push((code.to_string(), vec![message.to_string()]));
        } else if let Some(current) = out.last_mut() {
            let text = line.trim_start_matches([' ', '|']);
            for prefix in ["= note: ", "= help: ", "help: "] {
                if let Some(text) = text.strip_prefix(prefix) {
                    current.1.push(text.to_string());
                }
            }
        }
    }
    out
}

/// The sentences of a text, without their closing punctuation.
fn sentences(text: &str) -> Vec<String> {
    text.split(". ")
        .map(|s| s.trim().trim_end_matches('.').to_string())
        .filter(|s| s.len() > 12)
        .collect()
}

/// No diagnostic says a sentence twice: its message, its consequence and its notes are separate
/// texts (a consequence repeating the message reads as noise).
#[test]
fn no_diagnostic_repeats_a_sentence() {
    let mut repeats = BTreeMap::new();
    for (name, output) in CATALOG_WORKSPACES
        .iter()
        .map(|name| (*name, workspace_output(name)))
        .chain([("demo", demo_output())])
    {
        for (code, texts) in diagnostics(&output) {
            let mut seen = BTreeSet::new();
            for sentence in texts.iter().flat_map(|t| sentences(t)) {
                if !seen.insert(sentence.clone()) {
                    repeats.insert(format!("{name} {code}"), sentence);
                }
            }
        }
    }
    assert!(repeats.is_empty(), "sentences said twice: {repeats:#?}");
}
