//! Records of another directory, or damaged ones, taken file by file: a
//! file of the build directory that holds exactly the bytes such a record
//! names at its path is kansoku's (the site was copied, moved or restored,
//! or the record was cut or flipped), and where that proof is enough.

use super::manifest::{identity, Entry, Manifest, Paths};
use std::collections::HashMap;
use std::fs;
use std::path::Path;

impl Paths {
    /// Adds to `m`, what [`Paths::load_native`] read of `dir`, each file of
    /// `dir` that holds exactly the bytes (size and hash) that one of the
    /// other records (`native` false) names at its path: one describing
    /// another directory (the build directory was copied, moved or
    /// restored: its records name the directory they were made in) or a
    /// damaged one (cut, flipped). Every line is checked against the file
    /// it names (never through a link), and a record with a path that
    /// leaves the tree is ignored whole, as [`Manifest::parse`] ignores
    /// it. What a build goes by.
    ///
    /// After the spare is removed, if it is: removing a tree that shares
    /// inodes with `dir` moves their change time, and with it the identity
    /// read here.
    pub(super) fn vouch(&self, m: &mut Manifest, native: [bool; 4], dir: &Path) {
        use rayon::prelude::*;
        let mut named: HashMap<String, Vec<(u64, u64)>> = HashMap::new();
        for (path, _) in self.records().into_iter().zip(native).filter(|(_, n)| !n) {
            let Ok(bytes) = fs::read(path) else {
                continue;
            };
            let Some(lines) = parse_lenient(&String::from_utf8_lossy(&bytes)) else {
                continue;
            };
            for (p, size, hash) in lines {
                if !m.files.contains_key(&p) {
                    named.entry(p).or_default().push((size, hash));
                }
            }
        }
        let found: Vec<(String, Found)> = named
            .into_par_iter()
            .map(|(p, said)| {
                let found = examine(dir, &p, &said);
                (p, found)
            })
            .collect();
        for (p, found) in found {
            match found {
                Found::Same(e) => {
                    m.vouched.insert(p.clone());
                    m.files.insert(p, e);
                }
                Found::Other => {
                    m.changed.insert(p);
                }
                Found::Absent => {}
            }
        }
    }
}

impl Manifest {
    /// Keeps of the vouched paths (see [`Manifest::vouched`]) those where
    /// the bytes a record names are proof enough: the paths this build
    /// writes (`writes`), whose file is then replaced; and, among those
    /// it does not, the ones under a top directory it writes into
    /// (`writes_into`), none of whose names starts with a dot, where an
    /// earlier build's stale output lies (a deleted page), then removed.
    /// The others stay someone else's and are left in place: a record
    /// from elsewhere (a pull request can hold `.kansoku/`) may name a
    /// person's `CNAME`, `.git/` or `downloads/` by their bytes.
    pub(super) fn settle_vouched(
        &mut self,
        writes: impl Fn(&str) -> bool,
        writes_into: impl Fn(&str) -> bool,
    ) {
        let doubtful: Vec<String> = self
            .vouched
            .iter()
            .filter(|p| {
                !writes(p)
                    && !p.split_once('/').is_some_and(|(top, _)| {
                        writes_into(top) && !p.split('/').any(|s| s.starts_with('.'))
                    })
            })
            .cloned()
            .collect();
        for p in doubtful {
            self.files.remove(&p);
            self.vouched.remove(&p);
        }
    }
}

/// Every line of a record that reads as one (`size hash id… path`),
/// whatever directory its first line names and whether or not it is
/// whole: what a copied or damaged record still says. `None` when a line
/// names a path that is not plain (`../x`): such a record is forged. A
/// last line without its newline was cut, and is not read: cut after a
/// `/` its path is not plain, which is damage, not forgery.
fn parse_lenient(text: &str) -> Option<Vec<(String, u64, u64)>> {
    let mut out = Vec::new();
    for line in text.split_inclusive('\n') {
        let Some(line) = line.strip_suffix('\n') else {
            continue;
        };
        let f: Vec<&str> = line.splitn(10, ' ').collect();
        let [size, hash, ref id @ .., path] = f[..] else {
            continue;
        };
        let (Ok(size), Ok(hash)) = (size.parse(), u64::from_str_radix(hash, 16)) else {
            continue;
        };
        if id.len() != 7 {
            continue;
        }
        if !super::plain(path) {
            return None;
        }
        out.push((path.to_owned(), size, hash));
    }
    Some(out)
}

/// What the file at a path a record names holds.
enum Found {
    /// The bytes the record names: kansoku's, with its identity now.
    Same(Entry),
    /// Other bytes.
    Other,
    /// Nothing, a link, a directory, or a path through a link.
    Absent,
}

/// The file at `rel` under `dir` against the sizes and hashes `said` of
/// it: read whole only when a size matches, and trusted only if its
/// identity did not move while it was read.
fn examine(dir: &Path, rel: &str, said: &[(u64, u64)]) -> Found {
    if !super::tree::real_parents(dir, rel) {
        return Found::Absent;
    }
    let path = dir.join(rel);
    let Some(before) = fs::symlink_metadata(&path)
        .ok()
        .filter(fs::Metadata::is_file)
    else {
        return Found::Absent;
    };
    let Some(id) = identity(&before) else {
        return Found::Absent;
    };
    if !said.iter().any(|(size, _)| *size == before.len()) {
        return Found::Other;
    }
    let Ok(hash) = crate::hash::file_hash(&path) else {
        return Found::Absent;
    };
    let after = fs::symlink_metadata(&path).ok().and_then(|m| identity(&m));
    if after != Some(id) {
        return Found::Other;
    }
    if said.contains(&(before.len(), hash)) {
        Found::Same(Entry {
            size: before.len(),
            hash,
            id: Some(id),
        })
    } else {
        Found::Other
    }
}

