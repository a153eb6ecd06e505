//! End-to-end tests: `agentws normalize` on the `paths-*` fixtures and on temporary projects with
//! real symlinks; exact JSON lines and exit codes.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{json, Value};

use crate::support::fixture;

/// The fixture's real path (no `..`), so printed paths are predictable.
fn basic() -> PathBuf {
    std::fs::canonicalize(fixture("paths-basic")).unwrap()
}

struct Outcome {
    code: i32,
    lines: Vec<Value>,
    stderr: String,
}

fn normalize(project: &Path, args: &[&str]) -> Outcome {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .arg("normalize")
        .arg(project)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    Outcome {
        code: output.status.code().unwrap(),
        lines: stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn accepted(input: &str, key: &str, path: &str) -> Value {
    json!({"input": input, "ok": true, "key": key, "path": path})
}

fn refused_code(line: &Value) -> &str {
    line["error"]["code"].as_str().unwrap()
}

#[test]
fn local_user_run_resolves_own_shared_and_refuses_the_rest() {
    let p = basic();
    let b = format!("{}/.agentscope/workspace", p.display());
    let out = normalize(
        &p,
        &[
            "--user",
            "alice",
            "notes.md",
            &format!("{b}/alice/notes.md"),
            &format!("file://{b}/alice/new%20file.md"),
            &format!("{b}/AGENTS.md"),
            &format!("{b}/bob/secret.txt"),
            "../bob/secret.txt",
            &format!("{}/src/main.rs", p.display()),
            "/etc/passwd",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.lines.len(), 8);
    assert_eq!(
        out.lines[0],
        accepted("notes.md", "notes.md", &format!("{b}/alice/notes.md"))
    );
    assert_eq!(
        out.lines[1],
        accepted(
            &format!("{b}/alice/notes.md"),
            "notes.md",
            &format!("{b}/alice/notes.md")
        )
    );
    assert_eq!(
        out.lines[2],
        accepted(
            &format!("file://{b}/alice/new%20file.md"),
            "new file.md",
            &format!("{b}/alice/new file.md")
        )
    );
    assert_eq!(
        out.lines[3],
        accepted(
            &format!("{b}/AGENTS.md"),
            "/AGENTS.md",
            &format!("{b}/AGENTS.md")
        )
    );
    assert_eq!(
        out.lines[4],
        json!({"input": format!("{b}/bob/secret.txt"), "ok": false, "error": {
            "code": "cross-namespace",
            "message": format!("`{b}/bob/secret.txt` is the folder `bob` of the base workspace, outside this run's root `{b}/alice` (namespace `alice`); a namespaced run reaches only its own folder and reads the shared assets")
        }})
    );
    assert_eq!(refused_code(&out.lines[5]), "traversal");
    let main = format!("{}/src/main.rs", p.display());
    assert_eq!(out.lines[6], accepted(&main, &main, &main));
    assert_eq!(refused_code(&out.lines[7]), "outside-roots");
}

#[test]
fn all_accepted_exits_zero_and_write_respects_shared_assets() {
    let p = basic();
    let b = format!("{}/.agentscope/workspace", p.display());
    let out = normalize(
        &p,
        &[
            "--session",
            "s1",
            "--scope",
            "session",
            "--op",
            "write",
            "a.md",
            ".",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.lines[0],
        accepted("a.md", "a.md", &format!("{b}/s1/a.md"))
    );
    assert_eq!(out.lines[1], accepted(".", ".", &format!("{b}/s1")));
    let out = normalize(
        &p,
        &[
            "--session",
            "s1",
            "--scope",
            "session",
            "--op",
            "write",
            &format!("{b}/SOUL.md"),
        ],
    );
    assert_eq!(out.code, 1);
    assert_eq!(refused_code(&out.lines[0]), "shared-read-only");
    let out = normalize(
        &p,
        &[
            "--scope",
            "global",
            "--op",
            "write",
            &format!("{b}/AGENTS.md"),
        ],
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        out.lines[0],
        accepted(
            &format!("{b}/AGENTS.md"),
            "AGENTS.md",
            &format!("{b}/AGENTS.md")
        )
    );
}

#[test]
fn e2b_and_docker_sandbox_roots() {
    let p = basic();
    let out = normalize(
        &p,
        &[
            "--user",
            "alice",
            "--filesystem",
            "sandbox",
            "--sandbox-root",
            "/home/user",
            "/home/user/report.md",
            "report.md",
            "/workspace/report.md",
            &format!("{}/src/main.rs", p.display()),
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.lines[0],
        accepted("/home/user/report.md", "report.md", "/home/user/report.md")
    );
    assert_eq!(
        out.lines[1],
        accepted("report.md", "report.md", "/home/user/report.md")
    );
    assert_eq!(refused_code(&out.lines[2]), "outside-roots");
    assert_eq!(refused_code(&out.lines[3]), "outside-roots");

    let out = normalize(
        &p,
        &[
            "--user",
            "alice",
            "--filesystem",
            "sandbox",
            "/workspace/",
            "/workspace/alice/x",
            "src\\lib.rs",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines[0], accepted("/workspace/", ".", "/workspace"));
    assert_eq!(
        out.lines[1],
        accepted("/workspace/alice/x", "alice/x", "/workspace/alice/x")
    );
    assert_eq!(
        out.lines[2],
        accepted("src\\lib.rs", "src/lib.rs", "/workspace/src/lib.rs")
    );
}

#[test]
fn path_modes_and_additional_roots_from_the_command_line() {
    let p = basic();
    let data = format!("{}/shared-data/readme.md", p.display());
    let extra = p.join("shared-data");
    let extra = extra.to_str().unwrap();
    let out = normalize(&p, &["--user", "alice", "--additional-root", extra, &data]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines[0], accepted(&data, &data, &data));
    let out = normalize(
        &p,
        &[
            "--user",
            "alice",
            "--additional-root",
            extra,
            "--path-mode",
            "sandboxed",
            &data,
        ],
    );
    assert_eq!(out.code, 1);
    assert_eq!(refused_code(&out.lines[0]), "outside-roots");
    let out = normalize(
        &p,
        &[
            "--user",
            "alice",
            "--path-mode",
            "unrestricted",
            "/etc/hosts",
        ],
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        out.lines[0],
        accepted("/etc/hosts", "/etc/hosts", "/etc/hosts")
    );
}

#[test]
fn additional_roots_come_from_agentws_toml_relative_to_its_folder() {
    let p = basic();
    let data = format!("{}/shared-data/readme.md", p.display());
    let out = normalize(&p, &["--user", "alice", &data]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines[0], accepted(&data, &data, &data));
}

#[test]
fn usage_errors_exit_two() {
    let p = basic();
    let out = normalize(&p, &["--user", "../bob", "notes.md"]);
    assert_eq!(out.code, 2);
    assert!(out.lines.is_empty());
    assert!(
        out.stderr
            .contains("the run context is refused (invalid-id: user id `../bob`"),
        "{}",
        out.stderr
    );
    let out = normalize(&p, &["--filesystem", "sandbox", "--sandbox-root", "/", "x"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("invalid-sandbox-root"),
        "{}",
        out.stderr
    );
    assert_eq!(normalize(&p, &["--user", "alice"]).code, 2);
    assert_eq!(normalize(&p, &["--scope", "team", "x"]).code, 2);
    assert_eq!(normalize(&p, &["--op", "delete", "x"]).code, 2);
    let out = normalize(&p.join("no-such-project"), &["x"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
}

#[test]
fn symlinks_out_of_the_run_are_refused_unless_lexical() {
    let dir = tempfile::tempdir().unwrap();
    let p = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(p.join("agentws.toml"), "[agent]\nname = \"assistant\"\n").unwrap();
    let b = p.join(".agentscope/workspace");
    std::fs::create_dir_all(b.join("alice")).unwrap();
    std::fs::create_dir_all(b.join("bob")).unwrap();
    std::fs::write(b.join("bob/secret.txt"), "s").unwrap();
    std::os::unix::fs::symlink(b.join("bob"), b.join("alice/to-bob")).unwrap();
    let out = normalize(&p, &["--user", "alice", "to-bob/secret.txt", "own.md"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(refused_code(&out.lines[0]), "symlink-escape");
    assert_eq!(
        out.lines[1],
        accepted("own.md", "own.md", &format!("{}/alice/own.md", b.display()))
    );
    let out = normalize(&p, &["--user", "alice", "--lexical", "to-bob/secret.txt"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn inputs_that_are_not_utf8_are_invalid() {
    use std::os::unix::ffi::OsStrExt;
    let p = basic();
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .arg("normalize")
        .arg(&p)
        .args(["--user", "alice"])
        .arg(std::ffi::OsStr::from_bytes(b"caf\xe9.md"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let line: Value = serde_json::from_slice(output.stdout.trim_ascii_end()).unwrap();
    assert_eq!(line["input"], "caf\u{fffd}.md");
    assert_eq!(line["error"]["code"], "invalid");
}

#[test]
fn sandbox_roots_come_from_agentws_toml() {
    let e2b = std::fs::canonicalize(fixture("paths-e2b")).unwrap();
    let out = normalize(
        &e2b,
        &["--user", "alice", "/home/user/a.txt", "/workspace/a.txt"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.lines[0],
        accepted("/home/user/a.txt", "a.txt", "/home/user/a.txt")
    );
    assert_eq!(refused_code(&out.lines[1]), "outside-roots");
    // The flag overrides the file: Docker's root in the same project.
    let out = normalize(&e2b, &["--sandbox-root", "/workspace", "/workspace/a.txt"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.lines[0],
        accepted("/workspace/a.txt", "a.txt", "/workspace/a.txt")
    );
    // Local mode from the command line: host paths again.
    let out = normalize(&e2b, &["--filesystem", "local", "--user", "alice", "a.txt"]);
    assert_eq!(
        out.lines[0],
        accepted(
            "a.txt",
            "a.txt",
            &format!("{}/.agentscope/workspace/alice/a.txt", e2b.display())
        )
    );

    let spec = std::fs::canonicalize(fixture("paths-spec-root")).unwrap();
    let out = normalize(
        &spec,
        &[
            "--session",
            "s1",
            "/home/agentscope/workspace/x/y.md",
            "/home/user/y.md",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.lines[0],
        accepted(
            "/home/agentscope/workspace/x/y.md",
            "x/y.md",
            "/home/agentscope/workspace/x/y.md"
        )
    );
    assert_eq!(refused_code(&out.lines[1]), "outside-roots");
}

#[test]
fn conflicting_sandbox_roots_refuse_every_run() {
    let p = std::fs::canonicalize(fixture("paths-conflicting-roots")).unwrap();
    let out = normalize(&p, &["--user", "alice", "/home/user/a.txt"]);
    assert_eq!(out.code, 2);
    assert!(out.lines.is_empty());
    assert!(
        out.stderr.contains("CF009") || out.stderr.contains("differs from `sandbox_root`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("the project configuration has errors"),
        "{}",
        out.stderr
    );
}

/// The security items of docs/paths.md §7 and §13 through the real binary: a user whose folder
/// would be a shared context file cannot start a run, `/` spelled `/.` is not a sandbox root,
/// the project's agentws.toml and files with other hard links are not writable, and the
/// workspace spelled with other letter case is not a project path.
#[test]
fn runs_cannot_take_or_write_what_other_runs_read() {
    let dir = tempfile::tempdir().unwrap();
    let p = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(
        p.join("agentws.toml"),
        "[agent]\nname = \"assistant\"\nadditional_context_files = [\"docs/Guide.md\", \"Guide.md\"]\n",
    )
    .unwrap();
    let b = p.join(".agentscope/workspace");
    for folder in ["alice", "bob", "docs"] {
        std::fs::create_dir_all(b.join(folder)).unwrap();
    }
    std::fs::write(b.join("docs/Guide.md"), "shared").unwrap();
    std::fs::write(b.join("Guide.md"), "shared").unwrap();
    std::fs::write(b.join("bob/notes.md"), "bob's").unwrap();
    std::fs::hard_link(b.join("bob/notes.md"), b.join("alice/notes.md")).unwrap();

    for (flags, code) in [
        (vec!["--user", "docs"], "invalid-id"),
        (vec!["--user", "Guide.md"], "invalid-id"),
        (
            vec!["--scope", "session", "--session", "DOCS"],
            "invalid-id",
        ),
        (vec!["--user", "ali\u{202E}ce"], "invalid-id"),
        (
            vec!["--filesystem", "sandbox", "--sandbox-root", "/."],
            "invalid-sandbox-root",
        ),
        (
            vec!["--filesystem", "sandbox", "--sandbox-root", "/./."],
            "invalid-sandbox-root",
        ),
    ] {
        let mut args = flags.clone();
        args.extend(["--op", "write", "Guide.md"]);
        let out = normalize(&p, &args);
        assert_eq!(out.code, 2, "{flags:?}: {:?}", out.lines);
        assert!(out.lines.is_empty());
        assert!(
            out.stderr
                .contains(&format!("the run context is refused ({code}: ")),
            "{flags:?}: {}",
            out.stderr
        );
    }
    let out = normalize(&p, &["--user", "docs", "Guide.md"]);
    assert!(
        out.stderr.contains(
            "user id `docs` names the folder `docs` of the shared additional context file \
             `docs/Guide.md`"
        ),
        "{}",
        out.stderr
    );

    let cfg = format!("{}/agentws.toml", p.display());
    let upper = format!("{}/.AGENTSCOPE/workspace/bob/notes.md", p.display());
    let out = normalize(
        &p,
        &[
            "--user", "alice", "--op", "write", &cfg, "notes.md", &upper, "new.md",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let codes: Vec<&str> = out.lines[..3].iter().map(refused_code).collect();
    assert_eq!(codes, ["shared-read-only", "hard-link", "cross-namespace"]);
    assert_eq!(
        out.lines[3],
        accepted("new.md", "new.md", &format!("{}/alice/new.md", b.display()))
    );
    // Reading stays allowed.
    let out = normalize(&p, &["--user", "alice", &cfg, "notes.md"]);
    assert_eq!(out.code, 0, "{:?}", out.lines);
}
