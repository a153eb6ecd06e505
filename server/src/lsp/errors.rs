//! The answers a request gets when it cannot be served: the guard that turns a panic into an
//! internal error, invalid parameters, refusals (`data.code` says which), a server cancel.
//!
//! Below every handler; depends on no other file of `lsp`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::json;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use crate::paths::Refusal;

/// JSON-RPC error code for a refused context or path (`data.code` says which refusal).
pub const REFUSED: i64 = -32002;

/// JSON-RPC error code of a request the server cancelled (LSP `ServerCancelled`).
pub const SERVER_CANCELLED: i64 = -32802;

/// Runs `f`, turning a panic into an internal error.
pub fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            tracing::error!("panic in {what}: {message}");
            Err(Error {
                code: ErrorCode::InternalError,
                message: format!("internal error in {what}: {message}").into(),
                data: None,
            })
        }
    }
}

pub fn invalid_params(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: message.into().into(),
        data: None,
    }
}

pub fn refused(code: &str, message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(REFUSED),
        message: crate::base::redact::redact_text(&message)
            .into_owned()
            .into(),
        data: Some(json!({"code": code})),
    }
}

/// A refusal of the path normalizer.
pub fn refusal(err: Refusal) -> Error {
    refused(err.code.as_str(), err.message)
}

/// A store that cannot be read: a refusal with the message in words; the client library's own
/// report goes to the log.
pub fn store_unreadable(err: crate::store::StoreError) -> Error {
    if let Some(detail) = &err.detail {
        tracing::debug!("store read failed: {detail}");
    }
    refused("store-unreadable", err.message)
}

/// The error of a request superseded by a newer one for the same thing.
pub fn server_cancelled() -> Error {
    Error {
        code: ErrorCode::ServerError(SERVER_CANCELLED),
        message: "superseded by a newer request for the same project and context".into(),
        data: None,
    }
}

/// A value that cannot be written as JSON (a path that is not UTF-8).
pub fn unserializable(err: serde_json::Error) -> Error {
    invalid_params(err.to_string())
}
