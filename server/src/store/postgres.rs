//! PostgreSQL stores: `JdbcStore` with the PostgreSQL dialect and `PostgresBaseStore` (the same
//! table: `namespace_path` of `\x1F`-terminated segments, `item_key`, `value_json`; optional quoted
//! schema). One owner is listed with the runtime's `LIKE … ESCAPE '!'` prefix, many owners at once
//! by the same prefixes compared as strings (`scan_many`); the session is set to read-only
//! transactions before anything is read. TLS with `sslmode=require` (rustls).
//!
//! The async client (`tokio-postgres`) runs on the backend's own [`Driver`], each step under its
//! deadline; a TLS connector wrapper tells the steps of the connection apart (it is called once the
//! TCP connection stands, and returns once TLS is negotiated). Depends only on the store module.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;

use tokio_postgres::config::{Host, SslMode};
use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
use tokio_postgres::{Client, NoTls, Socket};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::io::{self, Driver, Progress, Step};
use super::sqlite::{jdbc_like, jdbc_namespace, split_jdbc};
use super::{RawItem, Scan, StoreBackend, StoreError, StoreSpec};
use crate::base::files::MAX_TEXT_BYTES;

pub struct PostgresBackend {
    client: Client,
    driver: Driver,
    table: String,
    database: String,
    spec: StoreSpec,
}

const CONNECT: &str = "cannot connect to the PostgreSQL store";
const READ: &str = "reading the PostgreSQL store failed";

impl PostgresBackend {
    pub fn open(spec: &StoreSpec, cancel: &io::Cancel) -> Result<Self, StoreError> {
        let invalid = |e: &dyn std::fmt::Display| spec.error("invalid PostgreSQL URL", e);
        let (url, client_cert) =
            super::take_client_cert(spec.secret_url()).map_err(|e| invalid(&e))?;
        let (url, require_tls) = super::take_ssl_mode(&url).map_err(|e| invalid(&e))?;
        if client_cert.is_some() && !require_tls {
            return Err(invalid(
                &"sslcert and sslkey (a client certificate) need sslmode=require, verify-ca or verify-full",
            ));
        }
        let mut config = tokio_postgres::Config::from_str(&url).map_err(|e| invalid(&e))?;
        let host = match config.get_hosts().first() {
            Some(Host::Tcp(host)) => host.clone(),
            #[cfg(unix)]
            Some(Host::Unix(path)) => path.display().to_string(),
            None => "localhost".to_string(),
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let database = config
            .get_dbname()
            .or(config.get_user())
            .unwrap_or("postgres")
            .to_string();
        let server = format!("the PostgreSQL server at {}", io::host_port(&host, port));
        let driver = Driver::new(spec.connect_timeout, cancel, server)?;
        config.application_name("agentws");
        let progress = Progress::new(Step::Connect);
        // `sslmode=require` (or `verify-ca`, `verify-full`): TLS, the server's certificate
        // verified against the system's roots (`SSL_CERT_FILE` / `SSL_CERT_DIR` honoured). The
        // default (`prefer`) and `disable` connect without TLS.
        let fail = |e: tokio_postgres::Error| words(spec, CONNECT, &e, driver.server(), &database);
        let connected = if require_tls {
            config.ssl_mode(SslMode::Require);
            let tls = match client_cert {
                Some(paths) => client_cert_connector(&paths).map_err(|e| spec.error(CONNECT, e))?,
                None => MakeRustlsConnect::with_native_certs()
                    .map(|(tls, _)| tls)
                    .map_err(|errors| {
                        spec.error(
                            "cannot load the system's TLS root certificates",
                            errors
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("; "),
                        )
                    })?,
            };
            connect(
                &driver,
                &config,
                Tracked::new(tls, &progress, true),
                &progress,
            )
        } else {
            config.ssl_mode(SslMode::Disable);
            connect(
                &driver,
                &config,
                Tracked::new(NoTls, &progress, false),
                &progress,
            )
        };
        let client = connected
            .map_err(|e| spec.within(CONNECT, e))?
            .map_err(fail)?;
        // The server ends a statement at the same deadline as agentws gives up on it.
        driver
            .run(
                Step::Query,
                client.batch_execute(&format!(
                    "SET default_transaction_read_only = on; SET statement_timeout = {}",
                    spec.connect_timeout.as_millis()
                )),
            )
            .map_err(|e| spec.within(CONNECT, e))?
            .map_err(|e| words(spec, CONNECT, &e, driver.server(), &database))?;
        // `PostgresBaseStore`: `"<schema>"."<table>"` quoted when a schema is set, else unquoted.
        let table = match &spec.schema {
            Some(schema) => format!("\"{schema}\".\"{}\"", spec.table),
            None => spec.table.clone(),
        };
        Ok(Self {
            client,
            driver,
            table,
            database,
            spec: spec.clone(),
        })
    }

    fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        self.driver
            .run(Step::Query, self.client.query(sql, params))
            .map_err(|e| self.spec.within(READ, e))?
            .map_err(|e| self.fail(e))
    }

