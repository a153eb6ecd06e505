//! The fixture workspaces `tests/fixtures/tools-*` and `config-*`, loaded from disk the way the
//! CLI loads them, checked with every rule.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::check_workspace;
use crate::base::{Env, LineIndex};
use crate::check::CheckOptions;
use crate::config::discover::find_project;
use crate::workspace::discover::discover;
use crate::workspace::Workspace;

/// `(file name, line:col, code)` of every TJ/CF diagnostic, columns 1-based in characters.
fn check_fixture(name: &str, env: &[(&str, &str)]) -> Vec<(String, String, &'static str)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    let root = std::path::absolute(&root).unwrap();
    let project = find_project(&root);
    let config = Arc::new(project.config);
    let discovered = discover(&config);
    let env: Env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let ws = Workspace::build(
        config,
        project.diagnostics,
        Arc::new(discovered.files),
        Arc::new(env),
        None,
    );
    let report = check_workspace(&ws, CheckOptions::default());
    report
        .diagnostics
        .iter()
        .filter(|d| d.code.starts_with("TJ") || d.code.starts_with("CF"))
        .map(|d| {
            let text = std::fs::read_to_string(&d.path).unwrap();
            let index = LineIndex::new(&text);
            let at = index.position(&text, d.range.start, crate::base::Encoding::Utf32);
            (
                Path::new(&d.path)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                format!("{}:{}", at.line + 1, at.col + 1),
                d.code,
            )
        })
        .collect()
}

fn row(file: &str, at: &str, code: &'static str) -> (String, String, &'static str) {
    (file.to_string(), at.to_string(), code)
}

#[test]
fn tools_invalid() {
    assert_eq!(
        check_fixture("tools-invalid", &[]),
        vec![
            row("tools.json", "2:3", "TJ001"),
            row("tools.json", "3:38", "TJ001"),
            row("tools.json", "4:11", "TJ003"),
            row("tools.json", "6:30", "TJ012"),
            row("tools.json", "6:98", "TJ003"),
            row("tools.json", "7:5", "TJ013"),
            row("tools.json", "7:37", "TJ014"),
        ]
    );
}

#[test]
fn tools_valid_has_no_warnings_when_the_environment_is_set() {
    assert_eq!(
        check_fixture("tools-valid", &[("PAPERS_TOKEN_FOR_TESTS", "t0k3n")]),
        // The `pdf` skill brings the `## Code Execution` section, which names the denied
        // `execute` (the preview of the fixture notes the same).
        vec![
            row("tools.json", "11:3", "TJ030"),
            row("tools.json", "25:31", "TJ017")
        ]
    );
    assert_eq!(
        check_fixture("tools-valid", &[]),
        vec![
            row("tools.json", "11:3", "TJ030"),
            row("tools.json", "17:44", "TJ007"),
            row("tools.json", "25:31", "TJ017")
        ]
    );
}

#[test]
fn tools_sandbox() {
    assert_eq!(
        check_fixture("tools-sandbox", &[]),
        vec![row("tools.json", "1:1", "TJ026")]
    );
}

#[test]
fn config_errors() {
    assert_eq!(
        check_fixture("config-errors", &[]),
        vec![
            row("agentws.toml", "1:11", "CF004"),
            row("agentws.toml", "2:1", "CF002"),
            row("agentws.toml", "4:2", "CF007"),
            row("agentws.toml", "6:1", "CF005"),
            row("agentws.toml", "8:22", "CF010"),
            row("agentws.toml", "11:9", "CF004"),
            row("agentws.toml", "17:23", "CF009"),
            row("agentws.toml", "20:1", "CF002"),
            row("agentws.toml", "21:13", "CF003"),
        ]
    );
}
