//! `agentws watch`: check one project, then check it again whenever something it read changes on
//! disk, and print only the difference: the diagnostics that appeared and the ones that went away,
//! then one summary line per re-check (docs/cli.md).
//!
//! Loading and checking are `check`'s (`check::targets`, `check::check_target`); lines are the
//! concise format's. Only the folders the last check read are watched, each non-recursively: the
//! workspace and project folders (agentws.toml, AGENTS.md, tools.json, …) and the folders walked
//! below `skills/`, `subagents/` and `knowledge/` — the walk already skips what .gitignore
//! ignores, so ignored folders are never watched. The watch set is recomputed after every check.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use notify_debouncer_mini::notify::{RecursiveMode, Watcher};
use notify_debouncer_mini::{new_debouncer, DebounceEventResult};

use super::check::{check_target, targets, ProfileArg, Target, Texts};
use super::output::{self, plural, Presenter, Report, Rerun, ShownDiagnostic};
use super::project::process_env;
use super::say;
use super::{EXIT_OK, EXIT_USAGE};
use crate::base::{Env, FileSet};
use crate::check::CheckOptions;
use crate::workspace::Workspace;

#[derive(Args, Debug)]
pub struct WatchArgs {
    /// A project, workspace, folder or single file (default: the current folder).
    pub path: Option<PathBuf>,
    /// Rule set: `harness` (what the runtime does) or `strict` (adds the Agent Skills open spec).
    #[arg(long, value_enum, default_value_t = ProfileArg::Harness)]
    pub profile: ProfileArg,
    /// A suppression comment must give a reason (`-- why`) to suppress anything, as
    /// `[rules] require-reason = true` asks.
    #[arg(long)]
    pub require_reason: bool,
    /// The AgentScope Harness release to model (`2.0.2`, `2.0.3-SNAPSHOT`, `2.0.3`, `main`, or a
    /// version), instead of what agentws.toml or the build file says.
    #[arg(long, value_name = "RELEASE")]
    pub harness: Option<String>,
    /// Quiet time after the last change before checking again, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub debounce: u64,
}

