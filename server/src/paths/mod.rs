//! The path normalizer for editor-driven agent runs: one root per run (from
//! `context::effective_root`), absolute and relative paths reaching the same file, nothing
//! escaping; and the registry of runs, bound per call, never through a shared slot.
//!
//! `input` applies the syntactic rules (forms, `..`, invalid input), `refusal` says why a path or
//! run is refused, `normalize` holds one run's
//! binding and the root rules (including symlinks), `runs` keeps live runs by id. The contract is
//! docs/paths.md. Depends on `base`, `syntax`, `config` and `context` only; no front-end code.

pub mod input;
pub mod normalize;
pub mod refusal;
pub mod runs;

#[cfg(test)]
mod tests;
#[cfg(all(test, unix))]
mod tests_links;

pub use normalize::{file_uri, DiskAccess, Normalized, Op, Run, RunOptions};
pub use refusal::{Refusal, RefusalCode};
pub use runs::{
    bind, load_project, refuse_config_errors, NormalizeParams, RunEndParams, RunInfo, RunParams,
    RunRegistry,
};
