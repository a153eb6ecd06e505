//! The check and the preview agree on which skill and subagent files a session loads: the real
//! binary on `tests/fixtures/loading-cases` (see its CASE.md), once in its default `user` scope
//! and once under scope `agent`, for each case where the check used to state one outcome
//! whatever the context. Every assertion is an exact output line or block.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use crate::check::copy_tree;
use crate::support::fixture;

/// The fixture copied to a temporary folder, under `scope` (`user` is the fixture's default).
struct Case {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Case {
    fn new(scope: &str) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("loading-cases");
        copy_tree(&fixture("loading-cases"), &dir);
        if scope != "user" {
            let toml = dir.join("agentws.toml");
            let text = std::fs::read_to_string(&toml).unwrap();
            std::fs::write(&toml, format!("{text}\n[isolation]\nscope = \"{scope}\"\n")).unwrap();
        }
        Case { _tmp: tmp, dir }
    }

    fn ws(&self) -> String {
        self.dir.join(".agentscope/workspace").display().to_string()
    }

    /// `agentws check --format concise`, lines of diagnostics about `file` (workspace-relative).
    /// The check runs in the project folder, so the paths it prints are relative to it whatever
    /// folder the checkout and the temporary folder live in (a shared top-level folder would
    /// otherwise print `../` paths).
    fn check_lines(&self, file: &str) -> Vec<String> {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .current_dir(&self.dir)
            .args(["check", "--format", "concise", "."])
            .output()
            .unwrap();
        let prefix = format!(".agentscope/workspace/{file}:");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .map(|l| l.replace(&self.ws(), "{WS}"))
            .collect()
    }

    fn preview(&self, extra: &[&str]) -> (String, Value) {
        let run = |format: &str| {
            Command::cargo_bin("agentws")
                .unwrap()
                .arg("preview")
                .arg(&self.dir)
                .args([
                    "--user",
                    "alice",
                    "--date",
                    "2026-08-22",
                    "--os",
                    "Linux 6",
                    "--tmp-dir",
                    "/tmp",
                    "--format",
                    format,
                ])
                .args(extra)
                .output()
                .unwrap()
        };
        let text = String::from_utf8(run("text").stdout)
            .unwrap()
            .replace(&self.ws(), "{WS}");
        let json: Value = serde_json::from_slice(&run("json").stdout).unwrap();
        (text, json)
    }
}

/// The `(rule, path)` of every `not-rendered` note, paths relative to the workspace.
fn not_rendered(json: &Value, ws: &str) -> Vec<(String, String)> {
    json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "not-rendered")
        .map(|n| {
            (
                n["rule"].as_str().unwrap_or_default().to_string(),
                n["path"]
                    .as_str()
                    .unwrap_or_default()
                    .trim_start_matches(ws)
                    .to_string(),
            )
        })
        .collect()
}

fn skill_block(name: &str, id: &str, files_root: &str, description: &str) -> String {
    format!(
        "<skill>\n  <name>{name}</name>\n  <description>{description}</description>\n  \
         <skill-id>{id}</skill-id>\n  <files-root>{files_root}</files-root>\n</skill>\n"
    )
}

