//! The rules over a workspace snapshot: the diagnostics found while parsing each file, the
//! whole-workspace and per-file content rules (`files`), the cross-file rules (`cross`) and, with
//! the strict profile, the Agent Skills open-specification rules (`strict`).
//!
//! Three entry points group them: `source_diagnostics` (one skill or subagent spec), the removed
//! tools a skill's text mentions (`cross::tool_mentions` compared with the catalog by
//! `cross::mentioned_among`; the text and the catalog) and `workspace_diagnostics` (everything
//! else). Running them over a project — per source, across the project, with `SK025` (`skills`)
//! and the strict rules — is the analysis engine's (`engine`, which `agentws check` and the
//! server both ask); this module cannot reach it.
//!
//! Pure over a snapshot; knows nothing of output formats or the disk. Fixes are carried inside the
//! diagnostics; applying them is `fix`, writing a file for it `rewrite`.

use std::collections::BTreeMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::base::suggest::{SuggestEach, SuggestionIndex, SuggestionPieces, Suggestions};
use crate::base::Diagnostic;
use crate::rules::workspace::content_problem;
use crate::rules::Profile;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::snapshot::{Parsed, WorkspaceFile};
use crate::workspace::{FileKind, Workspace};

pub mod catalog;
pub mod cross;
pub mod files;
pub mod fix;
pub mod loading;
pub mod rewrite;
pub mod settle;
pub mod strict;
pub mod suppression;
pub mod tools;

/// What a run of the rules is asked for: the profile, and whether a suppression comment must give
/// a reason (`--require-reason`; agentws.toml can ask the same, `settle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    pub profile: Profile,
    pub require_reason: bool,
    /// The runtime to model instead of the project's (`--harness`).
    pub harness: Option<crate::config::Harness>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self::new(Profile::Harness)
    }
}

impl CheckOptions {
    pub fn new(profile: Profile) -> Self {
        Self {
            profile,
            require_reason: false,
            harness: None,
        }
    }

    /// `config` with the runtime the options ask for, when they ask for one.
    pub fn configure(
        self,
        config: std::sync::Arc<crate::config::Config>,
    ) -> std::sync::Arc<crate::config::Config> {
        match self.harness {
            Some(harness) if config.harness != harness => {
                let mut changed = (*config).clone();
                changed.harness = harness;
                changed.harness_from = crate::config::HarnessFrom {
                    source: crate::config::HarnessSource::Override,
                    note: None,
                };
                std::sync::Arc::new(changed)
            }
            _ => config,
        }
    }

    /// The options the rules run under for `config`: the strict profile's rules run when asked
    /// for, or when the project's settings give one of them a level (`settle` then reports only
    /// those).
    pub fn running(self, config: &crate::config::Config) -> Self {
        let profile = if config.rules.turns_on("ST") {
            Profile::Strict
        } else {
            self.profile
        };
        // No rule reads whether a reason is required, nor the override (it is in the
        // configuration): only `settle` does, after them.
        Self::new(profile)
    }
}

#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// What is reported once the project's settings and suppressions are applied
    /// (`settle::settle_file`), sorted by path, position and code.
    pub diagnostics: Vec<Diagnostic>,
    /// What the project's per-path settings and suppression comments kept aside, in the same
    /// order.
    pub suppressed: Vec<settle::Suppressed>,
    /// How many files of each kind were read.
    pub files_checked: BTreeMap<FileKind, usize>,
}

impl CheckReport {
    pub fn total_files(&self) -> usize {
        self.files_checked.values().sum()
    }
}

/// The diagnostics of one skill or subagent spec: its parse and its content rules. They depend on
/// that file alone; the analysis engine memoises them per file on that promise, which this
/// signature keeps (no workspace or catalog in reach). The removed tools a skill mentions
/// (`XR010`) read the catalog as well: the engine asks them apart
/// (`cross::tool_mentions`, `cross::mentioned_among`). The strict profile adds
/// `strict::check_source`, which also asks which files exist.
pub fn source_diagnostics(doc: &Parsed, file: WorkspaceFile) -> Vec<Diagnostic> {
    let mut out = Vec::from_iter(content_problem(file.path, &file.entry.content));
    match doc {
        Parsed::Skill(skill) => out.extend(skill.diagnostics.iter().cloned()),
        Parsed::Subagent(subagent) => out.extend(subagent.diagnostics.iter().cloned()),
        Parsed::Tools(tools) => out.extend(tools.diagnostics.iter().cloned()),
    }
    out
}

