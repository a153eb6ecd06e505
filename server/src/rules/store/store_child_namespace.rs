//! RS009 `store-child-namespace`: rows sit in a namespace below a file namespace (SQL layouts).

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS009",
    name: "store-child-namespace",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Rows sit in a namespace below a file namespace (SQL layouts).",
    consequence: "The prefix search lists them under the parent route, but no read reaches them.",
    explanation: "JdbcStore searches with `namespace_path LIKE '<ns>%'`, which also matches deeper namespaces; the \
runtime never reads those rows by key.",
    examples: &[],
}
