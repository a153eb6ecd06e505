//! WS015 `too-many-problems`: the per-file cap on diagnostics, the one mechanism every producer
//! and every front-end applies (`check` in all its formats, `watch`, the language server).
//!
//! A file made of one mistake repeated (a hundred thousand invalid lines, tens of thousands of
//! unknown keys) would otherwise give as many diagnostics: output, memory and the editor's
//! problem list all grow with them. As compilers do, the first [`MAX_PER_FILE`] of a file (in
//! check order) are listed and one WS015 stands for the rest, with their count by severity and
//! the worst severity among them. Producers that can meet many problems in one file (the
//! agentws.toml loader, the SKILL.md, subagent and tools.json parsers) cap their own lists, so
//! that no layer holds more; the front-ends cap again the merged list of a file, which also
//! folds the producers' summaries into one. Depends on `base` only.

use std::collections::BinaryHeap;
use std::path::Path;

use crate::base::diagnostic::Omitted;
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Profile};

/// The most diagnostics listed for one file; the others are counted in one WS015.
pub const MAX_PER_FILE: usize = 1000;

declare_rule! {
    code: "WS015",
    name: "too-many-problems",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A file has more problems than agentws lists for one file (1000).",
    consequence: "The problems not listed are there all the same; the runtime treats each as its rule says.",
    explanation: "agentws lists the first 1000 diagnostics of a file and reports how many more there \
are, of which severity, in this one diagnostic (its severity is the worst of theirs), at the first \
one not listed. Such a count usually means one mistake repeated, or a file that is not what its name \
says (generated text, another format): fix what is listed and check again to see the rest. \
`check --fix` applies the fixes of the listed diagnostics only.",
    examples: &[],
}

/// The summary of `omitted` diagnostics of `path`, placed at `range` (the first one's).
fn summary(path: &Path, range: TextRange, omitted: Omitted) -> Diagnostic {
    let counts = [
        (omitted.errors, "error", "errors"),
        (omitted.warnings, "warning", "warnings"),
        (omitted.infos, "info", "infos"),
    ]
    .iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
    .collect::<Vec<_>>()
    .join(", ");
    let total = omitted.total();
    let more = if total == 1 { "problem" } else { "problems" };
    let mut diagnostic = RULE
        .at(
            path,
            range,
            format!(
                "{total} more {more} in this file not listed ({counts}): agentws lists the \
                 first {MAX_PER_FILE} of a file"
            ),
        )
        .with_severity(omitted.worst());
    diagnostic.omitted = Some(Box::new(omitted));
    diagnostic
}

/// Diagnostics of one file as a producer finds them: the first [`MAX_PER_FILE`] in check order
/// (by position, then code) kept, whatever order they come in, the rest only counted (never
/// held), summed up by [`Capped::finish`]. What it keeps is what [`cap_per_file`] keeps of the
/// whole list.
#[derive(Debug, Default)]
pub struct Capped {
    /// A max-heap: the last kept in check order on top, the first to give way.
    kept: BinaryHeap<Kept>,
    pushed: usize,
    omitted: Omitted,
    first_omitted: Option<TextRange>,
}

/// A kept diagnostic, ordered by its place in check order (then by arrival, as the front-ends'
/// stable sort orders equal places).
#[derive(Debug)]
struct Kept {
    place: (usize, usize, &'static str, usize),
    diagnostic: Diagnostic,
}

impl PartialEq for Kept {
    fn eq(&self, other: &Self) -> bool {
        self.place == other.place
    }
}
impl Eq for Kept {}
impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Kept {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.place.cmp(&other.place)
    }
}

impl Capped {
    /// Whether a diagnostic of `code` at `range` pushed now would be kept: a producer may skip
    /// building one (its message, its suggestion) that would only be counted, and call
    /// [`Capped::count`] instead.
    pub fn would_keep(&self, range: TextRange, code: &'static str) -> bool {
        match self.kept.peek() {
            Some(last) if self.kept.len() >= MAX_PER_FILE => {
                (range.start, range.end, code) < (last.place.0, last.place.1, last.place.2)
            }
            _ => true,
        }
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        if !self.would_keep(diagnostic.range, diagnostic.code) {
            return self.count(diagnostic.severity, diagnostic.range);
        }
        let range = diagnostic.range;
        self.pushed += 1;
        self.kept.push(Kept {
            place: (range.start, range.end, diagnostic.code, self.pushed),
            diagnostic,
        });
        if self.kept.len() > MAX_PER_FILE {
            let given_way = self.kept.pop().expect("over the cap").diagnostic;
            self.count(given_way.severity, given_way.range);
        }
    }

    /// One diagnostic of `severity` at `range` past the cap, counted without being built.
    pub fn count(&mut self, severity: Severity, range: TextRange) {
        self.omitted.count(severity);
        if self
            .first_omitted
            .is_none_or(|first| range.start < first.start)
        {
            self.first_omitted = Some(range);
        }
    }

    /// Changes every kept diagnostic with `change`, which must leave its range and code as they
    /// are (its place among the others).
    pub fn change_kept(&mut self, mut change: impl FnMut(&mut Diagnostic)) {
        let mut kept = std::mem::take(&mut self.kept).into_vec();
        for k in &mut kept {
            change(&mut k.diagnostic);
        }
        self.kept = BinaryHeap::from(kept);
    }