/// Every diagnostic that is not a source's own (`source_diagnostics`), except `SK025` (`skills`;
/// the engine places it), which points inside a skill, the removed tools a skill's text mentions
/// (`XR010`, which read the skill's text), and the skills' loading outcomes ([`skill_loading`]):
/// [`file_diagnostics`], [`tool_references`], [`skill_references`] and the subagents' loading
/// outcomes (`loading::check_subagents`, which read no subagent's `tools:`, `skills:` or
/// `model:`) over one workspace. The engine asks these families over smaller workspaces, each
/// holding what its rules read; this whole-workspace composition is what they must add up to
/// (`engine`'s property tests).
pub fn workspace_diagnostics(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    checkpoint: &dyn Fn(),
) -> Vec<Diagnostic> {
    let mut diagnostics = file_diagnostics(workspace, catalog, checkpoint);
    let known_skills =
        |names: &[&str]| Suggestions::of_pieces(&skill_name_index(workspace)).best_each(names);
    let contexts = loading::Contexts::new(workspace);
    let code_execution = || tools::code_execution_contexts(workspace, &contexts);
    diagnostics.extend(tool_references(workspace, catalog, &code_execution));
    checkpoint();
    diagnostics.extend(skill_references(workspace, &contexts, &known_skills));
    checkpoint();
    diagnostics.extend(loading::check_subagents(workspace, &contexts));
    diagnostics
}

/// The rule that weighs the whole rendered prompt against the main agent's context window
/// (`WS017`), over a workspace of full parses (the one the preview renders; the facts the other
/// families read leave out the skills' metadata). It reads nothing unless the project names its
/// model or window.
pub fn prompt_size_diagnostics(workspace: &Workspace) -> Vec<Diagnostic> {
    files::prompt_over_context_window::check(workspace)
}

/// Whether [`prompt_size_diagnostics`] has anything to weigh: a context window agentws knows.
pub fn prompt_window_named(config: &crate::config::Config) -> bool {
    files::prompt_over_context_window::names_a_window(config)
}

/// The rules that read no skill or subagent spec: [`layout_diagnostics`] and
/// [`configured_diagnostics`]. The engine runs them over a workspace with no skill or subagent in
/// it, so that no edit of one runs them again, and each over what it reads, so that a tools.json
/// edit runs only the second.
///
/// `checkpoint` is called between the rule families: the engine passes salsa's cancellation
/// check there, so that an edit arriving meanwhile stops a run whose answer is already stale.
pub fn file_diagnostics(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    checkpoint: &dyn Fn(),
) -> Vec<Diagnostic> {
    let mut diagnostics = configured_diagnostics(workspace, catalog);
    checkpoint();
    diagnostics.extend(layout_diagnostics(workspace, checkpoint));
    diagnostics
}

/// The per-file rules of the files that are not sources (a blank injected file is judged by the
/// contexts that read it) and the layout's rules: they read the layout and the configuration,
/// not tools.json.
pub fn layout_diagnostics(workspace: &Workspace, checkpoint: &dyn Fn()) -> Vec<Diagnostic> {
    let mut diagnostics = content_diagnostics(workspace);
    checkpoint();
    let misspelt = files::misspelt_files(&workspace.files);
    diagnostics.extend(files::check_workspace_level(workspace, &misspelt));
    diagnostics
}

/// The per-file rules of the files that are not sources. They read no source, so the engine
/// runs them over the frame ([`layout_diagnostics`] gives the same over any layout holding it).
pub fn content_diagnostics(workspace: &Workspace) -> Vec<Diagnostic> {
    let files = workspace.workspace_files();
    files
        .par_iter()
        .filter(|file| !is_source(file.kind))
        .flat_map_iter(|file| files::check_file(workspace, *file))
        .collect()
}

/// The rules that read `agentws.toml`'s and tools.json's contents: their own problems, the
/// removed tools AGENTS.md files mention (`XR010`), and the memory budget, whose prompt holds the
/// tool sections tools.json shapes.
pub fn configured_diagnostics(workspace: &Workspace, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = workspace.config_diagnostics.iter().cloned().collect();
    for doc in &workspace.tools {
        // A file the runtime never reads has none of the effects its problems would have.
        let unread = tools::never_read(workspace, doc);
        diagnostics.extend(doc.diagnostics.iter().cloned().map(|d| match unread {
            Some(why) => {
                let consequence = format!(
                    "The runtime never reads this tools.json ({why}), so this changes nothing now. If it read the file: {}",
                    d.consequence
                );
                d.with_consequence(consequence)
            }
            None => d,
        }));
    }
    for (path, (location, kind)) in workspace.kinds.iter() {
        if *kind != FileKind::AgentsMd {
            continue;
        }
        if let Some(entry) = workspace.files.get(path) {
            let file = WorkspaceFile {
                path,
                location,
                kind: *kind,
                entry,
            };
            diagnostics.extend(cross::removed_tool_mentions(catalog, file));
        }
    }
    diagnostics.extend(files::memory_over_budget::check(workspace));
    diagnostics
}

