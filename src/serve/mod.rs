//! `serve`: a local preview that rebuilds on save and reloads open pages.
//!
//! The last stage, on top of the library's public ones: a builder thread
//! (watch → classify → full rebuild into a temporary directory, see
//! `build.rs`) and an axum server on a tokio runtime that exists only here
//! (`http.rs`). It never writes the site's `public/`, never changes what the
//! renderer produces (serve-only markup is added to responses), and
//! `site` knows nothing about it.
//!
//! [`serve`] is the command; [`start`] is the same server as a library
//! call, for tests and tools, inside the caller's runtime.

mod build;
mod http;
mod overlay;
pub(crate) mod tree;
mod watch;

use crate::config::Config;
use crate::error::Error;
use build::{Builder, Msg, Worker};
use http::{Event, Shared, Snapshot};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, RwLock};
use std::time::Duration;
use watch::Layout;

/// The port when neither `--port` nor `[serve] port` names one.
pub(crate) const DEFAULT_PORT: u16 = 3000;

/// How long stopping waits for open requests before dropping them.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// How long a connection may take to send a request's headers. A browser
/// sends them at once; a client that opens connections and sends nothing
/// (or half a header) would otherwise hold a descriptor each, forever.
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// What `kansoku serve` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The site root (holding `book.toml`).
    pub root: PathBuf,
    /// `--port`; beats `[serve] port` in `book.toml`. `Some(0)` picks a free port.
    pub port: Option<u16>,
    /// `--bind`; loopback unless asked otherwise.
    pub bind: IpAddr,
    /// `--open`: open the site in the default browser once it is up.
    pub open: bool,
    /// Print nothing about builds (tests).
    pub quiet: bool,
    /// Where the temporary build directory goes; if unset,
    /// `$XDG_RUNTIME_DIR` when it exists, else the system's temp dir.
    pub work_dir: Option<PathBuf>,
    /// How long a connection may take to send its request headers before
    /// it is closed (`HEADER_TIMEOUT`; tests set it short).
    pub header_timeout: Duration,
}

impl Options {
    /// Defaults for the site at `root`: 127.0.0.1, port from `book.toml`.
    pub fn new(root: impl Into<PathBuf>) -> Options {
        Options {
            root: root.into(),
            port: None,
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            open: false,
            quiet: false,
            work_dir: None,
            header_timeout: HEADER_TIMEOUT,
        }
    }
}

/// Why the server could not start or stop cleanly. Content errors are not
/// among them: the server shows those in the browser and keeps running.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Another process listens on the port.
    #[error("port {port} on {ip} is already in use; stop the other server or choose another port with `--port N`")]
    PortInUse {
        /// The address asked for.
        ip: IpAddr,
        /// The port asked for.
        port: u16,
    },
    /// Listening failed for another reason (address not on this machine,
    /// privileged port).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The underlying failure.
        source: std::io::Error,
    },
    /// The site root cannot be used.
    #[error(transparent)]
    Site(#[from] Error),
    /// The file watcher could not start.
    #[error("cannot watch the site for changes: {0}")]
    Watch(String),
    /// Another I/O failure, with what was being done.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The underlying failure.
        source: std::io::Error,
    },
}

fn io_err(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ServeError {
    let what = what.into();
    move |source| ServeError::Io { what, source }
}

/// A running server. Stop it with [`Handle::shutdown`]; dropping it stops
/// it too, without reporting problems.
#[derive(Debug)]
pub struct Handle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    to_builder: mpsc::Sender<Msg>,
    builder: Option<std::thread::JoinHandle<()>>,
    stop: tokio::sync::watch::Sender<bool>,
    server: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    work: Option<tempfile::TempDir>,
}

impl Handle {
    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The site's address for a browser (loopback when bound to all interfaces).
    pub(crate) fn url(&self) -> String {
        preview_url(self.addr)
    }

    /// Rebuilds attempted (good or failed) since the first build.
    pub fn rebuilds(&self) -> u64 {
        self.shared.rebuilds.load(Ordering::SeqCst)
    }

    /// The directory of the build being served, if one has succeeded.
    pub fn build_dir(&self) -> Option<PathBuf> {
        self.shared.snapshot().dir
    }

    /// The temporary directory holding the builds; removed on shutdown.
    pub fn work_dir(&self) -> Option<&Path> {
        self.work.as_ref().map(tempfile::TempDir::path)
    }

