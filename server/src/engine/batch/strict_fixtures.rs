//! The parse fixtures under `tests/fixtures/parse-*`, loaded from disk and checked like the CLI
//! does, restricted to the skill, subagent and strict codes (`workspace::skill`,
//! `workspace::subagent`, `check::strict`).

use std::path::PathBuf;
use std::sync::Arc;

use super::check_workspace;
use crate::check::CheckOptions;
use crate::rules::Profile;

fn findings(name: &str, profile: Profile) -> Vec<(String, &'static str, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    let loaded = crate::workspace::discover::load(&root, Arc::new(Default::default()));
    let report = check_workspace(&loaded.workspace, CheckOptions::new(profile));
    let root = crate::config::discover::absolute(&root);
    report
        .diagnostics
        .iter()
        .filter(|d| ["SK", "SA", "ST"].iter().any(|p| d.code.starts_with(p)))
        .map(|d| {
            let rel = d.path.strip_prefix(&root).unwrap_or(&d.path);
            let rel = rel.to_string_lossy().replace(".agentscope/workspace/", "");
            (rel, d.code, d.severity.as_str().to_string())
        })
        .collect()
}

#[test]
fn valid_fixture_is_clean_even_when_strict() {
    // Only the reminder that `allowed-tools` is not enforced by the harness.
    assert_eq!(
        findings("parse-valid", Profile::Strict),
        vec![(
            "skills/pdf/SKILL.md".to_string(),
            "SK025",
            "info".to_string()
        )]
    );
}

#[test]
fn broken_fixture_reports_every_trap() {
    let got = findings("parse-broken", Profile::Harness);
    let shown: Vec<String> = got.iter().map(|(p, c, s)| format!("{p} {c} {s}")).collect();
    // The outcomes are those of the default `user` scope: `_drafts/SKILL.md` sits directly in
    // the shared `skills/` folder, so Layer 3 loads it for every call (no SK018); `dashes`
    // keeps `name` and `description` and loads (SK006 is a warning); `mismatch` is served by
    // Layer 3 and staged under its name (no SK016); `nested/deep` is loaded for no call.
    let expected = [
        "skills/_drafts/SKILL.md SK019 info",
        "skills/bom/SKILL.md SK002 error",
        "skills/dashes/SKILL.md SK006 warning",
        "skills/empty-body/SKILL.md SK011 error",
        "skills/fallback/SKILL.md SK009 error",
        "skills/fallback/SKILL.md SK014 warning",
        "skills/fallback/SKILL.md SK013 warning",
        "skills/leading-blank/SKILL.md SK003 error",
        "skills/long-opener/SKILL.md SK004 error",
        "skills/mismatch/SKILL.md SK023 warning",
        "skills/nested/deep/SKILL.md SK017 error",
        "skills/yes-name/SKILL.md SK008 error",
        "subagents/bad-values.md SA012 warning",
        "subagents/bad-values.md SA015 warning",
        "subagents/bad-values.md SA013 warning",
        "subagents/bad-values.md SA011 warning",
        "subagents/bom.md SA018 error",
        "subagents/general-purpose.md SA006 warning",
        "subagents/no-description.md SA004 error",
    ];
    assert_eq!(shown, expected);
}
