//! End-to-end tests: the real `agentws` binary on fixture workspaces under `tests/fixtures/`.
//! One test binary with a module per front-end keeps link time down.

mod bad_input;
mod check;
mod demo;
mod docs;
// The expected-file comparison the library's own tests use, one file for both.
#[allow(dead_code)]
#[path = "../../server/src/base/expect.rs"]
mod expect;
mod fix;
mod hangs;
mod loading;
mod lsp;
mod lsp_floods;
mod messages;
mod normalize;
mod peer_suites;
mod pipelines;
mod preview;
mod realistic;
mod releases;
mod rule_settings;
mod rules;
mod secrets;
mod servers;
mod store_documents;
mod store_limits;
mod stores;
mod support;
mod watch;
