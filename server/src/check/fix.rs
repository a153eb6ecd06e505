//! Applying the fixes carried by diagnostics to files on disk: each file is replaced through
//! `rewrite` (atomic, owner and mode kept, never over a concurrent change), and a fix counts as
//! applied only when every file it edits was written.
//!
//! Planning (`plan`, with `base::apply_edits` for the text) is pure; only `apply` touches the
//! disk, and only when the user asked for `--fix`. Depends on `base` and `rewrite` alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::rewrite::{self, Hooks, Refusal};
use crate::base::{apply_edits, Diagnostic, FileContent, FileEdit, FileSet};

/// The edits chosen for every file, and the fixes that could not be taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixPlan {
    /// Per file: sorted, non-overlapping edits.
    pub edits: BTreeMap<PathBuf, Vec<FileEdit>>,
    /// The fixes the plan applies, in diagnostic order (a fix identical to one already taken is
    /// taken once).
    pub taken: Vec<Taken>,
    pub skipped: Vec<Skipped>,
}

/// A fix the plan applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The file of its diagnostic.
    pub path: PathBuf,
    pub code: &'static str,
    pub title: String,
    /// Every file it edits.
    pub files: BTreeSet<PathBuf>,
}

/// A fix that was not applied, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub code: &'static str,
    pub title: String,
    pub reason: SkipReason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// One of its edits overlaps an edit of a fix taken before it.
    Overlaps,
    /// The file changed on disk since it was read.
    ChangedOnDisk,
    /// The file has no text in the snapshot (not UTF-8, too large, unreadable).
    NoText,
    /// An edit's range is outside the file or splits a character.
    BadRange,
    /// The file changed between reading it for the write and replacing it; left alone.
    ChangedWhileFixing,
    /// The file is read-only for its owner.
    ReadOnly,
    /// The file has this many hard links.
    HardLinks(u64),
    /// The new file could not be given the original's owner and group.
    OwnerNotKept(String),
    /// Another process held a lock on the file.
    Locked,
    /// A version written concurrently was left under this name, not lost.
    ConcurrentVersionKept(PathBuf),
    /// Writing failed.
    WriteFailed(String),
}

impl From<Refusal> for SkipReason {
    fn from(r: Refusal) -> SkipReason {
        match r {
            Refusal::Changed => SkipReason::ChangedOnDisk,
            Refusal::ChangedWhileWriting => SkipReason::ChangedWhileFixing,
            Refusal::ReadOnly => SkipReason::ReadOnly,
            Refusal::HardLinks(n) => SkipReason::HardLinks(n),
            Refusal::OwnerNotKept(err) => SkipReason::OwnerNotKept(err),
            Refusal::Locked => SkipReason::Locked,
            Refusal::ConcurrentVersionKept(path) => SkipReason::ConcurrentVersionKept(path),
            Refusal::Failed(err) => SkipReason::WriteFailed(err),
        }
    }
}

impl SkipReason {
    pub fn describe(&self) -> String {
        match self {
            SkipReason::Overlaps => "it overlaps another fix; run --fix again".to_string(),
            SkipReason::ChangedOnDisk => "the file changed on disk since it was read".to_string(),
            SkipReason::NoText => "the file has no readable text".to_string(),
            SkipReason::BadRange => "its edit does not fit the file".to_string(),
            SkipReason::ChangedWhileFixing => {
                "the file changed while fixing; it was left as the other writer made it".to_string()
            }
            SkipReason::ReadOnly => {
                "the file is read-only (its owner has no write permission); it is not rewritten"
                    .to_string()
            }
            SkipReason::HardLinks(n) => format!(
                "the file has {n} hard links; rewriting it would split them (the other names would keep the old text)"
            ),
            SkipReason::OwnerNotKept(err) => {
                format!("its owner and group could not be kept, {err}; it is not rewritten")
            }
            SkipReason::Locked => "another process holds a lock on the file".to_string(),
            SkipReason::ConcurrentVersionKept(path) => format!(
                "the file changed while fixing; a version written meanwhile is kept as `{}`",
                path.display()
            ),
            SkipReason::WriteFailed(err) => format!("writing failed: {err}"),
        }
    }
}

