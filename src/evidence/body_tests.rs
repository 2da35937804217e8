//! Tests of `body`: a body streamed from disk (a large log, or a `.gz`
//! decompressed again) gives the same answers as the same text held.

use super::body::*;
use super::gz::Gz;
use std::fs::File;
use std::io::Write;
use std::sync::Arc;

/// A body written to a file and scanned, beside the same text held.
fn both(text: &[u8]) -> (Body, Body) {
    let mut f = tempfile::tempfile().expect("temp file");
    f.write_all(text).expect("write");
    let scanned = Streamed::scan_file(f, 0, 0, true, None)
        .expect("read")
        .expect("UTF-8");
    let held = crate::source::decode("x", text).expect("UTF-8");
    // The hash a capture is verified by, as check makes it of held text.
    assert_eq!(scanned.sha256, Some(super::body_sha256(&held)));
    (Body::held(held), Body::Streamed(Arc::new(scanned.body)))
}

fn lines(b: &Body) -> Vec<String> {
    let mut out = Vec::new();
    b.for_each_line(1, usize::MAX, |_, l| out.push(l.to_owned()))
        .expect("read");
    out
}

#[test]
fn streamed_and_held_bodies_read_alike() {
    let mut long = Vec::new();
    for i in 0..40_000 {
        long.extend_from_slice(format!("line {i} 観測\r\n").as_bytes());
    }
    long.extend_from_slice(b"tail\rno end");
    for text in [
        &b""[..],
        b"\n",
        b"a",
        b"a\n",
        b"a\r\nb\r",
        b"\n\nx\n",
        &long,
    ] {
        let (held, streamed) = both(text);
        assert_eq!(held.lines(), streamed.lines(), "{text:?}");
        assert_eq!(lines(&held), lines(&streamed));
        for n in [1, 2, 3, 17_000, 39_999, 40_001] {
            let (a, b) = (n, n + 2);
            let mut one = Vec::new();
            let mut two = Vec::new();
            held.for_each_line(a, b, |n, l| one.push((n, l.to_owned())))
                .expect("held");
            streamed
                .for_each_line(a, b, |n, l| two.push((n, l.to_owned())))
                .expect("streamed");
            assert_eq!(one, two, "lines {a}-{b}");
            assert_eq!(held.lines_hash(a, b).ok(), streamed.lines_hash(a, b).ok());
        }
        for needle in [
            "line 17000 観測\nline 17001",
            "観測\nline 3",
            "tail\rno",
            "x",
            "nowhere",
        ] {
            assert_eq!(
                held.find(needle).ok(),
                streamed.find(needle).ok(),
                "{needle:?}"
            );
            assert_eq!(
                held.contains(17_001, 17_002, needle).ok(),
                streamed.contains(17_001, 17_002, needle).ok(),
                "{needle:?}"
            );
        }
    }
}

/// The text of a `.gz` of several members, scanned as a large one is
/// and read back at random: the same answers as the text held.
#[test]
fn a_gzip_body_read_again_answers_as_the_held_text() {
    let text: String = (0..90_000)
        .map(|i| format!("[{i:>6}] ring test {}\n", i % 13))
        .collect();
    let third = text.len() / 3 - 7;
    let members: Vec<u8> = [&text[..third], &text[third..]]
        .iter()
        .flat_map(|part| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(part.as_bytes()).expect("gzip");
            gz.finish().expect("gzip")
        })
        .collect();
    let tmp = crate::scratch::tempdir();
    let path = tmp.path().join("log.gz");
    std::fs::write(&path, &members).expect("write");
    let mut inflate = super::gz::Inflate::open(&path, u64::MAX).expect("open");
    let source = Source::Gz(Box::new(Gz::new(
        File::open(&path).expect("open"),
        Vec::new(),
    )));
    let mut scanned = Streamed::scan(&mut inflate, source, 0, 0, false, None)
        .expect("read")
        .expect("UTF-8");
    let (hash, len, reader) = inflate.finish();
    assert_eq!(hash, crate::hash::content_hash(&members));
    assert_eq!(len, text.len() as u64);
    scanned.body.set_source(Source::Gz(Box::new(reader)));
    let streamed = Body::Streamed(Arc::new(scanned.body));
    let held = Body::held(text.clone());
    assert_eq!(held.lines(), streamed.lines());
    for n in [89_000, 3, 45_000, 29_990, 1, 90_000, 60_000] {
        let mut one = Vec::new();
        let mut two = Vec::new();
        held.for_each_line(n, n + 4, |n, l| one.push((n, l.to_owned())))
            .expect("held");
        streamed
            .for_each_line(n, n + 4, |n, l| two.push((n, l.to_owned())))
            .expect("streamed");
        assert_eq!(one, two, "line {n}");
    }
    for needle in ["[ 77777] ring", "[ 29999] ring test 3\n[ 30000]", "nowhere"] {
        assert_eq!(
            held.find(needle).ok(),
            streamed.find(needle).ok(),
            "{needle}"
        );
    }
}

#[test]
fn windows_of_streamed_and_held_bodies_agree() {
    let text: String = (0..30_000).map(|i| format!("{} \n", i % 7)).collect();
    let (held, streamed) = both(text.as_bytes());
    let collect = |b: &Body| {
        let mut out = Vec::new();
        b.windows(3, |s, lines| {
            if lines.map(str::trim_end).collect::<Vec<_>>() == ["2", "3", "4"] {
                out.push(s);
            }
        })
        .expect("read");
        out
    };
    let h = collect(&held);
    assert_eq!(h.len(), (0..30_000 - 2).filter(|i| i % 7 == 2).count());
    assert_eq!(h, collect(&streamed));
}

#[test]
fn a_line_past_the_cap_is_cut_at_a_character_and_named() {
    let mut text = "観".repeat(LINE_CAP / 3 + 5).into_bytes();
    text.extend_from_slice(b"\nnext\n");
    let mut f = tempfile::tempfile().expect("temp file");
    f.write_all(&text).expect("write");
    let body = Body::Streamed(Arc::new(
        Streamed::scan_file(f, 0, 0, false, None)
            .expect("read")
            .expect("UTF-8")
            .body,
    ));
    assert_eq!(body.long_line(), Some((1, 1)));
    let got = lines(&body);
    assert_eq!(got.len(), 2);
    assert!(
        got[0].len() <= LINE_CAP && got[0].len() > LINE_CAP - 3,
        "{}",
        got[0].len()
    );
    assert!(got[0].chars().all(|c| c == '観'));
    assert_eq!(got[1], "next");
}

#[test]
fn the_first_byte_not_utf8_is_placed_as_decode_places_it() {
    for (text, at) in [
        (b"ab\ncd\xffe".to_vec(), (2, 3, 5)),
        (b"\xe8\xa6".to_vec(), (1, 1, 0)),
        (
            [
                b"x\n".repeat(50_000),
                "観".as_bytes()[..2].to_vec(),
                b"!".to_vec(),
            ]
            .concat(),
            (50_001, 1, 100_000),
        ),
    ] {
        let mut f = tempfile::tempfile().expect("temp file");
        f.write_all(&text).expect("write");
        let got = Streamed::scan_file(f, 0, 0, false, None)
            .expect("read")
            .err()
            .expect("not UTF-8");
        assert_eq!((got.line, got.col, got.offset), (at.0, at.1, at.2 as u64));
        let d = crate::source::decode("x", &text).expect_err("not UTF-8");
        assert_eq!((d.location.line, d.location.col), (at.0, at.1));
        assert_eq!(d.message, format!("invalid UTF-8 at byte {}", at.2));
    }
}
