//! The tool names the runtime registers for a configuration (harness-spec §4.5): built-ins per
//! feature switch, platform tools that survive `allow`, MCP servers' tools, and the effect of
//! tools.json `allow`/`deny`.
//!
//! OWNER: the tools.json work (see docs/architecture.md).
