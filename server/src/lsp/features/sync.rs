//! Document sync and the file system: open buffers (`didOpen`/`didChange`/`didClose`), watched
//! files (a file or a small folder taken alone, anything else by reading the project again, a
//! configuration or build file by reconfiguring its project), workspace folders.
//!
//! Depends on `diagnostics` (a change asks for diagnostics again).

use std::collections::HashSet;
use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use crate::lsp::backend::{lock, send_frame, Backend};
use crate::lsp::convert::{self, uri_to_path};
use crate::lsp::errors::guarded;
use crate::lsp::features::diagnostics::publication_frame;
use crate::lsp::framing::MAX_BODY_BYTES as MAX_DOCUMENT_BYTES;
use crate::lsp::state::OpenDoc;

impl Backend {
    pub async fn open_document(&self, params: DidOpenTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let doc = OpenDoc {
            version: params.text_document.version,
            text: Arc::from(params.text_document.text),
        };
        let _ = guarded("didOpen", || {
            lock(&self.shared.state).open(path, doc);
            Ok(())
        });
        self.wake();
    }

    pub async fn change_document(&self, params: DidChangeTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let version = params.text_document.version;
        let encoding = self.settings().encoding;
        let applied = guarded("didChange", || {
            let mut state = lock(&self.shared.state);
            let Some(current) = state.open.get(&path) else {
                return Ok(Ok(false));
            };
            let text = convert::apply_changes(&current.text, params.content_changes, encoding);
            if text.len() > MAX_DOCUMENT_BYTES {
                // Changes may grow a document past what one message may carry: no longer
                // followed (as if closed), rather than held whatever its size.
                state.close(&path);
                return Ok(Err(text.len()));
            }
            Ok(Ok(state.change(&path, version, Arc::from(text))))
        });
        match applied {
            Ok(Ok(true)) => self.wake(),
            Ok(Err(size)) => {
                self.wake();
                let message = format!(
                    "agentws stopped following `{}`: the document is {size} bytes, over the limit \
                     of {} MiB; its file on disk is analysed instead (close and reopen it once it \
                     is smaller)",
                    path.display(),
                    MAX_DOCUMENT_BYTES >> 20
                );
                self.client.show_message(MessageType::ERROR, message).await;
            }
            _ => {}
        }
    }

    pub async fn close_document(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let gone = guarded("didClose", || {
            let mut state = lock(&self.shared.state);
            let removed = state.close(&path);
            let outside = match state.project_of(&path) {
                Some(i) => !state.projects[i].is_workspace_file(&path),
                None => true,
            };
            Ok((removed.len(), outside))
        });
        let settings = self.settings();
        if let Ok((_, outside)) = gone {
            if outside && !settings.pull {
                let was_published = lock(&self.shared.published).remove(&path).is_some();
                // Through the frames the other publications take, so that it cannot overtake
                // one of the same file.
                let frame = publication_frame(params.text_document.uri, Vec::new(), None);
                if let Some(frame) = frame.filter(|_| was_published) {
                    send_frame(&self.shared, frame).await;
                }
            }
        }
        self.wake();
    }

    pub async fn change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        {
            let mut state = lock(&self.shared.state);
            for removed in &params.event.removed {
                if let Some(path) = uri_to_path(&removed.uri) {
                    state.remove_folder(&path);
                }
            }
            for added in &params.event.added {
                if let Some(path) = uri_to_path(&added.uri) {
                    state.add_folder(path);
                }
            }
        }
        self.refresh_after_config_change().await;
        self.wake();
    }

    pub async fn change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let config_changed = guarded("didChangeWatchedFiles", || {
            let mut state = lock(&self.shared.state);
            let open = std::mem::take(&mut state.open);
            let mut reload: HashSet<usize> = HashSet::new();
            let mut reconfigure: HashSet<usize> = HashSet::new();
            let mut config_changed = false;
            for event in &params.changes {
                let Some(path) = uri_to_path(&event.uri) else {
                    continue;
                };
                let is_config = path
                    .file_name()
                    .is_some_and(|n| n == crate::config::CONFIG_FILE_NAME);
                for (index, project) in state.projects.iter_mut().enumerate() {
                    // A build file pins the runtime release unless agentws.toml names one.
                    let pins_release =
                        crate::config::discover::is_build_file_of(&path, &project.config.project);
                    if is_config || pins_release {
                        let governs = pins_release
                            || project.config.file.as_deref() == Some(&path)
                            || project.root.starts_with(path.parent().unwrap_or(&path));
                        if governs {
                            reconfigure.insert(index);
                            config_changed = true;
                        }
                        continue;
                    }
                    if !project.contains(&path) {
                        continue;
                    }
                    if !project.watched_change(&path) {
                        // Anything else (a folder elsewhere, a large one): read the tree again.
                        reload.insert(index);
                        project.mark_dirty();
                    }
                }
            }
            for index in &reload {
                state.projects[*index].reload();
            }
            for index in reconfigure.difference(&reload) {
                state.projects[*index].reconfigure();
            }
            state.open = open;
            Ok(config_changed)
        })
        .unwrap_or(false);
        if config_changed {
            self.refresh_after_config_change().await;
        } else {
            let settings = self.settings();
            if settings.pull && settings.refresh_support {
                // Cross-file results of files not open may have changed.
                let _ = self.client.workspace_diagnostic_refresh().await;
            }
        }
        self.wake();
    }
}
