//! RS008 `store-id-separator`: a stored id or key holds the backend's separator (`\x1F`, NUL, or
//! `/` in the sqlite-base layout).

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS008",
    name: "store-id-separator",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stored id or key holds the backend's separator (`\\x1F`, NUL, or `/` in the sqlite-base layout).",
    consequence: "The backend rejects it or two namespaces collide: the entry belongs to no user, or to the wrong one.",
    explanation: "JdbcStore rejects segments with `\\x1F`; RedisStore joins segments with NUL and rejects keys with \
it; SqliteBaseStore joins segments with `/`, so a user id with `/` collides with a deeper namespace.",
    examples: &[],
}
