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
    let tmp = crate::scratch::tempdir();
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

// ---------------------------------------------------------------------------
// Issue 23: the same promise one level up, through whole builds of a small
// site and `clean`, with the moves that found its defects: a build
// directory linked into the sources (or beyond the site), damaged and
// forged records, entries planted in the spare, a person's file at a path
// the build writes. After every step no file of the person's (sources
// included) is removed or changed, and every build that succeeds leaves
// what a `--no-cache` build into a fresh directory writes, plus the
// person's files.

#[derive(Debug, Clone)]
enum SiteOp {
    Build,
    /// Adds or removes page `n % 3`, so builds write, replace and remove.
    Edit(u8),
    /// `public` becomes a link to: the site root, content/, evidence/,
    /// the site's parent, or a deploy directory outside.
    Link(u8),
    /// `public` is a plain directory again.
    Unlink,
    /// `build --out` into: the site root, content/, the site's parent,
    /// `site/../site`, or a directory of its own outside.
    BuildOut(u8),
    /// A record names a file outside the site (`../` or absolute).
    Forge(u8),
    /// `.kansoku/` deleted, or the manifest truncated or garbled.
    Damage(u8),
    /// A file planted in the spare, or a spare directory made a link.
    Plant(u8),
    /// A person's file at a path the build writes.
    Collide(u8),
    /// The person takes their colliding files away again.
    Uncollide,
    Clean,
}

fn site_op() -> impl Strategy<Value = SiteOp> {
    prop_oneof![
        6 => Just(SiteOp::Build),
        3 => any::<u8>().prop_map(SiteOp::Edit),
        1 => any::<u8>().prop_map(SiteOp::Link),
        1 => Just(SiteOp::Unlink),
        1 => any::<u8>().prop_map(SiteOp::BuildOut),
        1 => any::<u8>().prop_map(SiteOp::Forge),
        1 => any::<u8>().prop_map(SiteOp::Damage),
        1 => any::<u8>().prop_map(SiteOp::Plant),
        1 => any::<u8>().prop_map(SiteOp::Collide),
        1 => Just(SiteOp::Uncollide),
        1 => Just(SiteOp::Clean),
    ]
}

fn no_search() -> kansoku::site::BuildOptions {
    kansoku::site::BuildOptions {
        search: false,
        ..kansoku::site::BuildOptions::default()
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.expect("walkable");
        let dest = to.join(e.path().strip_prefix(from).expect("under"));
        if e.file_type().is_dir() {
            fs::create_dir_all(&dest).expect("mkdir");
        } else {
            fs::copy(e.path(), &dest).expect("copy");
        }
    }
}

fn relative(base: &Path, files: BTreeMap<PathBuf, Vec<u8>>) -> BTreeMap<PathBuf, Vec<u8>> {
    files
        .into_iter()
        .filter_map(|(p, b)| Some((p.strip_prefix(base).ok()?.to_path_buf(), b)))
        .collect()
}

