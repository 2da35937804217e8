//! Search stage, memoised: a shard whose pages have not changed since the
//! last run keeps the files it had, and only the shards holding an edited,
//! added or removed page are indexed again.
//!
//! A shard's files are a pure function of its language, its place in the
//! bundle and its pages (URL and bytes): Pagefind indexes each shard on its
//! own, and `tests/it/threads.rs` holds the output byte-identical across runs.
//! So a shard is keyed by a hash of exactly those, with each page's bytes
//! standing in as the content hash the output writer already computed for
//! them, and pages are only read (and reduced) for the shards indexed again.
//! What the memo stores is hashes; the files themselves stay where the last
//! run put them, and the caller decides whether they can be taken from there
//! (a build: only if its manifest still describes them).

use super::{pagefind, CLAIMS_FILE, LANGS, SHARDS_FILE, SHARD_PAGES};
use crate::error::{Error, Result};
use crate::render::paths::bundle_dir;
use crate::render::OutputFile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// What the last run indexed: for each shard (`<lang>/<k>`), its key and
/// the files it produced with their content hashes.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct Memo {
    /// Which kansoku wrote it ([`crate::version::build_id`]): Pagefind and
    /// the page reduction come with it.
    version: String,
    shards: BTreeMap<String, Shard>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Shard {
    key: u64,
    files: Vec<(String, u64)>,
}

impl Memo {
    /// The memo saved at `path`, or an empty one when there is none, it is
    /// unreadable, or another kansoku version wrote it: it only ever saves
    /// work, so a bad one costs a full index, never an error.
    pub fn read(path: &std::path::Path) -> Memo {
        std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Memo>(&b).ok())
            .filter(|m| m.version == crate::version::build_id())
            .unwrap_or_default()
    }

    /// Saves the memo at `path` (its directory is made if missing), by a
    /// rename, so a reader never sees half of it.
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let bytes = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        crate::fsutil::write_atomic(path, &bytes)
    }
}

/// Gives a page reduced for Pagefind by its output path (see
/// [`super::index_memoised`]).
pub type Load<'a> = dyn Fn(&str) -> Option<Vec<u8>> + Sync + 'a;

/// Takes an unchanged shard's files from the last run, all or none.
pub type Reuse<'a> = dyn Fn(&[(String, u64)]) -> bool + Sync + 'a;

/// A run of the search stage: the files to write, and the paths of those
/// taken unchanged from the last run (already in place through `reuse`).
#[derive(Debug, Default)]
pub struct Indexed {
    /// The files to write: the shards indexed in this run, and each
    /// language's shard list and claim classes.
    pub files: Vec<OutputFile>,
    /// The files of the shards taken from the last run.
    pub kept: Vec<String>,
    /// Shards in all.
    pub shards: usize,
    /// Shards indexed in this run.
    pub indexed: usize,
    /// Each language's bundle, in language order.
    pub languages: Vec<(String, Shards)>,
}

/// One language's search bundle in a run: what `KANSOKU_TIMINGS` prints
/// of it, as a value (a build's report carries it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shards {
    /// Its pages.
    pub pages: usize,
    /// Its shards.
    pub shards: usize,
    /// Of those, the shards indexed in this run; the others were taken
    /// from the last run unchanged.
    pub indexed: usize,
}