pub fn run(args: WatchArgs) -> u8 {
    let path = args.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let (mut found, usage_error) = targets(std::slice::from_ref(&path));
    let Some(target) = found.pop().filter(|_| !usage_error) else {
        return EXIT_USAGE;
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let env = Arc::new(process_env());
    let Some(harness) = super::harness_arg(args.harness.as_deref()) else {
        return EXIT_USAGE;
    };
    let options = CheckOptions {
        profile: args.profile.into(),
        require_reason: args.require_reason,
        harness,
    };

    let (sender, events) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = match new_debouncer(Duration::from_millis(args.debounce), sender) {
        Ok(debouncer) => debouncer,
        Err(err) => {
            say!("error: cannot watch files: {err}");
            return EXIT_USAGE;
        }
    };

    let mut last = one_check(&target, &env, options, &cwd);
    if !emit(&output::concise::render(&last.report)) {
        return EXIT_OK;
    }
    let mut watched = BTreeSet::new();
    update_watches(debouncer.watcher(), &mut watched, last.folders.clone());
    if watched.is_empty() {
        say!("error: no folder could be watched");
        return EXIT_USAGE;
    }
    if !emit(&format!(
        "Watching {} for changes. Press Ctrl-C to stop.\n",
        plural(watched.len(), "folder", "folders")
    )) {
        return EXIT_OK;
    }

    let mut again = false;
    loop {
        if !again {
            // Block until something changes; then take every batch already queued.
            let Ok(first) = events.recv() else {
                return EXIT_OK;
            };
            for batch in std::iter::once(first).chain(events.try_iter()) {
                if let Err(err) = batch {
                    say!("warning: watching: {err}");
                }
            }
        }
        let now = one_check(&target, &env, options, &cwd);
        let text = changes(&last, &now);
        // A folder that appeared is watched from now on; anything written into it before its watch
        // began is caught by checking once more right away (which prints nothing if it saw the same).
        again = update_watches(debouncer.watcher(), &mut watched, now.folders.clone()) > 0;
        last = now;
        if !text.is_empty() && !emit(&text) {
            return EXIT_OK;
        }
    }
}

/// What one check saw: the report as printed, the files it read, the folders to watch.
struct Run {
    report: Report,
    files: Arc<FileSet>,
    folders: BTreeSet<PathBuf>,
}

fn one_check(target: &Target, env: &Arc<Env>, options: CheckOptions, cwd: &Path) -> Run {
    // The next check's files are compared with these.
    let checked = check_target(target, env, options, Texts::Kept);
    let workspace = &checked.loaded.workspace;
    let presenter = Presenter::new(&workspace.files, cwd).with_excerpts(false);
    let report = Report {
        diagnostics: checked
            .diagnostics
            .iter()
            .map(|d| presenter.show(d))
            .collect(),
        files_checked: checked.files_checked.clone(),
        rerun: Rerun {
            program: super::shown_program(env, cwd),
            args: Vec::new(),
        },
        ..Report::default()
    };
    Run {
        report,
        files: workspace.files.clone(),
        folders: folders_to_watch(workspace),
    }
}

/// The folders whose entries the check depends on (see the module comment).
fn folders_to_watch(workspace: &Workspace) -> BTreeSet<PathBuf> {
    let config = &workspace.config;
    let mut folders = BTreeSet::new();
    for root in [&config.workspace, &config.project] {
        folders.extend(workspace.files.dirs_under(root).cloned());
        // A workspace folder that does not exist yet is noticed when it appears.
        if let Some(existing) = root.ancestors().find(|dir| dir.is_dir()) {
            folders.insert(existing.to_path_buf());
        }
    }
    for file in config.file.iter().chain(&config.agent.system_prompt_file) {
        if let Some(parent) = file.parent().filter(|p| p.is_dir()) {
            folders.insert(parent.to_path_buf());
        }
    }
    folders.retain(|dir| dir.is_dir());
    folders
}

/// Makes the watched set `wanted`; returns how many folders were added. A folder that cannot be
/// watched is reported and tried again after the next check.
fn update_watches(
    watcher: &mut dyn Watcher,
    watched: &mut BTreeSet<PathBuf>,
    wanted: BTreeSet<PathBuf>,
) -> usize {
    for gone in watched.difference(&wanted) {
        // The folder may be gone already; nothing to undo then.
        let _ = watcher.unwatch(gone);
    }
    watched.retain(|dir| wanted.contains(dir));
    let mut added = 0;
    for dir in wanted {
        if watched.contains(&dir) {
            continue;
        }
        match watcher.watch(&dir, RecursiveMode::NonRecursive) {
            Ok(()) => {
                watched.insert(dir);
                added += 1;
            }
            Err(err) => say!("warning: cannot watch `{}`: {err}", dir.display()),
        }
    }
    added
}

/// The lines printed after a re-check: resolved and new diagnostics grouped by file, then one
/// summary line. Empty when neither the files read nor the diagnostics changed (a change to an
/// ignored or unread file).
fn changes(before: &Run, after: &Run) -> String {
    let changed_files = changed_files(&before.files, &after.files);
    let (resolved, new) = diff(&before.report.diagnostics, &after.report.diagnostics);
    if changed_files == 0 && resolved.is_empty() && new.is_empty() {
        return String::new();
    }
    let mut lines: Vec<(&str, u8, &ShownDiagnostic)> = resolved
        .iter()
        .map(|d| (d.path.as_str(), 0, *d))
        .chain(new.iter().map(|d| (d.path.as_str(), 1, *d)))
        .collect();
    lines.sort_by_key(|(path, kind, d)| (*path, *kind, d.range.start));
    let mut out = String::new();
    for (_, kind, d) in lines {
        let label = if kind == 0 { "resolved" } else { "new" };
        out.push_str(&format!("{label}: {}", concise_line(d)));
    }
    let s = after.report.summary();
    out.push_str(&format!(
        "Re-checked ({} changed): {} new, {} resolved; now {}, {}, {}.\n",
        plural(changed_files, "file", "files"),
        new.len(),
        resolved.len(),
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    ));
    out
}

/// One diagnostic as the concise format prints it.
fn concise_line(d: &ShownDiagnostic) -> String {
    let report = Report {
        diagnostics: vec![d.clone()],
        ..Default::default()
    };
    let text = output::concise::render(&report);
    text.lines()
        .next()
        .map(|l| format!("{l}\n"))
        .unwrap_or_default()
}

/// What makes two diagnostics of consecutive checks the same one: not the position, which moves
/// when lines are added above it.
type Identity<'a> = (&'a str, &'a str, crate::base::Severity, &'a str);

fn identity(d: &ShownDiagnostic) -> Identity<'_> {
    (d.path.as_str(), d.code, d.severity, d.message.as_str())
}

/// Diagnostics of `before` with no counterpart in `after` (resolved), and of `after` with none in
/// `before` (new). Counted per identity, so a second copy of a problem is new.
fn diff<'a>(
    before: &'a [ShownDiagnostic],
    after: &'a [ShownDiagnostic],
) -> (Vec<&'a ShownDiagnostic>, Vec<&'a ShownDiagnostic>) {
    let mut counts: BTreeMap<Identity<'_>, isize> = BTreeMap::new();
    for d in after {
        *counts.entry(identity(d)).or_default() += 1;
    }
    let mut resolved = Vec::new();
    for d in before {
        let n = counts.entry(identity(d)).or_default();
        if *n > 0 {
            *n -= 1;
        } else {
            resolved.push(d);
        }
    }
    // What is left in `counts` are the new ones; take them from the end of each identity's run.
    let mut new = Vec::new();
    for d in after.iter().rev() {
        if let Some(n) = counts.get_mut(&identity(d)).filter(|n| **n > 0) {
            *n -= 1;
            new.push(d);
        }
    }
    new.reverse();
    (resolved, new)
}

