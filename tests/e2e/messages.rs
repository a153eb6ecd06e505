//! End-to-end: what a user reads. Plain-text snapshots of `agentws check`'s human output for the
//! demo and for fixture workspaces that together trigger every rule a workspace can show
//! (tests/e2e/snapshots/check-human/; `UPDATE_EXPECT=1` rewrites them), and properties every
//! message keeps: no diagnostic says the same sentence twice.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;

use crate::rules::NOT_IN_FIXTURES;
use crate::support::{assert_snapshot_file, copy_tree, fixture, installed};

/// The fixture workspaces whose human output is snapshotted: together one of every rule a
/// committed workspace can trigger (the rest are in `rules::NOT_IN_FIXTURES`). Several
/// workspaces because some problems hide others (a broken agentws.toml stops the check).
const CATALOG_WORKSPACES: &[&str] = &[
    "rules-all",
    "rules-prompt-size",
    "rules-settings",
    "rules-build-file",
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
    "messages-hints",
    "messages-unread-tools",
    "rules-claude-mcp",
    "rules-claude-tools",
    "rules-claude-skill",
    "rules-subagent-description",
    "rules-injected-frontmatter",
    "rules-foreign-tools",
];

fn repo_root() -> std::path::PathBuf {
    fixture("../..")
}

/// `agentws check ARGS` in `dir` as a user runs it: human format, no colour; the checkout's
/// absolute path (in messages about folders) shown as `<repo>`.
fn human(dir: &Path, args: &[&str]) -> String {
    let output = installed(&mut Command::cargo_bin("agentws").unwrap())
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("AGENTWS_FIXTURE_QUOTE", "say \"hi\"")
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    let root = repo_root().canonicalize().unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .replace(root.to_str().unwrap(), "<repo>")
}

fn demo_output() -> String {
    human(&repo_root(), &["examples/demo"])
}

/// The strict check of a copy of fixture `name`, made below `/tmp` in a folder whose name has a
/// fixed length: a prompt names the workspace's absolute path, so token counts in messages
/// (WS012) would otherwise change with the checkout's location. Its path is shown as
/// `<fixtures>`.
fn workspace_output(name: &str) -> String {
    let copy = tempfile::Builder::new()
        .prefix("agentws-messages-")
        .tempdir_in("/tmp")
        .unwrap();
    let root = copy.path().canonicalize().unwrap();
    copy_tree(&fixture(name), &root.join(name));
    human(&root, &["--profile", "strict", name]).replace(root.to_str().unwrap(), "<fixtures>")
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

/// The sentences and clauses (split at `.`, `;`, `:` and `,`) of a text, lower-cased, without their
/// punctuation; short ones (a quoted value, "deny wins") are left out.
fn sentences(text: &str) -> Vec<String> {
    text.split([';', ':', ','])
        .flat_map(|s| s.split(". "))
        .map(|s| s.trim().trim_end_matches('.').to_lowercase())
        .filter(|s| s.split_whitespace().count() >= 4)
        .collect()
}

/// No diagnostic says a sentence twice: its message, its consequence and its notes are separate
/// texts (a consequence repeating the message reads as noise).
#[test]
fn no_diagnostic_repeats_a_sentence() {
    let mut repeats = BTreeSet::new();
    for (name, output) in CATALOG_WORKSPACES
        .iter()
        .map(|name| (*name, workspace_output(name)))
        .chain([("demo", demo_output())])
    {
        for (code, texts) in diagnostics(&output) {
            let mut seen = BTreeSet::new();
            for sentence in texts.iter().flat_map(|t| sentences(t)) {
                if !seen.insert(sentence.clone()) {
                    repeats.insert(format!("{name} {code}: {sentence}"));
                }
            }
        }
    }
    assert!(repeats.is_empty(), "sentences said twice: {repeats:#?}");
}

/// `(code, message, consequence)` of every diagnostic `agentws check --profile strict` reports on
/// fixture `name`.
fn reported(name: &str) -> Vec<(String, String, String)> {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(fixture(""))
        .args(["check", "--profile", "strict", "--format", "json", name])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let text = |key: &str| d[key].as_str().unwrap().to_string();
            (text("code"), text("message"), text("consequence"))
        })
        .collect()
}

fn messages_of(name: &str, code: &str) -> Vec<String> {
    reported(name)
        .into_iter()
        .filter(|(c, _, _)| c == code)
        .map(|(_, message, _)| message)
        .collect()
}

/// An unknown name close to a known one gets "did you mean": skill names in `skills:`, tools in
/// `tools:`, subagent and SKILL.md keys, MCP transports, agentws.toml keys.
#[test]
fn unknown_names_suggest_the_near_known_one() {
    let hints = "messages-hints";
    assert_eq!(
        messages_of(hints, "XR004"),
        ["no skill is named `reprot-writer`; did you mean `report-writer`?"]
    );
    assert_eq!(
        messages_of(hints, "XR001"),
        ["`tools:` names `lookup_travler` (did you mean `lookup_traveller`?), which the agent does not register (a tool registered in Java code is invisible to agentws)"]
    );
    // SKILL.md keeps any key as metadata: a misspelt required key is named where it is missing.
    assert_eq!(
        messages_of(hints, "SK009"),
        ["the frontmatter has no `description`, but has `descripton`: did you mean `description`? The runtime skips the skill"]
    );
    assert_eq!(
        messages_of(hints, "SA016"),
        ["`modell` is not read by the runtime and is ignored; did you mean `model`?"]
    );
    assert_eq!(
        messages_of(hints, "ST007"),
        ["`licence` is not a key of the Agent Skills specification; did you mean `license`? (else move it under `metadata`)"]
    );
    assert_eq!(
        messages_of(hints, "CF002"),
        ["unknown key `shell_tools` in [features] is ignored; did you mean `shell_tool`?"]
    );
    let unknown_key = reported(hints)
        .into_iter()
        .find(|(code, _, _)| code == "CF002")
        .unwrap();
    assert_eq!(
        unknown_key.2,
        "Ignored: the setting it was meant to change keeps its default. docs/configuration.md lists every key."
    );
    assert_eq!(
        messages_of("tools-invalid", "TJ012"),
        ["MCP server `grafana` has unsupported transport 'streamable_http'; did you mean `streamable-http`? (the runtime accepts `stdio`, `sse`, `http`, `streamable-http`, `streamablehttp`)"]
    );
}

