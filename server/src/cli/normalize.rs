//! `agentws normalize`: file-tool path normalization for one run context.
//!
//! OWNER: the path normalizer work (see docs/architecture.md).

use clap::Args;

#[derive(Args, Debug)]
pub struct NormalizeArgs {}

pub fn run(_args: NormalizeArgs) -> u8 {
    super::EXIT_USAGE
}
