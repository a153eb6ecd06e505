//! Time limits and cancellation of store I/O (docs/stores.md, "Time limits").
//!
//! A network backend owns a [`Driver`]: a small current-thread runtime on which the async client
//! library runs, one step at a time (connecting, the TLS handshake, logging in, each query), each
//! step under its own deadline of `connect_timeout`. When the deadline passes, or the read is
//! cancelled, the step's future is dropped and with it the socket, whatever the client library
//! would have waited for, and the error says which step it was. The caller blocks: store reads run
//! on a thread where blocking is allowed (the command line's, or a language server's blocking
//! pool), never on an async runtime's worker, where `block_on` is refused.
//!
//! Depends only on the store module's error type.

use std::future::Future;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::StoreError;

/// Cancels a store read from another thread (the language server's `$/cancelRequest`, or a newer
/// request for the same preview). Cheap to clone; every clone cancels the same read.
#[derive(Clone, Debug, Default)]
pub struct Cancel(tokio_util::sync::CancellationToken);

impl Cancel {
    /// A read that is never cancelled (the command line).
    pub fn never() -> Cancel {
        Cancel::default()
    }

    pub fn cancel(&self) {
        self.0.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    async fn cancelled(&self) {
        self.0.cancelled().await
    }
}

/// The message of a read given up because it was cancelled.
pub const CANCELLED: &str = "the store read was cancelled";

/// What a store read waits for the server to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Connect = 0,
    Tls = 1,
    Login = 2,
    /// Connecting, the TLS handshake and logging in, when the client library does them in one
    /// call that cannot be told apart (MySQL, Redis).
    Open = 3,
    Query = 4,
}

impl Step {
    fn doing(self) -> &'static str {
        match self {
            Step::Connect => "connecting to",
            Step::Tls => "negotiating TLS with",
            Step::Login => "logging in to",
            Step::Open => "connecting and logging in to",
            Step::Query => "reading from",
        }
    }

    fn from_u8(v: u8) -> Step {
        match v {
            0 => Step::Connect,
            1 => Step::Tls,
            2 => Step::Login,
            3 => Step::Open,
            _ => Step::Query,
        }
    }
}

/// The step a client library has reached inside one call, set from its hooks (PostgreSQL's TLS
/// connector is called once the TCP connection stands, and returns once TLS is negotiated).
#[derive(Clone, Debug)]
pub struct Progress(Arc<AtomicU8>);

impl Progress {
    pub fn new(step: Step) -> Progress {
        Progress(Arc::new(AtomicU8::new(step as u8)))
    }

    pub fn set(&self, step: Step) {
        self.0.store(step as u8, Ordering::SeqCst);
    }

    pub fn get(&self) -> Step {
        Step::from_u8(self.0.load(Ordering::SeqCst))
    }
}

/// Runs one network store's client library, step by step, each under its deadline.
pub struct Driver {
    runtime: tokio::runtime::Runtime,
    timeout: Duration,
    cancel: Cancel,
    /// "the PostgreSQL server at 127.0.0.1:5432": who did not answer.
    server: String,
}

