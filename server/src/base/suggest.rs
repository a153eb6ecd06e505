//! "Did you mean …?" for a misspelt key or tool name: the closest known name ignoring case, `_`
//! and `-`, within a small edit distance. Shared by the agentws.toml, tools.json key and tool-name
//! checks; `agentws explain` uses its bounded edit distance.
//!
//! The search is bounded so that no input makes it slow (a diagnostic's hint is never worth
//! seconds): names longer than [`MAX_NAME_BYTES`] get no suggestion and are never suggested;
//! only candidates whose length is within the allowed distance are compared; and one
//! [`Suggestions`] spends at most [`EDIT_BUDGET`] edit-distance steps in total, after which it
//! still finds names that differ only by case, `_` or `-`, but nothing else. Pure; depends on
//! nothing else in the crate.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Longest name (in bytes, before squashing) that is compared at all.
pub const MAX_NAME_BYTES: usize = 256;

/// Edit-distance steps (table cells) one [`Suggestions`] may spend over all its queries: far
/// above what any real file needs (a 256-byte name against a 256-byte candidate is 65 536), a
/// fraction of a second at most.
pub const EDIT_BUDGET: usize = 20_000_000;

/// The closest of `candidates` to `word`, or `None`. For many words against the same
/// candidates, build one [`Suggestions`] instead.
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let known = Suggestions::new(candidates.iter().copied());
    let best = known.best(word)?;
    candidates
        .iter()
        .copied()
        .find(|candidate| *candidate == best)
}

/// The "did you mean" clause every message appends after a name it does not know:
/// `"; did you mean `best`?"`, or nothing when no candidate is near.
pub fn hint(best: Option<&str>) -> String {
    best.map(|best| format!("; did you mean `{best}`?"))
        .unwrap_or_default()
}

/// Known names prepared for "did you mean" queries: built once, searched by any number of
/// [`Suggestions`] (the engine keeps the skill names' index across edits).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuggestionIndex {
    /// Squashed form and original, in the candidates' order (which breaks ties).
    names: Vec<(Vec<char>, String)>,
    /// Squashed form → index of its first candidate.
    exact: HashMap<String, usize>,
    /// Squashed length in chars → indexes of candidates of that length.
    by_len: BTreeMap<usize, Vec<usize>>,
}

impl SuggestionIndex {
    pub fn new<'s>(candidates: impl IntoIterator<Item = &'s str>) -> Self {
        let mut index = SuggestionIndex::default();
        for candidate in candidates {
            if candidate.len() > MAX_NAME_BYTES {
                continue;
            }
            let squashed = squash(candidate);
            let at = index.names.len();
            index.exact.entry(squashed.clone()).or_insert(at);
            let chars: Vec<char> = squashed.chars().collect();
            index.by_len.entry(chars.len()).or_default().push(at);
            index.names.push((chars, candidate.to_string()));
        }
        index
    }
}

/// Indexes searched as one ([`Suggestions::of_pieces`]): their candidates one after another.
pub type SuggestionPieces = Vec<Arc<SuggestionIndex>>;

/// Searches of one [`SuggestionIndex`], or of several taken as one (their candidates one after
/// another: the engine keeps one per bucket of skills, so that a changed name builds one piece
/// again), spending at most [`EDIT_BUDGET`] in total.
pub struct Suggestions<'i> {
    known: Known<'i>,
    budget: Cell<usize>,
}

enum Known<'i> {
    Owned(SuggestionIndex),
    One(&'i SuggestionIndex),
    Pieces(&'i [Arc<SuggestionIndex>]),
}

impl Known<'_> {
    fn piece(&self, i: usize) -> Option<&SuggestionIndex> {
        match self {
            Known::Owned(index) => (i == 0).then_some(index),
            Known::One(index) => (i == 0).then_some(*index),
            Known::Pieces(pieces) => pieces.get(i).map(|piece| &**piece),
        }
    }

    fn pieces(&self) -> impl Iterator<Item = &SuggestionIndex> {
        (0..).map_while(|i| self.piece(i))
    }
}

impl<'i> Suggestions<'i> {
    pub fn new<'s>(candidates: impl IntoIterator<Item = &'s str>) -> Suggestions<'static> {
        Suggestions {
            known: Known::Owned(SuggestionIndex::new(candidates)),
            budget: Cell::new(EDIT_BUDGET),
        }
    }

    /// Searches of an index built before, with a budget of their own.
    pub fn of(index: &'i SuggestionIndex) -> Self {
        Suggestions {
            known: Known::One(index),
            budget: Cell::new(EDIT_BUDGET),
        }
    }

    /// Searches of indexes built before, taken as one index of their candidates in turn.
    pub fn of_pieces(pieces: &'i [Arc<SuggestionIndex>]) -> Self {
        Suggestions {
            known: Known::Pieces(pieces),
            budget: Cell::new(EDIT_BUDGET),
        }
    }

    /// The closest candidate to `word`: one with the same squashed form, else the nearest within
    /// an edit distance of a third of its length (at least 1), the earlier candidate on a tie.
    pub fn best(&self, word: &str) -> Option<&str> {
        if word.len() > MAX_NAME_BYTES {
            return None;
        }
        let squashed = squash(word);
        for index in self.known.pieces() {
            if let Some(&at) = index.exact.get(&squashed) {
                return Some(&index.names[at].1);
            }
        }
        let word: Vec<char> = squashed.chars().collect();
        let limit = (word.len() / 3).max(1);
        // (distance, piece, position): the earlier candidate wins a tie, across pieces too.
        let mut best: Option<(usize, usize, usize)> = None;
        for (piece, index) in self.known.pieces().enumerate() {
            for (_, indexes) in index
                .by_len
                .range(word.len().saturating_sub(limit)..=word.len() + limit)
            {
                for &at in indexes {
                    let candidate = &index.names[at].0;
                    let cost = (word.len() + 1) * (candidate.len() + 1);
                    let left = self.budget.get();
                    if cost > left {
                        self.budget.set(0);
                        return None;
                    }
                    self.budget.set(left - cost);
                    let distance = bounded_distance(&word, candidate, limit);
                    if distance <= limit && best.is_none_or(|b| (distance, piece, at) < b) {
                        best = Some((distance, piece, at));
                    }
                }
            }
        }
        let (_, piece, at) = best?;
        Some(self.known.piece(piece)?.names[at].1.as_str())
    }
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance of `a` and `b` (in chars), or some value above `limit` once it is
/// certain to exceed it.
pub fn edit_distance(a: &str, b: &str, limit: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    bounded_distance(&a, &b, limit)
}

