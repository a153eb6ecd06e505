//! MySQL and MariaDB stores: `JdbcStore` with the MySQL dialect (table `agentscope_store`,
//! `namespace_path` of `\x1F`-terminated segments). One query per owner with the runtime's `LIKE
//! … ESCAPE '!'` prefix; the session is set to read-only transactions first. The server's default
//! collation is case- and accent-insensitive, so rows of `Alice` come back when listing `alice`
//! (RS012). TLS with `ssl-mode=REQUIRED` (rustls). Depends only on the store module.

use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder, SslOpts};

use super::sqlite::{jdbc_like, jdbc_namespace, split_jdbc};
use super::{Backend, RawItem, Scan, StoreError, StoreSpec};
use crate::base::files::MAX_TEXT_BYTES;
use crate::rules::store::store_id_collation;

pub struct MysqlBackend {
    conn: Conn,
    table: String,
    spec: StoreSpec,
}

impl MysqlBackend {
    pub fn open(spec: &StoreSpec) -> Result<Self, StoreError> {
        // The driver knows `mysql://` only; `mariadb://` is the same protocol.
        let url = match spec.secret_url().split_once("://") {
            Some((_, rest)) => format!("mysql://{rest}"),
            None => spec.secret_url().to_string(),
        };
        let (url, require_tls) =
            super::take_ssl_mode(&url).map_err(|e| spec.error("invalid MySQL URL", e))?;
        let opts = Opts::from_url(&url).map_err(|e| spec.error("invalid MySQL URL", e))?;
        let io = super::redis::read_timeout(spec.connect_timeout);
        // TLS when asked for (`ssl-mode=REQUIRED`) or when the URL names TLS files
        // (`root_cert_path=…`, which the driver reads itself).
        let ssl = match opts.get_ssl_opts() {
            Some(ssl) => Some(ssl.clone()),
            None if require_tls => Some(SslOpts::default()),
            None => None,
        };
        let builder = OptsBuilder::from_opts(opts)
            .ssl_opts(ssl)
            .tcp_connect_timeout(Some(spec.connect_timeout))
            .read_timeout(Some(io))
            .write_timeout(Some(io));
        let mut conn = Conn::new(builder).map_err(|e| match e {
            // The driver refuses before any plain-text exchange; say what to change.
            mysql::Error::DriverError(mysql::DriverError::TlsNotSupported) => spec.error(
                "cannot connect to the MySQL store",
                "the server does not support TLS, which ssl-mode asks for \
                 (serve TLS on the server, or use ssl-mode=DISABLED)",
            ),
            e => spec.error("cannot connect to the MySQL store", e),
        })?;
        conn.query_drop("SET SESSION TRANSACTION READ ONLY")
            .map_err(|e| spec.error("cannot connect to the MySQL store", e))?;
        Ok(Self {
            conn,
            table: spec.table.clone(),
            spec: spec.clone(),
        })
    }

    fn fail(&self, e: mysql::Error) -> StoreError {
        self.spec.error("reading the MySQL store failed", e)
    }
}

fn text(v: Option<Vec<u8>>) -> Option<String> {
    v.map(|b| String::from_utf8_lossy(&b).into_owned())
}

impl Backend for MysqlBackend {
    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let sql = format!(
            "SELECT namespace_path, item_key, \
             CASE WHEN LENGTH(value_json) > ? THEN NULL ELSE value_json END, \
             LENGTH(value_json) \
             FROM {} WHERE namespace_path LIKE ? ESCAPE '!' ORDER BY namespace_path, item_key",
            self.table
        );
        let limit = MAX_TEXT_BYTES as i64;
        type Row = (
            Option<Vec<u8>>,
            Option<Vec<u8>>,
            Option<Vec<u8>>,
            Option<i64>,
        );
        let rows: Vec<Row> = self
            .conn
            .exec(&sql, (limit, jdbc_like(base)))
            .map_err(|e| self.fail(e))?;
        let exact = jdbc_namespace(base);
        let mut scan = Scan::default();
        for (ns, key, value, size) in rows {
            let ns_text = text(ns).unwrap_or_default();
            let key = text(key).unwrap_or_default();
            let namespace = split_jdbc(&ns_text);
            if !ns_text.starts_with(&exact) {
                scan.problems.push((
                    namespace.clone(),
                    key,
                    &store_id_collation::RULE,
                    format!(
                        "row of namespace `{}` is listed under `{}`: the server's collation ignores case and accents",
                        namespace.join("/").escape_debug(),
                        base.join("/").escape_debug()
                    ),
                ));
                continue;
            }
            scan.items.push(RawItem {
                namespace,
                key,
                value: text(value),
                oversized: size.filter(|s| *s > limit).map(|s| s as u64),
            });
        }
        Ok(scan)
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let sql = format!(
            "SELECT DISTINCT namespace_path FROM {} WHERE namespace_path LIKE ? ESCAPE '!'",
            self.table
        );
        let rows: Vec<Option<Vec<u8>>> = self
            .conn
            .exec(&sql, (jdbc_like(prefix),))
            .map_err(|e| self.fail(e))?;
        Ok(rows
            .into_iter()
            .map(|r| split_jdbc(&text(r).unwrap_or_default()))
            .collect())
    }
}