fn run_site(ops: &[SiteOp]) -> Result<(), TestCaseError> {
    let tmp = crate::scratch::tempdir();
    let base = fs::canonicalize(tmp.path()).expect("canonical");
    let root = base.join("site");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic"),
        &root,
    );
    let deploy = base.join("deploy");
    let outside = base.join("outside");
    fs::create_dir_all(&deploy).expect("mkdir");
    fs::create_dir_all(&outside).expect("mkdir");
    fs::write(outside.join("precious.txt"), "precious").expect("write");
    let out = root.join("public");
    let mut theirs: BTreeMap<PathBuf, Vec<u8>> = snapshot(&base);
    let mut colliding: Vec<PathBuf> = Vec::new();
    for (step, op) in ops.iter().enumerate() {
        let linked = fs::symlink_metadata(&out).is_ok_and(|m| m.file_type().is_symlink());
        match op {
            SiteOp::Build => {
                let built = crate::common::build_with(&root, no_search());
                let target = fs::canonicalize(&out).unwrap_or_else(|_| out.clone());
                let safe = !linked || target == deploy;
                prop_assert!(
                    safe || built.is_err(),
                    "step {}: a build into {} succeeded",
                    step,
                    target.display()
                );
                if built.is_ok() {
                    prop_assert!(
                        colliding.is_empty(),
                        "step {}: a collision was built over",
                        step
                    );
                    // What a cold build into a fresh directory writes.
                    let fresh = base.join(format!("fresh-{step}"));
                    let cold = kansoku::site::BuildOptions {
                        out: Some(fresh.clone()),
                        cache: false,
                        ..no_search()
                    };
                    crate::common::build_with(&root, cold).expect("cold build");
                    let mut expected = relative(&fresh, snapshot(&fresh));
                    for (p, b) in &theirs {
                        if let Ok(rel) = p.strip_prefix(&target) {
                            expected.insert(rel.to_path_buf(), b.clone());
                        }
                    }
                    prop_assert_eq!(
                        relative(&target, snapshot(&target)),
                        expected,
                        "step {}",
                        step
                    );
                    fs::remove_dir_all(&fresh).expect("rm fresh");
                    let _ = fs::remove_dir_all(root.join(".kansoku/out"));
                }
            }
            SiteOp::Edit(n) => {
                let page = root.join(format!("content/notes/extra{}.md", n % 3));
                if page.exists() {
                    fs::remove_file(&page).expect("rm");
                    theirs.remove(&page);
                } else {
                    let text = format!(
                        "+++\ntitle = \"Extra {n}\"\n+++\n\n::: ja\n追加 {n}\n:::\n\n::: en\nExtra {n}\n:::\n"
                    );
                    fs::write(&page, &text).expect("write");
                    theirs.insert(page, text.into_bytes());
                }
            }
            SiteOp::Link(n) => {
                if fs::symlink_metadata(&out).is_ok() {
                    if linked {
                        fs::remove_file(&out).expect("unlink");
                    } else {
                        // The old tree is kept aside by the person.
                        let aside = base.join(format!("public-{step}"));
                        fs::rename(&out, &aside).expect("aside");
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
                        colliding.clear();
                    }
                }
                let to = match n % 5 {
                    0 => root.clone(),
                    1 => root.join("content"),
                    2 => root.join("evidence"),
                    3 => base.clone(),
                    _ => deploy.clone(),
                };
                #[cfg(unix)]
                std::os::unix::fs::symlink(&to, &out).expect("symlink");
            }
            SiteOp::BuildOut(n) => {
                let (dir, safe) = match n % 5 {
                    0 => (root.clone(), false),
                    1 => (root.join("content"), false),
                    2 => (base.clone(), false),
                    3 => (root.join("../site"), false),
                    _ => (base.join("elsewhere"), true),
                };
                let options = kansoku::site::BuildOptions {
                    out: Some(dir.clone()),
                    ..no_search()
                };
                let built = crate::common::build_with(&root, options);
                prop_assert_eq!(
                    built.is_ok(),
                    safe,
                    "step {}: --out {}",
                    step,
                    dir.display()
                );
                if safe {
                    fs::remove_dir_all(&dir).expect("rm the --out tree");
                    let _ = fs::remove_dir_all(root.join(".kansoku/out"));
                }
            }
            SiteOp::Unlink => {
                if linked {
                    fs::remove_file(&out).expect("unlink");
                    colliding.clear();
                }
            }
            SiteOp::Forge(n) => {
                let names = [
                    "public.manifest",
                    "public.manifest.pending",
                    "public.spare-manifest",
                ];
                let record = root.join(".kansoku").join(names[usize::from(*n) % 3]);
                let victim = if n % 2 == 0 {
                    "../../outside/precious.txt".to_owned()
                } else {
                    outside.join("precious.txt").display().to_string()
                };
                if let Ok(text) = fs::read_to_string(&record) {
                    if let Some((body, _)) = text.trim_end().rsplit_once('\n') {
                        let n = body.lines().count();
                        fs::write(
                            &record,
                            format!("{body}\n8 0000000000000001 - - - - - - - {victim}\nend {n}\n"),
                        )
                        .expect("forge");
                    }
                }
            }
            SiteOp::Damage(n) => {
                let record = root.join(".kansoku/public.manifest");
                match n % 3 {
                    0 => {
                        let _ = fs::remove_dir_all(root.join(".kansoku"));
                    }
                    1 => {
                        if let Ok(text) = fs::read_to_string(&record) {
                            fs::write(&record, &text[..text.len() / 2]).expect("truncate");
                        }
                    }
                    _ => {
                        if record.exists() {
                            fs::write(&record, "garbage\n").expect("garble");
                        }
                    }
                }
            }
            SiteOp::Plant(n) => {
                let spare = root.join(".kansoku/public.spare");
                if spare.join("en").is_dir() {
                    if n % 2 == 0 {
                        // `.kansoku/` is kansoku's own tree: what matters is
                        // that nothing planted there is published (the
                        // comparison with a cold build after each build).
                        fs::write(spare.join("en/planted.html"), "planted").expect("plant");
                    } else {
                        fs::remove_dir_all(spare.join("en")).expect("rm");
                        #[cfg(unix)]
                        std::os::unix::fs::symlink(&outside, spare.join("en")).expect("symlink");
                    }
                }
            }
            SiteOp::Collide(n) => {
                let target = fs::canonicalize(&out).unwrap_or_else(|_| out.clone());
                let safe = !linked || target == deploy;
                let rel = ["index.html", "en/index.html", "claims.json"][usize::from(*n) % 3];
                let p = target.join(rel);
                // Only where no file is: one kansoku wrote and a person
                // edited is still kansoku's, and written again.
                if safe && !p.exists() {
                    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
                    fs::write(&p, "a person's file").expect("write");
                    theirs.insert(p.clone(), b"a person's file".to_vec());
                    colliding.push(p);
                }
            }
            SiteOp::Uncollide => {
                for p in colliding.drain(..) {
                    let _ = fs::remove_file(&p);
                    theirs.remove(&p);
                }
            }
            SiteOp::Clean => {
                let _ = kansoku::clean::clean(&root);
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
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_source_or_persons_file_is_ever_lost_by_build_or_clean(
        ops in proptest::collection::vec(site_op(), 1..14)
    ) {
        run_site(&ops)?;
    }
}

// ---------------------------------------------------------------------------
// Issue 39 (capture and recapture): forged capture headers, forged facts
// and hand-edited approvals between recaptures, captures, checks and
// builds never run. In a file of its own, `build_dir_prop/captures.rs`.
mod captures;

// Issue 39 (drafts): pages turned into drafts and back between builds leave
// no trace of a draft under `public/` or in the archive, and cached builds
// equal cold ones. In a file of its own, `build_dir_prop/drafts.rs`.
mod drafts;

// Issue 39, finding 6 (records): a site copied, moved, or restored from a
// tar archive or a CI cache goes on being built where it now is. In a file
// of its own, `build_dir_prop/copies.rs`.
mod copies;
