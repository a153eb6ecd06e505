//! Remote stores (docs/stores.md): the real binary reading stores seeded exactly as the Java
//! stores write them, from one fixture description shared by every backend's tests.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// One stored row as the runtime writes it: owner, route segment, key, value JSON. The owner is a
/// user id, or `@sessions:<id>` (a session id), `@shared` (scope agent) or `@global`.
pub struct Row {
    pub owner: &'static str,
    pub segment: &'static str,
    pub key: &'static str,
    pub value: String,
}

pub const AGENT: &str = "bot";

/// `fileDataToStoreValue`: the JSON map Jackson writes (key order is unspecified in Java).
pub fn file_value(content: &str) -> String {
    serde_json::json!({
        "content": content,
        "encoding": "utf-8",
        "created_at": "2026-11-30T10:00:00Z",
        "modified_at": "2026-11-30T10:00:00.123Z",
    })
    .to_string()
}

pub const ALICE_AGENTS: &str = "# Alice\nAnswer in French.\n";
pub const ALICE_MEMORY: &str = "- Alice takes the 8:02 train.\n";
pub const TRAINS_SKILL: &str =
    "---\nname: trains\ndescription: Look up train timetables.\n---\nUse the timetable API.\n";
pub const PLANNER: &str = "---\nname: planner\ndescription: Plans trips.\n---\nYou plan trips.\n";
/// A skill whose frontmatter is never closed: the runtime drops it.
pub const BROKEN_SKILL: &str = "---\nname: broken\ndescription: never closed\n";

/// The clean store: alice with her own files, bob with one broken skill.
pub fn clean_rows() -> Vec<Row> {
    let row = |owner, segment, key, content: &str| Row {
        owner,
        segment,
        key,
        value: file_value(content),
    };
    vec![
        row("alice", "root", "/AGENTS.md", ALICE_AGENTS),
        row("alice", "root", "/MEMORY.md", ALICE_MEMORY),
        row("alice", "skills", "/trains/SKILL.md", TRAINS_SKILL),
        row("alice", "subagents", "/planner.md", PLANNER),
        row("bob", "skills", "/broken/SKILL.md", BROKEN_SKILL),
    ]
}

/// Rows with one store-level problem each, and the rule each must raise.
pub fn problem_rows() -> Vec<(Row, &'static str)> {
    let row = |key, segment, value: String| Row {
        owner: "carol",
        segment,
        key,
        value,
    };
    vec![
        (row("x/SKILL.md", "skills", file_value("x")), "RS001"),
        (row("/a//SKILL.md", "skills", file_value("x")), "RS002"),
        (row("/NOTES.md", "root", file_value("x")), "RS003"),
        (row("/bad/SKILL.md", "skills", "[1,2]".into()), "RS004"),
        (
            row(
                "/empty/SKILL.md",
                "skills",
                r#"{"encoding":"utf-8"}"#.into(),
            ),
            "RS005",
        ),
        (row("/tools.json", "root", file_value("{}")), "RS013"),
        (
            row(
                "/enc/SKILL.md",
                "skills",
                r#"{"content":"LS0t","encoding":"base64"}"#.into(),
            ),
            "RS006",
        ),
        (row("/MEMORY.md", "root", file_value("")), "RS015"),
    ]
}

/// `RemoteFilesystemSpec.storeNamespace` of a row's owner (see [`Row`]), plus its segment.
fn namespace(owner: &str, segment: &str) -> Vec<String> {
    let mut ns: Vec<&str> = match owner.strip_prefix('@') {
        Some("global") => vec!["global"],
        Some("shared") => vec!["agents", AGENT, "shared"],
        Some(other) => {
            let (kind, id) = other.split_once(':').expect("@sessions:<id>");
            vec!["agents", AGENT, kind, id]
        }
        None => vec!["agents", AGENT, "users", owner],
    };
    ns.push(segment);
    ns.into_iter().map(String::from).collect()
}

/// One isolation scope of the shared fixture: whose namespace holds alice's files (and bob's
/// broken skill), the preview flags of that call, and the folder the same state has locally.
pub struct ScopeCase {
    pub scope: &'static str,
    owner: &'static str,
    other: &'static str,
    flags: &'static [&'static str],
    /// The local per-user (per-session) folder; empty: the workspace itself.
    folder: &'static str,
    /// The namespace of `owner` and `other`, as store locations name it.
    base: &'static str,
    other_base: &'static str,
}

pub const USER: ScopeCase = ScopeCase {
    scope: "user",
    owner: "alice",
    other: "bob",
    flags: &["--user", "alice"],
    folder: "alice",
    base: "agents/bot/users/alice",
    other_base: "agents/bot/users/bob",
};

pub const SESSION: ScopeCase = ScopeCase {
    scope: "session",
    owner: "@sessions:s1",
    other: "@sessions:s2",
    flags: &["--user", "alice", "--session", "s1"],
    folder: "s1",
    base: "agents/bot/sessions/s1",
    other_base: "agents/bot/sessions/s2",
};

/// One namespace for every agent and call: bob's broken skill lies beside alice's files.
pub const GLOBAL: ScopeCase = ScopeCase {
    scope: "global",
    owner: "@global",
    other: "@global",
    flags: &["--user", "alice", "--session", "s1"],
    folder: "",
    base: "global",
    other_base: "global",
};

/// The clean rows in the namespaces of `case`.
pub fn scoped_rows(case: &ScopeCase) -> Vec<Row> {
    clean_rows()
        .into_iter()
        .map(|r| Row {
            owner: if r.owner == "alice" {
                case.owner
            } else {
                case.other
            },
            ..r
        })
        .collect()
}

/// The clean rows of the session and global scopes (user-scope previews never read them).
pub fn other_scope_rows() -> Vec<Row> {
    let mut rows = scoped_rows(&SESSION);
    rows.extend(scoped_rows(&GLOBAL));
    rows
}

/// Which SQLite layout to seed.
#[derive(Clone, Copy)]
pub enum Layout {
    Jdbc,
    SqliteBase,
}

/// Seeds a SQLite file with `JdbcStore`'s (SQLite dialect) or `SqliteBaseStore`'s DDL and rows.
pub fn seed_sqlite(path: &Path, layout: Layout, rows: &[Row]) {
    let conn = rusqlite::Connection::open(path).unwrap();
    match layout {
        Layout::Jdbc => {
            conn.execute_batch(
                "CREATE TABLE IF NOT EXISTS agentscope_store (namespace_path TEXT NOT NULL, \
                 item_key TEXT NOT NULL, value_json TEXT NOT NULL, version INTEGER NOT NULL, \
                 updated_at INTEGER NOT NULL, PRIMARY KEY (namespace_path, item_key))",
            )
            .unwrap();
            for r in rows {
                let ns: String = namespace(r.owner, r.segment)
                    .iter()
                    .map(|s| format!("{s}\u{1F}"))
                    .collect();
                conn.execute(
                    "INSERT INTO agentscope_store (namespace_path, item_key, value_json, version, updated_at) \
                     VALUES (?1, ?2, ?3, 1, 1764496800123)",
                    rusqlite::params![ns, r.key, r.value],
                )
                .unwrap();
            }
        }
        Layout::SqliteBase => {
            conn.execute_batch(
                "CREATE TABLE IF NOT EXISTS store (\n    namespace TEXT NOT NULL,\n    key       TEXT NOT NULL,\n    \
                 value     TEXT NOT NULL,\n    version   INTEGER NOT NULL DEFAULT 1,\n    \
                 updated_at INTEGER NOT NULL DEFAULT (strftime('%s', 'now')),\n    PRIMARY KEY (namespace, key)\n);\n\
                 CREATE INDEX IF NOT EXISTS idx_store_ns ON store(namespace);",
            )
            .unwrap();
            for r in rows {
                conn.execute(
                    "INSERT INTO store (namespace, key, value, version, updated_at) VALUES (?1, ?2, ?3, 1, 1764496800)",
                    rusqlite::params![namespace(r.owner, r.segment).join("/"), r.key, r.value],
                )
                .unwrap();
            }
        }
    }
}

/// The template workspace of the agent (remote mode): a shared AGENTS.md and skill.
fn template(dir: &Path) -> PathBuf {
    template_with(dir, "")
}

pub fn template_with(dir: &Path, extra_toml: &str) -> PathBuf {
    let project = dir.join("project");
    let ws = project.join(".agentscope/workspace");
    std::fs::create_dir_all(ws.join("skills/hello")).unwrap();
    std::fs::write(
        project.join("agentws.toml"),
        format!("[agent]\nname = \"bot\"\n[filesystem]\nmode = \"remote\"\n{extra_toml}"),
    )
    .unwrap();
    std::fs::write(ws.join("AGENTS.md"), "# Template\nBe kind.\n").unwrap();
    std::fs::write(
        ws.join("skills/hello/SKILL.md"),
        "---\nname: hello\ndescription: Greets people.\n---\nSay hello.\n",
    )
    .unwrap();
    project
}

