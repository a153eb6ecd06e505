//! End-to-end tests: check.
