//! RS001 `store-key-not-absolute`: a store key does not start with `/`.

use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "RS001",
    name: "store-key-not-absolute",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A store key does not start with `/`.",
    consequence: "Listings show it, but every read asks for `/` + path: the entry is never read and the template shows through.",
    explanation: "`RemoteFilesystem.read` calls `store.get(namespace, path)` with the routed path, which always \
starts with `/` (`skills/foo/SKILL.md` ⇒ key `/foo/SKILL.md`). Listings add the `/` when it is missing, so the \
entry looks present in `ls` and `glob`, yet reading it finds nothing. Rewrite the key with a leading `/`.",
    examples: &[],
}

/// The message for `key` when it does not start with `/`.
pub fn check(key: &str) -> Option<String> {
    (!key.starts_with('/')).then(|| format!("key `{}` does not start with `/`", key.escape_debug()))
}