/// What `apply` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixOutcome {
    /// Files rewritten, in path order.
    pub written: Vec<PathBuf>,
    /// Fixes whose every file was written.
    pub fixes_applied: usize,
    /// Files written whose old version another process wrote to during the write, in a way that
    /// could not be carried over to the new one; what it wrote is kept in another file (reason).
    pub kept_aside: Vec<(PathBuf, SkipReason)>,
    pub skipped: Vec<Skipped>,
}

/// Chooses the edits of the first fix of each diagnostic, in diagnostic order. A fix is taken
/// whole or not at all: one whose edit overlaps an edit already taken (or inserts at the same
/// point) is skipped, so the result never depends on how overlapping edits would compose.
pub fn plan(files: &FileSet, diagnostics: &[Diagnostic]) -> FixPlan {
    let mut plan = FixPlan::default();
    let mut taken: BTreeSet<(PathBuf, usize, usize, String)> = BTreeSet::new();
    for d in diagnostics {
        let Some(fix) = d.fixes.first() else {
            continue;
        };
        let skip = |reason| Skipped {
            path: d.path.clone(),
            code: d.code,
            title: fix.title.clone(),
            reason,
        };
        let fresh: Vec<&FileEdit> = fix
            .edits
            .iter()
            .filter(|e| {
                !taken.contains(&(
                    e.path.clone(),
                    e.range.start,
                    e.range.end,
                    e.new_text.clone(),
                ))
            })
            .collect();
        if fresh.is_empty() {
            // The same fix was already taken for another diagnostic.
            continue;
        }
        if let Some(reason) = fresh.iter().find_map(|e| invalid(files, e)) {
            plan.skipped.push(skip(reason));
            continue;
        }
        let conflicts = fresh.iter().enumerate().any(|(i, e)| {
            let existing = plan.edits.get(&e.path).into_iter().flatten();
            let siblings = fresh[..i].iter().copied().filter(|o| o.path == e.path);
            existing.chain(siblings).any(|o| overlaps(o, e))
        });
        if conflicts {
            plan.skipped.push(skip(SkipReason::Overlaps));
            continue;
        }
        plan.taken.push(Taken {
            path: d.path.clone(),
            code: d.code,
            title: fix.title.clone(),
            files: fresh.iter().map(|e| e.path.clone()).collect(),
        });
        for e in fresh {
            taken.insert((
                e.path.clone(),
                e.range.start,
                e.range.end,
                e.new_text.clone(),
            ));
            plan.edits
                .entry(e.path.clone())
                .or_default()
                .push(e.clone());
        }
    }
    for edits in plan.edits.values_mut() {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
    }
    plan
}

fn invalid(files: &FileSet, edit: &FileEdit) -> Option<SkipReason> {
    let Some(text) = files.text(&edit.path) else {
        return Some(SkipReason::NoText);
    };
    let r = edit.range;
    let fits = r.start <= r.end
        && r.end <= text.len()
        && text.is_char_boundary(r.start)
        && text.is_char_boundary(r.end);
    (!fits).then_some(SkipReason::BadRange)
}

/// Two edits of one file conflict when their ranges share a byte, or both insert at one point.
fn overlaps(a: &FileEdit, b: &FileEdit) -> bool {
    if a.path != b.path {
        return false;
    }
    let (a, b) = (a.range, b.range);
    if a.is_empty() && b.is_empty() {
        return a.start == b.start;
    }
    if a.is_empty() {
        return b.start < a.start && a.start < b.end;
    }
    if b.is_empty() {
        return a.start < b.start && b.start < a.end;
    }
    a.start < b.end && b.start < a.end
}

/// Applies the planned fixes to disk. `files` is the snapshot the diagnostics were computed from:
/// a file whose content on disk differs from it is left alone, with every fix that touches it
/// (a fix spanning several files is applied to all of them or to none).
pub fn apply(files: &FileSet, diagnostics: &[Diagnostic]) -> FixOutcome {
    apply_with(files, diagnostics, Hooks::default())
}

