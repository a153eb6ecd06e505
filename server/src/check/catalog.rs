//! The catalog: every rule agentws can report, wherever it is declared beside its detection
//! (`rules::workspace`, `rules::store`, `config::load`, the parsers in `workspace`, and `check`'s
//! modules), in one order; and which codes exist (`is_rule_code`, `nearest_code`).
//! `docs/rules.md`, `agentws explain` and SARIF's rule list are made from it; the rule examples
//! are run from it.
//!
//! Lists declarations only; must not depend on the engine or any front-end.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::rules::{self, Rule};

use super::{cross, files, loading, strict, suppression, tools};

/// The families in the order the catalog lists them (by the file kind they are about), each
/// named by its codes' prefix.
const FAMILIES: [&str; 9] = ["WS", "SK", "SA", "TJ", "CF", "XR", "ST", "RS", "IG"];

/// Every family's list of rules (`rules::declare_family!`), each declared where its rules are
/// found: a family's own codes first, then the rules of other families found with them.
fn families() -> [&'static [&'static Rule]; 12] {
    [
        files::RULES,
        rules::workspace::RULES,
        crate::workspace::skill::RULES,
        crate::workspace::subagent::RULES,
        crate::workspace::tools::RULES,
        crate::config::load::RULES,
        cross::RULES,
        loading::RULES,
        tools::RULES,
        strict::RULES,
        rules::store::RULES,
        suppression::RULES,
    ]
}

/// Every rule, grouped by family in [`FAMILIES`] order, in code order within each. A code
/// family's rules are listed by several of [`families`] (each beside its detection), so the
/// catalog orders them itself.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    let mut rules: Vec<&'static Rule> = families().into_iter().flatten().copied().collect();
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

/// Every code of the catalog and of its families' prefixes, for telling a code that names no rule.
static CODES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| all().map(|r| r.code).collect());

/// Whether `code` is a rule's code.
pub fn is_rule_code(code: &str) -> bool {
    CODES.contains(code)
}

/// The rule code nearest to `written` (any case), among its family's: the fewest edits, two at
/// most, two digits swapped counting one (`SK203` → `SK023`); among equally near ones, the one
/// with the same digits in another order (`SK250` → `SK025`); none when that leaves a choice. The
/// general "did you mean" allows a third of a word's length, too little for a five-character
/// code.
pub fn nearest_code(written: &str) -> Option<&'static str> {
    let written = written.to_ascii_uppercase();
    let family = written.get(..2)?;
    let digits = |code: &str| {
        let mut d: Vec<u8> = code.bytes().skip(2).collect();
        d.sort_unstable();
        d
    };
    let mut nearest: Vec<&'static str> = Vec::new();
    let mut best = 3;
    for rule in all().filter(|r| r.code.starts_with(family)) {
        let distance = edits(written.as_bytes(), rule.code.as_bytes());
        if distance < best {
            best = distance;
            nearest.clear();
        }
        if distance == best {
            nearest.push(rule.code);
        }
    }
    let same_digits: Vec<&str> = nearest
        .iter()
        .copied()
        .filter(|code| digits(code) == digits(&written))
        .collect();
    match (same_digits.as_slice(), nearest.as_slice()) {
        ([only], _) | ([], [only]) => Some(only),
        _ => None,
    }
}

/// The optimal string alignment distance (insertions, deletions, substitutions, adjacent
/// transpositions) between two short words.
fn edits(a: &[u8], b: &[u8]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// Whether a setting selector (`SK025`, `XR`, `SK02`) selects at least one rule.
pub fn selects_a_rule(selector: &str) -> bool {
    CODES.iter().any(|code| code.starts_with(selector))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use crate::rules::Rule;

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

    /// Each list gives its first code family in code order, then the other families' rules
    /// found with them in catalog order; the strict list is ST001 on, without a gap.
    #[test]
    fn every_family_lists_its_rules_in_code_order() {
        let order = |rule: &&Rule| (super::family_rank(rule.code), rule.code);
        for list in super::families() {
            let own = list.iter().take_while(|r| r.code[..2] == list[0].code[..2]);
            let others = &list[own.clone().count()..];
            assert!(own.is_sorted_by_key(|r| r.code), "{:?}", codes(list));
            assert!(others.is_sorted_by_key(order), "{:?}", codes(list));
        }
        let strict = codes(super::strict::RULES);
        let expected: Vec<String> = (1..=strict.len()).map(|n| format!("ST{n:03}")).collect();
        assert_eq!(strict, expected);
    }

    fn codes(list: &[&Rule]) -> Vec<&'static str> {
        list.iter().map(|r| r.code).collect()
    }

    /// Every file that declares a rule is in a family's list: the catalog misses none.
    #[test]
    fn every_declared_rule_is_in_the_catalog() {
        let server = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut declaring = Vec::new();
        let mut folders = vec![server.join("src")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if std::fs::read_to_string(&path)
                    .is_ok_and(|text| text.contains("\ndeclare_rule! {"))
                {
                    declaring.push(path);
                }
            }
        }
        let listed: HashSet<std::path::PathBuf> = super::all()
            .map(|r| server.parent().unwrap_or(server).join(r.source_file()))
            .collect();
        let missing: Vec<_> = declaring.iter().filter(|p| !listed.contains(*p)).collect();
        assert_eq!(missing, Vec::<&std::path::PathBuf>::new());
        assert_eq!(declaring.len(), listed.len());
    }

    /// `declare_rule!` records the file of its call, and that file declares the rule.
    #[test]
    fn every_rule_records_the_file_that_declares_it() {
        let ws001 = super::all().find(|r| r.code == "WS001").unwrap();
        assert_eq!(
            ws001.source_file(),
            "server/src/check/files/workspace_missing.rs"
        );
        let server = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let repository = server.parent().unwrap_or(server);
        for rule in super::all() {
            let text = std::fs::read_to_string(repository.join(rule.source_file()))
                .unwrap_or_else(|e| panic!("{}: {}: {e}", rule.code, rule.source));
            assert!(
                text.contains(&format!("declare_rule! {{\n    code: \"{}\",", rule.code)),
                "{}: {}",
                rule.code,
                rule.source
            );
        }
    }

    #[test]
    fn the_nearest_code_of_a_typo() {
        assert_eq!(super::nearest_code("SK203"), Some("SK023"));
        assert_eq!(super::nearest_code("sk250"), Some("SK025"));
        // Several codes are two edits away and none has the same digits: no guess.
        assert_eq!(super::nearest_code("SK232"), None);
        assert_eq!(super::nearest_code("QQ001"), None);
    }
}