/// What the subagents' `skills:` and `workspace.path` name (`cross::check_skill_references`):
/// they read the session contexts' resolution of the subagents and of the skills they name
/// (`contexts`, resolved over `workspace`). The engine runs them over a workspace holding the
/// subagents and only those skills (whole classes of one name, with their neighbours:
/// `loading::neighbour_rels`). `known_skills` suggests skill names for names no skill has, as one search of
/// every skill name ([`skill_name_index`]) does, asked only when a subagent lists such a name.
pub fn skill_references(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    known_skills: &SuggestEach,
) -> Vec<Diagnostic> {
    cross::check_skill_references(workspace, contexts, known_skills)
}

/// The tools.json rules (`tools`) and what the subagents' `tools:` and `model:` name
/// (`cross::check_tool_references`): they read the catalog, the subagents and tools.json, and of
/// the skills only where the code-execution section is rendered (`code_execution`:
/// `tools::code_execution_contexts`). The engine runs them over a workspace with no skill, so
/// that a tools.json edit resolves no session context.
pub fn tool_references(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    code_execution: &dyn Fn() -> Option<String>,
) -> Vec<Diagnostic> {
    let mut diagnostics = tools::check_in(workspace, catalog, code_execution);
    diagnostics.extend(cross::check_tool_references(workspace, catalog));
    diagnostics
}

/// The names of the workspace's skills, in path order, prepared for suggesting one for a name
/// no skill has: one piece (the engine keeps one per bucket, `engine::skills::skill_name_index`).
pub fn skill_name_index(workspace: &Workspace) -> SuggestionPieces {
    let names = workspace
        .skills
        .iter()
        .filter_map(|doc| doc.name.as_deref());
    vec![Arc::new(SuggestionIndex::new(names))]
}

/// What [`skill_loading`] finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SkillLoading {
    pub diagnostics: Vec<Diagnostic>,
    /// For each check context (`resolution::check_contexts` order), whether it loads one of the
    /// reported skills: whether a context loads any skill at all is the one fact of the whole
    /// merge another rule reads (the code-execution section, `TJ030`).
    pub loads_a_skill: Vec<bool>,
}

/// The loading outcomes of the skills `reported` keeps (`loading::check_skills`), which
/// `workspace_diagnostics` leaves out: they read only the skills of the same name and a skill's
/// neighbours by path ([`loading::neighbour_rels`]), so the engine asks them per group of names
/// over a workspace holding just those, and an edit that renames a skill re-runs two groups.
pub fn skill_loading(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    reported: &dyn Fn(&crate::workspace::skill::SkillDoc) -> bool,
) -> SkillLoading {
    // Asked once per skill, not once per skill and context: the engine's `reported` hashes the
    // name, and a name group holds a hundred and fifty skills for a hundred contexts. Each
    // context resolves each name once: the skills of a name group often share one name (one per
    // user of a store), and looking each of them up in every context grew with their square.
    let mut named: std::collections::HashMap<&str, std::collections::HashSet<&std::path::Path>> =
        std::collections::HashMap::new();
    for doc in workspace.skills.iter().filter(|doc| reported(doc)) {
        if let Some(name) = doc.name.as_deref() {
            named.entry(name).or_default().insert(doc.path.as_path());
        }
    }
    let loads_a_skill = contexts
        .list
        .iter()
        .map(|(_, resolution)| {
            named.iter().any(|(name, paths)| {
                resolution
                    .skill_named(name)
                    .is_some_and(|(_, winner)| paths.contains(winner.doc.path.as_path()))
            })
        })
        .collect();
    SkillLoading {
        diagnostics: loading::check_skills(workspace, contexts, reported),
        loads_a_skill,
    }
}

/// Skills and subagent specs: the files with a diagnostics query of their own.
pub fn is_source(kind: FileKind) -> bool {
    matches!(kind, FileKind::Skill | FileKind::Subagent)
}

/// How many files of each kind a check of `workspace` reads (its report's `files_checked`).
pub fn files_checked(workspace: &Workspace) -> BTreeMap<FileKind, usize> {
    let mut files_checked = BTreeMap::new();
    for file in workspace.workspace_files() {
        if !matches!(file.entry.content, crate::base::FileContent::NotLoaded) {
            *files_checked.entry(file.kind).or_insert(0) += 1;
        }
    }
    if let Some(file) = &workspace.config.file {
        if workspace.files.contains_file(file) {
            *files_checked.entry(FileKind::Config).or_insert(0) += 1;
        }
    }
    files_checked
}
