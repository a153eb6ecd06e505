//! `agentws check`: load the project of each path once into the analysis engine and ask its
//! queries (`engine::batch`, the ones the server asks), optionally apply the certain fixes and
//! check again, and print the report in the chosen format (`output`).
//!
//! Paths are projects, workspaces, folders inside them or single files; a path inside a project
//! limits the report to the diagnostics of the files below it. Exit codes: see `docs/cli.md`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};

use super::output::{self, FixSummary, Format, Presenter, Report, Rerun, ShownRuntime, Style};
use super::project::{display_relative, process_env, LoadedProject};
use super::say;
use super::{EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE};
use crate::base::pathutil::normalize_lexically;
use crate::base::{Diagnostic, Env, FileContent};
use crate::check::settle::Suppressed;
use crate::check::{fix, CheckOptions, CheckReport};
use crate::config::discover::{absolute, find_project, FoundProject};
use crate::engine;
use crate::rules::workspace::too_many_problems;
use crate::rules::Profile;
use crate::workspace::{FileKind, Workspace};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Projects, workspaces, folders or single files (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
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
    /// Exit with 1 when there are warnings, not only errors.
    #[arg(long)]
    pub error_on_warnings: bool,
    /// Apply the certain fixes to the files, then report what remains.
    #[arg(long)]
    pub fix: bool,
    /// Never colour the output (colour is used only on a terminal, and never with NO_COLOR set).
    #[arg(long)]
    pub no_color: bool,
    /// Also check the files a remote store holds (`redis://`, `postgres://`, `mysql://`,
    /// `sqlite://PATH`; default: `[store] url` when `--user` or `--all-users` is given). Read only.
    #[arg(long, value_name = "URL", conflicts_with = "fix")]
    pub store: Option<String>,
    /// The users (user scope) or sessions (session scope) whose stored files to check.
    #[arg(long = "user", value_name = "ID", conflicts_with = "fix")]
    pub users: Vec<String>,
    /// Check the stored files of every user (or session) the store holds (the default with --store).
    #[arg(long, conflicts_with_all = ["users", "fix"])]
    pub all_users: bool,
    /// Report only the findings the baseline FILE does not hold (`--write-baseline` makes it), and
    /// say how many it held and how many of its entries no longer match.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in FILE (JSON, in a stable order), replacing it; exit 0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["baseline", "fix"])]
    pub write_baseline: Option<PathBuf>,
    /// With a store: add the client library's own report to a store error (the message says
    /// what happened in words; this is the detail behind it).
    #[arg(long)]
    pub verbose: bool,
}

impl CheckArgs {
    /// The commands the summary suggests, as this user can run them: the program, and what
    /// chose the findings (the profile, the release, the paths as typed). A store's flags are
    /// left out: `--fix` writes the files on disk only.
    fn rerun(&self, env: &Env, cwd: &Path) -> Rerun {
        let mut args = Vec::new();
        if matches!(self.profile, ProfileArg::Strict) {
            args.push("--profile strict".to_string());
        }
        if let Some(harness) = &self.harness {
            args.push(format!("--harness {}", super::shell_word(harness)));
        }
        args.extend(
            self.paths
                .iter()
                .map(|p| super::shell_word(&p.to_string_lossy())),
        );
        Rerun {
            program: super::shown_program(env, cwd),
            args,
        }
    }

    /// The store to read, when one was asked for.
    fn store_request(&self) -> Option<super::project::StoreRequest> {
        if self.store.is_none() && self.users.is_empty() && !self.all_users {
            return None;
        }
        Some(super::project::StoreRequest {
            url: self.store.clone(),
            owners: if self.users.is_empty() {
                crate::store::Owners::All
            } else {
                crate::store::Owners::Ids(self.users.clone())
            },
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    Harness,
    Strict,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Harness => Profile::Harness,
            ProfileArg::Strict => Profile::Strict,
        }
    }
}

/// Which diagnostics of a project the command line asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Selection {
    Whole,
    /// Files at or below any of these absolute paths.
    Under(Vec<PathBuf>),
}

impl Selection {
    fn add(&mut self, other: Selection) {
        match (&mut *self, other) {
            (Selection::Whole, _) => {}
            (_, Selection::Whole) => *self = Selection::Whole,
            (Selection::Under(mine), Selection::Under(theirs)) => mine.extend(theirs),
        }
    }

    fn contains(&self, path: &Path) -> bool {
        match self {
            Selection::Whole => true,
            Selection::Under(roots) => roots.iter().any(|r| path.starts_with(r)),
        }
    }
}

