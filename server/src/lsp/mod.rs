//! The language server front-end (`agentws serve`).
//!
//! OWNER: the language server work (see docs/architecture.md).
