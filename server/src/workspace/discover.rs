//! Filling a file set from disk for one configured project: the fixed-name files of every tree
//! (read by path, as the runtime reads them, even when git ignores them) and the `skills/`,
//! `subagents/` and `knowledge/` folders (walked recursively, respecting `.gitignore`, following
//! symlinks with loop detection, but none to a folder outside the project: reported, WS006). Runtime-owned folders (`agents/`, `memory/`, `.skills-cache/`, …)
//! are never walked. File contents are read in parallel; only files whose text matters are read.
//!
//! `load` puts it together for one path: the project found for it (`config::discover`), its
//! files, and the files its snapshot refers to outside the scanned trees, parsed into a snapshot
//! here (the analysis engine loads a project from `discover` and `add_referenced` itself, by
//! the calls the language server makes: `engine::batch::load`).
//!
//! This is the only part of the workspace model that touches the disk.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::base::{Diagnostic, Env, FileContent, FileSet};
use crate::config::discover::{absolute, find_project};
use crate::config::Config;
use crate::rules;
use crate::workspace::layout;
use crate::workspace::Workspace;

/// The folders of a tree that the runtime scans.
const SCANNED_DIRS: &[&str] = &["skills", "subagents", "knowledge"];

/// Files found on disk plus the problems met while walking (symlink loops, unreadable folders).
pub struct Discovered {
    pub files: FileSet,
    pub problems: Vec<Diagnostic>,
}

/// True when `discover` reads the same files, as the same kinds of content, under both
/// configurations: a configuration change that keeps this leaves a file set as it was.
pub fn same_walk(a: &Config, b: &Config) -> bool {
    a.workspace == b.workspace
        && a.project == b.project
        && a.file == b.file
        && a.agent.additional_context_files == b.agent.additional_context_files
        && a.agent.system_prompt_file == b.agent.system_prompt_file
}

/// Reads every workspace file of `config`'s project from disk.
pub fn discover(config: &Config) -> Discovered {
    discover_keeping(config, &|_, content| content)
}

/// What a walk keeps of a file it read: `keep` of its path and content, called in the walking
/// threads as each file is read (so that a caller may take what it needs of a text and drop
/// it before the other files are read).
pub type Keep<'a> = &'a (dyn Fn(&Path, FileContent) -> FileContent + Sync);

/// [`discover`], keeping of each file's content what `keep` returns.
pub fn discover_keeping(config: &Config, keep: Keep) -> Discovered {
    // Fixed names, which may not exist.
    let mut fixed: Vec<PathBuf> = Vec::new();
    let found = Mutex::new(Found::default());

    let mut roots = vec![config.workspace.clone()];
    if config.project != config.workspace {
        roots.push(config.project.clone());
    }
    if let Ok(entries) = std::fs::read_dir(&config.workspace) {
        let mut names: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .filter(|e| layout::is_namespace_name(&e.file_name().to_string_lossy()))
            .map(|e| e.path())
            .collect();
        names.sort();
        roots.extend(names);
    }

    let mut scanned = Vec::new();
    for root in &roots {
        if root.is_dir() {
            lock(&found).dirs.push(root.clone());
        }
        for name in ["AGENTS.md", "MEMORY.md", "tools.json"] {
            fixed.push(root.join(name));
        }
        for extra in &config.agent.additional_context_files {
            let rel = layout::normalize_relative(extra);
            if !rel.is_empty() && !rel.split('/').any(|s| s == "..") {
                fixed.push(root.join(&rel));
            }
        }
        for dir in SCANNED_DIRS.iter().map(|dir| root.join(dir)) {
            if let Some(target) = leads_out(config, &dir) {
                lock(&found).problems.push(link_out(&dir, &target));
            } else if dir.is_dir() {
                scanned.push(dir);
            }
        }
    }
    if let Some(file) = &config.file {
        fixed.push(file.clone());
    }
    if let Some(file) = &config.agent.system_prompt_file {
        fixed.push(file.clone());
    }
    // The build file the runtime release is read from: its problems (CF014) are shown at their
    // line.
    if let Some(file) = config.harness_from.build_file() {
        fixed.push(file.to_path_buf());
    }

    walk(config, &scanned, &found, Walking::Parallel, keep);
    let fixed_read: Vec<(PathBuf, FileContent)> = fixed
        .into_par_iter()
        .filter_map(|path| {
            let content = if needs_text(config, &path) {
                FileContent::read_existing(&path)?
            } else if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                FileContent::NotLoaded
            } else {
                return None;
            };
            let content = keep(&path, content);
            Some((path, content))
        })
        .collect();

    let mut found = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // The walk is parallel: give the problems a stable order.
    found
        .problems
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let walked = found.files.into_iter().chain(fixed_read).collect();
    let mut files = FileSet::from_lists(walked, found.dirs);
    // A tree reached through a link itself (`/tmp` → `/private/tmp`) resolves like the links
    // inside it, so paths through either compare equal.
    for root in &roots {
        if let Ok(real) = std::fs::canonicalize(root) {
            if real != *root {
                files.insert_link(root.clone(), real);
            }
        }
    }
    for (link, real) in found.links {
        files.insert_link(link, real);
    }
    Discovered {
        files,
        problems: found.problems,
    }
}

