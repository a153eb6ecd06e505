//! `agentws serve`: the language server on stdio.
//!
//! OWNER: the language server work (see docs/architecture.md).

use clap::Args;

#[derive(Args, Debug)]
pub struct ServeArgs {}

pub fn run(_args: ServeArgs) -> u8 {
    super::EXIT_USAGE
}
