//! Header and footer fixtures (§17.10): first-page and even-page parts, inheritance across
//! sections, and a tall header pushing the body down, checked on the laid-out pages.

mod common;

use common::docx::{docx_with_rels, header_footer_xml, paragraph};
use common::layout::{lay_out, near};

const PAGE: &str = r#"<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>"#;

fn page_break(text: &str) -> String {
    format!(r#"<w:p><w:r><w:br w:type="page"/><w:t>{text}</w:t></w:r></w:p>"#)
}

fn header(text: &str) -> String {
    header_footer_xml("hdr", &paragraph(text))
}

#[test]
fn header_first_even_and_default_pages() {
    let settings = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:evenAndOddHeaders/></w:settings>"#;
    let body = format!(
        r#"{}{}{}<w:sectPr><w:headerReference w:type="default" r:id="rIdD"/><w:headerReference w:type="first" r:id="rIdF"/><w:headerReference w:type="even" r:id="rIdE"/><w:titlePg/>{PAGE}</w:sectPr>"#,
        paragraph("Body one"),
        page_break("Body two"),
        page_break("Body three")
    );
    let (first, even, default) = (header("First header"), header("Even header"), header("Odd header"));
    let parts = [
        ("rIdD", "header", "header1.xml", default.as_str()),
        ("rIdF", "header", "header2.xml", first.as_str()),
        ("rIdE", "header", "header3.xml", even.as_str()),
        ("rIdS", "settings", "settings.xml", settings),
    ];
    let pages = lay_out(&docx_with_rels(&body, &parts));
    assert_eq!(pages.len(), 3);
    let shows = |i: usize, t: &str| pages[i].find(t).is_some();
    assert!(shows(0, "First header") && !shows(0, "Odd header"), "{}", pages[0].all_text());
    assert!(shows(1, "Even header"), "{}", pages[1].all_text());
    assert!(shows(2, "Odd header"), "{}", pages[2].all_text());
    // The header sits at its distance from the top: 36 pt plus the first line's ascent.
    let h = pages[2].find("Odd header").unwrap();
    assert!(h.baseline > 36.0 && h.baseline < 50.0, "{h:?}");
}

#[test]
fn header_is_inherited_by_a_section_that_names_none() {
    let first = format!(
        r#"<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdD"/>{PAGE}</w:sectPr></w:pPr><w:r><w:t>Section one</w:t></w:r></w:p>"#
    );
    let body = format!("{first}{}<w:sectPr>{PAGE}</w:sectPr>", paragraph("Section two"));
    let part = header("Shared header");
    let pages = lay_out(&docx_with_rels(&body, &[("rIdD", "header", "header1.xml", &part)]));
    assert_eq!(pages.len(), 2);
    assert!(pages[1].find("Shared header").is_some(), "{}", pages[1].all_text());
}

#[test]
fn header_taller_than_the_top_margin_pushes_the_body_down() {
    let lines: String = (1..=8).map(|i| paragraph(&format!("Header line {i}"))).collect();
    let tall = header_footer_xml("hdr", &lines);
    let body = format!(
        r#"{}<w:sectPr><w:headerReference w:type="default" r:id="rIdD"/>{PAGE}</w:sectPr>"#,
        paragraph("Body text")
    );
    let pages = lay_out(&docx_with_rels(&body, &[("rIdD", "header", "header1.xml", &tall)]));
    let last = pages[0].find("Header line 8").expect("the header's last line");
    let text = pages[0].find("Body text").expect("the body");
    // The body starts below the header (its last line and 8 pt after), not at 72 pt.
    assert!(text.baseline > last.baseline + 14.0, "{last:?} {text:?}");
    assert!(!near(text.baseline, 72.0 + 11.0, 5.0));
}

#[test]
fn a_framed_paragraph_in_a_header_stands_out_of_its_flow() {
    // Word's old page-number command puts the number in a frame the text goes around,
    // aligned right; the header holds it and two tall lines, and reaches the top margin
    // only with the frame counted as a line (Veli-V_mobo-harkkatyo2_Dokumentaatio,
    // corpus/word: the body starts at the top margin).
    let framed = |frame: &str| {
        let number = format!(r#"<w:p><w:pPr>{frame}</w:pPr><w:r><w:t>42</w:t></w:r></w:p>"#);
        let tall = r#"<w:p><w:pPr><w:spacing w:line="480" w:lineRule="auto" w:after="0"/></w:pPr></w:p>"#;
        let part = header_footer_xml("hdr", &format!("{number}{tall}"));
        let body = format!(
            r#"{}<w:sectPr><w:headerReference w:type="default" r:id="rIdD"/>{PAGE}</w:sectPr>"#,
            paragraph("Body text")
        );
        let pages = lay_out(&docx_with_rels(&body, &[("rIdD", "header", "header1.xml", &part)]));
        let number = pages[0].find("42").expect("the number").clone();
        (number, pages[0].find("Body text").expect("the body").baseline)
    };
    let (number, body) = framed(r#"<w:framePr w:wrap="around" w:vAnchor="text" w:hAnchor="margin" w:xAlign="right" w:y="1"/>"#);
    assert!(near(number.ink_right, 540.0, 0.5), "the number ends at the right margin: {number:?}");
    let (_, plain) = framed("");
    assert!(body < plain - 10.0, "the frame takes no line of the header: {body} against {plain}");
    // A drop cap is no such frame.
    let (_, dropped) = framed(r#"<w:framePr w:dropCap="drop" w:lines="2" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/>"#);
    assert!(near(dropped, plain, 0.01));
}
