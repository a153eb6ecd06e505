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
pub const METHOD_NOT_FOUND: i64 = -32601;

/// The header that starts every frame, matched case-insensitively.
const LENGTH_HEADER: &[u8] = b"content-length:";

/// What the guard made of one frame.
#[derive(Debug, PartialEq)]
pub enum Inbound {
    /// A well-formed JSON-RPC message, re-framed, ready for the service.
    Message(Vec<u8>),
    /// The `exit` notification, re-framed: the last message the service needs.
    Exit(Vec<u8>),
    /// A complete JSON-RPC error response to send back to the client, framed, possibly followed
    /// by a framed `window/showMessage` that tells the user about it.
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

/// A `window/showMessage` notification of type Error.
fn show_error(message: &str) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "method": "window/showMessage", "params": {"type": 1, "message": message}});
    frame(body.to_string().as_bytes())
}

fn error_reply(id: Value, code: i64, message: &str) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id});
    frame(body.to_string().as_bytes())
}

/// What must be read past before the next header, after a frame that was answered with an error.
/// Done lazily, at the next read, so the error reaches the client before the guard blocks on
/// bytes the client may never send.
#[derive(Debug, PartialEq)]
enum Skip {
    Nothing,
    /// A body of known length.
    Bytes(u64),
    /// A body of unknown length: skip to the next `Content-Length:` outside a JSON string.
    ToNextHeader,
}

/// Reads frames from a byte stream. `Ok(None)` is the end of the stream.
pub struct FrameReader<R> {
    input: R,
    direct: Option<DirectAnswer>,
    skip: Skip,
    /// The start of a header line already consumed by the resynchronising scan.
    carry: Vec<u8>,
    consumed: u64,
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(input: R) -> Self {
        Self {
            input,
            direct: None,
            skip: Skip::Nothing,
            carry: Vec::new(),
            consumed: 0,
        }
    }

    /// Requests `direct` answers are answered here instead of going to the service.
    pub fn with_direct_answers(mut self, direct: DirectAnswer) -> Self {
        self.direct = Some(direct);
        self
    }

