//! What the server keeps between previews: the skills' metadata as the last render wrote it
//! (`prompt::RenderMemo`), and the last previews answered to clients that take edits
//! (`previousResultId` sent), one per project and context, so that the next answer can be what
//! changed since.
//!
//! Depends on `protocol` only.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tower_lsp_server::jsonrpc::Result;

use super::protocol::{PreviewEdits, PreviewPromptResult, WholePreview};
use crate::prompt::{Preview, RenderMemo};

/// Owned by the server instance; holds at most [`PreviewAnswers::KEPT`] answers.
#[derive(Default)]
pub struct PreviewAnswers {
    kept: Mutex<VecDeque<KeptPreview>>,
    next_id: AtomicU64,
    memo: Mutex<RenderMemo>,
}

struct KeptPreview {
    key: (PathBuf, String),
    result_id: String,
    preview: Preview,
}

impl PreviewAnswers {
    /// Enough for a few preview panels open side by side; each holds a whole rendered prompt,
    /// which for a large workspace is megabytes.
    const KEPT: usize = 4;

    /// Renders with the memo of the renders before, taken out for the time of the render so that
    /// previews of other contexts do not wait for it (one of them starts from an empty memo).
    pub fn render_reusing(
        &self,
        render: impl FnOnce(&mut RenderMemo) -> Result<Preview>,
    ) -> Result<Preview> {
        let lock = || self.memo.lock().unwrap_or_else(|e| e.into_inner());
        let mut memo = std::mem::take(&mut *lock());
        let preview = render(&mut memo);
        *lock() = memo;
        preview
    }

    /// The answer for the client: `fresh` whole with its `resultId`, or, when `previous` names
    /// the answer kept for `key`, `{resultId, previousResultId, edits}` (`Preview::edits_to`).
    pub fn answer(
        &self,
        key: (PathBuf, String),
        previous: Option<&str>,
        fresh: Preview,
    ) -> PreviewPromptResult {
        let result_id = format!("p{}", self.next_id.fetch_add(1, Ordering::Relaxed) + 1);
        let kept = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let old = {
            let mut kept = kept();
            let at = kept.iter().position(|k| k.key == key);
            at.and_then(|i| kept.remove(i))
        };
        let answer = match old {
            Some(old) if previous == Some(old.result_id.as_str()) => {
                PreviewPromptResult::Edits(PreviewEdits {
                    result_id: result_id.clone(),
                    previous_result_id: old.result_id,
                    edits: old.preview.edits_to(&fresh),
                })
            }
            _ => PreviewPromptResult::Whole(Box::new(WholePreview {
                preview: fresh.clone(),
                result_id: Some(result_id.clone()),
            })),
        };
        let mut kept = kept();
        kept.push_front(KeptPreview {
            key,
            result_id,
            preview: fresh,
        });
        kept.truncate(Self::KEPT);
        answer
    }
}
