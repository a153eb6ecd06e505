//! Filling a file set from disk for one configured project: the fixed-name files of every tree
//! (read by path, as the runtime reads them, even when git ignores them) and the `skills/`,
//! `subagents/` and `knowledge/` folders (walked recursively, respecting `.gitignore`, following
//! symlinks with loop detection). Runtime-owned folders (`agents/`, `memory/`, `.skills-cache/`, …)
//! are never walked. File contents are read in parallel; only files whose text matters are read.
//!
//! This is the only part of the workspace model that touches the disk.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::base::{Diagnostic, FileContent, FileSet, TextRange};
use crate::config::Config;
use crate::rules;
use crate::workspace::layout;

/// The folders of a tree that the runtime scans.
const SCANNED_DIRS: &[&str] = &["skills", "subagents", "knowledge"];

/// Files found on disk plus the problems met while walking (symlink loops, unreadable folders).
pub struct Discovered {
    pub files: FileSet,
    pub problems: Vec<Diagnostic>,
}

/// Reads every workspace file of `config`'s project from disk.
pub fn discover(config: &Config) -> Discovered {
    let mut candidates: Vec<(PathBuf, bool)> = Vec::new();
    let mut problems = Vec::new();
    let mut dirs = Vec::new();

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

    for root in &roots {
        if root.is_dir() {
            dirs.push(root.clone());
        }
        for name in ["AGENTS.md", "MEMORY.md", "tools.json"] {
            candidates.push((root.join(name), true));
        }
        for extra in &config.agent.additional_context_files {
            let rel = layout::normalize_relative(extra);
            if !rel.is_empty() && !rel.split('/').any(|s| s == "..") {
                candidates.push((root.join(&rel), true));
            }
        }
        for dir in SCANNED_DIRS {
            walk(&root.join(dir), &mut candidates, &mut dirs, &mut problems);
        }
    }
    if let Some(file) = &config.file {
        candidates.push((file.clone(), true));
    }
    if let Some(file) = &config.agent.system_prompt_file {
        candidates.push((file.clone(), true));
    }

    candidates.sort();
    candidates.dedup_by(|a, b| a.0 == b.0);
    let read: Vec<(PathBuf, FileContent)> = candidates
        .into_par_iter()
        .filter_map(|(path, load)| {
            let meta = std::fs::metadata(&path).ok()?;
            if !meta.is_file() {
                return None;
            }
            let content = if load && needs_text(config, &path) {
                FileContent::read(&path)
            } else {
                FileContent::NotLoaded
            };
            Some((path, content))
        })
        .collect();

    let mut files = FileSet::new();
    for dir in dirs {
        files.insert_dir(dir);
    }
    for (path, content) in read {
        files.insert(path, content, None);
    }
    Discovered { files, problems }
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

fn walk(
    dir: &Path,
    out: &mut Vec<(PathBuf, bool)>,
    dirs: &mut Vec<PathBuf>,
    problems: &mut Vec<Diagnostic>,
) {
    if !dir.is_dir() {
        return;
    }
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(false)
        .follow_links(true)
        .require_git(false)
        .git_global(false)
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                if is_dir {
                    dirs.push(entry.into_path());
                } else {
                    out.push((entry.into_path(), true));
                }
            }
            Err(err) => problems.push(walk_problem(dir, &err)),
        }
    }
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
    rules::workspace::WS006.at(
        &path,
        TextRange::empty(0),
        format!("could not walk: {message}"),
    )
}

/// Adds the files and folders a snapshot refers to outside the scanned trees
/// (`Workspace::referenced_paths`) to `files`, reading the files that exist. Returns whether
/// anything was added.
pub fn add_referenced(files: &mut FileSet, paths: &[PathBuf]) -> bool {
    let mut added = false;
    for path in paths {
        if files.contains_file(path) || files.contains_dir(path) {
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                files.insert_dir(path.clone());
                added = true;
            }
            Ok(meta) if meta.is_file() => {
                files.insert(path.clone(), FileContent::read(path), None);
                added = true;
            }
            _ => {}
        }
    }
    added
}
