//! What a team decides about its findings, end to end over the real binary: `[rules]` levels and
//! `[rules.per-path]` in agentws.toml (and their mistakes, reported where they are), suppression
//! comments in each syntax (YAML frontmatter, Markdown, agentws.toml), unused and unknown ones and
//! their fix, reasons required, a baseline written and read back across shifted and edited files,
//! SARIF with fingerprints, baseline states and suppressions (validated against the 2.1.0 schema),
//! the preview's notes, `explain`, and the language server's quick fixes and reload.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::check::{assert_valid_sarif, run, stderr, stdout};
use super::lsp::client::{Client, Options};

const TOML: &str = "[agent]\nname = \"travel\"\n";
const AGENTS: &str = "You plan trips.\n";
/// A skill with a retyped date (SK023 at 4:10) and a body naming a denied tool.
const VISA: &str =
    "---\nname: visa\ndescription: Check visas.\ncreated: 2024-01-01\n---\nAsk for the passport.\n";
/// A skill whose name differs from its folder (ST003 under strict) and a dropped-key trap.
const LEGACY: &str =
    "---\nname: old-flights\ndescription: Old flight search.\n---\nSearch flights.\n";
/// A subagent naming a skill that does not exist (XR004 at 3:10).
const WRITER: &str = "---\ndescription: Writes itineraries.\nskills: [nope]\n---\nWrite.\n";

struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new(toml: &str) -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("p");
        let ws = root.join(".agentscope/workspace");
        for (rel, text) in [
            ("AGENTS.md", AGENTS),
            ("skills/visa/SKILL.md", VISA),
            ("skills/legacy-flights/SKILL.md", LEGACY),
            ("subagents/writer.md", WRITER),
        ] {
            let path = ws.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::write(root.join("agentws.toml"), toml).unwrap();
        Project { _dir: dir, root }
    }

    fn ws(&self, rel: &str) -> PathBuf {
        self.root.join(".agentscope/workspace").join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.ws(rel), text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.ws(rel)).unwrap()
    }

    /// `check --format concise` lines (the summary included) and the exit code.
    fn concise(&self, extra: &[&str]) -> (Vec<String>, i32) {
        let mut args = vec!["check", "--format", "concise"];
        args.extend_from_slice(extra);
        let out = run(&self.root, &args);
        let lines = stdout(&out).lines().map(str::to_string).collect();
        (lines, out.status.code().unwrap())
    }

    fn json(&self, extra: &[&str]) -> Value {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        let out = run(&self.root, &args);
        serde_json::from_str(&stdout(&out))
            .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)))
    }
}

/// `path:line:col: severity[CODE]` of each diagnostic line, without the message.
fn heads(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter(|l| l.starts_with(".agentscope") || l.starts_with("agentws.toml"))
        .map(|l| &l[..l.find(']').unwrap() + 1])
        .collect()
}

#[test]
fn levels_per_rule_family_and_path_apply_in_order() {
    let plain = Project::new(TOML);
    assert_eq!(
        heads(&plain.concise(&[]).0),
        [
            ".agentscope/workspace/skills/visa/SKILL.md:4:10: warning[SK023]",
            ".agentscope/workspace/subagents/writer.md:3:10: warning[XR004]",
        ]
    );
    let p = Project::new(&format!(
        "{TOML}\n[rules]\nSK = \"error\"\nXR004 = \"info\"\nST = \"warning\"\nST001 = \"off\"\n\n\
         [rules.per-path]\n\"skills/**\" = {{ ST003 = \"info\" }}\n\
         \"skills/legacy-*/**\" = {{ ST = \"off\" }}\n\"subagents/*.md\" = {{ XR = \"warning\" }}\n"
    ));
    let (lines, code) = p.concise(&[]);
    assert_eq!(
        heads(&lines),
        [
            // `ST = "warning"` turns the strict rules on: `created` is no specification key.
            ".agentscope/workspace/skills/visa/SKILL.md:4:1: warning[ST007]",
            ".agentscope/workspace/skills/visa/SKILL.md:4:10: error[SK023]",
            ".agentscope/workspace/subagents/writer.md:3:10: warning[XR004]",
        ],
        "{lines:#?}"
    );
    assert_eq!(code, 1, "an error is an error whatever level made it one");
    assert!(
        lines
            .contains(&"Suppressed 1 finding (1 by [rules.per-path] of agentws.toml).".to_string()),
        "{lines:#?}"
    );
    // The most specific glob wins for the legacy folder: the strict rules are off there, so its
    // name that differs from its folder (ST002, on for skills/**) is suppressed.
    let report = p.json(&[]);
    let suppressed = &report["suppressed"][0];
    assert_eq!(suppressed["code"], "ST002");
    assert_eq!(suppressed["suppression"]["kind"], "external");
    assert_eq!(
        suppressed["suppression"]["justification"],
        "agentws.toml [rules.per-path] \"skills/legacy-*/**\" ST"
    );
}

