//! The rules about suppression comments themselves (`IG…`), one file per rule: a code that names
//! no rule, a comment that suppressed nothing, a reason missing where one is required. `settle`
//! finds the comments and calls these; the catalog lists them. Depends on `base`, `rules` and
//! `settle::comments` (what a comment names); never on the catalog, which lists them.

pub(crate) mod unknown_code;
pub(crate) mod unused;
pub(crate) mod without_reason;

use crate::rules::Rule;

/// The rules about suppression comments, in code order.
pub static RULES: &[&Rule] = &[
    &unused::RULE,         // IG001
    &unknown_code::RULE,   // IG002
    &without_reason::RULE, // IG003
];
