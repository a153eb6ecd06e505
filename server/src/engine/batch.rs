//! `agentws check` through the engine: a project's files become an [`Analysis`]'s inputs by the
//! calls the language server makes (`Analysis::new`, `Analysis::follow_outside` for the files a
//! subagent refers to), its queries are asked once (every source's `source_diagnostics` in
//! parallel, each thread on its own clone of the database, then `workspace_diagnostics`), and the
//! snapshot the output shows is taken from the same database (`Analysis::snapshot`), so every
//! file is parsed once. A file set that grows after the first snapshot (a store's files) is built
//! by the same analysis (`Analysis::grow`), which parses only the files added. These are the
//! queries the server asks after each edit: the one composition of the rules.
//!
//! Reads the disk only through `workspace::discover`. Must not depend on `lsp` or `cli`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::compose::workspace_diagnostics_on_every_core;
use super::sources::{facts, parsed, sets_allowed_tools, source_diagnostics};
use super::{Analysis, Change, Outside};
use crate::base::{Diagnostic, Env, FileSet};
use crate::check::{self, CheckOptions, CheckReport};
use crate::config::discover::FoundProject;
use crate::config::Config;
use crate::workspace::discover::{self, LoadedProject};
use crate::workspace::Workspace;

impl Analysis {
    /// Every diagnostic of the project, in check order: what the server publishes, gathered into
    /// one list (each file's own diagnostics before the cross-file ones, as the server merges
    /// them).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let sources = self.sources();
        // The parses, and the per-file queries the cross-file ones read, run here in parallel;
        // `workspace_diagnostics` then finds them memoised (and asks the name groups and the
        // buckets' skill references on every core).
        let own: Vec<Arc<Vec<Diagnostic>>> = sources
            .par_iter()
            .map_with(self.db().clone(), |db, file| {
                facts(db, *file);
                sets_allowed_tools(db, *file);
                source_diagnostics(db, *file)
            })
            .collect();
        let workspace = workspace_diagnostics_on_every_core(self.db(), self.project());
        let count = own.iter().map(|list| list.len()).sum::<usize>() + workspace.iter().count();
        let mut all = Vec::with_capacity(count);
        for list in &own {
            all.extend(list.iter().cloned());
        }
        all.extend(workspace.iter().cloned());
        all.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        all.dedup();
        all
    }

    /// Parses every source in parallel, each thread on its own clone of the database, so that
    /// `snapshot`, which asks for them one by one, finds them memoised.
    pub fn parse_all(&self) {
        let sources = self.sources();
        sources
            .par_iter()
            .for_each_with(self.db().clone(), |db, file| {
                parsed(db, *file);
            });
    }

    /// The snapshot of `files` under `config`, taken from this database: a file set grown after
    /// the first snapshot (a store's files, read in remote mode, `store::Read`) becomes its
    /// inputs, every source is parsed (in parallel) and the snapshot holds those very parses. A
    /// file whose input is unchanged keeps its parse, since no parse reads the configuration: a
    /// grown file set parses only what was added.
    pub fn grow(&mut self, config: Arc<Config>, files: Arc<FileSet>) -> Workspace {
        let current = self.config();
        let wanted = self.requested_options().configure(config.clone());
        let mut change = Change::new();
        if !Arc::ptr_eq(current, &wanted) && **current != *wanted {
            let diagnostics = self.project().config_diagnostics(self.db()).clone();
            change.set_config(config, diagnostics);
        }
        change.set_files(files.clone());
        self.apply_change(change);
        self.parse_all();
        self.snapshot(files)
    }

    /// The report of `workspace`, a snapshot of this analysis, with the walk's problems
    /// (`walk_problems`): every file's diagnostics settled (`check::settle`), the files with a
    /// suppression comment and no diagnostic included, since an unused comment is itself
    /// reported. What `agentws check` prints, and the server publishes file by file.
    pub fn report(&self, workspace: &Workspace, walk_problems: &[Diagnostic]) -> CheckReport {
        let config = self.config().clone();
        let options = self.requested_options();
        let mut by_file: BTreeMap<PathBuf, Vec<Diagnostic>> = workspace
            .files
            .iter()
            .filter(|(_, entry)| entry.content.text().is_some_and(|t| t.contains("agentws:")))
            .map(|(path, _)| (path.clone(), Vec::new()))
            .collect();
        for diagnostic in walk_problems.iter().cloned().chain(self.diagnostics()) {
            by_file
                .entry(diagnostic.path.clone())
                .or_default()
                .push(diagnostic);
        }
        let mut report = CheckReport {
            diagnostics: Vec::new(),
            suppressed: Vec::new(),
            files_checked: check::files_checked(workspace),
        };
        for (path, mut list) in by_file {
            list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            list.dedup();
            let text = workspace.files.text(&path);
            let settled = check::settle::settle_file(&config, options, &path, text, list);
            report.diagnostics.extend(settled.reported);
            report.suppressed.extend(settled.suppressed);
        }
        report
            .diagnostics
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        report
            .suppressed
            .sort_by(|a, b| a.diagnostic.sort_key().cmp(&b.diagnostic.sort_key()));
        report
    }
}