/// A file a walk read, read again as the walk reads it: for a caller that dropped its text
/// (`engine::batch::load_digested`) and needs it back.
pub fn read_again(path: &Path) -> FileContent {
    FileContent::read(path)
}

/// What a walk of one folder found ([`discover_folder`]), in path order.
pub struct Folder {
    pub files: Vec<(PathBuf, FileContent)>,
    pub dirs: Vec<PathBuf>,
    /// Whether a symbolic link was met (its target is recorded by a whole discovery only).
    pub linked: bool,
    pub problems: Vec<Diagnostic>,
}

/// The files and folders at and below `dir`, walked and read as [`discover`] walks and reads a
/// scanned folder: for a folder created inside one. The walk stops once it found more than
/// `most_files` files (the caller reads the project again instead).
pub fn discover_folder(config: &Config, dir: &Path, most_files: usize) -> Folder {
    let found = Mutex::new(Found::default());
    walk(
        config,
        &[dir.to_path_buf()],
        &found,
        Walking::InPlace { most_files },
        &|_, content| content,
    );
    let mut found = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    found.files.sort_by(|a, b| a.0.cmp(&b.0));
    found.dirs.sort();
    Folder {
        files: found.files,
        dirs: found.dirs,
        linked: !found.links.is_empty(),
        problems: found.problems,
    }
}

/// Whether `dir` lies below one of the folders a discovery walks (`skills/`, `subagents/`,
/// `knowledge/` of a tree), as its relative path `rel` in that tree says.
pub fn is_below_scanned(rel: &str) -> bool {
    let mut parts = rel.split('/');
    let first = parts.next().unwrap_or_default();
    SCANNED_DIRS.contains(&first) && parts.next().is_some_and(|p| !p.is_empty())
}

/// What the parallel walk collects.
#[derive(Default)]
struct Found {
    files: Vec<(PathBuf, FileContent)>,
    dirs: Vec<PathBuf>,
    /// Symbolic links met (link → real path).
    links: Vec<(PathBuf, PathBuf)>,
    problems: Vec<Diagnostic>,
}

fn lock(found: &Mutex<Found>) -> std::sync::MutexGuard<'_, Found> {
    found
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How a walk goes through its folders.
#[derive(Clone, Copy)]
enum Walking {
    /// On every core, reading files in the walking threads so that walking and reading overlap:
    /// a whole discovery.
    Parallel,
    /// On the calling thread, stopping once more than `most_files` files were found: one small
    /// folder an editor's watcher reports, where starting the parallel walk's threads (and its
    /// idle thread's 1 ms naps until they are joined) would cost more than the walk.
    InPlace { most_files: usize },
}

