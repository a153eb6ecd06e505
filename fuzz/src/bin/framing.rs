//! The LSP framing guard over an arbitrary byte stream: terminates, consumes the input
//! monotonically and completely, and every frame it emits is a well-formed frame.

use std::io::BufReader;

use agentws::lsp::framing::{FrameReader, Inbound};
use serde_json::Value;

/// Splits one emitted frame; panics unless it is `Content-Length: N\r\n\r\n` + N bytes of JSON.
fn body(frame: &[u8]) -> Value {
    let text = std::str::from_utf8(frame).expect("frame not UTF-8");
    let (header, body) = text.split_once("\r\n\r\n").expect("no header end");
    let length: usize = header
        .strip_prefix("Content-Length: ")
        .and_then(|n| n.parse().ok())
        .expect("bad emitted header");
    assert_eq!(length, body.len(), "emitted length wrong");
    serde_json::from_str(body).expect("emitted body not JSON")
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
                    let value = body(&bytes);
                    let code = value["error"]["code"].as_i64().expect("reply without code");
                    assert!([-32700, -32600, -32601].contains(&code), "code {code}");
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
