//! Property test of the build directory (issue 11): over random sequences
//! of builds, killed builds, files a person puts into `public/`, built
//! files edited by hand, and `public/` turned into a symbolic link, no file
//! outside the staging and build trees (and kansoku's spare, issue 13) is
//! ever removed or changed, no file kansoku did not write is ever removed,
//! and every completed build leaves exactly its own files plus the
//! person's, with no staging tree behind and a spare only with its record.

use kansoku::site::output::Staging;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
enum Op {
    /// A whole build of version `v`: which pages exist depends on it.
    Build(u8),
    /// A build killed after writing `n` files.
    Kill(u8, u8),
    /// A person adds a file to the build directory.
    UserFile(u8),
    /// A file appears outside (beside the site, or in the link's target).
    OutsideFile(u8),
    /// `public/` becomes a symbolic link to a directory outside the site.
    Symlink,
    /// A person appends to a file the last build wrote, in place: the
    /// spare may share that inode.
    EditBuilt(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => any::<u8>().prop_map(Op::Build),
        2 => (any::<u8>(), 0u8..40).prop_map(|(v, n)| Op::Kill(v, n)),
        2 => any::<u8>().prop_map(Op::UserFile),
        1 => any::<u8>().prop_map(Op::OutsideFile),
        1 => Just(Op::Symlink),
        2 => any::<u8>().prop_map(Op::EditBuilt),
    ]
}

/// The files of build version `v`: pages come and go with `v`, and some
/// bytes change, so builds link, write and remove.
fn output(v: u8) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![("index.html".to_owned(), format!("home {v}").into_bytes())];
    for i in 0..12u8 {
        if (v >> (i % 8)) & 1 == 1 || i % 3 == 0 {
            for lang in ["ja", "en"] {
                let body = if i % 2 == 0 {
                    format!("{lang} page {i}")
                } else {
                    format!("{lang} page {i} of {v}")
                };
                files.push((
                    format!("{lang}/s{}/p{i}/index.html", i % 4),
                    body.into_bytes(),
                ));
            }
        }
    }
    files
}

