//! PostgreSQL stores: `JdbcStore` with the PostgreSQL dialect and `PostgresBaseStore` (the same
//! table: `namespace_path` of `\x1F`-terminated segments, `item_key`, `value_json`; optional quoted
//! schema). One query per owner with the runtime's `LIKE … ESCAPE '!'` prefix; the session is set
//! to read-only transactions before anything is read. TLS with `sslmode=require` (rustls).
//! Depends only on the store module.

use std::str::FromStr;

use postgres::config::SslMode;
use postgres::{Client, NoTls};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::sqlite::{jdbc_like, jdbc_namespace, split_jdbc};
use super::{Backend, RawItem, Scan, StoreError, StoreSpec};
use crate::base::files::MAX_TEXT_BYTES;

pub struct PostgresBackend {
    client: Client,
    table: String,
    spec: StoreSpec,
}

impl PostgresBackend {
    pub fn open(spec: &StoreSpec) -> Result<Self, StoreError> {
        let (url, client_cert) = super::take_client_cert(spec.secret_url())
            .map_err(|e| spec.error("invalid PostgreSQL URL", e))?;
        let (url, require_tls) =
            super::take_ssl_mode(&url).map_err(|e| spec.error("invalid PostgreSQL URL", e))?;
        if client_cert.is_some() && !require_tls {
            return Err(spec.error(
                "invalid PostgreSQL URL",
                "sslcert and sslkey (a client certificate) need sslmode=require, verify-ca or verify-full",
            ));
        }
        let mut config = postgres::Config::from_str(&url)
            .map_err(|e| spec.error("invalid PostgreSQL URL", e))?;
        let io = super::redis::read_timeout(spec.connect_timeout);
        config
            .connect_timeout(spec.connect_timeout)
            .tcp_user_timeout(io)
            .keepalives(true)
            .application_name("agentws");
        // `sslmode=require` (or `verify-ca`, `verify-full`): TLS, the server's certificate
        // verified against the system's roots (`SSL_CERT_FILE` / `SSL_CERT_DIR` honoured). The
        // default (`prefer`) and `disable` connect without TLS.
        let connected = if require_tls {
            config.ssl_mode(SslMode::Require);
            let tls = match client_cert {
                Some(paths) => client_cert_connector(&paths)
                    .map_err(|e| spec.error("cannot connect to the PostgreSQL store", e))?,
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
            config.connect(tls)
        } else {
            config.connect(NoTls)
        };
        let mut client = connected
            .map_err(|e| spec.error("cannot connect to the PostgreSQL store", message(&e)))?;
        client
            .batch_execute(&format!(
                "SET default_transaction_read_only = on; SET statement_timeout = {}",
                io.as_millis()
            ))
            .map_err(|e| spec.error("cannot connect to the PostgreSQL store", message(&e)))?;
        // `PostgresBaseStore`: `"<schema>"."<table>"` quoted when a schema is set, else unquoted.
        let table = match &spec.schema {
            Some(schema) => format!("\"{schema}\".\"{}\"", spec.table),
            None => spec.table.clone(),
        };
        Ok(Self {
            client,
            table,
            spec: spec.clone(),
        })
    }

    fn fail(&self, e: postgres::Error) -> StoreError {
        self.spec
            .error("reading the PostgreSQL store failed", message(&e))
    }
}

/// The server's own message (`db error` alone says nothing), or the error with its causes.
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

fn message(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

impl Backend for PostgresBackend {
    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let sql = format!(
            "SELECT namespace_path::text, item_key::text, \
             CASE WHEN octet_length(value_json) > $2::bigint THEN NULL ELSE value_json::text END, \
             octet_length(value_json)::bigint \
             FROM {} WHERE namespace_path LIKE $1 ESCAPE '!' ORDER BY namespace_path, item_key",
            self.table
        );
        let limit = MAX_TEXT_BYTES as i64;
        let rows = self
            .client
            .query(&sql, &[&jdbc_like(base), &limit])
            .map_err(|e| self.fail(e))?;
        let exact = jdbc_namespace(base);
        let mut scan = Scan::default();
        for row in rows {
            let ns_text: String = row.try_get(0).map_err(|e| self.fail(e))?;
            if !ns_text.starts_with(&exact) {
                continue;
            }
            let size: Option<i64> = row.try_get(3).map_err(|e| self.fail(e))?;
            scan.items.push(RawItem {
                namespace: split_jdbc(&ns_text),
                key: row.try_get(1).map_err(|e| self.fail(e))?,
                value: row.try_get(2).map_err(|e| self.fail(e))?,
                oversized: size.filter(|s| *s > limit).map(|s| s as u64),
            });
        }
        Ok(scan)
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let sql = format!(
            "SELECT DISTINCT namespace_path::text FROM {} WHERE namespace_path LIKE $1 ESCAPE '!'",
            self.table
        );
        let rows = self
            .client
            .query(&sql, &[&jdbc_like(prefix)])
            .map_err(|e| self.fail(e))?;
        rows.iter()
            .map(|row| {
                row.try_get::<_, String>(0)
                    .map(|t| split_jdbc(&t))
                    .map_err(|e| self.fail(e))
            })
            .collect()
    }
}
