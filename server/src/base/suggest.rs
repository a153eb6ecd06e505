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
    /// The character counts of each squashed form, by position in `names`.
    counts: Vec<CharCounts>,
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
            index.counts.push(CharCounts::of(&chars));
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
        search_pieces(
            word,
            self.known.pieces().count(),
            &self.budget,
            &|piece, squashed| self.known.piece(piece)?.exact(squashed),
            &|piece, squashed, left| match self.known.piece(piece) {
                Some(index) => index.nearest(squashed, left),
                None => Nearest::END,
            },
        )
    }

    /// [`Suggestions::best`] of each of `words` in turn (one budget for all of them), owned.
    pub fn best_each(&self, words: &[&str]) -> Vec<Option<String>> {
        words
            .iter()
            .map(|word| self.best(word).map(str::to_string))
            .collect()
    }
}

/// Suggests a known name for each of the words given, in turn, as one [`Suggestions`] does
/// ([`Suggestions::best_each`]): what a rule asks, so that its caller may answer from
/// [`search_pieces`] over answers it keeps (the engine keeps each bucket's per word, so that a
/// changed name searches its bucket again, not every name).
pub type SuggestEach<'a> = dyn Fn(&[&str]) -> Vec<Option<String>> + 'a;

/// What searching one piece for one squashed word found ([`SuggestionIndex::nearest`]): the
/// budget it spent and its nearest candidate within the limit, as (distance, position, name).
/// A `cost` above the `left` it was given means it stopped there: the budget is spent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nearest<N> {
    pub cost: usize,
    pub best: Option<(usize, usize, N)>,
}

impl<N> Nearest<N> {
    /// No piece: nothing spent, nothing found.
    const END: Self = Nearest {
        cost: 0,
        best: None,
    };
}

impl SuggestionIndex {
    /// The first candidate whose squashed form is `squashed`.
    pub fn exact(&self, squashed: &str) -> Option<&str> {
        let &at = self.exact.get(squashed)?;
        Some(&self.names[at].1)
    }

    /// The candidates nearest to `squashed` within the limit (a third of its length, at least
    /// 1), the first of them, compared in length order; spending at most `left` edit-distance
    /// steps: past it, stops with a cost above `left`.
    pub fn nearest(&self, squashed: &str, left: usize) -> Nearest<&str> {
        let word: Vec<char> = squashed.chars().collect();
        let word_counts = CharCounts::of(&word);
        let limit = (word.len() / 3).max(1);
        let mut spent = 0;
        let mut best: Option<(usize, usize)> = None;
        let mut row = Vec::new();
        for (_, indexes) in self
            .by_len
            .range(word.len().saturating_sub(limit)..=word.len() + limit)
        {
            for &at in indexes {
                let candidate = &self.names[at].0;
                let cost = (word.len() + 1) * (candidate.len() + 1);
                if spent + cost > left {
                    return Nearest {
                        cost: spent + cost,
                        best: None,
                    };
                }
                // Charged whether or not the table is filled: the budget decides which words
                // get an answer, and must not depend on how fast the answer is found.
                spent += cost;
                if word_counts.distance_at_least(&self.counts[at]) > limit {
                    continue;
                }
                let distance = bounded_distance_in(&mut row, &word, candidate, limit);
                if distance <= limit && best.is_none_or(|b| (distance, at) < b) {
                    best = Some((distance, at));
                }
            }
        }
        Nearest {
            cost: spent,
            best: best.map(|(distance, at)| (distance, at, self.names[at].1.as_str())),
        }
    }
}

/// The one search of known names given as pieces, each asked through `exact` and `nearest`
/// (given the piece's number, the squashed word, and for `nearest` the budget left): a piece
/// with the same squashed form first, the earlier piece winning; else the nearest over every
/// piece, the earlier piece then the earlier position on a tie, spending `budget`. Once a
/// search finds it spent, that word gets nothing and the budget is 0: a later word still gets
/// a squashed match, nothing else. [`Suggestions`] asks its indexes; the engine its memoised
/// answers of each bucket's.
pub fn search_pieces<N>(
    word: &str,
    pieces: usize,
    budget: &Cell<usize>,
    exact: &dyn Fn(usize, &str) -> Option<N>,
    nearest: &dyn Fn(usize, &str, usize) -> Nearest<N>,
) -> Option<N> {
    if word.len() > MAX_NAME_BYTES {
        return None;
    }
    let squashed = squash(word);
    if let Some(found) = (0..pieces).find_map(|piece| exact(piece, &squashed)) {
        return Some(found);
    }
    // Every candidate compared costs a step or more: with none left, none is.
    if budget.get() == 0 {
        return None;
    }
    // (distance, piece, position): the earlier candidate wins a tie, across pieces too.
    let mut best: Option<(usize, usize, usize, N)> = None;
    for piece in 0..pieces {
        let left = budget.get();
        let found = nearest(piece, &squashed, left);
        if found.cost > left {
            budget.set(0);
            return None;
        }
        budget.set(left - found.cost);
        if let Some((distance, at, name)) = found.best {
            if best
                .as_ref()
                .is_none_or(|b| (distance, piece, at) < (b.0, b.1, b.2))
            {
                best = Some((distance, piece, at, name));
            }
        }
    }
    best.map(|(_, _, _, name)| name)
}

