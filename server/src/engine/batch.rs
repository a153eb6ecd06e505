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

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::change::Digests;
use super::compose::workspace_diagnostics_on_every_core;
use super::sources::{
    digest_read, facts, parsed, sets_allowed_tools, source_diagnostics, text_hash, Kept,
};
use super::{Analysis, Change, Outside};
use crate::base::{Diagnostic, Env, FileContent, FileSet};
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
    ///
    /// A digested source ([`load_digested`]) is read again where the report shows it (a finding,
    /// a related place or an edit in it, a suppression comment), and `workspace`'s files hold
    /// that text from then on, for the output's excerpts and fingerprints. A text that is not the
    /// one digested (its hash differs: the file changed during the check) gets one error instead
    /// of its findings, whose positions would be wrong in it.
    pub fn report(&self, workspace: &mut Workspace, walk_problems: &[Diagnostic]) -> CheckReport {
        let config = self.config().clone();
        let options = self.requested_options();
        let db = self.db();
        let digested = self
            .sources()
            .into_iter()
            .filter_map(|file| Some((file, file.digest(db).as_ref()?)));
        let mut by_file: BTreeMap<PathBuf, Vec<Diagnostic>> = workspace
            .files
            .iter()
            .filter(|(_, entry)| entry.content.text().is_some_and(check::settle::has_comment))
            .map(|(path, _)| path.clone())
            .chain(
                digested
                    .filter(|(_, digest)| digest.comment)
                    .map(|(file, _)| file.path(db).clone()),
            )
            .map(|path| (path, Vec::new()))
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
        let changed = self.read_again(workspace, &by_file);
        for path in &changed {
            let text = FileContent::Unreadable {
                error: "it changed while agentws was checking it; check again".to_string(),
            };
            let error = crate::rules::workspace::file_unreadable::check(path, &text);
            by_file.insert(path.clone(), error.into_iter().collect());
        }
        for (path, mut list) in by_file {
            list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            list.dedup();
            // A changed file's comments are not the ones its findings were made for.
            let text = match changed.contains(&path) {
                true => None,
                false => workspace.files.text(&path),
            };
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

    /// Reads again the digested sources that `by_file` shows (a file with diagnostics or a
    /// comment, a related place or an edit in one), in parallel, into `workspace`'s files: the
    /// paths of those whose text is not the one digested.
    fn read_again(
        &self,
        workspace: &mut Workspace,
        by_file: &BTreeMap<PathBuf, Vec<Diagnostic>>,
    ) -> BTreeSet<PathBuf> {
        let db = self.db();
        let shown = by_file.iter().flat_map(|(path, list)| {
            let places = list.iter().flat_map(|d| {
                let related = d.related.iter().map(|r| &r.path);
                related.chain(d.fixes.iter().flat_map(|f| f.edits.iter().map(|e| &e.path)))
            });
            std::iter::once(path).chain(places)
        });
        let wanted: BTreeSet<&PathBuf> = shown.collect();
        let wanted: Vec<(&PathBuf, u64)> = wanted
            .into_iter()
            .filter_map(|path| {
                let digest = self.source(path)?.digest(db).as_ref()?;
                Some((path, digest.hash))
            })
            .collect();
        if wanted.is_empty() {
            return BTreeSet::new();
        }
        let read: Vec<(PathBuf, FileContent, bool)> = wanted
            .into_par_iter()
            .map(|(path, hash)| {
                let content = discover::read_again(path);
                let same = content.text().is_some_and(|text| text_hash(text) == hash);
                (path.clone(), content, same)
            })
            .collect();
        let files = Arc::make_mut(&mut workspace.files);
        let mut changed = BTreeSet::new();
        for (path, content, same) in read {
            if !same {
                changed.insert(path.clone());
            }
            if content.text().is_some() {
                let version = files.get(&path).and_then(|entry| entry.version);
                files.insert(path, content, version);
            }
        }
        changed
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
    // Its analysis holds every text: the report reads none again, so a copy of the snapshot's
    // handles is all it changes.
    analysis.report(&mut workspace.clone(), &[])
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
    let mut change = Change::new();
    change.set_files(Arc::new(discovered.files.clone()));
    let analysis = one_check_analysis(config, project.diagnostics, env, options, change);
    loaded(project.found, discovered, analysis)
}

/// [`load`] holding no source's text: each skill and subagent spec (`sources::digestible`) is
/// digested as the walk reads it, in the walking threads, and its text dropped there
/// (`sources::digest`: what the per-file queries take from it), so that the texts of the
/// project are never all held at once. What `agentws check` asks, when it does not rewrite
/// texts (`--fix`) or compare them (`--watch`); [`Analysis::report`] reads again the files it
/// shows.
pub fn load_digested(
    project: FoundProject,
    env: Arc<Env>,
    options: CheckOptions,
) -> (LoadedProject, Analysis) {
    let config = options.configure(Arc::new(project.config));
    let kept = Kept::for_check(&config);
    let (discovered, digests) = discover_digested(&config, &env, options, kept);
    // The walking threads freed every text they read; the pages stay theirs otherwise.
    crate::base::memory::return_free_memory();
    let mut change = Change::new();
    change.set_digested_files(Arc::new(discovered.files.clone()), digests);
    let analysis = one_check_analysis(config, project.diagnostics, env, options, change);
    let loaded = loaded(project.found, discovered, analysis);
    // Building the inputs on every core freed its sort keys, placements and replaced layouts in
    // each thread's arena: handed back, the report's memory is not on top of those pages.
    crate::base::memory::return_free_memory();
    loaded
}

/// The analysis of one check, whose files `change` sets.
fn one_check_analysis(
    config: Arc<Config>,
    diagnostics: Vec<Diagnostic>,
    env: Arc<Env>,
    options: CheckOptions,
    change: Change,
) -> Analysis {
    let empty = FileSet::new();
    let mut analysis = Analysis::new(config, Arc::new(diagnostics), env, options, &empty);
    analysis.without_spare_copies();
    analysis.apply_change(change);
    analysis
}

/// The walk of `config`'s project with each source `digestible` under `options` digested as it is
/// read, in the walking threads, and its text dropped there (`sources::digest_read`, keeping
/// what `kept` says): the files (those sources with their content's kind only) and the digests,
/// for [`Change::set_digested_files`]. What `agentws check` and the language server's indexing
/// read.
pub fn discover_digested(
    config: &Config,
    env: &Env,
    options: CheckOptions,
    kept: Kept,
) -> (discover::Discovered, Digests) {
    let profile = options.running(config).profile;
    let digests: Mutex<Digests> = Mutex::default();
    let keep = |path: &Path, content: FileContent| -> FileContent {
        match digest_read(config, profile, env, path, content, kept) {
            Ok((kept, digest)) => {
                let mut digests = digests.lock().unwrap_or_else(|p| p.into_inner());
                digests.insert(path.to_path_buf(), Arc::new(digest));
                kept
            }
            Err(content) => content,
        }
    };
    let discovered = discover::discover_keeping(config, &keep);
    let digests = digests.into_inner().unwrap_or_else(|p| p.into_inner());
    (discovered, digests)
}

/// The loaded project of `discovered`, whose files `analysis` was given: the files outside the
/// walk that its subagents name followed, the snapshot taken from the database.
fn loaded(
    found: bool,
    discovered: discover::Discovered,
    mut analysis: Analysis,
) -> (LoadedProject, Analysis) {
    let mut files = Arc::new(discovered.files);
    analysis.parse_all();
    analysis.follow_outside(&mut files, &mut Outside::default());
    // Its files are all set: nothing will use the spare copy.
    analysis.drop_spare_layout();
    let workspace = analysis.snapshot(files);
    let loaded = LoadedProject {
        workspace,
        walk_problems: discovered.problems,
        found_project: found,
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
                let mut loaded = loaded;
                let report = analysis.report(&mut loaded.workspace, &[]);
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

    /// `load_digested` (each source digested as it is read, its text dropped) holds no
    /// skill's or subagent spec's text but an `AGENTS.md`'s (a context file too), and a strict
    /// skill's (whose strict rules read it); its report, and the texts its snapshot holds of the
    /// files the report shows, are `load`'s, for every fixture in both profiles.
    #[test]
    fn a_digested_load_holds_no_source_text_and_reports_as_load() {
        let env = Arc::new(Env::new());
        for root in super::fixture_roots() {
            for profile in [Profile::Harness, Profile::Strict] {
                let options = CheckOptions::new(profile);
                let what = format!("{} {profile:?}", root.display());
                let project = crate::config::discover::find_project(
                    &crate::config::discover::absolute(&root),
                );
                let (mut digested, analysis) = super::load_digested(project, env.clone(), options);
                let db = analysis.db();
                let running = options.running(analysis.config()).profile;
                for file in analysis.sources() {
                    let (path, kind) = (file.path(db), file.kind(db));
                    let kept = path.ends_with("AGENTS.md")
                        || (kind == crate::workspace::FileKind::Skill
                            && running == Profile::Strict);
                    let text = file.entry(db).content.text();
                    let kept = kept || text.is_none();
                    assert_eq!(file.digest(db).is_none(), kept, "{what} {}", path.display());
                    if !kept {
                        assert_eq!(text, Some(""), "{what} {}", path.display());
                        let text = digested.workspace.files.text(path);
                        assert!(text.is_none_or(str::is_empty), "{what} {}", path.display());
                    }
                }
                let report = analysis.report(&mut digested.workspace, &digested.walk_problems);
                let (mut plain, analysis) = load(&root, env.clone(), options);
                let expected = analysis.report(&mut plain.workspace, &plain.walk_problems);
                assert_eq!(report.diagnostics, expected.diagnostics, "{what}");
                assert_eq!(report.suppressed, expected.suppressed, "{what}");
                assert_eq!(report.files_checked, expected.files_checked, "{what}");
                let shown = report.diagnostics.iter().map(|d| &d.path);
                let suppressed = report.suppressed.iter().map(|s| &s.diagnostic.path);
                for path in shown.chain(suppressed) {
                    let (a, b) = (&digested.workspace.files, &plain.workspace.files);
                    assert_eq!(a.text(path), b.text(path), "{what} {}", path.display());
                }
            }
        }
    }

    /// A source digested and then changed before the report reads it again gets one error
    /// saying so instead of its findings, whose positions would be wrong in the new text; its
    /// snapshot text is the new one, and a file read again unchanged keeps its findings.
    #[test]
    fn a_source_changed_during_the_check_is_reported_as_changed() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join(".agentscope/workspace");
        std::fs::create_dir_all(ws.join("skills/hello")).unwrap();
        std::fs::create_dir_all(ws.join("skills/other")).unwrap();
        // Without a description (a finding in each).
        let undescribed = |name: &str| format!("---\nname: {name}\n---\nBody\n");
        let hello = ws.join("skills/hello/SKILL.md");
        std::fs::write(&hello, undescribed("hello")).unwrap();
        let other = ws.join("skills/other/SKILL.md");
        std::fs::write(&other, undescribed("other")).unwrap();
        let env = Arc::new(Env::new());
        let project =
            crate::config::discover::find_project(&crate::config::discover::absolute(dir.path()));
        let (mut loaded, analysis) =
            super::load_digested(project, env.clone(), CheckOptions::default());
        let changed_text = format!("\n\n{}", undescribed("hello"));
        std::fs::write(&hello, &changed_text).unwrap();
        let report = analysis.report(&mut loaded.workspace, &loaded.walk_problems);
        let hello = crate::config::discover::absolute(&hello);
        let other = crate::config::discover::absolute(&other);
        let on = |path: &Path| -> Vec<(&str, String)> {
            let found = report.diagnostics.iter().filter(|d| d.path == path);
            found.map(|d| (d.code, d.message.clone())).collect()
        };
        assert_eq!(
            on(&hello),
            [(
                "WS007",
                "`SKILL.md` cannot be read: it changed while agentws was checking it; check again"
                    .to_string()
            )]
        );
        assert_eq!(
            loaded.workspace.files.text(&hello),
            Some(changed_text.as_str())
        );
        let codes: Vec<&str> = on(&other).into_iter().map(|(code, _)| code).collect();
        assert!(!codes.is_empty() && !codes.contains(&"WS007"), "{codes:?}");
        assert_eq!(
            loaded.workspace.files.text(&other),
            Some(undescribed("other").as_str())
        );
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
        let report = analysis.report(&mut grown.clone(), &[]);
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
