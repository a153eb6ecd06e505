//! The rule catalog: every diagnostic code agentws can emit, with its severity, profile, the
//! runtime consequence it reports and its documentation. Pure data; any layer that finds a problem
//! (config loading, parsing, checks) names one of these rules. `docs/rules.md` is generated from
//! this catalog and `agentws explain CODE` prints from it.
//!
//! Codes are stable: never renumber, only add. Prefixes: `WS` workspace and general files, `SK`
//! SKILL.md, `SA` subagent specs, `TJ` tools.json, `CF` agentws.toml, `XR` cross-file references,
//! `ST` the strict (Agent Skills open specification) profile, `RS` remote-store entries.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};

pub mod config;
pub mod cross;
pub mod skill;
pub mod store;
pub mod strict;
pub mod subagent;
pub mod tools;
pub mod workspace;

/// Which rule set a rule belongs to. `harness` is always on; `strict` adds to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    Harness,
    Strict,
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
}

impl Rule {
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
        }
    }
}

/// Every rule, grouped by file kind, in code order within each group.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    workspace::RULES
        .iter()
        .chain(skill::RULES)
        .chain(subagent::RULES)
        .chain(tools::RULES)
        .chain(config::RULES)
        .chain(cross::RULES)
        .chain(strict::RULES)
        .chain(store::RULES)
        .copied()
}

/// Looks a rule up by code (case-insensitive) or by name.
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    all().find(|r| r.code.eq_ignore_ascii_case(code_or_name) || r.name == code_or_name)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for rule in super::all() {
            assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
            assert!(names.insert(rule.name), "duplicate name {}", rule.name);
            assert_eq!(rule.code.len(), 5, "{}", rule.code);
            assert!(!rule.summary.is_empty() && !rule.consequence.is_empty());
        }
    }
}
