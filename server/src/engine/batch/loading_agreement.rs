//! The property behind `check::loading` and `workspace::resolution`: for generated workspaces
//! and every context the check evaluates, the skill and subagent files `prompt::render` renders
//! are exactly the files `check` does not report as left out of that context (same winner for
//! every name); names whose winner the JVM's directory order decides (XR012, and the preview's
//! `directory-order` note) are excluded from the comparison, and must be reported as such by
//! both. TJ030 on the code-execution section follows the same previews.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::check_workspace;
use crate::base::{Diagnostic, Severity};
use crate::check::loading::who_label;
use crate::check::CheckOptions;
use crate::config::{Config, FilesystemMode, Scope};
use crate::engine::DiagnosticsByFile;
use crate::prompt::{self, Date, PreviewContext};
use crate::workspace::resolution::REPRESENTATIVE_NAMESPACE;
use crate::workspace::resolution::{check_contexts, Callers};
use crate::workspace::Workspace;

const W: &str = "/p/.agentscope/workspace";

/// One generated file: tree (0 shared, 1 project, 2 `alice`, 3 `bob`), folder, nested, name
/// (or id), and how its text is broken (0 fine, 1 dropped, 2 early `---` that still loads).
type Spec = (u8, u8, bool, u8, u8);

fn tree_dir(tree: u8) -> String {
    match tree {
        0 => W.to_string(),
        1 => "/p".to_string(),
        2 => format!("{W}/alice"),
        _ => format!("{W}/bob"),
    }
}

fn skill_file(spec: &Spec) -> (String, String) {
    let (tree, folder, nested, name, broken) = *spec;
    let folder = ["a", "b", "c", "_d"][folder as usize % 4];
    let name = ["x", "y", "z", "u", "v"][name as usize % 5];
    let path = if nested {
        format!("{}/skills/{folder}/inner/SKILL.md", tree_dir(tree))
    } else {
        format!("{}/skills/{folder}/SKILL.md", tree_dir(tree))
    };
    // The body mentions the tools `tools_json` may deny (`XR010`).
    let text = match broken % 3 {
        0 => format!("---\nname: {name}\ndescription: d\n---\nUse `execute(cmd)`.\n"),
        1 => format!("---\nname: {name}\n---\nBody\n"),
        _ => format!("---\nname: {name}\ndescription: p---q\n---\nUse `web_fetch`.\n"),
    };
    (path, text)
}

fn subagent_file(spec: &Spec) -> (String, String) {
    let (tree, folder, nested, id, broken) = *spec;
    let id = ["r", "s", "t"][id as usize % 3];
    let folder = ["team", "crew", "ops", "misc"][folder as usize % 4];
    let path = if nested {
        format!("{}/subagents/{folder}/{id}.md", tree_dir(tree))
    } else {
        format!("{}/subagents/{id}.md", tree_dir(tree))
    };
    let text = match broken % 3 {
        0 => format!("---\ndescription: {id} {folder}\n---\n"),
        1 => "---\nmodel: m\n---\n".to_string(),
        _ => format!("---\ndescription: {id}---{folder}\n---\n"),
    };
    (path, text)
}

/// The skill files of `skills`, each with a script beside it when its flag is set.
fn skill_files_with_scripts(skills: &[(Spec, bool)]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (spec, with_script) in skills {
        let (path, text) = skill_file(spec);
        if *with_script {
            let dir = Path::new(&path).parent().unwrap();
            let script = dir.join("scripts/run.py").display().to_string();
            files.push((script, "print(1)\n".to_string()));
        }
        files.push((path, text));
    }
    files
}

