//! The client side of the language server's wire: a message framed as the base protocol says
//! (`Content-Length` header, JSON body), and a thread that reads the server's frames into a
//! channel with the time each arrived. Shared by `#[path]` between the end-to-end tests' client
//! (tests/e2e/lsp.rs) and `lsp_bench`, so that both speak to the server the same way. Depends on
//! `serde_json` and the standard library only.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{channel, Receiver};
use std::time::Instant;

use serde_json::Value;

/// `body` framed for the server's standard input.
pub fn frame(body: &str) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// Reads frames from the server's standard output on a thread of its own until it closes; each
/// message comes with the time it was read. A frame without a length or with a body that is not
/// JSON panics the reader (the server must never send one), which closes the channel.
pub fn read_frames(stdout: impl Read + Send + 'static) -> Receiver<(Instant, Value)> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    length = v.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.expect("Content-Length")];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let value: Value = serde_json::from_slice(&body).expect("server sent JSON");
            if tx.send((Instant::now(), value)).is_err() {
                return;
            }
        }
    });
    rx
}