/// Where a person's file goes: names kansoku never writes, at several
/// depths, dot-files (kept by default) among them.
fn user_path(n: u8) -> String {
    match n % 6 {
        0 => format!(".git/objects/{n}"),
        1 => format!("notes-{n}.txt"),
        2 => format!("ja/s1/user-{n}.txt"),
        3 => format!(".well-known/x-{n}"),
        // Deep in a page's directory, which a survey may not read again
        // unless its identity moved.
        4 => format!("en/s{}/p{}/user-{n}.txt", n % 12 % 4, n % 12),
        _ => format!("deep/user/{n}.bin"),
    }
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    if !dir.exists() {
        return out;
    }
    for e in walkdir::WalkDir::new(dir).follow_links(false) {
        let e = e.expect("walkable");
        if e.file_type().is_file() {
            out.insert(
                e.path().to_path_buf(),
                fs::read(e.path()).expect("readable"),
            );
        }
    }
    out
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("site");
    let outside = tmp.path().join("outside");
    let deploy = tmp.path().join("deploy");
    fs::create_dir_all(&root).expect("mkdir");
    fs::create_dir_all(&outside).expect("mkdir");
    fs::create_dir_all(&deploy).expect("mkdir");
    fs::write(root.join("book.toml"), "[book]\n").expect("write");
    fs::write(outside.join("precious"), "outside").expect("write");
    fs::write(deploy.join(".git-config"), "deploy").expect("write");
    let out = root.join("public");
    // Every file nobody but the person may remove: path → bytes.
    let mut theirs: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
    theirs.insert(outside.join("precious"), b"outside".to_vec());
    theirs.insert(root.join("book.toml"), b"[book]\n".to_vec());
    theirs.insert(deploy.join(".git-config"), b"deploy".to_vec());
    let mut linked = false;
    // The files the last completed build wrote, where they are.
    let mut built: Vec<PathBuf> = Vec::new();
    for (step, op) in ops.iter().enumerate() {
        match op {
            Op::Build(v) => {
                let files = output(*v);
                let staging = Staging::begin(&out).expect("begin");
                for (p, b) in &files {
                    staging.write(p, b).expect("write");
                }
                staging.commit().expect("commit");
                // Exactly this build's files, plus the person's.
                let target = if linked { deploy.clone() } else { out.clone() };
                let mut expected: BTreeMap<PathBuf, Vec<u8>> = files
                    .iter()
                    .map(|(p, b)| (target.join(p), b.clone()))
                    .collect();
                for (p, b) in &theirs {
                    if p.starts_with(&target) {
                        expected.insert(p.clone(), b.clone());
                    }
                }
                prop_assert_eq!(snapshot(&target), expected, "step {}: {:?}", step, op);
                let litter: Vec<_> = fs::read_dir(&root)
                    .expect("root")
                    .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                    .filter(|n| n.contains(".kansoku-"))
                    .collect();
                prop_assert!(litter.is_empty(), "step {}: {:?}", step, litter);
                let state = root.join(".kansoku");
                prop_assert_eq!(
                    state.join("public.spare").exists(),
                    state.join("public.spare-manifest").exists(),
                    "step {}: a spare goes with its record",
                    step
                );
                let temporary: Vec<_> = snapshot(&root)
                    .into_keys()
                    .filter(|p| p.to_string_lossy().contains(".kansoku-tmp"))
                    .collect();
                prop_assert!(temporary.is_empty(), "step {}: {:?}", step, temporary);
                built = files.into_iter().map(|(p, _)| target.join(p)).collect();
            }
            Op::Kill(v, n) => {
                let staging = Staging::begin(&out).expect("begin");
                for (p, b) in output(*v).iter().take(usize::from(*n)) {
                    staging.write(p, b).expect("write");
                }
                staging.abandon();
            }
            Op::UserFile(n) => {
                let base = if linked { &deploy } else { &out };
                let path = base.join(user_path(*n));
                fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                let bytes = format!("user {n} at step {step}").into_bytes();
                fs::write(&path, &bytes).expect("write");
                theirs.insert(path, bytes);
            }
            Op::OutsideFile(n) => {
                let path = if n % 2 == 0 {
                    outside.join(format!("f{n}"))
                } else {
                    deploy.join(format!("sub/f{n}"))
                };
                fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                let bytes = format!("outside {n}").into_bytes();
                fs::write(&path, &bytes).expect("write");
                theirs.insert(path, bytes);
            }
            Op::EditBuilt(n) => {
                if !built.is_empty() {
                    let path = &built[usize::from(*n) % built.len()];
                    if let Ok(mut f) = fs::OpenOptions::new().append(true).open(path) {
                        use std::io::Write;
                        f.write_all(b" edited").expect("append");
                    }
                }
            }
            Op::Symlink => {
                built.clear();
                if !linked {
                    // What was in public/ stays where it is, renamed aside,
                    // as a person would keep an old tree.
                    if out.exists() {
                        let aside = tmp.path().join(format!("public-{step}"));
                        fs::rename(&out, &aside).expect("move aside");
                        theirs = theirs
                            .into_iter()
                            .map(|(p, b)| match p.strip_prefix(&out) {
                                Ok(rel) => (aside.join(rel), b),
                                Err(_) => (p, b),
                            })
                            .collect();
                        for (p, b) in snapshot(&aside) {
                            theirs.entry(p).or_insert(b);
                        }
                    }
                    #[cfg(unix)]
                    std::os::unix::fs::symlink(&deploy, &out).expect("symlink");
                    linked = cfg!(unix);
                }
            }
        }
        for (p, b) in &theirs {
            let got = fs::read(p);
            prop_assert!(
                got.as_deref().ok() == Some(b.as_slice()),
                "step {} ({:?}): {} was removed or changed",
                step,
                op,
                p.display()
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_file_outside_the_build_is_ever_removed(ops in proptest::collection::vec(op(), 1..12)) {
        run(&ops)?;
    }
}

/// The sequence that reaches a survey reading only what moved: a person's
/// file deep in a page directory, once both trees have their records.
#[test]
fn a_file_in_a_page_directory_after_swaps_is_kept() {
    run(&[
        Op::Build(255),
        Op::Build(255),
        Op::Build(255),
        Op::Build(255),
        Op::UserFile(4),
        Op::Build(255),
        Op::Build(255),
    ])
    .expect("holds");
}
