//! CF015 `config-shell-not-isolated`: `isolation.scope` is `user` or `session` on the local
//! filesystem with the shell tool on. The file tools read and write inside the caller's namespace
//! folder; the shell (`LocalFilesystemWithShell.execute`) runs `sh -c` in the project folder,
//! confined to nothing, so one user's or session's commands reach every other namespace folder
//! (agentscope-java issue #3261).

use super::Loader;
use crate::base::{Severity, TextRange};
use crate::config::{Config, FilesystemMode, Scope};
use crate::rules::{Example, Profile, Rule};

pub static RULE: Rule = Rule {
    code: "CF015",
    name: "config-shell-not-isolated",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`isolation.scope` is `user` or `session` on the local filesystem, and the shell tool is on.",
    consequence: "The isolation holds for the file tools only: the shell runs in the project folder, unconfined, and one user's or session's commands can read and change every other's folder (MEMORY.md, memory, sessions).",
    explanation: "With `scope = \"user\"` or `\"session\"` the runtime gives each caller a namespace \
folder `<workspace>/<id>/`, and the file tools (`read_file`, `write_file`, `grep_files`, …) resolve \
paths inside it. The shell tool is not a file tool: the default local filesystem \
(`LocalFilesystemSpec` → `LocalFilesystemWithShell`) starts `sh -c <command>` with the project \
folder as its working directory and no confinement, so `cat <workspace>/<other id>/MEMORY.md` \
works from any session (agentscope-java issue #3261).

When callers must not see each other's files, turn the shell off (`features.shell_tool = false`, \
`disableShellTool()`), or run the agent on a sandbox filesystem, where each sandbox holds one \
caller's files.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "support"

[isolation]
scope = "user"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a support assistant.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "support"

[isolation]
scope = "user"

[features]
shell_tool = false
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a support assistant.
"#,
            ),
        ],
    }],
};

impl Loader<'_> {
    /// `scope_at` is where `isolation.scope` is written, when it is: a scope left to its default
    /// is not a choice the file made, and is not reported.
    pub(super) fn shell_not_isolated(&mut self, config: &Config, scope_at: Option<TextRange>) {
        let Some(at) = scope_at else {
            return;
        };
        let who = match config.scope {
            Scope::User => "user",
            Scope::Session => "session",
            Scope::Agent | Scope::Global => return,
        };
        if config.filesystem.mode != FilesystemMode::Local || !config.features.shell_tool {
            return;
        }
        let workspace = config
            .workspace
            .strip_prefix(&config.project)
            .map(|rel| rel.display().to_string())
            .unwrap_or_else(|_| config.workspace.display().to_string());
        self.diagnostics.push(RULE.at(
            self.file,
            at,
            format!(
                "the file tools stay in each {who}'s folder `{workspace}/<{who} id>/`, but the shell tool runs in the project folder, unconfined: any {who}'s commands can read and change every other {who}'s folder under `{workspace}/`"
            ),
        ));
    }
}