impl Driver {
    pub fn new(timeout: Duration, cancel: &Cancel, server: String) -> Result<Driver, StoreError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| StoreError::new(format!("cannot start the store's I/O runtime: {e}")))?;
        Ok(Driver {
            runtime,
            timeout,
            cancel: cancel.clone(),
            server,
        })
    }

    pub fn server(&self) -> &str {
        &self.server
    }

    /// Runs `step` to its end, unless its deadline passes or the read is cancelled first; then the
    /// step's future (and any socket it holds) is dropped and the error says what was given up.
    pub fn run<T>(&self, step: Step, future: impl Future<Output = T>) -> Result<T, StoreError> {
        self.run_tracked(&Progress::new(step), future)
    }

    /// [`Driver::run`] of a call whose step `progress` follows (the error names the step reached).
    pub fn run_tracked<T>(
        &self,
        progress: &Progress,
        future: impl Future<Output = T>,
    ) -> Result<T, StoreError> {
        if self.cancel.is_cancelled() {
            return Err(StoreError::new(CANCELLED));
        }
        let outcome = self.runtime.block_on(async {
            tokio::select! {
                biased;
                _ = self.cancel.cancelled() => None,
                done = tokio::time::timeout(self.timeout, future) => Some(done),
            }
        });
        match outcome {
            None => Err(StoreError::new(CANCELLED)),
            Some(Ok(value)) => Ok(value),
            Some(Err(_)) => Err(StoreError::new(timed_out(
                self.timeout,
                progress.get().doing(),
                &self.server,
            ))),
        }
    }

    /// Spawns a task the client library needs driven (PostgreSQL's connection): it runs while a
    /// step runs, and is dropped with the driver.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        self.runtime.spawn(task);
    }
}

/// The error and its causes, as the client library words them: the detail `--verbose` shows.
pub fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// What a failed connection's operating-system error means, in words (`None`: no such error
/// in the chain, or one without a plainer wording).
pub fn io_words(err: &(dyn std::error::Error + 'static), server: &str) -> Option<String> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            return match io.kind() {
                ConnectionRefused => Some(format!(
                    "{server} refused the connection (is the server running, on that port?)"
                )),
                UnexpectedEof | ConnectionReset | ConnectionAborted | BrokenPipe => {
                    Some(format!("{server} closed the connection"))
                }
                NotFound => Some(format!("{server}: no such host")),
                _ => None,
            };
        }
        source = e.source();
    }
    None
}

/// "timed out after 5 s while logging in to the PostgreSQL server at host:port".
pub fn timed_out(timeout: Duration, doing: &str, what: &str) -> String {
    format!(
        "timed out after {} while {doing} {what} (store.connect_timeout)",
        seconds(timeout)
    )
}

/// `5 s`, `1.5 s`.
pub fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// `host:port` as a message shows it (`[::1]:5432` for an IPv6 address).
pub fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_step_past_its_deadline_is_dropped_and_named() {
        let driver = Driver::new(
            Duration::from_millis(200),
            &Cancel::never(),
            "the test server at h:1".into(),
        )
        .unwrap();
        let start = Instant::now();
        let err = driver
            .run(Step::Login, std::future::pending::<()>())
            .unwrap_err();
        assert!(start.elapsed() >= Duration::from_millis(200));
        assert_eq!(
            err.message,
            "timed out after 0.2 s while logging in to the test server at h:1 (store.connect_timeout)"
        );
        assert_eq!(driver.run(Step::Query, async { 7 }).unwrap(), 7);
    }

    #[test]
    fn a_cancelled_read_ends_at_once() {
        let cancel = Cancel::never();
        let driver = Driver::new(Duration::from_secs(60), &cancel, "s".into()).unwrap();
        let other = cancel.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            other.cancel();
        });
        let start = Instant::now();
        let err = driver
            .run(Step::Query, std::future::pending::<()>())
            .unwrap_err();
        canceller.join().unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
        assert_eq!(err.message, CANCELLED);
        // Every later step ends at once too.
        assert_eq!(
            driver.run(Step::Query, async { 1 }).unwrap_err().message,
            CANCELLED
        );
    }

    #[test]
    fn the_step_reached_is_reported() {
        let driver = Driver::new(Duration::from_millis(100), &Cancel::never(), "x".into()).unwrap();
        let progress = Progress::new(Step::Connect);
        let p = progress.clone();
        let err = driver
            .run_tracked(&progress, async move {
                p.set(Step::Tls);
                std::future::pending::<()>().await
            })
            .unwrap_err();
        assert!(
            err.message.contains("while negotiating TLS with x"),
            "{err}"
        );
        assert_eq!(host_port("::1", 5432), "[::1]:5432");
        assert_eq!(seconds(Duration::from_secs(5)), "5 s");
    }
}
