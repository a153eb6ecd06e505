//! Diagnostics: published by a worker after each change (push mode, debounced; only what changed
//! since the last publish), or pulled (`textDocument/diagnostic`, `workspace/diagnostic`, with the
//! store documents' diagnostics); the initial indexing, reported with `$/progress`.
//!
//! A refresh runs with the state lock released (`refresh_unlocked`): requests and edits go on
//! meanwhile. Depends on `store` (the stores are read again once the project is indexed).

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard};

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::lsp::backend::{
    lock, notification_frame, send_frame, Backend, Published, Shared, View, ViewParts,
};
use crate::lsp::convert::{self, path_to_uri, TextPositions};
use crate::lsp::settings::Settings;
use crate::lsp::state::{DiagnosticsByFile, State};

impl Backend {
    /// LSP diagnostics of one file in `view`.
    pub fn file_diagnostics(
        view: &View,
        path: &Path,
    ) -> Vec<tower_lsp_server::ls_types::Diagnostic> {
        let list = view.diagnostics_of(path);
        if list.is_empty() {
            return Vec::new();
        }
        let text = view.texts.text(path);
        let positions = text
            .as_deref()
            .map(|t| TextPositions::new(t, view.encoding));
        list.iter()
            .map(|d| convert::diagnostic(d, positions.as_ref(), &view.rules_doc_url))
            .collect()
    }

    pub fn start_worker(&self) {
        if self.shared.worker_started.swap(true, Ordering::SeqCst) {
            return;
        }
        let shared = self.shared.clone();
        tokio::spawn(async move {
            loop {
                shared.wake.notified().await;
                let debounce = lock(&shared.settings).debounce;
                if !debounce.is_zero() {
                    tokio::time::sleep(debounce).await;
                }
                publish_changes(&shared).await;
            }
        });
    }

    /// Initial indexing of every workspace folder, reported with `$/progress`; its end means the
    /// diagnostics of every file are ready (published, in push mode).
    pub async fn index(&self) {
        let settings = self.settings();
        let token = NumberOrString::String("agentws/indexing".to_string());
        let progress = if settings.progress_support
            && self
                .client
                .create_work_done_progress(token.clone())
                .await
                .is_ok()
        {
            // Written as the publications are (`notification_frame`, on the same channel), so
            // that the client sees the begin, every publication, then the end, in that order.
            let begin = WorkDoneProgressBegin {
                title: "agentws: indexing".to_string(),
                cancellable: Some(false),
                message: Some("reading workspace files".to_string()),
                percentage: None,
            };
            self.send_progress(&token, WorkDoneProgress::Begin(begin))
                .await;
            Some(token)
        } else {
            None
        };
        let shared = self.shared.clone();
        let counts = tokio::task::spawn_blocking(move || {
            let mut state = lock(&shared.state);
            let env = state.env.clone();
            let open = std::mem::take(&mut state.open);
            let mut files = 0;
            let mut problems = 0;
            for project in &mut state.projects {
                let result = catch_unwind(AssertUnwindSafe(|| project.refresh(&env, &open)));
                if let Ok(diags) = result {
                    files += project.snapshot().kinds.len();
                    problems += diags.values().map(Vec::len).sum::<usize>();
                }
            }
            state.open = open;
            (files, problems)
        })
        .await
        .unwrap_or((0, 0));
        if !settings.pull {
            publish_changes(&self.shared).await;
        }
        self.check_stores_soon();
        if let Some(token) = progress {
            let end = WorkDoneProgressEnd {
                message: Some(format!(
                    "{} workspace files, {} diagnostics",
                    counts.0, counts.1
                )),
            };
            self.send_progress(&token, WorkDoneProgress::End(end)).await;
        }
    }

    /// A `$/progress` notification, through the frames the publications take.
    async fn send_progress(&self, token: &ProgressToken, value: WorkDoneProgress) {
        let params = ProgressParams {
            token: token.clone(),
            value: ProgressParamsValue::WorkDone(value),
        };
        if let Some(frame) = notification_frame::<notification::Progress>(&params) {
            send_frame(&self.shared, frame).await;
        }
    }

    pub async fn refresh_after_config_change(&self) {
        self.check_stores_soon();
        let settings = self.settings();
        if settings.pull {
            if settings.refresh_support {
                let _ = self.client.workspace_diagnostic_refresh().await;
            }
        } else {
            self.wake();
        }
    }

