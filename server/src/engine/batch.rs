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

    use super::check_workspace;
    use crate::check::CheckOptions;
    use crate::config::Config;
    use crate::workspace::Workspace;

    fn skill(name: &str, extra: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n{extra}---\nBody\n")
    }

    fn sk025(ws: &Workspace) -> Vec<crate::base::Diagnostic> {
        let report = check_workspace(ws, CheckOptions::default());
        let found = report.diagnostics.into_iter();
        found.filter(|d| d.code == "SK025").collect()
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