const MACHINE: &[&str] = &[
    "--date",
    "2026-12-01",
    "--os",
    "Linux 6.8.0",
    "--tmp-dir",
    "/tmp",
];

fn agentws(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("agentws")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn section<'a>(preview: &'a Value, kind: &str) -> &'a Value {
    preview["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} section in {preview:#}"))
}

fn slice(preview: &Value, kind: &str) -> String {
    let s = section(preview, kind);
    let text = preview["text"].as_str().unwrap();
    let (a, b) = (
        s["range"]["start"].as_u64().unwrap() as usize,
        s["range"]["end"].as_u64().unwrap() as usize,
    );
    text[a..b].to_string()
}

fn preview_json(project: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["preview", project.to_str().unwrap()];
    args.extend(MACHINE);
    args.extend(["--format", "json"]);
    args.extend(extra);
    let out = agentws(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn sqlite_store(dir: &Path, layout: Layout, rows: &[Row]) -> (PathBuf, String) {
    let db = dir.join("store.db");
    seed_sqlite(&db, layout, rows);
    let url = format!("sqlite://{}", db.display());
    (db, url)
}

/// The preview from the store equals the preview of the same files as a per-user folder, section
/// by section, apart from the workspace paragraph the runtime words differently in remote mode.
fn assert_preview_matches_local_folders(tmp: &Path, project: &Path, url: &str) {
    assert_scope_matches_local_folders(tmp, project, url, &USER);
}

/// [`assert_preview_matches_local_folders`] for the scope of `case` (`project` is configured
/// with it): the per-session folder under scope session, the workspace itself under scope global.
fn assert_scope_matches_local_folders(tmp: &Path, project: &Path, url: &str, case: &ScopeCase) {
    let mut args = vec!["--store", url];
    args.extend(case.flags);
    let stored = preview_json(project, &args);

    // The same state laid out as local per-user (per-session) folders.
    let local = tmp.join(format!("local-{}", case.scope));
    let ws = local.join(".agentscope/workspace");
    let dir = ws.join(case.folder);
    std::fs::create_dir_all(dir.join("skills/trains")).unwrap();
    std::fs::create_dir_all(dir.join("subagents")).unwrap();
    std::fs::create_dir_all(ws.join("skills/hello")).unwrap();
    std::fs::write(
        local.join("agentws.toml"),
        format!(
            "[agent]\nname = \"bot\"\n[isolation]\nscope = \"{}\"\n",
            case.scope
        ),
    )
    .unwrap();
    std::fs::write(ws.join("AGENTS.md"), "# Template\nBe kind.\n").unwrap();
    std::fs::copy(
        project.join(".agentscope/workspace/skills/hello/SKILL.md"),
        ws.join("skills/hello/SKILL.md"),
    )
    .unwrap();
    // Under scope global the stored AGENTS.md lies over the template's, as the overlay does.
    std::fs::write(dir.join("AGENTS.md"), ALICE_AGENTS).unwrap();
    std::fs::write(dir.join("MEMORY.md"), ALICE_MEMORY).unwrap();
    std::fs::write(dir.join("skills/trains/SKILL.md"), TRAINS_SKILL).unwrap();
    std::fs::write(dir.join("subagents/planner.md"), PLANNER).unwrap();
    if case.folder.is_empty() {
        // bob's broken skill shares the one namespace: the local workspace holds it too.
        std::fs::create_dir_all(ws.join("skills/broken")).unwrap();
        std::fs::write(ws.join("skills/broken/SKILL.md"), BROKEN_SKILL).unwrap();
    }
    let folders = preview_json(&local, case.flags);

    for kind in ["agents-context", "memory-context", "subagents"] {
        assert_eq!(
            slice(&stored, kind),
            slice(&folders, kind),
            "{}: {kind}",
            case.scope
        );
    }
    // The skills themselves are the same; the lines that say where a skill's files are (its
    // skill id's source, `<files-root>`) the runtime renders differently in remote mode.
    let listed = |preview: &Value| -> Vec<String> {
        slice(preview, "skills")
            .lines()
            .filter(|l| !l.contains("<skill-id>") && !l.contains("<files-root>"))
            .map(String::from)
            .collect()
    };
    assert_eq!(listed(&stored), listed(&folders), "{}: skills", case.scope);
    let skills = slice(&stored, "skills");
    assert!(
        skills.contains("trains") && skills.contains("hello") && !skills.contains("broken"),
        "{skills}"
    );
    assert!(slice(&stored, "agents-context").contains("Answer in French."));
    // Sources name the store entry.
    assert_eq!(
        section(&stored, "agents-context")["sources"][0]["path"],
        format!("store:{}/root:/AGENTS.md", case.base)
    );
    let skill_sources: Vec<&str> = section(&stored, "skills")["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    let trains = format!("store:{}/skills:/trains/SKILL.md", case.base);
    assert!(
        skill_sources.contains(&trains.as_str()),
        "{skill_sources:?}"
    );
    assert!(stored["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["code"] == "remote-store-read"));
}

/// Under scopes session and global (the store seeded with [`other_scope_rows`]): the preview
/// equals the local folders' and `check` reports bob's broken skill at its store location.
fn assert_session_and_global_scopes(tmp: &Path, url: &str, extra_toml: &str) {
    for case in [&SESSION, &GLOBAL] {
        let dir = tmp.join(format!("scope-{}", case.scope));
        let project = template_with(
            &dir,
            &format!("[isolation]\nscope = \"{}\"\n{extra_toml}", case.scope),
        );
        assert_scope_matches_local_folders(&dir, &project, url, case);
        let out = agentws(&[
            "check",
            project.to_str().unwrap(),
            "--store",
            url,
            "--format",
            "json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let broken = format!("store:{}/skills:/broken/SKILL.md", case.other_base);
        let paths: Vec<&str> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["path"].as_str().unwrap())
            .collect();
        assert!(
            paths.contains(&broken.as_str()),
            "{}: {paths:?}",
            case.scope
        );
        assert!(
            !paths.iter().any(|p| p.contains("/users/")),
            "{}: {paths:?}",
            case.scope
        );
        let stderr = text(&out.stderr);
        let owners = if case.scope == "session" {
            "(2 owners)"
        } else {
            "(1 owner)"
        };
        assert!(
            stderr.contains("read 5 files from store") && stderr.contains(owners),
            "{}: {stderr}",
            case.scope
        );
    }
}

fn sqlite_preview(layout: Layout) {
    let tmp = tempfile::tempdir().unwrap();
    let project = match layout {
        Layout::Jdbc => template(tmp.path()),
        Layout::SqliteBase => template_with(tmp.path(), "[store]\nlayout = \"sqlite-base\"\n"),
    };
    let (db, url) = sqlite_store(tmp.path(), layout, &clean_rows());
    let before = std::fs::read(&db).unwrap();
    assert_preview_matches_local_folders(tmp.path(), &project, &url);
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Scopes session and global on both SQLite layouts, against the same fixture as scope user.
#[test]
fn sqlite_session_and_global_scopes_match_local_folders() {
    for (layout, extra) in [
        (Layout::Jdbc, ""),
        (Layout::SqliteBase, "[store]\nlayout = \"sqlite-base\"\n"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (db, url) = sqlite_store(tmp.path(), layout, &other_scope_rows());
        let before = std::fs::read(&db).unwrap();
        assert_session_and_global_scopes(tmp.path(), &url, extra);
        assert_eq!(std::fs::read(&db).unwrap(), before);
    }
}

#[test]
fn sqlite_jdbc_preview_matches_local_folders() {
    sqlite_preview(Layout::Jdbc);
}

#[test]
fn sqlite_base_store_preview_matches_local_folders() {
    sqlite_preview(Layout::SqliteBase);
}

#[test]
fn a_user_without_stored_files_gets_the_template() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let (_, url) = sqlite_store(tmp.path(), Layout::Jdbc, &clean_rows());
    let dave = preview_json(&project, &["--store", &url, "--user", "dave"]);
    assert!(slice(&dave, "agents-context").contains("Be kind."));
    assert!(!dave["text"].as_str().unwrap().contains("trains"));
}

#[test]
fn check_reports_stored_files_at_store_locations_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let db = tmp.path().join("store.db");
    seed_sqlite(&db, Layout::Jdbc, &clean_rows());
    // A password in the URL (ignored by SQLite) must never be printed.
    let url = format!("sqlite://{}?password=hunter2", db.display());
    let before = std::fs::read(&db).unwrap();
    let p = project.to_str().unwrap();
    let out = agentws(&[
        "check", p, "--store", &url, "--user", "bob", "--format", "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let broken: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"] == "store:agents/bot/users/bob/skills:/broken/SKILL.md")
        .collect();
    assert!(!broken.is_empty(), "{report:#}");
    for format in ["human", "concise", "json", "sarif", "github"] {
        let out = agentws(&[
            "check",
            p,
            "--store",
            &url,
            "--all-users",
            "--format",
            format,
        ]);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(!all.contains("hunter2"), "{format}: {all}");
        let location = if format == "sarif" {
            "store:agents/bot/users/bob/skills%3A/broken/SKILL.md"
        } else if format == "github" {
            // Workflow-command properties escape `:`.
            "store%3Aagents/bot/users/bob/skills%3A/broken/SKILL.md"
        } else {
            "store:agents/bot/users/bob/skills:/broken/SKILL.md"
        };
        assert!(all.contains(location), "{format}: {all}");
        assert!(
            text(&out.stderr).contains("password=***"),
            "{format}: {}",
            text(&out.stderr)
        );
    }
    // Nothing was written.
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// docs/stores.md's "Try it on a small SQLite store" works as written: its agentws.toml, its
/// AGENTS.md and its SQL (run here through rusqlite, the `sqlite3` tool being optional) give a
/// store whose user the check and the preview read.
#[test]
fn the_documented_sqlite_store_works_as_written() {
    let docs = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/stores.md"),
    )
    .unwrap();
    let section = docs
        .split("## Try it on a small SQLite store\n")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let between = |from: &str, to: &str| -> String {
        let start = section.find(from).unwrap() + from.len();
        section[start..][..section[start..].find(to).unwrap()].to_string()
    };
    let toml = between("```toml\n", "```");
    let sql = between("<<'SQL'\n", "\nSQL\n");
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path();
    std::fs::create_dir_all(project.join(".agentscope/workspace")).unwrap();
    std::fs::write(project.join("agentws.toml"), toml).unwrap();
    std::fs::write(
        project.join(".agentscope/workspace/AGENTS.md"),
        "# Travel desk\nBe brief.\n",
    )
    .unwrap();
    rusqlite::Connection::open(project.join(".agentscope/store.db"))
        .unwrap()
        .execute_batch(&sql)
        .unwrap();
    let users = agentws(&["store", "users", "--project", project.to_str().unwrap()]);
    assert_eq!(text(&users.stdout), "alice\n", "{}", text(&users.stderr));
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(project)
        .args(["check", ".", "--user", "alice", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [(
            "SK013",
            "store:agents/bot/users/alice/skills:/weather/SKILL.md"
        )],
        "{report:#}"
    );
    let preview = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(project)
        .args(["preview", ".", "--user", "alice", "--session", "s1"])
        .output()
        .unwrap();
    let prompt = text(&preview.stdout);
    assert!(prompt.contains("Answer in French."), "{prompt}");
    assert!(!prompt.contains("Be brief."), "{prompt}");
    assert!(prompt.contains("<name>weather</name>"), "{prompt}");
}

/// A fix in a stored file is shown but not offered through `--fix`, which a store check refuses
/// and which writes the disk only; the one on disk is offered with the command that applies it.
#[test]
fn a_store_check_offers_fix_for_the_files_on_disk_only() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    std::fs::write(
        project.join(".agentscope/workspace/skills/hello/SKILL.md"),
        "---\nname: hello\ndescription: Greets people: by name\n---\nSay hello.\n",
    )
    .unwrap();
    let db = tmp.path().join("store.db");
    let colon = "---\nname: trains\ndescription: Train times: departures\n---\nUse the API.\n";
    seed_sqlite(
        &db,
        Layout::Jdbc,
        &[Row {
            owner: "alice",
            segment: "skills",
            key: "/trains/SKILL.md",
            value: file_value(colon),
        }],
    );
    let url = format!("sqlite://{}", db.display());
    let out = crate::support::installed(&mut Command::cargo_bin("agentws").unwrap())
        .current_dir(tmp.path())
        .args(["check", "project", "--store", &url, "--user", "alice"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    let summary: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Found "))
        .collect();
    assert_eq!(
        summary,
        [
            "Found 0 errors, 2 warnings, 0 infos.",
            "1 problem can be fixed with `agentws check --fix project`.",
            "1 problem in stored files has a fix (shown as help) that agentws does not write: it only reads the store, so make the change where those files are written.",
            "Run `agentws explain SK013` (or any other code) for what a finding means and how to fix it.",
        ],
        "{stdout}"
    );
}

#[test]
fn store_level_problems_are_reported_and_a_clean_store_has_none() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    let (_, clean) = sqlite_store(tmp.path(), Layout::Jdbc, &clean_rows());
    let out = agentws(&[
        "check", p, "--store", &clean, "--user", "alice", "--format", "json",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(!codes.iter().any(|c| c.starts_with("RS")), "{codes:?}");

    let bad = tmp.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let (rows, expected): (Vec<Row>, Vec<&str>) = problem_rows().into_iter().unzip();
    let mut rows = rows;
    let mut expected = expected;
    // SQL only: a row in a namespace below `skills` (the prefix search lists it).
    rows.push(Row {
        owner: "carol",
        segment: "skills\u{1F}deep",
        key: "/x/SKILL.md",
        value: file_value("x"),
    });
    expected.push("RS009");
    // An id with no per-user folder.
    rows.push(Row {
        owner: "_hidden",
        segment: "skills",
        key: "/x/SKILL.md",
        value: file_value("x"),
    });
    expected.push("RS016");
    let (_, url) = sqlite_store(&bad, Layout::Jdbc, &rows);
    let out = agentws(&[
        "check", p, "--store", &url, "--user", "carol", "--user", "_hidden", "--format", "json",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in expected {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

/// `SqliteBaseStore` joins namespace segments with `/`: the rows of user `team/alice` sit in
/// `agents/bot/users/team/alice/skills`, which reads as a deeper namespace of user `team`. RS008
/// says so (for `--user team` and `--all-users`); a clean store of that layout has no RS finding.
#[test]
fn sqlite_base_store_ids_with_a_slash_are_rs008() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nlayout = \"sqlite-base\"\n");
    let p = project.to_str().unwrap();
    let codes = |url: &str, who: &[&str]| -> Vec<(String, String, String)> {
        let mut args = vec!["check", p, "--store", url, "--format", "json"];
        args.extend(who);
        let out = agentws(&args);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"].as_str().unwrap().starts_with("RS"))
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["path"].as_str().unwrap().to_string(),
                    d["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let (_, clean) = sqlite_store(tmp.path(), Layout::SqliteBase, &clean_rows());
    assert_eq!(codes(&clean, &["--all-users"]), vec![]);

    let dir = tmp.path().join("slash");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rows = clean_rows();
    rows.push(Row {
        owner: "team/alice",
        segment: "skills",
        key: "/trains/SKILL.md",
        value: file_value(TRAINS_SKILL),
    });
    let (db, url) = sqlite_store(&dir, Layout::SqliteBase, &rows);
    let before = std::fs::read(&db).unwrap();
    let expected = vec![(
        "RS008".to_string(),
        "store:agents/bot/users/team/alice/skills:".to_string(),
        "namespace `agents/bot/users/team/alice/skills` is the `skills` namespace of id `team/alice`: \
         SqliteBaseStore joins segments with `/`, so it cannot be told apart from a deeper namespace \
         of `team`; not read"
            .to_string(),
    )];
    assert_eq!(codes(&url, &["--user", "team"]), expected);
    assert_eq!(codes(&url, &["--all-users"]), expected);
    // A user `team` and the `/` in an id do not disturb the others.
    let out = agentws(&["store", "users", &url, "--project", p]);
    assert_eq!(text(&out.stdout), "alice\nbob\nteam\n");
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn a_50_mb_value_is_one_diagnostic_and_never_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let mut rows = clean_rows();
    rows.push(Row {
        owner: "alice",
        segment: "skills",
        key: "/huge/SKILL.md",
        value: file_value(&"x".repeat(50 * 1024 * 1024)),
    });
    let (db, url) = sqlite_store(tmp.path(), Layout::Jdbc, &rows);
    let before = std::fs::read(&db).unwrap();
    let p = project.to_str().unwrap();
    let out = agentws(&[
        "check", p, "--store", &url, "--user", "alice", "--format", "json",
    ]);
    // A warning: exit 0.
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let huge: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"] == "store:agents/bot/users/alice/skills:/huge/SKILL.md")
        .collect();
    assert_eq!(huge.len(), 1, "{report:#}");
    assert_eq!(huge[0]["code"], "WS005");
    // The rest of alice's files still render.
    let alice = preview_json(&project, &["--store", &url, "--user", "alice"]);
    assert!(slice(&alice, "agents-context").contains("Answer in French."));
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn store_users_lists_the_owners() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let (db, url) = sqlite_store(tmp.path(), Layout::Jdbc, &clean_rows());
    let before = std::fs::read(&db).unwrap();
    let out = agentws(&[
        "store",
        "users",
        &url,
        "--project",
        project.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "alice\nbob\n");
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn unreadable_stores_exit_2_with_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    let missing = format!("sqlite://{}/nope.db?password=hunter2", tmp.path().display());
    let out = agentws(&["check", p, "--store", &missing, "--all-users"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no database file"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");

    // A database without the table.
    let empty = tmp.path().join("empty.db");
    rusqlite::Connection::open(&empty)
        .unwrap()
        .execute_batch("CREATE TABLE other (x INTEGER)")
        .unwrap();
    let url = format!("sqlite://{}", empty.display());
    let out = agentws(&["preview", p, "--store", &url, "--user", "alice"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!(
            "the table `agentscope_store` does not exist in the SQLite database `{}`",
            empty.display()
        )),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());

    let out = agentws(&["store", "users", "ftp://u:hunter2@h", "--project", p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("hunter2"));
}

// --- Redis ----------------------------------------------------------------------------------

use super::servers;

pub fn redis_url(port: u16, password: &str) -> String {
    format!("redis://:{password}@127.0.0.1:{port}/0")
}

pub fn redis_conn(port: u16) -> redis::Connection {
    redis::Client::open(redis_url(port, servers::REDIS_PASSWORD))
        .unwrap()
        .get_connection()
        .unwrap()
}

/// Seeds as `RedisStore`'s put script does: HSET value + version, ZADD index 0 key.
pub fn seed_redis(conn: &mut redis::Connection, rows: &[Row]) {
    for r in rows {
        let ns = namespace(r.owner, r.segment);
        let path: Vec<u8> = ns
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect::<Vec<_>>()
            .join(&0u8);
        let mut item = b"agentscope:store:item:".to_vec();
        item.extend(&path);
        item.push(0);
        item.extend(r.key.as_bytes());
        let mut idx = b"agentscope:store:idx:".to_vec();
        idx.extend(&path);
        redis::cmd("HSET")
            .arg(&item)
            .arg("value")
            .arg(&r.value)
            .arg("version")
            .arg("1")
            .query::<()>(conn)
            .unwrap();
        redis::cmd("ZADD")
            .arg(&idx)
            .arg(0)
            .arg(r.key)
            .query::<()>(conn)
            .unwrap();
    }
}

fn redis_digest(conn: &mut redis::Connection) -> String {
    redis::cmd("DEBUG").arg("DIGEST").query(conn).unwrap()
}

#[test]
fn redis_preview_check_and_problems() {
    let Some(server) = servers::redis() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    let mut conn = redis_conn(server.port);
    seed_redis(&mut conn, &clean_rows());
    seed_redis(&mut conn, &other_scope_rows());
    let url = redis_url(server.port, servers::REDIS_PASSWORD);
    let digest = redis_digest(&mut conn);

    assert_preview_matches_local_folders(tmp.path(), &project, &url);
    assert_session_and_global_scopes(tmp.path(), &url, "");

    let out = agentws(&["store", "users", &url, "--project", p]);
    assert_eq!(text(&out.stdout), "alice\nbob\n", "{}", text(&out.stderr));

    for format in ["human", "json", "sarif", "github"] {
        let out = agentws(&["check", p, "--store", &url, "--format", format]);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(!all.contains(servers::REDIS_PASSWORD), "{format}: {all}");
        assert!(all.contains("broken/SKILL.md"), "{format}: {all}");
    }
    assert_eq!(redis_digest(&mut conn), digest, "the store changed");

    // Store-level problems: the shared ones, a stale index member and a listing it cuts short.
    let (rows, expected): (Vec<Row>, Vec<&str>) = problem_rows().into_iter().unzip();
    seed_redis(&mut conn, &rows);
    let many: Vec<Row> = (0..150)
        .map(|i| Row {
            owner: "dora",
            segment: "skills",
            key: Box::leak(format!("/s{i:03}/SKILL.md").into_boxed_str()),
            value: file_value(&format!(
                "---\nname: s{i:03}\ndescription: Skill {i}.\n---\nBody.\n"
            )),
        })
        .collect();
    seed_redis(&mut conn, &many);
    // A key with NUL, which RedisStore's get rejects.
    redis::cmd("ZADD")
        .arg(b"agentscope:store:idx:agents\0bot\0users\0carol\0skills".to_vec())
        .arg(0)
        .arg(b"/nul\0/SKILL.md".to_vec())
        .query::<()>(&mut conn)
        .unwrap();
    redis::cmd("HSET")
        .arg(b"agentscope:store:item:agents\0bot\0users\0carol\0skills\0/nul\0/SKILL.md".to_vec())
        .arg("value")
        .arg(file_value("x"))
        .query::<()>(&mut conn)
        .unwrap();
    let stale = b"agentscope:store:item:agents\0bot\0users\0dora\0skills\0/s010/SKILL.md".to_vec();
    redis::cmd("DEL")
        .arg(&stale)
        .query::<()>(&mut conn)
        .unwrap();
    let out = agentws(&[
        "check", p, "--store", &url, "--user", "carol", "--user", "dora", "--format", "json",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in expected.iter().chain(&["RS008", "RS010", "RS011"]) {
        assert!(codes.contains(code), "{code} missing from {codes:?}");
    }
    // The cut listing: skills after the first page are not loaded for dora.
    let dora = preview_json(&project, &["--store", &url, "--user", "dora"]);
    let skills = slice(&dora, "skills");
    assert!(
        skills.contains("s099") && !skills.contains("s100"),
        "{skills}"
    );

    // A connection dropped in the middle of a reply: exit 2, no hang, no panic.
    let proxy = servers::cutting_proxy(server.port, 2000);
    let out = agentws(&[
        "check",
        p,
        "--store",
        &redis_url(proxy, servers::REDIS_PASSWORD),
        "--user",
        "dora",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("reading the Redis store failed") && !err.contains(servers::REDIS_PASSWORD),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // Faults: a wrong password and a server that is gone, each exit 2 without the password.
    let wrong = redis_url(server.port, "not-the-password");
    let out = agentws(&["check", p, "--store", &wrong, "--all-users"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("not-the-password"),
        "{}",
        text(&out.stderr)
    );
    let port = server.port;
    drop(server);
    let started = std::time::Instant::now();
    let out = agentws(&[
        "preview",
        p,
        "--store",
        &redis_url(port, "pw"),
        "--user",
        "alice",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot connect"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// `check --all-users` reads the owners' listings a batch of owners at a time, not one or more
/// round trips per owner: through a proxy that counts them, 200 users take fewer round trips than
/// a quarter of the users, each user's finding is its own, and the report is the one the server
/// gives without the proxy. `url` gives the store's URL for a port; `seed` writes the rows.
fn all_users_in_few_round_trips(port: u16, url: impl Fn(u16) -> String, seed: impl FnOnce(&[Row])) {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    // Ids a prefix match could confuse (`u1` beside `u100`), and the LIKE pattern's own
    // characters, beside plain ones.
    let tricky = ["u1", "u10", "50%", "a_b", "x!y", "üñ"];
    let owners: Vec<String> = (0..200 - tricky.len())
        .map(|u| format!("u{u:03}"))
        .chain(tricky.map(String::from))
        .collect();
    let users = owners.len();
    let rows: Vec<Row> = owners
        .iter()
        .flat_map(|owner| {
            let owner: &'static str = Box::leak(owner.clone().into_boxed_str());
            [
                Row {
                    owner,
                    segment: "root",
                    key: "/AGENTS.md",
                    value: file_value(&format!("# {owner}\nBe brief.\n")),
                },
                Row {
                    owner,
                    segment: "skills",
                    key: "/a/SKILL.md",
                    value: file_value("---\nname: a\ndescription: Does a.\n---\nBody.\n"),
                },
                // One finding per user: a skill without a description.
                Row {
                    owner,
                    segment: "skills",
                    key: "/b/SKILL.md",
                    value: file_value("---\nname: b\n---\nBody.\n"),
                },
            ]
        })
        .collect();
    seed(&rows);
    let check = |port: u16| {
        let out = agentws(&[
            "check",
            p,
            "--store",
            &url(port),
            "--all-users",
            "--format",
            "json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        out.stdout
    };
    let (proxy, turns) = servers::counting_proxy(port);
    let report = check(proxy);
    assert_eq!(report, check(port));
    let report: Value = serde_json::from_slice(&report).unwrap();
    // The template's files, and three of each user.
    assert_eq!(report["files_checked"], 3 * users + 3);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert!(
        diagnostics.iter().all(|d| d["code"] == "SK009"),
        "{diagnostics:?}"
    );
    let mut found: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    found.sort();
    let mut expected: Vec<String> = owners
        .iter()
        .map(|owner| format!("store:agents/bot/users/{owner}/skills:/b/SKILL.md"))
        .collect();
    expected.sort();
    assert_eq!(found, expected);
    let turns = turns.load(std::sync::atomic::Ordering::SeqCst);
    assert!(turns < users / 4, "{turns} round trips for {users} users");
}

#[test]
fn redis_all_users_in_few_round_trips() {
    let Some(server) = servers::redis() else {
        return;
    };
    all_users_in_few_round_trips(
        server.port,
        |port| redis_url(port, servers::REDIS_PASSWORD),
        |rows| seed_redis(&mut redis_conn(server.port), rows),
    );
}

#[test]
fn postgres_all_users_in_few_round_trips() {
    let Some(server) = servers::postgres() else {
        return;
    };
    let url = |port| postgres_url(port, servers::POSTGRES_PASSWORD);
    all_users_in_few_round_trips(server.port, url, |rows| {
        seed_postgres(
            &mut servers::retry(|| servers::Pg::connect(&url(server.port))),
            rows,
        )
    });
}

#[test]
fn mariadb_all_users_in_few_round_trips() {
    let Some(server) = servers::mariadb() else {
        return;
    };
    let url = |port| mysql_url(port, servers::MARIADB_PASSWORD);
    all_users_in_few_round_trips(server.port, url, |rows| {
        seed_mysql(
            &mut servers::retry(|| servers::My::connect(&url(server.port))),
            rows,
        )
    });
}

/// An item hash whose index member is gone (reference V13): no listing shows it, but a read of its
/// exact path finds it. The prompt files in such hashes are used, the skills are not loaded, and
/// `check` reports each (RS010), found with one SCAN.
#[test]
fn redis_hashes_without_an_index_member() {
    let Some(server) = servers::redis() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    let mut conn = redis_conn(server.port);
    let url = redis_url(server.port, servers::REDIS_PASSWORD);
    let erin = |segment, key, content: &str| Row {
        owner: "erin",
        segment,
        key,
        value: file_value(content),
    };
    let mut rows = clean_rows();
    rows.extend([
        erin("root", "/AGENTS.md", "# Erin\nUnindexed, yet read.\n"),
        erin("knowledge", "/KNOWLEDGE.md", "Erin's index, unindexed.\n"),
        erin("knowledge", "/routes.md", "Routes.\n"),
        erin("skills", "/trains/SKILL.md", TRAINS_SKILL),
        erin(
            "skills",
            "/ghost/SKILL.md",
            "---\nname: ghost\ndescription: Never listed.\n---\nBoo.\n",
        ),
        // At the path of the template's skill: the template's listing names it, the read finds
        // the stored hash.
        erin(
            "skills",
            "/hello/SKILL.md",
            "---\nname: hello\ndescription: Greets people, from the store.\n---\nHi.\n",
        ),
    ]);
    seed_redis(&mut conn, &rows);
    for (segment, key) in [
        ("root", "/AGENTS.md"),
        ("knowledge", "/KNOWLEDGE.md"),
        ("skills", "/ghost/SKILL.md"),
        ("skills", "/hello/SKILL.md"),
    ] {
        let mut idx = b"agentscope:store:idx:agents\0bot\0users\0erin\0".to_vec();
        idx.extend(segment.as_bytes());
        redis::cmd("ZREM")
            .arg(idx)
            .arg(key)
            .query::<()>(&mut conn)
            .unwrap();
    }
    let digest = redis_digest(&mut conn);

    // The preview reads the unindexed AGENTS.md by its path; the unindexed skill does not load.
    let preview = preview_json(&project, &["--store", &url, "--user", "erin"]);
    assert!(
        slice(&preview, "agents-context").contains("Unindexed, yet read."),
        "{preview:#}"
    );
    assert_eq!(
        section(&preview, "agents-context")["sources"][0]["path"],
        "store:agents/bot/users/erin/root:/AGENTS.md"
    );
    // KNOWLEDGE.md is read by its path, yet the runtime's knowledge glob lists the index only.
    let prompt = preview["text"].as_str().unwrap();
    let knowledge: Vec<&str> = prompt
        .rsplit_once("<domain_knowledge_context>")
        .and_then(|(_, rest)| rest.split_once("</domain_knowledge_context>"))
        .map(|(inside, _)| inside.lines().map(str::trim).collect())
        .unwrap_or_default();
    assert_eq!(
        knowledge,
        [
            "",
            "Erin's index, unindexed.",
            "",
            "Knowledge files:",
            "- knowledge/routes.md",
            ""
        ],
        "{prompt}"
    );
    let skills = slice(&preview, "skills");
    assert!(
        skills.contains("trains")
            && !skills.contains("ghost")
            && skills.contains("Greets people, from the store."),
        "{skills}"
    );

    for args in [vec!["--user", "erin"], vec!["--all-users"]] {
        let mut argv = vec!["check", p, "--store", &url, "--format", "json"];
        argv.extend(&args);
        let out = agentws(&argv);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut unindexed: Vec<(String, String)> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "RS010")
            .map(|d| {
                (
                    d["path"].as_str().unwrap().to_string(),
                    d["message"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        unindexed.sort();
        let expected = [
            (
                "store:agents/bot/users/erin/knowledge:/KNOWLEDGE.md",
                "item hash `/KNOWLEDGE.md` has no index member: never listed, yet read by its \
                 exact path (the prompt reads this file by its path), so it is used",
            ),
            (
                "store:agents/bot/users/erin/root:/AGENTS.md",
                "item hash `/AGENTS.md` has no index member: never listed, yet read by its exact \
                 path (the prompt reads this file by its path), so it is used",
            ),
            (
                "store:agents/bot/users/erin/skills:/ghost/SKILL.md",
                "item hash `/ghost/SKILL.md` has no index member: never listed, so it does not \
                 load (only a read of its exact path finds it)",
            ),
            (
                "store:agents/bot/users/erin/skills:/hello/SKILL.md",
                "item hash `/hello/SKILL.md` has no index member: never listed, yet read by its \
                 exact path (the template holds the same path, and reading what its listing names \
                 reads this entry), so it is used",
            ),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(p, m)| (p.to_string(), m.to_string()))
            .collect();
        assert_eq!(unindexed, expected, "{args:?}");
    }
    assert_eq!(redis_digest(&mut conn), digest, "the store changed");
}

/// Under scope `agent` the store lies over the template itself: an unindexed KNOWLEDGE.md at the
/// template's own path is read in its place, and the template's listing still names the path.
/// One that the template does not hold is read but not listed.
#[test]
fn redis_unindexed_knowledge_over_the_template() {
    let Some(server) = servers::redis() else {
        return;
    };
    for template_holds_it in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let project = template_with(tmp.path(), "[isolation]\nscope = \"agent\"\n");
        let knowledge = project.join(".agentscope/workspace/knowledge");
        std::fs::create_dir_all(&knowledge).unwrap();
        std::fs::write(knowledge.join("faq.md"), "FAQ.\n").unwrap();
        if template_holds_it {
            std::fs::write(knowledge.join("KNOWLEDGE.md"), "Template index.\n").unwrap();
        }
        let mut conn = redis_conn(server.port);
        redis::cmd("FLUSHALL").query::<()>(&mut conn).unwrap();
        let row = Row {
            owner: "@shared",
            segment: "knowledge",
            key: "/KNOWLEDGE.md",
            value: file_value("Stored index.\n"),
        };
        seed_redis(&mut conn, &[row]);
        redis::cmd("DEL")
            .arg("agentscope:store:idx:agents\0bot\0shared\0knowledge")
            .query::<()>(&mut conn)
            .unwrap();
        let url = redis_url(server.port, servers::REDIS_PASSWORD);
        let preview = preview_json(&project, &["--store", &url]);
        let prompt = preview["text"].as_str().unwrap();
        let inside: Vec<&str> = prompt
            .rsplit_once("<domain_knowledge_context>")
            .and_then(|(_, rest)| rest.split_once("</domain_knowledge_context>"))
            .map(|(inside, _)| inside.lines().map(str::trim).collect())
            .unwrap_or_default();
        let mut expected = vec!["", "Stored index.", "", "Knowledge files:"];
        if template_holds_it {
            expected.push("- knowledge/KNOWLEDGE.md");
        }
        expected.extend(["- knowledge/faq.md", ""]);
        assert_eq!(inside, expected, "{template_holds_it}: {prompt}");
    }
}

/// A user whose index sets are all gone has no listing at all, yet the runtime serves their calls
/// through the exact-path reads: `store users` and `--all-users` find them by their item hashes
/// when one of those is read by path, and say so; a user whose hashes are never read is left out,
/// with a note.
#[test]
fn redis_users_with_item_hashes_only() {
    let Some(server) = servers::redis() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    let mut conn = redis_conn(server.port);
    let url = redis_url(server.port, servers::REDIS_PASSWORD);
    let row = |owner, segment, key, content: &str| Row {
        owner,
        segment,
        key,
        value: file_value(content),
    };
    let mut rows = clean_rows();
    rows.extend([
        row(
            "finn",
            "root",
            "/AGENTS.md",
            "# Finn\nNo index, yet read.\n",
        ),
        row("finn", "skills", "/ghost/SKILL.md", BROKEN_SKILL),
        row("gus", "skills", "/ghost/SKILL.md", BROKEN_SKILL),
    ]);
    seed_redis(&mut conn, &rows);
    for owner in ["finn", "gus"] {
        for segment in ["root", "skills"] {
            redis::cmd("DEL")
                .arg(format!(
                    "agentscope:store:idx:agents\0bot\0users\0{owner}\0{segment}"
                ))
                .query::<()>(&mut conn)
                .unwrap();
        }
    }
    let digest = redis_digest(&mut conn);
    let finn_note = "note: user `finn` has no index entries: found by the item hashes the runtime \
                     reads by their exact path (root:/AGENTS.md)\n";
    let gus_note =
        "note: user `gus` left out: no index entries, and the runtime reads none of its \
                    item hashes by path (skills:/ghost/SKILL.md), so its calls get the template \
                    (check them with --user)\n";

    let out = agentws(&["store", "users", &url, "--project", p]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "alice\nbob\nfinn\n");
    assert_eq!(text(&out.stderr), format!("{finn_note}{gus_note}"));

    let out = agentws(&[
        "check",
        p,
        "--store",
        &url,
        "--all-users",
        "--format",
        "json",
    ]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("(3 owners)") && stderr.ends_with(&format!("{finn_note}{gus_note}")),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let finn: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"].as_str().unwrap().contains("/users/finn/"))
        .map(|d| (d["code"].as_str().unwrap(), d["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        finn,
        [
            ("RS010", "store:agents/bot/users/finn/root:/AGENTS.md"),
            (
                "RS010",
                "store:agents/bot/users/finn/skills:/ghost/SKILL.md"
            ),
        ],
        "{report:#}"
    );

    // The preview of finn's call reads the hash by its path.
    let preview = preview_json(&project, &["--store", &url, "--user", "finn"]);
    assert!(
        slice(&preview, "agents-context").contains("No index, yet read."),
        "{preview:#}"
    );
    assert_eq!(redis_digest(&mut conn), digest, "the store changed");
}

// --- PostgreSQL -----------------------------------------------------------------------------

pub fn postgres_url(port: u16, password: &str) -> String {
    format!("postgres://postgres:{password}@127.0.0.1:{port}/postgres")
}

/// Seeds with `PostgresBaseStore`'s DDL and the rows its put binds.
pub fn seed_postgres(client: &mut servers::Pg, rows: &[Row]) {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS agentscope_store (namespace_path VARCHAR(2048), \
             item_key VARCHAR(255), value_json TEXT, version BIGINT, updated_at BIGINT, \
             PRIMARY KEY (namespace_path, item_key))",
        )
        .unwrap();
    for r in rows {
        let ns: String = namespace(r.owner, r.segment)
            .iter()
            .map(|s| format!("{s}\u{1F}"))
            .collect();
        client
            .execute(
                "INSERT INTO agentscope_store (namespace_path, item_key, value_json, version, updated_at) \
                 VALUES ($1, $2, $3, 1, 1764496800123)",
                &[&ns, &r.key, &r.value],
            )
            .unwrap();
    }
}

fn postgres_digest(client: &mut servers::Pg) -> String {
    client
        .query_one(
            "SELECT coalesce(md5(string_agg(namespace_path || item_key || value_json || version || updated_at, '|' \
             ORDER BY namespace_path, item_key)), '') FROM agentscope_store",
            &[],
        )
        .unwrap()
        .get(0)
}

/// A SQL server seeded as the runtime's JdbcStore writes to it, for the test both SQL backends
/// share ([`sql_preview_check_and_faults`]).
trait SqlStore {
    /// The password the test server was started with.
    const PASSWORD: &'static str;
    fn url(port: u16, password: &str) -> String;
    fn seed(&mut self, rows: &[Row]);
    /// A digest of the table's rows, to show that agentws wrote nothing.
    fn digest(&mut self) -> String;
}

impl SqlStore for servers::Pg {
    const PASSWORD: &'static str = servers::POSTGRES_PASSWORD;
    fn url(port: u16, password: &str) -> String {
        postgres_url(port, password)
    }
    fn seed(&mut self, rows: &[Row]) {
        seed_postgres(self, rows);
    }
    fn digest(&mut self) -> String {
        postgres_digest(self)
    }
}

impl SqlStore for servers::My {
    const PASSWORD: &'static str = servers::MARIADB_PASSWORD;
    fn url(port: u16, password: &str) -> String {
        mysql_url(port, password)
    }
    fn seed(&mut self, rows: &[Row]) {
        seed_mysql(self, rows);
    }
    fn digest(&mut self) -> String {
        mysql_digest(self)
    }
}

/// A missing table fails clearly; the seeded store's problem rows are reported for carol, with
/// `extra` (rows and the codes they raise) on top; no format prints the password; nothing is
/// written; a wrong password and a stopped server are clear failures without the password.
fn sql_preview_check_and_faults<S: SqlStore>(
    server: servers::Server,
    connect: impl FnMut(&str) -> Result<S, String>,
    extra: (&[Row], &[&str]),
) {
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let p = project.to_str().unwrap();
    let url = S::url(server.port, S::PASSWORD);
    let mut connect = connect;
    let mut store = servers::retry(|| connect(&url));

    let out = agentws(&["check", p, "--store", &url, "--all-users"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("agentscope_store"),
        "{}",
        text(&out.stderr)
    );

    store.seed(&clean_rows());
    let (rows, mut expected): (Vec<Row>, Vec<&str>) = problem_rows().into_iter().unzip();
    store.seed(&rows);
    store.seed(extra.0);
    expected.extend(extra.1);
    let digest = store.digest();

    let out = agentws(&["store", "users", &url, "--project", p]);
    let mut owners: Vec<String> = text(&out.stdout).lines().map(str::to_lowercase).collect();
    owners.dedup();
    assert_eq!(owners, ["alice", "bob", "carol"], "{}", text(&out.stderr));
    let out = agentws(&[
        "check", p, "--store", &url, "--user", "alice", "--user", "carol", "--format", "json",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in &expected {
        assert!(codes.contains(code), "{code} missing from {codes:?}");
    }
    for format in ["human", "json", "sarif", "github"] {
        let out = agentws(&[
            "check", p, "--store", &url, "--user", "bob", "--format", format,
        ]);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(!all.contains(S::PASSWORD), "{format}: {all}");
        assert!(all.contains("broken/SKILL.md"), "{format}: {all}");
    }
    assert_eq!(store.digest(), digest, "the store changed");

    let out = agentws(&[
        "check",
        p,
        "--store",
        &S::url(server.port, "wrong-pw"),
        "--all-users",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("wrong-pw"),
        "{}",
        text(&out.stderr)
    );
    drop(store);
    let port = server.port;
    drop(server);
    let out = agentws(&[
        "preview",
        p,
        "--store",
        &S::url(port, "x"),
        "--user",
        "alice",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot connect"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn postgres_preview_check_and_faults() {
    let Some(server) = servers::postgres() else {
        return;
    };
    sql_preview_check_and_faults(
        server,
        |url| servers::Pg::connect(url).map_err(|e| e.to_string()),
        (&[], &[]),
    );
}

/// The preview matches the per-user folders on PostgreSQL, in every scope.
#[test]
fn postgres_preview_matches_local_folders() {
    let Some(server) = servers::postgres() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let url = postgres_url(server.port, servers::POSTGRES_PASSWORD);
    let mut client = servers::retry(|| servers::Pg::connect(&url));
    seed_postgres(&mut client, &clean_rows());
    seed_postgres(&mut client, &other_scope_rows());
    assert_preview_matches_local_folders(tmp.path(), &project, &url);
    assert_session_and_global_scopes(tmp.path(), &url, "");
}

// --- MariaDB (MySQL protocol) ---------------------------------------------------------------

pub fn mysql_url(port: u16, password: &str) -> String {
    format!("mysql://agent:{password}@127.0.0.1:{port}/ws")
}

/// Seeds with `MysqlJdbcStoreDialect`'s DDL and the rows `JdbcStore.put` binds.
pub fn seed_mysql(conn: &mut servers::My, rows: &[Row]) {
    conn.query_drop(
        "CREATE TABLE IF NOT EXISTS agentscope_store (namespace_path VARCHAR(512) NOT NULL, \
         item_key VARCHAR(255) NOT NULL, value_json LONGTEXT NOT NULL, version BIGINT NOT NULL, \
         updated_at BIGINT NOT NULL, PRIMARY KEY (namespace_path, item_key)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
    )
    .unwrap();
    for r in rows {
        let ns: String = namespace(r.owner, r.segment)
            .iter()
            .map(|s| format!("{s}\u{1F}"))
            .collect();
        conn.exec_drop(
            "INSERT INTO agentscope_store (namespace_path, item_key, value_json, version, updated_at) \
             VALUES (?, ?, ?, 1, 1764496800123)",
            (ns, r.key, &r.value),
        )
        .unwrap();
    }
}

fn mysql_digest(conn: &mut servers::My) -> String {
    let row: Option<(String, String)> =
        conn.query_first("CHECKSUM TABLE agentscope_store").unwrap();
    row.map(|(_, sum)| sum).unwrap_or_default()
}

#[test]
fn mariadb_preview_check_and_faults() {
    let Some(server) = servers::mariadb() else {
        return;
    };
    // An id that differs from alice's only by case: one row per (namespace, key) for the server.
    let shout = Row {
        owner: "ALICE",
        segment: "skills",
        key: "/shout/SKILL.md",
        value: file_value("---\nname: shout\ndescription: Shouts.\n---\nLOUD.\n"),
    };
    sql_preview_check_and_faults(
        server,
        |url| servers::My::connect(url).map_err(|e| e.to_string()),
        (&[shout], &["RS012"]),
    );
}

/// The preview matches the per-user folders on MariaDB too (a separate server keeps the problem
/// rows of the other test out of alice's files).
#[test]
fn mariadb_preview_matches_local_folders() {
    let Some(server) = servers::mariadb() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template(tmp.path());
    let url = mysql_url(server.port, servers::MARIADB_PASSWORD);
    let mut conn = servers::retry(|| servers::My::connect(&url));
    seed_mysql(&mut conn, &clean_rows());
    seed_mysql(&mut conn, &other_scope_rows());
    let digest = mysql_digest(&mut conn);
    assert_preview_matches_local_folders(tmp.path(), &project, &url);
    assert_session_and_global_scopes(tmp.path(), &url, "");
    let out = agentws(&[
        "store",
        "users",
        &url,
        "--project",
        project.to_str().unwrap(),
    ]);
    assert_eq!(text(&out.stdout), "alice\nbob\n", "{}", text(&out.stderr));
    assert_eq!(mysql_digest(&mut conn), digest, "the store changed");
}

/// Under scope `agent` one namespace (`agents/<agent>/shared`) serves every call: its files lie
/// over the template in `<ws>/…`.
#[test]
fn agent_scope_reads_the_shared_namespace() {
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[isolation]\nscope = \"agent\"\n");
    let db = tmp.path().join("store.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE agentscope_store (namespace_path TEXT NOT NULL, item_key TEXT NOT NULL, \
         value_json TEXT NOT NULL, version INTEGER NOT NULL, updated_at INTEGER NOT NULL, \
         PRIMARY KEY (namespace_path, item_key))",
    )
    .unwrap();
    for (segment, key, content) in [
        ("root", "/AGENTS.md", "# Shared\nEveryone gets this.\n"),
        ("skills", "/trains/SKILL.md", TRAINS_SKILL),
    ] {
        let ns = format!("agents\u{1F}bot\u{1F}shared\u{1F}{segment}\u{1F}");
        conn.execute(
            "INSERT INTO agentscope_store VALUES (?1, ?2, ?3, 1, 1764496800123)",
            rusqlite::params![ns, key, file_value(content)],
        )
        .unwrap();
    }
    drop(conn);
    let url = format!("sqlite://{}", db.display());
    let preview = preview_json(&project, &["--store", &url, "--user", "anyone"]);
    assert!(slice(&preview, "agents-context").contains("Everyone gets this."));
    assert_eq!(
        section(&preview, "agents-context")["sources"][0]["path"],
        "store:agents/bot/shared/root:/AGENTS.md"
    );
    let skills = slice(&preview, "skills");
    assert!(
        skills.contains("trains") && skills.contains("hello"),
        "{skills}"
    );
}

// --- TLS ------------------------------------------------------------------------------------

/// `agentws` trusting only the certificate authority `ca` (rustls reads the system's roots from
/// `SSL_CERT_FILE` when it is set).
/// Mutual TLS: a server that requires a client certificate is read with the URL's `sslcert` and
/// `sslkey`; without them the handshake fails with exit 2, and a missing key file is named.
#[test]
fn rediss_with_a_client_certificate() {
    let Some((server, tls_port, tls)) = servers::redis_tls_auth_clients("yes") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nconnect_timeout = 2\n");
    let p = project.to_str().unwrap();
    let mut conn = redis_conn(server.port);
    seed_redis(&mut conn, &clean_rows());
    let digest = redis_digest(&mut conn);
    let base = format!(
        "rediss://:{}@127.0.0.1:{tls_port}/0",
        servers::REDIS_PASSWORD
    );
    let url = format!(
        "{base}?sslcert={}&sslkey={}",
        tls.client_cert.display(),
        tls.client_key.display()
    );
    let mut args = vec!["preview", p, "--store", &url, "--user", "alice"];
    args.extend(MACHINE);
    let out = agentws_trusting(&tls.ca, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Answer in French."));
    let out = agentws_trusting(&tls.ca, &["store", "users", &url, "--project", p]);
    assert_eq!(text(&out.stdout), "alice\nbob\n", "{}", text(&out.stderr));

    // No client certificate: the server ends the handshake.
    let started = std::time::Instant::now();
    let out = agentws_trusting(&tls.ca, &["check", p, "--store", &base, "--user", "alice"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: cannot connect to the Redis store (rediss://:***@")
            && err.ends_with(
                "/0): the server requires a client certificate: add sslcert=PATH&sslkey=PATH to \
                 the URL (received fatal alert: CertificateRequired)\n"
            ),
        "{err}"
    );
    assert!(
        !err.contains(servers::REDIS_PASSWORD) && !err.contains("panicked"),
        "{err}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));

    let missing = format!(
        "{base}?sslcert={}&sslkey=/nonexistent/client.key",
        tls.client_cert.display()
    );
    let out = agentws_trusting(
        &tls.ca,
        &["check", p, "--store", &missing, "--user", "alice"],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "cannot read the client key `/nonexistent/client.key`: No such file or directory"
        ),
        "{err}"
    );
    let half = format!("{base}?sslcert={}", tls.client_cert.display());
    let out = agentws_trusting(&tls.ca, &["check", p, "--store", &half, "--user", "alice"]);
    assert!(
        text(&out.stderr).contains("sslcert needs sslkey"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(redis_digest(&mut conn), digest, "the store changed");
}

/// Mutual TLS on PostgreSQL (`hostssl … clientcert=verify-ca`): read with `sslcert` and `sslkey`;
/// without them the server refuses the connection (exit 2); a certificate without TLS is refused.
#[test]
fn postgres_with_a_client_certificate() {
    let Some((server, tls)) = servers::postgres_requiring_client_certs() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nconnect_timeout = 2\n");
    let p = project.to_str().unwrap();
    let plain = postgres_url(server.port, servers::POSTGRES_PASSWORD);
    let mut client = servers::retry(|| servers::Pg::connect(&plain));
    seed_postgres(&mut client, &clean_rows());
    let digest = postgres_digest(&mut client);
    let certs = format!(
        "sslcert={}&sslkey={}",
        tls.client_cert.display(),
        tls.client_key.display()
    );
    let url = format!("{plain}?sslmode=require&{certs}");
    let mut args = vec!["preview", p, "--store", &url, "--user", "alice"];
    args.extend(MACHINE);
    let out = agentws_trusting(&tls.ca, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Answer in French."));

    let without = format!("{plain}?sslmode=require");
    let out = agentws_trusting(
        &tls.ca,
        &["check", p, "--store", &without, "--user", "alice"],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: cannot connect to the PostgreSQL store (postgres://postgres:***@"),
        "{err}"
    );
    assert!(!err.contains(servers::POSTGRES_PASSWORD), "{err}");
    assert!(
        err.ends_with(
            "/postgres?sslmode=require): connection requires a valid client certificate (28000)\n"
        ),
        "{err}"
    );

    let out = agentws_trusting(
        &tls.ca,
        &[
            "check",
            p,
            "--store",
            &format!("{plain}?{certs}"),
            "--user",
            "alice",
        ],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sslcert and sslkey (a client certificate) need sslmode=require, verify-ca or verify-full"),
        "{err}"
    );
    assert_eq!(postgres_digest(&mut client), digest, "the store changed");
}

fn agentws_trusting(ca: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("agentws")
        .unwrap()
        .env("SSL_CERT_FILE", ca)
        .env_remove("SSL_CERT_DIR")
        .args(args)
        .output()
        .unwrap()
}

/// Over TLS: the preview and check of a store reached with a trusted certificate, and a clear
/// exit 2 (no password, no hang) for an untrusted one and for a server that does not speak TLS.
fn assert_tls(project: &Path, url: &str, plain_url: &str, ca: &Path, untrusted: &Path) {
    let p = project.to_str().unwrap();
    let mut args = vec!["preview", p, "--store", url, "--user", "alice"];
    args.extend(MACHINE);
    let out = agentws_trusting(ca, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Answer in French."));
    let out = agentws_trusting(ca, &["check", p, "--store", url, "--user", "bob"]);
    assert!(
        text(&out.stdout).contains("store:agents/bot/users/bob/skills:/broken/SKILL.md"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    for (bad, what) in [(url, untrusted), (plain_url, ca)] {
        let started = std::time::Instant::now();
        let out = agentws_trusting(what, &["check", p, "--store", bad, "--user", "alice"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("cannot connect"), "{bad}: {err}");
        assert!(
            !err.contains("s3cret") && !err.contains("panicked"),
            "{err}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        if bad == url {
            assert!(err.contains("invalid peer certificate"), "{err}");
        }
    }
}

#[test]
fn rediss_reads_over_tls() {
    let Some((server, tls_port, tls)) = servers::redis_tls() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nconnect_timeout = 2\n");
    let mut conn = redis_conn(server.port);
    seed_redis(&mut conn, &clean_rows());
    let digest = redis_digest(&mut conn);
    let untrusted_dir = tmp.path().join("other-ca");
    std::fs::create_dir_all(&untrusted_dir).unwrap();
    let untrusted = servers::tls_files(&untrusted_dir).ca;
    let url = format!(
        "rediss://:{}@127.0.0.1:{tls_port}/0",
        servers::REDIS_PASSWORD
    );
    // `rediss://` to the plain port: the server never answers the TLS handshake.
    let plain = format!(
        "rediss://:{}@127.0.0.1:{}/0",
        servers::REDIS_PASSWORD,
        server.port
    );
    assert_tls(&project, &url, &plain, &tls.ca, &untrusted);
    let out = agentws_trusting(
        &tls.ca,
        &[
            "store",
            "users",
            &plain,
            "--project",
            project.to_str().unwrap(),
        ],
    );
    assert!(
        text(&out.stderr).contains(&format!(
            "timed out after 2 s while connecting and logging in to the Redis server at \
             127.0.0.1:{} (store.connect_timeout); with rediss://, does the server serve TLS on \
             this port?",
            server.port
        )),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(redis_digest(&mut conn), digest, "the store changed");
}

#[test]
fn postgres_sslmode_require_reads_over_tls() {
    let Some((server, Some(tls))) = servers::postgres_with_tls(true) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nconnect_timeout = 2\n");
    let plain = postgres_url(server.port, servers::POSTGRES_PASSWORD);
    let mut client = servers::retry(|| servers::Pg::connect(&plain));
    seed_postgres(&mut client, &clean_rows());
    let digest = postgres_digest(&mut client);
    let untrusted_dir = tmp.path().join("other-ca");
    std::fs::create_dir_all(&untrusted_dir).unwrap();
    let untrusted = servers::tls_files(&untrusted_dir).ca;
    let url = format!("{plain}?sslmode=require");
    // A server without TLS refuses `sslmode=require`.
    let Some(no_tls) = servers::postgres() else {
        return;
    };
    let no_tls_url = format!(
        "{}?sslmode=require",
        postgres_url(no_tls.port, servers::POSTGRES_PASSWORD)
    );
    assert_tls(&project, &url, &no_tls_url, &tls.ca, &untrusted);
    let out = agentws_trusting(
        &tls.ca,
        &[
            "store",
            "users",
            &no_tls_url,
            "--project",
            project.to_str().unwrap(),
        ],
    );
    assert!(
        text(&out.stderr).contains("server does not support TLS"),
        "{}",
        text(&out.stderr)
    );
    // libpq's verifying modes are accepted (the certificate is verified in every TLS mode).
    let p = project.to_str().unwrap();
    let full = format!("{plain}?sslmode=verify-full");
    let out = agentws_trusting(&tls.ca, &["store", "users", &full, "--project", p]);
    assert_eq!(text(&out.stdout), "alice\nbob\n", "{}", text(&out.stderr));
    let out = agentws_trusting(&untrusted, &["store", "users", &full, "--project", p]);
    assert!(
        text(&out.stderr).contains("invalid peer certificate"),
        "{}",
        text(&out.stderr)
    );
    let out = agentws(&[
        "store",
        "users",
        &format!("{plain}?sslmode=maybe"),
        "--project",
        p,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sslmode `maybe` is not one of disable, prefer, require"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(postgres_digest(&mut client), digest, "the store changed");
}

#[test]
fn mysql_ssl_mode_required_reads_over_tls() {
    let Some((server, Some(tls))) = servers::mariadb_with_tls(true) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nconnect_timeout = 2\n");
    let plain = mysql_url(server.port, servers::MARIADB_PASSWORD);
    let mut conn = servers::retry(|| servers::My::connect(&plain));
    seed_mysql(&mut conn, &clean_rows());
    let digest = mysql_digest(&mut conn);
    let untrusted_dir = tmp.path().join("other-ca");
    std::fs::create_dir_all(&untrusted_dir).unwrap();
    let untrusted = servers::tls_files(&untrusted_dir).ca;
    // The driver trusts its built-in roots plus `root_cert_path`.
    let with_ca = |ca: &Path| format!("{plain}?ssl-mode=REQUIRED&root_cert_path={}", ca.display());
    let url = with_ca(&tls.ca);
    let p = project.to_str().unwrap();
    let mut args = vec!["preview", p, "--store", &url, "--user", "alice"];
    args.extend(MACHINE);
    let out = agentws(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Answer in French."));
    let out = agentws(&["check", p, "--store", &url, "--user", "bob"]);
    assert!(text(&out.stdout).contains("store:agents/bot/users/bob/skills:/broken/SKILL.md"));
    let bad = with_ca(&untrusted);
    let out = agentws(&["check", p, "--store", &bad, "--user", "alice"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot connect to the MySQL store"), "{err}");
    assert!(!err.contains(servers::MARIADB_PASSWORD), "{err}");
    let out = agentws(&[
        "check",
        p,
        "--store",
        &format!("{plain}?ssl-mode=sometimes"),
        "--user",
        "alice",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("ssl-mode `sometimes` is not one of"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(mysql_digest(&mut conn), digest, "the store changed");
}

/// TLS asked of a MariaDB server that serves none: a clear message and exit 2, never a hang past
/// the connect timeout, never a plain-text fallback.
#[test]
fn mysql_ssl_mode_required_to_a_plain_server() {
    let Some(server) = servers::mariadb() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = template_with(tmp.path(), "[store]\nconnect_timeout = 2\n");
    let plain = mysql_url(server.port, servers::MARIADB_PASSWORD);
    let mut conn = servers::retry(|| servers::My::connect(&plain));
    seed_mysql(&mut conn, &clean_rows());
    let digest = mysql_digest(&mut conn);
    let p = project.to_str().unwrap();
    let url = format!("{plain}?ssl-mode=REQUIRED");
    let started = std::time::Instant::now();
    let out = agentws(&["check", p, "--store", &url, "--user", "alice"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        err,
        format!(
            "error: cannot connect to the MySQL store (mysql://agent:***@127.0.0.1:{}/ws?ssl-mode=REQUIRED): \
             the server does not support TLS, which ssl-mode asks for (serve TLS on the server, or \
             use ssl-mode=DISABLED)\n",
            server.port
        )
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(mysql_digest(&mut conn), digest, "the store changed");
}
