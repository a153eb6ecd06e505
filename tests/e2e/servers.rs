//! Real database servers for the store tests, started from the Debian packages' binaries on a free
//! port in a temporary folder and stopped (by their own process id) when dropped. Without the
//! binary a test skips with a printed reason, except under `CI=true`, where it fails.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary at the first of `candidates` that exists, or the skip/fail decision.
pub fn binary(candidates: &[&str], package: &str) -> Option<PathBuf> {
    let found = candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .or_else(|| {
            candidates
                .iter()
                .filter(|c| !c.contains('/'))
                .find_map(|c| which(c))
        });
    if found.is_none() {
        let reason = format!(
            "{} not found (Debian package `{package}`)",
            candidates.join(" or ")
        );
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{reason}: .ci/run installs it");
        }
        eprintln!("skipped: {reason}");
    }
    found
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until `port` accepts connections (or panics after `limit`).
pub fn wait_for_port(port: u16, child: &mut Child, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("server exited early: {status}");
        }
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("server did not listen on {port} within {limit:?}");
}

/// A running server; stopped when dropped.
pub struct Server {
    pub port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Server {
    /// The server's own temporary folder (MariaDB's Unix socket is `sock` in it).
    pub fn dir(&self) -> &Path {
        self._dir.path()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A fast, clean shutdown (PostgreSQL's postmaster stops its backends on SIGINT), then
        // SIGKILL if it takes too long.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGINT);
        }
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_root() -> bool {
    unsafe { libc::geteuid() == 0 }
}

/// `cmd` run as `user` when we are root (PostgreSQL refuses root; MariaDB is told `--user`).
/// `setpriv` execs in place, so the child's id is the server's own.
fn as_user(user: &str, program: &Path) -> Command {
    if is_root() {
        let mut cmd = Command::new("setpriv");
        cmd.arg(format!("--reuid={user}"))
            .arg(format!("--regid={user}"))
            .arg("--clear-groups")
            .arg("--")
            .arg(program);
        cmd
    } else {
        Command::new(program)
    }
}

fn chown_to(path: &Path, user: &str) {
    if !is_root() {
        return;
    }
    let id = |flag: &str| -> u32 {
        let out = Command::new("id").arg(flag).arg(user).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    std::os::unix::fs::chown(path, Some(id("-u")), Some(id("-g"))).unwrap();
}

pub const POSTGRES_PASSWORD: &str = "s3cret-pg";

/// PostgreSQL from `/usr/lib/postgresql/<version>/bin`, password authentication, own data folder.
pub fn postgres() -> Option<Server> {
    postgres_with_tls(false).map(|(server, _)| server)
}

/// [`postgres`], with `ssl = on` and a test certificate when `tls` (plain connections still work).
pub fn postgres_with_tls(tls: bool) -> Option<(Server, Option<TlsFiles>)> {
    postgres_server(tls, false)
}

/// [`postgres_with_tls`] whose TLS connections must present a client certificate signed by the
/// test CA (`hostssl … clientcert=verify-ca`); plain connections (for seeding) still work.
pub fn postgres_requiring_client_certs() -> Option<(Server, TlsFiles)> {
    postgres_server(true, true).and_then(|(server, files)| Some((server, files?)))
}

fn postgres_server(tls: bool, client_certs: bool) -> Option<(Server, Option<TlsFiles>)> {
    let mut bins: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path().join("bin"))
                .collect()
        })
        .unwrap_or_default();
    bins.sort();
    let Some(bin) = bins.into_iter().rev().find(|b| b.join("initdb").is_file()) else {
        binary(&["/usr/lib/postgresql/*/bin/initdb"], "postgresql");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    chown_to(dir.path(), "postgres");
    let data = dir.path().join("data");
    let pwfile = dir.path().join("pw");
    std::fs::write(&pwfile, POSTGRES_PASSWORD).unwrap();
    chown_to(&pwfile, "postgres");
    let init = as_user("postgres", &bin.join("initdb"))
        .arg("-D")
        .arg(&data)
        .args([
            "-U",
            "postgres",
            "-A",
            "scram-sha-256",
            "--no-sync",
            "-E",
            "UTF8",
        ])
        .arg(format!("--pwfile={}", pwfile.display()))
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "initdb: {}",
        String::from_utf8_lossy(&init.stderr)
    );
    let port = free_port();
    let files = tls.then(|| {
        let files = tls_files(dir.path());
        // The server refuses a key others can read, and runs as `postgres`.
        std::fs::set_permissions(
            &files.key,
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )
        .unwrap();
        chown_to(&files.key, "postgres");
        chown_to(&files.cert, "postgres");
        files
    });
    let mut command = as_user("postgres", &bin.join("postgres"));
    command.arg("-D").arg(&data).args([
        "-p",
        &port.to_string(),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
    ]);
    if let Some(files) = &files {
        command
            .args(["-c", "ssl=on", "-c"])
            .arg(format!("ssl_cert_file={}", files.cert.display()))
            .arg("-c")
            .arg(format!("ssl_key_file={}", files.key.display()));
        if client_certs {
            command
                .arg("-c")
                .arg(format!("ssl_ca_file={}", files.ca.display()));
            // The first matching line decides: TLS connections need the certificate.
            std::fs::write(
                data.join("pg_hba.conf"),
                "hostssl all all 127.0.0.1/32 scram-sha-256 clientcert=verify-ca\n\
                 hostnossl all all 127.0.0.1/32 scram-sha-256\n",
            )
            .unwrap();
        }
    }
    let mut child = command
        .arg("-k")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_port(port, &mut child, Duration::from_secs(30));
    Some((
        Server {
            port,
            child,
            _dir: dir,
        },
        files,
    ))
}

pub const REDIS_PASSWORD: &str = "s3cret-redis";

/// `redis-server` with a password, no persistence, DEBUG allowed (for DIGEST).
pub fn redis() -> Option<Server> {
    redis_with_password(REDIS_PASSWORD)
}

/// [`redis`] requiring `password`.
pub fn redis_with_password(password: &str) -> Option<Server> {
    let bin = binary(&["redis-server", "/usr/bin/redis-server"], "redis-server")?;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(bin)
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", "no", "--enable-debug-command", "yes"])
        .args(["--requirepass", password])
        .arg("--dir")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_port(port, &mut child, Duration::from_secs(20));
    Some(Server {
        port,
        child,
        _dir: dir,
    })
}

/// `f` retried until it succeeds (a server may accept connections before it is ready).
pub fn retry<T, E: std::fmt::Debug>(mut f: impl FnMut() -> Result<T, E>) -> T {
    let start = Instant::now();
    loop {
        match f() {
            Ok(v) => return v,
            Err(e) if start.elapsed() > Duration::from_secs(30) => {
                panic!("server not ready: {e:?}")
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

pub const MARIADB_PASSWORD: &str = "s3cret-maria";

/// MariaDB: `mariadb-install-db` into a temporary folder, `mariadbd --user=root` on a free port,
/// then a user `agent` with a password and a database `ws` created over the root socket.
pub fn mariadb() -> Option<Server> {
    mariadb_with_tls(false).map(|(server, _)| server)
}

/// [`mariadb`], serving TLS with a test certificate when `tls` (plain connections still work).
pub fn mariadb_with_tls(tls: bool) -> Option<(Server, Option<TlsFiles>)> {
    let install = binary(
        &["mariadb-install-db", "/usr/bin/mariadb-install-db"],
        "mariadb-server",
    )?;
    let daemon = binary(&["mariadbd", "/usr/sbin/mariadbd"], "mariadb-server")?;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // Its own folder for temporary tables, not the shared /tmp: a bootstrap once failed there
    // when its temporary table's file was gone before it deleted it.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let init = Command::new(install)
        .arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--tmpdir={}", tmp.display()))
        .args([
            "--user=root",
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
        ])
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "mariadb-install-db: {}",
        String::from_utf8_lossy(&init.stderr)
    );
    let port = free_port();
    let socket = dir.path().join("sock");
    let files = tls.then(|| tls_files(dir.path()));
    let mut command = Command::new(daemon);
    // --no-defaults must come first.
    command.arg("--no-defaults");
    if let Some(files) = &files {
        for (flag, path) in [
            ("--ssl-cert", &files.cert),
            ("--ssl-key", &files.key),
            ("--ssl-ca", &files.ca),
        ] {
            command.arg(format!("{flag}={}", path.display()));
        }
    }
    let mut child = command
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--tmpdir={}", tmp.display()))
        .arg(format!("--socket={}", socket.display()))
        .arg(format!("--port={port}"))
        .args([
            "--bind-address=127.0.0.1",
            "--user=root",
            "--skip-log-bin",
            "--innodb-buffer-pool-size=16M",
        ])
        .arg(format!("--pid-file={}", dir.path().join("pid").display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_port(port, &mut child, Duration::from_secs(60));
    let root = format!("mysql://root@127.0.0.1:{port}/mysql");
    let mut conn = retry(|| My::connect(&root));
    conn.query_drop(format!(
        "CREATE DATABASE ws; CREATE USER 'agent'@'%' IDENTIFIED BY '{MARIADB_PASSWORD}'; \
         GRANT ALL ON ws.* TO 'agent'@'%'"
    ))
    .unwrap();
    Some((
        Server {
            port,
            child,
            _dir: dir,
        },
        files,
    ))
}

/// A TCP proxy to `127.0.0.1:target` that forwards both ways and drops the connection once
/// `cut_after` bytes came back from the server: a connection lost in the middle of a reply.
/// Returns the proxy's port; its thread ends with the first connection.
pub fn cutting_proxy(target: u16, cut_after: usize) -> u16 {
    use std::io::{Read, Write};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let Ok((mut client, _)) = listener.accept() else {
            return;
        };
        let mut server = std::net::TcpStream::connect(("127.0.0.1", target)).unwrap();
        let (mut client_r, mut server_w) =
            (client.try_clone().unwrap(), server.try_clone().unwrap());
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut client_r, &mut server_w);
        });
        let mut sent = 0usize;
        let mut buf = [0u8; 4096];
        while sent < cut_after {
            let n = match server.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n.min(cut_after - sent),
            };
            if client.write_all(&buf[..n]).is_err() {
                break;
            }
            sent += n;
        }
        let _ = client.shutdown(std::net::Shutdown::Both);
        let _ = server.shutdown(std::net::Shutdown::Both);
    });
    port
}

