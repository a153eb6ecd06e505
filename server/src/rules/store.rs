//! Remote-store rules (`RS…`): entries of a `BaseStore` that the runtime's remote filesystem cannot
//! read back, reads differently from what they look like, or never lists (docs/stores.md). See the
//! module docs of `rules` for the code scheme.

use super::{Profile, Rule};
use crate::base::Severity;

pub static RS001: Rule = Rule {
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
};

pub static RS002: Rule = Rule {
    code: "RS002",
    name: "store-key-unreachable",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A store key holds `//`, a `.` or `..` segment, a trailing `/` or a `\\`.",
    consequence: "No routed workspace path reaches it (the runtime does not normalise keys): the entry is never read.",
    explanation: "The composite filesystem strips the route prefix and keeps the rest verbatim, so only paths that \
are typed with the same odd form reach such a key; the skill and subagent scans never do. A `..` key also makes \
the template fallback throw. Rename the entry to its plain form.",
    examples: &[],
};

pub static RS003: Rule = Rule {
    code: "RS003",
    name: "store-root-stray-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The `root` namespace holds a key other than `/AGENTS.md`, `/MEMORY.md` or `/tools.json`.",
    consequence: "Only an odd path such as `AGENTS.md/x` reaches it; it is never listed or loaded.",
    explanation: "The exact-file routes map `AGENTS.md`, `MEMORY.md` and `tools.json` to the `root` namespace; \
everything else there is unreachable for the agent.",
    examples: &[],
};

pub static RS004: Rule = Rule {
    code: "RS004",
    name: "store-value-not-json",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stored value is not a JSON object.",
    consequence: "The store throws while decoding it: the read (or the whole listing that meets it) fails.",
    explanation: "Every backend stores the file as the JSON of a map (`{\"content\": …, \"encoding\": \"utf-8\", …}`) \
and decodes it with Jackson, which throws `IllegalStateException` on anything else.",
    examples: &[],
};

pub static RS005: Rule = Rule {
    code: "RS005",
    name: "store-value-no-content",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stored value has no string (or array of lines) `content`.",
    consequence: "The entry still shadows the template, but reading it fails: the prompt falls back to the raw disk file, skills and subagents in it are skipped.",
    explanation: "`convertItemToFileData` accepts `content` as a string or, in the legacy form, an array of lines \
joined with `\\n`; any other value makes the file unreadable.",
    examples: &[],
};

pub static RS006: Rule = Rule {
    code: "RS006",
    name: "store-value-encoding",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A stored value's `encoding` is not `utf-8`.",
    consequence: "Reads return the stored text unchanged (only downloads decode base64): the agent sees the encoded text.",
    explanation: "The runtime writes `utf-8` in practice; a `base64` value is honoured only by `downloadFiles`.",
    examples: &[],
};

pub static RS008: Rule = Rule {
    code: "RS008",
    name: "store-id-separator",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stored id or key holds the backend's separator (`\\x1F`, NUL, or `/` in the sqlite-base layout).",
    consequence: "The backend rejects it or two namespaces collide: the entry belongs to no user, or to the wrong one.",
    explanation: "JdbcStore rejects segments with `\\x1F`; RedisStore joins segments with NUL and rejects keys with \
it; SqliteBaseStore joins segments with `/`, so a user id with `/` collides with a deeper namespace.",
    examples: &[],
};

pub static RS009: Rule = Rule {
    code: "RS009",
    name: "store-child-namespace",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Rows sit in a namespace below a file namespace (SQL layouts).",
    consequence: "The prefix search lists them under the parent route, but no read reaches them.",
    explanation: "JdbcStore searches with `namespace_path LIKE '<ns>%'`, which also matches deeper namespaces; the \
runtime never reads those rows by key.",
    examples: &[],
};

pub static RS010: Rule = Rule {
    code: "RS010",
    name: "store-index-stale",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A Redis index member has no item hash, or an item hash is missing from its index.",
    consequence: "A stale member shortens its page and can stop the listing early. An unindexed item is never listed (a skill or subagent in it does not load, unless the template holds the same path), yet a read of its exact path finds it: an AGENTS.md, MEMORY.md, KNOWLEDGE.md or context file in it is used, and so is a skill or subagent at a template path.",
    explanation: "RedisStore writes the hash and the sorted-set member in one script; they drift apart only when \
something else deletes or evicts keys. Listings page through the sorted set (`ZRANGEBYLEX`), reads ask for the \
hash (`HGETALL`): a hash whose member is gone is invisible to every listing and glob, but `read` and `exists` \
still find it. agentws finds such hashes with one `SCAN` per check (not per preview).",
    examples: &[],
};

pub static RS011: Rule = Rule {
    code: "RS011",
    name: "store-listing-cut",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A listing page came back short before the end, so the runtime stops there.",
    consequence: "Entries after the short page are never listed: their skills and subagents do not load.",
    explanation: "`searchAllItems` reads pages of 100 and stops at the first page with fewer than 100 items. A page \
shortened by stale index members (Redis) ends the listing early.",
    examples: &[],
};

pub static RS012: Rule = Rule {
    code: "RS012",
    name: "store-id-collation",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two ids or keys differ only by case or accents on a MySQL/MariaDB store.",
    consequence: "The server's case- and accent-insensitive collation treats them as one row: one user reads the other's file.",
    explanation: "The JdbcStore DDL sets no `COLLATE`, so the server default (`utf8mb4_0900_ai_ci`, or \
`utf8mb4_general_ci` on MariaDB) compares `Alice` and `alice` as equal.",
    examples: &[],
};

pub static RS013: Rule = Rule {
    code: "RS013",
    name: "store-user-tools-json",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A per-user or per-session `/tools.json` entry.",
    consequence: "Never read: tools.json is loaded once at build with an empty context, from the anonymous namespace.",
    explanation: "`ToolsConfigLoader` reads `tools.json` with `RuntimeContext.empty()`, so only the anonymous user's \
(`_default`, user scope), the `default` session's, or the shared entry counts.",
    examples: &[],
};

pub static RS015: Rule = Rule {
    code: "RS015",
    name: "store-empty-content",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A stored AGENTS.md, MEMORY.md or context file has empty `content`.",
    consequence:
        "It shadows the template for file tools, but the prompt reads the raw disk file instead.",
    explanation:
        "`readWithOverride` treats an empty string as absent and reads `<ws>/<path>` from disk.",
    examples: &[],
};

pub static RS016: Rule = Rule {
    code: "RS016",
    name: "store-id-not-a-folder",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A stored user or session id cannot be checked as a per-user folder.",
    consequence: "agentws skips this id; the runtime serves it from the store as any other.",
    explanation: "Ids that start with `.` or `_`, or equal a workspace folder name (`skills`, `memory`, …), have no \
per-user folder in the local layout agentws maps stored files to.",
    examples: &[],
};

pub static RULES: &[&Rule] = &[
    &RS001, &RS002, &RS003, &RS004, &RS005, &RS006, &RS008, &RS009, &RS010, &RS011, &RS012, &RS013,
    &RS015, &RS016,
];
