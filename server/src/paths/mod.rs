//! The path normalizer for editor-driven agent runs: one root per run (from
//! `context::effective_root`), absolute and relative paths reaching the same file, nothing
//! escaping; and the registry of runs, bound per call, never through a shared slot.
//!
//! OWNER: the path normalizer work (see docs/architecture.md).
