//! End-to-end tests: lsp.
