//! `agentws check` through the engine: a project's files become an [`Analysis`]'s inputs, its
//! queries are asked once (every source's `source_diagnostics` in parallel, each thread on its
//! own clone of the database, then `workspace_diagnostics`), and the snapshot the output shows is
//! taken from the same database (`Analysis::snapshot`), so every file is parsed once. These are
//! the queries the server asks after each edit: the one composition of the rules.
//!
//! Reads the disk only through `workspace::discover`. Must not depend on `lsp` or `cli`.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::{
    facts, parsed, sets_allowed_tools, source_diagnostics, workspace_diagnostics, Analysis,
};
use crate::base::{Diagnostic, Env};
use crate::check::{self, CheckOptions, CheckReport};
use crate::workspace::discover::{self, Loaded};
use crate::workspace::Workspace;

impl Analysis {
    /// Every diagnostic of the project, in check order: what the server publishes, gathered into
    /// one list (each file's own diagnostics before the cross-file ones, as the server merges
    /// them).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let sources: Vec<_> = self.sources.values().copied().collect();
        // The parses, and the per-file queries the cross-file ones read, run here in parallel;
        // `workspace_diagnostics` then finds them memoised.
        let own: Vec<Arc<Vec<Diagnostic>>> = sources
            .par_iter()
            .map_with(self.db.clone(), |db, file| {
                facts(db, *file);
                sets_allowed_tools(db, *file);
                source_diagnostics(db, *file)
            })
            .collect();
        let workspace = workspace_diagnostics(&self.db, self.project);
        let count = own.iter().map(|list| list.len()).sum::<usize>()
            + workspace.values().map(Vec::len).sum::<usize>();
        let mut all = Vec::with_capacity(count);
        for list in &own {
            all.extend(list.iter().cloned());
        }
        for list in workspace.values() {
            all.extend(list.iter().cloned());
        }
        all.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        all.dedup();
        all
    }

    /// Parses every source in parallel, each thread on its own clone of the database, so that
    /// `snapshot`, which asks for them one by one, finds them memoised.
    pub fn parse_all(&self) {
        let sources: Vec<_> = self.sources.values().copied().collect();
        sources
            .par_iter()
            .for_each_with(self.db.clone(), |db, file| {
                parsed(db, *file);
            });
    }

    /// The report of `workspace`, a snapshot of this analysis.
    pub fn report(&self, workspace: &Workspace) -> CheckReport {
        CheckReport {
            diagnostics: self.diagnostics(),
            files_checked: check::files_checked(workspace),
        }
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
    analysis.report(workspace)
}

/// `workspace::discover::load` with the analysis as the parser: the project of `path` read from
/// disk, its snapshot taken from the analysis (which the files the snapshot refers to are added
/// to), and the analysis itself, to ask for the diagnostics.
pub fn load(path: &Path, env: Arc<Env>, options: CheckOptions) -> (Loaded, Analysis) {
    let mut analysis: Option<Analysis> = None;
    let loaded = discover::load_with(path, env, |build| {
        let analysis = match &mut analysis {
            Some(analysis) => {
                analysis.set_files(&build.files);
                analysis
            }
            None => analysis.insert(Analysis::new(
                build.config.clone(),
                Arc::new(build.config_diagnostics.to_vec()),
                build.env.clone(),
                options,
                &build.files,
            )),
        };
        analysis.parse_all();
        analysis.snapshot(build.files)
    });
    // `load_with` always builds a snapshot; an analysis of it otherwise, rather than a panic.
    let analysis = analysis.unwrap_or_else(|| {
        let ws = &loaded.workspace;
        Analysis::new(
            ws.config.clone(),
            ws.config_diagnostics.clone(),
            ws.env.clone(),
            options,
            &ws.files,
        )
    });
    (loaded, analysis)
}

/// Every fixture workspace under tests/fixtures, in path order.
#[cfg(test)]
fn fixture_roots() -> Vec<std::path::PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
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

    use super::{check_workspace, load};
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
                let options = CheckOptions { profile };
                let (loaded, analysis) = load(root, env.clone(), options);
                let report = analysis.report(&loaded.workspace);
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