    /// `textDocument/diagnostic`: the diagnostics of one file, brought up to date.
    pub fn pull_diagnostics(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = &params.text_document.uri;
        let items = self
            .answer(uri, ViewParts::Diagnostics, "diagnostic", |view, path| {
                Ok(Backend::file_diagnostics(view, path))
            })?
            .unwrap_or_default();
        Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                },
            }),
        ))
    }

    /// `workspace/diagnostic`: every file of every project, and every store document.
    pub fn workspace_diagnostics(&self) -> Result<WorkspaceDiagnosticReportResult> {
        let roots: Vec<Option<PathBuf>> = {
            let state = lock(&self.shared.state);
            state
                .projects
                .iter()
                .map(|p| Some(p.root.clone()))
                .collect()
        };
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        for root in roots {
            let what = "workspace/diagnostic";
            let answer = self.answer_at(root.as_deref(), ViewParts::Diagnostics, what, |view| {
                let mut paths: Vec<&PathBuf> = view.workspace.kinds.keys().collect();
                paths.extend(view.diagnostics.keys());
                paths.sort();
                paths.dedup();
                let mut found = Vec::new();
                for path in paths {
                    let Some(uri) = path_to_uri(path) else {
                        continue;
                    };
                    let version = view.workspace.files.get(path).and_then(|e| e.version);
                    let report = WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version: version.map(i64::from),
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: None,
                            items: Backend::file_diagnostics(view, path),
                        },
                    };
                    found.push((path.clone(), report));
                }
                Ok(found)
            })?;
            for (path, report) in answer.unwrap_or_default() {
                if seen.insert(path) {
                    items.push(WorkspaceDocumentDiagnosticReport::Full(report));
                }
            }
        }
        let settings = self.settings();
        for (uri, stored) in self.shared.stores.reports(&settings) {
            items.push(WorkspaceDocumentDiagnosticReport::Full(
                WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version: None,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: None,
                        items: stored,
                    },
                },
            ));
        }
        Ok(WorkspaceDiagnosticReportResult::Report(
            WorkspaceDiagnosticReport { items },
        ))
    }
}

/// Recomputes dirty projects and publishes what changed since the last publish (push mode).
async fn publish_changes(shared: &Arc<Shared>) {
    let settings = lock(&shared.settings).clone();
    if settings.pull {
        return;
    }
    let shared_for_build = shared.clone();
    let to_publish =
        tokio::task::spawn_blocking(move || collect_publications(&shared_for_build, &settings))
            .await
            .unwrap_or_default();
    for (path, version, frame) in to_publish {
        // Drop results computed for a version the editor has already replaced.
        let current = lock(&shared.state).open.get(&path).map(|d| d.version);
        if version.is_some() && current != version {
            lock(&shared.published).remove(&path);
            shared.wake.notify_one();
            continue;
        }
        send_frame(shared, frame).await;
    }
}

/// A file's publication: its path, the version it was computed for, and its frame, serialized on
/// the blocking thread that computed it.
type Publication = (PathBuf, Option<i32>, Vec<u8>);

/// The `publishDiagnostics` frame of `uri`.
pub fn publication_frame(
    uri: Uri,
    diagnostics: Vec<tower_lsp_server::ls_types::Diagnostic>,
    version: Option<i32>,
) -> Option<Vec<u8>> {
    notification_frame::<notification::PublishDiagnostics>(&PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    })
}

fn collect_publications(shared: &Shared, settings: &Settings) -> Vec<Publication> {
    let mut out = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let count = lock(&shared.state).projects.len();
    for index in 0..count {
        let Some((mut state, diagnostics)) = refresh_unlocked(shared, index) else {
            continue;
        };
        let mut published = lock(&shared.published);
        let files = state.projects[index].files().clone();
        let texts = state.projects[index].texts();
        let owned = |path: &Path, state: &State| state.project_of(path) == Some(index);
        let mut candidates = state.projects[index].take_changed();
        candidates.sort();
        candidates.dedup();
        for path in candidates {
            if seen.contains(&path) || !owned(&path, &state) {
                continue;
            }
            seen.insert(path.clone());
            let list = diagnostics.get(&path).cloned().unwrap_or_default();
            let version = files.get(&path).and_then(|e| e.version);
            let record = Published {
                diagnostics: list,
                version,
            };
            let previous = published.get(&path);
            if previous == Some(&record)
                || (previous.is_none() && record.diagnostics.is_empty() && version.is_none())
            {
                continue;
            }
            let Some(uri) = path_to_uri(&path) else {
                continue;
            };
            let text = match record.diagnostics.is_empty() {
                true => None,
                false => texts.text(&path),
            };
            if texts.is_stale(&path) {
                // Changed on disk since it was digested: published once its findings are
                // computed again for the new text (`State::take_stale` below).
                continue;
            }
            let positions = (text.as_deref()).map(|t| TextPositions::new(t, settings.encoding));
            let lsp_list = record
                .diagnostics
                .iter()
                .map(|d| convert::diagnostic(d, positions.as_ref(), &settings.rules_doc_url))
                .collect();
            if let Some(frame) = publication_frame(uri, lsp_list, version) {
                out.push((path.clone(), version, frame));
            }
            if record.diagnostics.is_empty() && version.is_none() {
                published.remove(&path);
            } else {
                published.insert(path, record);
            }
        }
        if state.take_stale(&texts) {
            shared.wake.notify_one();
        }
    }
    // Files of projects that are gone (folder removed, detached project closed): only a change
    // of the projects' scopes makes any.
    let state = lock(&shared.state);
    let scopes = state.project_scopes();
    let mut checked = lock(&shared.published_scopes);
    if *checked == scopes {
        return out;
    }
    *checked = scopes;
    let mut published = lock(&shared.published);
    let orphans: Vec<PathBuf> = published
        .keys()
        .filter(|p| !seen.contains(*p) && state.project_of(p).is_none())
        .cloned()
        .collect();
    for path in orphans {
        published.remove(&path);
        let frame = path_to_uri(&path).and_then(|uri| publication_frame(uri, Vec::new(), None));
        if let Some(frame) = frame {
            out.push((path, None, frame));
        }
    }
    out
}

