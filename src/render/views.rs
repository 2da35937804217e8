//! Serialize-only view structs: the shapes templates see.
//!
//! They borrow from the site where they can (Zola's `SerializingPage`).
//! `docs/theme-contract.md` documents every field; keep the two in step.

use serde::Serialize;

/// A link with a label.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct Link {
    /// Shown text.
    pub(crate) label: String,
    /// Target.
    pub(crate) href: String,
}

/// A claim reference target (`from`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct ClaimLink {
    /// Claim id.
    pub(crate) id: String,
    /// Where the claim is listed.
    pub(crate) href: String,
    /// Its class name.
    pub(crate) class: &'static str,
    /// Its text in the view's language.
    pub(crate) text: String,
}

/// A claim in one language.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct ClaimView {
    /// Id.
    pub(crate) id: String,
    /// Class name.
    pub(crate) class: &'static str,
    /// Text in the view's language.
    pub(crate) text: String,
    /// `claim-<id>`.
    pub(crate) anchor: String,
    /// The claim on its page.
    pub(crate) href: String,
    /// Evidence links.
    pub(crate) evidence: Vec<Link>,
    /// Claims it rests on.
    pub(crate) from: Vec<ClaimLink>,
    /// Review notices and lifecycle.
    pub(crate) notes: ClaimNotes,
    /// For a confirmed claim whose every evidence file is a `transcript` or
    /// a `note`: that kind (the weakest). "Seen directly" then means seen
    /// by whoever wrote the record, and the badge says so.
    pub(crate) basis: Option<&'static str>,
    /// The answer it states from its aspect's vocabulary, if any.
    pub(crate) answer: Option<AnswerView>,
    /// For an unresolved or limited claim: the observation that would
    /// settle it, in the view's language.
    pub(crate) settle: Option<String>,
    /// The record's own framing (its aspect is declared `framing`): shown
    /// without a class badge, as the record's words rather than an
    /// observation.
    pub(crate) framing: bool,
    /// Rendered `partials/claim.html` (empty while it is being rendered).
    pub(crate) inline: String,
    /// The claim as a Markdown twin shows it in text (`twin::Md::inline`),
    /// made with `inline` when the site writes twins or llms files.
    #[serde(skip)]
    pub(crate) md: String,
}

/// An answer as readers see it: its glyph and words, a channel of its own
/// beside the class's mark.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct AnswerView {
    /// Its key (`yes`, `no`): the CSS class `answer--<key>`.
    pub(crate) key: String,
    /// What kind of statement it is (`yes`, `no`, `partial`,
    /// `not-known`), when `book.toml` says.
    pub(crate) kind: Option<&'static str>,
    /// Its glyph.
    pub(crate) glyph: String,
    /// Its words in the view's language.
    pub(crate) label: String,
}

/// What readers are told about a claim beyond its class.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct ClaimNotes {
    /// `current`, `retracted` or `superseded`.
    pub(crate) state: &'static str,
    /// Why it was retracted or superseded, in the view's language.
    pub(crate) reason: Option<String>,
    /// The claim that replaces it.
    pub(crate) successor: Option<Link>,
    /// `evidence` or `premise` when the claim is suspect since its review.
    pub(crate) suspect: Option<&'static str>,
    /// The evidence file whose cited lines changed since the review, when
    /// that is why it is suspect: its page marks the claim there alone.
    /// In the view, so that the units showing the claim are keyed on it.
    pub(crate) suspect_file: Option<String>,
    /// A stale translation: which language changed, and its previous text.
    pub(crate) stale: Option<Stale>,
    /// Translated by machine.
    pub(crate) machine: bool,
}

impl ClaimView {
    /// Whether the claim is suspect because the lines it cites in the
    /// evidence file at `path` changed since its review (not another
    /// file's, nor a premise): what that file's page and its twin mark.
    pub(crate) fn suspect_because_of(&self, path: &str) -> bool {
        self.notes.suspect_file.as_deref() == Some(path)
    }
}

