# kansoku default theme — English UI strings.
#
# The message ids in this file MUST match templates/i18n/ja.ftl exactly
# (same set of keys, no extras, none missing). Add or remove a key in both
# files at once. Messages are plain text: templates escape them, so no HTML.
#
# Variables passed by templates:
#   footer-authors       $authors = comma-separated author names
#   untranslated-notice  $written = "ja" | "en" (the language the part is written in)

## Site chrome

skip-to-content = Skip to content
site-nav-label = Pages
nav-jump = All pages
switcher-label = Language
switcher-ja = 日本語
switcher-en = English
switcher-ja-en = Parallel
repo-link = Source repository
footer-built-with = Built with kansoku
footer-authors = Authors: { $authors }
footer-evidence = Evidence index
footer-chooser = Choose a language
nav-close = Close
toc-title = On this page
scroll-hint = Wider than the page: scroll sideways to see every column →
scroll-hint-diagram = Wider than the page: scroll sideways to see all of the diagram →

## Language names (in the language of the interface)

lang-name-ja = Japanese
lang-name-en = English

## Evidence classes (SPEC §3.3)

class-confirmed = Confirmed
class-inferred = Inferred
class-unresolved = Unresolved
class-limited = Limited
class-confirmed-meaning = Seen directly: live command, log, disassembly
class-inferred-meaning = Follows from confirmed facts; not seen directly
class-unresolved-meaning = Cannot be settled yet (observer limits, pending work)
class-limited-meaning = Partly seen; a tool limit keeps it incomplete
legend-title = Evidence classes
legend-note = Each class has a colour, a mark (⊕⊕⊕ best known to ○○○ unsettled) and a label. It says how well a claim is known, never what the answer is: answers are written in words with their own symbol (✓ yes, ✗ no). Select a badge to open the log the claim rests on.
basis-transcript = per record
basis-note = per note
legend-kinds = Evidence comes in three kinds: a raw capture (the output itself), a transcript (restates another record's output) and a note (a written summary). A confirmed claim that rests only on transcripts or notes says so on its badge: "⊕⊕⊕ Confirmed · per record". The record's own questions and statuses are its framing, not observations: they carry "per record" and no class.
framing-label = per record
badge-evidence-hint = (open the evidence log)

## Search (shown only when JavaScript runs)

search-label = Search this site (English)
search-placeholder = Search (press /)
search-count-one = { $count } result
search-count-other = { $count } results
search-none = Nothing found. Try another word, or a claim id.
search-error = Search could not be loaded.
search-claims = Matching claims
search-more = Show { $count } more
search-in-ja = Search the Japanese pages for “{ $query }”
search-from-ja = In the Japanese pages:

## Claim links

claim-permalink = Link to this claim
claim-copy = Copy link
claim-copied = Link copied
evidence-to-claims = Claims citing this log
evidence-back-to-claim = ← Back to the claim

## Section listings and page order

nav-all = { $count ->
    [one] The section's { $count } page
   *[other] All { $count } pages of this section
}
listing-title = { $count ->
    [one] { $count } page in this section
   *[other] { $count } pages in this section
}
listing-label = Pages of this section
listing-page = Page { $number } of { $pages }
listing-prev = Previous
listing-next = Next
pager-label = Previous and next page
pager-prev = Previous:
pager-next = Next:

## Page

lead-label = What you'll gain here
updated = Updated
entity-label = This page is about
entity-role = Role
draft-notice = Draft: not published. kansoku serve shows it; kansoku build leaves it out unless run with --drafts.
draft-notice-published = Draft: this page is not final; what it says may still change.
untranslated-notice =
    { $written ->
        [ja] This part is written only in Japanese (not yet translated).
       *[en] This part is written only in English (not yet translated).
    }
claims-title = Claims on this page
claims-evidence = Evidence
claims-rests-on = Rests on
scope-title = What can and cannot be shown
scope-can = Can show
scope-cannot = Cannot show
edit-page = Edit this page

## Evidence pages

evidence-kicker = Evidence log
evidence-index-title = Evidence index
evidence-index-intro = Every log the claims on this site rest on. Each log is shown with line numbers, and the cited range is highlighted.
evidence-index-empty = There are no evidence files yet.
evidence-back = Back to the evidence index
raw-file = Open the raw file
evidence-header-title = Provenance
evidence-lines-label = Log lines, numbered
evidence-window-title = Lines shown
evidence-window-intro = This log has { $lines } lines ({ $size }): this page shows its opening lines and every cited line with { $context } lines around it; lines longer than 4,096 bytes are cut (…). The raw file has every line:
evidence-gap = Lines { $first }–{ $last } are not shown here.
evidence-file = File
evidence-kind = Kind
evidence-source = Source
evidence-written-in-en = This evidence is in English.
evidence-written-in-ja = This evidence is in Japanese: the record's words, kept as written. Evidence is never rewritten, so it is not translated; the claims citing it are in English.
evidence-captured = Captured
evidence-host = Host
evidence-phase = Phase
evidence-cited = Citations
evidence-kind-raw = Raw capture
evidence-kind-transcript = Transcript
evidence-kind-raw-meaning = the output itself, as captured
evidence-kind-transcript-meaning = restates what another record reports; the claim was seen by that record's author, not here
evidence-kind-note-meaning = a written summary, not output
evidence-kind-note = Note
evidence-accepted = Known and accepted by the maintainers:
cited-by = Claims citing this log
cited-by-none = No claim cites this log yet.

## Not found (404)

not-found-title = Page not found
not-found-text = The page you were looking for has moved or does not exist.
not-found-near = Perhaps one of these pages:
not-found-home = Go to the home page
not-found-search = Search this site
not-found-sections = The site's sections

## Language chooser (site root)

chooser-title = Choose a language
chooser-text = Read in Japanese or English, or both side by side.
chooser-read = Read in English
chooser-read-parallel = Read Japanese and English side by side

## Generated views (for engine-rendered tables; see the theme report)

view-not-observed = Not observed
view-open-questions = Open questions
view-hub-component = Component
view-hub-role = Role
view-hub-status = Observed status
view-matrix-generation = Generation
view-observer-target = Observation target
view-observer-attempt = What was tried
view-observer-result = Result
view-observer-tells = What it tells us
view-observer-next = Next question
view-status-chain = Observer status chain
view-home-generation = Generation
view-home-world = Observation world
view-home-status = Status
view-open-questions-link = Where it is stated
view-open-questions-empty = No unresolved or limited claims.

## Review notices (kansoku.lock) and claim lifecycle

notice-suspect-evidence = The evidence changed after this claim was reviewed: it may no longer hold.
notice-suspect-premise = A claim this one rests on changed after it was reviewed: it may no longer follow.
notice-stale =
    { $changed ->
        [ja] The Japanese text changed after the last review; this English text may be out of date.
       *[en] The English text changed after the last review; the Japanese text may be out of date.
    }
notice-stale-previous = Text at the last review
notice-machine = Machine-translated.
notice-retracted = Retracted
notice-superseded = Superseded
notice-superseded-by = Replaced by
notice-pair-stale =
    { $changed ->
        [ja] The Japanese changed after the last review; the English beside it may be out of date.
       *[en] The English changed after the last review; the Japanese beside it may be out of date.
    }
notice-evidence-suspect = suspect: the log changed after this claim was reviewed

# kansoku serve's error overlay (never in a built site).
serve-overlay-title = kansoku serve: the last rebuild failed; this page is from the last good build.
serve-overlay-hide = Hide
serve-overlay-error = error
serve-overlay-warning = warning
serve-overlay-hint = hint
serve-overlay-count = check: { $errors ->
        [0] no errors
        [one] { $errors } error
       *[other] { $errors } errors
    }, { $warnings ->
        [one] { $warnings } warning
       *[other] { $warnings } warnings
    }{ $accepted ->
        [0] {""}
       *[other] {" "}({ $accepted } accepted)
    }
serve-overlay-accepted = { $count } { $code } accepted: { $reason }
# What each finding's code means, in the overlay's language; the finding's
# own message and hint follow as kansoku check prints them.
finding-E001 = syntax error (TOML, UTF-8, `+++` fences)
finding-E002 = unknown key
finding-E003 = wrong type or value
finding-E004 = missing field
finding-E005 = placeholder left from `kansoku new`
finding-E006 = .gz log that expands past its cap
finding-E007 = license that is no SPDX expression
finding-E008 = malformed publisher
finding-E009 = SOURCE_DATE_EPOCH that is not a number of seconds
finding-E010 = unknown evidence class
finding-E011 = claim without evidence
finding-E012 = evidence file missing
finding-E013 = line range outside the file
finding-E014 = quote not in the range
finding-E015 = evidence path leaving the evidence directory
finding-E016 = duplicate claim id
finding-E017 = invalid claim id
finding-E018 = malformed evidence link
finding-E019 = captured evidence no longer matches its hash
finding-E020 = unknown claim
finding-E021 = entity kind not in book.toml
finding-E022 = duplicate entity key
finding-E023 = two claims in one matrix cell
finding-E024 = answer its aspect does not declare
finding-E025 = entity key naming no entity
finding-E026 = aspect naming no aspect
finding-E027 = declared answer without a kind, or a glyph on a not-known answer
finding-E028 = not-known answer on a confirmed or inferred claim
finding-E029 = answer by deduction stronger than its premises
finding-E030 = link to a missing page or anchor
finding-E031 = missing language
finding-E032 = untranslated segment
finding-E033 = unclosed or stray language block
finding-E034 = open claim that does not say what would settle it
finding-E035 = `settle` on a confirmed claim
finding-E040 = template error in a theme override
finding-E041 = Fluent syntax error in a theme override
finding-E042 = two outputs at one path
finding-E043 = evidence file unreadable
finding-E044 = a file kansoku did not write in the build directory
finding-E045 = build directory among the site's sources
finding-E050 = dot diagram that does not parse
finding-E060 = file name that cannot be a URL
finding-E061 = raw HTML not allowed
finding-E062 = URL that a browser would run
finding-E070 = acceptance of something not a warning
finding-E071 = acceptance without a reason in both languages
finding-E072 = acceptance with both path and claim
finding-E080 = kansoku.lock does not parse
finding-E081 = cited evidence changed since the review
finding-E082 = cited text moved
finding-E083 = a premise changed since the review
finding-E084 = stale translation of a claim
finding-E085 = stale translation of a language pair
finding-E086 = cycle in `from`
finding-E087 = bad lifecycle fields
finding-E090 = unknown entity in `depends-on`
finding-E091 = unknown named view
finding-W001 = evidence file cited by no claim
finding-W002 = confirmed claim resting only on transcripts or notes
finding-W003 = raw HTML in claim text
finding-W004 = text in the other language
finding-W005 = overlong line in a large log
finding-W025 = answer words standing for two words of the other language
finding-W040 = a file kansoku did not write, left in place
finding-W041 = no absolute site URL, so no sitemap
finding-W042 = leftover of an earlier build
finding-W043 = spare copy holding foreign entries
finding-W060 = symlink skipped
finding-W061 = raw HTML in a body
finding-W062 = bidirectional control character in a text
finding-W070 = acceptance that matches nothing
finding-W071 = reference into a page that does not load
finding-W080 = claim not yet reviewed
finding-W081 = claim changed since its review
finding-W082 = inferred claim on an uncertain premise
finding-W083 = confirmed claim with `from`
finding-W084 = the lock reviews a claim no longer on the site

## Answer first (issue 26)

sof-title = Summary of findings
sof-question = Question
sof-answer = Answer
sof-certainty = How well it is known
sof-for = For
sof-in-words = In the claim's words
sof-note = Each row: one answer, how well it is known, and what it holds for, each linked to its page and from there to its evidence. A numbered note says why a row is below confirmed and what would settle it. The answer and the certainty are separate columns: a colour never says the answer.
scope-label = Scope of
scope-on = on
scope-not-on = Not observed on:
answers-title = What the record says of { $name }
observed-here = Observed on this one:
observed-elsewhere = Not observed here:
sof-scope = Scope
sof-scope-each = Each row

## Answers checked, certainty that says why (issue 40)

answer-not-known = Not known
settle-label = What would settle it:
sof-scope-on = Observed on
sof-note-ref = Note { $n }
sof-notes-title = Why below confirmed, and what would settle it
sof-note-from = Inferred from:
sof-note-none = Nothing is said yet of what would settle it.
sof-open = { $count ->
    [one] One open question
   *[other] { $count } open questions
} →
sof-pivot = The same questions, one row per { $kind }:
oq-counts = { $count ->
    [one] One open question:
   *[other] { $count } open questions:
}

## Captured evidence (issue 27)

evidence-kind-capture = Capture
evidence-kind-capture-meaning = a command's output, written by kansoku capture with how it ran; check verifies its hash
evidence-kind-import = Imported log
evidence-kind-import-meaning = an existing log copied as it was, with where it came from; check verifies its hash
evidence-command = Command
evidence-cwd = Working directory
evidence-time = Ran (UTC)
evidence-exit = Exit status
evidence-stream = Stream
evidence-stream-stdout = standard output
evidence-stream-stderr = standard error
evidence-other-stream = the other stream is in
evidence-fact = Host
evidence-env = Environment
evidence-original = Original file
evidence-mtime = modified
evidence-note = Note
evidence-sha256 = SHA-256 of the body

## Offline archive: `kansoku build --archive` (issue 28)

archive-title = { $title }, offline
archive-about = This one file holds the whole record for reading without a network: every page, view and evidence log. Its links lead within the file.
archive-filter-label = Filter pages, evidence logs and claims
archive-filter-placeholder = Part of a title, a path or a claim
archive-pages = Pages
archive-evidence = Evidence logs
archive-claims = Claims
archive-to-index = Index and filter

## Machine readers: Markdown twins and llms.txt (issue 28)

md-html = This page as HTML
md-other-language = { $lang ->
    [ja] This page in Japanese
   *[en] This page in English
}
md-aspect = Aspect
md-claim = Claim
md-depends-on = depends on
md-cited-lines = Cited lines
md-lines-more = … { $count } more lines of this range are in the raw file.
md-untranslated = Written only in { $written ->
    [ja] Japanese
   *[en] English
} (not yet translated).
llms-summary = How to read this record: every claim carries an evidence class, which says how well it is known, never what the answer is.
llms-answers = A claim about an entity's aspect may also state an answer from the vocabulary the site declares (✓ yes, ✗ no, – not observed, …): the answer and the class are separate fields.
llms-twins = Each page below is linked as Markdown (its index.md; the HTML page is the same address without index.md).
llms-lines = In a page's Markdown each claim is one line: its id, its answer if it states one, its class ("per record" where it is the record's own framing rather than an observation), its text, and its evidence as links to the cited lines.
llms-pages = Pages
llms-evidence = Evidence logs
llms-full-link = Every page of this record in English as one Markdown file
llms-other-link = The same list in Japanese
llms-claims-link = Every claim as JSON: id, class, answer, texts in both languages, evidence links
llms-root = This record is published in Japanese and English: each language has its own list of pages.
llms-root-link = The pages in English, with how to read evidence classes and answers
llms-full-intro = Every page of this record in English, as Markdown, in the order llms.txt lists them, separated by lines of `---`.
llms-full-cut = This file stops here: it holds pages only while it stays under { $limit } bytes. { $count ->
    [one] The { $count } page after this point is
   *[other] The { $count } pages after this point are
} listed by link in { $list }, from { $first } on.