/// How many of a name's characters fall in each of a few buckets (letters and digits one
/// each, every other character in one of twelve), saturating: a lower bound of the edit
/// distance of two names that is far cheaper than the distance, so that most candidates are
/// ruled out without filling a table.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CharCounts([u8; CharCounts::BUCKETS]);

impl CharCounts {
    const BUCKETS: usize = 48;

    fn of(chars: &[char]) -> Self {
        let mut counts = [0u8; Self::BUCKETS];
        for &c in chars {
            let bucket = match c {
                'a'..='z' => c as usize - 'a' as usize,
                '0'..='9' => 26 + (c as usize - '0' as usize),
                _ => 36 + c as usize % 12,
            };
            counts[bucket] = counts[bucket].saturating_add(1);
        }
        CharCounts(counts)
    }

    /// A number the edit distance of the two names is at least: an insertion, deletion or
    /// substitution changes at most one bucket's count up and one down, so it takes at least as
    /// many edits as the larger of the counts one name has over the other, in all, and the
    /// counts it lacks. Saturated counts only make the bound smaller.
    fn distance_at_least(&self, other: &CharCounts) -> usize {
        let (mut more, mut fewer) = (0usize, 0usize);
        for (&a, &b) in self.0.iter().zip(&other.0) {
            if a > b {
                more += usize::from(a - b);
            } else {
                fewer += usize::from(b - a);
            }
        }
        more.max(fewer)
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
    bounded_distance_in(&mut Vec::new(), a, b, limit)
}

/// [`bounded_distance`] in the table row `row`, reused from one candidate to the next.
fn bounded_distance_in(row: &mut Vec<usize>, a: &[char], b: &[char], limit: usize) -> usize {
    row.clear();
    row.extend(0..=b.len());
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

    /// The character counts' bound never exceeds the edit distance, on names of letters,
    /// digits, other characters (which share buckets) and long runs (which saturate), and it
    /// rules out most of a set of unrelated names.
    #[test]
    fn the_counts_bound_the_edit_distance_from_below() {
        let alphabet: Vec<char> = "abcxyz019-é日ü.".chars().collect();
        let mut state = 0x2545_f491_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut names: Vec<Vec<char>> = (0..400)
            .map(|_| {
                (0..next(12))
                    .map(|_| alphabet[next(alphabet.len())])
                    .collect()
            })
            .collect();
        names.push(vec!['a'; 300]);
        names.push(vec!['a'; 280]);
        names.push(
            ["a"; 270]
                .iter()
                .chain(&["b"; 20])
                .flat_map(|s| s.chars())
                .collect(),
        );
        let mut ruled_out = 0;
        for a in &names {
            for b in &names {
                let distance = bounded_distance(a, b, usize::MAX - 1);
                let bound = CharCounts::of(a).distance_at_least(&CharCounts::of(b));
                assert!(bound <= distance, "{a:?} {b:?}: {bound} > {distance}");
                ruled_out += usize::from(bound > (a.len() / 3).max(1));
            }
        }
        assert!(ruled_out > names.len() * names.len() / 2, "{ruled_out}");
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

    /// Pieces answered with the whole budget, as the engine memoises them, give what the
    /// pieces searched within what is left give, word after word, however little is left: a
    /// word the budget does not cover gets nothing and spends the rest.
    #[test]
    fn answers_with_the_whole_budget_search_as_the_pieces() {
        let names: Vec<String> = (0..60).map(|i| format!("skill-{i:03}")).collect();
        let pieces: Vec<Arc<SuggestionIndex>> = names
            .chunks(7)
            .map(|part| Arc::new(SuggestionIndex::new(part.iter().map(String::as_str))))
            .collect();
        let words = [
            "skil-007",
            "SKILL_012",
            "skill-9999",
            "zzz",
            "skill-05",
            "kill-041",
        ];
        for budget in [
            0,
            1,
            50,
            99,
            100,
            101,
            500,
            1_000,
            2_000,
            5_000,
            EDIT_BUDGET,
        ] {
            let searched = Suggestions::of_pieces(&pieces);
            searched.budget.set(budget);
            let left = Cell::new(budget);
            for word in words {
                let answered = search_pieces(
                    word,
                    pieces.len(),
                    &left,
                    &|piece, squashed| pieces[piece].exact(squashed),
                    &|piece, squashed, _| pieces[piece].nearest(squashed, EDIT_BUDGET),
                );
                assert_eq!(answered, searched.best(word), "{word} from {budget}");
                assert_eq!(left.get(), searched.budget.get(), "{word} from {budget}");
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
