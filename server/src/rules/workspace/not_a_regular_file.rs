//! WS014 `not-a-regular-file`: a named pipe, socket or device where a workspace file is expected.
//! `config::load` reports it for agentws.toml itself, with what that means for the configuration.

use std::path::Path;

use super::file_name;
use crate::base::{Diagnostic, FileContent, Severity, TextRange};
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "WS014",
    name: "not-a-regular-file",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A named pipe (FIFO), socket or device sits where a workspace file is expected.",
    consequence: "agentws did not open it. The runtime opens it like a file: a named pipe makes the read wait \
                  until some process writes to it (the agent build or the call hangs), a socket cannot be \
                  opened (the read fails), a device gives whatever the device produces.",
    explanation: "Workspace files (AGENTS.md, MEMORY.md, SKILL.md, subagent specs, tools.json, additional \
context files, agentws.toml) must be regular files. agentws checks the type before opening anything \
and never reads such a path, so a pipe cannot block the check, the preview or the language server. \
Replace it with a regular file, or remove it.",
    examples: &[],
}

/// `path` was not opened: it is no regular file.
pub fn check(path: &Path, content: &FileContent) -> Option<Diagnostic> {
    let FileContent::NotRegular { kind } = content else {
        return None;
    };
    Some(RULE.at(
        path,
        TextRange::empty(0),
        format!("`{}` is {kind}, not a regular file", file_name(path)),
    ))
}