#[test]
fn nested_files_are_loaded_for_no_user_in_user_scope_and_for_every_call_in_agent_scope() {
    let user = Case::new("user");
    assert_eq!(
        user.check_lines("skills/group/nested/SKILL.md"),
        vec![
            "2:7: error[SK017] not loaded for any user (scope `user`): nested below the shared `skills/` folder: \
             the runtime's scan of the shared `skills/` folder reads only `skills/*/SKILL.md`, and the deeper \
             search reads only `{WS}/<user>/skills`"
        ]
    );
    assert_eq!(
        user.check_lines("subagents/team/lead.md"),
        vec![
            "1:1: error[SA007] not loaded for any user (scope `user`): nested below the shared `subagents/` folder: \
             the local scan reads only `subagents/*.md`, and the deeper search reads only `{WS}/<user>/subagents`"
        ]
    );
    let (text, json) = user.preview(&[]);
    assert!(!text.contains("<name>nested</name>"), "{text}");
    assert!(!text.contains("- `lead`"), "{text}");
    let notes = not_rendered(&json, &user.ws());
    assert!(notes.contains(&("SK017".into(), "/skills/group/nested/SKILL.md".into())));
    assert!(notes.contains(&("SA007".into(), "/subagents/team/lead.md".into())));

    let agent = Case::new("agent");
    assert_eq!(
        agent.check_lines("skills/group/nested/SKILL.md"),
        vec![
            "2:7: warning[SK017] nested: loaded for every call (scope `agent`) only through the deeper search of \
             `{WS}/skills` (the scan of the shared folder does not see it); the folder the prompt gives for its \
             files (`<files-root>`, `skills/<name>`) is not its folder, and with scope `user` or `session` no call \
             would load it"
        ]
    );
    assert_eq!(
        agent.check_lines("subagents/team/lead.md"),
        vec![
            "1:1: info[SA007] nested: loaded for every call (scope `agent`) only through the deeper search of \
             `{WS}/subagents` (the scan of the shared folder does not see it); with scope `user` or `session` no \
             call would load it"
        ]
    );
    let (text, json) = agent.preview(&[]);
    assert!(text.contains(&skill_block(
        "nested",
        "nested_workspace-namespaced",
        "{WS}/skills/nested",
        "A nested skill."
    )));
    assert!(text.contains("- `lead`: Leads the team.\n"));
    assert!(!not_rendered(&json, &agent.ws())
        .iter()
        .any(|(_, p)| p.contains("nested") || p.contains("lead")));
}

/// Collections written for other agents nest sub-guides as `skills/<router>/<part>/SKILL.md`
/// below a router skill: not a skill of its own at run time, but not lost either, since the
/// router's folder is staged and advertised whole. A warning, not an error.
#[test]
fn a_skill_nested_in_a_loaded_skills_folder_is_a_warning_naming_that_skill() {
    let user = Case::new("user");
    let router = user.dir.join(".agentscope/workspace/skills/games");
    std::fs::create_dir_all(router.join("2d")).unwrap();
    std::fs::write(
        router.join("SKILL.md"),
        "---\nname: games\ndescription: Routes to the game guides.\n---\nRead `2d/SKILL.md` for sprites.\n",
    )
    .unwrap();
    std::fs::write(
        router.join("2d/SKILL.md"),
        "---\nname: 2d-games\ndescription: Sprites and tilemaps.\n---\nUse a tilemap.\n",
    )
    .unwrap();
    assert_eq!(
        user.check_lines("skills/games/2d/SKILL.md"),
        vec![
            "2:7: warning[SK017] not loaded for any user (scope `user`): nested below the shared `skills/` folder: \
             the runtime's scan of the shared `skills/` folder reads only `skills/*/SKILL.md`, and the deeper \
             search reads only `{WS}/<user>/skills`; it stays readable as a file of the skill in `skills/games`, whose whole \
             folder the runtime advertises, but it is not a skill of its own"
        ]
    );
    assert_eq!(
        user.check_lines("skills/games/SKILL.md"),
        Vec::<String>::new()
    );
    // Without a loaded SKILL.md in the enclosing folder the file is read by nothing: still an error.
    std::fs::write(router.join("SKILL.md"), "no frontmatter\n").unwrap();
    assert_eq!(
        user.check_lines("skills/games/2d/SKILL.md"),
        vec![
            "2:7: error[SK017] not loaded for any user (scope `user`): nested below the shared `skills/` folder: \
             the runtime's scan of the shared `skills/` folder reads only `skills/*/SKILL.md`, and the deeper \
             search reads only `{WS}/<user>/skills`"
        ]
    );
    let (text, _) = user.preview(&[]);
    assert!(!text.contains("<name>2d-games</name>"), "{text}");
}