/// Every diagnostic for `workspace` under `options`, computed by the engine over its files (parsed
/// again, in the database: a caller that starts from the disk uses [`load`], which parses once).
pub fn check_workspace(workspace: &Workspace, options: CheckOptions) -> CheckReport {
    let analysis = Analysis::new(
        workspace.config.clone(),
        workspace.config_diagnostics.clone(),
        workspace.env.clone(),
        options,
        &workspace.files,
    );
    analysis.report(workspace, &[])
}

/// The project `project` (found for a command-line path: `config::discover::find_project`, its
/// `agentws.toml` read once) loaded into an analysis by the calls the language server makes: the
/// walk (`workspace::discover`) as the analysis's files, every source parsed in parallel, the
/// files outside the walk that its subagents name followed (`Analysis::follow_outside`), and the
/// snapshot taken from the database, so every file is parsed once.
pub fn load(
    project: FoundProject,
    env: Arc<Env>,
    options: CheckOptions,
) -> (LoadedProject, Analysis) {
    let config = Arc::new(project.config);
    let discovered = discover::discover(&config);
    let diagnostics = Arc::new(project.diagnostics);
    let mut analysis = Analysis::new(config, diagnostics, env, options, &discovered.files);
    let mut files = Arc::new(discovered.files);
    analysis.parse_all();
    analysis.follow_outside(&mut files, &mut Outside::default());
    let workspace = analysis.snapshot(files);
    let loaded = LoadedProject {
        workspace,
        walk_problems: discovered.problems,
        found_project: project.found,
    };
    (loaded, analysis)
}

/// `load` of the project found for `path`, as `agentws check` finds it.
#[cfg(test)]
fn load_path(
    path: &std::path::Path,
    env: Arc<Env>,
    options: CheckOptions,
) -> (LoadedProject, Analysis) {
    let project = crate::config::discover::find_project(&crate::config::discover::absolute(path));
    load(project, env, options)
}

