//! `agentws preview` end to end: the real binary on fixture workspaces `tests/fixtures/preview-*`,
//! compared byte for byte with the expected prompts checked in beside them
//! (`expected/<case>.txt`, with `{FIXTURE}` standing for the fixture's absolute path). Each
//! fixture's `CASE.md` explains how its expected prompts follow from harness-spec and where we
//! had to decide.
//!
//! `UPDATE_EXPECT=1 cargo test --test e2e preview` rewrites the expected files from the binary's
//! output; review every change against the spec before committing it.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::support::{copy_tree, fixture};

/// Machine facts fixed for every golden case.
const MACHINE: &[&str] = &[
    "--date",
    "2026-08-22",
    "--os",
    "Linux 6.8.0-45-generic",
    "--tmp-dir",
    "/tmp",
];

/// (case, fixture, extra arguments, expected exit code)
const CASES: &[(&str, &str, &[&str], i32)] = &[
    (
        "basic-alice",
        "preview-basic",
        &["--user", "alice", "--session", "s1"],
        0,
    ),
    ("basic-no-user", "preview-basic", &[], 0),
    (
        "metadata-alice",
        "preview-metadata",
        &["--user", "alice", "--session", "s1"],
        0,
    ),
    (
        "basic-alice-2026-08",
        "preview-basic",
        &["--user", "alice", "--session", "s1", "--harness", "2026-08"],
        0,
    ),
    (
        "scopes-session",
        "preview-scopes",
        &["--user", "alice", "--session", "s1", "--scope", "session"],
        0,
    ),
    (
        "scopes-agent",
        "preview-scopes",
        &["--user", "alice", "--scope", "agent"],
        0,
    ),
    (
        "scopes-global-2026-08",
        "preview-scopes",
        &[
            "--user",
            "alice",
            "--scope",
            "global",
            "--harness",
            "2026-08",
        ],
        0,
    ),
    (
        "overrides-alice",
        "preview-overrides",
        &["--user", "alice"],
        0,
    ),
    ("overrides-bob", "preview-overrides", &["--user", "bob"], 0),
    (
        "diff-alice-bob",
        "preview-overrides",
        &["--user", "alice", "--diff", "--against-user", "bob"],
        1,
    ),
    (
        "memory-under",
        "preview-memory-under",
        &["--user", "alice"],
        0,
    ),
    (
        "memory-over",
        "preview-memory-over",
        &["--user", "alice"],
        0,
    ),
    (
        "memory-exhausted",
        "preview-memory-exhausted",
        &["--user", "alice"],
        0,
    ),
    ("memory-off", "preview-memory-off", &["--user", "alice"], 0),
    (
        "memory-hooks-only",
        "preview-memory-hooks-only",
        &["--user", "alice"],
        0,
    ),
    (
        "knowledge-alice",
        "preview-knowledge",
        &["--user", "alice"],
        0,
    ),
    (
        "additional-alice",
        "preview-additional",
        &["--user", "alice"],
        0,
    ),
    (
        "sandbox-workspace",
        "preview-sandbox",
        &["--user", "alice"],
        0,
    ),
    (
        "sandbox-home-user",
        "preview-sandbox",
        &["--user", "alice", "--sandbox-root", "/home/user"],
        0,
    ),
    (
        "sandbox-home-user-2026-08",
        "preview-sandbox",
        &[
            "--user",
            "alice",
            "--sandbox-root",
            "/home/user",
            "--harness",
            "2026-08",
        ],
        0,
    ),
    ("remote-alice", "preview-remote", &["--user", "alice"], 0),
    ("plan-active", "preview-plan", &["--plan", "active"], 0),
    ("plan-recorded", "preview-plan", &["--plan", "recorded"], 0),
    ("no-skills", "preview-no-skills", &[], 0),
    (
        "subagents-alice",
        "preview-subagents",
        &["--user", "alice"],
        0,
    ),
    (
        "subagents-static-alice",
        "preview-subagents-static",
        &["--user", "alice"],
        0,
    ),
];

/// The fixture's absolute path without `..` (what the prompt prints).
fn fixture_dir(name: &str) -> PathBuf {
    fixture(name).canonicalize().expect("fixture folder exists")
}