    /// Bytes taken from the input so far (for tests and the fuzz target: it never decreases, and
    /// a reader that returns `Ok(None)` has taken all of a finite input).
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// The next frame, checked. I/O errors and the end of input end the stream; everything the
    /// client may get wrong becomes an [`Inbound::Reply`], after which the reader resynchronises
    /// (see docs/protocol.md, "Framing guard").
    pub fn next_frame(&mut self) -> io::Result<Option<Inbound>> {
        match std::mem::replace(&mut self.skip, Skip::Nothing) {
            Skip::Nothing => {}
            Skip::Bytes(n) => {
                if self.skip_bytes(n)? < n {
                    return Ok(None);
                }
            }
            Skip::ToNextHeader => {
                if !self.scan_to_next_header()? {
                    return Ok(None);
                }
            }
        }
        let length = match self.read_header()? {
            HeaderOutcome::Eof => return Ok(None),
            HeaderOutcome::Length(n) => n,
            HeaderOutcome::Bad { message, length } => {
                self.skip = match length {
                    Some(n) => Skip::Bytes(n),
                    None => Skip::ToNextHeader,
                };
                return Ok(Some(Inbound::Reply(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    &message,
                ))));
            }
        };
        if length > MAX_BODY_BYTES as u64 {
            // Skipped without being held in memory. A notification (a document opened or
            // changed) has no answer the editor shows: a message in its window says it instead.
            self.skip = Skip::Bytes(length);
            let mut reply = error_reply(
                Value::Null,
                INVALID_REQUEST,
                &format!("message of {length} bytes is larger than the limit of {MAX_BODY_BYTES} bytes; skipped"),
            );
            reply.extend(show_error(&format!(
                "agentws refused a message of {length} bytes (the limit is {} MiB): a document it \
                 carried is not analysed, and a request in it gets no answer",
                MAX_BODY_BYTES >> 20
            )));
            return Ok(Some(Inbound::Reply(reply)));
        }
        let mut body = Vec::with_capacity(length as usize);
        let read = (&mut self.input).take(length).read_to_end(&mut body)?;
        self.consumed += read as u64;
        if (read as u64) < length {
            return Ok(None);
        }
        Ok(Some(check_body_with(body, self.direct.as_ref())))
    }

    fn skip_bytes(&mut self, n: u64) -> io::Result<u64> {
        let skipped = io::copy(&mut (&mut self.input).take(n), &mut io::sink())?;
        self.consumed += skipped;
        Ok(skipped)
    }

    /// One chunk of a header line: up to `limit` bytes, ending at the first `\n`. The carry of a
    /// resynchronising scan comes first.
    fn read_chunk(&mut self, limit: usize, chunk: &mut Vec<u8>) -> io::Result<usize> {
        chunk.clear();
        chunk.append(&mut self.carry);
        let n = (&mut self.input)
            .take(limit.saturating_sub(chunk.len()) as u64)
            .read_until(b'\n', chunk)?;
        self.consumed += n as u64;
        Ok(if n == 0 && chunk.is_empty() {
            0
        } else {
            chunk.len()
        })
    }

    /// Reads one header block, up to and including its blank line. Never holds more than
    /// `MAX_HEADER_BYTES` + 1 bytes of it: a longer block is read on to its end and reported.
    fn read_header(&mut self) -> io::Result<HeaderOutcome> {
        let mut header = HeaderBlock::default();
        let mut chunk = Vec::new();
        // False while reading the rest of a line longer than one chunk.
        let mut at_line_start = true;
        loop {
            if self.read_chunk(MAX_HEADER_BYTES + 1, &mut chunk)? == 0 {
                return Ok(HeaderOutcome::Eof);
            }
            let complete = chunk.ends_with(b"\n");
            let whole_line = at_line_start && complete;
            at_line_start = complete;
            header.total += chunk.len();
            if whole_line {
                let line = chunk.strip_suffix(b"\n").unwrap_or(&chunk);
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if line.is_empty() {
                    if header.lines == 0 {
                        // Stray blank lines between frames are tolerated.
                        header.total = 0;
                        continue;
                    }
                    break;
                }
                header.line(line);
            } else {
                // Part of a line longer than the whole block may be (or the end of input).
                header.lines += 1;
            }
            if header.total > MAX_HEADER_BYTES {
                header.problem(format!("header block longer than {MAX_HEADER_BYTES} bytes"));
            }
        }
        Ok(header.outcome())
    }

    /// Reads up to the next `Content-Length:` that is not inside a JSON string (a raw line break
    /// ends a string: JSON has none inside one) and leaves it as the carry of the next header.
    /// `false` at the end of input.
    fn scan_to_next_header(&mut self) -> io::Result<bool> {
        let mut scan = HeaderScan::default();
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(b) => b,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if buffer.is_empty() {
                return Ok(false);
            }
            let (used, found) = scan.feed(buffer);
            self.input.consume(used);
            self.consumed += used as u64;
            if found {
                self.carry = b"Content-Length:".to_vec();
                return Ok(true);
            }
        }
    }
}

/// A streaming search for [`LENGTH_HEADER`] outside JSON strings.
#[derive(Default)]
struct HeaderScan {
    in_string: bool,
    escaped: bool,
    matched: usize,
}

impl HeaderScan {
    /// Bytes of `input` used, and whether the header name was found (its last byte is the last
    /// byte used).
    fn feed(&mut self, input: &[u8]) -> (usize, bool) {
        for (i, &byte) in input.iter().enumerate() {
            if byte == b'\n' || byte == b'\r' {
                self.in_string = false;
                self.escaped = false;
                self.matched = 0;
            } else if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if byte == b'\\' {
                    self.escaped = true;
                } else if byte == b'"' {
                    self.in_string = false;
                }
            } else if byte == b'"' {
                self.in_string = true;
                self.matched = 0;
            } else {
                // No proper prefix of the name recurs inside it, so a mismatch restarts at 0.
                if byte.eq_ignore_ascii_case(&LENGTH_HEADER[self.matched]) {
                    self.matched += 1;
                } else {
                    self.matched = usize::from(byte.eq_ignore_ascii_case(&LENGTH_HEADER[0]));
                }
                if self.matched == LENGTH_HEADER.len() {
                    *self = HeaderScan::default();
                    return (i + 1, true);
                }
            }
        }
        (input.len(), false)
    }
}

/// The header lines of one frame as they are read (only what decides the outcome is kept, so an
/// endless header block takes no memory).
#[derive(Default)]
struct HeaderBlock {
    length: Lengths,
    first_problem: Option<String>,
    lines: usize,
    total: usize,
}

/// The `Content-Length` values of one header block.
#[derive(Default, Clone, Copy, PartialEq)]
enum Lengths {
    #[default]
    None,
    /// One value, or several equal ones.
    Agreed(u64),
    /// Values that differ, or one that is not a number.
    Unknown,
}

impl HeaderBlock {
    fn problem(&mut self, message: String) {
        self.first_problem.get_or_insert(message);
    }

