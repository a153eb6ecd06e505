//! Diagnostics by file as the engine hands them out, and how two of their states differ: what the
//! server compares after each refresh to know which files to publish again.
//!
//! Plain data; must not depend on `lsp` or `cli`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::Diagnostic;

/// Diagnostics by file, each list in check order.
pub type DiagnosticsByFile = BTreeMap<PathBuf, Vec<Diagnostic>>;

/// Every diagnostic that is not a source's own (`engine::workspace_diagnostics`): the rule
/// families' by file, in three maps (the families over the skills, those over the subagents, and
/// the strict profile's keys said once per workspace, `ST007`), with
/// the `allowed-tools` note kept beside them rather than merged in. An edit of a subagent
/// merges its side's map again, not the other's; the note moves with each edit of the first
/// skill that sets the key, and kept apart, such an edit copies no map of thousands of files.
/// A file may have diagnostics in both maps and the note.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkspaceDiagnostics {
    pub(super) families: [Arc<DiagnosticsByFile>; 3],
    pub(super) note: Option<Diagnostic>,
}

impl WorkspaceDiagnostics {
    /// The diagnostics of `path`, the families' first (the caller sorts what it merges).
    pub fn of<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a Diagnostic> {
        let note = self.note.iter().filter(move |note| note.path == path);
        let families = self.families.iter().flat_map(move |map| map.get(path));
        families.flatten().chain(note)
    }

    /// Every diagnostic: each map's file by file in path order, the note last.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        let families = self.families.iter().flat_map(|map| map.values());
        families.flatten().chain(&self.note)
    }

    /// The files with a diagnostic: each map's in path order, the note's last (a file is listed
    /// once for each of them that has a diagnostic of it).
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        let families = self.families.iter().flat_map(|map| map.keys());
        let families = families.map(PathBuf::as_path);
        families.chain(self.note.iter().map(|note| note.path.as_path()))
    }

    /// The files whose diagnostics may differ between `older` and `self`: every path whose list
    /// differs in either map, and the note's old and new file when the note changed.
    pub fn changed_since(&self, older: &WorkspaceDiagnostics) -> Vec<PathBuf> {
        let mut changed = Vec::new();
        for (new, old) in self.families.iter().zip(&older.families) {
            if !Arc::ptr_eq(new, old) {
                changed.extend(changed_keys(old, new));
            }
        }
        if self.note != older.note {
            let notes = older.note.iter().chain(&self.note);
            changed.extend(notes.map(|note| note.path.clone()));
        }
        changed
    }

    /// One map of every file's diagnostics, each list in check order.
    pub fn to_map(&self) -> DiagnosticsByFile {
        let [skills, subagents, strict_keys] = &self.families;
        let mut by_file = (**skills).clone();
        let note = self
            .note
            .iter()
            .map(|note| (&note.path, std::slice::from_ref(note)));
        let others = subagents.iter().chain(strict_keys.iter());
        for (path, found) in others.map(|(p, l)| (p, l.as_slice())).chain(note) {
            let list = by_file.entry(path.clone()).or_default();
            list.extend(found.iter().cloned());
            sort(list);
        }
        by_file
    }
}

/// Keys whose lists differ between two maps (present in either), in path order. The two maps are
/// walked side by side: one comparison of paths per key, not a search of the other map for each.
pub fn changed_keys(old: &DiagnosticsByFile, new: &DiagnosticsByFile) -> Vec<PathBuf> {
    use std::cmp::Ordering;
    let mut out = Vec::new();
    let (mut old, mut new) = (old.iter().peekable(), new.iter().peekable());
    loop {
        let order = match (old.peek(), new.peek()) {
            (None, None) => return out,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((a, _)), Some((b, _))) => a.cmp(b),
        };
        match order {
            Ordering::Less => out.extend(old.next().map(|(path, _)| path.clone())),
            Ordering::Greater => out.extend(new.next().map(|(path, _)| path.clone())),
            Ordering::Equal => {
                let (path, was) = old.next().expect("peeked");
                let (_, is) = new.next().expect("peeked");
                if was != is {
                    out.push(path.clone());
                }
            }
        }
    }
}