/// A copy of the fixture at `/tmp/agentws-golden-XXXXXXXX/<name>`: the advertised paths count
/// towards the memory budget, so their length must not depend on where the repository is checked
/// out.
pub(crate) fn fixed_length_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix("agentws-golden-")
        .rand_bytes(8)
        .tempdir_in("/tmp")
        .unwrap();
    // The fixture's own folder name (a release's cases sit two folders deeper).
    let dir = tmp.path().join(Path::new(name).file_name().unwrap());
    copy_tree(&fixture_dir(name), &dir);
    (tmp, dir)
}

/// `agentws preview` of `dir`. These goldens were derived for the runtime that `2026-09` names
/// (2.0.3-SNAPSHOT with #3020 and #3645): a case that does not name a runtime is run under it. The
/// releases' own goldens, from the runtime's classes, are `releases.rs`'.
fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let harness: &[&str] = if args.contains(&"--harness") {
        &[]
    } else {
        &["--harness", "2026-09"]
    };
    Command::cargo_bin("agentws")
        .unwrap()
        .arg("preview")
        .arg(dir)
        .args(MACHINE)
        .args(harness)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn golden_prompts_match_byte_for_byte() {
    let bless = super::expect::updating();
    let mut failures = Vec::new();
    for (case, fixture_name, args, code) in CASES {
        let (_tmp, dir) = fixed_length_copy(fixture_name);
        let output = run(&dir, args);
        let placeholder = dir.to_string_lossy().into_owned();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let expected_path = fixture_dir(fixture_name)
            .join("expected")
            .join(format!("{case}.txt"));
        if bless {
            std::fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
            std::fs::write(&expected_path, stdout.replace(&placeholder, "{FIXTURE}")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()))
            .replace("{FIXTURE}", &placeholder);
        if output.status.code() != Some(*code) {
            failures.push(format!(
                "{case}: exit {:?}, expected {code}",
                output.status.code()
            ));
        }
        if let Some(diff) = super::expect::diff(&expected, &stdout) {
            failures.push(format!("{case}: prompt differs\n{diff}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn notes_go_to_stderr_and_never_into_the_prompt() {
    let dir = fixture_dir("preview-sandbox");
    let output = run(&dir, &["--user", "alice"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("note[sandbox-id]: the runtime prints a random filesystem id"));
    assert!(stderr.contains(
        "note[workspace-directory]: runtime 2.0.3-SNAPSHOT+#3020+#3645: with the #3645 proposal \"The workspace directory is:\" shows the sandbox root"
    ));
    assert!(stderr.starts_with(
        "note[runtime]: AgentScope Harness 2.0.3-SNAPSHOT+#3020+#3645, set for this call (`--harness`, or the preview's context)\n"
    ));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.starts_with("## AgentStateStore Context\n"));
    assert!(!stdout.contains("note["));
}

#[test]
fn json_sections_slice_the_text_in_order() {
    let (_tmp, dir) = fixed_length_copy("preview-memory-over");
    let output = run(&dir, &["--user", "alice", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let text = json["text"].as_str().unwrap();
    let kinds: Vec<&str> = json["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "session-context",
            "guidance",
            "workspace",
            "files-notice",
            "agents-context",
            "memory-context",
            "domain-knowledge-context",
            "subagents"
        ]
    );
    let memory = &json["sections"][5];
    let slice = &text[memory["range"]["start"].as_u64().unwrap() as usize
        ..memory["range"]["end"].as_u64().unwrap() as usize];
    assert!(slice.starts_with("  <memory_context>\n  - 2026-08-01: decision number 1"));
    assert!(slice.ends_with(
        "  \n  ... (memory truncated — use memory_search for older entries) ...\n  </memory_context>\n"
    ));
    let budget = &json["budget"];
    assert_eq!(budget["truncated"], true);
    assert_eq!(budget["memory"], "truncated");
    assert_eq!(budget["maxContextTokens"], 162);
    let used = budget["usedTokens"].as_i64().unwrap();
    assert_eq!(budget["availableTokens"].as_i64().unwrap(), 162 - used);
    assert_eq!(
        budget["cut"]["utf16Offset"].as_i64().unwrap(),
        (162 - used) * 4
    );
    assert_eq!(json["context"]["namespace"], "alice");
    assert!(json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["code"] == "memory-truncated"));
}

#[test]
fn ids_that_change_the_folder_structure_are_refused() {
    let dir = fixture_dir("preview-basic");
    for (flag, id, message) in [
        (
            "--user",
            "../bob",
            "user id `../bob` contains a path separator",
        ),
        (
            "--session",
            "..",
            "session id `..` is a relative path segment",
        ),
        (
            "--user",
            "skills",
            "user id `skills` equals a name the workspace reserves",
        ),
    ] {
        let output = run(&dir, &[flag, id]);
        assert_eq!(output.status.code(), Some(2), "{id}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(message), "{stderr}");
    }
    let output = run(&dir, &["--date", "2026-02-30"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn diff_without_a_second_context_is_a_usage_error() {
    let dir = fixture_dir("preview-basic");
    let output = run(&dir, &["--diff"]);
    assert_eq!(output.status.code(), Some(2));
    let output = run(&dir, &["--diff", "--against-harness", "2026-09"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "same context ⇒ no difference"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn a_50_mb_agents_md_is_capped_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join(".agentscope/workspace");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(tmp.path().join("agentws.toml"), "[agent]\nname = \"a\"\n").unwrap();
    std::fs::write(ws.join("AGENTS.md"), "x".repeat(50 * 1024 * 1024)).unwrap();
    let output = run(tmp.path(), &[]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains(
        "  <agents_context>\n  [agentws: 52428800 bytes not shown — over the preview's read limit]\n  </agents_context>\n"
    ));
    assert!(stdout.len() < 100_000);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("note[stand-in]:"), "{stderr}");
    assert!(stderr.contains("is 52428800 bytes, over the preview's 16 MiB read limit"));
}

#[test]
fn thousands_of_skills_render() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = tmp.path().join(".agentscope/workspace/skills");
    std::fs::write(tmp.path().join("agentws.toml"), "[agent]\nname = \"a\"\n").unwrap();
    for i in 0..3000 {
        let dir = skills.join(format!("skill-{i:05}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: skill-{i:05}\ndescription: Skill number {i}.\n---\nBody.\n"),
        )
        .unwrap();
    }
    let output = run(tmp.path(), &["--scope", "agent"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.matches("<skill>\n").count(), 3000);
    assert!(stdout.contains("<skill-id>skill-02999_workspace-namespaced</skill-id>"));
}

#[test]
fn machine_defaults_come_from_the_kernel_and_tmp() {
    let dir = fixture_dir("preview-no-skills");
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["preview"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let read = |p: &str| std::fs::read_to_string(p).unwrap().trim().to_string();
    let os = format!(
        "My operating system is: {} {}\n",
        read("/proc/sys/kernel/ostype"),
        read("/proc/sys/kernel/osrelease")
    );
    assert!(stdout.contains(&os), "{stdout}");
    assert!(stdout.contains("The project's temporary directory is: /tmp\n"));
    let date = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Today's date is "))
        .unwrap();
    let words: Vec<&str> = date.trim_end_matches('.').split(' ').collect();
    assert_eq!(words.len(), 4, "{date}");
    assert!(
        words[0].ends_with("day") && words[2].ends_with(','),
        "{date}"
    );
}

#[test]
fn json_diff_carries_both_previews() {
    let dir = fixture_dir("preview-basic");
    let output = run(
        &dir,
        &[
            "--user",
            "alice",
            "--diff",
            "--against-harness",
            "2026-08",
            "--format",
            "json",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        json["left"]["context"]["harness"],
        "2.0.3-SNAPSHOT+#3020+#3645"
    );
    assert_eq!(json["right"]["context"]["harness"], "2.0.3-SNAPSHOT");
    let diff = json["diff"].as_str().unwrap();
    assert!(diff.contains("-The workspace directory is: "));
    assert!(diff.contains("/.agentscope/workspace/alice\n+The workspace directory is: "));
}

#[test]
fn dates_in_skill_metadata_are_noted_as_utc() {
    let output = run(&fixture_dir("preview-metadata"), &["--user", "alice"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.lines().any(|l| {
            l
            == "note[time-zone]: dates in skill metadata are shown in UTC; the runtime prints them \
                in its machine's time zone"
        }),
        "{stderr}"
    );
    // Without a date in any skill there is no such note.
    let plain = run(&fixture_dir("preview-basic"), &["--user", "alice"]);
    assert!(!String::from_utf8(plain.stderr)
        .unwrap()
        .contains("time-zone"));
}

/// Each skill and subagent in the JSON sections names its file and the lines of its frontmatter
/// as the runtime splits it: from the first line to the first `---` after the opening one,
/// wherever it is (booking-summary's description holds one on line 3, so its frontmatter ends
/// there).
#[test]
fn json_sources_name_each_frontmatter_by_its_lines() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo");
    let output = run(&demo, &["--user", "alice", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut checked = Vec::new();
    for section in json["sections"].as_array().unwrap() {
        if !matches!(section["kind"].as_str(), Some("skills" | "subagents")) {
            continue;
        }
        for source in section["sources"].as_array().unwrap() {
            let path = PathBuf::from(source["path"].as_str().unwrap());
            let text = std::fs::read_to_string(&path).unwrap();
            let closing = text[..3 + text[3..].find("---").unwrap()]
                .matches('\n')
                .count()
                + 1;
            if path.ends_with("booking-summary/SKILL.md") {
                assert_eq!(closing, 3);
            }
            assert_eq!(
                source["lines"],
                serde_json::json!({"start": 1, "end": closing}),
                "{}",
                path.display()
            );
            checked.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    checked.sort();
    assert_eq!(
        checked,
        [
            "SKILL.md",
            "SKILL.md",
            "SKILL.md",
            "SKILL.md",
            "SKILL.md",
            "fare-auditor.md",
            "itinerary-writer.md"
        ]
    );
}

/// The figures WS017 gives (`agentws check`) are the preview's for the same caller, rendered with
/// the machine facts check uses (`Linux`, `/tmp`, 2026-01-01): one render, two views.
#[test]
fn the_prompt_size_check_reports_is_the_preview_s() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join(".agentscope/workspace");
    let skill = |folder: &str, name: &str, sentences: usize| {
        let path = ws.join(folder).join(name).join("SKILL.md");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let description = "Checks one more thing before a release. ".repeat(sentences);
        let text = format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n");
        std::fs::write(path, text).unwrap();
    };
    for i in 0..40 {
        skill("skills", &format!("check-{i:02}"), 20);
    }
    skill("skills", "audit", 60);
    skill("alice/skills", "alice-only", 30);
    std::fs::write(ws.join("AGENTS.md"), "You help with releases.\n").unwrap();
    std::fs::write(
        dir.path().join("agentws.toml"),
        "[agent]\nname = \"release\"\nmodel = \"kimi:moonshot-v1-8k\"\n",
    )
    .unwrap();

    let check = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--format", "json", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let found: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "WS017")
        .collect();
    let [d] = found.as_slice() else {
        panic!("{report:#}")
    };
    assert_eq!(d["path"], "agentws.toml");
    let message = d["message"].as_str().unwrap();
    let figure = |before: &str| -> usize {
        let rest = &message[message.find(before).unwrap() + before.len()..];
        rest[..rest.find(' ').unwrap()].parse().unwrap()
    };

    let preview = Command::cargo_bin("agentws")
        .unwrap()
        .args(["preview", "--format", "json", "--user", "alice"])
        .args(["--date", "2026-01-01", "--os", "Linux", "--tmp-dir", "/tmp"])
        .arg(dir.path())
        .output()
        .unwrap();
    let preview: serde_json::Value = serde_json::from_slice(&preview.stdout).unwrap();
    let skills = preview["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "skills")
        .unwrap();
    assert!(
        message.starts_with("The system prompt for user `alice` is about "),
        "{message}"
    );
    assert_eq!(figure("is about "), preview["estimatedTokens"]);
    assert_eq!(figure("the skill catalog is "), skills["estimatedTokens"]);
    assert!(
        message.contains("(42 skills), the costliest `audit` ("),
        "{message}"
    );
    assert!(
        message.ends_with("also over it: callers without a per-user folder"),
        "{message}"
    );
}