#[test]
fn a_name_folder_mismatch_misleads_only_where_the_namespaced_repository_serves_the_skill() {
    let user = Case::new("user");
    assert_eq!(
        user.check_lines("skills/pdf-invoices/SKILL.md"),
        Vec::<String>::new()
    );
    let (text, _) = user.preview(&[]);
    assert!(text.contains(&skill_block(
        "invoice-pdf",
        "invoice-pdf_filesystem-workspace_skills",
        "{WS}/.skills-cache/filesystem-workspace_skills/invoice-pdf",
        "Produce a PDF invoice."
    )));

    let agent = Case::new("agent");
    assert_eq!(
        agent.check_lines("skills/pdf-invoices/SKILL.md"),
        vec![
            "2:7: warning[SK016] the skill is named `invoice-pdf` but its folder is `pdf-invoices`; for every call \
             (scope `agent`) the prompt tells the model its files are in `{WS}/skills/invoice-pdf` (its \
             `<files-root>`, built from the name), a folder that does not exist"
        ]
    );
    let (text, _) = agent.preview(&[]);
    assert!(text.contains(&skill_block(
        "invoice-pdf",
        "invoice-pdf_workspace-namespaced",
        "{WS}/skills/invoice-pdf",
        "Produce a PDF invoice."
    )));
}

#[test]
fn dashes_in_a_value_are_a_warning_when_the_skill_still_loads() {
    let user = Case::new("user");
    assert_eq!(
        user.check_lines("skills/summary/SKILL.md"),
        vec![
            "3:34: warning[SK006] this `---` closes the frontmatter: the runtime ends the YAML at the first `---` \
             anywhere after the opening line; the keys after it (`license`) are lost; everything after it, including \
             the intended closing `---` line, becomes the body; `name` and `description` survive, so the runtime \
             loads the skill with the description `Summarise a booking`"
        ]
    );
    let (text, json) = user.preview(&[]);
    assert!(text.contains(&skill_block(
        "summary",
        "summary_filesystem-workspace_skills",
        "{WS}/.skills-cache/filesystem-workspace_skills/summary",
        "Summarise a booking"
    )));
    assert!(!not_rendered(&json, &user.ws())
        .iter()
        .any(|(_, p)| p.contains("summary")));
}

#[test]
fn a_same_name_pair_of_the_shared_folder_is_a_directory_order_tie_only_where_nothing_later_decides()
{
    let user = Case::new("user");
    let tie = |other: &str| {
        format!(
            "2:7: warning[XR012] skill `twin` is also defined in `skills/{other}/SKILL.md` of the shared `skills/` \
             folder; for any user (scope `user`) nothing later in the merge decides, so the order the file system \
             lists the folders in picks the winner (the preview sorts them by path and shows the last)"
        )
    };
    assert_eq!(
        user.check_lines("skills/twin-a/SKILL.md"),
        vec![tie("twin-b")]
    );
    assert_eq!(
        user.check_lines("skills/twin-b/SKILL.md"),
        vec![tie("twin-a")]
    );
    let (text, json) = user.preview(&[]);
    assert!(text.contains("<name>twin</name>\n  <description>Twin B.</description>"));
    let notes = json["notes"].as_array().unwrap();
    let tie_note = notes
        .iter()
        .find(|n| n["code"] == "directory-order" && n["rule"] == "XR012")
        .expect("a directory-order note for the tie");
    assert_eq!(
        tie_note["message"].as_str().unwrap().replace(&user.ws(), "{WS}"),
        "skill `twin` is also defined by `{WS}/skills/twin-a/SKILL.md` in the shared `skills/` folder: which one \
         wins depends on the order the file system lists the folders in; the preview shows \
         `{WS}/skills/twin-b/SKILL.md`, the last by path"
    );
    assert!(notes.iter().any(|n| n["code"] == "directory-order"
        && n["message"]
            == "the runtime lists the skills of the shared `skills/` folder in the order the file system lists \
                the folders, which can differ between machines; the preview sorts them by path"));
    assert!(not_rendered(&json, &user.ws())
        .contains(&("XR012".into(), "/skills/twin-a/SKILL.md".into())));

    // Under scope `agent` Layer 4 re-reads both in path order: `twin-b` wins, decided.
    let agent = Case::new("agent");
    assert_eq!(
        agent.check_lines("skills/twin-a/SKILL.md"),
        vec![
            "2:7: warning[XR005] skill `twin` is also defined in the shared workspace (`skills/twin-b/SKILL.md`), \
             which wins for every caller"
        ]
    );
    // The winner is served by the namespaced repository there, which advertises its name.
    assert_eq!(
        agent.check_lines("skills/twin-b/SKILL.md"),
        vec![
            "2:7: warning[SK016] the skill is named `twin` but its folder is `twin-b`; for every call (scope \
             `agent`) the prompt tells the model its files are in `{WS}/skills/twin` (its `<files-root>`, built \
             from the name), a folder that does not exist"
        ]
    );
    let (_, json) = agent.preview(&[]);
    assert!(!json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["rule"] == "XR012"));
}

