//! `kansoku serve` end to end (issue 5): a real server on an ephemeral
//! loopback port, started through `kansoku::serve::start` against a copy of
//! `tests/fixtures/serve`, driven by a real HTTP client (reqwest), a real
//! WebSocket client (tokio-tungstenite) and, for traversal, raw request
//! lines (HTTP clients normalise `..` away). Every wait is bounded; the only
//! fixed pauses are the short quiet windows that prove a negative (no
//! second rebuild).

use crate::common;

use common::SiteTest;
use futures_util::StreamExt as _;
use kansoku::serve::{Handle, Options, ServeError};
use std::io::{BufRead as _, Read as _, Write as _};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::{self, Message};

/// Generous: debug builds on a busy 2-core machine.
const WAIT: Duration = Duration::from_secs(20);

/// Longer than the watcher's debounce (20 ms, `serve::watch::DEBOUNCE`),
/// one tick and the settle after it (10 ms, `serve::build`), with a wide
/// margin for a busy machine.
const QUIET: Duration = Duration::from_millis(900);

const PAGE: &str = "content/notes/page.md";

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn site() -> SiteTest {
    SiteTest::from_fixture("serve")
}

/// Where the server's temporary build directory goes: beside the site, so
/// traversal tests can plant files just outside the build.
fn work_dir(site: &SiteTest) -> PathBuf {
    site.root()
        .parent()
        .expect("the site sits in a temp dir")
        .to_path_buf()
}

fn options(site: &SiteTest) -> Options {
    Options {
        port: Some(0),
        quiet: true,
        work_dir: Some(work_dir(site)),
        ..Options::new(site.root())
    }
}

async fn start(site: &SiteTest) -> Handle {
    timeout(WAIT, kansoku::serve::start(options(site)))
        .await
        .expect("the server starts in time")
        .expect("the server starts")
}

async fn get(handle: &Handle, path: &str) -> (u16, String, String) {
    let url = format!("http://{}{path}", handle.addr());
    let res = timeout(WAIT, reqwest::get(&url))
        .await
        .expect("response in time")
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = res.status().as_u16();
    let ctype = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().expect("ascii content-type").to_owned())
        .unwrap_or_default();
    let body = res.text().await.expect("body is text");
    (status, ctype, body)
}

async fn page(handle: &Handle, path: &str) -> String {
    let (status, _, body) = get(handle, path).await;
    assert_eq!(status, 200, "GET {path}:\n{body}");
    body
}

async fn ws_with(
    addr: SocketAddr,
    query: &str,
    origin: Option<&str>,
    host: Option<&str>,
) -> Result<Ws, tungstenite::Error> {
    let mut req = format!("ws://{addr}/__kansoku/ws{query}")
        .into_client_request()
        .expect("valid ws url");
    if let Some(o) = origin {
        req.headers_mut()
            .insert("origin", o.parse().expect("header value"));
    }
    if let Some(h) = host {
        req.headers_mut()
            .insert("host", h.parse().expect("header value"));
    }
    timeout(WAIT, tokio_tungstenite::connect_async(req))
        .await
        .expect("handshake in time")
        .map(|(ws, _)| ws)
}

/// A page's connection, as the injected script makes it.
async fn open_ws(handle: &Handle) -> Ws {
    let addr = handle.addr();
    ws_with(addr, "", Some(&format!("http://{addr}")), None)
        .await
        .expect("same-origin WebSocket is accepted")
}