/// `apply`, with test seams in the write protocol.
pub fn apply_with(files: &FileSet, diagnostics: &[Diagnostic], hooks: Hooks) -> FixOutcome {
    let mut plan = plan(files, diagnostics);
    let mut outcome = FixOutcome {
        skipped: std::mem::take(&mut plan.skipped),
        ..Default::default()
    };
    let changed: BTreeSet<PathBuf> = plan
        .edits
        .keys()
        .filter(|path| !unchanged_on_disk(files, path))
        .cloned()
        .collect();
    if !changed.is_empty() {
        // Re-plan without the fixes that touch a changed file.
        let kept: Vec<Diagnostic> = diagnostics
            .iter()
            .filter(|d| {
                let touches = d
                    .fixes
                    .first()
                    .is_some_and(|f| f.edits.iter().any(|e| changed.contains(&e.path)));
                if touches {
                    let fix = &d.fixes[0];
                    outcome.skipped.push(Skipped {
                        path: fix
                            .edits
                            .iter()
                            .find(|e| changed.contains(&e.path))
                            .map(|e| e.path.clone())
                            .unwrap_or_else(|| d.path.clone()),
                        code: d.code,
                        title: fix.title.clone(),
                        reason: SkipReason::ChangedOnDisk,
                    });
                }
                !touches
            })
            .cloned()
            .collect();
        plan = self::plan(files, &kept);
    }
    let mut failures: BTreeMap<PathBuf, SkipReason> = BTreeMap::new();
    let mut unsettled = Vec::new();
    for (path, edits) in &plan.edits {
        let Some(text) = files.text(path) else {
            failures.insert(path.clone(), SkipReason::NoText);
            continue;
        };
        let new_text = apply_edits(text, edits);
        match rewrite::rewrite_unsettled(path, text.as_bytes(), new_text.as_bytes(), hooks) {
            Ok(written) => {
                outcome.written.push(path.clone());
                unsettled.push((path.clone(), written));
            }
            Err(refusal) => {
                failures.insert(path.clone(), refusal.into());
            }
        }
    }
    // A process that opened a file just before it was replaced may append to the old one a moment
    // later: watch for that and carry it over to the new file.
    for (path, refusal) in rewrite::settle_all(unsettled, rewrite::SETTLE) {
        outcome.kept_aside.push((path, refusal.into()));
    }
    for fix in plan.taken {
        match fix
            .files
            .iter()
            .find_map(|f| failures.get(f).map(|r| (f, r)))
        {
            None => outcome.fixes_applied += 1,
            Some((file, reason)) => outcome.skipped.push(Skipped {
                path: file.clone(),
                code: fix.code,
                title: fix.title,
                reason: reason.clone(),
            }),
        }
    }
    outcome
}

