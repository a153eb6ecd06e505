//! RS011 `store-listing-cut`: a listing page came back short before the end, so the runtime stops
//! there.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS011",
    name: "store-listing-cut",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A listing page came back short before the end, so the runtime stops there.",
    consequence: "Entries after the short page are never listed: their skills and subagents do not load.",
    explanation: "`searchAllItems` reads pages of 100 and stops at the first page with fewer than 100 items. A page \
shortened by stale index members (Redis) ends the listing early.",
    examples: &[],
}
