//! The catalog: every rule agentws can report, the families declared in `rules` and those declared
//! beside their detection in `check` (`files`, `strict`), in one order. `docs/rules.md`, `agentws explain`
//! and SARIF's rule list are made from it; the rule examples are run from it.
//!
//! Lists declarations only; must not depend on the engine or any front-end.

use crate::rules::{self, Rule};

use super::{files, strict};

/// Every rule, grouped by file kind, in code order within each group.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    files::RULES
        .iter()
        .chain(rules::skill::RULES)
        .chain(rules::subagent::RULES)
        .chain(rules::tools::RULES)
        .chain(rules::config::RULES)
        .chain(rules::cross::RULES)
        .copied()
        .chain(strict::RULES.iter().map(|strict| strict.rule))
        .chain(rules::store::RULES.iter().copied())
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

    /// The strict family lists its rules in code order, ST001 on.
    #[test]
    fn strict_rules_are_listed_in_code_order() {
        let codes: Vec<&str> = super::strict::RULES.iter().map(|r| r.rule.code).collect();
        let expected: Vec<String> = (1..=codes.len()).map(|n| format!("ST{n:03}")).collect();
        assert_eq!(codes, expected);
    }
}
