//! `agentws explain CODE`: a rule's documentation from the catalog.
//!
//! OWNER: the CLI work (see docs/architecture.md).

use clap::Args;

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Rule code (e.g. SK001) or name.
    pub code: Option<String>,
}

pub fn run(_args: ExplainArgs) -> u8 {
    super::EXIT_USAGE
}
