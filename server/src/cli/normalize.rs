//! `agentws normalize`: file-tool path normalization for one run context, one JSON object per
//! input on stdout. The run is bound exactly as `agentws/runBegin` binds it (`paths::bind`), so
//! the command line and the server give the same answers.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::say;
use crate::config::discover::absolute;
use crate::paths::{bind, load_project, DiskAccess, Op, RunParams};

#[derive(Args, Debug)]
pub struct NormalizeArgs {
    /// The project folder (its agentws.toml, if any, gives the defaults and the additional roots).
    pub project: PathBuf,
    // Boxed so the subcommand enum stays small (clippy::large_enum_variant).
    #[command(flatten)]
    pub run: Box<RunFlags>,
    /// File-tool paths as the model wrote them.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<OsString>,
}

/// The run context and operation; every flag overrides `agentws.toml`.
#[derive(Args, Debug)]
pub struct RunFlags {
    /// User id of the run.
    #[arg(long = "user", value_name = "ID")]
    pub user: Option<String>,
    /// Session id of the run (default: the agent name, as the runtime does).
    #[arg(long = "session", value_name = "ID")]
    pub session: Option<String>,
    /// Isolation scope: user, session, agent or global (checked by `context::session_context`,
    /// as for preview and the language server).
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// Filesystem mode: local or sandbox.
    #[arg(long, value_name = "MODE")]
    pub filesystem: Option<String>,
    /// Sandbox (container) workspace root, e.g. /workspace (Docker) or /home/user (E2B).
    #[arg(long = "sandbox-root", value_name = "R")]
    pub sandbox_root: Option<String>,
    /// How absolute paths outside the run's root are treated.
    #[arg(long = "path-mode", value_parser = ["rooted", "sandboxed", "unrestricted"])]
    pub path_mode: Option<String>,
    /// Additional root (repeatable); replaces the roots of agentws.toml. Relative to the current
    /// folder.
    #[arg(long = "additional-root", value_name = "DIR")]
    pub additional_roots: Vec<PathBuf>,
    /// What the file tool does with the paths.
    #[arg(long, value_parser = ["read", "write"], default_value = "read")]
    pub op: String,
    /// Do not look at the disk (no symlink resolution): check paths of another machine.
    #[arg(long)]
    pub lexical: bool,
}

pub fn run(args: NormalizeArgs) -> u8 {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run_to(args, &mut out)
}

fn run_to(args: NormalizeArgs, out: &mut impl Write) -> u8 {
    let flags = *args.run;
    let Some(project_arg) = args.project.to_str() else {
        say!(
            "error: project folder `{}` is not UTF-8",
            args.project.display()
        );
        return super::EXIT_USAGE;
    };
    let project = match load_project(project_arg) {
        Ok(project) => project,
        Err(refusal) => {
            say!("error: {}", refusal.message);
            return super::EXIT_USAGE;
        }
    };
    for diagnostic in &project.diagnostics {
        say!(
            "{}: {} {}: {}",
            diagnostic.path.display(),
            diagnostic.severity.as_str(),
            diagnostic.code,
            diagnostic.message
        );
    }
    let additional_roots = if flags.additional_roots.is_empty() {
        None
    } else {
        let mut roots = Vec::new();
        for root in &flags.additional_roots {
            match absolute(root).to_str() {
                Some(r) => roots.push(r.to_string()),
                None => {
                    say!("error: additional root `{}` is not UTF-8", root.display());
                    return super::EXIT_USAGE;
                }
            }
        }
        Some(roots)
    };
    let params = RunParams {
        project: None,
        user_id: flags.user,
        session_id: flags.session,
        scope: flags.scope,
        filesystem: flags.filesystem,
        sandbox_root: flags.sandbox_root,
        path_mode: flags.path_mode,
        additional_roots,
    };
    let disk = if flags.lexical {
        DiskAccess::Lexical
    } else {
        DiskAccess::ResolveSymlinks
    };
    let run = match bind(&project.config, &params, disk) {
        Ok(run) => run,
        Err(refusal) => {
            say!("error: the run context is refused ({refusal})");
            return super::EXIT_USAGE;
        }
    };
    let op = Op::parse(&flags.op).unwrap_or_default();
    let mut all_accepted = true;
    for input in &args.inputs {
        let shown = input.to_string_lossy();
        let line = match input.to_str() {
            Some(text) => match run.normalize(text, op) {
                Ok(n) => json!({"input": shown, "ok": true, "key": n.key, "path": n.path}),
                Err(r) => {
                    all_accepted = false;
                    json!({"input": shown, "ok": false, "error": {"code": r.code, "message": r.message}})
                }
            },
            None => {
                all_accepted = false;
                json!({"input": shown, "ok": false, "error": {
                    "code": "invalid",
                    "message": "the input is not UTF-8; names are compared byte for byte as UTF-8"
                }})
            }
        };
        if writeln!(out, "{line}").is_err() {
            return super::EXIT_USAGE;
        }
    }
    if all_accepted {
        super::EXIT_OK
    } else {
        super::EXIT_PROBLEMS
    }
}
