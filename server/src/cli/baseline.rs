//! The baseline of `agentws check`: `--write-baseline FILE` records today's findings, `--baseline
//! FILE` reports only the findings not in it, says how many were in it, and lists its entries that
//! no longer match anything (so the file can shrink). A finding matches an entry by rule, file and
//! fingerprint (`output::fingerprint`), never by line, so edits elsewhere in a file keep it
//! matched.
//!
//! The file is JSON in a stable order (by path, rule, fingerprint), one finding per entry with
//! its message for the reviewer, and paths relative to the baseline's own folder, so it reads well
//! in a diff and does not depend on where `check` runs. Written only on request, atomically.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::output::{BaselineEntry as Entry, BaselineOutcome, Report, ShownDiagnostic};

/// Version of the baseline file's format.
const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct File {
    version: u32,
    findings: Vec<Entry>,
}

/// Where a finding's file is, as a baseline entry names it: relative to the baseline's folder,
/// or the store entry's name for a stored file.
pub fn entry_path(absolute: &Path, origin: Option<&str>, baseline_dir: &Path) -> String {
    match origin {
        Some(origin) => origin.to_string(),
        None => super::project::display_relative(absolute, baseline_dir),
    }
}

fn entry(d: &ShownDiagnostic, baseline_dir: &Path) -> Entry {
    Entry {
        path: entry_path(&d.absolute, d.origin.as_deref(), baseline_dir),
        rule: d.code.to_string(),
        fingerprint: d.fingerprint.clone(),
        message: d.message.clone(),
    }
}

/// The folder a baseline file's paths are relative to.
fn folder_of(file: &Path) -> PathBuf {
    // `..` folded as for the checked paths, which the entries are made relative from.
    let absolute =
        crate::base::pathutil::normalize_lexically(&crate::config::discover::absolute(file));
    absolute.parent().map(Path::to_path_buf).unwrap_or(absolute)
}

/// Writes the findings of `report` to `file` (replacing it whole, atomically); how many.
pub fn write(file: &Path, report: &Report) -> Result<usize, String> {
    let dir = folder_of(file);
    let mut findings: Vec<Entry> = report.diagnostics.iter().map(|d| entry(d, &dir)).collect();
    findings.sort();
    let count = findings.len();
    let mut text = serde_json::to_string_pretty(&File {
        version: VERSION,
        findings,
    })
    .map_err(|e| e.to_string())?;
    text.push('\n');
    write_atomically(file, text.as_bytes())
        .map_err(|e| format!("cannot write the baseline `{}`: {e}", file.display()))?;
    Ok(count)
}

/// Reads the baseline at `file`.
fn read(file: &Path) -> Result<Vec<Entry>, String> {
    let shown = file.display();
    let content = crate::base::FileContent::read(file);
    let text = content.text().ok_or_else(|| {
        format!("cannot read the baseline `{shown}`: it is not a readable text file")
    })?;
    let parsed: File = serde_json::from_str(text)
        .map_err(|e| format!("the baseline `{shown}` is not a baseline file: {e}"))?;
    if parsed.version != VERSION {
        return Err(format!(
            "the baseline `{shown}` has version {}; this agentws reads version {VERSION}",
            parsed.version
        ));
    }
    Ok(parsed.findings)
}

/// Takes the findings the baseline at `file` holds out of `report`'s diagnostics (marking the
/// others `new`) and records what it did; the entries no finding matches are named relative to
/// `cwd`, as every shown path is.
pub fn apply(file: &Path, cwd: &Path, report: &mut Report) -> Result<(), String> {
    let shown = super::project::display_relative(
        &crate::base::pathutil::normalize_lexically(&crate::config::discover::absolute(file)),
        cwd,
    );
    let dir = folder_of(file);
    let mut remaining = read(file)?;
    remaining.sort();
    let mut unchanged = Vec::new();
    let mut reported = Vec::new();
    for mut d in std::mem::take(&mut report.diagnostics) {
        let key = entry(&d, &dir);
        let found = remaining.binary_search_by(|e| {
            (&e.path, &e.rule, &e.fingerprint).cmp(&(&key.path, &key.rule, &key.fingerprint))
        });
        match found {
            Ok(i) => {
                remaining.remove(i);
                d.baseline_state = Some("unchanged");
                unchanged.push(d);
            }
            Err(_) => {
                d.baseline_state = Some("new");
                reported.push(d);
            }
        }
    }
    report.diagnostics = reported;
    for entry in &mut remaining {
        if !entry.path.starts_with("store:") {
            entry.path = super::project::display_relative(&dir.join(&entry.path), cwd);
        }
    }
    report.baseline = Some(BaselineOutcome {
        file: shown,
        unchanged,
        absent: remaining,
    });
    Ok(())
}

/// `bytes` written to a new file beside `file`, then renamed over it: a reader sees the old
/// baseline or the new one, never a part.
fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = folder_of(file);
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "baseline.json".into());
    let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        out.write_all(bytes)?;
        out.sync_all()?;
        std::fs::rename(&temporary, dir.join(&name))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}
