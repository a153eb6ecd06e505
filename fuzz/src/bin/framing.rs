//! The LSP framing guard over an arbitrary byte stream: terminates, consumes the input
//! monotonically and completely, and every frame it emits is a well-formed frame.

use std::io::BufReader;

use agentws::lsp::framing::{FrameReader, Inbound};
use serde_json::Value;

/// Splits emitted bytes into their frames; panics unless they are one or more
/// `Content-Length: N\r\n\r\n` + N bytes of JSON, back to back.
fn bodies(mut frames: &[u8]) -> Vec<Value> {
    let mut out = Vec::new();
    while !frames.is_empty() {
        let end = frames
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("no header end");
        let header = std::str::from_utf8(&frames[..end]).expect("header not UTF-8");
        let length: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .expect("bad emitted header");
        let rest = &frames[end + 4..];
        assert!(length <= rest.len(), "emitted length past the end");
        out.push(serde_json::from_slice(&rest[..length]).expect("emitted body not JSON"));
        frames = &rest[length..];
    }
    out
}

/// The one frame of `bytes`.
fn body(bytes: &[u8]) -> Value {
    let mut frames = bodies(bytes);
    assert_eq!(frames.len(), 1, "one frame expected");
    frames.remove(0)
}

fn main() {
    afl::fuzz!(|data: &[u8]| {
        // A small buffer makes the reader cross buffer boundaries inside headers and names.
        let mut reader = FrameReader::new(BufReader::with_capacity(7, data));
        let mut last = 0;
        let mut frames = 0;
        while let Some(item) = reader.next_frame().expect("reading a slice cannot fail") {
            frames += 1;
            assert!(frames <= data.len() + 1, "more frames than bytes");
            let consumed = reader.consumed();
            assert!(consumed >= last && consumed <= data.len() as u64);
            last = consumed;
            match item {
                Inbound::Reply(bytes) => {
                    // The error response, then possibly a message the user sees about it.
                    let frames = bodies(&bytes);
                    let code = frames[0]["error"]["code"].as_i64().expect("reply without code");
                    assert!([-32700, -32600, -32601].contains(&code), "code {code}");
                    for notice in &frames[1..] {
                        assert_eq!(notice["method"], "window/showMessage");
                    }
                }
                Inbound::Message(bytes) | Inbound::Exit(bytes) | Inbound::Answer(bytes) => {
                    let value = body(&bytes);
                    assert_eq!(value["jsonrpc"], "2.0");
                }
            }
        }
        assert_eq!(
            reader.consumed(),
            data.len() as u64,
            "input not read to its end"
        );
    });
}
