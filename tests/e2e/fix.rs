//! End-to-end tests of `agentws check --fix` writing files: what is refused (read-only files,
//! hard links), what is kept (owner, group, mode), how refusals are reported and counted, and
//! that a concurrent writer loses nothing.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use super::check::{check_json, copy_tree, run, stderr, stdout};
use super::support::fixture;

const SKILL: &str = "---\nname: yes\ndescription: Says yes.\n---\nBody\n";
const FIXED: &str = "---\nname: \"yes\"\ndescription: Says yes.\n---\nBody\n";
const SHOWN: &str = "p/.agentscope/workspace/skills/yes/SKILL.md";

/// A copy of cli-basic in `dir/p` with one skill whose `name: yes` has a fix; its path.
fn project_with_fixable_skill(dir: &Path) -> PathBuf {
    let project = dir.join("p");
    copy_tree(&fixture("cli-basic"), &project);
    let skill = project.join(".agentscope/workspace/skills/yes/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    std::fs::write(&skill, SKILL).unwrap();
    skill
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().mode() & 0o7777
}

#[test]
fn a_read_only_file_is_left_alone_reported_and_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let skill = project_with_fixable_skill(dir.path());
    std::fs::set_permissions(&skill, std::fs::Permissions::from_mode(0o444)).unwrap();
    let ino = std::fs::metadata(&skill).unwrap().ino();

    let out = run(dir.path(), &["check", "--fix", "p"]);
    let text = stdout(&out);
    assert!(text.contains("Applied 0 fixes in 0 files.\n"), "{text}");
    assert!(
        text.contains(&format!(
            "Not fixed: {SHOWN}: SK008 Quote `yes` so it stays a string (the file is read-only (its owner has no write permission); it is not rewritten)\n"
        )),
        "{text}"
    );
    // The error remains, so the exit code says so.
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&skill).unwrap(), SKILL);
    assert_eq!(mode(&skill), 0o444);
    assert_eq!(std::fs::metadata(&skill).unwrap().ino(), ino);

    // Machine formats keep stdout to their contract and say the same on stderr.
    let out = run(dir.path(), &["check", "--fix", "--format", "json", "p"]);
    let err = stderr(&out);
    assert!(err.contains("applied 0 fixes in 0 files\n"), "{err}");
    assert!(
        err.contains(&format!("not fixed: {SHOWN}: SK008 Quote")),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&skill).unwrap(), SKILL);
}

#[test]
fn a_hard_linked_file_is_refused_and_both_links_stay() {
    let dir = tempfile::tempdir().unwrap();
    let skill = project_with_fixable_skill(dir.path());
    let other = dir.path().join("other-name.md");
    std::fs::hard_link(&skill, &other).unwrap();

    let out = run(dir.path(), &["check", "--fix", "p"]);
    let text = stdout(&out);
    assert!(text.contains("Applied 0 fixes in 0 files.\n"), "{text}");
    assert!(
        text.contains("(the file has 2 hard links; rewriting it would split them (the other names would keep the old text))"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&skill).unwrap(), SKILL);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), SKILL);
    let (a, b) = (
        std::fs::metadata(&skill).unwrap(),
        std::fs::metadata(&other).unwrap(),
    );
    assert_eq!((a.ino(), a.nlink()), (b.ino(), 2));
}

#[test]
fn owner_group_and_mode_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let skill = project_with_fixable_skill(dir.path());
    std::fs::set_permissions(&skill, std::fs::Permissions::from_mode(0o640)).unwrap();
    // Only root can give a file to someone else; the mode is checked either way.
    let root = std::fs::metadata(&skill).unwrap().uid() == 0;
    if root {
        std::os::unix::fs::chown(&skill, Some(12345), Some(12345)).unwrap();
    }

    let out = run(dir.path(), &["check", "--fix", "p"]);
    assert!(
        stdout(&out).contains("Applied 1 fix in 1 file.\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::read_to_string(&skill).unwrap(), FIXED);
    assert_eq!(mode(&skill), 0o640);
    if root {
        let meta = std::fs::metadata(&skill).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (12345, 12345));
    }
    // No temporary file is left in the skill's folder.
    let names: Vec<_> = std::fs::read_dir(skill.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["SKILL.md"]);
}