#[cfg(test)]
mod tests {
    use super::super::manifest::{dir_identity, entries_on_disk, save};
    use super::*;

    #[test]
    fn a_damaged_or_foreign_record_still_says_its_whole_lines() {
        let text = "kansoku-manifest 2 1 2\n1 00000000000000ff - - - - - - - a\n2 0000000000000010 5 6 7 8 9 10 644 b/c\n3 00000000000000ff - - - ";
        let lines = parse_lenient(text).expect("not forged");
        assert_eq!(
            lines,
            [("a".to_owned(), 1, 0xff), ("b/c".to_owned(), 2, 0x10)]
        );
        // A flipped line is skipped; a path out of the tree voids it all.
        let flipped = "kansoku-manifesu 2 1 2\nx 00000000000000ff - - - - - - - a\n1 00000000000000ff - - - - - - - d\nend 2\n";
        assert_eq!(parse_lenient(flipped).expect("not forged").len(), 1);
        for bad in ["../x", "/etc/passwd", "a//b", "a\\b"] {
            let forged = format!(
                "1 00000000000000ff - - - - - - - a\n1 00000000000000ff - - - - - - - {bad}\n"
            );
            assert!(parse_lenient(&forged).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_record_cut_inside_a_path_still_says_its_whole_lines() {
        // Cut after a `/`, the last line's path is not plain: that is
        // damage, not forgery, and the whole lines count.
        let whole = "kansoku-manifest 2 1 2\n1 00000000000000ff - - - - - - - a\n2 0000000000000010 - - - - - - - ja/s1/index.html\nend 2\n";
        for cut in ["ja/s1/", "ja/", "ja/s1/index.h"] {
            let at = whole.find(cut).expect("in the record") + cut.len();
            let lines = parse_lenient(&whole[..at]).expect("damaged, not forged");
            assert_eq!(lines, [("a".to_owned(), 1, 0xff)], "cut after {cut:?}");
        }
        assert_eq!(parse_lenient(whole).expect("whole").len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_copied_directory_keeps_the_files_that_hold_the_recorded_bytes() {
        let tmp = crate::scratch::tempdir();
        let out = tmp.path().join("public");
        fs::create_dir_all(out.join("en")).expect("mkdir");
        let files = [("a.html", "a"), ("en/b.html", "bb"), ("en/c.html", "ccc")];
        for (p, b) in files {
            fs::write(out.join(p), b).expect("write");
        }
        let written: Vec<(String, u64, u64)> = files
            .iter()
            .map(|(p, b)| {
                (
                    (*p).to_owned(),
                    b.len() as u64,
                    crate::hash::content_hash(b.as_bytes()),
                )
            })
            .collect();
        let paths = Paths::new(&tmp.path().join(".kansoku"), &out, "public");
        let dir = dir_identity(&out).expect("identity");
        save(
            &paths.committed,
            dir,
            entries_on_disk(&out, &written).into_iter(),
        )
        .expect("save");
        // The directory replaced by a copy of itself: new inodes, one file
        // edited, one replaced by a link to the same bytes elsewhere.
        let moved = tmp.path().join("moved");
        fs::rename(&out, &moved).expect("rename");
        fs::create_dir_all(out.join("en")).expect("mkdir");
        fs::write(out.join("a.html"), "a").expect("write");
        fs::write(out.join("en/b.html"), "b!").expect("write");
        std::os::unix::fs::symlink(moved.join("en/c.html"), out.join("en/c.html")).expect("link");
        let (mut m, native) = paths.load_native(&out);
        assert!(m.files.is_empty(), "the record names another directory");
        paths.vouch(&mut m, native, &out);
        assert_eq!(m.vouched.iter().collect::<Vec<_>>(), ["a.html"]);
        assert!(m
            .linkable("a.html", 1, crate::hash::content_hash(b"a"))
            .is_some());
        assert_eq!(m.changed.iter().collect::<Vec<_>>(), ["en/b.html"]);
        assert!(!m.owns("en/c.html"), "a link is never kansoku's");
    }

    #[test]
    fn vouched_paths_count_only_where_a_build_writes() {
        let mut m = Manifest::default();
        for p in [
            "index.html",
            "CNAME",
            "en/gone/index.html",
            "en/.well-known/x",
            "downloads/x.html",
        ] {
            m.files.insert(
                p.to_owned(),
                Entry {
                    size: 1,
                    hash: 1,
                    id: None,
                },
            );
            m.vouched.insert(p.to_owned());
        }
        m.files.insert(
            "mine.html".to_owned(),
            Entry {
                size: 1,
                hash: 1,
                id: None,
            },
        );
        m.settle_vouched(|p| p == "index.html", |top| top == "en");
        let mut kept: Vec<&str> = m.files.keys().map(String::as_str).collect();
        kept.sort_unstable();
        assert_eq!(kept, ["en/gone/index.html", "index.html", "mine.html"]);
    }
}
