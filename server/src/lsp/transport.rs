//! Wiring stdio to the tower-lsp-server service: a reader thread runs the framing guard on stdin,
//! valid frames go to the library's `Server` through an in-memory pipe, its output and the guard's
//! error replies and the frames the server serializes itself ([`frames_channel`]) are merged frame
//! by frame onto stdout.
//!
//! Memory stays bounded when the client stops reading: every hop is a bounded channel or pipe, so
//! a blocked stdout stalls the service, which stops reading its input pipe, which stalls the guard,
//! which stops reading stdin (backpressure all the way to the client). Knows nothing of LSP methods.

use std::io::BufReader;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tower_lsp_server::{ClientSocket, LanguageServer, LspService, Server};

use super::framing::{DirectAnswer, FrameReader, Inbound};

/// Bytes buffered in each in-memory pipe.
const PIPE_BYTES: usize = 1024 * 1024;
/// Frames buffered between the stdin thread and the service.
const INBOUND_FRAMES: usize = 16;
/// Most bytes gathered into one stdout write.
const BATCH_BYTES: usize = 1024 * 1024;
/// How long answers already computed get to reach stdout after `exit`.
const EXIT_GRACE: Duration = Duration::from_millis(100);
/// After `exit` or the end of input, the process ends within this time whatever is still
/// running (the orderly stop normally takes `EXIT_GRACE` or two).
const EXIT_DEADLINE: Duration = Duration::from_millis(500);

/// Ends the process at once (with the exit code the protocol asks for); called by a watchdog
/// when the orderly stop takes longer than `EXIT_DEADLINE`.
pub type HardExit = Box<dyn FnOnce() + Send>;

/// The channel of whole frames for stdout besides the service's own output: the guard's error
/// replies, and the notifications the server serializes itself (`backend::Frames`). Frames sent
/// on it reach stdout in the order they were sent; bounded, like every other hop.
pub fn frames_channel() -> (mpsc::Sender<Vec<u8>>, mpsc::Receiver<Vec<u8>>) {
    mpsc::channel::<Vec<u8>>(INBOUND_FRAMES)
}

/// Serves `service` on stdin/stdout until `exit` or the end of input; `frames` is the channel
/// from [`frames_channel`] whose sender the service holds too.
pub async fn serve_stdio<S: LanguageServer>(
    service: LspService<S>,
    socket: ClientSocket,
    frames: (mpsc::Sender<Vec<u8>>, mpsc::Receiver<Vec<u8>>),
    direct: DirectAnswer,
    hard_exit: HardExit,
) {
    let (inbound_tx, mut inbound_rx) = mpsc::channel::<Inbound>(INBOUND_FRAMES);
    std::thread::Builder::new()
        .name("agentws-stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut reader = FrameReader::new(BufReader::with_capacity(64 * 1024, stdin.lock()))
                .with_direct_answers(direct);
            let end = |hard_exit: HardExit| {
                // Nothing pending (a handler in synchronous work, a blocking task) may delay
                // the end: the watchdog ends the process if the orderly stop has not.
                let _ = std::thread::Builder::new()
                    .name("agentws-exit".into())
                    .spawn(move || {
                        std::thread::sleep(EXIT_DEADLINE);
                        hard_exit();
                    });
            };
            loop {
                match reader.next_frame() {
                    Ok(Some(item)) => {
                        let is_exit = matches!(item, Inbound::Exit(_));
                        if is_exit {
                            end(hard_exit);
                            let _ = inbound_tx.blocking_send(item);
                            return;
                        }
                        if inbound_tx.blocking_send(item).is_err() {
                            return;
                        }
                    }
                    Ok(None) => break,
                    Err(err) => {
                        tracing::error!("reading stdin: {err}");
                        break;
                    }
                }
            }
            end(hard_exit);
        })
        .expect("spawning the stdin thread");

    let (mut to_service, service_input) = tokio::io::duplex(PIPE_BYTES);
    let (service_output, from_service) = tokio::io::duplex(PIPE_BYTES);
    let (reply_tx, reply_rx) = frames;
    let exit_seen = std::sync::Arc::new(tokio::sync::Notify::new());
    let exit_signal = exit_seen.clone();

    tokio::spawn(async move {
        while let Some(item) = inbound_rx.recv().await {
            match item {
                Inbound::Message(bytes) => {
                    if to_service.write_all(&bytes).await.is_err() {
                        return;
                    }
                }
                Inbound::Exit(bytes) => {
                    // Signal first: the service may not be reading its input (all its request
                    // slots busy), and the write would wait for it.
                    exit_signal.notify_one();
                    let _ = to_service.write_all(&bytes).await;
                    return;
                }
                Inbound::Answer(bytes) => {
                    if reply_tx.send(bytes).await.is_err() {
                        return;
                    }
                }
                Inbound::Reply(bytes) => {
                    tracing::warn!("answered a malformed message with an error");
                    if reply_tx.send(bytes).await.is_err() {
                        return;
                    }
                }
            }
        }
        // End of stdin: closing the pipe ends the service; like `exit`, do not wait for handlers
        // that still expect an answer from a client that is gone.
        let _ = to_service.shutdown().await;
        exit_signal.notify_one();
    });

    let writer = tokio::spawn(write_stdout(from_service, reply_rx));

    let serve = Server::new(service_input, service_output, socket).serve(service);
    tokio::select! {
        _ = serve => {}
        // A handler still waiting for a client answer would keep the service alive after `exit`;
        // the protocol says to stop now. The grace period lets answers already computed reach
        // the writer.
        _ = exit_seen.notified() => tokio::time::sleep(EXIT_GRACE).await,
    }
    // Let the writer drain what is left (it ends when the service drops its output pipe).
    let _ = tokio::time::timeout(EXIT_GRACE, writer).await;
}

