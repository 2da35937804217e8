//! `kansoku serve` under hostile or unusual requests (issue 5; issue 11,
//! finding 12): `..` traversal in raw request lines, WebSocket origins and
//! hosts, path segments the file system cannot hold, files the builder did
//! not write, the private preview directory, a client that never finishes
//! its headers, and the search index built at the lowest priority.

use super::{
    expect_reload, get, open_ws, options, page, raw_get, read, site, start, work_dir, ws_with, Ws,
    WAIT,
};
use futures_util::SinkExt as _;
use kansoku::serve::Options;
use std::io::{Read as _, Write as _};
use std::time::Duration;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::{self, Message};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traversal_never_leaves_the_build() {
    let site = site();
    let handle = start(&site).await;
    // Plant secrets in the two directories above the build (both inside
    // this test's temp dir), under the names the requests ask for.
    let build = handle.build_dir().expect("a good build");
    let work = handle.work_dir().expect("running");
    assert!(build.parent() == Some(work) && work.parent() == Some(&*work_dir(&site)));
    for dir in [work, &*work_dir(&site)] {
        for name in ["Cargo.toml", "book.toml"] {
            std::fs::write(dir.join(name), "SECRET-OUTSIDE-THE-BUILD\n").expect("plant");
        }
    }
    let addr = handle.addr();
    let targets = [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/ja/%2e%2e/%2e%2e/book.toml",
        "/ja/../../book.toml",
        "/%2E%2E/%2E%2E/Cargo.toml",
        "/..%2fCargo.toml",
        "/%2e%2e%2fCargo.toml",
        "/ja/%2e%2e%2f%2e%2e%2fbook.toml",
        "/..%5cCargo.toml",
        "/./../Cargo.toml",
        "//../Cargo.toml",
        "/ja/..;/../book.toml",
    ];
    let results = tokio::task::spawn_blocking(move || {
        targets
            .iter()
            .map(|t| (*t, raw_get(addr, t)))
            .collect::<Vec<_>>()
    })
    .await
    .expect("requests ran");
    // Control: the same request form does reach a file of the build.
    let (status, text) = tokio::task::spawn_blocking(move || raw_get(addr, "/claims.json"))
        .await
        .expect("request ran");
    assert!(status == 200 && text.contains("\"id\""), "{text}");
    for (target, (status, text)) in results {
        assert!(
            !text.contains("SECRET-OUTSIDE-THE-BUILD"),
            "{target} escaped the build:\n{text}"
        );
        assert!(
            status >= 400,
            "{target} answered {status}, expected a refusal or a miss"
        );
    }
    handle.shutdown().await.expect("stops cleanly");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_refuses_foreign_origin_and_host() {
    let site = site();
    let handle = start(&site).await;
    let addr = handle.addr();
    let port = addr.port();
    let refused = |r: Result<Ws, tungstenite::Error>| match r {
        Err(tungstenite::Error::Http(res)) => res.status().as_u16(),
        Err(e) => panic!("expected an HTTP refusal, got {e}"),
        Ok(_) => panic!("the upgrade was accepted"),
    };
    assert_eq!(
        refused(ws_with(addr, "", Some("http://evil.example"), None).await),
        403
    );
    assert_eq!(
        refused(ws_with(addr, "", Some(&format!("http://evil.example:{port}")), None).await),
        403
    );
    assert_eq!(
        refused(ws_with(addr, "", Some("http://localhost:1"), None).await),
        403,
        "another local origin"
    );
    assert_eq!(refused(ws_with(addr, "", Some("null"), None).await), 403);
    // DNS rebinding: the attacker's name, pointing at us.
    let evil = format!("evil.example:{port}");
    assert_eq!(
        refused(ws_with(addr, "", Some(&format!("http://{evil}")), Some(&evil)).await),
        403
    );
    let client = reqwest::Client::new();
    let res = client
        .get(format!("http://{addr}/en/notes/page/"))
        .header("host", &evil)
        .send()
        .await
        .expect("response");
    assert_eq!(
        res.status().as_u16(),
        403,
        "pages are refused to a rebound name too"
    );

    // The page's own origin and its loopback equivalents are welcome.
    for origin in [format!("http://{addr}"), format!("http://localhost:{port}")] {
        let mut ok = ws_with(addr, "", Some(&origin), None)
            .await
            .unwrap_or_else(|e| panic!("{origin} refused: {e}"));
        ok.send(Message::Ping(Vec::new().into()))
            .await
            .expect("ping");
    }
    handle.shutdown().await.expect("stops cleanly");
}

// ---------------------------------------------------------------------------
// Hardening (issue 11, finding 12).

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_segment_the_filesystem_cannot_hold_is_404_issue_11() {
    let site = site();
    let handle = start(&site).await;
    let long = "a".repeat(300);
    for target in [
        format!("/{long}"),
        format!("/en/{long}/"),
        format!("/en/{long}/index.html"),
        "/en/%00/".to_owned(),
        format!("/{}", "x/".repeat(3000)),
    ] {
        let addr = handle.addr();
        let t = target.clone();
        let (status, text) = tokio::task::spawn_blocking(move || raw_get(addr, &t))
            .await
            .expect("request ran");
        assert_eq!(status, 404, "{target}: {text}");
    }
    handle.shutdown().await.expect("stops cleanly");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_the_builder_did_not_write_are_never_served_issue_11() {
    let mut site = site();
    let handle = start(&site).await;
    let build = handle.build_dir().expect("a good build");
    // Planted beside the build's own files, a symlink out of the tree in
    // place of a page, and a symlinked directory.
    std::fs::write(build.join("planted.html"), "PLANTED\n").expect("plant");
    std::fs::write(build.join("en/planted.txt"), "PLANTED\n").expect("plant");
    let secret = work_dir(&site).join("secret.txt");
    std::fs::write(&secret, "PLANTED\n").expect("plant");
    let page = build.join("en/notes/page/index.html");
    std::fs::remove_file(&page).expect("remove a page");
    std::os::unix::fs::symlink(&secret, &page).expect("symlink");
    std::os::unix::fs::symlink(work_dir(&site), build.join("linked")).expect("symlink");
    for path in [
        "/planted.html",
        "/en/planted.txt",
        "/en/notes/page/",
        "/en/notes/page/index.html",
        "/linked/secret.txt",
    ] {
        let (status, _, body) = get(&handle, path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("PLANTED"), "{path} served a planted file");
    }
    // A rebuild of everything (book.toml changed) clears what was planted
    // and writes the page again.
    let mut ws = open_ws(&handle).await;
    let book = read(site.root(), "book.toml");
    site.write("book.toml", &format!("{book}\n# edited\n"));
    expect_reload(&mut ws).await;
    assert!(
        !build.join("planted.html").exists(),
        "planted file survived"
    );
    assert!(
        !build.join("en/planted.txt").exists(),
        "planted file survived"
    );
    assert!(!build.join("linked").exists(), "planted symlink survived");
    assert!(!std::fs::symlink_metadata(&page)
        .expect("page is there")
        .file_type()
        .is_symlink());
    let en = self::page(&handle, "/en/notes/page/").await;
    assert!(en.contains("First version of the text."), "{en}");
    assert_eq!(
        std::fs::read_to_string(&secret).expect("secret"),
        "PLANTED\n"
    );
    handle.shutdown().await.expect("stops cleanly");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_directory_is_private_issue_11() {
    use std::os::unix::fs::PermissionsExt as _;
    let site = site();
    let handle = start(&site).await;
    let work = handle.work_dir().expect("running");
    let mode = std::fs::metadata(work)
        .expect("work dir")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700, "work dir mode {mode:o}");
    handle.shutdown().await.expect("stops cleanly");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_never_finishes_its_headers_is_closed_issue_11() {
    let site = site();
    let handle = timeout(
        WAIT,
        kansoku::serve::start(Options {
            header_timeout: Duration::from_millis(300),
            ..options(&site)
        }),
    )
    .await
    .expect("the server starts in time")
    .expect("the server starts");
    let addr = handle.addr();
    let outcome = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        // Far longer than the header timeout: if the server never closes
        // the connection, this read times out and the test fails.
        s.set_read_timeout(Some(WAIT)).expect("timeout");
        write!(s, "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: 1").expect("send half a header");
        let mut out = Vec::new();
        s.read_to_end(&mut out).map(|_| out)
    })
    .await
    .expect("client ran");
    match outcome {
        // Closed, with or without a response saying why.
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                text.is_empty() || text.starts_with("HTTP/1.1 408"),
                "{text}"
            );
        }
        Err(e) => assert!(
            matches!(
                e.kind(),
                std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted
            ),
            "the connection was not closed: {e}"
        ),
    }
    // The server still answers everyone else.
    let (status, _, _) = get(&handle, "/en/").await;
    assert_eq!(status, 200);
    handle.shutdown().await.expect("stops cleanly");
}

