//! The path normalizer's runs, reached through one small adapter: each run bound to its own id
//! (never a shared "current run"), in the normalizer's registry owned by the server instance.
//! `agentws/normalizePath` and `agentws/runEnd` are answered here on the reading thread
//! (`framing::DirectAnswer`), in arrival order.
//!
//! Depends on `protocol` and `errors` only.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use tower_lsp_server::jsonrpc::Result;

use super::errors::{guarded, invalid_params, refusal, unserializable};
use super::protocol::{
    CustomRequest, NormalizeParams, NormalizePath, Normalized, RunEnd, RunEndParams, RunInfo,
    RunParams,
};
use crate::config::Config;
use crate::paths::{Refusal, RefusalCode, RunRegistry};

/// The server's runs (the normalizer's registry).
#[derive(Default)]
pub struct Runs {
    registry: RunRegistry,
}

impl Runs {
    /// Answers `agentws/normalizePath` and `agentws/runEnd` (`None` for any other method). Run on
    /// the reading thread, in arrival order, so a normalize sent after a `runEnd` of the same run
    /// is refused as the order of the messages says.
    pub fn direct(&self, method: &str, params: &Value) -> Option<Result<Value>> {
        let answer = match method {
            NormalizePath::METHOD => guarded(method, || {
                answer(params, |p: NormalizeParams| self.normalize(&p))
            }),
            RunEnd::METHOD => guarded(method, || answer(params, |p: RunEndParams| self.end(&p))),
            _ => return None,
        };
        Some(answer)
    }

    pub fn begin(&self, config: &Config, params: &RunParams) -> Result<RunInfo> {
        self.registry.begin(config, params).map_err(refusal)
    }

    pub fn normalize(&self, params: &NormalizeParams) -> Result<Normalized> {
        self.registry
            .normalize(&params.run_id, &params.path, params.op)
            .map_err(refusal)
    }

    pub fn end(&self, params: &RunEndParams) -> Result<()> {
        if self.registry.end(&params.run_id) {
            Ok(())
        } else {
            Err(refusal(Refusal::new(
                RefusalCode::UnknownRun,
                format!("no run `{}` is active", params.run_id.escape_debug()),
            )))
        }
    }
}

/// `params` read as `P`, answered by `f`, written back as JSON.
fn answer<P: DeserializeOwned, R: Serialize>(
    params: &Value,
    f: impl FnOnce(P) -> Result<R>,
) -> Result<Value> {
    let params =
        serde_json::from_value(params.clone()).map_err(|err| invalid_params(err.to_string()))?;
    serde_json::to_value(f(params)?).map_err(unserializable)
}