/// A TCP proxy to `127.0.0.1:target` that forwards both ways and counts the client's turns: each
/// time the client sends after the server last answered, one round trip. A client that waits for
/// each reply (as agentws does) takes one turn per round trip (a request split across TCP reads
/// may count twice, never less). Returns the proxy's port and the count; serves one connection.
pub fn counting_proxy(target: u16) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let turns = Arc::new(AtomicUsize::new(0));
    let counted = turns.clone();
    std::thread::spawn(move || {
        let Ok((mut client, _)) = listener.accept() else {
            return;
        };
        let mut server = std::net::TcpStream::connect(("127.0.0.1", target)).unwrap();
        let (mut client_r, mut server_w) =
            (client.try_clone().unwrap(), server.try_clone().unwrap());
        let answered = Arc::new(AtomicBool::new(true));
        let asked = answered.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n @ 1..) = client_r.read(&mut buf) {
                if asked.swap(false, Ordering::SeqCst) {
                    counted.fetch_add(1, Ordering::SeqCst);
                }
                if server_w.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = server_w.shutdown(std::net::Shutdown::Both);
        });
        let mut buf = [0u8; 65536];
        while let Ok(n @ 1..) = server.read(&mut buf) {
            answered.store(true, Ordering::SeqCst);
            if client.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = client.shutdown(std::net::Shutdown::Both);
    });
    (port, turns)
}