    fn fail(&self, e: tokio_postgres::Error) -> StoreError {
        words(&self.spec, READ, &e, self.driver.server(), &self.database)
    }
}

/// Connects (TCP, TLS, login) within one deadline, the step reached followed by `progress`; the
/// connection's task then runs on the driver.
fn connect<M>(
    driver: &Driver,
    config: &tokio_postgres::Config,
    tls: Tracked<M>,
    progress: &Progress,
) -> Result<Result<Client, tokio_postgres::Error>, StoreError>
where
    M: MakeTlsConnect<Socket>,
    M::TlsConnect: 'static,
    <M::TlsConnect as TlsConnect<Socket>>::Future: Send,
    M::Stream: Send + 'static,
{
    let connected = driver.run_tracked(progress, config.connect(tls))?;
    Ok(connected.map(|(client, connection)| {
        driver.spawn(async move {
            let _ = connection.await;
        });
        client
    }))
}

/// The error in words (the server's own message for a server error, with the table named for a
/// missing one), with the client's report as the detail.
fn words(
    spec: &StoreSpec,
    what: &str,
    e: &tokio_postgres::Error,
    server: &str,
    database: &str,
) -> StoreError {
    let detail = io::chain(e);
    let words = match e.as_db_error() {
        Some(db) if db.code().code() == "42P01" => {
            // `relation "agentscope_store" does not exist`
            let table = db.message().split('"').nth(1).unwrap_or(db.message());
            format!("the table `{table}` does not exist in database `{database}`")
        }
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None if e.is_closed() => format!("{server} closed the connection"),
        None => io::io_words(e, server).unwrap_or_else(|| detail.clone()),
    };
    spec.failure(what, &words, &detail)
}

/// A TLS connector that records the step of the connection it is used in: the TCP connection
/// stands when it is asked for a connector; TLS is negotiated when its handshake returns.
struct Tracked<M> {
    inner: M,
    progress: Progress,
    tls: bool,
}

impl<M> Tracked<M> {
    fn new(inner: M, progress: &Progress, tls: bool) -> Self {
        Tracked {
            inner,
            progress: progress.clone(),
            tls,
        }
    }
}

struct TrackedConnect<T> {
    inner: T,
    progress: Progress,
}

impl<S, M: MakeTlsConnect<S>> MakeTlsConnect<S> for Tracked<M>
where
    M::TlsConnect: 'static,
    <M::TlsConnect as TlsConnect<S>>::Future: Send,
    S: 'static,
{
    type Stream = M::Stream;
    type TlsConnect = TrackedConnect<M::TlsConnect>;
    type Error = M::Error;

    fn make_tls_connect(&mut self, domain: &str) -> Result<Self::TlsConnect, Self::Error> {
        self.progress
            .set(if self.tls { Step::Tls } else { Step::Login });
        Ok(TrackedConnect {
            inner: self.inner.make_tls_connect(domain)?,
            progress: self.progress.clone(),
        })
    }
}

impl<S: 'static, T: TlsConnect<S> + 'static> TlsConnect<S> for TrackedConnect<T>
where
    T::Future: Send,
{
    type Stream = T::Stream;
    type Error = T::Error;
    type Future = Pin<Box<dyn Future<Output = Result<T::Stream, T::Error>> + Send>>;

    fn connect(self, stream: S) -> Self::Future {
        let progress = self.progress;
        let handshake = self.inner.connect(stream);
        Box::pin(async move {
            let done = handshake.await;
            progress.set(Step::Login);
            done
        })
    }
}

/// A TLS connector presenting the client certificate of `paths`, the server verified against the
/// system's roots as without one (`SSL_CERT_FILE` / `SSL_CERT_DIR` honoured).
fn client_cert_connector(paths: &super::ClientCertPaths) -> Result<MakeRustlsConnect, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let (cert, key) = paths.read()?;
    let chain = CertificateDer::pem_slice_iter(&cert)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("client certificate `{}`: {e}", paths.cert.display()))?;
    let key = PrivateKeyDer::from_pem_slice(&key)
        .map_err(|e| format!("client key `{}`: {e}", paths.key.display()))?;
    let native = rustls_native_certs::load_native_certs();
    if native.certs.is_empty() {
        let errors: Vec<String> = native.errors.iter().map(ToString::to_string).collect();
        return Err(format!(
            "cannot load the system's TLS root certificates: {}",
            errors.join("; ")
        ));
    }
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(native.certs);
    let config = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_client_auth_cert(chain, key)
        .map_err(|e| format!("client certificate `{}`: {e}", paths.cert.display()))?;
    Ok(MakeRustlsConnect::new(config))
}

