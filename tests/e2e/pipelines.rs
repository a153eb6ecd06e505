//! The pipeline integrations, run as a pipeline runs them: the `agentws-check` pre-commit hook
//! (.pre-commit-hooks.yaml and scripts/pre-commit-agentws) through the real `pre-commit` from PyPI
//! (`pre-commit try-repo` on a temporary git repository), and the GitHub Action's steps
//! (scripts/agentws-action, as action.yml calls them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use super::support::fixture;

fn repo_root() -> PathBuf {
    fixture("../..").canonicalize().unwrap()
}

fn agentws_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_agentws"))
}

/// PATH with the binary under test first.
fn path_with_agentws() -> String {
    format!(
        "{}:{}",
        agentws_bin().parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn write(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// A clean project: a workspace with AGENTS.md and one skill, and a README outside it.
fn clean_project(dir: &Path) {
    let ws = dir.join(".agentscope/workspace");
    write(&ws.join("AGENTS.md"), "# Agents\n\nBe brief.\n");
    write(
        &ws.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fill in PDF forms\n---\nUse the form's field names.\n",
    );
    write(&dir.join("README.md"), "# A project\n");
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
}

/// The `pre-commit` executable: `AGENTWS_PRE_COMMIT` (.ci/run's virtual environment), else the one
/// on PATH; `None` (the test skips) when there is none, except under `CI=true`.
fn pre_commit() -> Option<PathBuf> {
    let candidate = std::env::var_os("AGENTWS_PRE_COMMIT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("pre-commit"));
    let found = Command::new(&candidate)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some(candidate);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "pre-commit is required under CI=true; .ci/run installs it from PyPI in target/ci-python"
    );
    eprintln!("skipping: pre-commit not installed");
    None
}

/// `pre-commit try-repo <this repository> agentws-check ARGS` in the git repository `dir`.
fn try_repo(
    pre_commit: &Path,
    dir: &Path,
    cache: &Path,
    env: &[(&str, &str)],
    args: &[&str],
) -> Output {
    Command::new(pre_commit)
        .arg("try-repo")
        .arg(repo_root())
        .arg("agentws-check")
        .args(args)
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", cache)
        .env("PATH", path_with_agentws())
        .env_remove("AGENTWS")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// The hook passes a clean workspace, fails on a broken SKILL.md printing the finding, is skipped
/// for files outside the workspace, and passes the baseline only when the project has one.
#[test]
fn pre_commit_hook_checks_the_workspace_files() {
    let Some(pre_commit) = pre_commit() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (dir, cache) = (tmp.path().join("project"), tmp.path().join("cache"));
    clean_project(&dir);
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);

    let clean = try_repo(&pre_commit, &dir, &cache, &[], &["--all-files"]);
    let output = text(&clean);
    assert_eq!(clean.status.code(), Some(0), "{output}");
    assert!(
        output.contains("agentws check") && output.contains("Passed"),
        "{output}"
    );

    let readme_only = try_repo(&pre_commit, &dir, &cache, &[], &["--files", "README.md"]);
    assert_eq!(readme_only.status.code(), Some(0), "{}", text(&readme_only));
    assert!(
        text(&readme_only).contains("(no files to check)Skipped"),
        "{}",
        text(&readme_only)
    );

    let skill = dir.join(".agentscope/workspace/skills/pdf/SKILL.md");
    write(
        &skill,
        "---\nname: yes\ndescription: Fill in PDF forms\n---\nUse the form's field names.\n",
    );
    git(&dir, &["add", "-A"]);
    let broken = try_repo(&pre_commit, &dir, &cache, &[], &["--all-files"]);
    let output = text(&broken);
    assert_eq!(broken.status.code(), Some(1), "{output}");
    assert!(output.contains("Failed"), "{output}");
    assert!(
        output.contains(
            ".agentscope/workspace/skills/pdf/SKILL.md:2:7: error[SK008] `name: yes` is a YAML boolean (true), not a string; the runtime skips the skill"
        ),
        "{output}"
    );

    // With a baseline file the hook adds it; a stand-in binary shows the command line.
    let fake = tmp.path().join("fake-agentws");
    write(&fake, "#!/bin/sh\necho \"agentws $*\"\nexit 1\n");
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let fake_env = [("AGENTWS", fake.to_str().unwrap())];
    let without = text(&try_repo(
        &pre_commit,
        &dir,
        &cache,
        &fake_env,
        &["--files", ".agentscope/workspace/AGENTS.md"],
    ));
    assert!(
        without.contains("agentws check --format concise .agentscope/workspace/AGENTS.md\n"),
        "{without}"
    );
    write(&dir.join("agentws-baseline.json"), "{}\n");
    git(&dir, &["add", "-A"]);
    let with = text(&try_repo(
        &pre_commit,
        &dir,
        &cache,
        &fake_env,
        &["--files", ".agentscope/workspace/AGENTS.md"],
    ));
    assert!(
        with.contains(
            "agentws check --format concise --baseline agentws-baseline.json .agentscope/workspace/AGENTS.md\n"
        ),
        "{with}"
    );
}

/// scripts/agentws-action with the environment action.yml gives it.
fn action(root: &Path, args: &[&str], env: &[(&str, &str)], cwd: &Path) -> Output {
    Command::new(repo_root().join("scripts/agentws-action"))
        .args(args)
        .current_dir(cwd)
        .env("GITHUB_ACTION_PATH", repo_root())
        .env("AGENTWS_ROOT", root)
        .env_remove("INPUT_SARIF")
        .env_remove("INPUT_BASELINE")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// The action's steps: a cache key that follows the sources, an install that reuses the cached
/// binary and otherwise runs `cargo install` on this repository, and a check that annotates the
/// problems, fails on an error and writes valid SARIF when asked.
#[test]
fn github_action_steps_install_once_and_annotate() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tool-cache");

    let key = action(&root, &["key"], &[], tmp.path());
    let key_text = String::from_utf8(key.stdout.clone()).unwrap();
    assert_eq!(key.status.code(), Some(0), "{}", text(&key));
    assert!(
        key_text.len() == 33 && key_text.trim_end().chars().all(|c| c.is_ascii_hexdigit()),
        "{key_text:?}"
    );
    assert_eq!(action(&root, &["key"], &[], tmp.path()).stdout, key.stdout);

    // Nothing cached: `cargo install` into the root (a stand-in records its arguments and puts
    // the binary under test where cargo would).
    let cargo = tmp.path().join("fake-cargo");
    let recorded = tmp.path().join("cargo-args");
    write(
        &cargo,
        &format!(
            "#!/bin/sh\necho \"$*\" > '{}'\nmkdir -p '{root}/bin' && cp '{bin}' '{root}/bin/agentws'\n",
            recorded.display(),
            root = root.display(),
            bin = agentws_bin().display()
        ),
    );
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let cargo_env = [("CARGO", cargo.to_str().unwrap())];
    let install = action(&root, &["install"], &cargo_env, tmp.path());
    assert_eq!(install.status.code(), Some(0), "{}", text(&install));
    assert_eq!(
        std::fs::read_to_string(&recorded).unwrap(),
        format!(
            "install --locked --path {}/server --root {} --bin agentws\n",
            repo_root().display(),
            root.display()
        )
    );
    // Cached (restored by actions/cache): no build.
    std::fs::remove_file(&recorded).unwrap();
    let cached = action(&root, &["install"], &cargo_env, tmp.path());
    assert_eq!(cached.status.code(), Some(0), "{}", text(&cached));
    assert_eq!(
        String::from_utf8_lossy(&cached.stdout),
        format!("agentws: cached agentws {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert!(
        !recorded.exists(),
        "cargo ran although the binary was cached"
    );

    // The check: a project with an error gets annotations, exit 1, and SARIF when asked.
    let project = tmp.path().join("project");
    clean_project(&project);
    write(
        &project.join(".agentscope/workspace/skills/pdf/SKILL.md"),
        "---\nname: yes\ndescription: Fill in PDF forms\n---\nBody.\n",
    );
    let sarif = tmp.path().join("agentws.sarif");
    let check = action(
        &root,
        &["check", "."],
        &[("INPUT_SARIF", sarif.to_str().unwrap())],
        &project,
    );
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "::error file=.agentscope/workspace/skills/pdf/SKILL.md,line=2,col=7,endLine=2,endColumn=10,title=SK008::`name: yes` is a YAML boolean (true), not a string; the runtime skips the skill%0AThe runtime requires a string and skips the skill.\n"
    );
    let log = std::fs::read_to_string(&sarif).unwrap();
    super::check::assert_valid_sarif(&log);
    let log: Value = serde_json::from_str(&log).unwrap();
    assert_eq!(log["runs"][0]["results"][0]["ruleId"], "SK008");

    // The team's baseline at the top holds the finding: the check passes; a baseline named by
    // the input is read instead.
    let recorded = Command::new(agentws_bin())
        .args(["check", "--write-baseline", "agentws-baseline.json"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(recorded.status.code(), Some(0), "{}", text(&recorded));
    let judged = action(&root, &["check", "."], &[], &project);
    assert_eq!(judged.status.code(), Some(0), "{}", text(&judged));
    assert_eq!(String::from_utf8_lossy(&judged.stdout), "");
    std::fs::rename(
        project.join("agentws-baseline.json"),
        project.join("judged.json"),
    )
    .unwrap();
    let named = project.join("judged.json");
    let judged = action(
        &root,
        &["check", "."],
        &[("INPUT_BASELINE", named.to_str().unwrap())],
        &project,
    );
    assert_eq!(judged.status.code(), Some(0), "{}", text(&judged));
    let unjudged = action(&root, &["check", "."], &[], &project);
    assert_eq!(unjudged.status.code(), Some(1), "{}", text(&unjudged));

    // A clean project passes, and without the input no SARIF is written.
    clean_project(&project);
    std::fs::remove_file(&sarif).unwrap();
    let pass = action(&root, &["check", "."], &[], &project);
    assert_eq!(pass.status.code(), Some(0), "{}", text(&pass));
    assert!(!sarif.exists());
}
