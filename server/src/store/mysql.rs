//! MySQL and MariaDB stores: `JdbcStore` with the MySQL dialect (table `agentscope_store`,
//! `namespace_path` of `\x1F`-terminated segments). Each owner is listed with the runtime's `LIKE
//! … ESCAPE '!'` prefix, many owners in one statement (`scan_many`); the session is set to
//! read-only transactions first. The server's default
//! collation is case- and accent-insensitive, so rows of `Alice` come back when listing `alice`
//! (RS012). TLS with `ssl-mode=REQUIRED` (rustls).
//!
//! The async client (`mysql_async`) runs on the backend's own [`Driver`], each step under its
//! deadline. The connection stays on the address the URL names: the client's default of
//! reconnecting through the Unix socket the server reports is off (on a machine running two
//! servers, that socket may be another server's), unless the URL names a `socket` itself.
//! Depends only on the store module.

use mysql_async::prelude::Queryable;
use mysql_async::{ClientIdentity, Conn, Opts, OptsBuilder, SslOpts};

use super::io::{self, Driver, Step};
use super::sqlite::{jdbc_like, jdbc_namespace, split_jdbc};
use super::{RawItem, Scan, StoreBackend, StoreError, StoreSpec};
use crate::base::files::MAX_TEXT_BYTES;
use crate::rules::store::store_id_collation;

pub struct MysqlBackend {
    conn: Conn,
    driver: Driver,
    table: String,
    database: String,
    spec: StoreSpec,
}

const CONNECT: &str = "cannot connect to the MySQL store";
const READ: &str = "reading the MySQL store failed";

/// The options of `url` (`mysql://…`) as this backend connects with them: TLS as `ssl-mode` (and
/// the PEM files named) asks, and never through a socket the server reports.
pub fn options(url: &str) -> Result<OptsBuilder, String> {
    // The driver knows `mysql://` only; `mariadb://` is the same protocol.
    let url = match url.split_once("://") {
        Some((_, rest)) => format!("mysql://{rest}"),
        None => url.to_string(),
    };
    let (url, require_tls) = super::take_ssl_mode(&url)?;
    let (url, root) = super::take_param(&url, &["root_cert_path", "sslrootcert"]);
    let (url, chain) = super::take_param(&url, &["cert_chain_path"]);
    let (url, key) = super::take_param(&url, &["priv_key_path"]);
    let (url, libpq_pair) = super::take_client_cert(&url)?;
    let identity = match (chain, key, libpq_pair) {
        (Some(cert), Some(key), None) => Some((cert.into(), key.into())),
        (None, None, Some(paths)) => Some((paths.cert, paths.key)),
        (None, None, None) => None,
        _ => {
            return Err(
                "a client certificate needs both cert_chain_path and priv_key_path (or sslcert and sslkey)"
                    .into(),
            )
        }
    };
    let opts = Opts::from_url(&url).map_err(|e| e.to_string())?;
    // TLS when asked for (`ssl-mode=REQUIRED`) or when the URL names TLS files.
    let ssl = if require_tls || root.is_some() || identity.is_some() {
        let mut ssl = SslOpts::default();
        if let Some(root) = root {
            let pem = super::read_pem("root certificate", std::path::Path::new(&root))?;
            ssl = ssl.with_root_certs(vec![pem.into()]);
        }
        if let Some((cert, key)) = identity {
            let chain = super::read_pem("client certificate", &cert)?;
            let key = super::read_pem("client key", &key)?;
            ssl = ssl.with_client_identity(Some(ClientIdentity::new(chain.into(), key.into())));
        }
        Some(ssl)
    } else {
        None
    };
    let prefer_socket = opts.socket().is_some();
    Ok(OptsBuilder::from_opts(opts)
        .ssl_opts(ssl)
        .prefer_socket(prefer_socket))
}

impl MysqlBackend {
    pub fn open(spec: &StoreSpec, cancel: &io::Cancel) -> Result<Self, StoreError> {
        let builder = options(spec.secret_url()).map_err(|e| spec.error("invalid MySQL URL", e))?;
        let opts = Opts::from(builder);
        let database = opts.db_name().unwrap_or("").to_string();
        let server = match opts.socket() {
            Some(socket) => format!("the MySQL server at socket `{socket}`"),
            None => format!(
                "the MySQL server at {}",
                io::host_port(opts.ip_or_hostname(), opts.tcp_port())
            ),
        };
        let driver = Driver::new(spec.connect_timeout, cancel, server)?;
        let mut conn = driver
            .run(Step::Open, Conn::new(opts))
            .map_err(|e| spec.within(CONNECT, e))?
            .map_err(|e| words(spec, CONNECT, &e, driver.server(), &database))?;
        driver
            .run(
                Step::Query,
                conn.query_drop("SET SESSION TRANSACTION READ ONLY"),
            )
            .map_err(|e| spec.within(CONNECT, e))?
            .map_err(|e| words(spec, CONNECT, &e, driver.server(), &database))?;
        Ok(Self {
            conn,
            driver,
            table: spec.table.clone(),
            database,
            spec: spec.clone(),
        })
    }

    fn exec<T: mysql_async::prelude::FromRow + Send + 'static>(
        &mut self,
        sql: &str,
        params: impl Into<mysql_async::Params> + Send,
    ) -> Result<Vec<T>, StoreError> {
        let result = self
            .driver
            .run(Step::Query, self.conn.exec(sql, params))
            .map_err(|e| self.spec.within(READ, e))?;
        result.map_err(|e| words(&self.spec, READ, &e, self.driver.server(), &self.database))
    }
}

