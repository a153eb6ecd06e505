//! RS005 `store-value-no-content`: a stored value has no string (or array of lines) `content`.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS005",
    name: "store-value-no-content",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stored value has no string (or array of lines) `content`.",
    consequence: "The entry still shadows the template, but reading it fails: the prompt falls back to the raw disk file, skills and subagents in it are skipped.",
    explanation: "`convertItemToFileData` accepts `content` as a string or, in the legacy form, an array of lines \
joined with `\\n`; any other value makes the file unreadable.",
    examples: &[],
}
