//! Serialize-only view structs: the shapes templates see.
//!
//! They borrow from the site where they can (Zola's `SerializingPage`).
//! `docs/theme-contract.md` documents every field; keep the two in step.

use serde::Serialize;

/// A link with a label.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Link {
    /// Shown text.
    pub label: String,
    /// Target.
    pub href: String,
}

/// A claim reference target (`from`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct ClaimLink {
    /// Claim id.
    pub id: String,
    /// Where the claim is listed.
    pub href: String,
    /// Its class name.
    pub class: &'static str,
    /// Its text in the view's language.
    pub text: String,
}

/// A claim in one language.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct ClaimView {
    /// Id.
    pub id: String,
    /// Class name.
    pub class: &'static str,
    /// Text in the view's language.
    pub text: String,
    /// `claim-<id>`.
    pub anchor: String,
    /// The claim on its page.
    pub href: String,
    /// Evidence links.
    pub evidence: Vec<Link>,
    /// Claims it rests on.
    pub from: Vec<ClaimLink>,
    /// Review notices and lifecycle.
    pub notes: ClaimNotes,
    /// For a confirmed claim whose every evidence file is a `transcript` or
    /// a `note`: that kind (the weakest). "Seen directly" then means seen
    /// by whoever wrote the record, and the badge says so.
    pub basis: Option<&'static str>,
    /// Rendered `partials/claim.html` (empty while it is being rendered).
    pub inline: String,
}

/// What readers are told about a claim beyond its class.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct ClaimNotes {
    /// `current`, `retracted` or `superseded`.
    pub state: &'static str,
    /// Why it was retracted or superseded, in the view's language.
    pub reason: Option<String>,
    /// The claim that replaces it.
    pub successor: Option<Link>,
    /// `evidence` or `premise` when the claim is suspect since its review.
    pub suspect: Option<&'static str>,
    /// A stale translation: which language changed, and its previous text.
    pub stale: Option<Stale>,
    /// Translated by machine.
    pub machine: bool,
}

/// A stale translation as readers see it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Stale {
    /// The language whose text changed (`ja` or `en`).
    pub changed: &'static str,
    /// That language's text at the last review.
    pub previous: String,
}

/// A body segment in one language.
#[derive(Debug, Clone, Serialize)]
pub struct SegView {
    /// Rendered HTML.
    pub html: String,
    /// Shown in a language other than the page's.
    pub untranslated: bool,
    /// The language it is written in.
    pub lang: &'static str,
}

/// The entity a page is about.
#[derive(Debug, Clone, Serialize)]
pub struct EntityView {
    /// Kind.
    pub kind: String,
    /// The kind's label from `book.toml` `[kinds]`, in the view's language.
    pub kind_label: String,
    /// Key.
    pub key: String,
    /// Name in the view's language.
    pub name: String,
    /// Role in the view's language.
    pub role: Option<String>,
}

/// The scope table.
#[derive(Debug, Clone, Serialize)]
pub struct ScopeView {
    /// Can show.
    pub can: Vec<ClaimView>,
    /// Cannot show.
    pub cannot: Vec<ClaimView>,
}

/// A page in one language.
#[derive(Debug, Clone, Serialize)]
pub struct PageView {
    /// Title.
    pub title: String,
    /// Lead.
    pub lead: Option<String>,
    /// `YYYY-MM-DD`.
    pub updated: Option<String>,
    /// Layout name.
    pub layout: crate::content::Layout,
    /// A draft (`draft = true`), shown by `serve` and `build --drafts`.
    pub draft: bool,
    /// `content/…md`.
    pub source: String,
    /// Edit link.
    pub edit_url: Option<String>,
    /// Body.
    pub segments: Vec<SegView>,
    /// Claims declared on the page.
    pub claims: Vec<ClaimView>,
    /// Scope table.
    pub scope: Option<ScopeView>,
    /// Entity.
    pub entity: Option<EntityView>,
}

/// A row of the parallel view.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Row {
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
pub struct Alternate {
    /// `ja`, `en` or `x-default`.
    pub hreflang: &'static str,
    /// Target.
    pub href: String,
}