/// A stale translation as readers see it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub(crate) struct Stale {
    /// The language whose text changed (`ja` or `en`).
    pub(crate) changed: &'static str,
    /// That language's text at the last review.
    pub(crate) previous: String,
}

/// A body segment in one language.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SegView {
    /// Rendered HTML.
    pub(crate) html: String,
    /// Shown in a language other than the page's.
    pub(crate) untranslated: bool,
    /// The language it is written in.
    pub(crate) lang: &'static str,
}

/// The entity a page is about.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct EntityView {
    /// Kind.
    pub(crate) kind: String,
    /// The kind's label from `book.toml` `[kinds]`, in the view's language.
    pub(crate) kind_label: String,
    /// Key.
    pub(crate) key: String,
    /// Name in the view's language.
    pub(crate) name: String,
    /// Role in the view's language.
    pub(crate) role: Option<String>,
}

/// The scope table.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ScopeView {
    /// Can show.
    pub(crate) can: Vec<ClaimView>,
    /// Cannot show.
    pub(crate) cannot: Vec<ClaimView>,
}

/// A page in one language.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PageView {
    /// Title.
    pub(crate) title: String,
    /// Lead.
    pub(crate) lead: Option<String>,
    /// `YYYY-MM-DD`.
    pub(crate) updated: Option<String>,
    /// Layout name.
    pub(crate) layout: crate::content::Layout,
    /// A draft (`draft = true`), shown by `serve` and `build --drafts`.
    pub(crate) draft: bool,
    /// `content/…md`.
    pub(crate) source: String,
    /// Edit link.
    pub(crate) edit_url: Option<String>,
    /// Body.
    pub(crate) segments: Vec<SegView>,
    /// Claims declared on the page.
    pub(crate) claims: Vec<ClaimView>,
    /// Scope table.
    pub(crate) scope: Option<ScopeView>,
    /// Entity.
    pub(crate) entity: Option<EntityView>,
    /// What the page answers first (`views/answers.html`): the summary
    /// of findings, its view's scope, an entity's answers.
    pub(crate) answers_html: String,
}

/// A row of the parallel view.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum Row {
    /// Full width.
    Shared {
        /// HTML.
        html: String,
    },
    /// Side by side.
    Pair {
        /// Japanese HTML.
        ja: String,
        /// English HTML.
        en: String,
        /// One side changed since the page was reviewed, the other did
        /// not: which, and its text then (Markdown source).
        stale: Option<Stale>,
    },
    /// One language with a notice.
    Only {
        /// Its language.
        lang: &'static str,
        /// HTML.
        html: String,
    },
}

/// `<link rel="alternate">`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Alternate {
    /// `ja`, `en` or `x-default`.
    pub(crate) hreflang: &'static str,
    /// Target.
    pub(crate) href: String,
}

/// A language switcher entry.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Switch {
    /// `ja`, `en` or `ja-en`.
    pub(crate) code: &'static str,
    /// Target.
    pub(crate) href: String,
    /// This page.
    pub(crate) current: bool,
}

/// A navigation entry.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NavItem {
    /// Title in the view's language.
    pub(crate) title: String,
    /// Target.
    pub(crate) href: String,
    /// 0 = top.
    pub(crate) depth: usize,
    /// This page.
    pub(crate) current: bool,
    /// `page` (an entry), `gap` (entries left out of a long section) or
    /// `all` (the link to the section's full listing).
    pub(crate) kind: &'static str,
    /// Pages in the section, for `all`.
    pub(crate) count: usize,
}

/// Site facts for the chrome.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SiteView {
    /// Title.
    pub(crate) title: String,
    /// Description.
    pub(crate) description: String,
    /// Authors.
    pub(crate) authors: Vec<String>,
    /// Repository link.
    pub(crate) repo_url: Option<String>,
}

/// An evidence line.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LineView {
    /// 1-based number.
    pub(crate) n: usize,
    /// Escaped text.
    pub(crate) html: String,
    /// Ids of the cited ranges starting on this line (`L7-L12`).
    pub(crate) ranges: Vec<String>,
    /// For a long log, lines left out before this one: `(first, last)`.
    pub(crate) gap_before: Option<(usize, usize)>,
    /// The language the line reads in, when plainly one (`en`, `ja`).
    pub(crate) lang: Option<&'static str>,
}