/// What makes two command-line paths the same project: config file, workspace, project folder.
type ProjectKey = (Option<PathBuf>, PathBuf, PathBuf);

/// One project to check, with the paths of the command line that belong to it.
pub(super) struct Target {
    first_path: PathBuf,
    /// The project found for the first path: its `agentws.toml` is read once, here.
    project: FoundProject,
    selection: Selection,
}

pub fn run(args: CheckArgs) -> u8 {
    let cwd = std::env::current_dir().unwrap_or_default();
    let env = Arc::new(process_env());
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let (mut targets, usage_error) = targets(&paths);

    let Some(harness) = super::harness_arg(args.harness.as_deref()) else {
        return EXIT_USAGE;
    };
    let options = CheckOptions {
        profile: args.profile.into(),
        require_reason: args.require_reason,
        harness,
    };
    let mut report = Report::default();
    let mut fix_summary = args.fix.then(FixSummary::default);
    let store = args.store_request();
    let texts = match args.fix {
        true => Texts::Kept,
        false => Texts::Dropped,
    };
    for target in &mut targets {
        let mut checked = match &store {
            None => check_target(target, &env, options, texts),
            Some(request) => match check_stored(target, &env, options, request) {
                Ok(checked) => checked,
                Err(err) => {
                    say!("error: {}", err.shown(args.verbose));
                    return EXIT_USAGE;
                }
            },
        };
        if let Some(summary) = &mut fix_summary {
            if apply_fixes(&checked, summary, &cwd) {
                // A fix may have written agentws.toml too.
                target.project = find_project(&target.first_path);
                checked = check_target(target, &env, options, texts);
            }
        }
        add_to_report(&mut report, checked, &args, &cwd);
    }
    report.fix = fix_summary;
    report.rerun = args.rerun(&env, &cwd);
    report.number_fingerprints();
    if let Some(file) = &args.write_baseline {
        return write_baseline(file, &report, &cwd, usage_error);
    }
    if let Some(file) = &args.baseline {
        if let Err(err) = super::baseline::apply(file, &cwd, &mut report) {
            say!("error: {err}");
            return EXIT_USAGE;
        }
    }
    print_report(&report, &args, &env);

    let nothing_read = report.total_files() == 0;
    if nothing_read && !usage_error {
        say!("error: no workspace file found to check");
    }
    exit_code(&report, usage_error || nothing_read, args.error_on_warnings)
}

/// `--fix`: applies the fixes of one target's diagnostics and adds what happened to `summary`;
/// true when a file was written (the target is then checked again).
fn apply_fixes(checked: &Checked, summary: &mut FixSummary, cwd: &Path) -> bool {
    let outcome = fix::apply(&checked.loaded.workspace.files, &checked.diagnostics);
    summary.fixes_applied += outcome.fixes_applied;
    summary.files_written += outcome.written.len();
    for skipped in &outcome.skipped {
        summary.not_applied.push(format!(
            "{}: {}{} ({})",
            display_relative(&skipped.path, cwd),
            if skipped.code.is_empty() {
                String::new()
            } else {
                format!("{} ", skipped.code)
            },
            skipped.title,
            skipped.reason.describe()
        ));
    }
    for (path, reason) in &outcome.kept_aside {
        summary.notes.push(format!(
            "{}: written by another process during the fix: {}",
            display_relative(path, cwd),
            reason.describe()
        ));
    }
    !outcome.written.is_empty()
}

/// Adds one target's runtime, diagnostics and file counts to the report, shown for the output
/// format (excerpts for people, fingerprints for machines and baselines).
fn add_to_report(report: &mut Report, mut checked: Checked, args: &CheckArgs, cwd: &Path) {
    report
        .runtimes
        .push(ShownRuntime::of(&checked.loaded.workspace.config, cwd));
    let mut shower = Presenter::new(&checked.loaded.workspace.files, cwd)
        .with_excerpts(args.format == Format::Human);
    if matches!(args.format, Format::Json | Format::Sarif)
        || args.baseline.is_some()
        || args.write_baseline.is_some()
    {
        shower = shower.with_fingerprints(&checked.loaded.workspace.config);
    }
    report
        .diagnostics
        .extend(checked.diagnostics.iter().map(|d| shower.show(d)));
    report
        .suppressed
        .extend(checked.suppressed.iter().map(|d| shower.show_suppressed(d)));
    for (kind, n) in std::mem::take(&mut checked.files_checked) {
        *report.files_checked.entry(kind).or_insert(0) += n;
    }
    // The process ends soon: freeing every parsed file one by one only costs time.
    std::mem::forget(checked);
}

