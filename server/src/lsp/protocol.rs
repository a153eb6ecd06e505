//! The custom JSON-RPC methods (`agentws/…`), documented in `docs/protocol.md`: each declared once,
//! as a type naming the method, its parameters and its answer. Every other place (the dispatch,
//! the direct answers on the reading thread, the handlers' signatures, the test that keeps
//! `docs/protocol.md` in step) goes through these types; field names are camelCase on the wire.
//!
//! The wire only: no handler, no state. Depends on no other file of `lsp`.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{ProgressToken, Uri};

use crate::base::json_delta::Edit;
pub use crate::paths::{NormalizeParams, Normalized, RunEndParams, RunInfo, RunParams};
use crate::prompt::Preview;
use crate::workspace::FileKind;

/// A custom request: its method name, its parameters and its answer. The shape of
/// `ls_types::request::Request`, except that the answer need only be written: the server never
/// reads one back, and the preview's (`prompt::Preview`) names its kinds with `&'static str`,
/// which serde cannot read into an owned value.
pub trait CustomRequest {
    const METHOD: &'static str;
    type Params: DeserializeOwned + Send + 'static;
    type Result: Serialize + Send + 'static;
}

/// Every custom method the server answers, in the order `docs/protocol.md` lists them.
pub const CUSTOM_METHODS: &[&str] = &[
    PreviewPrompt::METHOD,
    StoreUsers::METHOD,
    CheckStore::METHOD,
    StoreDocument::METHOD,
    RunBegin::METHOD,
    NormalizePath::METHOD,
    RunEnd::METHOD,
    FileStatus::METHOD,
];

/// `agentws/previewPrompt`: the system prompt a project's agent starts with.
pub enum PreviewPrompt {}

impl CustomRequest for PreviewPrompt {
    const METHOD: &'static str = "agentws/previewPrompt";
    type Params = PreviewPromptParams;
    type Result = PreviewPromptResult;
}

/// The session context fields of `agentws/previewPrompt` (the CLI flags of `agentws preview`).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContextParams {
    pub user_id: Option<String>,
    pub session_id: Option<String>,
    pub scope: Option<String>,
    pub filesystem: Option<String>,
    pub sandbox_root: Option<String>,
    pub harness: Option<String>,
    pub date: Option<String>,
    pub os: Option<String>,
    pub tmp_dir: Option<String>,
    pub plan: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreviewPromptParams {
    pub uri: Option<Uri>,
    #[serde(default)]
    pub context: ContextParams,
    /// Present (`null` or the `resultId` of the answer the client holds for this project and
    /// context): the client takes answers as edits of the previous one.
    #[serde(default, deserialize_with = "present")]
    pub previous_result_id: Option<Option<String>>,
    /// Client-initiated progress: `$/progress` for this token while a store is read.
    pub work_done_token: Option<ProgressToken>,
}

/// `Some(None)` for a field given as `null`, which serde's `Option` would not tell from absent.
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// The answer of `agentws/previewPrompt`: the whole preview, or the edits that turn the answer
/// the client holds into it.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum PreviewPromptResult {
    Whole(Box<WholePreview>),
    Edits(PreviewEdits),
}

/// The whole preview, with the `resultId` a client that takes edits refers to it by.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WholePreview {
    #[serde(flatten)]
    pub preview: Preview,
    /// Absent when the client did not send `previousResultId` (it takes no edits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_id: Option<String>,
}

/// What changed since the answer `previous_result_id` (`Preview::edits_to`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewEdits {
    pub result_id: String,
    pub previous_result_id: String,
    pub edits: Vec<Edit>,
}

/// `agentws/storeUsers`: the ids the configured store holds (`agentws store users`).
pub enum StoreUsers {}

