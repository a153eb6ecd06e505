//! `agentws preview`: the rendered system prompt for one session context, as plain text (stdout
//! holds the prompt and nothing else; notes go to stderr) or as the `agentws/previewPrompt` JSON,
//! and `--diff` between two contexts as a unified diff.
//!
//! The machine facts the runtime takes from its JVM (date, OS, temp folder) are read here, at the
//! edge, and passed to the core explicitly.

use std::path::PathBuf;
use std::sync::Arc;

use clap::builder::PossibleValuesParser;
use clap::Args;
use serde::Serialize;

use super::project::{load, process_env};
use super::say;
use super::{EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE};
use crate::config::{Config, FilesystemMode};
use crate::context::{session_context, ContextOverrides};
use crate::prompt::{self, Date, PlanState, Preview, PreviewContext};
use crate::workspace::Workspace;

#[derive(Args, Debug, Clone, Default)]
pub struct ContextArgs {
    /// User id of the call.
    #[arg(long = "user", value_name = "ID")]
    pub user: Option<String>,
    /// Session id of the call (default: the agent name, as the runtime does).
    #[arg(long = "session", value_name = "ID")]
    pub session: Option<String>,
    // Scope, filesystem and harness are checked by `context::session_context`, which words the
    // refusal the same for the CLI, the language server and runs.
    /// Isolation scope: user, session, agent or global (overrides agentws.toml).
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// Filesystem mode: local, sandbox or remote (overrides agentws.toml).
    #[arg(long, value_name = "MODE")]
    pub filesystem: Option<String>,
    /// The sandbox client's workspace root (overrides agentws.toml).
    #[arg(long = "sandbox-root", value_name = "PATH")]
    pub sandbox_root: Option<String>,
    /// The AgentScope Harness release to model (`2.0.2`, `2.0.3-SNAPSHOT`, `2.0.3`, `main`, or a
    /// version), instead of what agentws.toml or the build file says.
    #[arg(long, value_name = "VERSION")]
    pub harness: Option<String>,
    /// Plan-mode state of the session.
    #[arg(long, value_parser = PossibleValuesParser::new(["active", "recorded", "off"]))]
    pub plan: Option<String>,
}

#[derive(Args, Debug)]
pub struct PreviewArgs {
    /// Project, workspace or any file inside them (default: the current folder).
    pub path: Option<PathBuf>,
    /// Boxed: the options are many, and the subcommand enum stays small.
    #[command(flatten)]
    pub options: Box<PreviewOptions>,
}

#[derive(Args, Debug)]
pub struct PreviewOptions {
    #[command(flatten)]
    pub context: ContextArgs,
    /// Today's date, YYYY-MM-DD (default: the machine's date, UTC).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub date: Option<String>,
    /// `os.name + " " + os.version` (default: from the machine, e.g. `Linux 6.8.0-45-generic`).
    #[arg(long, value_name = "TEXT")]
    pub os: Option<String>,
    /// `java.io.tmpdir` (default: `/tmp` on Linux, the system temp folder elsewhere).
    #[arg(long = "tmp-dir", value_name = "PATH")]
    pub tmp_dir: Option<String>,
    /// Read the files of this call from a remote store (`redis://`, `postgres://`, `mysql://`,
    /// `sqlite://PATH`; default: `[store] url` in remote mode). Implies `--filesystem remote`.
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
    /// With a store: add the client library's own report to a store error (the message says
    /// what happened in words; this is the detail behind it).
    #[arg(long)]
    pub verbose: bool,
    /// Output: the prompt as text, or the previewPrompt JSON.
    #[arg(long, default_value = "text", value_parser = PossibleValuesParser::new(["text", "json"]))]
    pub format: String,
    /// Print a unified diff between this context and the one the `--against-*` flags describe
    /// (exit 0 when equal, 1 when they differ).
    #[arg(long)]
    pub diff: bool,
    /// User id of the other context (default: the same as `--user`).
    #[arg(long = "against-user", value_name = "ID", requires = "diff")]
    pub against_user: Option<String>,
    /// Session id of the other context (default: the same as `--session`).
    #[arg(long = "against-session", value_name = "ID", requires = "diff")]
    pub against_session: Option<String>,
    /// Isolation scope of the other context (default: the same as `--scope`).
    #[arg(long = "against-scope", value_name = "SCOPE", requires = "diff")]
    pub against_scope: Option<String>,
    /// Filesystem mode of the other context (default: the same as `--filesystem`).
    #[arg(long = "against-filesystem", value_name = "MODE", requires = "diff")]
    pub against_filesystem: Option<String>,
    /// Sandbox root of the other context (default: the same as `--sandbox-root`).
    #[arg(long = "against-sandbox-root", value_name = "PATH", requires = "diff")]
    pub against_sandbox_root: Option<String>,
    /// Runtime version of the other context (default: the same as `--harness`).
    #[arg(long = "against-harness", value_name = "VERSION", requires = "diff")]
    pub against_harness: Option<String>,
    /// Plan-mode state of the other context (default: the same as `--plan`).
    #[arg(long = "against-plan", requires = "diff", value_parser = PossibleValuesParser::new(["active", "recorded", "off"]))]
    pub against_plan: Option<String>,
}

