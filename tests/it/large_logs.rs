//! Evidence logs of any size (issue 27): a log larger than kansoku holds
//! in memory is read in pieces, its page shows the cited lines with
//! context, and its raw copy is published as it is. Run through the
//! binary, as a user runs it: what is asserted is the output and the exit
//! status (the time and peak memory are figures in benches/README.md).

use crate::common::SiteTest;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::process::{Command, Output};

fn kansoku(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .arg("--root")
        .arg(root)
        .env("NO_COLOR", "1")
        .output()
        .expect("the kansoku binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A confirmed claim `large` citing `path` lines `lines`, quoting `quote`.
fn cite(t: &mut SiteTest, path: &str, lines: &str, quote: &str) {
    crate::common::cite_quoted(t, "large", path, lines, quote);
}

/// A gibibyte of nothing (a sparse file: one line of NUL bytes, as a log
/// that was never written), then two lines of text.
#[test]
fn a_one_gibibyte_sparse_log_builds_and_its_cited_line_is_shown() {
    let mut t = SiteTest::from_fixture("check/clean");
    let path = t.root().join("evidence/logs/sparse.log");
    let tail = b"\nend of log\namdgpu: ready\n";
    {
        let mut f = std::fs::File::create(&path).expect("create");
        f.set_len(1 << 30).expect("a sparse gibibyte");
        f.seek(SeekFrom::End(0)).expect("seek");
        f.write_all(tail).expect("tail");
    }
    cite(&mut t, "logs/sparse.log", "3", "amdgpu: ready");
    let check = kansoku(t.root(), &["check"]);
    let err = stderr(&check);
    assert!(check.status.success(), "{err}");
    assert!(
        err.contains("evidence/logs/sparse.log:1:1: warning[W005]: line 1 after the header is longer than 1 MiB: kansoku reads only its first 1 MiB"),
        "{err}"
    );
    let build = kansoku(t.root(), &["build", "--quiet"]);
    assert!(build.status.success(), "{}", stderr(&build));
    let raw = std::fs::metadata(t.out_path("evidence/logs/sparse.log")).expect("raw copy");
    assert_eq!(raw.len(), (1 << 30) + tail.len() as u64, "published whole");
    let page = t.read("en/evidence/logs/sparse.log/index.html");
    assert!(
        page.contains(r#"<li class="ev-line" id="L3">"#),
        "the cited line"
    );
    assert!(page.contains("amdgpu: ready"));
    // The gibibyte line is shown cut, its NUL bytes as a reader can see them.
    let first = crate::common::element_by_id(&page, "L1").expect("line 1");
    assert!(first.contains(&"␀".repeat(100)), "NUL shown as ␀");
    assert!(
        first.len() < 64 << 10,
        "line 1 is cut: {} bytes",
        first.len()
    );
    assert!(
        page.contains("This log has 3 lines (1.0 GiB)"),
        "the window says what it shows"
    );
}

/// About 200 MB of a plausible trace, cited deep inside: the cited lines
/// and their context are shown, the rest is not, and a quote that moved
/// is found where it is now.
#[test]
fn a_200_megabyte_log_builds_and_a_moved_quote_is_found() {
    let mut t = SiteTest::from_fixture("check/clean");
    let path = t.root().join("evidence/logs/trace.log");
    let lines = 2_000_000;
    {
        let f = std::fs::File::create(&path).expect("create");
        let mut w = std::io::BufWriter::new(f);
        w.write_all(b"+++\nsource = \"a generated trace (test)\"\n+++\n")
            .expect("header");
        for n in 1..=lines {
            writeln!(
                w,
                "2026-11-25T10:{:02}:{:02}.{:06}Z rocblas-trace[4242]: rocblas_gemm_ex call {n:>8} m=4096 n=4096 k=4096",
                (n / 60_000) % 60,
                (n / 1_000) % 60,
                n % 1_000_000
            )
            .expect("line");
        }
        w.flush().expect("flush");
    }
    assert!(std::fs::metadata(&path).expect("size").len() > 190_000_000);
    cite(
        &mut t,
        "logs/trace.log",
        "1500000-1500002",
        "call  1500001 m=4096",
    );
    let check = kansoku(t.root(), &["check"]);
    assert!(check.status.success(), "{}", stderr(&check));
    let build = kansoku(t.root(), &["build", "--quiet"]);
    assert!(build.status.success(), "{}", stderr(&build));
    let page = t.read("en/evidence/logs/trace.log/index.html");
    for n in [1, 10, 1_499_997, 1_500_001, 1_500_005] {
        assert!(page.contains(&format!(r#"id="L{n}""#)), "line {n} is shown");
    }
    for n in [11, 1_499_996, 1_500_006, 2_000_000] {
        assert!(!page.contains(&format!(r#"id="L{n}""#)), "line {n} is not");
    }
    assert!(page.contains(
        r##"<a href="#L1499997">L1499997–L1500005</a> <span class="ev-runs__claims">large</span>"##
    ));
    assert!(
        page.contains("Lines 11–1499996 are not shown here"),
        "the gap says what is left out"
    );
    assert_eq!(
        std::fs::metadata(t.out_path("evidence/logs/trace.log"))
            .expect("raw copy")
            .len(),
        std::fs::metadata(&path).expect("size").len()
    );
    // Cited two lines too high: the quote is found where it is.
    t.edit(
        "content/page.md",
        "lines = \"1500000-1500002\"",
        "lines = \"1499998\"",
    );
    let check = kansoku(t.root(), &["check"]);
    let err = stderr(&check);
    assert!(!check.status.success());
    assert!(
        err.contains("error[E014]: quote \"call  1500001 m=4096\" not found in line 1499998 of `evidence/logs/trace.log`"),
        "{err}"
    );
    assert!(
        err.contains(
            "hint: the quote is on line 1500001 of this file now: write `lines = \"1500001\"`"
        ),
        "{err}"
    );
}

/// A gzip log whose text is larger than kansoku holds is read through a
/// temporary file; the compressed file is published as it is.
#[test]
fn a_large_gzip_log_is_checked_shown_and_published_as_it_is() {
    let mut t = SiteTest::from_fixture("check/clean");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for n in 1..=400_000 {
        writeln!(
            gz,
            "[{n:>7}] amdgpu 0000:03:00.0: ring gfx_0.0.0 uses VM inv eng {}",
            n % 17
        )
        .expect("gzip");
    }
    let bytes = gz.finish().expect("gzip");
    t.write_bytes("evidence/logs/dmesg.log.gz", &bytes);
    cite(&mut t, "logs/dmesg.log.gz", "300000", "[ 300000] amdgpu");
    let check = kansoku(t.root(), &["check"]);
    assert!(check.status.success(), "{}", stderr(&check));
    let build = kansoku(t.root(), &["build", "--quiet"]);
    assert!(build.status.success(), "{}", stderr(&build));
    let page = t.read("ja/evidence/logs/dmesg.log.gz/index.html");
    assert!(page.contains(r#"id="L300000""#));
    assert!(!page.contains(r#"id="L200000""#));
    assert_eq!(
        std::fs::read(t.out_path("evidence/logs/dmesg.log.gz")).expect("raw copy"),
        bytes
    );
}

/// A large log's hash is checked like a small one's: a captured log of
/// 10 MB whose body was edited is an error naming it.
#[test]
fn a_large_captured_log_edited_after_capture_is_an_error() {
    let mut t = SiteTest::from_fixture("check/clean");
    let body: String = (0..400_000)
        .map(|n| format!("line {n:>6} of a captured run\n"))
        .collect();
    assert!(body.len() as u64 > 8 << 20);
    let sha = {
        use sha2::Digest;
        sha2::Sha256::digest(body.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let file = |body: &str| {
        format!(
            "+++\nkind = \"capture\"\ncommand = [\"run\"]\nbody-sha256 = \"{sha}\"\n+++\n{body}"
        )
    };
    t.write("evidence/logs/run.txt", &file(&body));
    cite(&mut t, "logs/run.txt", "100001", "line 100000 of");
    let check = kansoku(t.root(), &["check"]);
    assert!(check.status.success(), "{}", stderr(&check));
    t.write(
        "evidence/logs/run.txt",
        &file(&body.replacen("line 150000 of", "line 150000 in", 1)),
    );
    let check = kansoku(t.root(), &["check"]);
    let err = stderr(&check);
    assert!(!check.status.success());
    assert!(
        err.contains("evidence/logs/run.txt:1:1: error[E019]: evidence/logs/run.txt changed since it was captured"),
        "{err}"
    );
    assert!(err.contains(&format!("its header says {sha}")), "{err}");
}

/// The 2026-11-28 audit's L1: an evidence file whose name cannot be an
/// output path (a `\`, a line break) is E060 in `check`, as a page's is,
/// and the same coded finding in `build`, never an uncoded build error.
#[test]
fn issue_39_l1_an_evidence_name_that_cannot_be_a_path_is_e060() {
    let mut t = SiteTest::from_fixture("check/clean");
    t.write("evidence/logs/back\\slash.log", "line\n");
    t.write("evidence/logs/new\nline.log", "line\n");
    let expected = "evidence/logs/back\\slash.log:1:1: error[E060]: file name `logs/back\\slash.log` cannot become a URL: browsers read `\\` as `/`\n  = hint: rename the file using letters, digits, `-`, `_` and `.`, and the evidence links that cite it\nevidence/logs/new\\u{a}line.log:1:1: error[E060]: file name `logs/new\\u{a}line.log` cannot become a URL: it holds the control character U+000A\n  = hint: rename the file using letters, digits, `-`, `_` and `.`, and the evidence links that cite it\n";
    for cmd in ["check", "build"] {
        let out = kansoku(t.root(), &[cmd]);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {}", stderr(&out));
        // `check` puts a blank line between findings; `build` does not.
        let got = stderr(&out).replace("\n\n", "\n");
        assert!(got.starts_with(expected), "{cmd}: {got}");
    }
    assert!(!t.out().exists(), "nothing was built");
}

/// `n` lines of a plausible log, from line `from`.
fn log_lines(from: usize, n: usize) -> Vec<u8> {
    (from..from + n)
        .flat_map(|i| {
            format!("[{i:>8}] amdgpu: ring gfx_0.0.0 test passed ({})\n", i % 7).into_bytes()
        })
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("gzip");
    gz.finish().expect("gzip")
}

fn with_config(t: &mut SiteTest, extra: &str) {
    let toml = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write("book.toml", &format!("{toml}\n{extra}"));
}

/// The audit's M4: a `.gz` that expands past `[evidence] max-gz-size`
/// is its own finding, one member or many (`cat a.gz a.gz` is one log).
#[test]
fn issue_39_m4_a_gzip_log_expanding_past_the_cap_is_its_own_finding() {
    let mut t = SiteTest::from_fixture("check/clean");
    with_config(&mut t, "[evidence]\nmax-gz-size = \"1 MiB\"\n");
    let part = log_lines(1, 14_000);
    assert!(part.len() > 600 << 10 && part.len() < 1 << 20);
    let member = gzip(&part);
    t.write_bytes(
        "evidence/logs/one.log.gz",
        &gzip(&[part.clone(), part.clone()].concat()),
    );
    t.write_bytes(
        "evidence/logs/cat.log.gz",
        &[member.clone(), member.clone()].concat(),
    );
    t.write_bytes("evidence/logs/fits.log.gz", &member);
    cite(&mut t, "logs/fits.log.gz", "13999", "[   13999] amdgpu");
    let hint = "  = hint: a log this large is better split, or kept elsewhere and cited by a shorter extract; to publish it whole, raise `max-gz-size` under [evidence] in book.toml\n";
    let expected = format!(
        "evidence/logs/cat.log.gz:1:1: error[E006]: expands past 1 MiB when decompressed, the most `max-gz-size` allows\n{hint}evidence/logs/one.log.gz:1:1: error[E006]: expands past 1 MiB when decompressed, the most `max-gz-size` allows\n{hint}"
    );
    for cmd in ["check", "build"] {
        let out = kansoku(t.root(), &[cmd]);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {}", stderr(&out));
        let got = stderr(&out).replace("\n\n", "\n");
        assert!(got.starts_with(&expected), "{cmd}: {got}");
    }
    // The cap in bytes, raised past both.
    let toml = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write(
        "book.toml",
        &toml.replace("max-gz-size = \"1 MiB\"", "max-gz-size = 2097152"),
    );
    let out = kansoku(t.root(), &["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A `.gz` log larger than kansoku holds is read by decompressing it
/// again, never into a temporary file: with no usable temporary
/// directory, it is checked, shown and published all the same.
#[test]
fn issue_39_m4_a_large_gzip_log_needs_no_temporary_file() {
    let mut t = SiteTest::from_fixture("check/clean");
    let text = log_lines(1, 200_000);
    assert!(text.len() as u64 > 8 << 20);
    // Three members, the way `pigz -i` or `cat` writes them.
    let third = text.len() / 3;
    let cut = text[..third]
        .iter()
        .rposition(|&b| b == b'\n')
        .expect("a line")
        + 1;
    let cut2 = cut
        + text[cut..2 * third]
            .iter()
            .rposition(|&b| b == b'\n')
            .expect("a line")
        + 1;
    let bytes = [
        gzip(&text[..cut]),
        gzip(&text[cut..cut2]),
        gzip(&text[cut2..]),
    ]
    .concat();
    t.write_bytes("evidence/logs/big.log.gz", &bytes);
    cite(&mut t, "logs/big.log.gz", "150000", "[  150000] amdgpu");
    crate::common::cite_quoted(
        &mut t,
        "early",
        "logs/big.log.gz",
        "20",
        "[      20] amdgpu",
    );
    let not_a_dir = t.root().join("tmp-is-a-file");
    std::fs::write(&not_a_dir, "").expect("write");
    for cmd in ["check", "build"] {
        let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
            .args([cmd, "--root"])
            .arg(t.root())
            .env("TMPDIR", &not_a_dir)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{cmd}: {}", stderr(&out));
    }
    let page = t.read("en/evidence/logs/big.log.gz/index.html");
    for line in ["L20", "L150000", "L150003"] {
        assert!(page.contains(&format!(r#"id="{line}""#)), "{line}");
    }
    assert!(page.contains("[  150000] amdgpu"));
    assert_eq!(
        std::fs::read(t.out_path("evidence/logs/big.log.gz")).expect("raw copy"),
        bytes
    );
}

/// Builds `t` in process, calling `change` once when the build reaches
/// `at` (rendering starts, or the output is about to go in place): a
/// change to the evidence at a known point of the build, not a race.
fn build_changing(
    t: &SiteTest,
    at: fn(kansoku::site::Progress) -> bool,
    change: impl Fn() + Send + Sync + 'static,
) -> kansoku::Result<kansoku::site::BuildReport> {
    let done = std::sync::atomic::AtomicBool::new(false);
    let tell = move |p: kansoku::site::Progress| {
        if at(p) && !done.swap(true, std::sync::atomic::Ordering::SeqCst) {
            change();
        }
    };
    crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            progress: Some(std::sync::Arc::new(tell)),
            ..kansoku::site::BuildOptions::default()
        },
    )
}

fn rendering(p: kansoku::site::Progress) -> bool {
    matches!(p, kansoku::site::Progress::Rendering(_))
}

fn writing(p: kansoku::site::Progress) -> bool {
    matches!(p, kansoku::site::Progress::Writing)
}

/// The one finding of a build stopped because `path` changed.
fn changed_while_read(result: kansoku::Result<kansoku::site::BuildReport>, path: &str) {
    let err = match result {
        Ok(_) => panic!("{path}: the build succeeded"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        err,
        format!("{path}:1:1: error[E043]: changed while the build read it; nothing was written\n  = hint: build again once nothing writes to it; to cite a log that is still being written, copy it and cite the copy\n1 error found"),
    );
}

/// The audit's L10: an evidence file that changes during a build (after
/// it was read, before the output goes in place) stops the build with a
/// located error, and nothing torn is published: a large log overwritten
/// in place, a small one appended to, one replaced by another file, one
/// truncated just before the output would go in.
#[test]
fn issue_39_l10_evidence_that_changes_during_a_build_is_never_published_torn() {
    let mut t = SiteTest::from_fixture("check/clean");
    let big = log_lines(1, 200_000);
    assert!(big.len() as u64 > 8 << 20);
    t.write_bytes("evidence/logs/big.log", &big);
    cite(&mut t, "logs/big.log", "150000", "[  150000] amdgpu");
    let root = t.root().to_path_buf();
    let (big_path, small_path) = (
        root.join("evidence/logs/big.log"),
        root.join("evidence/logs/a.log"),
    );
    let small = std::fs::read(&small_path).expect("a.log");
    let restore = |t: &SiteTest| {
        std::fs::write(t.root().join("evidence/logs/big.log"), &big).expect("restore");
        std::fs::write(t.root().join("evidence/logs/a.log"), &small).expect("restore");
    };

    // The large log overwritten in place, the same length, as rendering starts.
    let p = big_path.clone();
    changed_while_read(
        build_changing(&t, rendering, move || {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&p)
                .expect("open");
            f.seek(SeekFrom::Start(4 << 20)).expect("seek");
            f.write_all(b"overwritten").expect("write");
        }),
        "evidence/logs/big.log",
    );
    assert!(!t.out().exists(), "nothing was published");

    // A small log appended to as rendering starts.
    restore(&t);
    let p = small_path.clone();
    changed_while_read(
        build_changing(&t, rendering, move || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&p)
                .expect("open");
            f.write_all(b"one more line\n").expect("append");
        }),
        "evidence/logs/a.log",
    );
    assert!(!t.out().exists(), "nothing was published");

    // A good build; then a log replaced by a new file (a rename over it),
    // and one truncated, just before the output would go in place.
    restore(&t);
    crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..kansoku::site::BuildOptions::default()
        },
    )
    .expect("a build with nothing changing");
    let before = t.tree();
    let p = small_path.clone();
    changed_while_read(
        build_changing(&t, writing, move || {
            let tmp = p.with_extension("new");
            std::fs::write(&tmp, std::fs::read(&p).expect("read")).expect("write");
            std::fs::rename(&tmp, &p).expect("rename");
        }),
        "evidence/logs/a.log",
    );
    before.assert_same(&t.tree(), "public/ after a replaced log");
    let p = big_path.clone();
    changed_while_read(
        build_changing(&t, writing, move || {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&p)
                .expect("open");
            f.set_len(1 << 20).expect("truncate");
        }),
        "evidence/logs/big.log",
    );
    before.assert_same(&t.tree(), "public/ after a truncated log");
}
