//! Every fix the check offers on the fixture workspaces (and the demo), applied to the text
//! alone, removes one diagnostic of its code in its file and adds no error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use super::check_workspace;
use crate::base::{apply_edits, Diagnostic, FileEdit};
use crate::check::CheckOptions;
use crate::rules::Profile;
use crate::workspace::Workspace;

#[test]
fn every_offered_fix_removes_its_diagnostic() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut roots = super::fixture_roots();
    roots.push(repo.join("examples/demo"));
    roots.sort();
    let env = Arc::new(crate::base::Env::new());
    let count = |diags: &[Diagnostic], errors_only: bool| {
        let mut counts: BTreeMap<(PathBuf, &'static str), usize> = BTreeMap::new();
        for d in diags {
            if !errors_only || d.severity == crate::base::Severity::Error {
                *counts.entry((d.path.clone(), d.code)).or_default() += 1;
            }
        }
        counts
    };
    let mut offered = 0;
    let mut broken = Vec::new();
    for root in &roots {
        let loaded = crate::workspace::discover::load(root, env.clone());
        let ws = &loaded.workspace;
        for profile in [Profile::Harness, Profile::Strict] {
            let options = CheckOptions::new(profile);
            let before = check_workspace(ws, options).diagnostics;
            let (all_before, errors_before) = (count(&before, false), count(&before, true));
            for d in &before {
                for fix in &d.fixes {
                    offered += 1;
                    let mut files = (*ws.files).clone();
                    let mut by_file: BTreeMap<&Path, Vec<FileEdit>> = BTreeMap::new();
                    for e in &fix.edits {
                        by_file.entry(&e.path).or_default().push(e.clone());
                    }
                    for (path, mut edits) in by_file {
                        edits.sort_by_key(|e| (e.range.start, e.range.end));
                        let text = apply_edits(files.text(path).unwrap(), &edits);
                        files.insert_text(path.to_path_buf(), &text);
                    }
                    let fixed = Workspace::build(
                        ws.config.clone(),
                        (*ws.config_diagnostics).clone(),
                        Arc::new(files),
                        env.clone(),
                        None,
                    );
                    let after = check_workspace(&fixed, options).diagnostics;
                    let key = (d.path.clone(), d.code);
                    let still = count(&after, false).get(&key).copied().unwrap_or(0);
                    if still >= all_before[&key] {
                        broken.push(format!(
                            "{} {} `{}`: still there",
                            d.path.display(),
                            d.code,
                            fix.title
                        ));
                    }
                    for (k, n) in count(&after, true) {
                        if n > errors_before.get(&k).copied().unwrap_or(0) {
                            broken.push(format!(
                                "{} {} `{}`: new error {} in {}",
                                d.path.display(),
                                d.code,
                                fix.title,
                                k.1,
                                k.0.display()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(offered > 0);
    assert!(
        broken.is_empty(),
        "{offered} fixes offered; broken:\n{}",
        broken.join("\n")
    );
}