#[test]
fn a_missing_agents_md_is_a_note() {
    let case = Case::new("user");
    std::fs::remove_file(Path::new(&case.ws()).join("AGENTS.md")).unwrap();
    let (_, json) = case.preview(&[]);
    let note = json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["rule"] == "WS002")
        .expect("a note for the missing AGENTS.md");
    assert_eq!(note["code"], "not-rendered");
    assert_eq!(
        note["message"]
            .as_str()
            .unwrap()
            .replace(&case.ws(), "{WS}")
            .replace(&case.dir.display().to_string(), "{P}"),
        "no AGENTS.md for this call: neither `{WS}/alice/AGENTS.md`, `{P}/AGENTS.md` nor `{WS}/AGENTS.md` exists; \
         `<agents_context>` is empty"
    );
}

/// `agentws check --format sarif` in `dir`: per workspace-relative path, the codes reported at
/// it or naming it as a related location (a per-user override, XR006, is reported at the file
/// that wins and points to the one it replaces).
fn codes_by_file(dir: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--format", "sarif", "."])
        .output()
        .unwrap();
    let sarif: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: no SARIF ({e})", dir.display()));
    let mut codes: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for result in sarif["runs"][0]["results"].as_array().unwrap() {
        let code = result["ruleId"].as_str().unwrap().to_string();
        let located = result["locations"].as_array().into_iter().flatten();
        let related = result["relatedLocations"].as_array().into_iter().flatten();
        for location in located.chain(related) {
            if let Some(uri) = location["physicalLocation"]["artifactLocation"]["uri"].as_str() {
                codes.entry(uri.to_string()).or_default().push(code.clone());
            }
        }
    }
    codes
}

/// The per-user folders of a fixture's workspace (folders that are no workspace folder).
fn user_folders(dir: &Path) -> Vec<String> {
    const OWN: &[&str] = &[
        "skills",
        "subagents",
        "knowledge",
        "memory",
        "agents",
        "plans",
        "rules",
    ];
    let Ok(entries) = std::fs::read_dir(dir.join(".agentscope/workspace")) else {
        return Vec::new();
    };
    let mut users: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !OWN.contains(&n.as_str()) && !n.starts_with(['.', '_']))
        .collect();
    users.sort();
    users
}

