//! RS010 `store-index-stale`: a Redis index member has no item hash, or an item hash is missing
//! from its index.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS010",
    name: "store-index-stale",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A Redis index member has no item hash, or an item hash is missing from its index.",
    consequence: "A stale member shortens its page and can stop the listing early. An unindexed item is never listed (a skill or subagent in it does not load, unless the template holds the same path), yet a read of its exact path finds it: an AGENTS.md, MEMORY.md, KNOWLEDGE.md or context file in it is used, and so is a skill or subagent at a template path.",
    explanation: "RedisStore writes the hash and the sorted-set member in one script; they drift apart only when \
something else deletes or evicts keys. Listings page through the sorted set (`ZRANGEBYLEX`), reads ask for the \
hash (`HGETALL`): a hash whose member is gone is invisible to every listing and glob, but `read` and `exists` \
still find it. agentws finds such hashes with one `SCAN` per check (not per preview).",
    examples: &[],
}
