//! End-to-end tests: preview.
