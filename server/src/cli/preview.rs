//! `agentws preview`: the rendered system prompt for one session context.
//!
//! OWNER: the prompt preview work (see docs/architecture.md).

use clap::Args;

#[derive(Args, Debug)]
pub struct PreviewArgs {}

pub fn run(_args: PreviewArgs) -> u8 {
    super::EXIT_USAGE
}