/// A test certificate authority and a server certificate for `127.0.0.1` signed by it (PEM),
/// made with the `openssl` command line tool.
pub struct TlsFiles {
    pub ca: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
    /// A client certificate (CN `agent`) signed by the same CA, for mutual TLS.
    pub client_cert: PathBuf,
    pub client_key: PathBuf,
}

pub fn tls_files(dir: &Path) -> TlsFiles {
    let run = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl (Debian package `openssl`)");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509", "-days", "2", "-subj", "/CN=agentws test CA"];
    ca.extend(ec);
    ca.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
    run(&ca);
    let mut csr = vec!["req", "-subj", "/CN=127.0.0.1"];
    csr.extend(ec);
    csr.extend(["-keyout", "server.key", "-out", "server.csr"]);
    run(&csr);
    std::fs::write(
        dir.join("san.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-days",
        "2",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-extfile",
        "san.ext",
        "-out",
        "server.pem",
    ]);
    let mut csr = vec!["req", "-subj", "/CN=agent"];
    csr.extend(ec);
    csr.extend(["-keyout", "client.key", "-out", "client.csr"]);
    run(&csr);
    std::fs::write(
        dir.join("client.ext"),
        "extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-days",
        "2",
        "-in",
        "client.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-extfile",
        "client.ext",
        "-out",
        "client.pem",
    ]);
    TlsFiles {
        ca: dir.join("ca.pem"),
        cert: dir.join("server.pem"),
        key: dir.join("server.key"),
        client_cert: dir.join("client.pem"),
        client_key: dir.join("client.key"),
    }
}

