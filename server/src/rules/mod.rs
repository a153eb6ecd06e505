//! What a rule is (code, severity, profile, the runtime consequence it reports, its documentation
//! and examples), and the two families below every layer that reads files or stores: `workspace`,
//! the rules a file's read alone decides, and `store`, the rules a stored key or value alone
//! decides. Every rule is declared beside its detection, one file per rule ([`declare_rule!`]):
//! these two here, the others where their problems are found (`config::load`, the parsers
//! `workspace::skill`, `workspace::subagent` and `workspace::tools`, and `check`'s modules); each
//! family's `mod.rs` declares its rule modules and lists them ([`declare_family!`]);
//! `check::catalog` chains the lists, for `docs/rules.md`, `agentws explain` and SARIF; `docs`
//! gives each rule's documentation address.
//!
//! Codes are stable: never renumber, only add. Prefixes: `WS` workspace and general files, `SK`
//! SKILL.md, `SA` subagent specs, `TJ` tools.json, `CF` agentws.toml, `XR` cross-file references,
//! `ST` the strict (Agent Skills open specification) profile, `RS` remote-store entries, `IG`
//! suppression comments.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};

pub mod docs;
mod example;
pub mod store;
pub mod workspace;

pub use example::{Base, Example, ExampleFiles, BASE};

/// Which rule set a rule belongs to. `harness` is always on; `strict` adds to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    Harness,
    Strict,
}

impl Profile {
    /// The name users write (`--profile`, `agentws.toml`, the editor setting) and outputs print.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Harness => "harness",
            Profile::Strict => "strict",
        }
    }
}

#[derive(Debug)]
pub struct Rule {
    /// Stable code, e.g. `SK001`.
    pub code: &'static str,
    /// Kebab-case name, e.g. `skill-no-frontmatter`.
    pub name: &'static str,
    pub severity: Severity,
    pub profile: Profile,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// One line: what the runtime does about it (the default `consequence` of its diagnostics).
    pub consequence: &'static str,
    /// Markdown: why it matters, an example, how to fix it.
    pub explanation: &'static str,
    /// Small projects that show the rule; `engine::batch::rule_examples` checks each one. Empty
    /// only for the rules in `NOT_SHOWN_BY_A_WORKSPACE` and `NOT_YET_EXAMPLED`.
    pub examples: &'static [Example],
    /// The file that declares the rule, as the compiler names it (`file!()` of the
    /// [`declare_rule!`] call): relative to the workspace root when built in it.
    pub source: &'static str,
}

/// Declares a rule: `pub static RULE: Rule` with these fields, in this order, and `source`, the
/// file of the call. Every rule is declared this way, one file per rule beside its detection, and
/// its family's [`declare_family!`] lists it.
macro_rules! declare_rule {
    (
        code: $code:expr,
        name: $name:expr,
        severity: $severity:expr,
        profile: $profile:expr,
        summary: $summary:expr,
        consequence: $consequence:expr,
        explanation: $explanation:expr,
        examples: $examples:expr $(,)?
    ) => {
        pub static RULE: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            name: $name,
            severity: $severity,
            profile: $profile,
            summary: $summary,
            consequence: $consequence,
            explanation: $explanation,
            examples: $examples,
            // `file!()` in a macro's expansion names the file of the outermost call: the rule's.
            source: file!(),
        };
    };
}
pub(crate) use declare_rule;

