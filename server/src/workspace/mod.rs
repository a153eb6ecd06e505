//! The workspace model: what the AgentScope runtime sees in a project, built from a file set into
//! an immutable snapshot.
//!
//! - `layout`: the trees a file can live in (shared workspace, project folder, per-namespace
//!   override folders) and what kind of workspace file a path is.
//! - `discover`: filling a file set from disk and loading a project into a snapshot (the only
//!   module here that touches the disk).
//! - `skill`, `subagent`, `tools`: one parsed workspace file each, as the runtime reads it, with
//!   the diagnostics found while parsing.
//! - `keys`: the one table of SKILL.md and subagent frontmatter keys (parser, editor features,
//!   strict profile, docs/workspace-files.md).
//! - `catalog`: the tool names the runtime registers for a configuration.
//! - `models`: which subagent `model:` ids the runtime can resolve.
//! - `layers`: per-context views (merged skills, subagents, the three-level file read).
//! - `snapshot`: the immutable `Workspace` value tying it together.
//!
//! Depends on `base`, `syntax`, `config`, `context` and the `rules` catalog; never on `check`,
//! `prompt`, `paths` or the front-ends.

pub mod catalog;
pub mod discover;
pub mod keys;
pub mod layers;
pub mod layout;
pub mod models;
pub mod resolution;
pub mod skill;
pub mod snapshot;
pub mod subagent;
pub mod tools;
pub mod tools_schema;

pub use layout::{FileKind, Location, Tree};
pub use snapshot::Workspace;
