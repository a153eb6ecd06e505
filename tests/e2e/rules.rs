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
pub const NOT_IN_FIXTURES: &[(&str, &str)] = &[
    ("WS005", "needs a file over 16 MiB: bad_input::a_100_mb_skill_is_capped_with_a_diagnostic generates one"),
    ("WS007", "needs a file this process cannot read, impossible as root: bad_input::unreadable_file"),
    ("WS014", "needs a named pipe, which git cannot hold: hangs::named_pipes_are_reported_not_opened_by_check makes them"),
    ("WS015", "needs more than 1000 problems in one file: hangs::a_file_of_invalid_lines_lists_its_first_1000_problems_in_every_format generates one"),
    // Store-level rules need a store: tests/e2e/stores.rs seeds one per backend.
    ("RS001", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS002", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS003", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS004", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS005", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS006", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS008", "stores::redis_preview_check_and_problems (a key with NUL)"),
    ("RS009", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (a child namespace)"),
    ("RS010", "stores::redis_preview_check_and_problems (a deleted hash)"),
    ("RS011", "stores::redis_preview_check_and_problems (a page cut short)"),
    ("RS012", "stores::mariadb_preview_check_and_faults (ALICE listed under alice)"),
    ("RS013", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS015", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (and per server)"),
    ("RS016", "stores::store_level_problems_are_reported_and_a_clean_store_has_none (`_hidden`)"),
    ("RS017", "store_limits::a_100000_byte_sqlite_id_is_reported_and_the_others_are_checked, store_limits::redis_keys_of_the_wrong_type_are_reported_and_the_rest_is_checked"),
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
    expect(
        "rules-config",
        &["CF006", "CF008", "CF011", "CF012", "TJ027"],
    );
    expect("rules-tools-blank", &["TJ004", "TJ005", "TJ028", "WS013"]);
    expect("rules-tools-deep", &["TJ018"]);
    expect("rules-tools-env", &["TJ008"]);
    // Scope `agent`: per-user folders no call reads, nested files loaded through the glob only.
    expect("rules-agent-scope", &["SA007", "SA022", "SK017", "SK026"]);
}

/// `(code, workspace-relative path, line, column, message)` of every diagnostic of `codes` that
/// `agentws check --profile strict --format json` reports on fixture `name`.
fn findings(name: &str, codes: &[&str]) -> Vec<(String, String, u64, u64, String)> {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--profile", "strict", "--format", "json"])
        .arg(fixture(name))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| codes.contains(&d["code"].as_str().unwrap()))
        .map(|d| {
            let path = d["path"].as_str().unwrap();
            let rel = path.split(".agentscope/workspace/").last().unwrap();
            (
                d["code"].as_str().unwrap().to_string(),
                rel.to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["column"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(
    code: &str,
    path: &str,
    line: u64,
    column: u64,
    message: &str,
) -> (String, String, u64, u64, String) {
    (code.into(), path.into(), line, column, message.into())
}

/// What the runtime does that the files do not say: tools.json stopping at the main agent, the
/// prompt promising removed tools, unresolvable models, files the scans miss by letter case, a
/// skill linked twice, and the noise rules said once (`rules-runtime`).
#[test]
fn runtime_findings_are_reported_where_they_are_written() {
    // SK016/ST002/ST007 (the linked folder's name, `version`) belong to other rules.
    let codes = [
        "TJ029", "TJ030", "SA008", "SA025", "SA026", "SK023", "SK025", "SK030", "ST009", "ST010",
        "ST011", "ST012", "XR001", "XR003", "XR005", "XR015", "XR016",
    ];
    let runtime_message = |code| {
        match code {
        "ST010" => "`allowed-tools` separates tools with commas; the specification splits on spaces (write `read_file grep_files`)",
        "ST011" => "`../style/STYLE.md` points outside the skill's folder",
        "ST012 link" => "`references/figures.md` (a link) is not in the skill's folder",
        "ST012 text" => "`scripts/publish.py` (a path in the text) is not in the skill's folder",
        _ => unreachable!(),
    }
    };
    assert_eq!(
        findings("rules-runtime", &codes),
        vec![
            row("SK030", "skills/lower/skill.md", 1, 1, "`skills/lower/skill.md` is not `SKILL.md`: every skill scan looks for `SKILL.md` exactly, so the runtime skips the folder `skills/lower` (rename the file to `SKILL.md`)"),
            // `version: 2.0` renders as written: no SK023. Said once for both copies of the skill.
            row("SK025", "skills/report/SKILL.md", 5, 1, "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it (2 skills set it; said once, here)"),
            row("ST010", "skills/report/SKILL.md", 5, 16, runtime_message("ST010")),
            // The links in a code span and a code block are not references.
            // `scripts/build.py` exists; the linked figures and the script named in the text do not.
            row("ST012", "skills/report/SKILL.md", 10, 47, runtime_message("ST012 link")),
            row("ST011", "skills/report/SKILL.md", 18, 58, runtime_message("ST011")),
            row("ST012", "skills/report/SKILL.md", 20, 14, runtime_message("ST012 text")),
            // The linked folder is the same skill: an info, no duplicate-name warning.
            row("XR016", "skills/report-link/SKILL.md", 2, 7, "skill `report` is seen twice: `skills/report-link/SKILL.md` and `skills/report/SKILL.md` are the same SKILL.md through a symbolic link"),
            row("ST010", "skills/report-link/SKILL.md", 5, 16, runtime_message("ST010")),
            row("ST012", "skills/report-link/SKILL.md", 10, 47, runtime_message("ST012 link")),
            row("ST011", "skills/report-link/SKILL.md", 18, 58, runtime_message("ST011")),
            row("ST012", "skills/report-link/SKILL.md", 20, 14, runtime_message("ST012 text")),
            // `name: auditor` equals the file's id: no SA008.
            row("SA025", "subagents/auditor.md", 4, 8, "no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime silently runs this subagent on the parent's model (no log line says so); Anthropic models are written `anthropic:<model name>`"),
            row("XR015", "subagents/auditor.md", 5, 9, "tools.json removes `execute` from the main agent only: this subagent is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has it, whatever `tools:` says"),
            row("XR001", "subagents/auditor.md", 5, 18, "`tools:` names `nope`, which the agent does not register (a tool registered in Java code is invisible to agentws)"),
            row("XR001", "subagents/auditor.md", 5, 24, "`tools:` names `nada`, which the agent does not register (a tool registered in Java code is invisible to agentws)"),
            // `model: corp-large` matches `[agent] models = ["corp-*"]`.
            row("SA008", "subagents/helper.md", 2, 1, "`name:` is ignored: the agent id is the file name (`helper`)"),
            row("XR003", "subagents/helper.md", 7, 8, "`read_file` is a harness built-in: `tools:` only chooses among the parent's own tools, and every child has the built-ins anyway"),
            row("SA026", "subagents/writer.MD", 1, 1, "`subagents/writer.MD` ends in `.MD`, not `.md`: both subagent scans match `.md` case-sensitively, so the runtime ignores this file (rename it to `writer.md`)"),
            // What the `deny` list causes is one diagnostic at its key: the tools the isolated
            // `auditor` keeps, then the prompt sections that still name them (TJ030's parts).
            row("TJ029", "tools.json", 3, 3, "`execute`, `memory_save` are denied for the main agent only: the subagent `auditor` is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has them; the prompt's `## Code Execution` section still tells the model to run skill scripts with the shell tool `execute` (1 skill has files: `report`); the prompt's `## Memory Persistence` section still tells the model to save memories with `memory_save`"),
        ]
    );
}

#[test]
fn runtime_findings_are_absent_when_written_correctly() {
    let all: Vec<(String, String, u64, u64, String)> = findings(
        "rules-runtime-ok",
        &[
            "TJ029", "TJ030", "SA008", "SA025", "SA026", "SK016", "SK023", "SK025", "SK030",
            "ST002", "ST007", "ST009", "ST010", "ST011", "ST012", "XR001", "XR003", "XR005",
            "XR015", "XR016",
        ],
    );
    assert_eq!(
        all,
        vec![row("SK025", "skills/report/SKILL.md", 7, 1, "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it (this is the only skill that sets it)")]
    );
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--profile", "strict"])
        .arg(fixture("rules-runtime-ok"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .contains("Found 0 errors, 0 warnings, 1 info."));
}

/// `agentws preview` says the same as TJ030, as notes.
#[test]
fn preview_notes_the_sections_that_promise_removed_tools() {
    let notes = |name: &str| -> Vec<String> {
        let output = Command::cargo_bin("agentws")
            .unwrap()
            .args(["preview", "--format", "json"])
            .arg(fixture(name))
            .output()
            .unwrap();
        let preview: Value = serde_json::from_slice(&output.stdout).unwrap();
        preview["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["code"] == "removed-tool")
            .map(|n| n["message"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        notes("rules-runtime"),
        vec![
            "the `## Code Execution` section tells the model to run skill scripts with the shell tool `execute`, but tools.json removes `execute`: the model does not have it",
            "the `## Memory Persistence` section tells the model to save memories with `memory_save`, but tools.json removes `memory_save`: the model does not have it",
        ]
    );
    assert_eq!(notes("rules-runtime-ok"), Vec::<String>::new());
}

/// A fact true of every skill or subagent is said once: a workspace of 60 skills that all set
/// `allowed-tools`, and 30 subagents whose `tools:` all name built-ins, gets one info of each.
#[test]
fn facts_true_of_every_file_are_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join(".agentscope/workspace");
    for i in 0..60 {
        let skill = ws.join(format!("skills/s{i:02}"));
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            format!("---\nname: s{i:02}\ndescription: d\nallowed-tools: read_file\n---\nBody\n"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(ws.join("subagents")).unwrap();
    for i in 0..30 {
        std::fs::write(
            ws.join(format!("subagents/a{i:02}.md")),
            "---\ndescription: d\nworkspace:\n  mode: shared\ntools: [read_file, grep_files]\n---\n",
        )
        .unwrap();
    }
    std::fs::write(ws.join("AGENTS.md"), "# A\n").unwrap();
    std::fs::write(dir.path().join("agentws.toml"), "[agent]\nname = \"a\"\n").unwrap();
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .arg("check")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("Found 0 errors, 0 warnings, 2 infos."),
        "{stdout}"
    );
    assert!(
        stdout.contains("(60 skills set it; said once, here)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("29 other subagents' `tools:` name built-ins too"),
        "{stdout}"
    );
}

/// A value copied from another agent runtime into many subagent files is said once: a `model:`
/// (`sonnet`) is a warning at the first file in path order, saying how many others share it, and
/// an info at each other file pointing at it; an unknown tool name (`Read`) is one warning at the
/// first file's entry, with the other files' entries as related locations. A value used once
/// stays a plain warning. (`the_server_reports_what_check_reports` runs on the same fixture.)
#[test]
fn a_foreign_value_repeated_across_files_is_one_warning() {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(fixture("rules-foreign-subagents"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(String, String, String, u64, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = d["path"].as_str().unwrap();
            (
                d["severity"].as_str().unwrap().to_string(),
                d["code"].as_str().unwrap().to_string(),
                path.split(".agentscope/workspace/")
                    .last()
                    .unwrap()
                    .to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let model = |m: &str| {
        format!("no model provider shipped with AgentScope supports `{m}`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime silently runs this subagent on the parent's model (no log line says so); Anthropic models are written `anthropic:<model name>`")
    };
    let tool = |t: &str, others: &str| {
        format!("`tools:` names `{t}`, which the agent does not register (a tool registered in Java code is invisible to agentws){others}")
    };
    let same = |what: String| format!("same as in `subagents/a-reviewer.md`: {what}");
    let r = |sev: &str, code: &str, file: &str, line: u64, message: String| {
        (
            sev.into(),
            code.into(),
            format!("subagents/{file}"),
            line,
            message,
        )
    };
    // Each unknown tool name is one warning in the workspace, at the first file that names it;
    // `model: inherit` (f-summariser.md) is not reported.
    assert_eq!(
        found,
        vec![
            r(
                "warning",
                "SA025",
                "a-reviewer.md",
                3,
                model("sonnet") + "; 2 other subagent files name the same model (info there)"
            ),
            r(
                "warning",
                "XR001",
                "a-reviewer.md",
                4,
                tool("Read", "; 3 other subagent files name it too")
            ),
            r(
                "warning",
                "XR001",
                "a-reviewer.md",
                4,
                tool("Grep", "; 2 other subagent files name it too")
            ),
            r(
                "warning",
                "XR001",
                "a-reviewer.md",
                4,
                tool("Glob", "; 2 other subagent files name it too")
            ),
            r("info", "SA025", "b-writer.md", 3, same(model("sonnet"))),
            r("warning", "SA025", "c-tester.md", 3, model("haiku")),
            r("info", "SA025", "d-planner.md", 3, same(model("sonnet"))),
            r("warning", "XR001", "d-planner.md", 4, tool("Bash", "")),
            r("warning", "SA025", "e-auditor.md", 3, model("opus")),
        ]
    );
    // Each XR001 points at its name's entry in the list.
    let columns: Vec<u64> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "XR001")
        .map(|d| d["range"]["start"]["column"].as_u64().unwrap())
        .collect();
    assert_eq!(columns, vec![8, 14, 20, 14]);
    // The human output shows where the warning is, on each info, and every other file naming a
    // tool under its warning.
    let human = Command::cargo_bin("agentws")
        .unwrap()
        .arg("check")
        .arg(fixture("rules-foreign-subagents"))
        .current_dir(fixture("rules-foreign-subagents"))
        .output()
        .unwrap();
    let human = String::from_utf8(human.stdout).unwrap();
    assert_eq!(
        human
            .matches("= note: .agentscope/workspace/subagents/a-reviewer.md:3:8: reported here as a warning, for every file that shares it")
            .count(),
        2,
        "{human}"
    );
    for related in [
        "= note: .agentscope/workspace/subagents/b-writer.md:4:20: `Read` named here too",
        "= note: .agentscope/workspace/subagents/c-tester.md:4:8: `Read` named here too",
        "= note: .agentscope/workspace/subagents/d-planner.md:4:8: `Read` named here too",
        "= note: .agentscope/workspace/subagents/b-writer.md:4:8: `Glob` named here too",
    ] {
        assert_eq!(human.matches(related).count(), 1, "{related}\n{human}");
    }
    assert!(
        human.contains("Found 0 errors, 7 warnings, 2 infos."),
        "{human}"
    );
}

/// The strict profile says a key outside the Agent Skills specification once per workspace: at
/// the first skill in path order that sets it, every other skill's key a related location;
/// `license` (a key of the specification) is not reported, nor anything in the harness profile.
#[test]
fn a_key_outside_the_specification_is_said_once_per_workspace() {
    let dir = fixture("rules-strict-keys");
    let run = |profile: &str| {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .current_dir(&dir)
            .args(["check", "--profile", profile, "."])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let strict = run("strict");
    let lines: Vec<&str> = strict
        .lines()
        .filter(|l| l.starts_with("warning") || l.starts_with(" -->") || l.contains("here too"))
        .collect();
    assert_eq!(
        lines,
        [
            "warning[ST007]: `source` is not a key of the Agent Skills specification; move it under `metadata`; 2 other skills set it too",
            " --> .agentscope/workspace/skills/alpha/SKILL.md:4:1",
            "  = note: .agentscope/workspace/skills/beta/SKILL.md:4:1: `source` here too",
            "  = note: .agentscope/workspace/skills/gamma/SKILL.md:5:1: `source` here too",
            "warning[ST007]: `risk` is not a key of the Agent Skills specification; move it under `metadata`; 1 other skill sets it too",
            " --> .agentscope/workspace/skills/alpha/SKILL.md:5:1",
            "  = note: .agentscope/workspace/skills/beta/SKILL.md:5:1: `risk` here too",
        ],
        "{strict}"
    );
    assert!(
        strict.contains("Found 0 errors, 2 warnings, 0 infos."),
        "{strict}"
    );
    let harness = run("harness");
    assert!(
        harness.contains("Found 0 errors, 0 warnings, 0 infos."),
        "{harness}"
    );
}

/// A Claude Code `.mcp.json` copied in as tools.json, servers at the top level: the runtime
/// registers none of them (TJ031, an error at the first), and the certain fix moves them under
/// `mcpServers` with the `transport` the runtime reads (`type` renamed, `stdio` for a command);
/// after it the file is clean.
#[test]
fn servers_outside_mcp_servers_are_reported_and_moved_by_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    crate::support::copy_tree(&fixture("rules-claude-mcp"), &dir);
    let check = |extra: &[&str]| {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .current_dir(&dir)
            .args(["check", "--format", "concise"])
            .args(extra)
            .arg(".")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        check(&[]).lines().next().unwrap(),
        ".agentscope/workspace/tools.json:2:3: error[TJ031] `linear`, `neon` are MCP servers written at the top level (Claude Code's `.mcp.json` keeps them under `mcpServers`): the runtime reads servers only under `mcpServers` and ignores these keys, so no MCP server is registered"
    );
    let fixed = check(&["--fix"]);
    assert!(
        fixed.contains("Found 0 errors, 0 warnings, 0 infos."),
        "{fixed}"
    );
    let text = std::fs::read_to_string(dir.join(".agentscope/workspace/tools.json")).unwrap();
    assert_eq!(
        text,
        "{\n  \"mcpServers\": {\n  \"linear\": {\"transport\": \"stdio\", \n    \"command\": \"npx\",\n    \"args\": [\"-y\", \"mcp-remote\", \"https://mcp.linear.app/mcp\"]\n  },\n  \"neon\": {\n    \"transport\": \"http\",\n    \"url\": \"https://mcp.neon.tech/mcp\"\n  }\n  }\n}\n"
    );
}

/// tools.json written the Claude Code way: `${NAME:-default}` is sent as written (TJ032, at the
/// whole `${…}`; `${DOCS_TOKEN}` is not), and an `allow` written for the built-ins removes every
/// tool of `tracker` (three, from its `enableTools`) and of `wiki` (how many, agentws cannot
/// tell), each TJ033 at the server's name; `docs`, whose `search_docs` is allowed, keeps it.
#[test]
fn claude_style_tools_json_values_and_an_allow_that_empties_servers() {
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(fixture("rules-claude-tools"))
        .args(["check", "--format", "concise", "."])
        .env("DOCS_TOKEN", "t")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("[TJ032]") || l.contains("[TJ033]") || l.contains("[TJ007]"))
        .collect();
    assert_eq!(
        lines,
        [
            ".agentscope/workspace/tools.json:4:5: warning[TJ033] `allow` names none of the 3 tools MCP server `tracker` registers (`get_issue`, `list_issues`, `close_issue`): a non-empty `allow` removes every tool it does not name, so all 3 go",
            ".agentscope/workspace/tools.json:7:27: warning[TJ032] `${TRACKER_ROOT:-.}` is sent as written: the runtime substitutes only `${TRACKER_ROOT}` (no `:-` or `-` defaults), so neither the value of `TRACKER_ROOT` nor the default `.` takes its place",
            ".agentscope/workspace/tools.json:16:5: warning[TJ033] `allow` names no tool of MCP server `wiki`: a non-empty `allow` removes every tool it does not name, so every tool the server registers goes; how many, agentws cannot tell (the server lists its tools only when it runs; `enableTools` would name them)",
        ],
        "{stdout}"
    );
}

/// Claude Code's `${CLAUDE_SKILL_DIR}`: AgentScope does not expand it, said once per SKILL.md at
/// its first use (SK031, both profiles), and the strict reference rules read the path after it as
/// the author means it: the existing `references/fields.md` is neither too deep nor missing, the
/// absent `references/old-notes.md` is missing (ST012, at `references`). The near skill `plain`,
/// with paths relative to its folder, has nothing: its `for example references/w2.md` and
/// `scripts/references/examples` (a folder list in prose) illustrate, they name no file.
#[test]
fn claude_skill_dir_is_not_expanded_and_the_path_after_it_is_the_reference() {
    let check = |profile: &str| {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .current_dir(fixture("rules-claude-skill"))
            .args(["check", "--format", "concise", "--profile", profile, "."])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let sk031 = ".agentscope/workspace/skills/forms/SKILL.md:8:24: warning[SK031] `${CLAUDE_SKILL_DIR}` is Claude Code's variable: AgentScope does not expand it, so the model reads it as written (3 uses in this file); write the path relative to the skill folder";
    assert_eq!(
        check("harness").lines().next_back(),
        Some("Found 0 errors, 1 warning, 0 infos.")
    );
    assert!(check("harness").lines().any(|l| l == sk031));
    let strict = check("strict");
    let lines: Vec<&str> = strict
        .lines()
        .filter(|l| l.contains(": warning["))
        .collect();
    assert_eq!(
        lines,
        [
            sk031,
            ".agentscope/workspace/skills/forms/SKILL.md:16:42: warning[ST012] `references/old-notes.md` (a path in the text) is not in the skill's folder",
        ],
        "{strict}"
    );
    let human = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(fixture("rules-claude-skill"))
        .args(["check", "."])
        .output()
        .unwrap();
    let human = String::from_utf8(human.stdout).unwrap();
    let others: Vec<&str> = human.lines().filter(|l| l.ends_with("here too")).collect();
    assert_eq!(
        others,
        [
            "  = note: .agentscope/workspace/skills/forms/SKILL.md:13:8: `${CLAUDE_SKILL_DIR}` here too",
            "  = note: .agentscope/workspace/skills/forms/SKILL.md:16:22: `${CLAUDE_SKILL_DIR}` here too",
        ],
        "{human}"
    );
}

/// A `|` description of three lines breaks the prompt's subagent list (its `- ` lines read as
/// more subagents): SA027 at the value, and the preview's note about it names SA027 and the file.
/// The near `writer`, a `>` block that folds to one line, has neither.
#[test]
fn a_multi_line_subagent_description_is_reported_and_the_preview_note_names_it() {
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(fixture("rules-subagent-description"))
        .args(["check", "--format", "concise", "."])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        ".agentscope/workspace/subagents/researcher.md:3:3: warning[SA027] `description` spans 3 lines: the runtime prints it raw in the prompt's `## Subagents` list, where the lines after the first stand outside this subagent's entry\nChecked 4 files: 1 agentws.toml, 1 AGENTS.md, 2 subagents.\nFound 0 errors, 1 warning, 0 infos.\n"
    );
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(fixture("rules-subagent-description"))
        .args(["preview", "--format", "json", "."])
        .output()
        .unwrap();
    let preview: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes: Vec<(String, String, String)> = preview["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "multi-line-description")
        .map(|n| {
            (
                n["message"].as_str().unwrap().to_string(),
                n["rule"].as_str().unwrap_or("").to_string(),
                n["path"]
                    .as_str()
                    .unwrap_or("")
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        notes,
        [(
            "subagent `researcher` has a multi-line description; the runtime prints it raw and it breaks the agent list".to_string(),
            "SA027".to_string(),
            "researcher.md".to_string()
        )]
    );
}

/// A YAML frontmatter at the top of an injected file is injected as written (WS016, at the block,
/// naming its keys): AGENTS.md, KNOWLEDGE.md after a blank line, an additional context file. The
/// near ones are not: MEMORY.md between two Markdown rules holds a sentence, not a map, and
/// STYLE.md's rule is not at the top. With `features.workspace_context = false` nothing is
/// injected and nothing is reported.
#[test]
fn a_frontmatter_in_an_injected_file_is_reported_where_the_prompt_holds_it() {
    let check = |dir: &std::path::Path| {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .current_dir(dir)
            .args(["check", "--format", "concise", "."])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let out = check(&fixture("rules-injected-frontmatter"));
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("[WS016]")).collect();
    assert_eq!(
        lines,
        [
            ".agentscope/workspace/AGENTS.md:1:1: warning[WS016] `AGENTS.md` starts with a frontmatter (`name`, `description`, `model`, `tools` and 1 more) that the runtime injects into the prompt as written: no key in it is read",
            ".agentscope/workspace/SOUL.md:1:1: warning[WS016] `SOUL.md` starts with a frontmatter (`tone`) that the runtime injects into the prompt as written: no key in it is read",
            ".agentscope/workspace/knowledge/KNOWLEDGE.md:2:1: warning[WS016] `knowledge/KNOWLEDGE.md` starts with a frontmatter (`title`) that the runtime injects into the prompt as written: no key in it is read",
        ],
        "{out}"
    );
    let copy = tempfile::tempdir().unwrap();
    crate::support::copy_tree(&fixture("rules-injected-frontmatter"), copy.path());
    let config = copy.path().join("agentws.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!("{text}[features]\nworkspace_context = false\n"),
    )
    .unwrap();
    let out = check(copy.path());
    assert!(!out.contains("WS016"), "{out}");
}

/// `scope = "session"` on the local filesystem with the shell tool on: the shell is not
/// namespaced (CF015, at the value). The near configurations are quiet: the shell off, a sandbox
/// filesystem, the scope left to its default, `scope = "agent"`, and `execute` denied in tools.json
/// with no subagent; with an isolated subagent, which keeps the shell, it is said again, naming it.
#[test]
fn session_isolation_with_the_local_shell_is_reported_at_the_scope() {
    let check_with = |extra: Option<&str>, files: &[(&str, &str)]| {
        let copy = tempfile::tempdir().unwrap();
        crate::support::copy_tree(&fixture("rules-shell-isolation"), copy.path());
        if let Some(config) = extra {
            std::fs::write(copy.path().join("agentws.toml"), config).unwrap();
        }
        for (path, text) in files {
            let path = copy.path().join(".agentscope/workspace").join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .current_dir(copy.path())
            .args(["check", "--format", "concise", "."])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let check = |extra: Option<&str>| check_with(extra, &[]);
    let out = check(None);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": warning[")).collect();
    assert_eq!(
        lines,
        ["agentws.toml:5:9: warning[CF015] the file tools stay in each session's folder `.agentscope/workspace/<session id>/`, but the shell tool runs in the project folder, unconfined: any session's commands can read and change every other session's folder under `.agentscope/workspace/`"],
        "{out}"
    );
    for quiet in [
        "[agent]\nname = \"support\"\n\n[isolation]\nscope = \"session\"\n\n[features]\nshell_tool = false\n",
        "[agent]\nname = \"support\"\n\n[isolation]\nscope = \"session\"\n\n[filesystem]\nmode = \"sandbox\"\n",
        "[agent]\nname = \"support\"\n",
        "[agent]\nname = \"support\"\n\n[isolation]\nscope = \"agent\"\n",
    ] {
        let out = check(Some(quiet));
        assert!(!out.contains("CF015"), "{quiet}\n{out}");
    }
    let denied = ("tools.json", "{\"deny\": [\"execute\"]}\n");
    let out = check_with(None, &[denied]);
    assert!(!out.contains("CF015"), "{out}");
    let child = (
        "subagents/auditor.md",
        "---\nname: auditor\ndescription: Audits fares.\n---\nYou audit fares.\n",
    );
    let out = check_with(None, &[denied, child]);
    assert!(
        out.contains("agentws.toml:5:9: warning[CF015] the file tools stay in each session's folder `.agentscope/workspace/<session id>/`, but the shell tool (which tools.json takes from the main agent only: the isolated subagent `auditor` has it) runs in the project folder"),
        "{out}"
    );
}

/// Claude Code's tool names in a skill's backticks: `Grep` and `Glob` (once each, at the first
/// use, with the tool that does the job), `mcp__github__create_issue` (the declared server
/// registers it as `create_issue`) and `mcp__pager__notify` (no such server): XR017. The near
/// ones are quiet: `read_file`, `create_issue`, grep in a sentence, and names the text does not
/// tell the model to use (a table row, an example after `e.g.`, Claude Code's `Bash` as a subject).
#[test]
fn claude_code_tool_names_in_skill_text_are_reported_once_each() {
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(fixture("rules-foreign-tools"))
        .args(["check", "--format", "concise", "."])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            ".agentscope/workspace/skills/issues/SKILL.md:6:15: warning[XR017] `mcp__github__create_issue` is Claude Code's name for MCP tool `create_issue` of server `github`: AgentScope registers MCP tools under their own names, so no tool is called `mcp__github__create_issue` (tools.json's server `github` registers it as `create_issue`)",
            ".agentscope/workspace/skills/issues/SKILL.md:6:57: warning[XR017] `mcp__pager__notify` is Claude Code's name for MCP tool `notify` of server `pager`: AgentScope registers MCP tools under their own names, so no tool is called `mcp__pager__notify` (tools.json declares no MCP server `pager` either)",
            ".agentscope/workspace/skills/logs/SKILL.md:6:23: warning[XR017] `Grep` is a Claude Code tool; this agent has no tool of that name (the same job is `grep_files`)",
            ".agentscope/workspace/skills/logs/SKILL.md:6:58: warning[XR017] `Glob` is a Claude Code tool; this agent has no tool of that name (the same job is `glob_files`)",
            "Checked 5 files: 1 agentws.toml, 1 AGENTS.md, 2 skills, 1 tools.json.",
            "Found 0 errors, 4 warnings, 0 infos.",
        ]
    );
}
