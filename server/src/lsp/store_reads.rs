//! Store reads in flight for requests (`agentws/previewPrompt` of a remote filesystem,
//! `agentws/storeUsers`): one per project, method and context, at most a few at once.
//!
//! Depends on `errors` only.

use tower_lsp_server::jsonrpc::Result;

use super::errors::refused;
use crate::store::io::Cancel;

/// Store reads in flight, one per project, method and context: a newer request for the same
/// thing cancels the older one, which answers `ServerCancelled`. At most [`StoreReads::MAX`] run
/// at once: each holds one of the few requests the protocol library serves concurrently, and
/// the others must stay free for the editor's requests. Owned by the server instance.
#[derive(Default)]
pub struct StoreReads {
    running: std::sync::Mutex<std::collections::HashMap<String, Running>>,
    next_id: std::sync::atomic::AtomicU64,
}

struct Running {
    id: u64,
    cancel: Cancel,
    superseded: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// One store read of [`StoreReads`]: cancels the read when dropped (the request's future is
/// dropped when the client cancels it) and leaves the table.
pub struct ReadGuard<'a> {
    reads: &'a StoreReads,
    key: String,
    pub id: u64,
    pub cancel: Cancel,
}

impl Drop for ReadGuard<'_> {
    fn drop(&mut self) {
        self.cancel.cancel();
        let mut running = self.reads.lock();
        if running.get(&self.key).is_some_and(|r| r.id == self.id) {
            running.remove(&self.key);
        }
    }
}

impl StoreReads {
    /// Store reads of different things at once (a preview panel and its user picker).
    const MAX: usize = 2;

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Running>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a read of `key`, superseding the one in flight for it.
    pub fn start(
        &self,
        key: String,
    ) -> Result<(ReadGuard<'_>, std::sync::Arc<std::sync::atomic::AtomicBool>)> {
        use std::sync::atomic::Ordering;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let cancel = Cancel::never();
        let superseded = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut running = self.lock();
        if !running.contains_key(&key) && running.len() >= Self::MAX {
            return Err(refused(
                "store-busy",
                format!(
                    "{} store reads are already waiting on the store: try again when one has \
                     answered (or cancel one)",
                    running.len()
                ),
            ));
        }
        let old = running.insert(
            key.clone(),
            Running {
                id,
                cancel: cancel.clone(),
                superseded: superseded.clone(),
            },
        );
        drop(running);
        if let Some(old) = old {
            old.superseded.store(true, Ordering::SeqCst);
            old.cancel.cancel();
        }
        let guard = ReadGuard {
            reads: self,
            key,
            id,
            cancel,
        };
        Ok((guard, superseded))
    }
}
