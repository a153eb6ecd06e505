//! RS003 `store-root-stray-key`: the `root` namespace holds a key other than `/AGENTS.md`,
//! `/MEMORY.md` or `/tools.json`.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS003",
    name: "store-root-stray-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The `root` namespace holds a key other than `/AGENTS.md`, `/MEMORY.md` or `/tools.json`.",
    consequence: "Only an odd path such as `AGENTS.md/x` reaches it; it is never listed or loaded.",
    explanation: "The exact-file routes map `AGENTS.md`, `MEMORY.md` and `tools.json` to the `root` namespace; \
everything else there is unreachable for the agent.",
    examples: &[],
}