/// [`edit_distance`] on chars: a row's minimum never decreases, so a row entirely above `limit`
/// ends the search.
fn bounded_distance(a: &[char], b: &[char], limit: usize) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        let mut row_min = row[0];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
            row_min = row_min.min(row[j + 1]);
        }
        if row_min > limit {
            return limit + 1;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn hint_is_one_clause_or_nothing() {
        assert_eq!(
            super::hint(super::did_you_mean("deny_", &["deny", "allow"])),
            "; did you mean `deny`?"
        );
        assert_eq!(super::hint(None), "");
    }

    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("mcp_servers", &["allow", "deny", "mcpServers"]),
            Some("mcpServers")
        );
        assert_eq!(did_you_mean("Allow", &["allow", "deny"]), Some("allow"));
        assert_eq!(
            did_you_mean("enabledTools", &["enableTools", "env"]),
            Some("enableTools")
        );
        assert_eq!(did_you_mean("banana", &["allow", "deny"]), None);
    }

    /// Indexes searched as pieces give what one index of all their candidates gives, however the
    /// candidates are split: an exact match in a later piece beats a near one in an earlier
    /// piece, and a tie goes to the earlier candidate across pieces.
    #[test]
    fn pieces_search_as_one_index() {
        let names = [
            "pdf",
            "docs",
            "abcde",
            "abc",
            "report-writer",
            "Report_Writer",
            "pdfs",
            "deploy",
        ];
        let words = [
            "pdx",
            "doc",
            "abcd",
            "reportwriter",
            "REPORT-WRITER",
            "deplo",
            "zzz",
        ];
        for first in 0..=names.len() {
            for second in first..=names.len() {
                let pieces: Vec<Arc<SuggestionIndex>> =
                    [&names[..first], &names[first..second], &names[second..]]
                        .iter()
                        .map(|part| Arc::new(SuggestionIndex::new(part.iter().copied())))
                        .collect();
                let whole = SuggestionIndex::new(names.iter().copied());
                for word in words {
                    assert_eq!(
                        Suggestions::of_pieces(&pieces).best(word),
                        Suggestions::of(&whole).best(word),
                        "{word} split at {first} and {second}"
                    );
                }
            }
        }
    }

    #[test]
    fn ties_go_to_the_earlier_candidate_whatever_its_length() {
        // "abcd" is one edit from both; "abcde" comes first.
        assert_eq!(did_you_mean("abcd", &["abcde", "abc"]), Some("abcde"));
        assert_eq!(did_you_mean("abcd", &["abc", "abcde"]), Some("abc"));
    }

    #[test]
    fn long_names_are_neither_searched_nor_suggested() {
        let long = "a".repeat(MAX_NAME_BYTES + 1);
        assert_eq!(did_you_mean(&long, &[&long[1..]]), None);
        assert_eq!(did_you_mean(&long[2..], &[&long]), None);
        let fits = "a".repeat(MAX_NAME_BYTES);
        assert_eq!(did_you_mean(&fits[1..], &[&fits]), Some(fits.as_str()));
    }

    #[test]
    fn a_spent_budget_still_finds_squashed_matches() {
        let candidates: Vec<String> = (0..1000).map(|i| format!("tool_{i:04}")).collect();
        let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let suggestions = Suggestions::new(refs.iter().copied());
        suggestions.budget.set(0);
        assert_eq!(suggestions.best("TOOL-0007"), Some("tool_0007"));
        assert_eq!(suggestions.best("tool_00007"), None);
        let fresh = Suggestions::new(refs.iter().copied());
        assert_eq!(fresh.best("tool_00007"), Some("tool_0000"));
    }

    #[test]
    fn the_bounded_distance_is_exact_within_the_limit() {
        for (a, b, distance) in [
            ("kitten", "sitting", 3),
            ("", "abc", 3),
            ("abc", "abc", 0),
            ("ws001", "ws001", 0),
            ("flaw", "lawn", 2),
        ] {
            assert_eq!(edit_distance(a, b, 9), distance, "{a} {b}");
            if distance > 0 {
                let below = distance - 1;
                assert!(edit_distance(a, b, below) > below, "{a} {b}");
            }
        }
    }
}