#[test]
fn a_file_whose_owner_cannot_be_kept_is_refused() {
    // Needs two users: root sets up a file of user 12345 that anyone may write, and agentws runs
    // as `nobody`, who can write it but cannot give a new file to user 12345.
    let dir = tempfile::tempdir().unwrap();
    let skill = project_with_fixable_skill(dir.path());
    if std::fs::metadata(&skill).unwrap().uid() != 0 {
        return;
    }
    let mut d = skill.parent().unwrap();
    while d != dir.path().parent().unwrap() {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap();
        d = d.parent().unwrap();
    }
    std::fs::set_permissions(&skill, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::os::unix::fs::chown(&skill, Some(12345), Some(12345)).unwrap();

    let out = {
        use std::os::unix::process::CommandExt;
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("agentws"));
        cmd.current_dir(dir.path())
            .args(["check", "--fix", "p"])
            .uid(65534)
            .gid(65534);
        cmd.output().unwrap()
    };
    let text = stdout(&out);
    assert!(
        text.contains("Applied 0 fixes in 0 files.\n"),
        "{text}{}",
        stderr(&out)
    );
    assert!(
        text.contains(&format!("Not fixed: {SHOWN}: SK008 Quote `yes` so it stays a string (its owner and group could not be kept, 12345:12345: Operation not permitted (os error 1); it is not rewritten)\n")),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&skill).unwrap(), SKILL);
    let meta = std::fs::metadata(&skill).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (12345, 12345));
    let names: Vec<_> = std::fs::read_dir(skill.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["SKILL.md"]);
}