/// The error in words, with the client's report as the detail.
fn words(
    spec: &StoreSpec,
    what: &str,
    e: &mysql_async::Error,
    server: &str,
    database: &str,
) -> StoreError {
    let detail = io::chain(e);
    let words = match e {
        mysql_async::Error::Server(s) if s.code == 1146 => {
            // `Table 'ws.agentscope_store' doesn't exist`
            let table = s.message.split('\'').nth(1).unwrap_or(&s.message);
            let table = table.rsplit('.').next().unwrap_or(table);
            format!("the table `{table}` does not exist in database `{database}`")
        }
        mysql_async::Error::Server(s) if s.code == 1045 => format!(
            "the server refused the user name or password ({} {})",
            s.code, s.state
        ),
        mysql_async::Error::Server(s) => format!("{} ({} {})", s.message, s.code, s.state),
        // The driver refuses before any plain-text exchange; say what to change.
        mysql_async::Error::Driver(mysql_async::DriverError::NoClientSslFlagFromServer) => {
            "the server does not support TLS, which ssl-mode asks for \
             (serve TLS on the server, or use ssl-mode=DISABLED)"
                .to_string()
        }
        mysql_async::Error::Driver(mysql_async::DriverError::ConnectionClosed) => {
            format!("{server} closed the connection")
        }
        _ => io::io_words(e, server).unwrap_or_else(|| detail.clone()),
    };
    spec.failure(what, &words, &detail)
}

fn text(v: Option<Vec<u8>>) -> Option<String> {
    v.map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A listed row: namespace, key, the value unless it is too large, and the value's length.
type ListedRow = (
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<i64>,
);

/// The columns every listing selects, the value left out above the first parameter's length.
const ROW_COLUMNS: &str = "namespace_path, item_key, \
     CASE WHEN LENGTH(value_json) > ? THEN NULL ELSE value_json END, LENGTH(value_json)";

impl MysqlBackend {
    /// The runtime's listing of each base, all in one statement: one `SELECT` per base with the
    /// runtime's `LIKE` (each read through the primary key's range), put together with
    /// `UNION ALL` and each row tagged with its base, so that a row the server's collation
    /// matches to another owner's prefix stays that owner's, as it would read alone.
    fn scan_all(&mut self, bases: &[Vec<String>]) -> Result<Vec<Scan>, StoreError> {
        let select = |index: usize| {
            format!(
                "(SELECT {index} AS owner, {ROW_COLUMNS} FROM {} \
                 WHERE namespace_path LIKE ? ESCAPE '!')",
                self.table
            )
        };
        let sql = format!(
            "{} ORDER BY owner, namespace_path, item_key",
            (0..bases.len())
                .map(select)
                .collect::<Vec<_>>()
                .join(" UNION ALL ")
        );
        let limit = MAX_TEXT_BYTES as i64;
        let params: Vec<mysql_async::Value> = bases
            .iter()
            .flat_map(|base| [limit.into(), jdbc_like(base).into()])
            .collect();
        type Tagged = (
            u64,
            Option<Vec<u8>>,
            Option<Vec<u8>>,
            Option<Vec<u8>>,
            Option<i64>,
        );
        let rows: Vec<Tagged> = self.exec(&sql, params)?;
        let mut listed: Vec<Vec<ListedRow>> = bases.iter().map(|_| Vec::new()).collect();
        for (owner, ns, key, value, size) in rows {
            if let Some(rows) = usize::try_from(owner).ok().and_then(|i| listed.get_mut(i)) {
                rows.push((ns, key, value, size));
            }
        }
        Ok(bases
            .iter()
            .zip(listed)
            .map(|(base, rows)| listed_scan(base, rows))
            .collect())
    }
}

/// The scan of `base` from the rows its `LIKE` listed: a row outside its prefix (the server's
/// collation ignores case or accents) is a problem, not an item.
fn listed_scan(base: &[String], rows: Vec<ListedRow>) -> Scan {
    let limit = MAX_TEXT_BYTES as i64;
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
    scan
}

impl StoreBackend for MysqlBackend {
    fn scan_many(&mut self, bases: &[Vec<String>]) -> Vec<Result<Scan, StoreError>> {
        super::each_base(bases, self.scan_all(bases))
    }

    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM {} WHERE namespace_path LIKE ? ESCAPE '!' \
             ORDER BY namespace_path, item_key",
            self.table
        );
        let limit = MAX_TEXT_BYTES as i64;
        let rows: Vec<ListedRow> = self.exec(&sql, (limit, jdbc_like(base)))?;
        Ok(listed_scan(base, rows))
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let sql = format!(
            "SELECT DISTINCT namespace_path FROM {} WHERE namespace_path LIKE ? ESCAPE '!'",
            self.table
        );
        let rows: Vec<Option<Vec<u8>>> = self.exec(&sql, (jdbc_like(prefix),))?;
        Ok(rows
            .into_iter()
            .map(|r| split_jdbc(&text(r).unwrap_or_default()))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_socket_the_server_reports_is_never_followed_unless_asked_for() {
        let opts =
            mysql_async::Opts::from(super::options("mariadb://u:p@127.0.0.1:3307/ws").unwrap());
        assert!(!opts.prefer_socket());
        assert_eq!(opts.socket(), None);
        let opts = mysql_async::Opts::from(
            super::options("mysql://u@localhost/ws?socket=%2Frun%2Fmysqld.sock").unwrap(),
        );
        assert!(opts.prefer_socket());
        assert_eq!(opts.socket(), Some("/run/mysqld.sock"));
    }
}