pub fn run(args: PreviewArgs) -> u8 {
    let path = args.path.unwrap_or_else(|| PathBuf::from("."));
    let args = *args.options;
    let date = match &args.date {
        Some(text) => match Date::parse(text) {
            Some(date) => date,
            None => {
                say!("error: --date `{text}` is not a calendar date in the form YYYY-MM-DD");
                return EXIT_USAGE;
            }
        },
        None => machine_date(),
    };
    let os = args.os.clone().unwrap_or_else(machine_os);
    let tmp_dir = args.tmp_dir.clone().unwrap_or_else(machine_tmp_dir);
    if !path.exists() {
        say!("error: `{}` does not exist", path.display());
        return EXIT_USAGE;
    }
    let env = Arc::new(process_env());
    let mut loaded = load(&path, env.clone());
    if !loaded.found_project && args.store.is_none() {
        say!(
            "error: no agentws project at or above `{}`: no agentws.toml, no `{}` folder and no workspace files (AGENTS.md, tools.json, skills/, subagents/); run it in a project folder or pass its path",
            crate::config::discover::absolute(&path).display(),
            crate::config::DEFAULT_WORKSPACE_DIR
        );
        return EXIT_USAGE;
    }
    let mut context_args = args.context.clone();
    if args.store.is_some() && context_args.filesystem.is_none() {
        context_args.filesystem = Some("remote".to_string());
    }
    let base = PreviewContext::new(&loaded.workspace.config, date, &os, &tmp_dir);
    let left_ctx = match apply(base.clone(), &loaded.workspace.config, &context_args) {
        Ok(ctx) => ctx,
        Err(code) => return code,
    };
    let wants_store = args.store.is_some()
        || (left_ctx.session.filesystem == FilesystemMode::Remote
            && loaded.workspace.config.store.url.is_some());
    if wants_store && !args.diff {
        if let Err(code) = read_call_store(&mut loaded, args.store.clone(), &left_ctx, args.verbose)
        {
            return code;
        }
    }
    let ws = &loaded.workspace;
    if !args.diff {
        return print_preview(ws, &left_ctx, &args.format);
    }
    let Some(right_args) = against_args(&args) else {
        say!("error: --diff needs at least one --against-… flag naming what differs in the second context");
        return EXIT_USAGE;
    };
    let right_ctx = match apply(base, &ws.config, &right_args) {
        Ok(ctx) => ctx,
        Err(code) => return code,
    };
    print_diff(ws, &left_ctx, &right_ctx, &args.format)
}

/// The prompt of one context, with the notes on stderr, or its previewPrompt JSON.
fn print_preview(ws: &Workspace, ctx: &PreviewContext, format: &str) -> u8 {
    let mut preview = match render(ws, ctx) {
        Ok(p) => p,
        Err(code) => return code,
    };
    preview.relabel_sources(&ws.files);
    if format == "json" {
        println!("{}", to_json(&preview));
    } else {
        say!(
            "note[runtime]: AgentScope Harness {}, {}",
            preview.context.harness,
            preview.context.harness_from
        );
        if let Some(note) = namespace_note(ws, ctx) {
            say!("note[namespace]: {note}");
        }
        print_notes(&preview);
        print!("{}", preview.text);
    }
    EXIT_OK
}

/// The second context of `--diff`: the first one's flags with the `--against-…` ones over them;
/// `None` when no `--against-…` flag is given.
fn against_args(args: &PreviewOptions) -> Option<ContextArgs> {
    let mut right_args = args.context.clone();
    let mut changed = false;
    for (slot, value) in [
        (&mut right_args.user, &args.against_user),
        (&mut right_args.session, &args.against_session),
        (&mut right_args.scope, &args.against_scope),
        (&mut right_args.filesystem, &args.against_filesystem),
        (&mut right_args.sandbox_root, &args.against_sandbox_root),
        (&mut right_args.harness, &args.against_harness),
        (&mut right_args.plan, &args.against_plan),
    ] {
        if value.is_some() {
            *slot = value.clone();
            changed = true;
        }
    }
    changed.then_some(right_args)
}

/// The unified diff between the prompts of two contexts (with both previews in JSON); exits 1
/// when they differ.
fn print_diff(
    ws: &Workspace,
    left_ctx: &PreviewContext,
    right_ctx: &PreviewContext,
    format: &str,
) -> u8 {
    let (left, right) = match (render(ws, left_ctx), render(ws, right_ctx)) {
        (Ok(l), Ok(r)) => (l, r),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let diff = similar::TextDiff::from_lines(&left.text, &right.text)
        .unified_diff()
        .context_radius(3)
        .header(&label(&left), &label(&right))
        .to_string();
    if format == "json" {
        #[derive(Serialize)]
        struct DiffJson<'a> {
            diff: &'a str,
            left: &'a Preview,
            right: &'a Preview,
        }
        println!(
            "{}",
            to_json(&DiffJson {
                diff: &diff,
                left: &left,
                right: &right
            })
        );
    } else {
        print!("{diff}");
    }
    if left.text == right.text {
        EXIT_OK
    } else {
        EXIT_PROBLEMS
    }
}