#[test]
fn fix_runs_racing_a_writer_lose_no_line() {
    // The writer takes turns: an editor's save (a temporary file renamed over the skill, which
    // also brings the fixable `name: yes` back), an append under an advisory lock, the way a
    // cooperating appender writes, and a plain append (see docs/cli.md, "Write protocol").
    let dir = tempfile::tempdir().unwrap();
    let skill = project_with_fixable_skill(dir.path());
    let stop = AtomicBool::new(false);
    let lines = AtomicUsize::new(0);
    let runs = 40;
    let applied = std::thread::scope(|s| {
        s.spawn(|| {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                match n % 3 {
                    0 => save_like_an_editor(&skill, |text| {
                        format!("{}line {n}\n", text.replace(": \"yes\"", ": yes"))
                    }),
                    1 => append_locked(&skill, &format!("line {n}\n")),
                    _ => {
                        let mut f = std::fs::OpenOptions::new()
                            .append(true)
                            .open(&skill)
                            .unwrap();
                        f.write_all(format!("line {n}\n").as_bytes()).unwrap();
                    }
                }
                n += 1;
                lines.store(n, Ordering::Relaxed);
                // Varied pauses, so that writes land in every phase of a run (at least 2 ms, as
                // in the library race: see docs/cli.md).
                std::thread::sleep(Duration::from_millis(2 + (n as u64 * 7) % 40));
            }
        });
        let mut applied = 0;
        for _ in 0..runs {
            let out = run(dir.path(), &["check", "--fix", "p"]);
            if stdout(&out).contains("Applied 1 fix in 1 file.") {
                applied += 1;
            }
        }
        stop.store(true, Ordering::Relaxed);
        applied
    });
    let text = std::fs::read_to_string(&skill).unwrap();
    let lines = lines.load(Ordering::Relaxed);
    assert!(applied > 0 && lines > 0, "{applied} fixes, {lines} lines");
    for n in 0..lines {
        let line = format!("line {n}\n");
        assert_eq!(text.matches(&line).count(), 1, "{line:?} in {text}");
    }
    let names: Vec<_> = std::fs::read_dir(skill.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains("agentws-fix"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn fix_removes_the_tag_of_a_tagged_value() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture("fix-tagged"), &dir.path().join("p"));
    let out = run(dir.path(), &["check", "--fix", "p"]);
    let text = stdout(&out);
    assert!(text.contains("Applied 7 fixes in 3 files.\n"), "{text}");
    assert!(
        text.contains("Found 0 errors, 0 warnings, 0 infos.\n"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(0));
    let skills = dir.path().join("p/.agentscope/workspace/skills");
    let read = |name: &str| std::fs::read_to_string(skills.join(name).join("SKILL.md")).unwrap();
    assert!(read("yes").starts_with("---\nname: \"yes\"\ndescription: \"on\"\n---\n"));
    assert!(read("12").starts_with("---\nname: &n \"12\"\ndescription: \n  \"1.5\"\n---\n"));
    assert!(read("surprise")
        .contains("  version: \"1.10\"\n  enabled: \"off\"\n  since: \"2024-01-01\"\n"));
}

/// A save by an editor that edits what it read: like editors ("the file has been changed since
/// reading it"), it checks before renaming that the file is still the one it read.
fn save_like_an_editor(path: &Path, edit: impl Fn(&str) -> String) {
    let id = |m: std::fs::Metadata| (m.ino(), m.size(), m.mtime(), m.mtime_nsec());
    loop {
        let read = id(std::fs::metadata(path).unwrap());
        let text = std::fs::read_to_string(path).unwrap();
        let temp = path.with_file_name(".SKILL.md.swp");
        std::fs::write(&temp, edit(&text)).unwrap();
        if id(std::fs::metadata(path).unwrap()) == read {
            std::fs::rename(&temp, path).unwrap();
            return;
        }
    }
}

/// Appends under `flock`, re-opening when the locked file is no longer the one at the path.
fn append_locked(path: &Path, line: &str) {
    loop {
        let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
        f.lock().unwrap();
        let current = std::fs::metadata(path).map(|m| m.ino()).unwrap_or(0);
        if f.metadata().unwrap().ino() == current {
            f.write_all(line.as_bytes()).unwrap();
            return;
        }
    }
}

/// The most common frontmatter mistake, an unquoted `: ` in a value: `check --fix` quotes the
/// value (single quotes where the value holds double quotes), after which the frontmatter is
/// valid YAML, the skill's nested metadata is back in the prompt and the subagent is declared.
#[test]
fn fix_quotes_a_value_with_a_colon_and_the_files_then_load() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    copy_tree(&fixture("cli-basic"), &project);
    let ws = project.join(".agentscope/workspace");
    let skill = ws.join("skills/weather/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    std::fs::write(
        &skill,
        "---\nname: weather\ndescription: Look up the forecast: temperature, rain and wind\nmetadata:\n  note: Say \"maybe\": never promise\n---\n# Weather\n",
    )
    .unwrap();
    let subagent = ws.join("subagents/forecaster.md");
    std::fs::write(
        &subagent,
        "---\ndescription: Forecasts: rain and wind.\n---\nYou forecast.\n",
    )
    .unwrap();

    let (report, _) = check_json(dir.path(), &["p"]);
    let found: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| matches!(d["code"].as_str(), Some("SK013" | "SK014" | "SA003")))
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["fixes"][0]["title"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("SK013", "Quote the values of `description`, `note`"),
            ("SA003", "Quote the value of `description`"),
        ]
    );

    let out = run(dir.path(), &["check", "--fix", "p"]);
    let text = stdout(&out);
    assert!(text.contains("Applied 2 fixes in 2 files.\n"), "{text}");
    assert_eq!(
        std::fs::read_to_string(&skill).unwrap(),
        "---\nname: weather\ndescription: \"Look up the forecast: temperature, rain and wind\"\nmetadata:\n  note: 'Say \"maybe\": never promise'\n---\n# Weather\n"
    );
    assert_eq!(
        std::fs::read_to_string(&subagent).unwrap(),
        "---\ndescription: \"Forecasts: rain and wind.\"\n---\nYou forecast.\n"
    );
    let (report, _) = check_json(dir.path(), &["p"]);
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        !codes
            .iter()
            .any(|c| matches!(*c, "SK013" | "SK014" | "SA003")),
        "{codes:?}"
    );
    // The prompt now carries the whole description and the nested note, XML-escaped.
    let out = run(
        dir.path(),
        &["preview", "p", "--user", "u", "--session", "s"],
    );
    let prompt = stdout(&out);
    assert!(
        prompt.contains("<description>Look up the forecast: temperature, rain and wind</description>\n  <metadata>\n    <note>Say &quot;maybe&quot;: never promise</note>\n  </metadata>"),
        "{prompt}"
    );
    assert!(prompt.contains("forecaster"), "{prompt}");
}
