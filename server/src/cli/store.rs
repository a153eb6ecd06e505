//! `agentws store users [URL]`: which users (user scope) or sessions (session scope) a remote
//! store holds files for, under the project's agent id, one per line (or a JSON array), so
//! `check --user` / `--all-users` and the editor can offer them. Read only; exit 2 when the
//! store cannot be read.

use std::path::PathBuf;
use std::sync::Arc;

use clap::builder::PossibleValuesParser;
use clap::{Args, Subcommand};

use super::project::{load, process_env};
use super::say;
use super::{EXIT_OK, EXIT_USAGE};
use crate::config::Scope;

#[derive(Args, Debug)]
pub struct StoreArgs {
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(Subcommand, Debug)]
pub enum StoreCommand {
    /// List the user (or session) ids the store holds for the agent.
    Users(UsersArgs),
}

#[derive(Args, Debug)]
pub struct UsersArgs {
    /// Store URL (default: `[store] url` of the project's agentws.toml).
    pub url: Option<String>,
    /// Project whose agentws.toml gives the agent id, scope and store options.
    #[arg(long, value_name = "PATH", default_value = ".")]
    pub project: PathBuf,
    /// Isolation scope (overrides agentws.toml).
    #[arg(long, value_parser = PossibleValuesParser::new(["user", "session", "agent", "global"]))]
    pub scope: Option<String>,
    /// Output: one user or session per line, or a JSON array.
    #[arg(long, default_value = "text", value_parser = PossibleValuesParser::new(["text", "json"]))]
    pub format: String,
    /// Add the client library's own report to a store error (the message says what happened
    /// in words; this is the detail behind it).
    #[arg(long)]
    pub verbose: bool,
}

pub fn run(args: StoreArgs) -> u8 {
    match args.command {
        StoreCommand::Users(args) => users(args),
    }
}

fn users(args: UsersArgs) -> u8 {
    let env = Arc::new(process_env());
    let loaded = load(&args.project, env.clone());
    let mut config = (*loaded.workspace.config).clone();
    if let Some(scope) = args.scope.as_deref().and_then(Scope::parse) {
        config.scope = scope;
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let files = &loaded.workspace.files;
    let result = crate::store::users(
        &config,
        files,
        args.url.as_deref(),
        &env,
        &cwd,
        &crate::store::io::Cancel::never(),
    );
    match result {
        Ok((_, crate::store::OwnerIds { ids, notes })) => {
            for note in notes {
                say!("note: {note}");
            }
            if args.format == "json" {
                println!("{}", serde_json::Value::from(ids));
            } else {
                for id in ids {
                    println!("{}", id.escape_debug());
                }
            }
            EXIT_OK
        }
        Err(err) => {
            say!("error: {}", err.shown(args.verbose));
            EXIT_USAGE
        }
    }
}