    fn signal_stop(&self) {
        let _ = self.shared.events.send(Event::Shutdown);
        let _ = self.stop.send(true);
        let _ = self.to_builder.send(Msg::Stop);
    }

    /// Stops serving, closes open pages' connections, waits for the build
    /// in progress, and removes the temporary directory.
    pub async fn shutdown(mut self) -> Result<(), ServeError> {
        self.signal_stop();
        let mut result = Ok(());
        if let Some(server) = self.server.take() {
            let abort = server.abort_handle();
            match tokio::time::timeout(STOP_GRACE, server).await {
                Ok(Ok(Err(e))) => result = Err(io_err("the server failed")(e)),
                Ok(_) => {}
                Err(_) => abort.abort(),
            }
        }
        if let Some(builder) = self.builder.take() {
            let _ = tokio::task::spawn_blocking(move || builder.join()).await;
        }
        if let Some(work) = self.work.take() {
            let path = work.path().to_path_buf();
            work.close()
                .map_err(io_err(format!("removing {}", path.display())))?;
        }
        result
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if self.builder.is_none() && self.server.is_none() {
            return;
        }
        self.signal_stop();
        if let Some(server) = self.server.take() {
            server.abort();
        }
        // The builder may be writing into the work dir; let it finish
        // (one build at most) before the TempDir removes it.
        if let Some(builder) = self.builder.take() {
            let _ = builder.join();
        }
    }
}

/// The address a browser opens for a server listening on `addr`
/// (loopback when bound to all interfaces).
fn preview_url(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// A name for this server instance, part of every build token, so a page
/// from an earlier run reloads when it reconnects to a new one.
fn instance_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{:x}{:x}", std::process::id(), nanos)
}

/// The per-user runtime directory (`$XDG_RUNTIME_DIR`), when there is one.
/// It is memory-backed and private to the user: every rebuild rewrites the
/// whole site, which on a disk-backed `/tmp` can cost more than rendering
/// (measured: 134 files, 3 MB, ~200 ms on a VM's ext4, ~2 ms on tmpfs).
fn runtime_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute() && d.is_dir())
}

