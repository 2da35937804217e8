//! Serve stage, HTTP: the last good build over axum, plus live reload.
//!
//! A request is answered only with a file the builder wrote: its path is
//! looked up in the builder's own list ([`Served`]), so `..`, encoded
//! traversal, names the filesystem cannot hold and files planted in the
//! build directory are all plain misses (404), and a symlink found on the
//! way is refused too. tower-http's `ServeFile` then sends the one file
//! (MIME type, ranges, `HEAD`). A layer
//! rewrites HTML responses to add the reload script and, after a failed
//! rebuild, the error overlay: the renderer never knows about serving.
//! Every request must name an expected `Host` and the WebSocket a
//! same-site `Origin` (DNS rebinding and cross-site hijacking, the lessons
//! of Vite's CVE-2025-30208 and CVE-2026-39363). This module never builds.

use axum::body::Body;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use std::collections::HashSet;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, RwLock};
use tokio::sync::broadcast;
use tower::ServiceExt as _;
use tower_http::services::ServeFile;

/// The reserved path prefix; a site's own pages never start with it.
pub(crate) const RESERVED: &str = "/__kansoku/";

/// The live-reload client, injected into HTML pages in serve mode only.
const RELOAD_JS: &str = include_str!("reload.js");

/// Larger HTML responses are passed through without the reload script.
const MAX_REWRITE: usize = 64 * 1024 * 1024;

/// What the server shows: the last good build and, if the latest attempt
/// failed, the overlay describing why. Cloned per request so a response
/// and the script tag in it always describe the same build.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    /// The last good build, if any build has succeeded yet.
    pub(crate) dir: Option<PathBuf>,
    /// Names that build; pages report it when they connect, so a page
    /// served just before a rebuild still learns it is stale.
    pub(crate) token: Arc<str>,
    /// Overlay markup while the latest build is failing.
    pub(crate) overlay: Option<Arc<str>>,
}

/// A message for open pages.
#[derive(Debug, Clone)]
pub(crate) enum Event {
    /// A good build replaced the one they show.
    Reload,
    /// A rebuild failed; the payload is the overlay markup.
    Error(Arc<str>),
    /// The server is stopping.
    Shutdown,
}

/// State shared by the HTTP side and the builder.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The port actually bound, for `Origin` checks.
    pub(crate) port: u16,
    /// What is being served.
    pub(crate) current: RwLock<Snapshot>,
    /// Messages to WebSocket clients.
    pub(crate) events: broadcast::Sender<Event>,
    /// Rebuilds attempted since the first build.
    pub(crate) rebuilds: AtomicU64,
    /// The files in the build directory that the builder wrote.
    pub(crate) served: Arc<Served>,
}

/// The paths (relative to the build directory, `/`-separated) of every
/// file the builder and its search step wrote there and have not removed:
/// the only files the server answers with. Kept up to date by the writers
/// as they write, since the directory is updated in place.
#[derive(Debug, Default)]
pub(crate) struct Served(RwLock<HashSet<String>>);

impl Served {
    /// Records files just written.
    pub(crate) fn insert<'a>(&self, paths: impl IntoIterator<Item = &'a str>) {
        let mut set = self
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        set.extend(paths.into_iter().map(str::to_owned));
    }

    /// Forgets a file about to be removed.
    pub(crate) fn remove(&self, path: &str) {
        self.0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(path);
    }

    /// True if the builder wrote `path`.
    pub(crate) fn contains(&self, path: &str) -> bool {
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(path)
    }
}

impl Shared {
    /// What to serve for one request.
    pub(crate) fn snapshot(&self) -> Snapshot {
        self.current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Replaces the snapshot.
    pub(crate) fn set(&self, snapshot: Snapshot) {
        *self
            .current
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = snapshot;
    }
}

/// The whole application: reserved routes, then the build's files.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/__kansoku/ws", get(websocket))
        .route("/__kansoku/reload.js", get(reload_js))
        .fallback(files)
        .layer(middleware::from_fn_with_state(shared.clone(), rewrite_html))
        .layer(middleware::from_fn(check_host))
        .with_state(shared)
}

async fn reload_js() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/javascript; charset=utf-8"),
        )],
        RELOAD_JS,
    )
        .into_response()
}