/// A cited range.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RangeView {
    /// `L7-L12`.
    pub(crate) id: String,
    /// First line.
    pub(crate) start: usize,
    /// Last line.
    pub(crate) end: usize,
}

/// A claim citing an evidence file.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CitedBy {
    /// Claim id.
    pub(crate) id: String,
    /// Class name.
    pub(crate) class: &'static str,
    /// Text.
    pub(crate) text: String,
    /// The claim on its page.
    pub(crate) href: String,
    /// Title of the citing page.
    pub(crate) page_title: String,
    /// Inline HTML.
    pub(crate) inline: String,
    /// The file changed under this claim since it was reviewed.
    pub(crate) suspect: bool,
}

/// An evidence file page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct EvidenceView<'a> {
    /// Path under the evidence dir.
    pub(crate) path: &'a str,
    /// Raw copy.
    pub(crate) raw_href: String,
    /// Header.
    pub(crate) header: Option<&'a crate::evidence::Header>,
    /// Lines.
    pub(crate) lines: Vec<LineView>,
    /// Cited ranges.
    pub(crate) ranges: Vec<RangeView>,
    /// For a long log: what the page shows of it, and what it leaves out
    /// after the last line shown.
    pub(crate) window: Option<WindowView>,
    /// Citing claims.
    pub(crate) cited_by: Vec<CitedBy>,
    /// `[[check.accept]]` entries whose scope reaches this file: disclosed
    /// to readers with their reason.
    pub(crate) accepted: Vec<AcceptedView<'a>>,
    /// The language the lines shown read in, when plainly one (`en`,
    /// `ja`): marked on them, and said on a page in the other language.
    pub(crate) text_lang: Option<&'static str>,
    /// The same for the header's `source`.
    pub(crate) source_lang: Option<&'static str>,
}

/// What the page of a long log shows: the cited lines with context.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct WindowView {
    /// Lines in the log.
    pub(crate) lines: usize,
    /// The raw file's size, as a reader reads it (`1.2 GB`).
    pub(crate) size: String,
    /// Lines shown around each cited line.
    pub(crate) context: usize,
    /// The runs of lines shown, as an index to jump to.
    pub(crate) runs: Vec<RunView>,
    /// Lines left out after the last one shown.
    pub(crate) gap_after: Option<(usize, usize)>,
}

/// One run of lines shown on a long log's page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RunView {
    pub(crate) first: usize,
    pub(crate) last: usize,
    /// The claims citing lines in it.
    pub(crate) claims: Vec<String>,
}

/// An acceptance as readers see it on an evidence page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct AcceptedView<'a> {
    /// Warning code.
    pub(crate) code: &'a str,
    /// Why, in the page's language.
    pub(crate) reason: &'a str,
}

/// An evidence index entry.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct EvidenceEntry<'a> {
    /// Path under the evidence dir.
    pub(crate) path: &'a str,
    /// Its page.
    pub(crate) href: String,
    /// Header kind.
    pub(crate) kind: Option<&'static str>,
    /// Number of citing claims.
    pub(crate) cited: usize,
}

/// A link with its text: a listed page, or the page before or after.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PageLink {
    /// Title in the view's language.
    pub(crate) title: String,
    /// Target.
    pub(crate) href: String,
}

/// The pages before and after this one in navigation order.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Neighbours {
    /// The page before.
    pub(crate) prev: Option<PageLink>,
    /// The page after.
    pub(crate) next: Option<PageLink>,
}

/// One page of a section's listing of its pages.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Listing {
    /// The entries of this listing page.
    pub(crate) items: Vec<PageLink>,
    /// This listing page's number, from 1.
    pub(crate) number: usize,
    /// How many listing pages the section has.
    pub(crate) pages: usize,
    /// Entries in the whole section.
    pub(crate) total: usize,
    /// The listing page before, if any.
    pub(crate) prev: Option<String>,
    /// The listing page after, if any.
    pub(crate) next: Option<String>,
}