/// `redis-server` serving plain `port` and TLS on `tls_port` (same data), password as [`redis`].
pub fn redis_tls() -> Option<(Server, u16, TlsFiles)> {
    redis_tls_auth_clients("no")
}

/// [`redis_tls`] with `--tls-auth-clients` set to `auth` (`yes`: a client certificate signed by
/// the test CA is required).
pub fn redis_tls_auth_clients(auth: &str) -> Option<(Server, u16, TlsFiles)> {
    let bin = binary(&["redis-server", "/usr/bin/redis-server"], "redis-server")?;
    let dir = tempfile::tempdir().unwrap();
    let tls = tls_files(dir.path());
    let (port, tls_port) = (free_port(), free_port());
    let mut child = Command::new(bin)
        .args([
            "--port",
            &port.to_string(),
            "--tls-port",
            &tls_port.to_string(),
        ])
        .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .arg("--tls-cert-file")
        .arg(&tls.cert)
        .arg("--tls-key-file")
        .arg(&tls.key)
        .arg("--tls-ca-cert-file")
        .arg(&tls.ca)
        .args(["--tls-auth-clients", auth, "--enable-debug-command", "yes"])
        .args(["--requirepass", REDIS_PASSWORD])
        .arg("--dir")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_port(port, &mut child, Duration::from_secs(20));
    wait_for_port(tls_port, &mut child, Duration::from_secs(20));
    Some((
        Server {
            port,
            child,
            _dir: dir,
        },
        tls_port,
        tls,
    ))
}

/// A PostgreSQL client for seeding and inspecting the test servers: the async client agentws uses,
/// on a runtime of its own.
pub struct Pg {
    runtime: tokio::runtime::Runtime,
    client: tokio_postgres::Client,
}

impl Pg {
    pub fn connect(url: &str) -> Result<Pg, tokio_postgres::Error> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (client, connection) =
            runtime.block_on(tokio_postgres::connect(url, tokio_postgres::NoTls))?;
        runtime.spawn(async move {
            let _ = connection.await;
        });
        Ok(Pg { runtime, client })
    }

    pub fn batch_execute(&mut self, sql: &str) -> Result<(), tokio_postgres::Error> {
        self.runtime.block_on(self.client.batch_execute(sql))
    }

    pub fn execute(
        &mut self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64, tokio_postgres::Error> {
        self.runtime.block_on(self.client.execute(sql, params))
    }

    pub fn query_one(
        &mut self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<tokio_postgres::Row, tokio_postgres::Error> {
        self.runtime.block_on(self.client.query_one(sql, params))
    }
}

/// A MySQL client for seeding and inspecting the test servers: the async client agentws uses, on
/// a runtime of its own, on the TCP address of the URL only.
pub struct My {
    runtime: tokio::runtime::Runtime,
    conn: mysql_async::Conn,
}

impl My {
    pub fn connect(url: &str) -> Result<My, mysql_async::Error> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let opts = mysql_async::OptsBuilder::from_opts(mysql_async::Opts::from_url(url)?)
            .prefer_socket(false);
        let conn = runtime.block_on(mysql_async::Conn::new(opts))?;
        Ok(My { runtime, conn })
    }

    pub fn query_drop(&mut self, sql: impl AsRef<str>) -> Result<(), mysql_async::Error> {
        use mysql_async::prelude::Queryable;
        self.runtime.block_on(self.conn.query_drop(sql.as_ref()))
    }

    pub fn exec_drop(
        &mut self,
        sql: &str,
        params: impl Into<mysql_async::Params> + Send,
    ) -> Result<(), mysql_async::Error> {
        use mysql_async::prelude::Queryable;
        self.runtime.block_on(self.conn.exec_drop(sql, params))
    }

    pub fn query_first<T: mysql_async::prelude::FromRow + Send + 'static>(
        &mut self,
        sql: &str,
    ) -> Result<Option<T>, mysql_async::Error> {
        use mysql_async::prelude::Queryable;
        self.runtime.block_on(self.conn.query_first(sql))
    }
}

