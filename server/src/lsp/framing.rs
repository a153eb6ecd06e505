//! The framing guard in front of tower-lsp-server: reads `Content-Length` frames from the client
//! ourselves, because the library's stdio transport stops reading for good after one message it
//! cannot decode.
//!
//! Every frame is checked before the service sees it: header and body sizes are bounded, the body
//! must be JSON and must decode as a JSON-RPC request, notification or response. A frame that fails
//! is answered here with a JSON-RPC error and the stream carries on with the next frame. Only
//! blocking `std::io` and `serde_json`; knows nothing of LSP methods.

use std::io::{self, BufRead, Read};

use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::{Request, Response};

/// Largest accepted body. A 50 MB document in a `didOpen` fits; anything larger is answered with an
/// error and skipped without being held in memory.
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;
/// Largest accepted header block (all header lines together).
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

/// JSON-RPC error codes used by the guard.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;

/// What the guard made of one frame.
#[derive(Debug, PartialEq)]
pub enum Inbound {
    /// A well-formed JSON-RPC message, re-framed, ready for the service.
    Message(Vec<u8>),
    /// The `exit` notification, re-framed: the last message the service needs.
    Exit(Vec<u8>),
    /// A complete JSON-RPC error response to send back to the client.
    Reply(Vec<u8>),
    /// A complete response computed on the reading thread by a [`DirectAnswer`].
    Answer(Vec<u8>),
}

/// Answers some requests on the reading thread itself, in arrival order, without the service's
/// task hops: given the method and params of a request, `Some(result or error)` answers it,
/// `None` passes it on to the service. Used for the path normalizer's run methods, which need no
/// editor state and which agent runs call at high rates (see docs/protocol.md).
pub type DirectAnswer = std::sync::Arc<
    dyn Fn(&str, &Value) -> Option<Result<Value, tower_lsp_server::jsonrpc::Error>> + Send + Sync,
>;

/// Wraps `body` in a `Content-Length` frame.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_reply(id: Value, code: i64, message: &str) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id});
    frame(body.to_string().as_bytes())
}

/// Reads frames from a byte stream. `Ok(None)` is the end of the stream.
pub struct FrameReader<R> {
    input: R,
    direct: Option<DirectAnswer>,
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(input: R) -> Self {
        Self {
            input,
            direct: None,
        }
    }

    /// Requests `direct` answers are answered here instead of going to the service.
    pub fn with_direct_answers(mut self, direct: DirectAnswer) -> Self {
        self.direct = Some(direct);
        self
    }

    /// The next frame, checked. I/O errors and the end of input end the stream; everything the
    /// client may get wrong becomes an [`Inbound::Reply`].
    pub fn next_frame(&mut self) -> io::Result<Option<Inbound>> {
        let length = match self.read_header()? {
            HeaderOutcome::Eof => return Ok(None),
            HeaderOutcome::Length(n) => n,
            HeaderOutcome::Bad(message) => {
                return Ok(Some(Inbound::Reply(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    &message,
                ))))
            }
        };
        if length > MAX_BODY_BYTES {
            // Skip the body so the next frame starts in the right place, without holding it.
            let skipped = io::copy(&mut (&mut self.input).take(length as u64), &mut io::sink())?;
            if skipped < length as u64 {
                return Ok(None);
            }
            return Ok(Some(Inbound::Reply(error_reply(
                Value::Null,
                INVALID_REQUEST,
                &format!("message of {length} bytes is larger than the limit of {MAX_BODY_BYTES} bytes; skipped"),
            ))));
        }
        let mut body = vec![0; length];
        if let Err(err) = self.input.read_exact(&mut body) {
            if err.kind() == io::ErrorKind::UnexpectedEof {
                return Ok(None);
            }
            return Err(err);
        }
        Ok(Some(check_body_with(body, self.direct.as_ref())))
    }

    fn read_header(&mut self) -> io::Result<HeaderOutcome> {
        let mut length: Option<usize> = None;
        let mut total = 0;
        let mut problem: Option<String> = None;
        let mut saw_any = false;
        loop {
            let mut line = Vec::new();
            let limit = (MAX_HEADER_BYTES - total.min(MAX_HEADER_BYTES)) as u64 + 1;
            let n = (&mut self.input).take(limit).read_until(b'\n', &mut line)?;
            if n == 0 {
                return Ok(HeaderOutcome::Eof);
            }
            total += n;
            if total > MAX_HEADER_BYTES {
                // Resynchronise: drop everything up to the next blank line.
                self.skip_to_blank_line()?;
                return Ok(HeaderOutcome::Bad(format!(
                    "header block longer than {MAX_HEADER_BYTES} bytes"
                )));
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                if !saw_any {
                    // Stray blank lines between frames are tolerated.
                    total = 0;
                    continue;
                }
                break;
            }
            saw_any = true;
            match text.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                    match value.trim().parse::<usize>() {
                        Ok(n) => length = Some(n),
                        Err(_) => {
                            problem = Some(format!("invalid Content-Length `{}`", value.trim()))
                        }
                    }
                }
                Some(_) => {}
                None => problem = Some(format!("malformed header line `{text}`")),
            }
        }
        if let Some(message) = problem {
            return Ok(HeaderOutcome::Bad(message));
        }
        match length {
            Some(n) => Ok(HeaderOutcome::Length(n)),
            None => Ok(HeaderOutcome::Bad("missing Content-Length header".into())),
        }
    }

    fn skip_to_blank_line(&mut self) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = (&mut self.input)
                .take(MAX_HEADER_BYTES as u64)
                .read_until(b'\n', &mut line)?;
            if n == 0 || line == b"\r\n" || line == b"\n" {
                return Ok(());
            }
        }
    }
}