/// Serves a file the builder wrote from the snapshot's build directory;
/// `404.html` with status 404 for anything else.
async fn files(
    State(shared): State<Arc<Shared>>,
    Extension(snap): Extension<Snapshot>,
    req: Request,
) -> Response {
    let Some(dir) = snap.dir else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            NO_BUILD_PAGE,
        )
            .into_response();
    };
    let path = req.uri().path().to_owned();
    match lookup(&shared.served, &path) {
        Lookup::File(rel) if no_symlink(&dir, &rel) => {
            send(ServeFile::new(dir.join(&rel)), req).await
        }
        Lookup::Directory => {
            let location = match req.uri().query() {
                Some(q) => format!("{path}/?{q}"),
                None => format!("{path}/"),
            };
            match HeaderValue::from_str(&location) {
                Ok(v) => (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, v)]).into_response(),
                Err(_) => not_found(&shared, &dir, req).await,
            }
        }
        _ => not_found(&shared, &dir, req).await,
    }
}

async fn send(file: ServeFile, req: Request) -> Response {
    match file.oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(never) => match never {},
    }
}

async fn not_found(shared: &Shared, dir: &Path, req: Request) -> Response {
    let mut res = if shared.served.contains("404.html") && no_symlink(dir, "404.html") {
        send(ServeFile::new(dir.join("404.html")), req).await
    } else {
        (StatusCode::NOT_FOUND, "not found\n").into_response()
    };
    *res.status_mut() = StatusCode::NOT_FOUND;
    res
}

/// What a request path names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// A file the builder wrote, by its relative path.
    File(String),
    /// A directory holding a written `index.html`, asked for without its
    /// trailing slash: redirected, so the page's relative links resolve.
    Directory,
    /// Anything else.
    Missing,
}

/// Resolves a request path (percent-encoded, as sent) against the list of
/// written files. Nothing here touches the filesystem: a path it cannot
/// hold (a segment over 255 bytes, a NUL) is simply not in the list.
pub(crate) fn lookup(served: &Served, path: &str) -> Lookup {
    let Some(rel) = decode_path(path) else {
        return Lookup::Missing;
    };
    let index = if rel.is_empty() {
        "index.html".to_owned()
    } else {
        format!("{rel}/index.html")
    };
    if path.ends_with('/') {
        return if served.contains(&index) {
            Lookup::File(index)
        } else {
            Lookup::Missing
        };
    }
    if served.contains(&rel) {
        Lookup::File(rel)
    } else if served.contains(&index) {
        Lookup::Directory
    } else {
        Lookup::Missing
    }
}

/// The relative path a request path names, percent-decoded, or `None` if
/// it is not UTF-8 or holds a `.`/`..` segment, a backslash or a NUL.
fn decode_path(path: &str) -> Option<String> {
    // A `%` without two hex digits after it is a malformed request, not
    // a file name with a `%` in it.
    let escapes_whole = path
        .split('%')
        .skip(1)
        .all(|s| s.len() >= 2 && s.as_bytes()[..2].iter().all(u8::is_ascii_hexdigit));
    if !escapes_whole {
        return None;
    }
    let text = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let mut segments = Vec::new();
    for seg in text.split('/') {
        match seg {
            "" => {}
            "." | ".." => return None,
            s if s.contains(['\\', '\0']) => return None,
            s => segments.push(s),
        }
    }
    Some(segments.join("/"))
}

/// True if no component of `rel` under `dir` is a symlink: the builder
/// writes none, so one found there was planted, and is not followed.
fn no_symlink(dir: &Path, rel: &str) -> bool {
    let mut at = dir.to_path_buf();
    rel.split('/').all(|seg| {
        at.push(seg);
        std::fs::symlink_metadata(&at).is_ok_and(|m| !m.file_type().is_symlink())
    })
}

const NO_BUILD_PAGE: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>kansoku serve</title></head>\n<body>\n<main><h1>No build yet</h1><p>The site has not built since the server started. Fix the problems listed below; this page reloads by itself.</p></main>\n</body>\n</html>\n";

fn forbidden(why: &str) -> Response {
    (StatusCode::FORBIDDEN, format!("kansoku serve: {why}\n")).into_response()
}

/// Refuses requests whose `Host` is a name other than `localhost`: a page
/// on another site whose DNS name was rebound to this machine would send
/// its own name, and must not read the preview.
async fn check_host(req: Request, next: Next) -> Response {
    if let Some(host) = req.headers().get(header::HOST) {
        if !host.to_str().is_ok_and(host_allowed) {
            return forbidden(
                "unexpected Host header (DNS-rebinding protection); open the preview at http://localhost:PORT/ or http://127.0.0.1:PORT/",
            );
        }
    }
    next.run(req).await
}