/// Walks `dirs` (respecting `.gitignore`, following symlinks with loop detection) and reads each
/// file's text where the runtime reads it. Both ways of walking apply the same rules.
fn walk(config: &Config, dirs: &[PathBuf], found: &Mutex<Found>, walking: Walking, keep: Keep) {
    let Some((first, rest)) = dirs.split_first() else {
        return;
    };
    let mut builder = ignore::WalkBuilder::new(first);
    for dir in rest {
        builder.add(dir);
    }
    // Links to folders outside the project are not followed (one to `/` would walk the whole
    // disk); each is reported instead. The filter must own what it records.
    let out_links: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
    let (outside, filter_config) = (out_links.clone(), config.clone());
    builder
        .hidden(false)
        .follow_links(true)
        .require_git(false)
        .git_global(false)
        .filter_entry(move |entry| {
            let target = entry
                .path_is_symlink()
                .then(|| leads_out(&filter_config, entry.path()))
                .flatten();
            if let Some(target) = &target {
                let mut outside = outside.lock().unwrap_or_else(|p| p.into_inner());
                outside.push(link_out(entry.path(), target));
            }
            target.is_none()
        });
    let visit = |entry: Result<ignore::DirEntry, ignore::Error>| match entry {
        Ok(entry) if entry.path_is_symlink() => {
            // Where the link leads, so one file seen through two paths is known as one
            // (`FileSet::same_real_file`).
            if let Ok(real) = std::fs::canonicalize(entry.path()) {
                lock(found).links.push((entry.path().to_path_buf(), real));
            }
            record(config, entry, found, keep);
        }
        Ok(entry) => record(config, entry, found, keep),
        Err(err) => {
            let problem = walk_problem(first, &err);
            lock(found).problems.push(problem);
        }
    };
    match walking {
        Walking::Parallel => builder.build_parallel().run(|| {
            Box::new(|entry| {
                visit(entry);
                ignore::WalkState::Continue
            })
        }),
        Walking::InPlace { most_files } => {
            for entry in builder.build() {
                visit(entry);
                if lock(found).files.len() > most_files {
                    break;
                }
            }
        }
    }
    let out_links = std::mem::take(&mut *out_links.lock().unwrap_or_else(|p| p.into_inner()));
    lock(found).problems.extend(out_links);
}

/// Where `path` leads when it is a symbolic link to a folder outside the project folder and the
/// workspace folder: a walk must not follow it. The runtime's own walks (`Files.walk`,
/// `Files.walkFileTree` without `FOLLOW_LINKS`) never descend through a link to a folder, so a
/// `knowledge` link to `/` lists nothing there; agentws follows links inside the project (a
/// skill folder linked from elsewhere in it, XR016) but none out of it.
fn leads_out(config: &Config, path: &Path) -> Option<PathBuf> {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return None;
    }
    let target = std::fs::canonicalize(path).ok()?;
    if !target.is_dir() {
        return None;
    }
    let inside = [&config.project, &config.workspace]
        .into_iter()
        .filter_map(|root| std::fs::canonicalize(root).ok())
        .any(|root| target.starts_with(root));
    (!inside).then_some(target)
}

/// WS006 for a link the walk did not follow.
fn link_out(link: &Path, target: &Path) -> Diagnostic {
    rules::workspace::walk_failed::at(
        link,
        &format!(
            "`{}` is a symbolic link to `{}`, a folder outside the project; agentws does not \
             follow it (the runtime's walks do not follow links to folders)",
            link.file_name()
                .unwrap_or(link.as_os_str())
                .to_string_lossy(),
            target.display()
        ),
    )
}

/// Keeps one walked entry: a folder, or a file with its text where the runtime reads it.
fn record(config: &Config, entry: ignore::DirEntry, found: &Mutex<Found>, keep: Keep) {
    if entry.file_type().is_some_and(|t| t.is_dir()) {
        lock(found).dirs.push(entry.into_path());
    } else {
        let regular = entry.file_type().is_some_and(|t| t.is_file());
        let path = entry.into_path();
        let content = if !needs_text(config, &path) {
            FileContent::NotLoaded
        } else if regular {
            FileContent::read_listed_regular(&path)
        } else {
            FileContent::read(&path)
        };
        let content = keep(&path, content);
        lock(found).files.push((path, content));
    }
}

