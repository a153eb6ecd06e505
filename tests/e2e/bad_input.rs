//! End-to-end tests of bad input (issue §6): the real binary on workspaces built at test time in
//! a temporary folder. Each case must produce a diagnostic, still check the rest of the workspace,
//! exit with the documented code, and not crash.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::check::{check_json, codes_for, run, stderr};

/// A valid project with one good skill, AGENTS.md and tools.json; returns the workspace folder.
fn project(root: &Path) -> PathBuf {
    let ws = root.join("p/.agentscope/workspace");
    std::fs::create_dir_all(ws.join("skills/good")).unwrap();
    std::fs::write(ws.join("AGENTS.md"), "You are a helpful assistant.\n").unwrap();
    std::fs::write(ws.join("tools.json"), "{}\n").unwrap();
    std::fs::write(
        ws.join("skills/good/SKILL.md"),
        "---\nname: good\ndescription: A skill that is fine.\n---\nBody.\n",
    )
    .unwrap();
    ws
}

fn skill(ws: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = ws.join("skills").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("SKILL.md");
    std::fs::write(&path, bytes).unwrap();
    path
}

fn files_checked(report: &Value) -> u64 {
    report["files_checked"].as_u64().unwrap()
}

/// The good skill is still checked: no diagnostic about it, and it is counted.
fn assert_rest_checked(report: &Value, expected_files: u64) {
    assert!(codes_for(report, "good/SKILL.md").is_empty(), "{report:#}");
    assert_eq!(files_checked(report), expected_files, "{report:#}");
}

#[test]
fn invalid_utf8_skill() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    skill(
        &ws,
        "latin1",
        b"---\nname: caf\xe9\ndescription: x\n---\nBody.\n",
    );
    let (report, code) = check_json(dir.path(), &["p"]);
    assert_eq!(
        codes_for(&report, "latin1/SKILL.md"),
        ["WS004"],
        "{report:#}"
    );
    assert_eq!(code, 1);
    // AGENTS.md, tools.json, two skills.
    assert_rest_checked(&report, 4);
}

#[test]
fn binary_tools_json() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    std::fs::write(
        ws.join("tools.json"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe",
    )
    .unwrap();
    let (report, code) = check_json(dir.path(), &["p"]);
    let diagnostics: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"].as_str().unwrap().ends_with("tools.json"))
        .collect();
    assert_eq!(diagnostics.len(), 1, "{report:#}");
    assert_eq!(diagnostics[0]["code"], "WS004");
    assert!(diagnostics[0]["message"]
        .as_str()
        .unwrap()
        .contains("binary"));
    assert_eq!(code, 1);
    assert_rest_checked(&report, 3);
}

#[test]
fn a_100_mb_skill_is_capped_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let path = skill(&ws, "huge", b"---\nname: huge\ndescription: big\n---\n");
    // Sparse: the size is real, no 100 MB is written.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100 * 1024 * 1024)
        .unwrap();
    let (report, code) = check_json(dir.path(), &["p"]);
    assert_eq!(codes_for(&report, "huge/SKILL.md"), ["WS005"], "{report:#}");
    // WS005 is a warning: the runtime reads the file; agentws only did not look inside.
    assert_eq!(code, 0);
    assert_rest_checked(&report, 4);
}

#[test]
fn symlink_loop_in_skills() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    std::fs::create_dir_all(ws.join("skills/looped")).unwrap();
    std::os::unix::fs::symlink(ws.join("skills"), ws.join("skills/looped/again")).unwrap();
    let (report, code) = check_json(dir.path(), &["p"]);
    let walk: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "WS006")
        .collect();
    assert_eq!(walk.len(), 1, "{report:#}");
    assert!(walk[0]["message"].as_str().unwrap().contains("loop"));
    assert_eq!(code, 0);
    assert_rest_checked(&report, 3);
}

/// Whether this process can read a file whose permissions forbid it (root, CAP_DAC_OVERRIDE).
fn reads_despite_permissions(path: &Path) -> bool {
    std::fs::read(path).is_ok()
}

#[test]
fn unreadable_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let path = skill(
        &ws,
        "locked",
        b"---\nname: locked\ndescription: x\n---\nBody.\n",
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    let (report, code) = check_json(dir.path(), &["p"]);
    if reads_despite_permissions(&path) {
        // As root (CI) the permission bits do not stop reads: the skill is simply checked, like
        // the runtime would read it.
        assert!(
            codes_for(&report, "locked/SKILL.md").is_empty(),
            "{report:#}"
        );
        assert_eq!(code, 0);
    } else {
        assert_eq!(
            codes_for(&report, "locked/SKILL.md"),
            ["WS007"],
            "{report:#}"
        );
        assert_eq!(code, 1);
    }
    assert_rest_checked(&report, 4);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
}

#[test]
fn unreadable_folder() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let path = skill(
        &ws,
        "hidden",
        b"---\nname: hidden\ndescription: x\n---\nBody.\n",
    );
    let folder = path.parent().unwrap().to_path_buf();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o000)).unwrap();
    let privileged = std::fs::read_dir(&folder).is_ok();
    let (report, code) = check_json(dir.path(), &["p"]);
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code, 0, "{report:#}");
    if privileged {
        // As root the folder is walked and its skill checked.
        assert!(
            codes_for(&report, "hidden/SKILL.md").is_empty(),
            "{report:#}"
        );
        assert_rest_checked(&report, 4);
    } else {
        assert_eq!(codes_for(&report, "skills/hidden"), ["WS006"], "{report:#}");
        assert_rest_checked(&report, 3);
    }
}

