//! RS012 `store-id-collation`: two ids or keys differ only by case or accents on a MySQL/MariaDB
//! store.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS012",
    name: "store-id-collation",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two ids or keys differ only by case or accents on a MySQL/MariaDB store.",
    consequence: "The server's case- and accent-insensitive collation treats them as one row: one user reads the other's file.",
    explanation: "The JdbcStore DDL sets no `COLLATE`, so the server default (`utf8mb4_0900_ai_ci`, or \
`utf8mb4_general_ci` on MariaDB) compares `Alice` and `alice` as equal.",
    examples: &[],
}
