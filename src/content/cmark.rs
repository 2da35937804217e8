//! The one CommonMark parser configuration: validation, rendering, the
//! Markdown twins and the block scan read a body alike.

/// The one Markdown parser configuration used by every stage.
pub(crate) fn parser_options() -> pulldown_cmark::Options {
    use pulldown_cmark::Options;
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_WIKILINKS
        | Options::ENABLE_TASKLISTS
}
