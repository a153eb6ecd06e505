//! End-to-end: every rule of the catalog is triggered by a committed fixture workspace.
//!
//! `tests/fixtures/rules-*` hold the cases no other fixture needs (one workspace with many
//! coexisting problems, plus one each for problems that hide the others: a broken agentws.toml, a
//! missing workspace, blank/null/too-deep tools.json, an environment value that breaks the JSON).
//! Correct input staying clean is covered by `realistic.rs` and the `*-valid` fixtures.

use std::collections::BTreeSet;

use assert_cmd::Command;
use serde_json::Value;

use crate::support::fixture;

/// Rules no committed fixture can trigger, each with where it is tested instead.
const NOT_IN_FIXTURES: &[(&str, &str)] = &[
    ("WS005", "needs a file over 16 MiB: bad_input::a_100_mb_skill_is_capped_with_a_diagnostic generates one"),
    ("WS007", "needs a file this process cannot read, impossible as root: bad_input::unreadable_file"),
    ("WS014", "needs a named pipe, which git cannot hold: hangs::named_pipes_are_reported_not_opened_by_check makes them"),
];

fn catalog() -> BTreeSet<String> {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["explain", "--list"])
        .output()
        .unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

fn codes_in(dir: &std::path::Path) -> BTreeSet<String> {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--profile", "strict", "--format", "json"])
        .arg(dir)
        .env("AGENTWS_FIXTURE_QUOTE", "say \"hi\"")
        .output()
        .unwrap();
    let report: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_rule_is_triggered_by_a_fixture() {
    let mut dirs: Vec<_> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.push(fixture("../../examples/demo"));
    dirs.sort();
    let mut seen = BTreeSet::new();
    for dir in &dirs {
        seen.extend(codes_in(dir));
    }
    let missing: Vec<String> = catalog()
        .into_iter()
        .filter(|code| !seen.contains(code))
        .filter(|code| !NOT_IN_FIXTURES.iter().any(|(c, _)| c == code))
        .collect();
    assert!(missing.is_empty(), "rules no fixture triggers: {missing:?}");
}

#[test]
fn the_problems_that_hide_others_each_have_their_fixture() {
    let expect = |name: &str, codes: &[&str]| {
        let found = codes_in(&fixture(name));
        let wanted: BTreeSet<String> = codes.iter().map(|c| c.to_string()).collect();
        assert_eq!(found, wanted, "{name}");
    };
    expect("rules-config-syntax", &["CF001"]);
    expect("rules-no-workspace", &["WS001"]);
    expect("rules-config", &["CF006", "CF008", "CF011", "TJ027"]);
    expect("rules-tools-blank", &["TJ004", "TJ005", "TJ028", "WS013"]);
    expect("rules-tools-deep", &["TJ018"]);
    expect("rules-tools-env", &["TJ008"]);
}