/// The search bundles of every language for the indexed pages `pages`
/// (output path of each `<lang>/…/index.html` and the content hash of its
/// bytes), memoised in `memo`, which is replaced by this run's.
///
/// - `load(path)`: the page at `path` reduced for Pagefind (see
///   [`super::searchable`]); `None` leaves it out (gone meanwhile, or an
///   error the caller keeps for itself).
/// - `reuse(files)`: takes the last run's files of an unchanged shard into
///   this run's output, all of them or none (`false`: index it again).
pub(super) fn index(
    base: &str,
    classes: &str,
    pages: &[(String, u64)],
    memo: &mut Memo,
    load: &Load<'_>,
    reuse: &Reuse<'_>,
) -> Result<Indexed> {
    let langs: Vec<(&str, Vec<PageRef<'_>>)> = LANGS
        .iter()
        .map(|lang| (*lang, super::select::language_pages(pages, lang, base)))
        .collect();
    let mut jobs = Vec::new();
    for (lang, mine) in &langs {
        // An empty tree still gets a bundle, so the search box loads.
        if mine.is_empty() {
            jobs.push(Job {
                lang,
                k: 0,
                pages: &[],
            });
        }
        for (k, chunk) in mine.chunks(SHARD_PAGES).enumerate() {
            jobs.push(Job {
                lang,
                k,
                pages: chunk,
            });
        }
    }
    let mut done: Vec<Option<anyhow::Result<Done>>> = run_jobs(&jobs, memo, load, reuse)
        .into_iter()
        .map(Some)
        .collect();
    let mut out = Indexed::default();
    let mut next = Memo {
        version: crate::version::build_id().to_owned(),
        shards: BTreeMap::new(),
    };
    for (lang, mine) in &langs {
        let mut dirs = Vec::new();
        let (mut shards, mut indexed, mut time) = (0, 0, std::time::Duration::ZERO);
        for (i, job) in jobs.iter().enumerate().filter(|(_, j)| j.lang == *lang) {
            let result = done[i].take().expect("each job is read once");
            // Not a content problem and not a diagnostic code: Pagefind
            // failing is the build failing to produce these files.
            let shard = result.map_err(|e| {
                Error::io(
                    bundle_dir(lang),
                    std::io::Error::other(format!("the search index could not be built: {e:#}")),
                )
            })?;
            shards += 1;
            time += shard.time;
            match shard.fresh {
                None => out.kept.extend(shard.files.iter().map(|(p, _)| p.clone())),
                Some(fresh) => {
                    indexed += 1;
                    out.files.extend(fresh);
                }
            }
            if job.k > 0 {
                dirs.push(pagefind::shard_dir(job.k));
            }
            next.shards.insert(
                job.name(),
                Shard {
                    key: shard.key,
                    files: shard.files,
                },
            );
        }
        out.shards += shards;
        out.indexed += indexed;
        out.languages.push((
            (*lang).to_owned(),
            Shards {
                pages: mine.len(),
                shards,
                indexed,
            },
        ));
        out.files.push(OutputFile {
            path: format!("{}/{SHARDS_FILE}", bundle_dir(lang)),
            bytes: serde_json::to_vec(&dirs).expect("a list of strings serializes"),
        });
        out.files.push(OutputFile {
            path: format!("{}/{CLAIMS_FILE}", bundle_dir(lang)),
            bytes: classes.as_bytes().to_vec(),
        });
        if std::env::var_os("KANSOKU_TIMINGS").is_some() {
            eprintln!(
                "timing: search {lang} {:>6} ms ({} pages, {indexed} of {shards} shards indexed)",
                time.as_millis(),
                mine.len(),
            );
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.kept.sort();
    *memo = next;
    Ok(out)
}

/// A page as a shard sees it: `(url, output path, content hash)`.
type PageRef<'a> = (String, &'a str, u64);

/// Shard `k` of a language's bundle, and its pages.
struct Job<'a> {
    lang: &'a str,
    k: usize,
    pages: &'a [PageRef<'a>],
}

impl Job<'_> {
    fn name(&self) -> String {
        format!("{}/{}", self.lang, self.k)
    }
}

/// A shard after its job: its key and files, with their bytes if it was
/// indexed in this run (`None`: kept from the last), and the time it took.
struct Done {
    key: u64,
    files: Vec<(String, u64)>,
    fresh: Option<Vec<OutputFile>>,
    time: std::time::Duration,
}

/// Threads indexing shards side by side: each holds one shard's words
/// until its files are built, so this bounds the stage's memory.
const WORKERS: usize = 2;

