//! Pagination fixtures: where the first paragraph of a page starts after each kind of
//! page break (notes §3), each a DOCX built here and laid out, checked by its baseline.

mod common;

use common::docx::docx;
use common::layout::{lay_out, near};

const SECT: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// The baseline of "Heading" on page 2 when `before` (in front of it) breaks the page and
/// the heading's own `pPr` is `ppr`, with 14 pt before it (and nothing after the first
/// paragraph, which Word would credit against it).
fn heading_baseline(before: &str, ppr: &str) -> f64 {
    let body = format!(
        r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>First page</w:t></w:r></w:p>{before}<w:p><w:pPr>{ppr}<w:spacing w:before="280" w:after="0"/></w:pPr><w:r><w:t>Heading</w:t></w:r></w:p>{SECT}"#
    );
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{pages:?}");
    pages[1].find("Heading").expect("the heading on page 2").baseline
}

#[test]
fn pagination_page_break_paragraph_leaves_the_next_paragraph_at_the_top() {
    // Word sets a paragraph after one that holds only a page break flush at the top
    // margin, its space before dropped (corpus `developer0hye_office2pdf_05_technical_manual_en`)...
    let after_break = heading_baseline(r#"<w:p><w:r><w:br w:type="page"/></w:r></w:p>"#, "");
    // ...as after a paragraph whose text ends with the break...
    let after_text = heading_baseline(r#"<w:p><w:r><w:t>Text</w:t><w:br w:type="page"/></w:r></w:p>"#, "");
    // ...but a paragraph that breaks its own page keeps it (betteroffice #616).
    let own = heading_baseline("", "<w:pageBreakBefore/>");
    assert!(near(after_break, after_text, 0.01), "{after_break} vs {after_text}");
    assert!(near(own - after_break, 14.0, 0.05), "{own} vs {after_break}");
    assert!(after_break < 72.0 + 14.0, "at the top margin: {after_break}");
}
