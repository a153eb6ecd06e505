//! RS016 `store-id-not-a-folder`: a stored user or session id cannot be checked as a per-user
//! folder.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS016",
    name: "store-id-not-a-folder",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A stored user or session id cannot be checked as a per-user folder.",
    consequence: "agentws skips this id; the runtime serves it from the store as any other.",
    explanation: "Ids that start with `.` or `_`, or equal a workspace folder name (`skills`, `memory`, …), have no \
per-user folder in the local layout agentws maps stored files to.",
    examples: &[],
}