impl CustomRequest for StoreUsers {
    const METHOD: &'static str = "agentws/storeUsers";
    type Params = StoreUsersParams;
    type Result = StoreUsersResult;
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreUsersParams {
    pub uri: Option<Uri>,
    /// `user | session | agent | global`; default: the project's scope.
    pub scope: Option<String>,
    /// Client-initiated progress: `$/progress` for this token while the store is read.
    pub work_done_token: Option<ProgressToken>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreUsersResult {
    /// The store URL, password masked; `null` when the project configures no store.
    pub store: Option<String>,
    pub scope: &'static str,
    /// User ids, or session ids under the `session` scope.
    pub ids: Vec<String>,
    pub notes: Vec<String>,
}

/// `agentws/checkStore`: reads the stores now and says what was read.
pub enum CheckStore {}

impl CustomRequest for CheckStore {
    const METHOD: &'static str = "agentws/checkStore";
    type Params = CheckStoreParams;
    type Result = Vec<StoreCheckSummary>;
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckStoreParams {
    /// A file of the project (default: every project with a store).
    pub uri: Option<Uri>,
}

/// What `agentws/checkStore` read for one project.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreCheckSummary {
    pub project: String,
    pub store: String,
    pub owners: usize,
    pub files: usize,
    pub diagnostics: usize,
    pub notes: Vec<String>,
}

/// `agentws/storeDocument`: the text of a stored file's read-only document.
pub enum StoreDocument {}

impl CustomRequest for StoreDocument {
    const METHOD: &'static str = "agentws/storeDocument";
    type Params = StoreDocumentParams;
    type Result = StoreDocumentResult;
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreDocumentParams {
    pub uri: Uri,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreDocumentResult {
    /// The stored file's printed location (`store:<namespace>:<key>`).
    pub origin: String,
    pub text: String,
}

/// `agentws/runBegin`: binds a run of the path normalizer.
pub enum RunBegin {}

impl CustomRequest for RunBegin {
    const METHOD: &'static str = "agentws/runBegin";
    type Params = RunParams;
    type Result = RunInfo;
}

/// `agentws/normalizePath`: one file-tool path, as the run's runtime would take it.
pub enum NormalizePath {}

impl CustomRequest for NormalizePath {
    const METHOD: &'static str = "agentws/normalizePath";
    type Params = NormalizeParams;
    type Result = Normalized;
}

/// `agentws/runEnd`: forgets a run; answers `null`.
pub enum RunEnd {}

impl CustomRequest for RunEnd {
    const METHOD: &'static str = "agentws/runEnd";
    type Params = RunEndParams;
    type Result = ();
}

/// `agentws/fileStatus`: which project, layer and kind a file belongs to, and why.
pub enum FileStatus {}

impl CustomRequest for FileStatus {
    const METHOD: &'static str = "agentws/fileStatus";
    type Params = FileStatusParams;
    type Result = FileStatusResult;
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileStatusParams {
    pub uri: Uri,
}

/// The answer of `agentws/fileStatus`: a file of a project, or one outside every project.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum FileStatusResult {
    InProject(Box<FileInProject>),
    Outside(FileOutside),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileInProject {
    pub uri: Option<String>,
    pub path: PathBuf,
    /// A workspace file (or the configuration file) of the project.
    pub in_workspace: bool,
    pub project: ProjectStatus,
    /// `shared`, `project` or `namespace`.
    pub layer: Option<&'static str>,
    pub namespace: Option<String>,
    pub relative_path: Option<String>,
    pub kind: Option<FileKind>,
    pub open: bool,
    pub version: Option<i32>,
    pub config: ConfigStatus,
    /// How many diagnostics the file has.
    pub diagnostics: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectStatus {
    /// The workspace folder (or detached project) the file belongs to.
    pub folder: PathBuf,
    pub detached: bool,
    pub project_dir: PathBuf,
    pub workspace: PathBuf,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigStatus {
    pub file: Option<PathBuf>,
    pub reason: String,
    pub harness: String,
    pub harness_from: String,
    pub harness_note: Option<String>,
    pub scope: &'static str,
    pub filesystem: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileOutside {
    pub uri: Option<String>,
    pub path: PathBuf,
    /// Always false.
    pub in_workspace: bool,
    /// Always `null`.
    pub project: Option<ProjectStatus>,
    pub open: bool,
    pub version: Option<i32>,
    pub reason: &'static str,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// docs/protocol.md documents exactly the custom methods the server registers.
    #[test]
    fn protocol_document_lists_every_custom_method() {
        let doc = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md"),
        )
        .expect("docs/protocol.md");
        let documented: BTreeSet<&str> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("### `"))
            .filter_map(|l| l.split('`').next())
            .filter(|m| m.starts_with("agentws/"))
            .collect();
        let served: BTreeSet<&str> = super::CUSTOM_METHODS.iter().copied().collect();
        assert_eq!(documented, served);
    }
}
