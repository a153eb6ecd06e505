//! Applying the fixes carried by diagnostics to files on disk: each file is rewritten atomically
//! (temp file in the same folder, then rename), and a file whose content changed since it was read
//! is left alone and reported.
//!
//! OWNER: the CLI work (see docs/architecture.md).
