//! Why a run could not start or a path was refused: the codes every front-end answers with
//! (docs/paths.md) and the message beside them. Below `input` and `normalize`, which both refuse.
//! Depends on `context` (its errors become refusals) only.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::context::ContextError;

/// Why a run could not start or a path was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalCode {
    /// A `..` segment anywhere in the input.
    Traversal,
    /// Not a usable path: empty, control characters, overlong, `~`, UNC, bad URI.
    Invalid,
    /// Under the base workspace but in another namespace's folder (or the base itself).
    CrossNamespace,
    /// A shared asset (read without namespace) named for writing.
    SharedReadOnly,
    /// Outside every root this run may reach in its path mode.
    OutsideRoots,
    /// The path is fine as written, but a symbolic link makes it reach a file the run may not.
    SymlinkEscape,
    /// A write to an existing file with more than one hard link: the other names may lie in
    /// another namespace's folder or be shared assets, and no path check can see where.
    HardLink,
    /// `normalize`/`end` named a run that does not exist or has ended.
    UnknownRun,
    /// `begin` while the registry already holds its maximum of active runs.
    TooManyRuns,
    /// A run context with an id that would change the folder structure (see `context`).
    InvalidId,
    /// No session id and no agent name to default it to.
    NoSessionId,
    /// A sandbox root that is not an absolute container path other than `/`.
    InvalidSandboxRoot,
    /// A run parameter that cannot be parsed (an unknown scope, a root that is not UTF-8, …).
    InvalidParams,
    /// The run's project does not exist or its `agentws.toml` has errors.
    InvalidConfig,
    /// The remote store has no host or container paths to normalize.
    UnsupportedFilesystem,
}

impl RefusalCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Traversal => "traversal",
            Self::Invalid => "invalid",
            Self::CrossNamespace => "cross-namespace",
            Self::SharedReadOnly => "shared-read-only",
            Self::OutsideRoots => "outside-roots",
            Self::SymlinkEscape => "symlink-escape",
            Self::HardLink => "hard-link",
            Self::UnknownRun => "unknown-run",
            Self::TooManyRuns => "too-many-runs",
            Self::InvalidId => "invalid-id",
            Self::NoSessionId => "no-session-id",
            Self::InvalidSandboxRoot => "invalid-sandbox-root",
            Self::InvalidParams => "invalid-params",
            Self::InvalidConfig => "invalid-config",
            Self::UnsupportedFilesystem => "unsupported-filesystem",
        }
    }
}

impl fmt::Display for RefusalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused path or run, with a message that says why and what the run may do instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub code: RefusalCode,
    pub message: String,
}

impl Refusal {
    pub fn new(code: RefusalCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Refusal {}

impl From<ContextError> for Refusal {
    fn from(err: ContextError) -> Self {
        let code = match err.code {
            "invalid-id" => RefusalCode::InvalidId,
            "no-session-id" => RefusalCode::NoSessionId,
            "invalid-sandbox-root" => RefusalCode::InvalidSandboxRoot,
            _ => RefusalCode::InvalidParams,
        };
        Refusal::new(code, err.message)
    }
}