/// Reads the store entries of the call `ctx` into `loaded` (docs/stores.md).
fn read_call_store(
    loaded: &mut super::project::LoadedProject,
    url: Option<String>,
    ctx: &PreviewContext,
    verbose: bool,
) -> Result<(), u8> {
    let owners =
        crate::store::call_owners(&loaded.workspace.config, &ctx.session).map_err(|err| {
            say!("error: {err}");
            EXIT_USAGE
        })?;
    let request = super::project::StoreRequest { url, owners };
    match super::project::read_store(loaded, &request) {
        Ok(mut read) => {
            let workspace = read.parsed_snapshot(&loaded.workspace);
            let read = super::project::took_store(loaded, workspace, read);
            say!(
                "note[store]: read {} from store {}",
                super::output::plural(read.files, "file", "files"),
                read.shown
            );
            Ok(())
        }
        Err(err) => {
            say!("error: {}", err.shown(verbose));
            Err(EXIT_USAGE)
        }
    }
}

fn render(ws: &Workspace, ctx: &PreviewContext) -> Result<Preview, u8> {
    let mut preview = prompt::render(ws, ctx).map_err(|err| {
        say!("error: {err}");
        EXIT_USAGE
    })?;
    crate::check::settle::settle_notes(&mut preview, ws);
    Ok(preview)
}

/// The context the flags describe: `agentws.toml` values, each overridden by its flag.
fn apply(
    mut ctx: PreviewContext,
    config: &Config,
    args: &ContextArgs,
) -> Result<PreviewContext, u8> {
    let overrides = ContextOverrides {
        user_id: args.user.as_deref(),
        session_id: args.session.as_deref(),
        scope: args.scope.as_deref(),
        filesystem: args.filesystem.as_deref(),
        sandbox_root: args.sandbox_root.as_deref(),
        harness: args.harness.as_deref(),
    };
    ctx.session = session_context(config, &overrides).map_err(|err| {
        say!("error: {err}");
        EXIT_USAGE
    })?;
    if let Some(plan) = args.plan.as_deref().and_then(PlanState::parse) {
        ctx.plan = plan;
    }
    Ok(ctx)
}

/// `user=alice session=s1 scope=user filesystem=local harness=2.0.3`.
fn label(p: &Preview) -> String {
    let c = &p.context;
    format!(
        "user={} session={} scope={} filesystem={} harness={}",
        c.user_id.as_deref().unwrap_or("-"),
        c.session_id,
        c.scope.as_str(),
        c.filesystem.as_str(),
        c.harness
    )
}

/// On a `user`-scoped project previewed without `--user`, which namespace the preview used: the
/// runtime falls back to the session id, which is easy to mistake for "no user".
fn namespace_note(ws: &Workspace, ctx: &PreviewContext) -> Option<String> {
    let session = &ctx.session;
    if session.scope != crate::config::Scope::User || session.user_id.is_some() {
        return None;
    }
    let ids = crate::context::resolve_ids(&ws.config, session).ok()?;
    let whose = if ids.session_id_defaulted {
        " (the agent name)"
    } else {
        ""
    };
    Some(format!(
        "scope `user` and no --user: the runtime uses the session id `{}`{whose} as the namespace, so this is the prompt of the per-user folder `{}`; pass --user ID for a given user",
        ids.session_id, ids.session_id
    ))
}

fn print_notes(preview: &Preview) {
    for note in &preview.notes {
        say!("note[{}]: {}", note.code, note.message);
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Today from the machine clock, in UTC (the JVM uses its default zone).
pub fn machine_date() -> Date {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    Date::from_days_since_epoch(secs.div_euclid(86_400))
}

/// `os.name + " " + os.version`: on Linux the kernel's `ostype` and `osrelease` (what `uname -sr`
/// prints, and what the JVM reads).
pub fn machine_os() -> String {
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
    };
    match (
        read("/proc/sys/kernel/ostype"),
        read("/proc/sys/kernel/osrelease"),
    ) {
        (Some(name), Some(version)) => format!("{name} {version}"),
        _ => {
            let os = std::env::consts::OS;
            let mut chars = os.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
                .unwrap_or_default()
        }
    }
}

/// `java.io.tmpdir`: `/tmp` on Linux (the JVM ignores `TMPDIR` there), the system temp folder
/// elsewhere (with its trailing separator, as Windows and macOS JVMs print it).
pub fn machine_tmp_dir() -> String {
    if cfg!(target_os = "linux") {
        "/tmp".to_string()
    } else {
        std::env::temp_dir().to_string_lossy().into_owned()
    }
}
