//! Fixtures of content pasted from HTML: VML horizontal rules (`v:rect o:hr="t"`) and
//! paragraph autospacing (`w:beforeAutospacing`/`w:afterAutospacing`), each a DOCX built
//! here and laid out, checked by where the rule's bar and the text land.

mod common;

use common::docx::{docx, docx_with_rels, paragraph};
use common::layout::{lay_out, near, pages};
use common::pdf::page_pixels;
use docx2pdf::layout::frame::{Item, Page, Rgb};
use docx2pdf::render::{convert, Deadline};

/// Letter with 1-inch margins: the text is 468 pt wide, from 72 to 540.
const SECT: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// A paragraph holding only a VML rule with these `v:rect` attributes.
fn rule(attributes: &str) -> String {
    format!(r#"<w:p><w:r><w:pict><v:rect {attributes} stroked="f"/></w:pict></w:r></w:p>"#)
}

/// The filled rectangles of a page: (x, y, width, height, fill).
fn rects(page: &Page) -> Vec<(f64, f64, f64, f64, Rgb)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Rect(r) => r.fill.map(|f| (p.pos.x.0, p.pos.y.0, r.size.width.0, r.size.height.0, f)),
            _ => None,
        })
        .collect()
}

#[test]
fn vml_rule_of_half_the_width_is_centred_in_its_colour() {
    let body = format!(
        "{}{}{}{SECT}",
        paragraph("Above"),
        rule(r##"style="width:0;height:3pt" o:hrpct="500" o:hralign="center" o:hrstd="t" o:hrnoshade="t" o:hr="t" fillcolor="#ff0000""##),
        paragraph("Below")
    );
    let bytes = docx(&body);
    let bars = rects(&pages(&bytes)[0]);
    // hrpct 500 is half of the 468 pt text width, centred: 72 + 117 = 189; no shade, one bar.
    assert_eq!(bars.len(), 1, "{bars:?}");
    let (x, y, w, h, fill) = bars[0];
    assert!(near(x, 189.0, 0.01) && near(w, 234.0, 0.01) && near(h, 3.0, 0.001), "{bars:?}");
    assert_eq!(fill, Rgb(255, 0, 0));
    // The bar sits in its own line, between the paragraphs around it.
    let text = &lay_out(&bytes)[0];
    let (above, below) = (text.find("Above").unwrap().baseline, text.find("Below").unwrap().baseline);
    assert!(y > above && y + h < below, "{above} < {y} < {below}");
    // And so it is in the PDF: red across the bar's middle, white beside it.
    let pdf = convert(&common::renderer(), &bytes, &Deadline::none()).expect("conversion").pdf;
    let Some(page) = page_pixels(&pdf) else { return };
    let middle = (y + h / 2.0) as usize;
    assert_eq!(page.pixel(300, middle), (255, 0, 0));
    assert_eq!(page.pixel(190, middle), (255, 0, 0));
    assert_eq!(page.pixel(150, middle), (255, 255, 255));
    assert_eq!(page.pixel(440, middle), (255, 255, 255));
}

#[test]
fn vml_rule_with_a_width_aligns_right_and_a_standard_rule_is_grey_and_bevelled() {
    let body = format!(
        "{}{}{SECT}",
        rule(r#"style="width:100pt;height:1.5pt" o:hralign="right" o:hrnoshade="t" o:hr="t" fillcolor="blue""#),
        rule(r##"style="width:0;height:1.5pt" o:hralign="center" o:hrstd="t" o:hr="t" fillcolor="#a0a0a0""##)
    );
    let bars = rects(&pages(&docx(&body))[0]);
    let blue: Vec<_> = bars.iter().filter(|b| b.4 == Rgb(0, 0, 255)).collect();
    assert_eq!(blue.len(), 1, "{bars:?}");
    assert!(near(blue[0].0, 440.0, 0.01) && near(blue[0].2, 100.0, 0.01), "right-aligned 100 pt: {blue:?}");
    // The standard rule: the whole text width in #A0A0A0, a light #E3E3E3 edge along its
    // bottom and right (Word's PDF of a pasted `<hr>`).
    let grey: Vec<_> = bars.iter().filter(|b| b.4 == Rgb(0xA0, 0xA0, 0xA0)).collect();
    assert_eq!(grey.len(), 1, "{bars:?}");
    let (x, y, w, h, _) = *grey[0];
    assert!(near(x, 72.0, 0.01) && near(w, 468.0, 0.01) && near(h, 1.5, 0.001), "{grey:?}");
    let light: Vec<_> = bars.iter().filter(|b| b.4 == Rgb(0xE3, 0xE3, 0xE3)).collect();
    assert_eq!(light.len(), 2, "{bars:?}");
    assert!(light.iter().any(|b| near(b.1 + b.3, y + h, 0.001) && b.2 > 400.0), "bottom edge: {light:?}");
    assert!(light.iter().any(|b| near(b.0 + b.2, x + w, 0.001) && b.2 < 1.0), "right edge: {light:?}");
    assert!(y > blue[0].1, "the second rule is below the first");
}

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
