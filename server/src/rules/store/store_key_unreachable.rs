//! RS002 `store-key-unreachable`: a store key holds `//`, a `.` or `..` segment, a trailing `/` or
//! a `\`.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS002",
    name: "store-key-unreachable",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A store key holds `//`, a `.` or `..` segment, a trailing `/` or a `\\`.",
    consequence: "No routed workspace path reaches it (the runtime does not normalise keys): the entry is never read.",
    explanation: "The composite filesystem strips the route prefix and keeps the rest verbatim, so only paths that \
are typed with the same odd form reach such a key; the skill and subagent scans never do. A `..` key also makes \
the template fallback throw. Rename the entry to its plain form.",
    examples: &[],
}

/// The message for an absolute `key` that no routed path reaches.
pub fn check(key: &str) -> Option<String> {
    let body = key.strip_prefix('/').unwrap_or(key);
    let odd = body.contains("//")
        || body.ends_with('/')
        || key.contains('\\')
        || body.split('/').any(|s| s == "." || s == "..");
    odd.then(|| format!("key `{}` is not a plain path", key.escape_debug()))
}
