//! RS004 `store-value-not-json`: a stored value is not a JSON object.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS004",
    name: "store-value-not-json",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stored value is not a JSON object.",
    consequence: "The store throws while decoding it: the read (or the whole listing that meets it) fails.",
    explanation: "Every backend stores the file as the JSON of a map (`{\"content\": …, \"encoding\": \"utf-8\", …}`) \
and decodes it with Jackson, which throws `IllegalStateException` on anything else.",
    examples: &[],
}