/// Adds the reload script (and the overlay, while a rebuild is failing)
/// before `</body>` of every HTML response, and turns caching off so a
/// page never comes back from the browser's cache without them.
async fn rewrite_html(State(shared): State<Arc<Shared>>, mut req: Request, next: Next) -> Response {
    for h in [
        header::IF_MODIFIED_SINCE,
        header::IF_NONE_MATCH,
        header::IF_UNMODIFIED_SINCE,
        header::IF_MATCH,
    ] {
        req.headers_mut().remove(h);
    }
    let snap = shared.snapshot();
    req.extensions_mut().insert(snap.clone());
    let head = req.method() == Method::HEAD;
    let mut res = next.run(req).await;
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let content_type = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let is_html = content_type.starts_with("text/html");
    // Everything the builder writes is UTF-8 (sources are decoded as
    // such); say so, or a raw Japanese log shows as mojibake.
    if content_type.starts_with("text/") && !content_type.contains("charset") {
        if let Ok(v) = HeaderValue::from_str(&format!("{content_type}; charset=utf-8")) {
            res.headers_mut().insert(header::CONTENT_TYPE, v);
        }
    }
    if head
        || !is_html
        || matches!(
            res.status(),
            StatusCode::PARTIAL_CONTENT | StatusCode::NOT_MODIFIED
        )
    {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_REWRITE).await {
        Ok(b) => b,
        Err(e) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("kansoku serve: reading the page failed: {e}\n"),
            )
                .into_response()
        }
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    let html = inject(&bytes, &snippet(&snap));
    Response::from_parts(parts, Body::from(html))
}

/// The markup added to a page: overlay (if any), then the script tag.
pub(crate) fn snippet(snap: &Snapshot) -> String {
    let mut out = String::new();
    if let Some(overlay) = &snap.overlay {
        out.push_str(overlay);
    }
    out.push_str(&format!(
        "<script src=\"{RESERVED}reload.js\" data-build=\"{}\" defer></script>\n",
        escape(&snap.token)
    ));
    out
}

/// Inserts `snippet` before the last `</body>` (any case), or at the end.
pub(crate) fn inject(html: &[u8], snippet: &str) -> Vec<u8> {
    let needle = b"</body>";
    let at = html
        .windows(needle.len())
        .rposition(|w| w.eq_ignore_ascii_case(needle))
        .unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + snippet.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(snippet.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

/// HTML escaping is the renderer's: one function for every page.
pub(crate) use crate::render::highlight::escape;

/// The host part of a `Host` value or URL authority, without port or brackets.
fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    }
}

/// The port of an authority, `default` when it names none.
fn port_of(authority: &str, default: u16) -> Option<u16> {
    let port = match authority.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((_, "")) => return Some(default),
            Some((_, p)) => p.strip_prefix(':')?,
            None => return None,
        },
        None => match authority.rsplit_once(':') {
            Some((_, p)) => p,
            None => return Some(default),
        },
    };
    port.parse().ok()
}

fn is_localhost_name(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// A `Host` header we answer: an IP address (it cannot be rebound) or
/// `localhost` and its subdomains (browsers resolve them to loopback).
pub(crate) fn host_allowed(host: &str) -> bool {
    let name = host_name(host);
    name.parse::<IpAddr>().is_ok() || is_localhost_name(name)
}

/// A WebSocket `Origin` we accept: the page's own origin (`http://` and
/// exactly the request's `Host`), or a loopback origin on our own port.
pub(crate) fn origin_allowed(origin: &str, host: Option<&str>, port: u16) -> bool {
    let Some(authority) = origin.strip_prefix("http://") else {
        return false;
    };
    if authority.is_empty() || authority.contains(['/', '@', '?', '#']) {
        return false;
    }
    if host.is_some_and(|h| h.eq_ignore_ascii_case(authority)) && host_allowed(authority) {
        return true;
    }
    let name = host_name(authority);
    let loopback =
        is_localhost_name(name) || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    loopback && port_of(authority, 80) == Some(port)
}

async fn websocket(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    uri: Uri,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        if !origin_allowed(origin.to_str().unwrap_or("null"), host, shared.port) {
            return forbidden("cross-origin WebSocket refused");
        }
    }
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(rejection) => return rejection.into_response(),
    };
    let page_build = uri.query().and_then(|q| {
        q.split('&')
            .find_map(|kv| kv.strip_prefix("build="))
            .map(str::to_owned)
    });
    // Subscribe before looking at the snapshot so nothing falls between.
    let rx = shared.events.subscribe();
    upgrade.on_upgrade(move |socket| client(socket, shared, rx, page_build))
}