/// Runs `check --format json p` in `dir`, asserts a normal exit and that the rest of the
/// workspace was checked, and returns the report.
fn check_without_crash(dir: &Path, expected_files: u64) -> Value {
    let out = run(dir, &["check", "--format", "json", "p"]);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0) | Some(1)),
        "exit {code:?}\n{}",
        stderr(&out)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_rest_checked(&report, expected_files);
    report
}

/// The message of the diagnostic with `code` about the file ending with `suffix`.
fn message_of<'a>(report: &'a Value, suffix: &str, code: &str) -> &'a str {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"].as_str().unwrap().ends_with(suffix) && d["code"] == code)
        .and_then(|d| d["message"].as_str())
        .unwrap_or_default()
}

#[test]
fn yaml_billion_laughs() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let lols = ["\"lol\""; 9].join(",");
    let mut yaml = format!("---\nname: laughs\ndescription: x\na: &a [{lols}]\n");
    let mut previous = 'a';
    for level in 'b'..='j' {
        let refs = vec![format!("*{previous}"); 9].join(",");
        yaml.push_str(&format!("{level}: &{level} [{refs}]\n"));
        previous = level;
    }
    yaml.push_str("---\nBody\n");
    skill(&ws, "laughs", yaml.as_bytes());
    let report = check_without_crash(dir.path(), 4);
    assert_eq!(
        codes_for(&report, "laughs/SKILL.md"),
        ["SK013"],
        "{report:#}"
    );
    assert!(message_of(&report, "laughs/SKILL.md", "SK013").contains("aliases"));
}

#[test]
fn yaml_nested_10000_deep() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    // Closed, the frontmatter is longer than SnakeYAML reads: the runtime sees no metadata.
    let closed = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let text = format!("---\nname: deep\ndescription: {closed}\n---\nBody\n");
    skill(&ws, "deep", text.as_bytes());
    // Unclosed, it fits the length limit and hits the nesting budget.
    let open = "[".repeat(10_000);
    let text = format!("---\nname: open\ndescription: {open}\n---\nBody\n");
    skill(&ws, "open", text.as_bytes());
    let report = check_without_crash(dir.path(), 5);
    assert_eq!(codes_for(&report, "deep/SKILL.md"), ["SK012"], "{report:#}");
    // (Plus SK020: the fallback line parser keeps the 10,000-character description.)
    assert!(
        codes_for(&report, "open/SKILL.md").contains(&"SK013".to_string()),
        "{report:#}"
    );
    assert!(message_of(&report, "open/SKILL.md", "SK013").contains("recursion limit"));
}

#[test]
fn yaml_nested_10000_deep_in_a_subagent() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    std::fs::create_dir_all(ws.join("subagents")).unwrap();
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    std::fs::write(
        ws.join("subagents/deep.md"),
        format!("---\nname: deep\ndescription: {deep}\n---\nBody\n"),
    )
    .unwrap();
    let report = check_without_crash(dir.path(), 4);
    assert!(
        !codes_for(&report, "subagents/deep.md").is_empty(),
        "{report:#}"
    );
}

#[test]
fn json_nested_10000_deep() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let deep = format!(
        "{{\"mcpServers\": {}{}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    std::fs::write(ws.join("tools.json"), deep).unwrap();
    let report = check_without_crash(dir.path(), 3);
    assert!(!codes_for(&report, "tools.json").is_empty(), "{report:#}");
}

/// A folder name, a line of a file and a stored key holding terminal escape sequences (a title
/// change, a screen clear, a colour, a bidirectional override): the human, concise and github
/// formats and the store's notes show them as escapes, so nothing reaches the terminal raw; JSON
/// keeps the exact text, escaped by JSON itself.
#[test]
fn escape_sequences_in_names_lines_and_stored_keys_reach_no_terminal() {
    use super::stores::{file_value, seed_sqlite, template_with, Layout, Row};
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nurl = \"sqlite://store.db\"\n");
    let ws = project.join(".agentscope/workspace");
    let folder = "evil\u{1b}]0;owned\u{7}\u{1b}[2J\u{202e}";
    skill(
        &ws,
        folder,
        b"---\nname: yes\ndescription: A \x1b[31mred\x1b[0m skill\n---\nBody.\n",
    );
    let stored = Row {
        owner: "alice",
        segment: "skills",
        key: "/t\u{1b}[2Jx/SKILL.md",
        value: file_value("---\nname: yes\ndescription: Stored.\n---\nBody.\n"),
    };
    seed_sqlite(&project.join("store.db"), Layout::Jdbc, &[stored]);
    let raw = |c: char| move |text: &str| text.contains(c);
    for format in ["human", "concise", "github"] {
        let out = run(&project, &["check", "--all-users", "--format", format]);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for c in ['\u{1b}', '\u{7}', '\u{202e}'] {
            assert!(!raw(c)(&text), "{format} prints {c:?} raw:\n{text}");
        }
        assert!(
            text.contains("evil\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{202e}"),
            "{format}:\n{text}"
        );
        assert!(text.contains("t\\u{1b}[2Jx"), "{format}:\n{text}");
    }
    let human = run(&project, &["check", "--format", "human"]);
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(
        human.contains("3 | description: A \\u{1b}[31mred\\u{1b}[0m skill"),
        "{human}"
    );
    let json = run(&project, &["check", "--all-users", "--format", "json"]);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let paths: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert!(paths.iter().any(|p| p.contains(folder)), "{paths:?}");
}