/// `--write-baseline`: writes the report's findings to `file` instead of printing them.
fn write_baseline(file: &Path, report: &Report, cwd: &Path, usage_error: bool) -> u8 {
    match super::baseline::write(file, report) {
        Ok(count) => {
            say!(
                "wrote {} to the baseline `{}`",
                output::plural(count, "finding", "findings"),
                display_relative(&absolute(file), cwd)
            );
            if usage_error {
                EXIT_USAGE
            } else {
                EXIT_OK
            }
        }
        Err(err) => {
            say!("error: {err}");
            EXIT_USAGE
        }
    }
}

/// Prints the report on stdout in the chosen format; with `--fix` and a machine format, what the
/// fix did goes to stderr.
fn print_report(report: &Report, args: &CheckArgs, env: &Env) {
    let color = !args.no_color
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::stdout().is_terminal();
    let docs_url = super::rules_docs_url(env);
    output::print_stdout(&output::render(
        report,
        args.format,
        Style { color },
        &docs_url,
    ));
    if let (Some(fix), Format::Json | Format::Sarif | Format::Github) = (&report.fix, args.format) {
        // Machine formats keep stdout to their contract; what --fix did goes to stderr.
        say!(
            "applied {} fixes in {} files",
            fix.fixes_applied,
            fix.files_written
        );
        for line in &fix.not_applied {
            say!("not fixed: {line}");
        }
        for line in &fix.notes {
            say!("note: {line}");
        }
    }
}

/// Groups command-line paths by project (each project is loaded once). The flag is set when a
/// path could not be read (already reported on stderr).
pub(super) fn targets(paths: &[PathBuf]) -> (Vec<Target>, bool) {
    let mut usage_error = false;
    let mut targets: Vec<(ProjectKey, Target)> = Vec::new();
    for path in paths {
        if let Err(err) = std::fs::metadata(path) {
            say!("error: cannot read `{}`: {err}", path.display());
            usage_error = true;
            continue;
        }
        // `..` folded so that shown paths and project keys do not depend on how a path was typed.
        let absolute = normalize_lexically(&absolute(path));
        let project = find_project(&absolute);
        let config = &project.config;
        let key = (
            config.file.clone(),
            config.workspace.clone(),
            config.project.clone(),
        );
        let covers_project = absolute.is_dir()
            && (config.project.starts_with(&absolute) || config.workspace.starts_with(&absolute));
        let selection = if covers_project {
            Selection::Whole
        } else {
            Selection::Under(vec![absolute.clone()])
        };
        match targets.iter_mut().find(|(k, _)| *k == key) {
            Some((_, target)) => target.selection.add(selection),
            None => targets.push((
                key,
                Target {
                    first_path: absolute,
                    project,
                    selection,
                },
            )),
        }
    }

    (targets.into_iter().map(|(_, t)| t).collect(), usage_error)
}

fn exit_code(report: &Report, usage_error: bool, error_on_warnings: bool) -> u8 {
    let summary = report.summary();
    if usage_error {
        EXIT_USAGE
    } else if summary.errors > 0 || (error_on_warnings && summary.warnings > 0) {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    }
}

pub(super) struct Checked {
    pub loaded: LoadedProject,
    pub diagnostics: Vec<Diagnostic>,
    /// What the project's per-path settings and suppression comments kept aside.
    pub suppressed: Vec<Suppressed>,
    pub files_checked: BTreeMap<FileKind, usize>,
    /// The database the diagnostics came from, held so that the caller decides when it is freed
    /// (`add_to_report` never frees it: the process ends soon after).
    pub _analysis: Option<engine::Analysis>,
}

/// Whether a check's snapshot holds every source's text to the end: `--fix` rewrites them and
/// `--watch` compares them with the next check's; a plain check drops each as it is read
/// (`engine::batch::load_digested`), and its snapshot holds the texts of the files it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Texts {
    Kept,
    Dropped,
}

/// Loads the target's project into the analysis engine (every file parsed once, in its
/// database) and asks for its diagnostics.
pub(super) fn check_target(
    target: &Target,
    env: &Arc<Env>,
    options: CheckOptions,
    texts: Texts,
) -> Checked {
    let project = target.project.clone();
    let (mut loaded, analysis) = match texts {
        Texts::Kept => engine::batch::load(project, env.clone(), options),
        Texts::Dropped => engine::batch::load_digested(project, env.clone(), options),
    };
    let report = analysis.report(&mut loaded.workspace, &loaded.walk_problems);
    Checked {
        _analysis: Some(analysis),
        ..select(target, loaded, report)
    }
}