#[test]
fn mistakes_in_the_settings_are_reported_at_their_key_and_the_rest_applies() {
    let p = Project::new(&format!(
        "{TOML}\n[rules]\nSK23 = \"off\"\nSK023 = \"of\"\nsk099 = \"off\"\nXR004 = \"off\"\n\n\
         [rules.per-path]\n\"skills/[\" = {{ SK023 = \"off\" }}\n\"x/**\" = {{ XR = 1 }}\n"
    ));
    let (lines, _) = p.concise(&[]);
    let config: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("agentws.toml"))
        .collect();
    assert_eq!(
        config,
        [
            "agentws.toml:5:1: warning[CF013] `SK23` selects no rule, so its level \"off\" changes nothing; did you mean `SK023`?",
            "agentws.toml:6:9: error[CF004] `rules.SK023` must be \"error\", \"warning\", \"info\" or \"off\", not \"of\" (did you mean \"off\"?); the setting is ignored",
            "agentws.toml:7:1: warning[CF002] unknown key `sk099` in [rules] is ignored; did you mean `SK099`?",
            "agentws.toml:11:1: error[CF004] `rules.per-path` must be a glob, and `skills/[` is not one: unclosed character class; missing ']'; the setting is ignored",
            "agentws.toml:12:17: error[CF003] `rules.per-path XR` must be a level (\"error\", \"warning\", \"info\" or \"off\"), not an integer; the setting is ignored",
        ],
        "{lines:#?}"
    );
    // XR004 = "off" still applies; SK023 keeps its own level.
    assert!(!lines.iter().any(|l| l.contains("[XR004]")));
    assert!(lines.iter().any(|l| l.contains("warning[SK023]")));
}