/// The next JSON message from the server.
async fn next(ws: &mut Ws) -> serde_json::Value {
    loop {
        let msg = timeout(WAIT, ws.next())
            .await
            .expect("a message in time")
            .expect("the connection stays open")
            .expect("a well-formed frame");
        match msg {
            Message::Text(t) => return serde_json::from_str(&t).expect("JSON message"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

async fn expect_reload(ws: &mut Ws) {
    let msg = next(ws).await;
    assert_eq!(msg["type"], "reload", "{msg}");
}

/// Asserts nothing arrives for `QUIET`.
async fn expect_silence(ws: &mut Ws) {
    if let Ok(Some(Ok(Message::Text(t)))) = timeout(QUIET, ws.next()).await {
        panic!("unexpected message {t}");
    }
}

/// Replaces a file the way atomic-saving editors do: write a sibling, rename over.
fn rename_save(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    let tmp = path.with_extension("md.tmp-save");
    // No fsync: on a loaded CI disk it can stall longer than the debounce
    // window, and what is under test is the window, not the disk.
    std::fs::write(&tmp, text).expect("write temp file");
    std::fs::rename(&tmp, &path).expect("rename over the page");
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).expect("source file")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_both_languages_from_a_temp_build() {
    let site = site();
    let handle = start(&site).await;

    let ja = page(&handle, "/ja/notes/page/").await;
    assert!(ja.contains("<html lang=\"ja\""), "{ja}");
    assert!(ja.contains("最初の版の本文。"), "{ja}");
    let en = page(&handle, "/en/notes/page/").await;
    assert!(en.contains("<html lang=\"en\""), "{en}");
    assert!(en.contains("First version of the text."), "{en}");
    for html in [&ja, &en] {
        assert!(
            html.contains("<script src=\"/__kansoku/reload.js\" data-build=\"")
                && html.find("/__kansoku/reload.js") < html.rfind("</body>"),
            "reload script injected before </body>"
        );
        assert!(
            !html.contains("kansoku-overlay"),
            "no overlay on a good build"
        );
        // `site-url` ends in /docs/; the preview serves the site at its root.
        assert!(html.contains("href=\"/static/kansoku.css\""), "{html}");
        assert!(!html.contains("href=\"/docs/"), "{html}");
    }
    // Serve-only markup is never part of the build itself.
    let dir = handle.build_dir().expect("a good build");
    let built = std::fs::read_to_string(dir.join("en/notes/page/index.html")).expect("built page");
    assert!(!built.contains("__kansoku"));

    let (status, ctype, html) = get(&handle, "/en/notes/page/").await;
    assert_eq!((status, ctype.as_str()), (200, "text/html; charset=utf-8"));
    assert!(html.contains("First version"));
    let (status, ctype, _) = get(&handle, "/static/kansoku.css").await;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/css"), "{ctype}");
    // kansoku.js imports modules beside it; a browser runs a module only
    // when it is served as JavaScript.
    for module in ["kansoku.js", "kansoku-search.js", "kansoku-back.js"] {
        let (status, ctype, _) = get(&handle, &format!("/static/{module}")).await;
        assert_eq!(status, 200, "{module}");
        assert!(ctype.starts_with("text/javascript"), "{module}: {ctype}");
    }
    let (status, ctype, js) = get(&handle, "/__kansoku/reload.js").await;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/javascript"), "{ctype}");
    assert!(js.contains("sessionStorage") && js.contains("location.reload()"));

    // A miss gets the site's own 404 page with status 404.
    let not_found = std::fs::read_to_string(dir.join("404.html")).expect("404.html is built");
    let title = &not_found[not_found.find("<title>").expect("404 has a title")..];
    let title = &title[..title.find("</title>").expect("title closes")];
    let (status, _, body) = get(&handle, "/en/no-such-page/").await;
    assert_eq!(status, 404);
    assert!(body.contains(title), "{body}");
    // No directory listing: a directory without index.html is a miss.
    let (status, _, body) = get(&handle, "/static/").await;
    assert_eq!(status, 404);
    assert!(body.contains(title), "{body}");
    assert!(
        !body.contains(">kansoku.css<") && !body.contains("Index of"),
        "{body}"
    );

    assert!(
        !site.root().join("public").exists(),
        "serve never writes public/"
    );
    let work = handle.work_dir().expect("running").to_path_buf();
    assert!(work.is_dir());
    timeout(WAIT, handle.shutdown())
        .await
        .expect("stops in time")
        .expect("stops cleanly");
    assert!(!work.exists(), "the temp build dir is removed on shutdown");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_reloads_pages_and_deleted_pages_disappear() {
    let mut site = site();
    let handle = start(&site).await;
    let mut ws = open_ws(&handle).await;

    site.edit(
        PAGE,
        "First version of the text.",
        "Second version of the text.",
    );
    expect_reload(&mut ws).await;
    let en = page(&handle, "/en/notes/page/").await;
    assert!(en.contains("Second version of the text."), "{en}");
    assert!(!en.contains("First version"), "{en}");

    let extra = "+++\ntitle = { ja = \"追加\", en = \"Extra\" }\n+++\n\n::: ja\n追加のページ。\n:::\n::: en\nAn extra page.\n:::\n";
    site.write("content/notes/extra.md", extra);
    expect_reload(&mut ws).await;
    assert!(page(&handle, "/en/notes/extra/")
        .await
        .contains("An extra page."));
    std::fs::remove_file(site.root().join("content/notes/extra.md")).expect("delete page");
    expect_reload(&mut ws).await;
    let (status, _, _) = get(&handle, "/en/notes/extra/").await;
    assert_eq!(status, 404, "a deleted page is gone from the site");

    // A page served from an older build learns so the moment it connects.
    let addr = handle.addr();
    let mut stale = ws_with(
        addr,
        "?build=not-the-current-build",
        Some(&format!("http://{addr}")),
        None,
    )
    .await
    .expect("accepted");
    expect_reload(&mut stale).await;
    handle.shutdown().await.expect("stops cleanly");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_toml_keeps_the_last_build_and_shows_the_overlay() {
    let mut site = site();
    let handle = start(&site).await;
    let mut ws = open_ws(&handle).await;
    let good = read(site.root(), PAGE);

    let line = good
        .lines()
        .position(|l| l == "weight = 10")
        .expect("fixture has the weight line")
        + 1;
    site.edit(PAGE, "weight = 10", "weight = = 10");
    let msg = next(&mut ws).await;
    assert_eq!(msg["type"], "error", "{msg}");
    // Each finding as a link to its `path:line:col`, then its code and
    // message (issue 15: the overlay is laid out, not one block of text).
    let at = format!(">{PAGE}:{line}:10</a>");
    let overlay = msg["overlay"].as_str().expect("overlay markup");
    assert!(overlay.contains(&at), "{overlay}");
    assert!(overlay.contains("error</span>[E001]</span>"), "{overlay}");

    // The findings `kansoku check` reports, HTML-escaped, on every page,
    // which is still the last good build.
    let report = kansoku::check::check(site.root()).expect("check runs");
    assert!(!report.diagnostics.is_empty());
    for path in ["/en/notes/page/", "/ja/", "/en/no-such-page/"] {
        let (_, _, html) = get(&handle, path).await;
        assert!(html.contains("id=\"kansoku-overlay\""), "{path}: {html}");
        for d in &report.diagnostics {
            assert!(
                html.contains(&common::escape(&d.message))
                    && html.contains(&common::escape(&d.location.to_string())),
                "{path} carries check's finding {d}:\n{html}"
            );
        }
    }
    let en = page(&handle, "/en/notes/page/").await;
    assert!(
        en.contains("First version of the text."),
        "the old page is still served"
    );
    // A page opened during the failure is told at once.
    let mut late = open_ws(&handle).await;
    assert_eq!(next(&mut late).await["type"], "error");

    site.write(PAGE, &good.replace("First version", "Fixed version"));
    expect_reload(&mut ws).await;
    expect_reload(&mut late).await;
    let en = page(&handle, "/en/notes/page/").await;
    assert!(en.contains("Fixed version of the text."), "{en}");
    assert!(!en.contains("kansoku-overlay"), "the overlay is gone: {en}");
    handle.shutdown().await.expect("stops cleanly");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_atomic_rename_save_rebuilds_once() {
    let site = site();
    let handle = start(&site).await;
    let mut ws = open_ws(&handle).await;
    // Reading sources during the first build must not count as a change.
    expect_silence(&mut ws).await;
    assert_eq!(handle.rebuilds(), 0);

    let text = read(site.root(), PAGE).replace("First version", "Renamed-in version");
    rename_save(site.root(), PAGE, &text);
    expect_reload(&mut ws).await;
    expect_silence(&mut ws).await;
    assert_eq!(handle.rebuilds(), 1, "one rename-save, one rebuild");
    assert!(page(&handle, "/en/notes/page/")
        .await
        .contains("Renamed-in version"));

    // A burst of saves (an editor's save-all, a formatter) is one rebuild too,
    // when the saves land closer together than the watcher's debounce window
    // (20 ms); on a machine too loaded to keep them that close, the burst is
    // legitimately two batches, and only "at least one rebuild" can be held.
    let mut last = std::time::Instant::now();
    let mut widest = Duration::ZERO;
    for i in 0..5 {
        let text = read(site.root(), PAGE).replace(
            if i == 0 {
                "Renamed-in version"
            } else {
                "Burst version"
            },
            "Burst version",
        );
        rename_save(site.root(), PAGE, &text);
        if i > 0 {
            widest = widest.max(last.elapsed());
        }
        last = std::time::Instant::now();
        std::thread::sleep(Duration::from_millis(5));
    }
    expect_reload(&mut ws).await;
    expect_silence(&mut ws).await;
    let after_burst = handle.rebuilds();
    if widest < Duration::from_millis(20) {
        assert_eq!(after_burst, 2, "a save burst, one rebuild");
    } else {
        assert!(
            after_burst >= 2,
            "a save burst rebuilds ({widest:?} between saves)"
        );
    }

    // Editor litter alone rebuilds nothing.
    std::fs::write(site.root().join("content/notes/.page.md.swp"), "x").expect("swap file");
    std::fs::write(site.root().join("content/notes/4913"), "").expect("vim probe");
    expect_silence(&mut ws).await;
    assert_eq!(
        handle.rebuilds(),
        after_burst,
        "editor litter rebuilds nothing"
    );
    handle.shutdown().await.expect("stops cleanly");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_port_fails_with_the_message() {
    let site = site();
    let handle = start(&site).await;
    let port = handle.addr().port();
    let err = kansoku::serve::start(Options {
        port: Some(port),
        ..options(&site)
    })
    .await
    .expect_err("the port is taken");
    assert!(matches!(err, ServeError::PortInUse { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("port {port} on 127.0.0.1 is already in use; stop the other server or choose another port with `--port N`")
    );

    // The command: one line, exit 2, and it fails before building anything.
    let out = tokio::task::spawn_blocking({
        let root = site.root().to_path_buf();
        move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_kansoku"))
                .args(["serve", "--port", &port.to_string(), "--root"])
                .arg(root)
                .output()
                .expect("run kansoku")
        }
    })
    .await
    .expect("ran");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: port {port} ")) && stderr.contains("--port"),
        "{stderr}"
    );
    handle.shutdown().await.expect("stops cleanly");
}

/// Ctrl-C (SIGINT) stops the command cleanly and removes its temp dir.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly() {
    let site = site();
    let tmpdir = work_dir(&site).join("tmp");
    std::fs::create_dir_all(&tmpdir).expect("temp dir for the child");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["serve", "--port", "0", "--root"])
        .arg(site.root())
        .env("TMPDIR", &tmpdir)
        .env_remove("XDG_RUNTIME_DIR")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start kansoku serve");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let line = rx.recv_timeout(WAIT).expect("the server announces its URL");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_owned();
    assert_eq!(
        std::fs::read_dir(&tmpdir).expect("tmpdir").count(),
        1,
        "the build lives in one temp dir"
    );
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("address");
    assert_eq!(raw_get(addr, "/en/notes/page/").0, 200);

    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let deadline = std::time::Instant::now() + WAIT;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "still running after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        std::fs::read_dir(&tmpdir).expect("tmpdir").count(),
        0,
        "the temp build dir is removed"
    );
    assert!(!site.root().join("public").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_that_never_built_shows_why_until_it_does() {
    let mut site = site();
    let good = read(site.root(), "book.toml");
    let line = good
        .lines()
        .position(|l| l == "[serve]")
        .expect("fixture has [serve]")
        + 1;
    site.write("book.toml", &good.replace("[serve]", "[serve\n"));
    let handle = start(&site).await;
    let mut ws = open_ws(&handle).await;
    assert_eq!(next(&mut ws).await["type"], "error");
    let (status, _, html) = get(&handle, "/en/notes/page/").await;
    assert_eq!(status, 503);
    assert!(
        html.contains("id=\"kansoku-overlay\"") && html.contains(&format!("book.toml:{line}:")),
        "{html}"
    );
    assert!(html.contains("/__kansoku/reload.js"), "{html}");

    site.write("book.toml", &good);
    expect_reload(&mut ws).await;
    let en = page(&handle, "/en/notes/page/").await;
    assert!(en.contains("First version of the text.") && !en.contains("kansoku-overlay"));
    handle.shutdown().await.expect("stops cleanly");
}

/// Issue 25, point 5: serve shows a draft, marked as one, whose missing
/// evidence is only a warning.
#[tokio::test]
async fn serve_shows_a_draft_marked_as_one_issue_25() {
    let mut site = site();
    site.write(
        "content/notes/idea.md",
        "+++\ntitle = { ja = \"構想\", en = \"Idea\" }\ndraft = true\n\n[[claims]]\nid = \"idea-first\"\nclass = \"inferred\"\nja = \"まだ証拠がない。\"\nen = \"No evidence yet.\"\n+++\n\n::: ja\n書きかけ。\n:::\n\n::: en\nWork in progress.\n:::\n",
    );
    let handle = start(&site).await;
    let en = page(&handle, "/en/notes/idea/").await;
    assert!(en.contains("Work in progress."), "{en}");
    assert!(
        en.contains("<p class=\"draft-notice\" role=\"note\">Draft: not published."),
        "{en}"
    );
    assert!(
        !en.contains("kansoku-overlay"),
        "a draft's missing evidence is no error"
    );
}

/// Issue 39: what a build leaves out with a draft (the evidence only the
/// draft cites) is what serve previews with it.
#[tokio::test]
async fn serve_previews_a_draft_with_the_evidence_only_it_cites_issue_39() {
    let mut site = site();
    site.write(
        "content/notes/idea.md",
        "+++\ntitle = { ja = \"構想\", en = \"Idea\" }\ndraft = true\n\n[[claims]]\nid = \"idea-log\"\nclass = \"confirmed\"\nja = \"記録は一行目にある。\"\nen = \"The record is on the first line.\"\nevidence = [\"drafts/idea.txt#L1\"]\n+++\n\n::: ja\n書きかけ。\n:::\n\n::: en\nWork in progress.\n:::\n",
    )
    .write(
        "evidence/drafts/idea.txt",
        "+++\nkind = \"raw\"\nsource = \"idea\"\n+++\nthe draft's own line\n",
    );
    let handle = start(&site).await;
    let en = page(&handle, "/en/evidence/drafts/idea.txt/").await;
    assert!(
        en.contains("the draft&#39;s own line") || en.contains("the draft's own line"),
        "{en}"
    );
    assert!(en.contains("idea-log"), "cited by the draft's claim: {en}");
    let raw = page(&handle, "/evidence/drafts/idea.txt").await;
    assert!(raw.contains("the draft's own line"), "{raw}");
}

/// Sends one raw request line (nothing normalises it) and returns the
/// status code and the whole response.
pub(crate) fn raw_get(addr: SocketAddr, target: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(WAIT)).expect("timeout");
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send request");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read response");
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    (status, text)
}

mod hardening;
