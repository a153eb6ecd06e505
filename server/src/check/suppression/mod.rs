//! The rules about suppression comments themselves (`IG…`), one file per rule: a code that names
//! no rule, a comment that suppressed nothing, a reason missing where one is required. `settle`
//! finds the comments and calls these; the catalog lists them. Depends on `base`, `rules` and
//! `settle::comments` (what a comment names); never on the catalog, which lists them.

use crate::rules::declare_family;

declare_family! {
    pub(crate) mod unused;         // IG001
    pub(crate) mod unknown_code;   // IG002
    pub(crate) mod without_reason; // IG003
}