/// A tools.json the runtime never reads is not the reason a tool is missing, and its own
/// problems say that they change nothing now.
#[test]
fn an_unread_tools_json_is_not_blamed() {
    let reported = reported("messages-unread-tools");
    let find = |code: &str| reported.iter().find(|(c, _, _)| c == code).unwrap();
    assert_eq!(
        find("XR001").1,
        "`tools:` names `lookup_traveller` (MCP server `crm` lists it in a tools.json the runtime never reads: `features.tools_config` is off), which the agent does not register (a tool registered in Java code is invisible to agentws)"
    );
    assert_eq!(
        find("TJ027").1,
        "`features.tools_config` is off: the runtime never reads this tools.json"
    );
    assert_eq!(
        find("TJ006").2,
        "The runtime never reads this tools.json (`features.tools_config` is off), so this changes nothing now. If it read the file: Ignored: the runtime's JSON reader skips keys it does not know."
    );
    // The project folder's copy, shadowed by the workspace's own.
    let shadowed = crate::check::check_json(&fixture(""), &["rules-all"]).0;
    let bom = shadowed["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "TJ002")
        .unwrap();
    assert_eq!(bom["path"], "rules-all/tools.json");
    assert_eq!(
        bom["consequence"],
        "The runtime never reads this tools.json (the workspace has its own tools.json), so this changes nothing now. If it read the file: The runtime logs \"Failed to parse tools.json\" and ignores the whole file: default toolkit, no MCP servers, no allow/deny."
    );
}

/// Refused agentws.toml values name the default used instead.
#[test]
fn fallbacks_name_the_default() {
    assert_eq!(
        messages_of("config-errors", "CF004"),
        [
            "`harness` must be a release agentws models (`2.0.2`, `2.0.3-SNAPSHOT`, `2.0.3`, `main`) or a version such as `2.0.2`, not `2026-10`; the release the build file names is used, else the newest agentws models",
            "`isolation.scope` must be one of \"user\", \"session\", \"agent\", \"global\", not \"tenant\"; the default \"user\" is used",
        ]
    );
    assert_eq!(
        messages_of("config-errors", "CF003"),
        ["`features.plan_mode` must be a boolean (true or false), not a string; the default false is used"]
    );
    assert_eq!(
        messages_of("rules-config", "CF011"),
        ["`agent.id` is blank; the default (the name) is used"]
    );
    assert_eq!(
        messages_of("parse-broken", "SA013"),
        ["`steps` is a string, not a number; the runtime ignores it and uses `maxIters` if that is a number, else the default of 10 steps"]
    );
}

fn agentws(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// `agentws preview` where there is no project says so, instead of rendering the defaults of
/// an empty folder (and failing on a missing agent name).
#[test]
fn preview_without_a_project_says_so() {
    let empty = tempfile::tempdir().unwrap();
    let output = agentws(empty.path(), &["preview"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let shown = std::path::absolute(empty.path()).unwrap();
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!(
            "error: no agentws project at or above `{}`: no agentws.toml, no `.agentscope/workspace` folder and no workspace files (AGENTS.md, tools.json, skills/, subagents/); run it in a project folder or pass its path\n",
            shown.display()
        )
    );
}

/// On a `user`-scoped project, a preview without `--user` says which namespace it used.
#[test]
fn preview_of_a_user_scoped_project_names_its_namespace() {
    let demo = repo_root().join("examples/demo");
    let note = |args: &[&str]| {
        let mut all = vec!["preview", "--date", "2026-01-05"];
        all.extend_from_slice(args);
        let output = agentws(&demo, &all);
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8(output.stderr)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("note[namespace]"))
            .map(str::to_string)
    };
    assert_eq!(
        note(&[]).as_deref(),
        Some("note[namespace]: scope `user` and no --user: the runtime uses the session id `travel-desk` (the agent name) as the namespace, so this is the prompt of the per-user folder `travel-desk`; pass --user ID for a given user")
    );
    assert_eq!(
        note(&["--session", "s1"]).as_deref(),
        Some("note[namespace]: scope `user` and no --user: the runtime uses the session id `s1` as the namespace, so this is the prompt of the per-user folder `s1`; pass --user ID for a given user")
    );
    assert_eq!(note(&["--user", "alice"]), None);
    assert_eq!(note(&["--scope", "session"]), None);
}

/// Every example `agentws explain --help` gives (`e.g. X`) is one `agentws explain` accepts.
#[test]
fn explain_help_examples_work() {
    let help = String::from_utf8(agentws(&repo_root(), &["explain", "--help"]).stdout).unwrap();
    let examples: Vec<&str> = help
        .split("e.g. ")
        .skip(1)
        .map(|rest| rest.split([')', ' ', ',']).next().unwrap())
        .collect();
    assert_eq!(examples, ["SK001", "skill-no-frontmatter"]);
    for example in examples {
        let output = agentws(&repo_root(), &["explain", example]);
        assert_eq!(output.status.code(), Some(0), "agentws explain {example}");
        assert!(String::from_utf8(output.stdout)
            .unwrap()
            .starts_with("SK001 skill-no-frontmatter\n"));
    }
}