    fn line(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let (name, value) = match text.split_once(':') {
            Some((name, value)) if is_token(name) => (name, value),
            _ => {
                if let Some(at) = rfind_ignore_case(line, LENGTH_HEADER) {
                    // The rest of an earlier frame (a body longer than its Content-Length said,
                    // or one sent without a header) runs into this header: drop what comes
                    // before it, and whatever this block held so far.
                    tracing::warn!("dropped bytes that were not a header before `Content-Length`");
                    *self = HeaderBlock {
                        total: line.len() - at,
                        ..HeaderBlock::default()
                    };
                    return self.line(&line[at..]);
                }
                self.lines += 1;
                let shown: String = text.chars().take(80).collect();
                return self.problem(format!("malformed header line `{shown}`"));
            }
        };
        self.lines += 1;
        if !name.eq_ignore_ascii_case("content-length") {
            return;
        }
        let value = value.trim_matches([' ', '\t']);
        let parsed = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
            .then(|| value.parse::<u64>().ok())
            .flatten();
        match parsed {
            None => {
                let shown: String = value.chars().take(40).collect();
                self.problem(format!("invalid Content-Length `{shown}`"));
                self.length = Lengths::Unknown;
            }
            Some(n) => {
                if self.length != Lengths::None {
                    self.problem("more than one Content-Length header".into());
                }
                self.length = match self.length {
                    Lengths::None => Lengths::Agreed(n),
                    Lengths::Agreed(m) if m == n => Lengths::Agreed(n),
                    _ => Lengths::Unknown,
                };
            }
        }
    }

    fn outcome(self) -> HeaderOutcome {
        let length = match self.length {
            Lengths::Agreed(n) => Some(n),
            Lengths::None | Lengths::Unknown => None,
        };
        match (self.first_problem, length) {
            (None, Some(n)) => HeaderOutcome::Length(n),
            (None, None) => HeaderOutcome::Bad {
                message: "missing Content-Length header".into(),
                length: None,
            },
            (Some(message), length) => HeaderOutcome::Bad { message, length },
        }
    }
}

