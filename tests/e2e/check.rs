//! End-to-end tests of `agentws check` and `agentws explain`: the real binary on fixture
//! workspaces (tests/fixtures/cli-*), every output format, exit codes, path selection, --fix.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

pub use super::support::copy_tree;
use super::support::{assert_snapshot_file, fixture, installed};

/// The binary, run from `tests/fixtures` so shown paths are stable, with no colour variables,
/// found on PATH as `agentws`.
pub fn agentws_in(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("agentws").unwrap();
    installed(&mut cmd)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("AGENTWS_RULES_URL");
    cmd
}

pub fn fixtures_dir() -> PathBuf {
    fixture("")
}

pub fn run(dir: &Path, args: &[&str]) -> Output {
    agentws_in(dir).args(args).output().unwrap()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// `agentws check --format json ARGS` in `dir`: the parsed report and the exit code.
pub fn check_json(dir: &Path, args: &[&str]) -> (Value, i32) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = run(dir, &all);
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(&out), stderr(&out)));
    (json, out.status.code().expect("exited, not killed"))
}

/// Codes of the diagnostics about files whose shown path ends with `suffix`.
pub fn codes_for(report: &Value, suffix: &str) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"].as_str().unwrap().ends_with(suffix))
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Every file below `dir` with its bytes, in path order.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The summary names the next commands as the user can type them: through PATH when it finds
/// this agentws, else by the binary's path (after `cargo run`); and the missing agentws.toml,
/// without which a preview needs `--session`.
#[test]
fn the_summary_names_the_next_commands_as_they_can_be_run() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp
        .path()
        .join("my ws/.agentscope/workspace/skills/weather");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: weather\ndescription: Look up the forecast: rain and wind\n---\nBody\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("my ws/.agentscope/workspace/AGENTS.md"),
        "Be brief.\n",
    )
    .unwrap();
    let summary = |out: &Output| -> Vec<String> {
        stdout(out)
            .lines()
            .skip_while(|l| !l.starts_with("Found "))
            .map(|l| l.replace(tmp.path().to_str().unwrap(), "<tmp>"))
            .collect()
    };
    let out = run(tmp.path(), &["check", "my ws", "--profile", "strict"]);
    assert_eq!(
        summary(&out),
        [
            "Found 0 errors, 1 warning, 0 infos.",
            "1 problem can be fixed with `agentws check --fix --profile strict 'my ws'`.",
            "Run `agentws explain SK013` (or any other code) for what a finding means and how to fix it.",
            "No agentws.toml, so agentws does not know the agent's name, which is the session id of a call that gives none: preview with `agentws preview 'my ws' --session ID` (or write agentws.toml with `[agent] name`).",
        ]
    );
    // Not on PATH: the binary's path, relative to the current folder when below it.
    let bin = assert_cmd::cargo::cargo_bin("agentws")
        .canonicalize()
        .unwrap();
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(bin.parent().unwrap().parent().unwrap())
        .env("PATH", tmp.path())
        .arg("check")
        .arg(tmp.path().join("my ws"))
        .output()
        .unwrap();
    let program = format!(
        "{}/agentws",
        bin.parent().unwrap().file_name().unwrap().to_str().unwrap()
    );
    assert_eq!(
        summary(&out)[1..3],
        [
            format!("1 problem can be fixed with `{program} check --fix '<tmp>/my ws'`."),
            format!("Run `{program} explain SK013` (or any other code) for what a finding means and how to fix it."),
        ]
    );
}