/// A tools.json that removes `execute` (the code-execution section's tool), or another tool.
fn tools_json(deny_execute: bool) -> (String, String) {
    let deny = if deny_execute { "execute" } else { "web_fetch" };
    (
        format!("{W}/tools.json"),
        format!(r#"{{"deny": ["{deny}"]}}"#),
    )
}

/// Files the check says are not loaded in `who`'s context (and names it reports as ties).
fn left_out(
    ws: &Workspace,
    diagnostics: &[Diagnostic],
    who: &Callers,
) -> (BTreeSet<PathBuf>, BTreeSet<String>, BTreeSet<PathBuf>) {
    let mut out = BTreeSet::new();
    let mut ties = BTreeSet::new();
    let mut tie_paths = BTreeSet::new();
    for d in diagnostics {
        let for_this = |message: &str| match message.rsplit_once("wins for `") {
            Some((_, rest)) => {
                let ns = rest.split('`').next().unwrap_or_default();
                *who == Callers::Folder(ns.to_string())
            }
            None => true,
        };
        match d.code {
            "XR012" => {
                tie_paths.insert(d.path.clone());
                if let Some(doc) = ws.skill(&d.path) {
                    ties.insert(doc.name.clone().unwrap_or_default());
                }
            }
            "XR005" | "XR007" if for_this(&d.message) => {
                out.insert(d.path.clone());
            }
            "XR006" => {
                if let Callers::Folder(ns) = who {
                    if d.message.ends_with(&format!("for `{ns}`")) {
                        out.extend(d.related.iter().map(|r| r.path.clone()));
                    }
                }
            }
            _ if d.severity == Severity::Error => {
                out.insert(d.path.clone());
            }
            "SK018" => {
                out.insert(d.path.clone());
            }
            // A warning inside a loaded skill's folder, but still not loaded as a skill.
            "SK017" if d.message.starts_with("not loaded for") => {
                out.insert(d.path.clone());
            }
            _ => {}
        }
    }
    (out, ties, tie_paths)
}

/// The files of `who`'s context: the shared and project trees, and its own folder.
fn of_context(path: &Path, who: &Callers) -> bool {
    let rel = path.strip_prefix(W).ok();
    match rel.and_then(|r| r.components().next()) {
        Some(first) => {
            let first = first.as_os_str().to_string_lossy();
            match first.as_ref() {
                "skills" | "subagents" => true,
                ns => *who == Callers::Folder(ns.to_string()),
            }
        }
        None => true,
    }
}

/// The preview of the context of namespace `root_ns` (its user under scope `user`, else its
/// session).
fn preview_of(ws: &Workspace, root_ns: &str) -> prompt::Preview {
    let mut ctx = PreviewContext::new(
        &ws.config,
        Date::parse("2026-08-22").unwrap(),
        "Linux 6",
        "/tmp",
    );
    ctx.session.session_id = Some(root_ns.to_string());
    if ws.config.scope == Scope::User {
        ctx.session.user_id = Some(root_ns.to_string());
    }
    prompt::render(ws, &ctx).expect("renders")
}

/// The skill and subagent files the preview of `root_ns`'s context renders, and whether it notes
/// a directory-order tie.
fn rendered(ws: &Workspace, root_ns: &str) -> (BTreeSet<PathBuf>, BTreeSet<PathBuf>, bool) {
    let preview = preview_of(ws, root_ns);
    let sources = |kind: &str| -> BTreeSet<PathBuf> {
        preview
            .sections
            .iter()
            .filter(|s| s.kind == kind)
            .flat_map(|s| s.sources.iter().map(|r| PathBuf::from(&*r.path)))
            .collect()
    };
    let tie_note = preview
        .notes
        .iter()
        .any(|n| n.code == "directory-order" && n.rule == Some("XR012"));
    (sources("skills"), sources("subagents"), tie_note)
}

/// The `removed-tool` notes of the preview of the context of namespace `root_ns`.
fn removed_tool_notes(ws: &Workspace, root_ns: &str) -> Vec<String> {
    preview_of(ws, root_ns)
        .notes
        .into_iter()
        .filter(|n| n.code == "removed-tool")
        .map(|n| n.message)
        .collect()
}

/// The configuration of a generated workspace: scope and filesystem mode by index.
fn generated_config(scope: u8, filesystem: u8) -> Config {
    let mut config = Config::defaults_for(Path::new("/p"));
    config.agent.name = Some("assistant".into());
    config.scope = [Scope::User, Scope::Session, Scope::Agent, Scope::Global][scope as usize];
    config.filesystem.mode = [
        FilesystemMode::Local,
        FilesystemMode::Sandbox,
        FilesystemMode::Remote,
    ][filesystem as usize];
    config
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// TJ030 on the code-execution section is reported iff the preview of some checked
    /// context shows that section while tools.json removes `execute`, and, when only some
    /// contexts show it, the message names exactly those.
    #[test]
    fn tj030_follows_the_preview_of_the_checked_contexts(
        skills in proptest::collection::vec(((0u8..4, 0u8..4, any::<bool>(), 0u8..3, 0u8..4), any::<bool>()), 0..6),
        scope in 0u8..4,
        filesystem in 0u8..3,
        shell_tool in any::<bool>(),
        deny_execute in any::<bool>(),
    ) {
        let mut config = generated_config(scope, filesystem);
        config.features.shell_tool = shell_tool;
        let mut files = skill_files_with_scripts(&skills);
        files.push(tools_json(deny_execute));
        files.sort();
        files.dedup_by(|a, b| a.0 == b.0);
        let ws = Workspace::from_texts(config, files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        let report = check_workspace(&ws, CheckOptions::default());
        let reported: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.code == "TJ030" && d.message.contains("`## Code Execution`"))
            .collect();
        let mut shown = Vec::new();
        let mut hidden = Vec::new();
        for (who, root) in check_contexts(&ws) {
            let ns = root.namespace.clone().unwrap_or_else(|| REPRESENTATIVE_NAMESPACE.to_string());
            let notes = removed_tool_notes(&ws, &ns);
            let label = who_label(&ws, &who);
            if notes.iter().any(|n| n.contains("`## Code Execution`")) {
                shown.push(label);
            } else {
                hidden.push(label);
            }
        }
        prop_assert_eq!(reported.len(), usize::from(!shown.is_empty()), "{:?}", report.diagnostics);
        if let Some(d) = reported.first() {
            match d.message.split_once("; the section is rendered only for ") {
                None => prop_assert!(hidden.is_empty(), "{}: not for {:?}", d.message, hidden),
                Some((_, which)) => {
                    let (only, not) = which.split_once(", not for ").expect("names both");
                    prop_assert_eq!(only, shown.join(", "));
                    prop_assert_eq!(not, hidden.join(", "));
                }
            }
        }
    }

    /// The engine computes the skills' loading outcomes per name group, over the group's skills
    /// and their neighbours by path; the whole workspace at once must give the same answer for
    /// every file. Folders, trees and names are drawn independently, so one relative path holds
    /// skills of different names in different trees, nested files sit in folders of other
    /// names, and the remote overlay replaces a template file of another name.
    #[test]
    fn name_groups_give_what_the_whole_workspace_gives(
        // Five names: the code-execution message names three and counts the others.
        skills in proptest::collection::vec(((0u8..4, 0u8..4, any::<bool>(), 0u8..5, 0u8..4), any::<bool>()), 0..12),
        subagents in proptest::collection::vec(((0u8..4, 0u8..4, any::<bool>(), 0u8..3, 0u8..4), 0u8..16), 0..3),
        scope in 0u8..4,
        filesystem in 0u8..3,
        dynamic_skills in any::<bool>(),
        default_workspace_skills in any::<bool>(),
        shell_tool in any::<bool>(),
        deny_execute in any::<bool>(),
        loaded_first in any::<bool>(),
    ) {
        let mut config = generated_config(scope, filesystem);
        config.features.dynamic_skills = dynamic_skills;
        config.features.default_workspace_skills = default_workspace_skills;
        config.features.shell_tool = shell_tool;
        let mut files = skill_files_with_scripts(&skills);
        // A skill that every context loads, first in path order: then the one skill the engine
        // reads for "some skill loads here" is none of the generated ones.
        if loaded_first {
            files.push((format!("{W}/skills/0/SKILL.md"), "---\nname: first\ndescription: d\n---\n".into()));
        }
        // Each subagent lists a subset of `x`, `y`, `z` and `w` (a name no skill has).
        for (spec, listed) in &subagents {
            let (path, text) = subagent_file(spec);
            let names: Vec<&str> = ["x", "y", "z", "w"]
                .iter()
                .enumerate()
                .filter(|(i, _)| listed & (1 << i) != 0)
                .map(|(_, n)| *n)
                .collect();
            let text = match text.strip_prefix("---\n") {
                Some(rest) if !names.is_empty() => format!("---\nskills: {}\n{rest}", names.join(", ")),
                _ => text,
            };
            files.push((path, text));
        }
        files.push(tools_json(deny_execute));
        files.sort();
        files.dedup_by(|a, b| a.0 == b.0);
        let ws = Workspace::from_texts(config, files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        let (grouped, whole) = grouped_and_whole(&ws);
        prop_assert_eq!(grouped, whole);
    }

    #[test]
    fn preview_renders_what_check_says_is_loaded(
        skills in proptest::collection::vec((0u8..4, 0u8..4, any::<bool>(), 0u8..3, 0u8..4), 0..7),
        subagents in proptest::collection::vec((0u8..4, 0u8..4, any::<bool>(), 0u8..3, 0u8..4), 0..5),
        scope in 0u8..4,
        filesystem in 0u8..3,
        dynamic_subagents in any::<bool>(),
        dynamic_skills in any::<bool>(),
    ) {
        let mut config = generated_config(scope, filesystem);
        config.features.dynamic_subagents = dynamic_subagents;
        config.features.dynamic_skills = dynamic_skills;
        let mut files: Vec<(String, String)> = skills.iter().map(skill_file).collect();
        files.extend(subagents.iter().map(subagent_file));
        files.sort();
        files.dedup_by(|a, b| a.0 == b.0);
        let ws = Workspace::from_texts(config, files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        let report = check_workspace(&ws, CheckOptions::default());

        for (who, root) in check_contexts(&ws) {
            let ns = root.namespace.clone().unwrap_or_else(|| REPRESENTATIVE_NAMESPACE.to_string());
            let (out, ties, tie_paths) = left_out(&ws, &report.diagnostics, &who);
            let (skills_shown, subagents_shown, tie_note) = rendered(&ws, &ns);
            let expected_skills: BTreeSet<PathBuf> = ws
                .skills
                .iter()
                .filter(|d| of_context(&d.path, &who))
                .filter(|d| !out.contains(&d.path))
                .filter(|d| !ties.contains(d.name.as_deref().unwrap_or_default()))
                .map(|d| d.path.clone())
                .collect();
            let tie_shown = skills_shown.iter().any(|p| tie_paths.contains(p));
            let shown: BTreeSet<PathBuf> = skills_shown
                .into_iter()
                .filter(|p| ws.skill(p).is_some_and(|d| !ties.contains(d.name.as_deref().unwrap_or_default())))
                .collect();
            prop_assert_eq!(&shown, &expected_skills, "skills for {:?}", who);
            // A tie the preview renders is noted as such there and reported by the check.
            prop_assert_eq!(tie_note, tie_shown, "tie notes for {:?}", who);
            let expected_subagents: BTreeSet<PathBuf> = ws
                .subagents
                .iter()
                .filter(|d| of_context(&d.path, &who))
                .filter(|d| !out.contains(&d.path))
                .map(|d| d.path.clone())
                .collect();
            prop_assert_eq!(&subagents_shown, &expected_subagents, "subagents for {:?}", who);
        }
    }
}

/// The engine's workspace diagnostics, computed per family over smaller workspaces, and the
/// same rules run over the whole workspace of facts at once.
fn grouped_and_whole(ws: &Workspace) -> (DiagnosticsByFile, DiagnosticsByFile) {
    let analysis = crate::engine::Analysis::new(
        ws.config.clone(),
        ws.config_diagnostics.clone(),
        ws.env.clone(),
        CheckOptions::default(),
        &ws.files,
    );
    let grouped = analysis.workspace_diagnostics().to_map();
    let (db, project) = (analysis.db(), analysis.project());
    let facts = crate::engine::compose::facts_workspace(db, project);
    let catalog = crate::engine::tools::catalog(db, project);
    let mut whole = crate::check::workspace_diagnostics(&facts, &catalog, &|| {});
    let contexts = crate::check::loading::Contexts::new(&facts);
    whole.extend(crate::check::skill_loading(&facts, &contexts, &|_| true).diagnostics);
    whole.extend(crate::engine::skills::allowed_tools_note(db, project));
    for file in ws.workspace_files() {
        if file.kind == crate::workspace::FileKind::Skill {
            whole.extend(crate::check::cross::removed_tool_mentions(&catalog, file));
        }
    }
    let mut expected = DiagnosticsByFile::new();
    for d in whole {
        expected.entry(d.path.clone()).or_default().push(d);
    }
    for list in expected.values_mut() {
        crate::engine::by_file::sort(list);
    }
    (grouped, expected)
}

/// A subagent names a project skill whose relative path the shared folder also holds, under
/// another name: the overlay re-reads the shared file instead (XR004). The reference rules must
/// read the shared file as the named skill's neighbour, though no subagent names it and another
/// skill is the one the engine reads for "some skill loads here".
#[test]
fn a_named_skill_replaced_by_a_shared_file_of_another_name_is_reported_as_not_loaded() {
    let files = [
        (
            "/p/skills/a/SKILL.md".to_string(),
            "---\nname: x\ndescription: d\n---\n",
        ),
        (
            format!("{W}/skills/a/SKILL.md"),
            "---\nname: y\ndescription: d\n---\n",
        ),
        (
            format!("{W}/skills/0/SKILL.md"),
            "---\nname: first\ndescription: d\n---\n",
        ),
        (
            format!("{W}/subagents/r.md"),
            "---\nskills: x\ndescription: r\n---\n",
        ),
    ];
    let ws = Workspace::from_texts(
        generated_config(0, 0),
        files.iter().map(|(p, t)| (p.as_str(), *t)),
    );
    let (grouped, whole) = grouped_and_whole(&ws);
    let xr004: Vec<&str> = grouped
        .values()
        .flatten()
        .filter(|d| d.code == "XR004")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        xr004,
        ["no loaded skill is named `x`: `skills/a/SKILL.md` is, but it is not loaded (the overlay re-reads this relative path through the workspace and gets `/p/.agentscope/workspace/skills/a/SKILL.md` instead)"]
    );
    assert_eq!(grouped, whole);
}

/// The rule families read the frame, which holds no skill's text, yet their rules ask about a
/// skill's folder by name: the folder a misnamed skill's name gives (SK016: another skill's, or
/// an empty one, not a missing one) and a subagent's `workspace.path` inside a skill's folder
/// (XR009: no AGENTS.md, not a missing folder). Both as the whole workspace says.
#[test]
fn folders_holding_only_a_skill_are_still_found_by_name() {
    let mut config = Config::defaults_for(Path::new("/p"));
    config.agent.name = Some("docs".into());
    config.scope = Scope::Agent;
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nBody\n");
    let files = [
        (format!("{W}/skills/pdf/SKILL.md"), skill("pdf-tools")),
        (format!("{W}/skills/pdf-tools/SKILL.md"), skill("other")),
        (format!("{W}/skills/csv/SKILL.md"), skill("csv-tools")),
        (
            format!("{W}/subagents/r.md"),
            "---\ndescription: r\nworkspace:\n  path: skills/pdf-tools\n---\nBody\n".to_string(),
        ),
    ];
    let mut ws = Workspace::from_texts(config, files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    // An empty folder is a folder too.
    std::sync::Arc::make_mut(&mut ws.files).insert_dir(format!("{W}/skills/csv-tools").into());
    let (grouped, whole) = grouped_and_whole(&ws);
    let messages = |code: &str| -> Vec<&str> {
        let mut found: Vec<&str> = grouped
            .values()
            .flatten()
            .filter(|d| d.code == code)
            .map(|d| d.message.as_str())
            .collect();
        found.sort();
        found
    };
    let ends: Vec<&str> = messages("SK016")
        .iter()
        .map(|message| message.rsplit(", ").next().unwrap_or_default())
        .collect();
    // `csv-tools` (an empty folder), `other` (no folder), `pdf-tools` (a skill's folder).
    assert_eq!(
        ends,
        [
            "the folder of another skill",
            "a folder that does not exist",
            "the folder of another skill"
        ]
    );
    assert_eq!(
        messages("XR009"),
        ["`workspace.path` folder `/p/.agentscope/workspace/skills/pdf-tools` has no AGENTS.md"]
    );
    assert_eq!(grouped, whole);
}
