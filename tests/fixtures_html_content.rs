//! Fixtures of content pasted from HTML: paragraph autospacing
//! (`w:beforeAutospacing`/`w:afterAutospacing`), each a DOCX built here and laid out,
//! checked by where the text lands.

mod common;

use common::docx::{docx, docx_with_rels};
use common::layout::{lay_out, near};

/// Letter with 1-inch margins: the text is 468 pt wide, from 72 to 540.
const SECT: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// A paragraph with autospacing before and after.
fn auto(text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

/// A paragraph with no spacing, single lines.
fn plain(text: &str) -> String {
    format!(r#"<w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#)
}

#[test]
fn autospacing_is_fourteen_points_but_none_before_the_document_s_first_paragraph() {
    let spaced = lay_out(&docx(&format!("{}{}{}{SECT}", auto("One"), auto("Two"), plain("Three"))));
    let tight = lay_out(&docx(&format!("{}{}{}{SECT}", plain("One"), plain("Two"), plain("Three"))));
    let y = |p: &docx2pdf::layout::summary::PageSummary, t: &str| p.find(t).unwrap().baseline;
    let (s, t) = (&spaced[0], &tight[0]);
    // The first paragraph starts at the top margin: its autospacing before is 0.
    assert!(near(y(s, "One"), y(t, "One"), 0.01), "{} vs {}", y(s, "One"), y(t, "One"));
    // Between two autospaced paragraphs: max(14, 14) = 14 pt, not w:before/w:after (5 pt).
    let line = y(t, "Two") - y(t, "One");
    assert!(near(y(s, "Two") - y(s, "One"), line + 14.0, 0.01));
    assert!(near(y(s, "Three") - y(s, "Two"), line + 14.0, 0.01));
}

#[test]
fn autospacing_is_a_fixed_five_points_with_do_not_use_html_paragraph_auto_spacing() {
    let settings = r#"<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:compat><w:doNotUseHTMLParagraphAutoSpacing/></w:compat></w:settings>"#;
    let body = format!("{}{}{}{SECT}", auto("One"), auto("Two"), plain("Three"));
    let fixed = lay_out(&docx_with_rels(&body, &[("rIdS", "settings", "settings.xml", settings)]));
    let tight = lay_out(&docx(&format!("{}{}{}{SECT}", plain("One"), plain("Two"), plain("Three"))));
    let y = |p: &docx2pdf::layout::summary::PageSummary, t: &str| p.find(t).unwrap().baseline;
    let (f, t) = (&fixed[0], &tight[0]);
    let line = y(t, "Two") - y(t, "One");
    // 5 pt before the first paragraph too: no HTML rule removes it.
    assert!(near(y(f, "One"), y(t, "One") + 5.0, 0.01));
    assert!(near(y(f, "Two") - y(f, "One"), line + 5.0, 0.01));
}

#[test]
fn autospacing_after_the_last_paragraph_of_a_cell_is_dropped() {
    let table = |cell: &str| {
        format!(
            r#"<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/></w:tblCellMar></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{cell}</w:tc></w:tr></w:tbl>"#
        )
    };
    let auto_cell = lay_out(&docx(&format!("{}{}{SECT}", table(&auto("Cell")), plain("After"))));
    let plain_cell = lay_out(&docx(&format!("{}{}{SECT}", table(&plain("Cell")), plain("After"))));
    let y = |p: &docx2pdf::layout::summary::PageSummary, t: &str| p.find(t).unwrap().baseline;
    // Neither the 14 pt before (first in the cell) nor the 14 pt after (last in it) counts.
    assert!(near(y(&auto_cell[0], "Cell"), y(&plain_cell[0], "Cell"), 0.01));
    assert!(near(y(&auto_cell[0], "After"), y(&plain_cell[0], "After"), 0.01));
}
