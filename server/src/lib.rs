//! agentws: validation, prompt preview and path normalization for AgentScope Harness workspaces.
//!
//! The analysis core (`base`, `syntax`, `config`, `context`, `workspace`, `check`, `prompt`,
//! `paths`) is synchronous, pure over an immutable snapshot, and knows nothing about terminals or
//! the Language Server Protocol. The two front-ends, `cli` and `lsp`, sit on top of it and own all
//! I/O formatting and concurrency. See `docs/architecture.md`: its module table says what each
//! module may import, and the test module `architecture` checks the imports against it.

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