/// The nice value of each thread of this process named `name` (Linux's
/// `/proc/self/task/<tid>/stat`, field 19).
#[cfg(target_os = "linux")]
fn thread_nice(name: &str) -> Vec<i32> {
    let mut nice = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").expect("/proc") {
        let dir = task.expect("task").path();
        let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        if comm.trim_end() != name {
            continue;
        }
        if let Ok(stat) = std::fs::read_to_string(dir.join("stat")) {
            nice.push(stat_nice(&stat));
        }
    }
    nice
}

/// The nice value in a `/proc/.../stat` line.
#[cfg(target_os = "linux")]
fn stat_nice(stat: &str) -> i32 {
    // Fields after the command (which may hold spaces), from field 3.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .expect("stat")
        .1
        .split_whitespace()
        .collect();
    fields[16].parse().expect("nice")
}

/// The nice value this test process was started at: its main thread's,
/// which nothing lowers (`nice cargo test` starts it at 10, not 0).
#[cfg(target_os = "linux")]
fn starting_nice() -> i32 {
    stat_nice(&std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat"))
}

/// Issue 13: search re-indexing must not compete with the next edit's
/// rebuild, so the indexing thread runs at the lowest priority.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_index_is_built_at_the_lowest_priority() {
    let site = site();
    let handle = start(&site).await;
    let deadline = std::time::Instant::now() + WAIT;
    // Other tests of this binary run servers too, and a thread of theirs
    // may be caught between being started and lowering itself: polled
    // until every one has lowered itself (which never happens without
    // `lower_priority`).
    let nice = loop {
        let nice = thread_nice("kansoku-search");
        let settled = !nice.is_empty() && nice.iter().all(|n| *n == 19);
        if settled || std::time::Instant::now() > deadline {
            break nice;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(!nice.is_empty(), "no indexing thread started");
    assert!(nice.iter().all(|n| *n == 19), "{nice:?}");
    // The builder is not lowered (its name, cut to Linux's 15 bytes): it
    // keeps the priority the process was started at, whatever that was
    // (issue 25: under `nice cargo test` it is 10).
    let start = starting_nice();
    let builder = thread_nice("kansoku-serve-b");
    assert!(
        !builder.is_empty() && builder.iter().all(|n| *n == start),
        "builder {builder:?}, started at {start}"
    );
    timeout(WAIT, handle.shutdown())
        .await
        .expect("stops in time")
        .expect("stops cleanly");
}
