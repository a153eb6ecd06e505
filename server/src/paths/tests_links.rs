//! The symlink rule with real links in a temporary folder: a path that is fine as written but
//! reaches, through a link, a file the run could not name directly is `symlink-escape`.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::*;
use crate::config::{Config, PathMode};
use crate::context::SessionContext;

struct Fixture {
    _dir: tempfile::TempDir,
    top: PathBuf,
    project: PathBuf,
    base: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let top = fs::canonicalize(dir.path()).unwrap();
    let project = top.join("project");
    let base = project.join(".agentscope/workspace");
    for folder in ["alice/docs", "bob", "skills/pdf", "carol-real"] {
        fs::create_dir_all(base.join(folder)).unwrap();
    }
    fs::create_dir_all(project.join("src")).unwrap();
    fs::create_dir_all(top.join("outside")).unwrap();
    fs::write(base.join("bob/secret.txt"), "bob's").unwrap();
    fs::write(base.join("skills/pdf/SKILL.md"), "---\n---\n").unwrap();
    fs::write(base.join("alice/docs/x.md"), "x").unwrap();
    fs::write(top.join("outside/file"), "o").unwrap();
    let alice = base.join("alice");
    symlink(base.join("bob"), alice.join("to-bob")).unwrap();
    symlink("../bob", alice.join("rel-bob")).unwrap();
    symlink(alice.join("docs"), alice.join("own")).unwrap();
    symlink("docs/x.md", alice.join("own-file")).unwrap();
    symlink(base.join("skills"), alice.join("skills-link")).unwrap();
    symlink(top.join("outside"), alice.join("out")).unwrap();
    symlink(project.join("src"), alice.join("proj")).unwrap();
    symlink(base.join("bob/new.txt"), alice.join("dangling")).unwrap();
    symlink("missing/../../bob", alice.join("climb")).unwrap();
    symlink("loop2", alice.join("loop1")).unwrap();
    symlink("loop1", alice.join("loop2")).unwrap();
    symlink(base.join("bob"), base.join("carol")).unwrap();
    symlink(base.join("bob"), project.join("src/ws-bob")).unwrap();
    symlink(&base, top.join("ws-link")).unwrap();
    Fixture {
        _dir: dir,
        top,
        project,
        base,
    }
}

fn run(f: &Fixture, user: &str, path_mode: PathMode, workspace: Option<&Path>) -> Run {
    let mut config = Config::defaults_for(&f.project);
    if let Some(ws) = workspace {
        config.workspace = ws.to_path_buf();
    }
    config.agent.name = Some("assistant".into());
    let mut ctx = SessionContext::from_config(&config);
    ctx.user_id = Some(user.into());
    let options = RunOptions {
        path_mode,
        ..RunOptions::from_config(&config)
    };
    Run::new(&config, &ctx, options).unwrap()
}

fn answer(run: &Run, input: &str, op: Op) -> String {
    match run.normalize(input, op) {
        Ok(n) => n.key,
        Err(r) => format!("!{}", r.code),
    }
}