enum HeaderOutcome {
    Eof,
    Length(usize),
    Bad(String),
}

/// Checks that `body` is a message tower-lsp-server can decode; otherwise the error reply.
pub fn check_body(body: Vec<u8>) -> Inbound {
    check_body_with(body, None)
}

fn check_body_with(body: Vec<u8>, direct: Option<&DirectAnswer>) -> Inbound {
    let value: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(err) => {
            return Inbound::Reply(error_reply(
                Value::Null,
                PARSE_ERROR,
                &format!("invalid JSON: {err}"),
            ))
        }
    };
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
        .cloned()
        .unwrap_or(Value::Null);
    if let (Some(direct), Some(method), true) = (
        direct,
        value.get("method").and_then(Value::as_str),
        !id.is_null(),
    ) {
        let params = value.get("params").unwrap_or(&Value::Null);
        if let Some(answer) = direct(method, params) {
            let body = match answer {
                Ok(result) => json!({"jsonrpc": "2.0", "result": result, "id": id}),
                Err(error) => json!({"jsonrpc": "2.0", "error": error, "id": id}),
            };
            return Inbound::Answer(frame(body.to_string().as_bytes()));
        }
    }
    let value_is_exit = value.get("method").and_then(Value::as_str) == Some("exit");
    let decodes = serde_json::from_value::<Request>(value.clone()).is_ok()
        || serde_json::from_value::<Response>(value).is_ok();
    if decodes && value_is_exit {
        Inbound::Exit(frame(&body))
    } else if decodes {
        Inbound::Message(frame(&body))
    } else {
        Inbound::Reply(error_reply(
            id,
            INVALID_REQUEST,
            "not a JSON-RPC 2.0 request, notification or response",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_answers_are_made_in_arrival_order_and_others_pass_on() {
        use std::sync::{Arc, Mutex};
        let ended = Arc::new(Mutex::new(false));
        let state = ended.clone();
        // A toy run registry: `end` then `normalize` of the same run must see the end.
        let direct: DirectAnswer = Arc::new(move |method: &str, _params: &Value| match method {
            "agentws/runEnd" => {
                *state.lock().unwrap() = true;
                Some(Ok(Value::Null))
            }
            "agentws/normalizePath" if *state.lock().unwrap() => Some(Err(
                tower_lsp_server::jsonrpc::Error::invalid_params("unknown run"),
            )),
            "agentws/normalizePath" => Some(Ok(json!({"key": "a"}))),
            _ => None,
        });
        let mut input = Vec::new();
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"agentws/normalizePath","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"agentws/runEnd","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"agentws/normalizePath","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"#,
        ] {
            input.extend(frame(body.as_bytes()));
        }
        let mut reader =
            FrameReader::new(io::BufReader::new(&input[..])).with_direct_answers(direct);
        let mut bodies = Vec::new();
        while let Some(item) = reader.next_frame().unwrap() {
            let (kind, bytes) = match item {
                Inbound::Answer(b) => ("answer", b),
                Inbound::Message(b) => ("message", b),
                Inbound::Exit(b) | Inbound::Reply(b) => ("other", b),
            };
            let text = String::from_utf8(bytes).unwrap();
            let body: Value = serde_json::from_str(text.split("\r\n\r\n").nth(1).unwrap()).unwrap();
            bodies.push((kind, body));
        }
        assert_eq!(
            bodies[0],
            (
                "answer",
                json!({"jsonrpc": "2.0", "result": {"key": "a"}, "id": 1})
            )
        );
        assert_eq!(
            bodies[1],
            ("answer", json!({"jsonrpc": "2.0", "result": null, "id": 2}))
        );
        assert_eq!(bodies[2].0, "answer");
        assert_eq!(bodies[2].1["error"]["message"], "unknown run");
        assert_eq!(bodies[3].0, "message");
        assert_eq!(bodies[3].1["method"], "shutdown");
    }

    fn read_all(input: &[u8]) -> Vec<Inbound> {
        let mut reader = FrameReader::new(io::BufReader::new(input));
        let mut out = Vec::new();
        while let Some(item) = reader.next_frame().unwrap() {
            out.push(item);
        }
        out
    }

    fn reply_text(item: &Inbound) -> String {
        match item {
            Inbound::Reply(bytes) => String::from_utf8(bytes.clone()).unwrap(),
            other => panic!("expected a reply, got {other:?}"),
        }
    }

    #[test]
    fn bad_frames_are_answered_and_the_stream_continues() {
        let good = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let mut input = Vec::new();
        input.extend(frame(b"{not json"));
        input.extend(frame(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#));
        input.extend(b"X-Other: 1\r\n\r\n");
        input.extend(frame(good));
        let items = read_all(&input);
        assert_eq!(items.len(), 4);
        assert!(reply_text(&items[0]).contains(r#""code":-32700"#));
        assert!(reply_text(&items[0]).contains(r#""id":null"#));
        assert!(reply_text(&items[1]).contains(r#""code":-32600"#));
        assert!(reply_text(&items[1]).contains(r#""id":7"#));
        assert!(reply_text(&items[2]).contains("missing Content-Length"));
        assert_eq!(items[3], Inbound::Message(frame(good)));
    }

    #[test]
    fn oversized_bodies_are_skipped_without_losing_sync() {
        let mut input = format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1).into_bytes();
        input.extend(std::iter::repeat_n(b' ', MAX_BODY_BYTES + 1));
        let good = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        input.extend(frame(good));
        let items = read_all(&input);
        assert!(reply_text(&items[0]).contains("larger than the limit"));
        assert_eq!(items[1], Inbound::Message(frame(good)));
    }

    #[test]
    fn truncated_input_ends_the_stream() {
        assert!(read_all(b"Content-Length: 10\r\n\r\n{}").is_empty());
    }
}