/// Copies whole frames from the service and the guard's replies to stdout, never interleaving
/// two frames.
async fn write_stdout(from_service: tokio::io::DuplexStream, mut replies: mpsc::Receiver<Vec<u8>>) {
    let mut stdout = tokio::io::stdout();
    let mut service = ServiceFrames::new(from_service);
    let mut service_open = true;
    let mut replies_open = true;
    // Ends with the service (after `exit`): pending guard replies no longer matter then.
    while service_open {
        // Both branches are cancel-safe: a reply that wins the race leaves the service's frame
        // read so far in `service`, to be completed on the next turn.
        let mut frame = tokio::select! {
            frame = service.next() => match frame {
                Some(frame) => frame,
                None => { service_open = false; continue; }
            },
            reply = replies.recv(), if replies_open => match reply {
                Some(reply) => reply,
                None => { replies_open = false; continue; }
            },
        };
        // Every stdout write is a hop to a blocking thread: send the frames already waiting with
        // this one in one write (whole frames, so nothing interleaves). A frame whose first bytes
        // are buffered is complete soon: the service writes whole frames.
        while service_open && service.has_buffered() && frame.len() < BATCH_BYTES {
            match service.next().await {
                Some(more) => frame.extend_from_slice(&more),
                None => service_open = false,
            }
        }
        while let Ok(more) = replies.try_recv() {
            frame.extend_from_slice(&more);
        }
        if stdout.write_all(&frame).await.is_err() || stdout.flush().await.is_err() {
            return;
        }
    }
}

/// The service's own, well-formed output cut into whole frames (header + body). What was read
/// of a frame stays here between calls, so a `next` dropped by a `select!` loses nothing.
struct ServiceFrames {
    input: tokio::io::BufReader<tokio::io::DuplexStream>,
    /// The start of the next frame(s), as read so far.
    partial: Vec<u8>,
    /// The whole length of the frame at the start of `partial`, once its header is complete.
    frame_len: Option<usize>,
}

impl ServiceFrames {
    fn new(input: tokio::io::DuplexStream) -> Self {
        Self {
            input: tokio::io::BufReader::with_capacity(64 * 1024, input),
            partial: Vec::new(),
            frame_len: None,
        }
    }

    /// Whether bytes of a next frame have arrived.
    fn has_buffered(&self) -> bool {
        !self.partial.is_empty() || !self.input.buffer().is_empty()
    }

    /// The next whole frame; `None` at the end of the output (or if it is not framed).
    /// Cancel-safe: only `fill_buf` awaits, and it takes nothing when cancelled.
    async fn next(&mut self) -> Option<Vec<u8>> {
        loop {
            if self.frame_len.is_none() {
                self.frame_len = match frame_length(&self.partial) {
                    Ok(length) => length,
                    Err(()) => return None,
                };
            }
            if let Some(length) = self.frame_len.filter(|&n| self.partial.len() >= n) {
                let rest = self.partial.split_off(length);
                self.frame_len = None;
                return Some(std::mem::replace(&mut self.partial, rest));
            }
            let read = self.input.fill_buf().await.ok()?;
            if read.is_empty() {
                return None;
            }
            let n = read.len();
            self.partial.extend_from_slice(read);
            self.input.consume(n);
        }
    }
}

/// The whole length (header and body) of the frame `bytes` starts with, once its header is
/// complete; `Err` when the header has no usable `Content-Length` (or no end).
fn frame_length(bytes: &[u8]) -> Result<Option<usize>, ()> {
    const MAX_HEADER: usize = 1024;
    let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else {
        return if bytes.len() > MAX_HEADER {
            Err(())
        } else {
            Ok(None)
        };
    };
    let header = std::str::from_utf8(&bytes[..end]).map_err(|_| ())?;
    let length = header
        .split("\r\n")
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok())
        .ok_or(())?;
    Ok(Some(end + 4 + length))
}