/// Whether the runtime reads this file's text (as opposed to only listing it).
fn needs_text(config: &Config, path: &Path) -> bool {
    use crate::workspace::FileKind::*;
    let Some(location) = layout::locate(config, path) else {
        return true;
    };
    !matches!(
        layout::classify(&location, &config.agent.additional_context_files),
        Some(Knowledge | SkillResource)
    )
}

fn walk_problem(dir: &Path, err: &ignore::Error) -> Diagnostic {
    let (path, message) = match err {
        ignore::Error::WithPath { path, err } => (path.clone(), err.to_string()),
        ignore::Error::WithDepth { err, .. } => return walk_problem(dir, err),
        ignore::Error::Loop { child, ancestor } => (
            child.clone(),
            format!(
                "symbolic link loop: `{}` points back to `{}`",
                child.display(),
                ancestor.display()
            ),
        ),
        other => (dir.to_path_buf(), other.to_string()),
    };
    rules::workspace::walk_failed::at(&path, &message)
}

/// What [`add_referenced`] put into a file set: the files it read and every folder it recorded
/// (with the ancestors that were not there before), so that [`remove_referenced`] can take
/// exactly that out again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Referenced {
    pub files: Vec<PathBuf>,
    pub dirs: Vec<PathBuf>,
}

impl Referenced {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.dirs.is_empty()
    }
}

/// Adds the files and folders a snapshot refers to outside the scanned trees
/// (`Workspace::referenced_paths`) to `files`, reading the files that exist.
pub fn add_referenced(files: &mut FileSet, paths: &[PathBuf]) -> Referenced {
    let mut added = Referenced::default();
    for path in paths {
        if files.contains_file(path) || files.contains_dir(path) {
            continue;
        }
        let recorded = match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => path.as_path(),
            Ok(meta) if meta.is_file() => {
                added.files.push(path.clone());
                match path.parent() {
                    Some(parent) => parent,
                    None => continue,
                }
            }
            _ => continue,
        };
        added.dirs.extend(
            recorded
                .ancestors()
                .take_while(|dir| !files.contains_dir(dir))
                .map(Path::to_path_buf),
        );
        if added.files.last() == Some(path) {
            files.insert(path.clone(), FileContent::read(path), None);
        } else {
            files.insert_dir(path.clone());
        }
    }
    added
}

/// Takes out of `files` what [`add_referenced`] put in.
pub fn remove_referenced(files: &mut FileSet, added: &Referenced) {
    for file in &added.files {
        files.remove(file);
    }
    for dir in &added.dirs {
        files.remove_dir(dir);
    }
}

/// A workspace loaded from disk for a path (a command-line argument, a test fixture).
pub struct LoadedProject {
    pub workspace: Workspace,
    /// Problems met while walking the disk.
    pub walk_problems: Vec<Diagnostic>,
    /// False when no agentws.toml or workspace folder was found for the path
    /// (`config::discover::FoundProject::found`).
    pub found_project: bool,
}