fn message(event: &Event) -> Option<Message> {
    let json = match event {
        Event::Reload => serde_json::json!({ "type": "reload" }),
        Event::Error(overlay) => serde_json::json!({ "type": "error", "overlay": &**overlay }),
        Event::Shutdown => return None,
    };
    Some(Message::Text(json.to_string().into()))
}

/// One open page: tells it to reload or to show an error, until it goes
/// away or the server stops.
async fn client(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    mut rx: broadcast::Receiver<Event>,
    page_build: Option<String>,
) {
    let snap = shared.snapshot();
    let first = match (&page_build, &snap.overlay) {
        (Some(b), _) if !snap.token.is_empty() && **b != *snap.token => Some(Event::Reload),
        (_, Some(o)) => Some(Event::Error(o.clone())),
        _ => None,
    };
    if let Some(msg) = first.as_ref().and_then(message) {
        if socket.send(msg).await.is_err() {
            return;
        }
    }
    loop {
        tokio::select! {
            event = rx.recv() => {
                let event = match event {
                    Ok(e) => e,
                    // Missed messages: reloading is always safe.
                    Err(broadcast::error::RecvError::Lagged(_)) => Event::Reload,
                    Err(broadcast::error::RecvError::Closed) => Event::Shutdown,
                };
                match message(&event) {
                    Some(msg) => {
                        if socket.send(msg).await.is_err() {
                            return;
                        }
                    }
                    None => {
                        let _ = socket.send(Message::Close(None)).await;
                        return;
                    }
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        for ok in [
            "127.0.0.1:3000",
            "localhost:3000",
            "LOCALHOST",
            "app.localhost:8080",
            "localhost.:3000",
            "[::1]:3000",
            "192.168.1.20:3000",
            "10.0.0.1",
        ] {
            assert!(host_allowed(ok), "{ok}");
        }
        for bad in [
            "evil.example:3000",
            "evil.example",
            "localhost.evil.example:3000",
            "127.0.0.1.nip.io:3000",
            "",
        ] {
            assert!(!host_allowed(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        let h = Some("127.0.0.1:3000");
        assert!(origin_allowed("http://127.0.0.1:3000", h, 3000));
        assert!(origin_allowed("http://localhost:3000", h, 3000));
        assert!(origin_allowed("http://[::1]:3000", h, 3000));
        // Port forwarding: the page's origin is the Host it was served under.
        assert!(origin_allowed(
            "http://localhost:8080",
            Some("localhost:8080"),
            3000
        ));
        assert!(origin_allowed(
            "http://192.168.1.20:3000",
            Some("192.168.1.20:3000"),
            3000
        ));
        assert!(!origin_allowed("http://evil.example", h, 3000));
        assert!(!origin_allowed("http://evil.example:3000", h, 3000));
        assert!(!origin_allowed(
            "http://evil.example:3000",
            Some("evil.example:3000"),
            3000
        ));
        assert!(
            !origin_allowed("http://localhost:5173", h, 3000),
            "other local server"
        );
        assert!(
            !origin_allowed("http://192.168.1.5:3000", h, 3000),
            "LAN page"
        );
        assert!(!origin_allowed("null", h, 3000));
        assert!(!origin_allowed("https://127.0.0.1:3000", h, 3000));
        assert!(!origin_allowed(
            "http://127.0.0.1:3000@evil.example",
            h,
            3000
        ));
        assert!(!origin_allowed("http://localhost", h, 3000));
        assert!(origin_allowed("http://localhost", None, 80));
    }

    #[test]
    fn injects_before_the_last_body_end() {
        let html = b"<html><body><p>`</body>` in text</p></BODY></html>";
        let out = inject(html, "<x>");
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "<html><body><p>`</body>` in text</p><x></BODY></html>"
        );
        assert_eq!(inject(b"<p>no body", "<x>"), b"<p>no body<x>");
    }

    #[test]
    fn snippet_names_the_build() {
        let snap = Snapshot {
            dir: None,
            token: Arc::from("abc-2"),
            overlay: Some(Arc::from("<div id=\"kansoku-overlay\"></div>")),
        };
        let s = snippet(&snap);
        assert!(s.starts_with("<div id=\"kansoku-overlay\">"));
        assert!(
            s.contains("<script src=\"/__kansoku/reload.js\" data-build=\"abc-2\" defer></script>")
        );
    }
}
