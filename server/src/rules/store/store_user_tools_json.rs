//! RS013 `store-user-tools-json`: a per-user or per-session `/tools.json` entry.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS013",
    name: "store-user-tools-json",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A per-user or per-session `/tools.json` entry.",
    consequence: "Never read: tools.json is loaded once at build with an empty context, from the anonymous namespace.",
    explanation: "`ToolsConfigLoader` reads `tools.json` with `RuntimeContext.empty()`, so only the anonymous user's \
(`_default`, user scope), the `default` session's, or the shared entry counts.",
    examples: &[],
}

/// The message for `key` when it is the `root` namespace's (`in_root`) tools.json stored for one
/// caller (`per_caller`: scope `user` or `session`).
pub fn check(key: &str, in_root: bool, per_caller: bool) -> Option<&'static str> {
    (in_root && per_caller && key == "/tools.json").then_some(
        "per-user tools.json is never read (tools.json is loaded once, with an empty context)",
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_root_namespaces_tools_json_stored_for_one_caller() {
        assert!(super::check("/tools.json", true, true).is_some());
        // A file of that name in a skill's folder, or tools.json with scope `agent`.
        assert!(super::check("/tools.json", false, true).is_none());
        assert!(super::check("/tools.json", true, false).is_none());
        assert!(super::check("/AGENTS.md", true, true).is_none());
    }
}