#[test]
fn comments_suppress_in_frontmatter_markdown_and_agentws_toml() {
    let p = Project::new(&format!(
        "{TOML}# agentws: ignore-file CF002 -- kept for the next release\nextra = 1\n\n\
         [rules.per-path]\n\"tools.json\" = {{ TJ = \"off\" }}\n"
    ));
    std::fs::write(p.ws("tools.json"), "{\"deny\": [\"execute\"]}\n").unwrap();
    p.write(
        "skills/visa/SKILL.md",
        &VISA.replace(
            "created: 2024-01-01",
            "created: 2024-01-01 # agentws: ignore SK023 -- the date is meant as text",
        ),
    );
    p.write(
        "subagents/writer.md",
        &WRITER.replace("skills: [nope]", "# agentws: ignore XR004\nskills: [nope]"),
    );
    p.write(
        "AGENTS.md",
        "<!-- agentws: ignore-file XR010 -- the shell is back next week -->\nYou plan trips. Use `execute` to book.\n",
    );
    let report = p.json(&[]);
    assert_eq!(report["diagnostics"], json!([]), "{report:#}");
    let suppressed: Vec<(&str, &str, &str)> = report["suppressed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["code"].as_str().unwrap(),
                s["suppression"]["kind"].as_str().unwrap(),
                s["suppression"]["justification"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        suppressed,
        [
            ("XR010", "inSource", "the shell is back next week"),
            ("SK023", "inSource", "the date is meant as text"),
            ("XR004", "inSource", ""),
            (
                "TJ029",
                "external",
                "agentws.toml [rules.per-path] \"tools.json\" TJ"
            ),
            (
                "TJ030",
                "external",
                "agentws.toml [rules.per-path] \"tools.json\" TJ"
            ),
            ("CF002", "inSource", "kept for the next release"),
        ]
    );
    p.write("AGENTS.md", "You plan trips. Use `execute` to book.\n");
    // An HTML comment for the next line in a skill's body.
    p.write(
        "skills/visa/SKILL.md",
        &VISA.replace(
            "Ask for the passport.",
            "<!-- agentws: ignore XR010 -->\nRun `execute` to book.\nThen `execute` again.",
        ),
    );
    let (lines, _) = p.concise(&[]);
    let xr010: Vec<&String> = lines.iter().filter(|l| l.contains("XR010")).collect();
    assert_eq!(xr010.len(), 2, "{lines:#?}");
    // Line 7 (after the comment) is suppressed, line 8 is not.
    assert!(
        xr010
            .iter()
            .any(|l| l.starts_with(".agentscope/workspace/skills/visa/SKILL.md:8:")),
        "{lines:#?}"
    );
    assert!(
        xr010
            .iter()
            .any(|l| l.starts_with(".agentscope/workspace/AGENTS.md:1:")),
        "{lines:#?}"
    );
}

#[test]
fn unused_and_unknown_suppressions_are_reported_and_fixed() {
    let p = Project::new(TOML);
    p.write(
        "skills/visa/SKILL.md",
        &VISA
            .replace("name: visa", "name: visa # agentws: ignore SK023, SK99")
            .replace(
                "created: 2024-01-01",
                "created: 2024-01-01 # agentws: ignroe SK023",
            ),
    );
    p.write(
        "AGENTS.md",
        "<!-- agentws: ignore WS003 -->\nYou plan trips.\n",
    );
    let (lines, _) = p.concise(&[]);
    let ig: Vec<&String> = lines.iter().filter(|l| l.contains("[IG")).collect();
    assert_eq!(
        ig,
        [
            ".agentscope/workspace/AGENTS.md:1:22: warning[IG001] this suppression of WS003 suppresses nothing: WS003 reports nothing where the comment reaches",
            ".agentscope/workspace/skills/visa/SKILL.md:2:30: warning[IG001] this suppression of SK023 suppresses nothing: SK023 reports nothing where the comment reaches",
            ".agentscope/workspace/skills/visa/SKILL.md:2:37: warning[IG002] `SK99` is not a rule code, so nothing is suppressed by it",
            ".agentscope/workspace/skills/visa/SKILL.md:4:32: warning[IG002] `agentws: ignroe` is not a suppression (the words are `ignore` and `ignore-file`); did you mean `ignore`?",
        ],
        "{lines:#?}"
    );
    // The fix takes the unused code out (SK99 stays: it is reported as unknown, not unused), and
    // the whole comment where it names nothing else.
    let out = run(&p.root, &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(p.read("AGENTS.md"), "You plan trips.\n");
    assert!(
        p.read("skills/visa/SKILL.md")
            .contains("name: visa # agentws: ignore SK99\n"),
        "{}",
        p.read("skills/visa/SKILL.md")
    );
}

#[test]
fn a_required_reason_is_asked_by_the_flag_or_the_setting() {
    let p = Project::new(TOML);
    p.write(
        "skills/visa/SKILL.md",
        &VISA.replace(
            "created: 2024-01-01",
            "created: 2024-01-01 # agentws: ignore SK023",
        ),
    );
    assert_eq!(
        heads(&p.concise(&[]).0),
        [".agentscope/workspace/subagents/writer.md:3:10: warning[XR004]"]
    );
    let expected = [
        ".agentscope/workspace/skills/visa/SKILL.md:4:10: warning[SK023]",
        ".agentscope/workspace/skills/visa/SKILL.md:4:39: warning[IG003]",
        ".agentscope/workspace/subagents/writer.md:3:10: warning[XR004]",
    ];
    let (lines, _) = p.concise(&["--require-reason"]);
    assert_eq!(heads(&lines), expected);
    std::fs::write(
        p.root.join("agentws.toml"),
        format!("{TOML}[rules]\nrequire-reason = true\n"),
    )
    .unwrap();
    assert_eq!(heads(&p.concise(&[]).0), expected);
    // With the reason, nothing.
    p.write(
        "skills/visa/SKILL.md",
        &VISA.replace(
            "created: 2024-01-01",
            "created: 2024-01-01 # agentws: ignore SK023 -- text",
        ),
    );
    assert_eq!(
        heads(&p.concise(&[]).0),
        [".agentscope/workspace/subagents/writer.md:3:10: warning[XR004]"]
    );
}

#[test]
fn a_baseline_keeps_old_findings_quiet_across_unrelated_edits() {
    let p = Project::new(TOML);
    let baseline = p.root.join("agentws-baseline.json");
    let out = run(
        &p.root,
        &["check", "--write-baseline", "agentws-baseline.json"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "wrote 2 findings to the baseline `agentws-baseline.json`\n"
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    let entries: Vec<(&str, &str)> = written["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap(), e["rule"].as_str().unwrap()))
        .collect();
    assert_eq!(
        entries,
        [
            (".agentscope/workspace/skills/visa/SKILL.md", "SK023"),
            (".agentscope/workspace/subagents/writer.md", "XR004"),
        ]
    );
    let (lines, code) = p.concise(&["--baseline", "agentws-baseline.json"]);
    assert_eq!(code, 0);
    assert_eq!(
        lines.last().unwrap(),
        "2 findings are in the baseline `agentws-baseline.json`."
    );

    // Lines added above, keys reordered: still the same findings. A new problem is new.
    p.write(
        "skills/visa/SKILL.md",
        "---\ndescription: Check visas.\n\nlicense: MIT\ncreated: 2024-01-01\nname: visa\n---\nAsk.\n",
    );
    p.write(
        "subagents/writer.md",
        &WRITER.replace(
            "description: Writes itineraries.",
            "description: Writes itineraries.\n\ncolor: blue",
        ),
    );
    let (lines, code) = p.concise(&["--baseline", "agentws-baseline.json"]);
    assert_eq!(
        heads(&lines),
        [".agentscope/workspace/subagents/writer.md:4:1: info[SA016]"],
        "{lines:#?}"
    );
    assert_eq!(code, 0);
    // The flagged line edited: that finding is new, its entry no longer matches.
    p.write(
        "subagents/writer.md",
        &WRITER.replace("skills: [nope]", "skills: [nada]"),
    );
    let report = p.json(&["--baseline", "agentws-baseline.json"]);
    assert_eq!(report["diagnostics"][0]["code"], "XR004", "{report:#}");
    assert_eq!(report["diagnostics"][0]["baseline_state"], "new");
    assert_eq!(report["baseline"]["unchanged"][0]["code"], "SK023");
    assert_eq!(report["baseline"]["absent"][0]["rule"], "XR004");
    assert_eq!(report["summary"]["warnings"], 1);
    let (lines, _) = p.concise(&["--baseline", "agentws-baseline.json"]);
    assert_eq!(
        lines.last().unwrap(),
        "1 finding is in the baseline `agentws-baseline.json`; 1 entry of it no longer matches \
         (`agentws check --write-baseline agentws-baseline.json` drops it)."
    );
    // From another folder, the baseline's paths still resolve (they are relative to it).
    let out = run(
        &p.root.join(".agentscope"),
        &[
            "check",
            "--format",
            "json",
            "--baseline",
            "../agentws-baseline.json",
            "..",
        ],
    );
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["baseline"]["unchanged"][0]["code"], "SK023");
    assert_eq!(
        report["baseline"]["absent"][0]["path"],
        "workspace/subagents/writer.md"
    );
    // A baseline that is not one is a usage error.
    std::fs::write(&baseline, "{\"version\": 9, \"findings\": []}").unwrap();
    let out = run(&p.root, &["check", "--baseline", "agentws-baseline.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has version 9; this agentws reads version 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sarif_tracks_findings_and_says_what_is_suppressed_or_baselined() {
    let p = Project::new(&format!(
        "{TOML}\n[rules.per-path]\n\"subagents/**\" = {{ XR004 = \"off\" }}\n"
    ));
    p.write(
        "skills/visa/SKILL.md",
        &VISA.replace(
            "created: 2024-01-01",
            "created: 2024-01-01 # agentws: ignore SK023 -- text",
        ),
    );
    p.write(
        "skills/legacy-flights/SKILL.md",
        "---\nname: legacy-flights\ndescription: Old.\nmodified: 2024-02-02\n---\nBody.\n",
    );
    let out = run(&p.root, &["check", "--write-baseline", "base.json"]);
    assert_eq!(out.status.code(), Some(0));
    p.write(
        "skills/legacy-flights/SKILL.md",
        "---\nname: legacy-flights\ndescription: Old.\nmodified: 2024-03-03\n---\nBody.\n",
    );
    let out = run(
        &p.root,
        &["check", "--format", "sarif", "--baseline", "base.json"],
    );
    let text = stdout(&out);
    assert_valid_sarif(&text);
    let sarif: Value = serde_json::from_str(&text).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let summary: Vec<(&str, Option<&str>, Option<&str>)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap(),
                r["baselineState"].as_str(),
                r["suppressions"][0]["kind"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("SK023", Some("new"), None),
            ("SK023", Some("absent"), None),
            ("SK023", None, Some("inSource")),
            ("XR004", None, Some("external")),
        ]
    );
    for r in results {
        let fingerprint = r["partialFingerprints"]["agentws/v1"].as_str().unwrap();
        assert!(fingerprint.ends_with(":1"), "{fingerprint}");
    }
    assert_eq!(results[2]["suppressions"][0]["justification"], "text");
    assert_eq!(
        sarif["runs"][0]["tool"]["driver"]["version"],
        env!("CARGO_PKG_VERSION")
    );
}

#[test]
fn preview_notes_follow_the_settings() {
    let p = Project::new(&format!("{TOML}\n[isolation]\nscope = \"user\"\n"));
    let nested = p.ws("skills/group/nested/SKILL.md");
    std::fs::create_dir_all(nested.parent().unwrap()).unwrap();
    std::fs::write(
        &nested,
        "---\nname: nested\ndescription: Nested.\n---\nBody.\n",
    )
    .unwrap();
    let notes = |p: &Project| -> Vec<String> {
        let out = run(
            &p.root,
            &["preview", "--user", "alice", "--format", "json", "."],
        );
        let preview: Value = serde_json::from_str(&stdout(&out)).unwrap();
        preview["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["rule"].as_str().map(str::to_string))
            .collect()
    };
    assert!(notes(&p).contains(&"SK017".to_string()));
    std::fs::write(
        p.root.join("agentws.toml"),
        format!("{TOML}\n[rules.per-path]\n\"skills/group/**\" = {{ SK017 = \"off\" }}\n"),
    )
    .unwrap();
    assert!(!notes(&p).contains(&"SK017".to_string()));
    let (lines, _) = p.concise(&[]);
    assert!(!lines.iter().any(|l| l.contains("SK017")), "{lines:#?}");
}

#[test]
fn explain_says_what_the_project_does_to_a_rule() {
    let p = Project::new(&format!(
        "{TOML}\n[rules]\nXR = \"warning\"\n\n[rules.per-path]\n\"skills/legacy-*/**\" = {{ XR004 = \"off\" }}\n"
    ));
    let out = run(&p.root, &["explain", "XR004"]);
    let text = stdout(&out);
    let tail = &text[text.find("In this project").unwrap()..];
    assert_eq!(
        tail,
        format!(
            "In this project ({}), the settings change its level:\n\
             - `warning` everywhere (`[rules] XR = \"warning\"`)\n\
             - `off` for files matching `skills/legacy-*/**` (`[rules.per-path]`, `XR004`)\n\
             (The most specific glob comes first, then the later one; a suppression comment in a \
             file comes after these.)\n",
            p.root.join("agentws.toml").display()
        )
    );
    assert!(!stdout(&run(&p.root, &["explain", "SK001"])).contains("In this project"));
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The language server offers "ignore" quick fixes in each file's syntax, applying one quiets
/// the diagnostic, the unused comment's fix removes it, and an agentws.toml change re-settles
/// every file.
#[test]
fn the_language_server_offers_ignore_fixes_and_reloads_the_settings() {
    let p = Project::new(TOML);
    let (mut client, _) = Client::start(&[&p.root], Options::default());
    let visa = p.ws("skills/visa/SKILL.md");
    let visa_uri = uri(&visa);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": visa_uri, "languageId": "markdown", "version": 1, "text": VISA}}),
    );
    let published = client.wait_diagnostics(&visa_uri);
    assert_eq!(published["diagnostics"][0]["code"], "SK023");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": visa_uri},
            "range": {"start": {"line": 3, "character": 9}, "end": {"line": 3, "character": 9}},
            "context": {"diagnostics": []}
        }),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Quote `2024-01-01` so it stays a string",
            "Ignore SK023 on this line",
            "Ignore SK023 in this file",
            "Turn SK023 off for this file in agentws.toml"
        ],
        "{actions:#}"
    );
    let edit = &actions[1]["edit"]["changes"][visa_uri.as_str()][0];
    assert_eq!(edit["newText"], " # agentws: ignore SK023");
    assert_eq!(edit["range"]["start"], json!({"line": 3, "character": 19}));
    let toml_edit = &actions[3]["edit"]["changes"][uri(&p.root.join("agentws.toml")).as_str()][0];
    assert_eq!(
        toml_edit["newText"],
        "\n[rules.per-path]\n\"skills/visa/SKILL.md\" = { SK023 = \"off\" }\n"
    );
    // Applied as the editor would: the diagnostic goes.
    let suppressed = VISA.replace(
        "created: 2024-01-01",
        "created: 2024-01-01 # agentws: ignore SK023",
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": visa_uri, "version": 2}, "contentChanges": [{"text": suppressed}]}),
    );
    let published = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2
    });
    assert_eq!(published["params"]["diagnostics"], json!([]));
    // The comment left after the problem is fixed: IG001, whose fix removes it.
    let fixed = suppressed.replace("2024-01-01 #", "\"2024-01-01\" #");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": visa_uri, "version": 3}, "contentChanges": [{"text": fixed}]}),
    );
    let published = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 3
    });
    assert_eq!(published["params"]["diagnostics"][0]["code"], "IG001");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": visa_uri},
            "range": published["params"]["diagnostics"][0]["range"],
            "context": {"diagnostics": []}
        }),
    );
    assert_eq!(actions[0]["title"], "Remove the suppression comment");
    assert_eq!(actions.as_array().unwrap().len(), 1, "{actions:#}");
    // agentws.toml turns XR off: the subagent's XR004 goes without the subagent being touched.
    let writer_uri = uri(&p.ws("subagents/writer.md"));
    std::fs::write(
        p.root.join("agentws.toml"),
        format!("{TOML}[rules]\nXR = \"off\"\n"),
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&p.root.join("agentws.toml")), "type": 2}]}),
    );
    let published = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == writer_uri.as_str()
            && m["params"]["diagnostics"] == json!([])
    });
    assert_eq!(published["params"]["diagnostics"], json!([]));
    client.shutdown();
}