#[test]
fn human_output_snapshot() {
    let out = run(&fixtures_dir(), &["check", "cli-basic"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_snapshot_file("check-cli-basic.txt", &stdout(&out));
}

#[test]
fn json_output_snapshot() {
    let (report, code) = check_json(&fixtures_dir(), &["cli-basic"]);
    assert_eq!(code, 0);
    let mut text = serde_json::to_string_pretty(&report).unwrap();
    text.push('\n');
    assert_snapshot_file("check-cli-basic.json", &text);
}

#[test]
fn json_summary_and_files_checked_match_the_list() {
    let (report, _) = check_json(&fixtures_dir(), &["cli-basic"]);
    assert_eq!(report["version"], 1);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let count = |severity: &str| {
        diagnostics
            .iter()
            .filter(|d| d["severity"] == severity)
            .count()
    };
    assert_eq!(report["summary"]["errors"], count("error"));
    assert_eq!(report["summary"]["warnings"], count("warning"));
    assert_eq!(report["summary"]["infos"], count("info"));
    assert_eq!(
        count("error") + count("warning") + count("info"),
        diagnostics.len()
    );
    // agentws.toml, AGENTS.md, MEMORY.md, one skill, one subagent, tools.json.
    assert_eq!(report["files_checked"], 6);
    let human = stdout(&run(&fixtures_dir(), &["check", "cli-basic"]));
    assert!(
        human.contains(
            "Checked 6 files: 1 agentws.toml, 1 AGENTS.md, 1 MEMORY.md, 1 skill, 1 subagent, 1 tools.json.\n"
        ),
        "{human}"
    );
    for d in diagnostics {
        let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "path",
                "range",
                "severity",
                "code",
                "message",
                "consequence",
                "fixes",
                "related",
                "fingerprint"
            ]
        );
        assert!(!d["path"].as_str().unwrap().contains('\\'));
        assert!(d["range"]["start"]["line"].as_u64().unwrap() >= 1);
        assert!(d["range"]["start"]["column"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn columns_count_unicode_scalar_values() {
    let (report, _) = check_json(&fixtures_dir(), &["cli-basic/agentws.toml"]);
    // `"笔记/灵魂 😀.md"` (12 scalar values, 23 UTF-8 bytes, 13 UTF-16 units) starts at column 40.
    assert_eq!(
        report["diagnostics"][1]["range"],
        serde_json::json!({"start": {"line": 3, "column": 40}, "end": {"line": 3, "column": 52}})
    );
}

#[test]
fn a_single_file_reports_only_that_file() {
    let (report, _) = check_json(
        &fixtures_dir(),
        &["cli-basic/.agentscope/workspace/MEMORY.md"],
    );
    assert_eq!(report["files_checked"], 1);
    assert_eq!(codes_for(&report, ""), ["WS003"]);
    assert_eq!(
        report["diagnostics"][0]["path"],
        "cli-basic/.agentscope/workspace/MEMORY.md"
    );
}

#[test]
fn paths_of_one_project_are_loaded_once() {
    let (whole, _) = check_json(&fixtures_dir(), &["cli-basic"]);
    let (twice, _) = check_json(
        &fixtures_dir(),
        &[
            "cli-basic",
            "cli-basic/.agentscope/workspace/MEMORY.md",
            "cli-basic/.agentscope/workspace/skills",
        ],
    );
    assert_eq!(whole, twice);
}

#[test]
fn paths_are_relative_to_the_current_folder() {
    let dir = fixture("cli-basic");
    let (report, _) = check_json(&dir.join(".agentscope"), &[".."]);
    let paths: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "workspace/MEMORY.md",
            "../agentws.toml",
            "../agentws.toml",
            "../agentws.toml"
        ]
    );
}

#[test]
fn a_missing_path_is_a_usage_error_but_the_others_are_checked() {
    let out = run(&fixtures_dir(), &["check", "no-such-folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read `no-such-folder`"));
    let out = run(
        &fixtures_dir(),
        &[
            "check",
            "--format",
            "concise",
            "no-such-folder",
            "cli-basic",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("cli-basic/.agentscope/workspace/MEMORY.md:1:1: warning[WS003]"));
}

#[test]
fn a_folder_without_workspace_files_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let out = run(dir.path(), &["check", "empty"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("no workspace file found"));
}

#[test]
fn warnings_fail_only_with_error_on_warnings() {
    let out = run(&fixtures_dir(), &["check", "cli-basic"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(
        &fixtures_dir(),
        &["check", "--error-on-warnings", "cli-basic"],
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn concise_and_github_formats() {
    let out = run(
        &fixtures_dir(),
        &["check", "--format", "concise", "cli-basic"],
    );
    assert_eq!(
        stdout(&out),
        "cli-basic/.agentscope/workspace/MEMORY.md:1:1: warning[WS003] `MEMORY.md` in the shared workspace is blank\n\
         cli-basic/agentws.toml:3:29: warning[WS011] additional context file `SOUL.md` exists in no workspace folder\n\
         cli-basic/agentws.toml:3:40: warning[CF012] additional context file `笔记/灵魂 😀.md` lies in `笔记/`, the namespace folder of the user or session id `笔记`: its file tools write `灵魂 😀.md` there, the file every other user's prompt reads\n\
         cli-basic/agentws.toml:3:40: warning[WS011] additional context file `笔记/灵魂 😀.md` exists in no workspace folder\n\
         Checked 6 files: 1 agentws.toml, 1 AGENTS.md, 1 MEMORY.md, 1 skill, 1 subagent, 1 tools.json.\n\
         Found 0 errors, 4 warnings, 0 infos.\n"
    );
    let out = run(
        &fixtures_dir(),
        &["check", "--format", "github", "cli-basic"],
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with(
        "::warning file=cli-basic/agentws.toml,line=3,col=29,endLine=3,endColumn=38,title=WS011::additional context file `SOUL.md` exists in no workspace folder%0A"
    ), "{}", lines[1]);
}

#[test]
fn no_colour_when_not_a_terminal() {
    let out = run(&fixtures_dir(), &["check", "cli-basic"]);
    assert!(!stdout(&out).contains('\x1b'));
}

/// The SARIF 2.1.0 schema shipped inside the serde-sarif crate, located through `cargo metadata`.
pub fn sarif_schema() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--manifest-path",
        ])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "serde-sarif")
        .expect("serde-sarif is a dependency");
    let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap());
    let schema = manifest.parent().unwrap().join("src/schema.json");
    assert!(schema.is_file(), "{} is missing", schema.display());
    schema
}

/// Validates a SARIF document with the PyPI `jsonschema` package. `.ci/run` installs it in a
/// virtual environment and names its interpreter in `AGENTWS_PYTHON`; elsewhere `python3` is used.
pub fn assert_valid_sarif(sarif: &str) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.sarif");
    std::fs::write(&log, sarif).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/tools/validate_sarif.py");
    let python = std::env::var_os("AGENTWS_PYTHON").unwrap_or_else(|| "python3".into());
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(sarif_schema())
        .arg(&log)
        .output()
        .expect("python3 runs (needed for SARIF schema validation; see .ci/run)");
    assert!(
        out.status.success(),
        "SARIF does not validate (python3 -m pip install jsonschema if it is missing):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn sarif_output_validates_against_the_schema() {
    let out = run(
        &fixtures_dir(),
        &["check", "--format", "sarif", "cli-basic"],
    );
    let text = stdout(&out);
    assert_valid_sarif(&text);
    let sarif: Value = serde_json::from_str(&text).unwrap();
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "agentws");
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), agentws::check::catalog::all().count());
    let ws011 = rules.iter().find(|r| r["id"] == "WS011").unwrap();
    assert_eq!(ws011["name"], "additional-context-missing");
    assert_eq!(
        ws011["helpUri"],
        format!("{}#ws011", agentws::rules::docs::DEFAULT_DOCS_URL)
    );
    assert_eq!(ws011["defaultConfiguration"]["level"], "warning");
    assert!(ws011["help"]["markdown"]
        .as_str()
        .unwrap()
        .contains("**Runtime:**"));
    let result = &run0["results"][1];
    assert_eq!(result["ruleId"], "WS011");
    assert_eq!(
        rules[result["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "WS011"
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"],
        serde_json::json!({
            "artifactLocation": {"uri": "cli-basic/agentws.toml"},
            "region": {"startLine": 3, "startColumn": 29, "endLine": 3, "endColumn": 38}
        })
    );
}

/// `AGENTWS_RULES_URL` points SARIF's `helpUri` and `explain`'s link at a mirror; a value that is
/// not an absolute URL is refused on stderr and the default used.
#[test]
fn rule_links_can_point_at_a_mirror() {
    let mirror = "https://git.example.com/agentws/-/blob/main/docs/rules.md";
    let help_uri = |value: &str| {
        let out = agentws_in(&fixtures_dir())
            .env("AGENTWS_RULES_URL", value)
            .args(["check", "--format", "sarif", "cli-basic"])
            .output()
            .unwrap();
        let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rules = &sarif["runs"][0]["tool"]["driver"]["rules"];
        let ws011 = rules
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "WS011");
        (ws011.unwrap()["helpUri"].clone(), stderr(&out))
    };
    assert_eq!(
        help_uri(mirror),
        (Value::from(format!("{mirror}#ws011")), String::new())
    );
    let default = agentws::rules::docs::DEFAULT_DOCS_URL;
    assert_eq!(
        help_uri("docs/rules.md"),
        (
            Value::from(format!("{default}#ws011")),
            format!(
                "warning: AGENTWS_RULES_URL: `docs/rules.md` is not an absolute URL \
                 (scheme://host/path); the rule links use {default}\n"
            )
        )
    );
    let explain = agentws_in(&fixtures_dir())
        .env("AGENTWS_RULES_URL", mirror)
        .args(["explain", "WS011"])
        .output()
        .unwrap();
    assert!(stdout(&explain).ends_with(&format!("\n\nSee {mirror}#ws011\n")));
    // The mirror moves the rule pages; the rule's source stays the repository's.
    let file = "server/src/check/files/additional_context_missing.rs";
    assert!(stdout(&explain).contains(&format!(
        "\nsource: {file} ({}/blob/main/{file})\n\n",
        env!("CARGO_PKG_REPOSITORY")
    )));
}