/// How many files were added, removed or changed between two checks.
fn changed_files(before: &FileSet, after: &FileSet) -> usize {
    let mut changed = 0;
    let mut b = before.iter().peekable();
    let mut a = after.iter().peekable();
    loop {
        match (b.peek(), a.peek()) {
            (None, None) => return changed,
            (Some(_), None) => {
                changed += 1;
                b.next();
            }
            (None, Some(_)) => {
                changed += 1;
                a.next();
            }
            (Some((bp, be)), Some((ap, ae))) => {
                match bp.cmp(ap) {
                    std::cmp::Ordering::Less => {
                        b.next();
                    }
                    std::cmp::Ordering::Greater => {
                        a.next();
                    }
                    std::cmp::Ordering::Equal => {
                        let same = be == ae;
                        b.next();
                        a.next();
                        if same {
                            continue;
                        }
                    }
                }
                changed += 1;
            }
        }
    }
}

/// Writes to stdout; false when stdout is closed (`agentws watch | head`), which ends the watch.
fn emit(text: &str) -> bool {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Severity;

    fn d(path: &str, line: u32, code: &'static str, message: &str) -> ShownDiagnostic {
        let pos = output::Position { line, column: 1 };
        ShownDiagnostic {
            path: path.to_string(),
            range: output::Span {
                start: pos,
                end: pos,
            },
            severity: Severity::Error,
            code,
            message: message.to_string(),
            consequence: String::new(),
            fixes: vec![],
            fingerprint: String::new(),
            baseline_state: None,
            related: vec![],
            excerpt: None,
            absolute: Default::default(),
            origin: None,
        }
    }

    #[test]
    fn a_moved_diagnostic_is_neither_new_nor_resolved() {
        let before = [d("a", 2, "SK001", "x"), d("b", 1, "SK002", "y")];
        let after = [d("a", 5, "SK001", "x"), d("c", 1, "SK002", "y")];
        let (resolved, new) = diff(&before, &after);
        assert_eq!(resolved, vec![&before[1]]);
        assert_eq!(new, vec![&after[1]]);
    }

    #[test]
    fn a_second_copy_of_a_problem_is_new() {
        let before = [d("a", 2, "SK001", "x")];
        let after = [d("a", 2, "SK001", "x"), d("a", 9, "SK001", "x")];
        let (resolved, new) = diff(&before, &after);
        assert!(resolved.is_empty());
        assert_eq!(new, vec![&after[1]]);
    }

    fn run_with(diagnostics: Vec<ShownDiagnostic>, text: &str) -> Run {
        let mut files = FileSet::new();
        files.insert_text(PathBuf::from("/w/skills/a/SKILL.md"), text);
        Run {
            report: Report {
                diagnostics,
                ..Default::default()
            },
            files: Arc::new(files),
            folders: BTreeSet::new(),
        }
    }

    #[test]
    fn a_change_to_nothing_read_prints_nothing() {
        let before = run_with(vec![d("a", 2, "SK001", "x")], "same");
        let after = run_with(vec![d("a", 2, "SK001", "x")], "same");
        assert_eq!(changes(&before, &after), "");
    }

    #[test]
    fn an_edit_that_changes_no_diagnostic_still_says_it_was_checked() {
        let before = run_with(vec![d("a", 2, "SK001", "x")], "one");
        let after = run_with(vec![d("a", 3, "SK001", "x")], "two");
        assert_eq!(
            changes(&before, &after),
            "Re-checked (1 file changed): 0 new, 0 resolved; now 1 error, 0 warnings, 0 infos.\n"
        );
    }

    #[test]
    fn resolved_come_before_new_within_a_file() {
        let before = run_with(vec![d("a", 2, "SK001", "x")], "one");
        let after = run_with(vec![d("a", 1, "SK002", "y")], "two");
        assert_eq!(
            changes(&before, &after),
            "resolved: a:2:1: error[SK001] x\n\
             new: a:1:1: error[SK002] y\n\
             Re-checked (1 file changed): 1 new, 1 resolved; now 1 error, 0 warnings, 0 infos.\n"
        );
    }

    #[test]
    fn changed_files_counts_added_removed_and_edited() {
        let mut before = FileSet::new();
        before.insert_text(PathBuf::from("/w/a"), "1");
        before.insert_text(PathBuf::from("/w/b"), "1");
        before.insert_text(PathBuf::from("/w/c"), "1");
        let mut after = FileSet::new();
        after.insert_text(PathBuf::from("/w/a"), "1");
        after.insert_text(PathBuf::from("/w/b"), "2");
        after.insert_text(PathBuf::from("/w/d"), "1");
        assert_eq!(changed_files(&before, &after), 3);
        assert_eq!(changed_files(&before, &before), 0);
    }
}
