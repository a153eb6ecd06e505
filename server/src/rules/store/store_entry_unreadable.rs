//! RS017 `store-entry-unreadable`: the store refuses to read one owner's entries, one namespace's
//! index or one item (a key of the wrong type, an id too long for the runtime's search).

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS017",
    name: "store-entry-unreadable",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "The store refuses to read an entry, a namespace's index, or one owner's entries.",
    consequence: "The runtime's read of it fails the same way (an exception for that call); agentws reports it and reads the rest.",
    explanation: "A Redis key of the wrong type where RedisStore expects an index (a sorted set) or an item (a \
hash) answers `WRONGTYPE` to every read; a SQLite id so long that the runtime's `LIKE` prefix search is refused \
(`LIKE or GLOB pattern too complex`) cannot be listed at all. Something other than the runtime wrote such \
entries: delete or rename them.",
    examples: &[],
}
