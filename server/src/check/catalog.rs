//! The catalog: every rule agentws can report, wherever it is declared beside its detection
//! (`rules::workspace`, `rules::store`, `config::load`, the parsers in `workspace`, and `check`'s
//! modules, `settle` included), in one order.
//! `docs/rules.md`, `agentws explain` and SARIF's rule list are made from it; the rule examples
//! are run from it.
//!
//! Lists declarations only; must not depend on the engine or any front-end.

use crate::rules::{self, Rule};

use super::{cross, files, loading, skill_allowed_tools_not_enforced, strict, tools};

/// The families in the order the catalog lists them (by the file kind they are about), each
/// named by its codes' prefix.
const FAMILIES: [&str; 9] = ["WS", "SK", "SA", "TJ", "CF", "XR", "ST", "RS", "IG"];

/// Every rule, grouped by family in [`FAMILIES`] order, in code order within each. A family's
/// rules are declared in several places (each beside its detection), so the catalog orders them
/// itself.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    let mut rules: Vec<&'static Rule> = files::RULES
        .iter()
        .chain(crate::workspace::skill::RULES)
        .chain(crate::workspace::subagent::RULES)
        .chain(crate::workspace::tools::RULES)
        .chain(crate::config::load::RULES)
        .chain(cross::RULES)
        .chain(loading::RULES)
        .chain(tools::RULES)
        .copied()
        .chain([&skill_allowed_tools_not_enforced::RULE])
        .chain(strict::RULES.iter().map(|strict| strict.rule))
        .chain(rules::store::RULES.iter().copied())
        .chain(super::settle::RULES.iter().copied())
        .collect();
    rules.sort_by_key(|rule| (family_rank(rule.code), rule.code));
    rules.into_iter()
}

/// Where a code's family comes in [`FAMILIES`]; after them all for a prefix that names none.
fn family_rank(code: &str) -> usize {
    FAMILIES
        .iter()
        .position(|family| code.starts_with(family))
        .unwrap_or(FAMILIES.len())
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
            assert!(
                super::family_rank(rule.code) < super::FAMILIES.len(),
                "{}",
                rule.code
            );
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
