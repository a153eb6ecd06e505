//! Parsers that keep exact byte ranges: the runtime's frontmatter split, a spanned YAML tree with
//! the runtime's typing, a spanned JSON tree, and Java string semantics.
//! Knows nothing of workspaces or rules beyond reporting what it parsed.

pub mod frontmatter;
pub mod java;
pub mod json;
pub mod yaml;