/// Loads the project that `path` belongs to: its configuration, its files from disk and the
/// files its snapshot refers to outside the scanned trees, built into one snapshot parsed here
/// (`Workspace::build`), for a caller that keeps no analysis engine (`agentws preview`, tests).
/// `agentws check` loads a project into the engine instead (`engine::batch::load`).
pub fn load(path: &Path, env: Arc<Env>) -> LoadedProject {
    let project = find_project(&absolute(path));
    let config = Arc::new(project.config);
    let discovered = discover(&config);
    let build = |files: FileSet, previous: Option<&Workspace>| {
        let files = Arc::new(files);
        let diagnostics = project.diagnostics.clone();
        Workspace::build(config.clone(), diagnostics, files, env.clone(), previous)
    };
    let mut workspace = build(discovered.files, None);
    let referenced = workspace.referenced_paths();
    if !referenced.is_empty() {
        let mut files = (*workspace.files).clone();
        if !add_referenced(&mut files, &referenced).is_empty() {
            workspace = build(files, Some(&workspace));
        }
    }
    LoadedProject {
        workspace,
        walk_problems: discovered.problems,
        found_project: project.found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder walked alone, on the calling thread, gives what the whole discovery's parallel
    /// walk gives below it (the ignore files of the folder and of its parents applied, text read
    /// only where the runtime reads it), and stops soon after `most_files`.
    #[test]
    fn a_folder_walked_alone_gives_what_the_whole_walk_gives() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let skills = root.join(".agentscope/workspace/skills");
        let dir = skills.join("new");
        let files = [
            ("SKILL.md", "---\nname: new\ndescription: d\n---\nBody.\n"),
            ("references/guide.md", "Guide.\n"),
            ("references/deep/more.md", "More.\n"),
            ("scripts/run.py", "print(1)\n"),
            ("scratch.md", "ignored by the folder's .gitignore\n"),
            ("build.log", "ignored by the parent's .gitignore\n"),
            (".gitignore", "scratch.md\n"),
        ];
        for (rel, text) in files {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        std::fs::create_dir_all(dir.join("assets/empty")).unwrap();
        std::fs::write(skills.join(".gitignore"), "*.log\n").unwrap();
        let config = Config::defaults_for(&root);

        let whole = discover(&config).files;
        let alone = discover_folder(&config, &dir, 64);
        let expected: Vec<(PathBuf, FileContent)> = whole
            .files_under(&dir)
            .map(|(path, entry)| (path.clone(), entry.content.clone()))
            .collect();
        let names: Vec<String> = (alone.files.iter())
            .map(|(path, _)| path.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                ".gitignore",
                "SKILL.md",
                "references/deep/more.md",
                "references/guide.md",
                "scripts/run.py"
            ]
        );
        assert_eq!(alone.files, expected);
        let mut dirs = vec![dir.clone()];
        dirs.extend(whole.dirs_under(&dir).cloned());
        assert_eq!(alone.dirs, dirs);
        assert!(!alone.linked && alone.problems.is_empty());

        // Past `most_files` the walk stops: the caller reads the project again anyway.
        let stopped = discover_folder(&config, &dir, 2);
        assert_eq!(stopped.files.len(), 3);
    }

    /// Taking out what `add_referenced` added leaves the set as it was: no folder or file of it
    /// stays behind, and what was there before (a shared ancestor) is kept.
    #[test]
    fn remove_referenced_undoes_add_referenced() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let outside = base.join("deep/outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("AGENTS.md"), "# A\n").unwrap();
        let mut files = FileSet::new();
        files.insert_text(base.join("project/AGENTS.md"), "# Main\n");
        let wanted = vec![
            base.join("missing"),
            outside.clone(),
            outside.join("AGENTS.md"),
        ];
        let added = add_referenced(&mut files, &wanted);
        assert_eq!(added.files, vec![outside.join("AGENTS.md")]);
        assert_eq!(added.dirs, vec![outside.clone(), base.join("deep")]);
        assert!(files.contains_dir(&outside) && files.contains_file(&outside.join("AGENTS.md")));
        assert!(!files.contains_dir(&base.join("missing")));

        remove_referenced(&mut files, &added);
        assert!(!files.contains_dir(&outside));
        assert!(!files.contains_dir(&base.join("deep")));
        assert!(!files.contains_file(&outside.join("AGENTS.md")));
        assert!(files.contains_dir(&base));
        assert_eq!(files.len(), 1);
        // Nothing added twice: a second pass over a set holding the paths adds nothing.
        let again = add_referenced(&mut files, &wanted);
        assert!(add_referenced(&mut files, &wanted).is_empty());
        assert_eq!(again, added);
    }
}
