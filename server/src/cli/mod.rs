//! The command-line front-end: argument parsing and dispatch to one module per subcommand. Output
//! formatting lives here and in the subcommand modules, never in the core.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod baseline;
pub mod check;
pub mod explain;
pub mod normalize;
pub mod output;
pub mod preview;
pub mod project;
pub mod schema;
pub mod serve;
pub mod store;
pub mod watch;

/// Prints a line on stderr as a terminal may show it: credentials masked
/// (`base::redact::redact_text`) and control characters escaped (`output::terminal_text`). Every
/// message of the subcommands goes through it: they quote paths, stored keys and URLs.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::print_stderr(&format!($($arg)*))
    };
}
pub(crate) use say;

/// The runtime a `--harness` flag names (`Some(None)` without the flag); `None` after saying why
/// a value is refused.
pub fn harness_arg(value: Option<&str>) -> Option<Option<crate::config::Harness>> {
    let Some(value) = value else {
        return Some(None);
    };
    match crate::config::release::map_version(value) {
        Some(mapped) => {
            if let Some(note) = mapped.note {
                say!("note: {note}");
            }
            Some(Some(mapped.harness))
        }
        None => {
            let releases: Vec<&str> = crate::config::release::RELEASES
                .iter()
                .map(|r| r.as_str())
                .collect();
            say!(
                "error: --harness `{}` is not one of {} or a version",
                value.escape_debug(),
                releases.join(", ")
            );
            None
        }
    }
}

/// How the user can run this agentws again, for the commands an output suggests: `agentws` when
/// PATH (in `env`) finds this very program first, else its path, relative to `cwd` when that is
/// shorter: after `cargo run`, PATH does not know the program it built.
pub fn shown_program(env: &crate::base::Env, cwd: &std::path::Path) -> String {
    const NAME: &str = "agentws";
    let Some(exe) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.canonicalize().ok())
    else {
        return NAME.to_string();
    };
    let Some(file_name) = exe.file_name() else {
        return NAME.to_string();
    };
    let first_on_path = env.get("PATH").and_then(|path| {
        std::env::split_paths(path)
            .map(|dir| dir.join(file_name))
            .find(|candidate| candidate.is_file())
    });
    if first_on_path.and_then(|p| p.canonicalize().ok()).as_ref() == Some(&exe)
        && file_name
            .to_str()
            .and_then(|n| n.strip_suffix(std::env::consts::EXE_SUFFIX))
            == Some(NAME)
    {
        return NAME.to_string();
    }
    let shown = project::display_relative(&exe, cwd);
    // A bare name runs what PATH finds, not the file here.
    if shown.contains('/') {
        shell_word(&shown)
    } else {
        shell_word(&format!("./{shown}"))
    }
}

/// `word` as one shell word: as it is when it holds only characters no shell reads specially,
/// else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The body of [`say!`].
pub fn print_stderr(text: &str) {
    let redacted = crate::base::redact::redact_text(text);
    eprintln!("{}", output::terminal_text(&redacted, false));
}

/// Exit codes shared by every subcommand.
pub const EXIT_OK: u8 = 0;
/// Problems found (errors, or warnings with `--error-on-warnings`; refused paths).
pub const EXIT_PROBLEMS: u8 = 1;
/// Usage errors, or nothing could be read.
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "agentws",
    version,
    about = "Validate, preview and serve AgentScope Harness agent workspaces",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check workspace files and report what the runtime will drop, misread or silently change.
    Check(check::CheckArgs),
    /// Print the system prompt the runtime sends for a user and session.
    Preview(preview::PreviewArgs),
    /// Normalize file-tool paths for one run context.
    Normalize(normalize::NormalizeArgs),
    /// Print the documentation of a rule (or list all rules).
    Explain(explain::ExplainArgs),
    /// Check again whenever a file changes, printing new and resolved diagnostics.
    Watch(watch::WatchArgs),
    /// Run the language server on stdio.
    Serve(serve::ServeArgs),
    /// Print the JSON Schema of agentws.toml or tools.json.
    Schema(schema::SchemaArgs),
    /// Look into a remote store (read only): `agentws store users [URL]`.
    Store(store::StoreArgs),
}

/// The base of the rule links (`rules::docs`) for a process with environment `env`; a refused
/// `AGENTWS_RULES_URL` is reported on stderr and the default is used.
pub fn rules_docs_url(env: &crate::base::Env) -> String {
    let (url, warning) = crate::rules::docs::docs_url(env);
    if let Some(warning) = warning {
        say!("warning: {warning}");
    }
    url
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() {
                EXIT_USAGE
            } else {
                EXIT_OK
            };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Preview(args) => preview::run(args),
        Command::Normalize(args) => normalize::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Store(args) => store::run(args),
    };
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every option and argument of every subcommand says what it is for in `--help`.
    #[test]
    fn every_option_has_help_text() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let builtin = matches!(arg.get_id().as_str(), "help" | "version");
                if !builtin && !arg.is_hide_set() && arg.get_help().is_none() {
                    missing.push(format!("{path} {}", arg.get_id()));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::Cli::command(), "agentws", &mut missing);
        assert!(missing.is_empty(), "options without help: {missing:?}");
    }
}