/// An HTTP header name (RFC 9110 token).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn rfind_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    (0..=haystack.len().checked_sub(needle.len())?)
        .rev()
        .find(|&i| haystack[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

enum HeaderOutcome {
    Eof,
    Length(u64),
    /// A header block that is not acceptable; `length` is the body length it names, when it
    /// names one unambiguously.
    Bad {
        message: String,
        length: Option<u64>,
    },
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
    // The library decodes `jsonrpc` as exactly "2.0"; checking first keeps a message with another
    // version away from the direct answers too.
    let decodes = value.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && (serde_json::from_value::<Request>(value.clone()).is_ok()
            || serde_json::from_value::<Response>(value.clone()).is_ok());
    if !decodes {
        return Inbound::Reply(error_reply(
            id,
            INVALID_REQUEST,
            "not a JSON-RPC 2.0 request, notification or response",
        ));
    }
    let method = value.get("method").and_then(Value::as_str);
    if let (Some(method), false) = (method, id.is_null()) {
        // LSP: a request (not a notification) whose method starts with `$/` is answered with
        // MethodNotFound; the library would drop it unanswered.
        if method.starts_with("$/") {
            return Inbound::Reply(error_reply(
                id,
                METHOD_NOT_FOUND,
                &format!("method `{method}` not found: `$/` methods are notifications"),
            ));
        }
        if let Some(direct) = direct {
            let params = value.get("params").unwrap_or(&Value::Null);
            if let Some(answer) = direct(method, params) {
                let body = match answer {
                    Ok(result) => json!({"jsonrpc": "2.0", "result": result, "id": id}),
                    Err(error) => json!({"jsonrpc": "2.0", "error": error, "id": id}),
                };
                return Inbound::Answer(frame(body.to_string().as_bytes()));
            }
        }
    }
    if method == Some("exit") {
        Inbound::Exit(frame(&body))
    } else {
        Inbound::Message(frame(&body))
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

    const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"#;
    const NOTE: &[u8] = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;

    /// `bad` (a malformed header block and what follows it) then a good request: exactly one
    /// -32700 whose message contains `message`, then the request itself.
    fn resynchronises(bad: &[u8], message: &str) {
        let mut input = bad.to_vec();
        input.extend(frame(REQUEST));
        let items = read_all(&input);
        assert_eq!(
            items.len(),
            2,
            "{:?}: {items:?}",
            String::from_utf8_lossy(bad)
        );
        let reply = reply_text(&items[0]);
        assert!(reply.contains(r#""code":-32700"#), "{reply}");
        assert!(reply.contains(r#""id":null"#), "{reply}");
        assert!(reply.contains(message), "{reply} lacks {message}");
        assert_eq!(items[1], Inbound::Message(frame(REQUEST)));
    }

    fn with_body(header: &str, body: &[u8]) -> Vec<u8> {
        let mut out = header.as_bytes().to_vec();
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn a_length_that_is_not_a_number_skips_its_body_by_scanning() {
        resynchronises(
            &with_body("Content-Length: abc\r\n\r\n", NOTE),
            "invalid Content-Length `abc`",
        );
        resynchronises(
            &with_body("Content-Length: -5\r\n\r\n", NOTE),
            "invalid Content-Length `-5`",
        );
        resynchronises(
            &with_body("Content-Length: 99999999999999999999999\r\n\r\n", NOTE),
            "invalid Content-Length",
        );
        // No body at all.
        resynchronises(
            b"Content-Length: nope\r\n\r\n",
            "invalid Content-Length `nope`",
        );
    }

    #[test]
    fn a_missing_length_skips_its_body_by_scanning() {
        resynchronises(
            &with_body("X-Other: 1\r\n\r\n", NOTE),
            "missing Content-Length",
        );
        // A body that mentions the header inside its strings does not fool the scan, nor does a
        // pretty-printed body with line breaks.
        let tricky = br#"{"jsonrpc":"2.0","method":"x","params":{"t":"Content-Length: 3\r\n\"Content-Length: 4"}}"#;
        resynchronises(
            &with_body("X-Other: 1\r\n\r\n", tricky),
            "missing Content-Length",
        );
        let pretty = b"{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"initialized\"\n}\n";
        resynchronises(
            &with_body("Content-Type: x\r\n\r\n", pretty),
            "missing Content-Length",
        );
    }

    #[test]
    fn a_line_without_a_colon_skips_the_body_it_announces() {
        let header = format!("Content-Length: {}\r\nnot a header\r\n\r\n", NOTE.len());
        resynchronises(
            &with_body(&header, NOTE),
            "malformed header line `not a header`",
        );
        // Before the length too; and with a space in the name.
        let header = format!("garbage\r\nContent-Length: {}\r\n\r\n", NOTE.len());
        resynchronises(&with_body(&header, NOTE), "malformed header line `garbage`");
        let header = format!("Content Type: x\r\nContent-Length: {}\r\n\r\n", NOTE.len());
        resynchronises(&with_body(&header, NOTE), "malformed header line");
    }

    #[test]
    fn a_header_block_over_the_limit_is_read_to_its_end_and_skipped() {
        // One long line after the length.
        let header = format!(
            "Content-Length: {}\r\nX-Pad: {}\r\n\r\n",
            NOTE.len(),
            "a".repeat(MAX_HEADER_BYTES)
        );
        resynchronises(
            &with_body(&header, NOTE),
            "header block longer than 8192 bytes",
        );
        // Many short lines, the length last.
        let header = format!(
            "{}Content-Length: {}\r\n\r\n",
            "X-Pad: 0123456789\r\n".repeat(MAX_HEADER_BYTES / 10),
            NOTE.len()
        );
        resynchronises(
            &with_body(&header, NOTE),
            "header block longer than 8192 bytes",
        );
        // A long line and no length at all.
        let header = format!("X-Pad: {}\r\n\r\n", "a".repeat(3 * MAX_HEADER_BYTES));
        resynchronises(
            &with_body(&header, NOTE),
            "header block longer than 8192 bytes",
        );
    }

    #[test]
    fn a_duplicate_length_is_refused() {
        let n = NOTE.len();
        // The same value twice: the body is skipped by it.
        let header = format!("Content-Length: {n}\r\nContent-Length: {n}\r\n\r\n");
        resynchronises(
            &with_body(&header, NOTE),
            "more than one Content-Length header",
        );
        // Two values: which one is right is unknown, so the body is skipped by scanning.
        let header = format!("Content-Length: {n}\r\ncontent-length: 3\r\n\r\n");
        resynchronises(
            &with_body(&header, NOTE),
            "more than one Content-Length header",
        );
    }

    #[test]
    fn every_malformed_form_in_one_stream_leaves_the_following_frames_served() {
        let n = NOTE.len();
        let mut input = Vec::new();
        for bad in [
            with_body("Content-Length: abc\r\n\r\n", NOTE),
            with_body("X-Other: 1\r\n\r\n", NOTE),
            with_body(
                &format!("Content-Length: {n}\r\nnot a header\r\n\r\n"),
                NOTE,
            ),
            with_body(
                &format!("X-Pad: {}\r\nContent-Length: {n}\r\n\r\n", "a".repeat(9000)),
                NOTE,
            ),
            with_body(
                &format!("Content-Length: {n}\r\nContent-Length: {n}\r\n\r\n"),
                NOTE,
            ),
        ] {
            input.extend(bad);
            input.extend(frame(REQUEST));
        }
        let items = read_all(&input);
        assert_eq!(items.len(), 10);
        for pair in items.chunks(2) {
            assert!(reply_text(&pair[0]).contains(r#""code":-32700"#));
            assert_eq!(pair[1], Inbound::Message(frame(REQUEST)));
        }
    }

    #[test]
    fn the_error_is_returned_before_the_skipped_body_is_read() {
        // The client may wait for the answer before sending anything else: the reply must not
        // depend on bytes that have not arrived.
        let mut reader = FrameReader::new(io::BufReader::new(&b"Content-Length: x\r\n\r\n"[..]));
        assert!(reply_text(&reader.next_frame().unwrap().unwrap()).contains("-32700"));
        assert_eq!(reader.next_frame().unwrap(), None);
    }

    #[test]
    fn bytes_before_a_header_are_dropped_without_an_answer() {
        // A frame whose length was too short: its tail runs into the next header.
        let mut input = frame(&NOTE[..10]);
        input.extend_from_slice(&NOTE[10..]);
        input.extend(frame(REQUEST));
        let items = read_all(&input);
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(reply_text(&items[0]).contains("invalid JSON"));
        assert_eq!(items[1], Inbound::Message(frame(REQUEST)));
        // A body sent without any header.
        let mut input = NOTE.to_vec();
        input.extend(frame(REQUEST));
        assert_eq!(read_all(&input), vec![Inbound::Message(frame(REQUEST))]);
    }

    #[test]
    fn the_reader_consumes_everything_it_is_given() {
        let mut input = with_body("Content-Length: abc\r\n\r\n", NOTE);
        input.extend(b"trailing junk without a header");
        let mut reader = FrameReader::new(io::BufReader::with_capacity(3, &input[..]));
        while reader.next_frame().unwrap().is_some() {}
        assert_eq!(reader.consumed(), input.len() as u64);
    }

    #[test]
    fn dollar_requests_get_method_not_found_and_dollar_notifications_pass() {
        let request = br#"{"jsonrpc":"2.0","id":"r1","method":"$/custom","params":{}}"#;
        let cancel = br#"{"jsonrpc":"2.0","id":5,"method":"$/cancelRequest","params":{"id":1}}"#;
        let notification = br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#;
        let mut input = frame(request);
        input.extend(frame(cancel));
        input.extend(frame(notification));
        let items = read_all(&input);
        let first: Value =
            serde_json::from_str(reply_text(&items[0]).split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(first["id"], "r1");
        assert_eq!(first["error"]["code"], METHOD_NOT_FOUND);
        assert_eq!(
            first["error"]["message"],
            "method `$/custom` not found: `$/` methods are notifications"
        );
        assert!(reply_text(&items[1]).contains(r#""code":-32601"#));
        assert!(reply_text(&items[1]).contains(r#""id":5"#));
        assert_eq!(items[2], Inbound::Message(frame(notification)));
    }

    #[test]
    fn a_jsonrpc_version_other_than_2_0_is_an_invalid_request_with_its_id() {
        for body in [
            r#"{"id":1,"method":"shutdown"}"#,
            r#"{"jsonrpc":2.0,"id":1,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0 ","id":1,"method":"shutdown"}"#,
            r#"{"jsonrpc":"1.0","id":1,"result":null}"#,
            r#"{"jsonrpc":null,"id":1,"method":"$/x"}"#,
        ] {
            let items = read_all(&frame(body.as_bytes()));
            let reply = reply_text(&items[0]);
            assert!(reply.contains(r#""code":-32600"#), "{body}: {reply}");
            assert!(reply.contains(r#""id":1"#), "{body}: {reply}");
        }
    }

    #[test]
    fn a_wrong_version_is_not_answered_directly() {
        let direct: DirectAnswer = std::sync::Arc::new(|_: &str, _: &Value| Some(Ok(Value::Null)));
        let body = br#"{"jsonrpc":"1.0","id":1,"method":"agentws/normalizePath","params":{}}"#;
        let input = frame(body);
        let mut reader =
            FrameReader::new(io::BufReader::new(&input[..])).with_direct_answers(direct);
        let item = reader.next_frame().unwrap().unwrap();
        assert!(reply_text(&item).contains(r#""code":-32600"#));
    }
}