/// Declares a family's rule modules, one rule each ([`declare_rule!`]), and lists their rules as
/// `pub static RULES: &[&Rule]` in the order written: code order, the family's own codes first.
/// Each module keeps the visibility and attributes written before its `mod`. With
/// `checks: NAME: TYPE = function;` first, it also lists each module's `function` as
/// `static NAME: &[TYPE]`, in the same order (the strict rules' detections). `check::catalog`
/// chains the families' lists; a rule module declared without it is in no list, and the catalog's
/// test that every `declare_rule!` file is listed fails.
macro_rules! declare_family {
    (
        checks: $checks:ident: $check_type:ty = $check:ident;
        $($(#[$attr:meta])* $vis:vis mod $rule:ident;)*
    ) => {
        $crate::rules::declare_family! { $($(#[$attr])* $vis mod $rule;)* }

        /// Each rule's detection, in the order of [`RULES`].
        static $checks: &[$check_type] = &[$($rule::$check),*];
    };
    ($($(#[$attr:meta])* $vis:vis mod $rule:ident;)*) => {
        $($(#[$attr])* $vis mod $rule;)*

        /// The family's rules, in code order, for the catalog (`check::catalog`).
        pub static RULES: &[&$crate::rules::Rule] = &[$(&$rule::RULE),*];
    };
}
pub(crate) use declare_family;

/// Rules that no small project on disk can show, and why; they have no examples.
pub const NOT_SHOWN_BY_A_WORKSPACE: &[(&str, &str)] = &[
    ("WS004", "needs bytes that are not UTF-8, which an example's text cannot hold"),
    ("WS005", "needs a file over 16 MiB"),
    ("WS006", "needs a folder the process cannot walk: a permission it cannot lack as root, or a symbolic link loop, which a list of file texts cannot hold"),
    ("WS007", "needs a file the process cannot read, impossible as root"),
    ("WS014", "needs a named pipe or other special file, which a list of file texts cannot hold"),
    ("WS015", "needs more than 1000 problems in one file, too long to print; tests/e2e/hangs.rs triggers it"),
    ("SK012", "needs a frontmatter over 16 384 code points, too long to print; the fixture tests/fixtures/rules-all (skills/long-frontmatter) triggers it"),
    ("SK021", "needs a body over 100 000 characters, too long to print; the fixture tests/fixtures/rules-all (skills/long-body) triggers it"),
    ("TJ007", "depends on the environment agentws runs in (a variable that is not set), which an example's files do not carry"),
    ("TJ008", "depends on the environment agentws runs in (a value with a quote or backslash), which an example's files do not carry; tests/fixtures/rules-tools-env triggers it"),
    ("XR016", "needs a symbolic link, which a list of file texts cannot hold"),
    ("ST008", "needs a SKILL.md over 500 lines, too long to print; the fixture tests/fixtures/rules-all (skills/long-body) triggers it"),
    ("RS001", "a remote-store rule: needs a store server"),
    ("RS002", "a remote-store rule: needs a store server"),
    ("RS003", "a remote-store rule: needs a store server"),
    ("RS004", "a remote-store rule: needs a store server"),
    ("RS005", "a remote-store rule: needs a store server"),
    ("RS006", "a remote-store rule: needs a store server"),
    ("RS008", "a remote-store rule: needs a store server"),
    ("RS009", "a remote-store rule: needs a store server"),
    ("RS010", "a remote-store rule: needs a store server"),
    ("RS011", "a remote-store rule: needs a store server"),
    ("RS012", "a remote-store rule: needs a store server"),
    ("RS013", "a remote-store rule: needs a store server"),
    ("RS015", "a remote-store rule: needs a store server"),
    ("RS016", "a remote-store rule: needs a store server"),
    ("RS017", "a remote-store rule: needs a store server"),
];

/// Rules that a small project could show but that have no examples written yet. The examples
/// test reports this table's size; every rule here is work left to do, not an exemption.
pub const NOT_YET_EXAMPLED: &[&str] = &[];

/// The rules whose diagnostics take another severity than the rule's, by what the runtime does in
/// the case at hand: how `explain` and docs/rules.md head them instead of the one severity.
/// `engine::batch::rule_examples` fails when an example reports a rule at another severity than
/// its own and the rule is not here.
pub const SEVERITY_BY_OUTCOME: &[(&str, &str)] = &[
    (
        "WS015",
        "the most severe of the problems it counts (error, warning or info)",
    ),
    (
        "SK006",
        "error when the runtime drops the skill (no `name`, `description` or body left); warning \
         when it loads the skill with the cut value",
    ),
    (
        "SK017",
        "error when no call the configuration allows loads the file; warning when some do, or \
         when it stays readable as a file of the skill whose folder holds it, or when only the \
         deeper search of a call without a user or session folder loads it",
    ),
    (
        "SK026",
        "error when no call the configuration allows loads the file; warning when some do",
    ),
    (
        "SA005",
        "warning; error when the id is empty and the runtime skips the file",
    ),
    (
        "SA007",
        "error when no call the configuration allows loads the file; warning when some do; info \
         when only the deeper search of a call without a user or session folder loads it",
    ),
    (
        "SA020",
        "error when the runtime drops the declaration; warning when what is left still loads",
    ),
    (
        "SA022",
        "error when no call the configuration allows loads the file; warning when some do",
    ),
    (
        "XR005",
        "warning; error when no call the configuration allows loads the file",
    ),
    (
        "XR007",
        "warning; error when no call the configuration allows loads the file",
    ),
];

impl Rule {
    /// The rule's severity as `explain` heads it: the one severity, or what decides it
    /// ([`SEVERITY_BY_OUTCOME`]).
    pub fn severity_text(&self) -> &'static str {
        SEVERITY_BY_OUTCOME
            .iter()
            .find(|(code, _)| *code == self.code)
            .map_or(self.severity.as_str(), |(_, text)| text)
    }

    /// The file that declares the rule, as its path in the repository
    /// (`server/src/check/files/workspace_missing.rs`).
    pub fn source_file(&self) -> String {
        docs::repository_path(self.source)
    }

    /// A diagnostic of this rule with the rule's severity and default consequence.
    pub fn at(
        &'static self,
        path: &Path,
        range: TextRange,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            path: path.to_path_buf(),
            range,
            severity: self.severity,
            code: self.code,
            message: message.into(),
            consequence: self.consequence.to_string(),
            fixes: Vec::new(),
            related: Vec::new(),
            omitted: None,
            part: None,
        }
    }
}