/// How a [`StallingProxy`] misbehaves.
#[derive(Clone, Copy, Debug)]
pub enum Stall {
    /// Accepts, reads what the client sends, and never answers.
    Silent,
    /// Forwards both ways until `n` bytes came back from the server, then forwards nothing more
    /// (the connection stays open): a server that stalls in the middle of the login.
    After(usize),
    /// Forwards the server's bytes one a second: a server that never quite stops answering.
    Drip,
}

/// A TCP proxy in front of `127.0.0.1:target` (or of nothing, for [`Stall::Silent`]) that
/// misbehaves as its [`Stall`] says, for every connection, until dropped.
pub struct StallingProxy {
    pub port: u16,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl StallingProxy {
    pub fn start(target: u16, stall: Stall) -> StallingProxy {
        use std::io::{Read, Write};
        use std::sync::atomic::Ordering;
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(mut client) = client else { continue };
                let stopped = stopped.clone();
                std::thread::spawn(move || {
                    // Until the client goes: whatever it sends is read (and forwarded, unless
                    // silent) on this thread's helper.
                    let server = match stall {
                        Stall::Silent => None,
                        _ => Some(std::net::TcpStream::connect(("127.0.0.1", target)).unwrap()),
                    };
                    let mut client_r = client.try_clone().unwrap();
                    let mut to_server = server.as_ref().map(|s| s.try_clone().unwrap());
                    let reader = std::thread::spawn(move || {
                        let mut buf = [0u8; 4096];
                        while let Ok(n @ 1..) = client_r.read(&mut buf) {
                            if let Some(server) = to_server.as_mut() {
                                if server.write_all(&buf[..n]).is_err() {
                                    break;
                                }
                            }
                        }
                        // The client is gone: so is the server connection (which ends the
                        // forwarding loop below).
                        if let Some(server) = to_server {
                            let _ = server.shutdown(std::net::Shutdown::Both);
                        }
                    });
                    if let Some(mut server) = server {
                        let mut sent = 0usize;
                        let mut buf = [0u8; 4096];
                        loop {
                            let n = match server.read(&mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(n) => n,
                            };
                            let chunk = &buf[..n];
                            match stall {
                                Stall::After(limit) => {
                                    let take = chunk.len().min(limit.saturating_sub(sent));
                                    if take > 0 && client.write_all(&chunk[..take]).is_err() {
                                        break;
                                    }
                                    sent += take;
                                }
                                Stall::Drip => {
                                    for byte in chunk {
                                        if stopped.load(Ordering::SeqCst)
                                            || client.write_all(&[*byte]).is_err()
                                        {
                                            return;
                                        }
                                        std::thread::sleep(Duration::from_secs(1));
                                    }
                                }
                                Stall::Silent => unreachable!(),
                            }
                        }
                    }
                    let _ = reader.join();
                });
            }
        });
        StallingProxy { port, stop }
    }
}

impl Drop for StallingProxy {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        // Wakes the accepting thread, which then sees the flag.
        let _ = std::net::TcpStream::connect(("127.0.0.1", self.port));
    }
}