#[test]
fn links_are_judged_by_where_they_lead() {
    let f = fixture();
    let alice = run(&f, "alice", PathMode::Rooted, None);
    let b = f.base.to_str().unwrap();
    let p = f.project.to_str().unwrap();
    let cases: Vec<(String, Op, &str)> = vec![
        ("docs/x.md".into(), Op::Write, "docs/x.md"),
        ("new/deeper/file.md".into(), Op::Write, "new/deeper/file.md"),
        ("to-bob/secret.txt".into(), Op::Read, "!symlink-escape"),
        ("to-bob".into(), Op::Read, "!symlink-escape"),
        (
            format!("{b}/alice/to-bob/secret.txt"),
            Op::Read,
            "!symlink-escape",
        ),
        ("rel-bob/secret.txt".into(), Op::Read, "!symlink-escape"),
        ("own/x.md".into(), Op::Write, "own/x.md"),
        ("own-file".into(), Op::Write, "own-file"),
        (
            "skills-link/pdf/SKILL.md".into(),
            Op::Read,
            "skills-link/pdf/SKILL.md",
        ),
        (
            "skills-link/pdf/SKILL.md".into(),
            Op::Write,
            "!symlink-escape",
        ),
        ("out/file".into(), Op::Read, "!symlink-escape"),
        ("proj/main.rs".into(), Op::Write, "proj/main.rs"),
        ("dangling".into(), Op::Write, "!symlink-escape"),
        ("climb/secret.txt".into(), Op::Read, "!symlink-escape"),
        ("loop1/x".into(), Op::Read, "!symlink-escape"),
        (
            format!("{p}/src/ws-bob/secret.txt"),
            Op::Read,
            "!symlink-escape",
        ),
        (
            format!("{b}/skills/pdf/SKILL.md"),
            Op::Read,
            "/skills/pdf/SKILL.md",
        ),
    ];
    let mut failures = Vec::new();
    for (input, op, expected) in &cases {
        let got = answer(&alice, input, *op);
        if got != *expected {
            failures.push(format!("{input} {op:?}: expected {expected}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));

    let err = alice.normalize("to-bob/secret.txt", Op::Read).unwrap_err();
    assert_eq!(
        err.message,
        format!(
            "`to-bob/secret.txt` resolves through a symbolic link to `{b}/bob/secret.txt`, which \
             this run may not read: cross-namespace (`{b}/bob/secret.txt` is the folder `bob` of \
             the base workspace, outside this run's root `{b}/alice` (namespace `alice`); a \
             namespaced run reaches only its own folder and reads the shared assets)"
        )
    );
}

#[test]
fn the_same_links_pass_or_fail_with_the_path_mode() {
    let f = fixture();
    let unrestricted = run(&f, "alice", PathMode::Unrestricted, None);
    assert_eq!(answer(&unrestricted, "out/file", Op::Read), "out/file");
    assert_eq!(
        answer(&unrestricted, "to-bob/secret.txt", Op::Read),
        "!symlink-escape"
    );
    let outside = f.top.join("outside/file");
    assert_eq!(
        answer(&unrestricted, outside.to_str().unwrap(), Op::Read),
        outside.to_str().unwrap()
    );
    let sandboxed = run(&f, "alice", PathMode::Sandboxed, None);
    assert_eq!(
        answer(&sandboxed, "proj/main.rs", Op::Read),
        "!symlink-escape"
    );
    assert_eq!(answer(&sandboxed, "own/x.md", Op::Read), "own/x.md");
}

#[test]
fn a_namespace_folder_that_is_a_link_is_refused() {
    let f = fixture();
    let carol = run(&f, "carol", PathMode::Rooted, None);
    assert_eq!(answer(&carol, "secret.txt", Op::Read), "!symlink-escape");
    assert_eq!(answer(&carol, ".", Op::Read), "!symlink-escape");
}

#[test]
fn a_workspace_reached_through_a_link_still_works() {
    let f = fixture();
    let ws_link = f.top.join("ws-link");
    let alice = run(&f, "alice", PathMode::Rooted, Some(&ws_link));
    assert_eq!(alice.root(), ws_link.join("alice").to_str().unwrap());
    let n = alice.normalize("docs/x.md", Op::Write).unwrap();
    assert_eq!(n.path, format!("{}/alice/docs/x.md", ws_link.display()));
    assert_eq!(
        answer(&alice, "to-bob/secret.txt", Op::Read),
        "!symlink-escape"
    );
    let through_link = format!("{}/alice/docs/x.md", ws_link.display());
    assert_eq!(answer(&alice, &through_link, Op::Read), "docs/x.md");
    // The real spelling of alice's folder lies inside the project folder: a project path whose
    // real form is alice's own file, so it passes; bob's folder spelled that way does not.
    let real = format!("{}/alice/docs/x.md", f.base.display());
    assert_eq!(answer(&alice, &real, Op::Read), real);
    let bob = format!("{}/bob/secret.txt", f.base.display());
    assert_eq!(answer(&alice, &bob, Op::Read), "!symlink-escape");
}

#[test]
fn a_namespace_folder_linked_to_other_storage_needs_that_storage_as_a_root() {
    let f = fixture();
    symlink(f.top.join("outside"), f.base.join("dave")).unwrap();
    let dave = run(&f, "dave", PathMode::Rooted, None);
    assert_eq!(answer(&dave, "file", Op::Read), "!symlink-escape");
    let mut config = Config::defaults_for(&f.project);
    config.agent.name = Some("assistant".into());
    config.filesystem.additional_roots = vec![f.top.join("outside")];
    let mut ctx = SessionContext::from_config(&config);
    ctx.user_id = Some("dave".into());
    let dave = Run::new(&config, &ctx, RunOptions::from_config(&config)).unwrap();
    let n = dave.normalize("file", Op::Write).unwrap();
    assert_eq!(n.key, "file");
    assert_eq!(n.path, format!("{}/dave/file", f.base.display()));
}

#[test]
fn the_workspace_spelled_with_other_case_is_not_a_project_path() {
    // On macOS `.AGENTSCOPE/workspace/bob` is bob's folder; here (case-sensitive) it does not
    // exist, so only the rule on spellings can refuse it, and it must.
    let f = fixture();
    let alice = run(&f, "alice", PathMode::Rooted, None);
    let p = f.project.to_str().unwrap();
    for input in [
        format!("{p}/.AGENTSCOPE/workspace/bob/secret.txt"),
        format!("{p}/.agentscope/Workspace/skills/pdf/SKILL.md"),
        format!("{p}/.agentscope/WORKSPACE"),
    ] {
        assert_eq!(
            answer(&alice, &input, Op::Write),
            "!cross-namespace",
            "{input}"
        );
        assert_eq!(
            answer(&alice, &input, Op::Read),
            "!cross-namespace",
            "{input}"
        );
    }
    let err = alice
        .normalize(&format!("{p}/.AGENTSCOPE/workspace/bob/x"), Op::Read)
        .unwrap_err();
    assert!(
        err.message
            .contains("with other letter case; on a case-insensitive volume"),
        "{}",
        err.message
    );
    // Other project paths are project paths.
    assert_eq!(
        answer(&alice, &format!("{p}/src/main.rs"), Op::Write),
        format!("{p}/src/main.rs")
    );
}

#[test]
fn a_write_to_a_file_with_other_hard_links_is_refused() {
    let f = fixture();
    let alice_dir = f.base.join("alice");
    fs::hard_link(f.base.join("bob/secret.txt"), alice_dir.join("hard.txt")).unwrap();
    fs::hard_link(
        f.base.join("skills/pdf/SKILL.md"),
        alice_dir.join("docs/skill-copy.md"),
    )
    .unwrap();
    fs::write(alice_dir.join("single.txt"), "one name").unwrap();
    symlink("hard.txt", alice_dir.join("to-hard")).unwrap();
    let alice = run(&f, "alice", PathMode::Rooted, None);
    let b = f.base.to_str().unwrap();
    let cases: Vec<(String, Op, &str)> = vec![
        ("hard.txt".into(), Op::Write, "!hard-link"),
        ("hard.txt".into(), Op::Read, "hard.txt"),
        ("docs/skill-copy.md".into(), Op::Write, "!hard-link"),
        (format!("{b}/alice/hard.txt"), Op::Write, "!hard-link"),
        ("to-hard".into(), Op::Write, "!hard-link"),
        ("to-hard".into(), Op::Read, "to-hard"),
        ("single.txt".into(), Op::Write, "single.txt"),
        ("new.txt".into(), Op::Write, "new.txt"),
        ("docs".into(), Op::Write, "docs"),
    ];
    for (input, op, expected) in &cases {
        assert_eq!(answer(&alice, input, *op), *expected, "{input} {op:?}");
    }
    let err = alice.normalize("hard.txt", Op::Write).unwrap_err();
    assert_eq!(
        err.message,
        "`hard.txt` is a file with 2 hard links; its other names may lie in another namespace's \
         folder or be shared assets, which no path check can see, so a run may read it but not \
         write it"
    );
    // Lexical runs do not look at the disk, so they cannot see hard links either.
    let mut config = Config::defaults_for(&f.project);
    config.agent.name = Some("assistant".into());
    let mut ctx = SessionContext::from_config(&config);
    ctx.user_id = Some("alice".into());
    let options = RunOptions {
        disk: DiskAccess::Lexical,
        ..RunOptions::from_config(&config)
    };
    let lexical = Run::new(&config, &ctx, options).unwrap();
    assert_eq!(answer(&lexical, "hard.txt", Op::Write), "hard.txt");
}

#[test]
fn shared_context_files_and_the_configuration_stay_read_only_through_links() {
    let f = fixture();
    fs::create_dir_all(f.base.join("docs")).unwrap();
    fs::write(f.base.join("docs/Guide.md"), "shared guide").unwrap();
    fs::write(
        f.project.join("agentws.toml"),
        "[agent]\nname = \"assistant\"\n",
    )
    .unwrap();
    let alice_dir = f.base.join("alice");
    symlink(f.base.join("docs/Guide.md"), alice_dir.join("guide")).unwrap();
    symlink(f.base.join("docs"), alice_dir.join("shared-docs")).unwrap();
    symlink(f.project.join("agentws.toml"), alice_dir.join("cfg")).unwrap();
    symlink(&f.project, alice_dir.join("proj-root")).unwrap();
    let mut config = Config::defaults_for(&f.project);
    config.file = Some(f.project.join("agentws.toml"));
    config.agent.name = Some("assistant".into());
    config.agent.additional_context_files = vec!["docs/Guide.md".into()];
    let run_as = |user: &str| {
        let mut ctx = SessionContext::from_config(&config);
        ctx.user_id = Some(user.into());
        Run::new(&config, &ctx, RunOptions::from_config(&config))
    };
    let alice = run_as("alice").unwrap();
    let p = f.project.to_str().unwrap();
    let cfg_path = format!("{p}/agentws.toml");
    let cases: Vec<(String, Op, &str)> = vec![
        ("guide".into(), Op::Read, "guide"),
        ("guide".into(), Op::Write, "!symlink-escape"),
        ("shared-docs/Guide.md".into(), Op::Write, "!symlink-escape"),
        ("cfg".into(), Op::Read, "cfg"),
        ("cfg".into(), Op::Write, "!symlink-escape"),
        (
            "proj-root/agentws.toml".into(),
            Op::Write,
            "!symlink-escape",
        ),
        (
            "proj-root/src/new.rs".into(),
            Op::Write,
            "proj-root/src/new.rs",
        ),
        (format!("{p}/agentws.toml"), Op::Write, "!shared-read-only"),
        (cfg_path.clone(), Op::Read, cfg_path.as_str()),
    ];
    for (input, op, expected) in &cases {
        assert_eq!(answer(&alice, input, *op), *expected, "{input} {op:?}");
    }
    let err = alice.normalize("cfg", Op::Write).unwrap_err();
    assert!(
        err.message.contains("shared-read-only (") && err.message.contains("binds every run"),
        "{}",
        err.message
    );
    // The user whose namespace folder would be `docs/` cannot start a run at all.
    let err = run_as("docs").unwrap_err();
    assert_eq!(err.code, RefusalCode::InvalidId);
    assert!(
        err.message
            .contains("would write the file every other user's prompt reads")
            || err.message.contains("its file tools would write"),
        "{}",
        err.message
    );
}
