//! Search stage, Pagefind orchestration: one language's pages into a
//! bundle, in shards indexed one after the other. Returns files; never
//! touches the disk.

use super::{BUNDLE_DIR, SHARDS_FILE, SHARD_PAGES};
use crate::render::OutputFile;
use pagefind::api::PagefindIndex;
use pagefind::options::PagefindServiceConfig;

/// Pagefind's own UI files: the site has its own search box, so these are
/// not published (they would only add weight and unchecked markup).
const UNUSED: &[&str] = &[
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
];

/// Hands the memory freed so far back to the system. Rendering frees most
/// of what it allocated, but glibc keeps the freed pages of each thread's
/// arena resident, and Pagefind then allocates its shards on other threads
/// (other arenas): without this the stage's peak is rendering's peak plus
/// the shards. Measured at N = 10,000 in benches/README.md. A no-op where
/// the allocator is not glibc's.
pub(crate) fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointers and only walks glibc's own
    // arenas under their locks; it may be called from any thread at any
    // time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The directory of shard `k` inside the bundle: the bundle itself for
/// the first.
fn shard_dir(k: usize) -> String {
    if k == 0 {
        String::new()
    } else {
        format!("shard-{k}/")
    }
}

/// Whether a file of a Pagefind bundle is needed in a merged shard: the
/// primary bundle's scripts and WebAssembly search every shard.
fn shard_needs(name: &str) -> bool {
    !(name.ends_with(".js") || name.ends_with(".css") || name.starts_with("wasm."))
}

/// One language's bundle, in shards of [`SHARD_PAGES`] pages. Pagefind's
/// API is async but only needs `spawn_blocking`, so a current-thread
/// runtime on this thread is enough.
pub(super) fn bundle(lang: &str, pages: &[(String, &[u8])]) -> anyhow::Result<Vec<OutputFile>> {
    let start = std::time::Instant::now();
    let rt = tokio::runtime::Builder::new_current_thread().build()?;
    let out = rt.block_on(async {
        let mut out = Vec::new();
        let mut shards = Vec::new();
        // An empty tree still gets a bundle, so the search box loads.
        let chunks: Vec<&[(String, &[u8])]> = if pages.is_empty() {
            vec![&[]]
        } else {
            pages.chunks(SHARD_PAGES).collect()
        };
        for (k, chunk) in chunks.into_iter().enumerate() {
            let config = PagefindServiceConfig::builder().build();
            let mut index = PagefindIndex::new(Some(config))?;
            for (url, html) in chunk {
                let html = String::from_utf8_lossy(html).into_owned();
                index.add_html_file(None, Some(url.clone()), html).await?;
            }
            let dir = shard_dir(k);
            out.extend(index.get_files().await?.into_iter().filter_map(|f| {
                let name = f.filename.to_string_lossy().replace('\\', "/");
                let keep = !UNUSED.contains(&name.as_str()) && (k == 0 || shard_needs(&name));
                keep.then(|| OutputFile {
                    path: format!("{lang}/{BUNDLE_DIR}/{dir}{name}"),
                    bytes: f.contents,
                })
            }));
            if k > 0 {
                shards.push(dir);
            }
            drop(index);
            release_freed_memory();
        }
        out.push(OutputFile {
            path: format!("{lang}/{BUNDLE_DIR}/{SHARDS_FILE}"),
            bytes: serde_json::to_vec(&shards).expect("a list of strings serializes"),
        });
        Ok(out)
    });
    if std::env::var_os("KANSOKU_TIMINGS").is_some() {
        eprintln!(
            "timing: search {lang} {:>6} ms ({} pages)",
            start.elapsed().as_millis(),
            pages.len()
        );
    }
    out
}