/// Refreshes project `index` with the state lock released while the rules run (requests and
/// edits go on meanwhile; an edit cancels the run, and it is taken again from the new inputs).
/// Returns the locked state with the project's diagnostics merged, or `None` when the project
/// is gone or its analysis panicked.
fn refresh_unlocked(
    shared: &Shared,
    index: usize,
) -> Option<(MutexGuard<'_, State>, Arc<DiagnosticsByFile>)> {
    loop {
        let job = {
            let mut state = lock(&shared.state);
            let env = state.env.clone();
            let open = std::mem::take(&mut state.open);
            let job = state.projects.get_mut(index).map(|project| {
                catch_unwind(AssertUnwindSafe(|| project.begin_refresh(&env, &open)))
            });
            state.open = open;
            job?.ok()?
        };
        // No lock is held here: an edit that waits for this run to stop must not wait for us.
        let result = match catch_unwind(AssertUnwindSafe(|| job.run())) {
            Ok(Some(result)) => result,
            Ok(None) => continue,
            Err(_) => return None,
        };
        let mut state = lock(&shared.state);
        let merged = state.projects.get_mut(index)?.finish_refresh(result);
        if let Some(diagnostics) = merged {
            return Some((state, diagnostics));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::framing::frame;
    use tower_lsp_server::jsonrpc::Request;

    /// The frame the protocol library writes for a notification: its `Request` through a JSON
    /// value, then text (`tower_lsp_server`'s codec).
    fn library_frame<N: notification::Notification>(params: &N::Params) -> Vec<u8> {
        let value = serde_json::to_value(params).unwrap();
        let request = Request::build(N::METHOD).params(value).finish();
        frame(serde_json::to_string(&request).unwrap().as_bytes())
    }

    fn uri(text: &str) -> Uri {
        text.parse().unwrap()
    }

    fn at(line: u32, character: u32) -> Range {
        Range::new(
            Position::new(line, character),
            Position::new(line, character + 4),
        )
    }

    #[test]
    fn a_publication_is_written_as_the_library_writes_it() {
        let related = |n: u32| DiagnosticRelatedInformation {
            location: Location::new(uri(&format!("file:///w/sub%20agents/a-{n}.md")), at(n, 2)),
            message: format!("listed here \"{n}\" — é\n\ttab"),
        };
        let diagnostic = Diagnostic {
            range: at(3, 1),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String("TJ029".to_string())),
            code_description: Some(CodeDescription {
                href: uri("https://example.com/rules.md#tj029"),
            }),
            source: Some("agentws".to_string()),
            message: "a message\nRuntime: \"quoted\" \u{1F600} \\ backslash".to_string(),
            related_information: Some((0..3).map(related).collect()),
            tags: Some(vec![DiagnosticTag::UNNECESSARY]),
            data: None,
        };
        let plain = Diagnostic {
            range: at(0, 0),
            severity: Some(DiagnosticSeverity::ERROR),
            message: "plain".to_string(),
            ..Diagnostic::default()
        };
        for version in [Some(7), None] {
            for diagnostics in [vec![diagnostic.clone(), plain.clone()], Vec::new()] {
                let params = PublishDiagnosticsParams {
                    uri: uri("file:///w/.agentscope/workspace/tools.json"),
                    diagnostics: diagnostics.clone(),
                    version,
                };
                let ours = publication_frame(params.uri.clone(), diagnostics, version).unwrap();
                let theirs = library_frame::<notification::PublishDiagnostics>(&params);
                assert_eq!(String::from_utf8(ours), String::from_utf8(theirs));
            }
        }
        let progress = ProgressParams {
            token: ProgressToken::String("agentws/indexing".to_string()),
            value: ProgressParamsValue::WorkDone(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title: "agentws: indexing".to_string(),
                cancellable: Some(false),
                message: Some("reading workspace files".to_string()),
                percentage: None,
            })),
        };
        let ours = notification_frame::<notification::Progress>(&progress).unwrap();
        let theirs = library_frame::<notification::Progress>(&progress);
        assert_eq!(String::from_utf8(ours), String::from_utf8(theirs));
    }
}