fn unchanged_on_disk(files: &FileSet, path: &Path) -> bool {
    match (FileContent::read(path), files.text(path)) {
        (FileContent::Text(now), Some(then)) => *now == *then,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{Fix, Severity, TextRange};

    fn diagnostic(path: &Path, edits: &[(usize, usize, &str)]) -> Diagnostic {
        Diagnostic {
            path: path.to_path_buf(),
            range: TextRange::empty(0),
            severity: Severity::Error,
            code: "XX001",
            message: String::new(),
            consequence: String::new(),
            fixes: vec![Fix {
                title: "fix".into(),
                edits: edits
                    .iter()
                    .map(|&(start, end, text)| FileEdit {
                        path: path.to_path_buf(),
                        range: TextRange::new(start, end),
                        new_text: text.into(),
                    })
                    .collect(),
            }],
            related: vec![],
            omitted: None,
            part: None,
        }
    }

    #[test]
    fn edits_are_sorted_and_overlapping_fixes_skipped() {
        let path = PathBuf::from("/w/a.md");
        let mut files = FileSet::new();
        files.insert_text(path.clone(), "0123456789");
        let diags = [
            diagnostic(&path, &[(6, 8, "X")]),
            diagnostic(&path, &[(1, 2, "Y")]),
            diagnostic(&path, &[(7, 9, "Z")]), // overlaps the first
            diagnostic(&path, &[(6, 8, "X")]), // the same as the first: taken once
            diagnostic(&path, &[(0, 0, "<")]),
            diagnostic(&path, &[(0, 0, ">")]), // inserts where another insert is
            diagnostic(&path, &[(4, 99, "")]), // past the end
        ];
        let plan = plan(&files, &diags);
        assert_eq!(plan.taken.len(), 3);
        let reasons: Vec<_> = plan.skipped.iter().map(|s| s.reason.clone()).collect();
        assert_eq!(
            reasons,
            [
                SkipReason::Overlaps,
                SkipReason::Overlaps,
                SkipReason::BadRange
            ]
        );
        assert_eq!(apply_edits("0123456789", &plan.edits[&path]), "<0Y2345X89");
    }

    #[test]
    fn an_insertion_at_the_end_of_a_replacement_does_not_overlap() {
        let path = PathBuf::from("/w/a.md");
        let mut files = FileSet::new();
        files.insert_text(path.clone(), "abc");
        let plan = plan(
            &files,
            &[
                diagnostic(&path, &[(0, 1, "A")]),
                diagnostic(&path, &[(1, 1, "+")]),
            ],
        );
        assert!(plan.skipped.is_empty());
        assert_eq!(apply_edits("abc", &plan.edits[&path]), "A+bc");
    }

    #[test]
    fn writes_atomically_and_leaves_changed_files_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.md");
        let b = dir.path().join("b.md");
        std::fs::write(&a, "name: yes\n").unwrap();
        std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::fs::write(&b, "old\n").unwrap();
        let mut files = FileSet::new();
        files.insert_text(a.clone(), "name: yes\n");
        files.insert_text(b.clone(), "old\n");
        std::fs::write(&b, "edited meanwhile\n").unwrap();

        let outcome = apply(
            &files,
            &[
                diagnostic(&a, &[(6, 9, "\"yes\"")]),
                diagnostic(&b, &[(0, 3, "new")]),
            ],
        );
        assert_eq!(outcome.written, vec![a.clone()]);
        assert_eq!(outcome.fixes_applied, 1);
        assert_eq!(outcome.skipped.len(), 1);
        assert_eq!(outcome.skipped[0].path, b);
        assert_eq!(outcome.skipped[0].reason, SkipReason::ChangedOnDisk);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "name: \"yes\"\n");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "edited meanwhile\n");
        let mode = std::fs::metadata(&a).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_failed_or_refused_write_is_not_counted() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.md");
        let b = dir.path().join("b.md");
        std::fs::write(&a, "abc").unwrap();
        std::fs::write(&b, "abc").unwrap();
        std::fs::set_permissions(&b, std::fs::Permissions::from_mode(0o444)).unwrap();
        let mut files = FileSet::new();
        files.insert_text(a.clone(), "abc");
        files.insert_text(b.clone(), "abc");
        let diags = [
            diagnostic(&a, &[(0, 1, "A")]),
            diagnostic(&a, &[(2, 3, "C")]),
            diagnostic(&b, &[(0, 1, "A")]),
        ];
        let fail_a = |p: &Path| -> std::io::Result<()> {
            if p.ends_with("a.md") {
                Err(std::io::Error::other("no space left"))
            } else {
                Ok(())
            }
        };
        let outcome = apply_with(
            &files,
            &diags,
            Hooks {
                before_recheck: Some(&fail_a),
                ..Hooks::default()
            },
        );
        assert_eq!(outcome.fixes_applied, 0);
        assert!(outcome.written.is_empty());
        let skipped: Vec<_> = outcome
            .skipped
            .iter()
            .map(|s| (s.path.clone(), s.code, s.reason.clone()))
            .collect();
        let failed = SkipReason::WriteFailed("no space left".into());
        assert_eq!(
            skipped,
            [
                (a.clone(), "XX001", failed.clone()),
                (a.clone(), "XX001", failed),
                (b.clone(), "XX001", SkipReason::ReadOnly),
            ]
        );
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "abc");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "abc");
    }

    #[test]
    fn writes_through_a_symlink_to_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.md");
        let link = dir.path().join("link.md");
        std::fs::write(&real, "a").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        rewrite::rewrite(&link, b"a", b"b", Hooks::default()).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "b");
    }
}
