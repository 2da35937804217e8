//! The placeholder `kansoku new` writes for a title it cannot know, and
//! the finding while one is left in a page (E005).
//!
//! A new page's slug gives its title in the slug's own language only
//! (`notes/第二の観測` a Japanese one, `notes/second-run` an English
//! one): the other language gets this placeholder, which `check` reports
//! until it is written, as a warning in a draft and an error on a
//! published page. Nothing here writes files.

use crate::error::Diagnostic;
use crate::lang::{Bi, Lang};
use crate::source::Source;
use std::ops::Range;

/// The title placeholder in each language.
pub(crate) const TITLE: Bi<&str> = Bi {
    ja: "日本語のタイトル",
    en: "Title in English",
};

/// E005 for each language of `title` (written at `span` of `src`) that is
/// still the placeholder.
pub(crate) fn left_in_title(
    src: &Source,
    span: Range<usize>,
    title: &Bi<String>,
    draft: bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for lang in Lang::ALL {
        let placeholder = *TITLE.get(lang);
        if title.get(lang) != placeholder {
            continue;
        }
        // The placeholder's own place in the title's table.
        let at = src.text[span.clone()]
            .find(placeholder)
            .map_or(span.clone(), |i| {
                span.start + i..span.start + i + placeholder.len()
            });
        let message = format!("`title.{lang}` is still the placeholder `kansoku new` wrote");
        let d = if draft {
            src.warning("E005", at, message)
        } else {
            src.error("E005", at, message)
        };
        out.push(d.with_hint(match lang {
            Lang::Ja => "write the page's title in Japanese",
            Lang::En => "write the page's title in English",
        }));
    }
    out
}