/// `check_target` with a store's files read in (docs/stores.md); what was read goes to stderr.
/// The analysis that loaded the project builds the snapshot with the stored files too, so each
/// file, on disk or stored, is parsed once, and the report comes from those parses.
fn check_stored(
    target: &Target,
    env: &Arc<Env>,
    options: CheckOptions,
    request: &super::project::StoreRequest,
) -> Result<Checked, crate::store::StoreError> {
    let project = target.project.clone();
    let (mut loaded, mut analysis) = engine::batch::load(project, env.clone(), options);
    let mut read = super::project::read_store(&loaded, request)?;
    let files = Arc::new(std::mem::take(&mut read.files));
    let workspace = analysis.grow(read.config.clone(), files);
    let read = super::project::took_store(&mut loaded, workspace, read);
    say!(
        "read {} from store {} ({})",
        output::plural(read.files, "file", "files"),
        read.shown,
        output::plural(read.owners, "owner", "owners")
    );
    for note in &read.notes {
        say!("note: {note}");
    }
    let report = analysis.report(&mut loaded.workspace, &loaded.walk_problems);
    Ok(Checked {
        _analysis: Some(analysis),
        ..select(target, loaded, report)
    })
}

/// The report's diagnostics (the walk's problems among them) of the files the target selects.
fn select(target: &Target, loaded: LoadedProject, report: CheckReport) -> Checked {
    let selected = |d: &Diagnostic| target.selection.contains(&d.path);
    let diagnostics: Vec<Diagnostic> = report
        .diagnostics
        .into_iter()
        .filter(|d| selected(d))
        .collect();
    let suppressed: Vec<Suppressed> = report
        .suppressed
        .into_iter()
        .filter(|s| selected(&s.diagnostic))
        .collect();
    // Capped after settling, as the server caps what it publishes.
    let diagnostics = too_many_problems::cap_per_file(diagnostics);
    let files_checked = match &target.selection {
        Selection::Whole => report.files_checked,
        selection => files_checked_in(&loaded.workspace, selection),
    };
    Checked {
        loaded,
        diagnostics,
        suppressed,
        files_checked,
        _analysis: None,
    }
}

