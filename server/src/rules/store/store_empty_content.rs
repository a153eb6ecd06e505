//! RS015 `store-empty-content`: a stored AGENTS.md, MEMORY.md or context file has empty `content`.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS015",
    name: "store-empty-content",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A stored AGENTS.md, MEMORY.md or context file has empty `content`.",
    consequence:
        "It shadows the template for file tools, but the prompt reads the raw disk file instead.",
    explanation:
        "`readWithOverride` treats an empty string as absent and reads `<ws>/<path>` from disk.",
    examples: &[],
}

/// The message for a stored file of the `root` namespace (AGENTS.md, MEMORY.md, a context file)
/// whose `content` is empty.
pub fn check(content: &str, in_root: bool) -> Option<&'static str> {
    (content.is_empty() && in_root)
        .then_some("empty content: the prompt reads the disk file in its place")
}