pub(super) fn by_file_in_check_order<'a>(
    found: impl Iterator<Item = &'a [Diagnostic]>,
) -> DiagnosticsByFile {
    let mut by_file: DiagnosticsByFile = BTreeMap::new();
    for d in found.flatten() {
        by_file.entry(d.path.clone()).or_default().push(d.clone());
    }
    for list in by_file.values_mut() {
        sort(list);
    }
    by_file
}

pub(super) fn sort(list: &mut Vec<Diagnostic>) {
    list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    list.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::TextRange;
    use crate::check::tools::skill_allowed_tools_not_enforced::RULE as SK025;

    fn at(path: &str, message: &str) -> Diagnostic {
        SK025.at(Path::new(path), TextRange::empty(0), message)
    }

    fn map(entries: &[(&str, &str)]) -> DiagnosticsByFile {
        entries
            .iter()
            .map(|(path, message)| (PathBuf::from(path), vec![at(path, message)]))
            .collect()
    }

    fn paths(keys: Vec<PathBuf>) -> Vec<String> {
        keys.into_iter().map(|p| p.display().to_string()).collect()
    }

    /// The paths only in the old map, only in the new one, and in both with other lists, in path
    /// order; a path whose list is equal is left out.
    #[test]
    fn changed_keys_walks_both_maps() {
        let old = map(&[("/a", "x"), ("/b", "x"), ("/c/d", "x"), ("/c.d", "x")]);
        let new = map(&[
            ("/b", "y"),
            ("/c/d", "x"),
            ("/c/e", "x"),
            ("/c.d", "x"),
            ("/z", "x"),
        ]);
        assert_eq!(paths(changed_keys(&old, &new)), ["/a", "/b", "/c/e", "/z"]);
        assert_eq!(paths(changed_keys(&new, &old)), ["/a", "/b", "/c/e", "/z"]);
        assert!(changed_keys(&old, &old).is_empty());
    }

    /// A moved note changes its old and its new file only; each families' map is compared only
    /// when it is another value, and a file's diagnostics are those of both maps and the note.
    #[test]
    fn a_note_change_names_its_files_and_nothing_else() {
        let families = [
            Arc::new(map(&[("/a", "x"), ("/b", "x")])),
            Arc::new(map(&[("/b", "z")])),
            Arc::new(map(&[])),
        ];
        let note =
            |path: &str, start: usize| SK025.at(Path::new(path), TextRange::empty(start), "n");
        let before = WorkspaceDiagnostics {
            families: families.clone(),
            note: Some(note("/b", 3)),
        };
        let moved = WorkspaceDiagnostics {
            families: families.clone(),
            note: Some(note("/c", 3)),
        };
        assert_eq!(paths(moved.changed_since(&before)), ["/b", "/c"]);
        assert!(before.changed_since(&before.clone()).is_empty());
        let gone = WorkspaceDiagnostics {
            families: [
                Arc::new(map(&[("/a", "y"), ("/b", "x")])),
                families[1].clone(),
                families[2].clone(),
            ],
            note: None,
        };
        assert_eq!(paths(gone.changed_since(&before)), ["/a", "/b"]);
        let subagents_side = WorkspaceDiagnostics {
            families: [
                families[0].clone(),
                Arc::new(map(&[("/c", "z")])),
                families[2].clone(),
            ],
            note: Some(note("/b", 3)),
        };
        assert_eq!(paths(subagents_side.changed_since(&before)), ["/b", "/c"]);

        let of_b: Vec<_> = before.of(Path::new("/b")).map(|d| &d.message).collect();
        assert_eq!(of_b, ["x", "z", "n"]);
        assert_eq!(before.of(Path::new("/c")).count(), 0);
        assert_eq!(before.iter().count(), 4);
        let b: Vec<_> = before.to_map()[Path::new("/b")]
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(b, ["x", "z", "n"], "in check order: by position first");
        let listed: Vec<_> = before.paths().map(|p| p.display().to_string()).collect();
        assert_eq!(listed, ["/a", "/b", "/b", "/b"]);
    }
}