/// `CheckReport::files_checked` restricted to the selected files.
fn files_checked_in(workspace: &Workspace, selection: &Selection) -> BTreeMap<FileKind, usize> {
    let read = |path: &Path| {
        workspace
            .files
            .get(path)
            .is_some_and(|e| !matches!(e.content, FileContent::NotLoaded))
    };
    let mut counts = BTreeMap::new();
    for (path, (_, kind)) in workspace.kinds.iter() {
        if selection.contains(path) && read(path) {
            *counts.entry(*kind).or_insert(0) += 1;
        }
    }
    if let Some(file) = &workspace.config.file {
        if selection.contains(file) && read(file) {
            *counts.entry(FileKind::Config).or_insert(0) += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Severity;

    #[test]
    fn a_whole_project_absorbs_paths_inside_it() {
        let mut s = Selection::Under(vec![PathBuf::from("/p/ws/skills/a")]);
        s.add(Selection::Under(vec![PathBuf::from("/p/ws/tools.json")]));
        assert!(s.contains(Path::new("/p/ws/skills/a/SKILL.md")));
        assert!(s.contains(Path::new("/p/ws/tools.json")));
        assert!(!s.contains(Path::new("/p/ws/skills/b/SKILL.md")));
        s.add(Selection::Whole);
        assert_eq!(s, Selection::Whole);
    }

    /// A store check takes its snapshot and its diagnostics from one analysis: every document
    /// of the checked snapshot, from disk or from the store, is the one memoised in the database
    /// the diagnostics came from (each file parsed once, there), and the result is what loading,
    /// reading the store and checking afresh gives.
    #[test]
    fn a_store_check_reports_from_the_analysis_that_parsed_its_snapshot() {
        use crate::cli::project::{load, read_store, took_store, StoreRequest};

        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let ws = project.join(".agentscope/workspace");
        std::fs::create_dir_all(ws.join("skills/hello")).unwrap();
        std::fs::create_dir_all(ws.join("subagents")).unwrap();
        std::fs::write(project.join("agentws.toml"), "[agent]\nname = \"bot\"\n").unwrap();
        let hello = "---\nname: hello\ndescription: Greets people.\n---\nSay hello.\n";
        std::fs::write(ws.join("skills/hello/SKILL.md"), hello).unwrap();
        let helper = "---\ndescription: Helps.\n---\nYou help.\n";
        std::fs::write(ws.join("subagents/helper.md"), helper).unwrap();
        std::fs::write(ws.join("tools.json"), "{\"deny\": []}").unwrap();
        let db = tmp.path().join("store.db");
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE agentscope_store (namespace_path TEXT NOT NULL, item_key TEXT NOT NULL, \
             value_json TEXT NOT NULL, version INTEGER NOT NULL, updated_at INTEGER NOT NULL, \
             PRIMARY KEY (namespace_path, item_key))",
        )
        .unwrap();
        let trains =
            "---\nname: trains\ndescription: Timetables.\nallowed-tools: Read\n---\nUse the API.\n";
        let rows = [
            ("skills", "/trains/SKILL.md", trains),
            (
                "subagents",
                "/planner.md",
                "---\ndescription: Plans.\n---\nYou plan.\n",
            ),
            // Never closed: the runtime drops it.
            ("skills", "/broken/SKILL.md", "---\nname: broken\n"),
        ];
        for (segment, key, content) in rows {
            let ns = format!("agents\u{1F}bot\u{1F}users\u{1F}alice\u{1F}{segment}\u{1F}");
            let value = serde_json::json!({"content": content, "encoding": "utf-8"});
            conn.execute(
                "INSERT INTO agentscope_store VALUES (?1, ?2, ?3, 1, 1764496800123)",
                rusqlite::params![ns, key, value.to_string()],
            )
            .unwrap();
        }
        drop(conn);
        let request = StoreRequest {
            url: Some(format!("sqlite://{}", db.display())),
            owners: crate::store::Owners::Ids(vec!["alice".to_string()]),
        };
        let (targets, usage_error) = targets(std::slice::from_ref(&project));
        assert!(!usage_error && targets.len() == 1);
        let env = Arc::new(Env::new());
        let options = CheckOptions::default();

        let checked = check_stored(&targets[0], &env, options, &request).unwrap();
        let snapshot = &checked.loaded.workspace;
        let stored = ws.join("alice/skills/trains/SKILL.md");
        let paths: Vec<&Path> = snapshot.skills.iter().map(|d| d.path.as_path()).collect();
        assert_eq!(
            paths,
            [
                ws.join("alice/skills/broken/SKILL.md").as_path(),
                stored.as_path(),
                ws.join("skills/hello/SKILL.md").as_path()
            ]
        );
        assert_eq!(snapshot.subagents.len(), 2);
        assert_eq!(snapshot.tools.len(), 1);
        let analysis = checked
            ._analysis
            .as_ref()
            .expect("the analysis reported from");
        let memoised = analysis.snapshot(snapshot.files.clone());
        fn same<T>(a: &[Arc<T>], b: &[Arc<T>]) -> bool {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| Arc::ptr_eq(a, b))
        }
        assert!(same(&snapshot.skills, &memoised.skills));
        assert!(same(&snapshot.subagents, &memoised.subagents));
        assert!(same(&snapshot.tools, &memoised.tools));

        let mut plain = load(&project, env.clone());
        let mut read = read_store(&plain, &request).unwrap();
        let workspace = read.parsed_snapshot(&plain.workspace);
        took_store(&mut plain, workspace, read);
        let fresh = engine::batch::check_workspace(&plain.workspace, options);
        let expected = select(&targets[0], plain, fresh);
        let codes: Vec<&str> = checked.diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.contains(&"SK005"), "{codes:?}");
        assert_eq!(checked.diagnostics, expected.diagnostics);
        assert_eq!(checked.files_checked, expected.files_checked);
    }

    #[test]
    fn exit_codes() {
        let mut report = Report::default();
        report.files_checked.insert(FileKind::Skill, 1);
        assert_eq!(exit_code(&report, false, true), EXIT_OK);
        let mut d = output::tests::sample().diagnostics;
        d.retain(|d| d.severity == Severity::Warning);
        report.diagnostics = d;
        assert_eq!(exit_code(&report, false, false), EXIT_OK);
        assert_eq!(exit_code(&report, false, true), EXIT_PROBLEMS);
        report.diagnostics = output::tests::sample().diagnostics;
        assert_eq!(exit_code(&report, false, false), EXIT_PROBLEMS);
        assert_eq!(exit_code(&report, true, false), EXIT_USAGE);
    }
}