/// Every fixture workspace under tests/fixtures, in path order.
#[cfg(test)]
fn fixture_roots() -> Vec<std::path::PathBuf> {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut roots: Vec<std::path::PathBuf> = std::fs::read_dir(repo.join("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    roots.sort();
    roots
}

#[cfg(test)]
mod fix_fixtures;
#[cfg(test)]
mod loading_agreement;
#[cfg(test)]
mod rule_examples;
#[cfg(test)]
mod strict_fixtures;
#[cfg(test)]
mod tools_fixtures;

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::{check_workspace, load_path as load};
    use crate::base::Env;
    use crate::check::CheckOptions;
    use crate::config::Config;
    use crate::rules::Profile;
    use crate::workspace::{discover, Workspace};

    fn skill(name: &str, extra: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n{extra}---\nBody\n")
    }

    fn sk025(ws: &Workspace) -> Vec<crate::base::Diagnostic> {
        let report = check_workspace(ws, CheckOptions::default());
        let found = report.diagnostics.into_iter();
        found.filter(|d| d.code == "SK025").collect()
    }

    /// `load` (snapshots from the database, the files a snapshot refers to added to the same
    /// analysis) gives what loading with `Workspace::build` and checking that snapshot afresh
    /// gives, for every fixture in both profiles, and for a subagent whose `workspace.path` is
    /// outside the scanned trees (the second build).
    #[test]
    fn load_agrees_with_a_fresh_build_and_check() {
        let mut roots = super::fixture_roots();
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join(".agentscope/workspace");
        std::fs::create_dir_all(ws.join("subagents")).unwrap();
        std::fs::create_dir_all(ws.join("researcher-home")).unwrap();
        std::fs::write(
            ws.join("subagents/researcher.md"),
            "---\ndescription: d\nworkspace:\n  path: researcher-home\n---\nBody\n",
        )
        .unwrap();
        let agents = ws.join("researcher-home/AGENTS.md");
        std::fs::write(&agents, "Cite every source.\n").unwrap();
        roots.push(dir.path().to_path_buf());

        let env = Arc::new(Env::new());
        for root in &roots {
            for profile in [Profile::Harness, Profile::Strict] {
                let options = CheckOptions::new(profile);
                let (loaded, analysis) = load(root, env.clone(), options);
                // The walk's problems are compared on their own below.
                let report = analysis.report(&loaded.workspace, &[]);
                let plain = discover::load(root, env.clone());
                let fresh = check_workspace(&plain.workspace, options);
                let (a, b) = (&loaded.workspace, &plain.workspace);
                let what = format!("{} {profile:?}", root.display());
                assert_eq!(a.skills, b.skills, "{what}");
                assert_eq!(a.subagents, b.subagents, "{what}");
                assert_eq!(a.tools, b.tools, "{what}");
                assert_eq!(a.kinds, b.kinds, "{what}");
                assert_eq!(a.files.len(), b.files.len(), "{what}");
                assert_eq!(loaded.walk_problems, plain.walk_problems, "{what}");
                assert_eq!(report.diagnostics, fresh.diagnostics, "{what}");
                assert_eq!(report.files_checked, fresh.files_checked, "{what}");
            }
        }
        let (loaded, analysis) = load(dir.path(), env, CheckOptions::default());
        let agents = crate::config::discover::absolute(&agents);
        assert!(loaded.workspace.files.contains_file(&agents));
        // The subagent's body is ignored because the AGENTS.md exists: only a layout that
        // holds it says so.
        let codes: Vec<&str> = analysis.diagnostics().iter().map(|d| d.code).collect();
        assert!(codes.contains(&"SA011"), "{codes:?}");
    }

    /// A file set grown after the first snapshot, under another configuration (a store's files,
    /// read in remote mode), is built by the same analysis: the documents of the files it had
    /// are the same values (not parsed again), the added ones are parsed, and snapshot and
    /// diagnostics are those of a fresh build and check of the grown set.
    #[test]
    fn a_grown_file_set_is_built_parsing_only_the_added_files() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join(".agentscope/workspace");
        std::fs::create_dir_all(ws.join("skills/hello")).unwrap();
        std::fs::create_dir_all(ws.join("subagents")).unwrap();
        std::fs::write(ws.join("skills/hello/SKILL.md"), skill("hello", "")).unwrap();
        let helper = "---\ndescription: Helps.\n---\nYou help.\n";
        std::fs::write(ws.join("subagents/helper.md"), helper).unwrap();
        std::fs::write(ws.join("tools.json"), "{\"deny\": [\"read_file\"]}").unwrap();
        let env = Arc::new(Env::new());
        let (loaded, mut analysis) = load(dir.path(), env.clone(), CheckOptions::default());
        let before = &loaded.workspace;
        assert_eq!((before.skills.len(), before.subagents.len()), (1, 1));
        assert_eq!(before.tools.len(), 1);

        let ws = crate::config::discover::absolute(&ws);
        let mut config = (*before.config).clone();
        config.filesystem.mode = crate::config::FilesystemMode::Remote;
        let config = Arc::new(config);
        let mut files = (*before.files).clone();
        for dir in ["alice", "alice/skills", "alice/skills/trains"] {
            files.insert_dir(ws.join(dir));
        }
        let added = ws.join("alice/skills/trains/SKILL.md");
        files.insert_text(added.clone(), &skill("trains", "allowed-tools: Read\n"));
        let files = Arc::new(files);
        let grown = analysis.grow(config.clone(), files.clone());

        assert_eq!(grown.config, config);
        // In path order: the per-user folder `alice/` before `skills/`.
        assert_eq!(grown.skills[0].path, added);
        assert!(Arc::ptr_eq(&grown.skills[1], &before.skills[0]));
        assert!(Arc::ptr_eq(&grown.subagents[0], &before.subagents[0]));
        assert!(Arc::ptr_eq(&grown.tools[0], &before.tools[0]));
        let fresh = Workspace::build(config, Vec::new(), files, env, None);
        assert_eq!(grown.skills, fresh.skills);
        assert_eq!(grown.subagents, fresh.subagents);
        assert_eq!(grown.tools, fresh.tools);
        assert_eq!(grown.kinds, fresh.kinds);
        assert_eq!(grown.namespaces, vec!["alice".to_string()]);
        let report = analysis.report(&grown, &[]);
        let expected = check_workspace(&fresh, CheckOptions::default());
        assert_eq!(report.diagnostics, expected.diagnostics);
        assert_eq!(report.files_checked, expected.files_checked);
        assert!(report.diagnostics.iter().any(|d| d.code == "SK025"));
    }

    #[test]
    fn allowed_tools_is_said_once_per_workspace() {
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                (
                    "/p/.agentscope/workspace/skills/b/SKILL.md",
                    skill("b", "allowed-tools: Read\n"),
                ),
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md",
                    skill("a", "license: MIT\nallowed-tools: Read Grep\n"),
                ),
                ("/p/.agentscope/workspace/skills/c/SKILL.md", skill("c", "")),
                // Dropped skills do not count.
                (
                    "/p/.agentscope/workspace/skills/d/SKILL.md",
                    "---\nallowed-tools: Read\n---\nBody\n".to_string(),
                ),
            ],
        );
        let found = sk025(&ws);
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert!(d.path.ends_with("skills/a/SKILL.md"));
        let text = ws.files.text(&d.path).unwrap();
        assert_eq!(&text[d.range.start..d.range.end], "allowed-tools");
        assert_eq!(
            d.message,
            "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it (2 skills set it; said once, here)"
        );
        let none = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [("/p/.agentscope/workspace/skills/c/SKILL.md", skill("c", ""))],
        );
        assert_eq!(sk025(&none), vec![]);
    }
}