    /// The kept diagnostics of `path` in the order they came, with the summary of the others
    /// when there are any.
    pub fn finish(self, path: &Path) -> Vec<Diagnostic> {
        let mut kept = self.kept.into_vec();
        kept.sort_by_key(|k| k.place.3);
        let mut list: Vec<Diagnostic> = kept.into_iter().map(|k| k.diagnostic).collect();
        if let Some(range) = self.first_omitted {
            list.push(summary(path, range, self.omitted));
        }
        list
    }
}

/// Caps a list in check order (by file, then position; any number of files) to
/// [`MAX_PER_FILE`] diagnostics per file plus one WS015 for the rest, folding the summaries
/// producers made into it. A list within the cap everywhere comes back as it was; capping twice
/// gives what capping once gave.
pub fn cap_per_file(list: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if !needs_cap(&list) {
        return list;
    }
    let mut out = Vec::new();
    let mut rest = list.into_iter().peekable();
    while let Some(first) = rest.next() {
        let path = first.path.clone();
        let start = out.len();
        let mut omitted = Omitted::default();
        let mut first_omitted: Option<TextRange> = None;
        let mut kept = 0;
        let mut take = |d: Diagnostic, out: &mut Vec<Diagnostic>| {
            let range = d.range;
            match d.omitted {
                Some(counts) => omitted.add(&counts),
                None if kept < MAX_PER_FILE => {
                    kept += 1;
                    out.push(d);
                    return;
                }
                None => omitted.count(d.severity),
            }
            if first_omitted.is_none_or(|at| range.start < at.start) {
                first_omitted = Some(range);
            }
        };
        take(first, &mut out);
        while let Some(d) = rest.next_if(|d| d.path == path) {
            take(d, &mut out);
        }
        if let Some(range) = first_omitted {
            out.push(summary(&path, range, omitted));
            out[start..].sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        }
    }
    out
}

/// Whether some file of `list` has more than [`MAX_PER_FILE`] diagnostics or a summary.
fn needs_cap(list: &[Diagnostic]) -> bool {
    let mut run = 0;
    for (i, d) in list.iter().enumerate() {
        if d.omitted.is_some() {
            return true;
        }
        run = if i > 0 && list[i - 1].path == d.path {
            run + 1
        } else {
            1
        };
        if run > MAX_PER_FILE {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::workspace::file_too_large;

    fn at(path: &str, start: usize, severity: Severity) -> Diagnostic {
        file_too_large::RULE
            .at(Path::new(path), TextRange::new(start, start + 1), "x")
            .with_severity(severity)
    }

    #[test]
    fn a_file_within_the_cap_is_left_as_it_is() {
        let list: Vec<Diagnostic> = (0..MAX_PER_FILE)
            .map(|i| at("/a", i, Severity::Info))
            .chain([at("/b", 0, Severity::Error)])
            .collect();
        assert_eq!(cap_per_file(list.clone()), list);
    }

    #[test]
    fn the_first_of_each_file_are_kept_and_one_summary_counts_the_rest() {
        let mut list = vec![at("/a", 0, Severity::Info)];
        list.extend((0..MAX_PER_FILE + 5).map(|i| at("/b", i, Severity::Info)));
        list.push(at("/b", MAX_PER_FILE + 9, Severity::Error));
        list.push(at("/c", 3, Severity::Warning));
        let capped = cap_per_file(list);
        assert_eq!(capped.len(), 1 + MAX_PER_FILE + 1 + 1);
        let summary = &capped[1 + MAX_PER_FILE];
        assert_eq!(summary.code, "WS015");
        assert_eq!(summary.path, Path::new("/b"));
        assert_eq!(summary.range.start, MAX_PER_FILE);
        assert_eq!(summary.severity, Severity::Error);
        assert_eq!(
            summary.message,
            "6 more problems in this file not listed (1 error, 5 infos): agentws lists the first \
             1000 of a file"
        );
        assert_eq!(capped.last().unwrap().path, Path::new("/c"));
        // Capping again changes nothing.
        assert_eq!(cap_per_file(capped.clone()), capped);
    }

    #[test]
    fn a_producer_keeps_what_the_front_end_would_whatever_the_order() {
        let all: Vec<Diagnostic> = (0..MAX_PER_FILE + 50)
            .rev()
            .map(|i| {
                at(
                    "/a",
                    i,
                    if i % 7 == 0 {
                        Severity::Error
                    } else {
                        Severity::Info
                    },
                )
            })
            .collect();
        let mut producer = Capped::default();
        for d in all.clone() {
            producer.push(d);
        }
        let mut produced = producer.finish(Path::new("/a"));
        produced.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let mut sorted = all;
        sorted.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        assert_eq!(produced, cap_per_file(sorted));
        assert_eq!(produced[MAX_PER_FILE].range.start, MAX_PER_FILE);
    }

    #[test]
    fn a_producers_summary_is_folded_into_the_front_ends() {
        let mut producer = Capped::default();
        for i in 0..MAX_PER_FILE + 3 {
            producer.push(at("/a", 10 + i, Severity::Warning));
        }
        let mut list = producer.finish(Path::new("/a"));
        // Another rule's diagnostics of the same file, before the producer's.
        list.extend((0..4).map(|i| at("/a", i, Severity::Error)));
        list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let capped = cap_per_file(list);
        assert_eq!(capped.len(), MAX_PER_FILE + 1);
        let summary = capped.iter().find(|d| d.code == "WS015").unwrap();
        assert_eq!(
            summary.omitted.as_deref(),
            Some(&Omitted {
                errors: 0,
                warnings: 7,
                infos: 0
            })
        );
        assert_eq!(summary.severity, Severity::Warning);
    }
}