/// Runs every job on [`WORKERS`] threads of our own, each taking the next
/// job in the list when it is done with one: Japanese shards take longer
/// than English ones, so one thread per language left a core idle for the
/// last third of the stage. Threads of our own also keep Pagefind's
/// runtime and its long jobs clear of the caller's rayon pool (a server
/// rebuilding while it indexes). Each shard is a pure function of its job,
/// so the order jobs finish in changes nothing. Results are in job order.
fn run_jobs(
    jobs: &[Job<'_>],
    before: &Memo,
    load: &Load<'_>,
    reuse: &Reuse<'_>,
) -> Vec<anyhow::Result<Done>> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let slots: Vec<Mutex<Option<anyhow::Result<Done>>>> =
        jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS.min(jobs.len()))
            .map(|_| {
                s.spawn(|| -> anyhow::Result<()> {
                    let rt = tokio::runtime::Builder::new_current_thread().build()?;
                    while !failed.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let result = run_job(job, before, load, reuse, &rt);
                        failed.fetch_or(result.is_err(), Ordering::Relaxed);
                        *crate::sync::lock(&slots[i]) = Some(result);
                    }
                    Ok(())
                })
            })
            .collect();
        for w in workers {
            let outcome = w
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the indexing thread panicked")));
            if let Err(e) = outcome {
                failed.store(true, Ordering::Relaxed);
                // Reported in the first job that has no result.
                if let Some(slot) = slots.iter().find(|s| crate::sync::lock(s).is_none()) {
                    *crate::sync::lock(slot) = Some(Err(e));
                }
            }
        }
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .unwrap_or_else(|| Err(anyhow::anyhow!("stopped after another shard failed")))
        })
        .collect()
}

/// One shard: taken from the last run if its key is the same and `reuse`
/// takes its files, indexed otherwise.
fn run_job(
    job: &Job<'_>,
    before: &Memo,
    load: &Load<'_>,
    reuse: &Reuse<'_>,
    rt: &tokio::runtime::Runtime,
) -> anyhow::Result<Done> {
    let start = std::time::Instant::now();
    let key = shard_key(job.lang, job.k, job.pages);
    if let Some(last) = before.shards.get(&job.name()).filter(|s| s.key == key) {
        if reuse(&last.files) {
            return Ok(Done {
                key,
                files: last.files.clone(),
                fresh: None,
                time: start.elapsed(),
            });
        }
    }
    let loaded: Vec<(String, Vec<u8>)> = job
        .pages
        .iter()
        .filter_map(|(url, path, _)| {
            let page = crate::cost::timed(crate::cost::Kind::Read, || load(path))?;
            Some((url.clone(), page))
        })
        .collect();
    let fresh = rt.block_on(pagefind::shard(job.lang, job.k, &loaded))?;
    drop(loaded);
    // Pagefind's index of the shard is gone: hand its pages back before
    // this thread takes the next shard, so two shards' worth is the most
    // the stage holds.
    crate::memory::collect();
    Ok(Done {
        key,
        files: fresh
            .iter()
            .map(|f| (f.path.clone(), crate::hash::content_hash(&f.bytes)))
            .collect(),
        fresh: Some(fresh),
        time: start.elapsed(),
    })
}