/// Over every fixture and every per-user folder in it, a preview note about a file names a rule
/// `agentws check` reported for that file: one resolution (`Outcome::rule_code`) picks both.
#[test]
fn every_preview_note_about_a_file_names_a_rule_check_reported_for_it() {
    let root = fixture(".").canonicalize().unwrap();
    let mut dirs: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let path = entry.path();
        if path.join(".agentscope").is_dir() {
            dirs.push(path);
        } else if path.is_dir() {
            // `releases/<version>/` and the like: one project per subfolder.
            dirs.extend(
                std::fs::read_dir(&path)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.join(".agentscope").is_dir()),
            );
        }
    }
    dirs.sort();
    let mut notes_checked = 0;
    let mut wrong = Vec::new();
    for dir in &dirs {
        let codes = codes_by_file(dir);
        let users = user_folders(dir);
        let contexts = std::iter::once(None).chain(users.iter().map(Some));
        for user in contexts {
            let mut cmd = Command::cargo_bin("agentws").unwrap();
            cmd.current_dir(dir)
                .args(["preview", "--format", "json", "--session", "s1", "."]);
            if let Some(user) = user {
                cmd.args(["--user", user]);
            }
            let out = cmd.output().unwrap();
            let Ok(json) = serde_json::from_slice::<Value>(&out.stdout) else {
                continue;
            };
            for note in json["notes"].as_array().into_iter().flatten() {
                let (Some(rule), Some(path)) = (note["rule"].as_str(), note["path"].as_str())
                else {
                    continue;
                };
                notes_checked += 1;
                let rel = path
                    .strip_prefix(&format!("{}/", dir.display()))
                    .unwrap_or(path);
                let reported = codes.get(rel).cloned().unwrap_or_default();
                if !reported.iter().any(|c| c == rule) {
                    wrong.push(format!(
                        "{} (user {user:?}): note {rule} on {rel}, check reported {reported:?}: {}",
                        dir.file_name().unwrap().to_string_lossy(),
                        note["message"]
                    ));
                }
            }
        }
    }
    assert!(
        notes_checked >= 10,
        "only {notes_checked} notes about a file"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The notes of `tests/fixtures/loading-note-codes`: the shared skill a per-user one overrides
/// is XR006 (for `alice` only: `bob` has no folder and gets the shared skill), the pair that is
/// one file through a symbolic link XR016 (not a directory-order tie), and a README without
/// frontmatter beside the specs has no rule (check says nothing of it, and the runtime drops it).
#[test]
fn notes_of_overridden_linked_and_readme_files_carry_what_check_reports() {
    let dir = fixture("loading-note-codes").canonicalize().unwrap();
    let ws = format!("{}/.agentscope/workspace/", dir.display());
    let notes = |user: &str| -> Vec<(String, String, String)> {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .args(["preview", "--format", "json", "--user", user])
            .arg(&dir)
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        json["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["path"].is_string())
            .map(|n| {
                (
                    n["code"].as_str().unwrap().to_string(),
                    n["rule"].as_str().unwrap_or("-").to_string(),
                    n["message"].as_str().unwrap().replace(&ws, ""),
                )
            })
            .collect()
    };
    let readme = (
        "not-rendered".to_string(),
        "-".to_string(),
        "subagent `subagents/README.md` is not rendered for this call: the runtime rejects the file"
            .to_string(),
    );
    let linked = (
        "not-rendered".to_string(),
        "XR016".to_string(),
        "skill `skills/c/SKILL.md` is not rendered for this call [XR016]: `skills/c2/SKILL.md` has the same name and wins".to_string(),
    );
    assert_eq!(
        notes("alice"),
        vec![
            (
                "not-rendered".to_string(),
                "XR006".to_string(),
                "skill `skills/a/SKILL.md` is not rendered for this call [XR006]: `alice/skills/a/SKILL.md` has the same name and wins".to_string(),
            ),
            linked.clone(),
            readme.clone(),
        ]
    );
    assert_eq!(notes("bob"), vec![linked, readme]);
    let codes = codes_by_file(&dir);
    assert_eq!(
        codes.get(".agentscope/workspace/skills/c/SKILL.md"),
        Some(&vec!["XR016".to_string()])
    );
    assert_eq!(codes.get(".agentscope/workspace/subagents/README.md"), None);
}
