//! RS006 `store-value-encoding`: a stored value's `encoding` is not `utf-8`.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS006",
    name: "store-value-encoding",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A stored value's `encoding` is not `utf-8`.",
    consequence: "Reads return the stored text unchanged (only downloads decode base64): the agent sees the encoded text.",
    explanation: "The runtime writes `utf-8` in practice; a `base64` value is honoured only by `downloadFiles`.",
    examples: &[],
}

/// The message for a value stored with `encoding`, unless it is UTF-8.
pub fn check(encoding: &str) -> Option<String> {
    (!encoding.eq_ignore_ascii_case("utf-8")).then(|| {
        format!(
            "encoding `{}`: reads return the stored text as it is",
            encoding.escape_debug()
        )
    })
}
