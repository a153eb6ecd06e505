//! The system prompt the runtime sends for one session context, byte for byte, with where each
//! part came from and what it costs (harness-spec §5).
//!
//! OWNER: the prompt preview work (see docs/architecture.md).