/// A language switcher entry.
#[derive(Debug, Clone, Serialize)]
pub struct Switch {
    /// `ja`, `en` or `ja-en`.
    pub code: &'static str,
    /// Target.
    pub href: String,
    /// This page.
    pub current: bool,
}

/// A navigation entry.
#[derive(Debug, Clone, Serialize)]
pub struct NavItem {
    /// Title in the view's language.
    pub title: String,
    /// Target.
    pub href: String,
    /// 0 = top.
    pub depth: usize,
    /// This page.
    pub current: bool,
    /// `page` (an entry), `gap` (entries left out of a long section) or
    /// `all` (the link to the section's full listing).
    pub kind: &'static str,
    /// Pages in the section, for `all`.
    pub count: usize,
}

/// Site facts for the chrome.
#[derive(Debug, Clone, Serialize)]
pub struct SiteView {
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Authors.
    pub authors: Vec<String>,
    /// Repository link.
    pub repo_url: Option<String>,
}

/// An evidence line.
#[derive(Debug, Clone, Serialize)]
pub struct LineView {
    /// 1-based number.
    pub n: usize,
    /// Escaped text.
    pub html: String,
    /// Ids of the cited ranges starting on this line (`L7-L12`).
    pub ranges: Vec<String>,
}

/// A cited range.
#[derive(Debug, Clone, Serialize)]
pub struct RangeView {
    /// `L7-L12`.
    pub id: String,
    /// First line.
    pub start: usize,
    /// Last line.
    pub end: usize,
}

/// A claim citing an evidence file.
#[derive(Debug, Clone, Serialize)]
pub struct CitedBy {
    /// Claim id.
    pub id: String,
    /// Class name.
    pub class: &'static str,
    /// Text.
    pub text: String,
    /// The claim on its page.
    pub href: String,
    /// Title of the citing page.
    pub page_title: String,
    /// Inline HTML.
    pub inline: String,
    /// The file changed under this claim since it was reviewed.
    pub suspect: bool,
}

/// An evidence file page.
#[derive(Debug, Clone, Serialize)]
pub struct EvidenceView<'a> {
    /// Path under the evidence dir.
    pub path: &'a str,
    /// Raw copy.
    pub raw_href: String,
    /// Header.
    pub header: Option<&'a crate::evidence::Header>,
    /// Lines.
    pub lines: Vec<LineView>,
    /// Cited ranges.
    pub ranges: Vec<RangeView>,
    /// Citing claims.
    pub cited_by: Vec<CitedBy>,
    /// `[[check.accept]]` entries whose scope reaches this file: disclosed
    /// to readers with their reason.
    pub accepted: Vec<AcceptedView<'a>>,
}

/// An acceptance as readers see it on an evidence page.
#[derive(Debug, Clone, Serialize)]
pub struct AcceptedView<'a> {
    /// Warning code.
    pub code: &'a str,
    /// Why, in the page's language.
    pub reason: &'a str,
}

/// An evidence index entry.
#[derive(Debug, Clone, Serialize)]
pub struct EvidenceEntry<'a> {
    /// Path under the evidence dir.
    pub path: &'a str,
    /// Its page.
    pub href: String,
    /// Header kind.
    pub kind: Option<&'static str>,
    /// Number of citing claims.
    pub cited: usize,
}

/// A link with its text: a listed page, or the page before or after.
#[derive(Debug, Clone, Serialize)]
pub struct PageLink {
    /// Title in the view's language.
    pub title: String,
    /// Target.
    pub href: String,
}

/// The pages before and after this one in navigation order.
#[derive(Debug, Clone, Serialize)]
pub struct Neighbours {
    /// The page before.
    pub prev: Option<PageLink>,
    /// The page after.
    pub next: Option<PageLink>,
}

/// One page of a section's listing of its pages.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    /// The entries of this listing page.
    pub items: Vec<PageLink>,
    /// This listing page's number, from 1.
    pub number: usize,
    /// How many listing pages the section has.
    pub pages: usize,
    /// Entries in the whole section.
    pub total: usize,
    /// The listing page before, if any.
    pub prev: Option<String>,
    /// The listing page after, if any.
    pub next: Option<String>,
}