/// Starts a server inside the caller's tokio runtime: binds, builds once,
/// starts watching, and returns once pages can be served. A site whose
/// content does not build still starts (the pages show why); a missing
/// `book.toml` or a busy port does not.
pub async fn start(opts: Options) -> Result<Handle, ServeError> {
    let root = std::fs::canonicalize(&opts.root).map_err(|e| {
        Error::Usage(format!(
            "cannot open the site root {}: {e}",
            opts.root.display()
        ))
    })?;
    let config = match Config::load(&root) {
        Ok(c) => Some(c),
        // Shown in the browser with everything else once serving.
        Err(Error::Content(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let port = opts
        .port
        .or(config.as_ref().map(|c| c.port))
        .unwrap_or(DEFAULT_PORT);
    let wanted = SocketAddr::new(opts.bind, port);
    let listener = tokio::net::TcpListener::bind(wanted)
        .await
        .map_err(|source| match source.kind() {
            std::io::ErrorKind::AddrInUse => ServeError::PortInUse {
                ip: opts.bind,
                port,
            },
            _ => ServeError::Bind {
                addr: wanted,
                source,
            },
        })?;
    let addr = listener
        .local_addr()
        .map_err(io_err("reading the bound address"))?;

    let mut temp = tempfile::Builder::new();
    temp.prefix("kansoku-serve-");
    // The preview may hold drafts: readable by its user only, whatever the
    // umask (a shared /tmp is the fallback).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        temp.permissions(std::fs::Permissions::from_mode(0o700));
    }
    let work = match opts.work_dir.clone().or_else(runtime_dir) {
        Some(dir) => temp.tempdir_in(dir),
        None => temp.tempdir(),
    }
    .map_err(io_err("creating the temporary build directory"))?;

    let instance = instance_name();
    let served = Arc::new(http::Served::default());
    let (events, _) = tokio::sync::broadcast::channel(16);
    let shared = Arc::new(Shared {
        port: addr.port(),
        current: RwLock::new(Snapshot {
            dir: None,
            token: format!("{instance}-0").into(),
            overlay: None,
        }),
        events,
        rebuilds: AtomicU64::new(0),
        served: served.clone(),
    });
    let layout = Layout {
        root: root.clone(),
        evidence_dir: config
            .as_ref()
            .map_or_else(|| PathBuf::from("evidence"), |c| c.evidence_dir.clone()),
        build_dir: config
            .as_ref()
            .map_or_else(|| PathBuf::from("public"), |c| c.build_dir.clone()),
        ignore: vec![work.path().to_path_buf()],
    };
    let worker = Worker {
        builder: {
            let mut b = Builder::new(root, work.path().to_path_buf(), preview_url(addr));
            b.quiet(opts.quiet);
            b.record_into(served);
            b
        },
        shared: shared.clone(),
        layout,
        instance,
        quiet: opts.quiet,
        last_warnings: Vec::new(),
    };
    let (to_builder, from_watcher) = mpsc::channel();
    let watcher_tx = to_builder.clone();
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let builder = std::thread::Builder::new()
        .name("kansoku-serve-build".into())
        .spawn(move || build::run(worker, watcher_tx, from_watcher, ready_tx))
        .map_err(io_err("starting the builder thread"))?;
    match ready_rx.await {
        Ok(Ok(())) => {}
        Ok(Err(why)) => {
            let _ = builder.join();
            return Err(ServeError::Watch(why));
        }
        Err(_) => {
            let _ = builder.join();
            return Err(ServeError::Watch("the builder thread stopped".into()));
        }
    }

    let (stop, stopped) = tokio::sync::watch::channel(false);
    let app = http::router(shared.clone());
    let server = tokio::spawn(accept_loop(listener, app, opts.header_timeout, stopped));
    Ok(Handle {
        addr,
        shared,
        to_builder,
        builder: Some(builder),
        stop,
        server: Some(server),
        work: Some(work),
    })
}

/// Serves `app` on `listener` until `stopped` holds true, then lets open
/// requests finish. axum's own `serve` sets no header-read timeout (it
/// gives hyper no timer), so connections are run here, as axum runs them,
/// with one.
async fn accept_loop(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    header_timeout: Duration,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let mut http1 = hyper::server::conn::http1::Builder::new();
    http1
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    // Every connection task holds a receiver; stopping waits until all
    // are dropped.
    let (open_tx, open_rx) = tokio::sync::watch::channel(());
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of descriptors or a connection reset before accept:
                // the listener itself is fine; pause instead of spinning.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = stopping(&mut stopped) => break,
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = http1
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop = stopped.clone();
        let open = open_rx.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = stopping(&mut stop) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(open);
        });
    }
    drop(listener);
    drop(open_rx);
    open_tx.closed().await;
    Ok(())
}

/// Resolves once the stop flag holds true (or its sender is gone).
async fn stopping(rx: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = rx.wait_for(|s| *s).await;
}

/// `kansoku serve`: runs until Ctrl-C, then stops cleanly.
pub fn serve(opts: Options) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(io_err("starting the async runtime"))?;
    let result = runtime.block_on(async move {
        let open = opts.open;
        let bind = opts.bind;
        // Registered before anything else, so Ctrl-C during the first build
        // or right after the address is printed still stops cleanly.
        let stop = stop_signal().map_err(io_err("listening for Ctrl-C"))?;
        let handle = start(opts).await?;
        let url = handle.url();
        println!("serving {url} · Ctrl-C to stop");
        if !bind.is_loopback() {
            eprintln!(
                "warning: listening on {bind}: anyone who can reach this machine can read the preview"
            );
        }
        if open {
            open_browser(&url);
        }
        stop.await;
        println!("stopping");
        handle.shutdown().await
    });
    // Open WebSocket tasks are told to close; do not wait on stragglers.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

/// Ctrl-C, and on Unix also SIGTERM (`kill`, `docker stop`), registered
/// now rather than when first awaited.
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// Ctrl-C, registered now rather than when first awaited.
#[cfg(windows)]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    let mut ctrl_c = tokio::signal::windows::ctrl_c()?;
    Ok(async move {
        ctrl_c.recv().await;
    })
}

/// Opens `url` with the platform's opener; failing is only a message.
fn open_browser(url: &str) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match cmd.spawn() {
        // Reap it off the main path; its exit status does not matter.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => eprintln!("could not open a browser ({e}); open {url} yourself"),
    }
}
