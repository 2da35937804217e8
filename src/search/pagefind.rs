//! Search stage, Pagefind orchestration: one language's pages into a
//! bundle, in shards indexed one after the other. Returns files; never
//! touches the disk.

use crate::render::paths::bundle_dir;
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

/// The directory of shard `k` inside the bundle: the bundle itself for
/// the first.
pub(super) fn shard_dir(k: usize) -> String {
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

/// Shard `k` of one language's bundle: its pages (`(url, reduced html)`)
/// indexed by Pagefind, as the files under `<lang>/pagefind/[shard-k/]`.
/// Pagefind's API is async but only needs `spawn_blocking`, so the caller's
/// current-thread runtime is enough.
pub(super) async fn shard(
    lang: &str,
    k: usize,
    pages: &[(String, Vec<u8>)],
) -> anyhow::Result<Vec<OutputFile>> {
    let config = PagefindServiceConfig::builder().build();
    let mut index = PagefindIndex::new(Some(config))?;
    use crate::cost::{Kind, Measure};
    for (url, html) in pages {
        let html = String::from_utf8_lossy(html).into_owned();
        let measure = Measure::start(Kind::Parse);
        index.add_html_file(None, Some(url.clone()), html).await?;
        measure.stop();
    }
    let dir = shard_dir(k);
    let measure = Measure::start(Kind::Bundle);
    let files = index.get_files().await?;
    measure.stop();
    let out = files
        .into_iter()
        .filter_map(|f| {
            let name = f.filename.to_string_lossy().replace('\\', "/");
            let keep = !UNUSED.contains(&name.as_str()) && (k == 0 || shard_needs(&name));
            keep.then(|| OutputFile {
                path: format!("{}/{dir}{name}", bundle_dir(lang)),
                bytes: f.contents,
            })
        })
        .collect();
    Ok(out)
}