/// The columns every listing selects: namespace, key, the value unless it is over `$1` bytes,
/// and the value's length.
const ROW_COLUMNS: &str = "namespace_path::text, item_key::text, \
     CASE WHEN octet_length(value_json) > $1::bigint THEN NULL ELSE value_json::text END, \
     octet_length(value_json)::bigint";

impl PostgresBackend {
    /// One listed row as a [`RawItem`], with its namespace's text.
    fn item(&self, row: &tokio_postgres::Row) -> Result<(String, RawItem), StoreError> {
        let ns_text: String = row.try_get(0).map_err(|e| self.fail(e))?;
        let size: Option<i64> = row.try_get(3).map_err(|e| self.fail(e))?;
        let item = RawItem {
            namespace: split_jdbc(&ns_text),
            key: row.try_get(1).map_err(|e| self.fail(e))?,
            value: row.try_get(2).map_err(|e| self.fail(e))?,
            oversized: size
                .filter(|s| *s > MAX_TEXT_BYTES as i64)
                .map(|s| s as u64),
        };
        Ok((ns_text, item))
    }

    /// The rows of every base of `bases`, in one query: a row is a base's when its namespace
    /// starts with the base's namespace, which is what the runtime's `LIKE` prefix matches
    /// (PostgreSQL refuses `LIKE` under a collation that is not deterministic). Compared as
    /// `left(namespace_path, n) = ANY(…)`, one array per length, the table is read once for the
    /// batch, where the `LIKE` of each owner reads all of it under any collation but `C`.
    fn scan_prefixes(&self, bases: &[Vec<String>]) -> Result<Vec<Scan>, StoreError> {
        let exacts: Vec<String> = bases.iter().map(|base| jdbc_namespace(base)).collect();
        let mut by_length: BTreeMap<i32, HashMap<&str, Vec<usize>>> = BTreeMap::new();
        for (index, exact) in exacts.iter().enumerate() {
            let length = i32::try_from(exact.chars().count()).unwrap_or(i32::MAX);
            by_length
                .entry(length)
                .or_default()
                .entry(exact.as_str())
                .or_default()
                .push(index);
        }
        let limit = MAX_TEXT_BYTES as i64;
        let lengths: Vec<i32> = by_length.keys().copied().collect();
        let arrays: Vec<Vec<&str>> = by_length
            .values()
            .map(|m| m.keys().copied().collect())
            .collect();
        let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&limit];
        let mut tests = Vec::new();
        for (length, array) in lengths.iter().zip(&arrays) {
            tests.push(format!(
                "left(namespace_path::text, ${}) = ANY(${}::text[])",
                params.len() + 1,
                params.len() + 2
            ));
            params.push(length);
            params.push(array);
        }
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM {} WHERE {} ORDER BY namespace_path, item_key",
            self.table,
            tests.join(" OR ")
        );
        let mut scans: Vec<Scan> = bases.iter().map(|_| Scan::default()).collect();
        for row in self.query(&sql, &params)? {
            let (ns_text, item) = self.item(&row)?;
            let owners = by_length.iter().filter_map(|(length, exacts)| {
                let end = ns_text
                    .char_indices()
                    .nth(usize::try_from(*length).ok()?)
                    .map_or(ns_text.len(), |(at, _)| at);
                exacts.get(&ns_text[..end])
            });
            for index in owners.flatten() {
                scans[*index].items.push(item.clone());
            }
        }
        Ok(scans)
    }
}

impl StoreBackend for PostgresBackend {
    fn scan_many(&mut self, bases: &[Vec<String>]) -> Vec<Result<Scan, StoreError>> {
        super::each_base(bases, self.scan_prefixes(bases))
    }

    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM {} WHERE namespace_path LIKE $2 ESCAPE '!' \
             ORDER BY namespace_path, item_key",
            self.table
        );
        let limit = MAX_TEXT_BYTES as i64;
        let rows = self.query(&sql, &[&limit, &jdbc_like(base)])?;
        let exact = jdbc_namespace(base);
        let mut scan = Scan::default();
        for row in rows {
            let (ns_text, item) = self.item(&row)?;
            if ns_text.starts_with(&exact) {
                scan.items.push(item);
            }
        }
        Ok(scan)
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let sql = format!(
            "SELECT DISTINCT namespace_path::text FROM {} WHERE namespace_path LIKE $1 ESCAPE '!'",
            self.table
        );
        let rows = self.query(&sql, &[&jdbc_like(prefix)])?;
        rows.iter()
            .map(|row| {
                row.try_get::<_, String>(0)
                    .map(|t| split_jdbc(&t))
                    .map_err(|e| self.fail(e))
            })
            .collect()
    }
}