/// Everything a shard's files are made from: which kansoku built them (Pagefind's
/// and the reduction's), the language, the shard's place, and each page's
/// URL and content hash, in order.
fn shard_key(lang: &str, k: usize, pages: &[PageRef<'_>]) -> u64 {
    let mut h = crate::hash::memo::hasher();
    crate::version::build_id().hash(&mut h);
    SHARD_PAGES.hash(&mut h);
    lang.hash(&mut h);
    k.hash(&mut h);
    for (url, _, hash) in pages {
        url.hash(&mut h);
        hash.hash(&mut h);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, text: &str) -> OutputFile {
        let lang = path.split('/').next().unwrap_or("en");
        OutputFile {
            path: path.to_owned(),
            bytes: format!(
                "<!DOCTYPE html><html lang=\"{lang}\"><body><main data-pagefind-body><h1>{text}</h1><p>{text} body</p></main></body></html>"
            )
            .into_bytes(),
        }
    }

    fn run(files: &[OutputFile], memo: &mut Memo) -> Indexed {
        run_reusing(files, memo, true)
    }

    /// A run whose `reuse` answers `reuse` for every shard.
    fn run_reusing(files: &[OutputFile], memo: &mut Memo, reuse: bool) -> Indexed {
        let hashes: Vec<(String, u64)> = files
            .iter()
            .map(|f| (f.path.clone(), crate::hash::content_hash(&f.bytes)))
            .collect();
        let load = |p: &str| {
            files
                .iter()
                .find(|f| f.path == p)
                .and_then(crate::search::searchable)
                .map(|f| f.bytes)
        };
        index("/", "{}", &hashes, memo, &load, &|_| reuse).expect("indexes")
    }

    #[test]
    fn only_the_shard_of_an_edited_page_is_indexed_again() {
        let mut files: Vec<OutputFile> = (0..SHARD_PAGES + 3)
            .flat_map(|i| {
                [
                    page(&format!("en/p{i:04}/index.html"), &format!("page {i}")),
                    page(&format!("ja/p{i:04}/index.html"), &format!("頁 {i}")),
                ]
            })
            .collect();
        let mut memo = Memo::default();
        let cold = run(&files, &mut memo);
        assert_eq!((cold.shards, cold.indexed), (4, 4));
        assert!(cold.kept.is_empty());

        let again = run(&files, &mut memo);
        assert_eq!((again.shards, again.indexed), (4, 0));
        // Only the files every run writes afresh: the shard lists and the
        // claim classes.
        let fresh: Vec<&str> = again.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            fresh,
            [
                "en/pagefind/kansoku-claims.json",
                "en/pagefind/kansoku-shards.json",
                "ja/pagefind/kansoku-claims.json",
                "ja/pagefind/kansoku-shards.json",
            ]
        );

        // An edit in the second English shard: that shard alone, and its
        // files are those of a cold run of the edited pages.
        let at = files
            .iter()
            .position(|f| f.path == format!("en/p{:04}/index.html", SHARD_PAGES + 1))
            .expect("page");
        files[at] = page(&files[at].path.clone(), "edited words");
        let edited = run(&files, &mut memo);
        assert_eq!(edited.indexed, 1);
        assert!(edited
            .files
            .iter()
            .any(|f| f.path.starts_with("en/pagefind/shard-1/")));
        for f in edited.files.iter().filter(|f| f.path.starts_with("en/")) {
            assert!(
                f.path.starts_with("en/pagefind/shard-1/") || f.path.ends_with(".json"),
                "{} written again",
                f.path
            );
        }
        let cold_edited = run(&files, &mut Memo::default());
        let of = |i: &Indexed| -> Vec<(String, Vec<u8>)> {
            i.files
                .iter()
                .filter(|f| f.path.starts_with("en/pagefind/shard-1/"))
                .map(|f| (f.path.clone(), f.bytes.clone()))
                .collect()
        };
        assert_eq!(of(&edited), of(&cold_edited));
    }

    #[test]
    fn a_shard_that_cannot_be_reused_is_indexed_again() {
        let files = vec![
            page("en/a/index.html", "alpha"),
            page("ja/a/index.html", "甲"),
        ];
        let mut memo = Memo::default();
        let cold = run(&files, &mut memo);
        let refused = run_reusing(&files, &mut memo, false);
        assert_eq!(refused.indexed, 2);
        assert!(refused.kept.is_empty());
        let paths =
            |i: &Indexed| -> Vec<String> { i.files.iter().map(|f| f.path.clone()).collect() };
        assert_eq!(paths(&refused), paths(&cold));
    }

    #[test]
    fn a_memo_of_another_version_or_unreadable_is_empty() {
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("m.json");
        std::fs::write(&path, "{not json").expect("write");
        assert!(Memo::read(&path).shards.is_empty());
        let old = Memo {
            version: "0.0.0-other".into(),
            shards: BTreeMap::from([(
                "en/0".into(),
                Shard {
                    key: 1,
                    files: vec![],
                },
            )]),
        };
        old.save(&path).expect("save");
        assert!(Memo::read(&path).shards.is_empty());
        let mine = Memo {
            version: crate::version::build_id().into(),
            ..old
        };
        mine.save(&path).expect("save");
        assert_eq!(Memo::read(&path).shards.len(), 1);
    }
}
