//! agentws: validation, prompt preview and path normalization for AgentScope Harness workspaces.
//!
//! The core is every module but the two front-ends, `cli` and `lsp`: `base`, `syntax`, `rules`,
//! `config`, `context`, `paths`, `workspace`, `store`, `prompt`, `check` and `engine`. It knows
//! nothing about terminals or the Language Server Protocol, never prints, never reads the process
//! environment, and touches the disk only in the few places docs/architecture.md names; its
//! functions answer on the calling thread (some run data-parallel loops inside). The front-ends own
//! all I/O formatting, requests and their concurrency. docs/architecture.md's module table says
//! what each module may import; the test module `architecture` checks the imports, the file
//! cycles, the sizes and those edges against the source.

#[cfg(test)]
mod architecture;
pub mod base;
pub mod check;
pub mod cli;
pub mod config;
pub mod context;
pub mod engine;
pub mod lsp;
pub mod paths;
pub mod prompt;
pub mod rules;
pub mod store;
pub mod syntax;
pub mod workspace;