#[test]
fn nothing_is_written_without_fix() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture("cli-basic"), &dir.path().join("p"));
    let before = contents(dir.path());
    for format in ["human", "concise", "json", "sarif", "github"] {
        run(dir.path(), &["check", "--format", format, "p"]);
    }
    assert_eq!(before, contents(dir.path()));
}

#[test]
fn fix_applies_certain_fixes_and_reports_what_remains() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    copy_tree(&fixture("cli-basic"), &project);
    let skill = project.join(".agentscope/workspace/skills/yes/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    std::fs::write(
        &skill,
        "---\nname: yes\ndescription: Says yes.\n---\nBody\n",
    )
    .unwrap();
    let (before, _) = check_json(dir.path(), &["p"]);
    let fixable: Vec<&Value> = before["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| !d["fixes"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(fixable.len(), 1, "{before:#}");
    // Fixes are serialized with their edits in line/column form.
    assert_eq!(
        fixable[0]["fixes"][0]["edits"],
        serde_json::json!([{
            "path": "p/.agentscope/workspace/skills/yes/SKILL.md",
            "range": {"start": {"line": 2, "column": 7}, "end": {"line": 2, "column": 10}},
            "new_text": "\"yes\""
        }])
    );
    // The SARIF of a report with fixes validates too.
    let sarif = run(dir.path(), &["check", "--format", "sarif", "p"]);
    assert_valid_sarif(&stdout(&sarif));
    let out = run(dir.path(), &["check", "--fix", "p"]);
    let text = stdout(&out);
    assert!(text.contains("Applied 1 fix in 1 file."), "{text}");
    assert!(std::fs::read_to_string(&skill)
        .unwrap()
        .contains("name: \"yes\""));
    let (after, _) = check_json(dir.path(), &["p"]);
    assert!(codes_for(&after, "yes/SKILL.md").is_empty(), "{after:#}");
}

#[test]
fn explain_prints_a_rule_by_code_or_name() {
    let out = run(&fixtures_dir(), &["explain", "ws003"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with("WS003 blank-injected-file\nseverity: warning, profile: harness\n"));
    // The rule's example follows its explanation: the blank MEMORY.md, then the fixed project.
    assert!(
        text.contains(
            "`.agentscope/workspace/MEMORY.md`:\n\n```markdown\n\n```\n\n**Fixed**, not reported:\n"
        ),
        "{text}"
    );
    let by_name = run(&fixtures_dir(), &["explain", "Blank-Injected-File"]);
    assert_eq!(stdout(&by_name), text);
}

#[test]
fn explain_an_unknown_code_suggests_the_closest() {
    let out = run(&fixtures_dir(), &["explain", "blank-injected-fil"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean: WS003 (blank-injected-file)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_list_has_one_line_per_rule() {
    let out = run(&fixtures_dir(), &["explain", "--list"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), agentws::check::catalog::all().count());
    assert!(text
        .lines()
        .any(|l| l.starts_with("WS003  warning  harness  blank-injected-file: ")));
}

/// Runs the binary under a pseudo-terminal (`script` from util-linux) and returns what it printed.
fn on_a_terminal(args: &str, no_color_env: Option<&str>) -> String {
    let bin = assert_cmd::cargo::cargo_bin("agentws");
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &format!("'{}' {args}", bin.display()), "/dev/null"])
        .current_dir(fixtures_dir())
        .env_remove("NO_COLOR");
    if let Some(value) = no_color_env {
        cmd.env("NO_COLOR", value);
    }
    let out = cmd.output().expect("`script` (util-linux) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colour_on_a_terminal_unless_no_color() {
    assert!(on_a_terminal("check cli-basic", None).contains("\x1b["));
    assert!(!on_a_terminal("check cli-basic", Some("1")).contains("\x1b["));
    assert!(!on_a_terminal("check --no-color cli-basic", None).contains("\x1b["));
    // An empty NO_COLOR does not count (no-color.org).
    assert!(on_a_terminal("check cli-basic", Some("")).contains("\x1b["));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["check", "--format", "xml", "cli-basic"][..],
        &["check", "--profile", "lenient", "cli-basic"],
        &["check", "--no-such-option"],
        &["explain"],
    ] {
        let out = run(&fixtures_dir(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn the_strict_profile_only_adds_diagnostics() {
    let (harness, _) = check_json(&fixtures_dir(), &["cli-basic"]);
    let (strict, _) = check_json(&fixtures_dir(), &["--profile", "strict", "cli-basic"]);
    let harness = harness["diagnostics"].as_array().unwrap();
    let strict = strict["diagnostics"].as_array().unwrap();
    assert!(harness.iter().all(|d| strict.contains(d)));
    assert!(strict
        .iter()
        .filter(|d| !harness.contains(d))
        .all(|d| d["code"].as_str().unwrap().starts_with("ST")));
}
