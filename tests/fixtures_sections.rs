//! Section fixtures (§17.6): section types, columns (balanced, unequal, separated),
//! vertical alignment, gutters, page number formats and SECTIONPAGES, each a DOCX built
//! here and laid out, checked by where its text lands.

mod common;

use common::docx::{docx, docx_with_rels, escape, header_footer_xml, paragraph};
use common::layout::{lay_out, near};

/// Letter with 1-inch margins; `extra` goes inside `w:sectPr` (type, cols, vAlign…).
fn sect(extra: &str) -> String {
    format!(
        r#"<w:sectPr>{extra}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#
    )
}

/// A paragraph that closes a section with `sect_pr`.
fn closing(text: &str, sect_pr: &str) -> String {
    format!(r#"<w:p><w:pPr>{sect_pr}</w:pPr><w:r><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#, escape(text))
}

fn column_break(text: &str) -> String {
    format!(r#"<w:p><w:r><w:br w:type="column"/><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#, escape(text))
}

#[test]
fn section_continuous_balances_the_columns_it_ends() {
    let items: String = (1..=6).map(|i| paragraph(&format!("Item {i}"))).collect();
    let two_cols = r#"<w:type w:val="continuous"/><w:cols w:num="2" w:space="720"/>"#;
    let body = format!(
        "{}{items}{}{}{}",
        closing("Heading across the page", &sect("")),
        closing("Item 7", &sect(two_cols)),
        paragraph("After the columns"),
        sect(r#"<w:type w:val="continuous"/>"#)
    );
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 1);
    let page = &pages[0];
    // Seven items over two columns: four on the left, three on the right, tops aligned.
    let x = |t: &str| page.find(t).unwrap_or_else(|| panic!("{t} in {}", page.all_text())).x;
    let y = |t: &str| page.find(t).unwrap().baseline;
    for i in 1..=4 {
        assert!(near(x(&format!("Item {i}")), 72.0, 0.1), "item {i} in the left column");
    }
    // Right column at 72 + (468 − 36) / 2 + 36 = 324.
    for i in 5..=7 {
        assert!(near(x(&format!("Item {i}")), 324.0, 0.1), "item {i} in the right column");
    }
    assert!(near(y("Item 1"), y("Item 5"), 0.01));
    // The text after the break goes below the longer (left) column, across the page.
    assert!(y("After the columns") > y("Item 4"));
    assert!(near(x("After the columns"), 72.0, 0.1));
}

#[test]
fn section_columns_unequal_widths_and_separator() {
    let long = "Words in the narrow column wrap within its own width, which is two inches here.";
    let cols = r#"<w:cols w:num="2" w:sep="1" w:space="720" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5760"/></w:cols>"#;
    let body = format!("{}{}{}", paragraph(long), column_break("Wide column text"), sect(cols));
    let pages = lay_out(&docx(&body));
    let page = &pages[0];
    // The narrow column is 144 pt wide: every piece of the paragraph ends before 216.
    let narrow: Vec<_> = page.text.iter().filter(|p| p.x < 200.0).collect();
    assert!(narrow.len() >= 3, "the long paragraph wraps in the narrow column: {narrow:?}");
    assert!(narrow.iter().all(|p| p.right <= 216.5), "{narrow:?}");
    // The wide column starts after 144 pt and its 36 pt space: 72 + 180 = 252.
    let wide = page.find("Wide column").expect("wide column text");
    assert!(near(wide.x, 252.0, 0.1), "{wide:?}");
    assert!(near(wide.baseline, narrow[0].baseline, 0.01));
    // The separator runs down the middle of the space between the columns.
    let sep = page.rules.iter().find(|r| near(r.from.0, r.to.0, 0.01) && r.to.1 > r.from.1).expect("a separator");
    assert!(near(sep.from.0, 234.0, 0.1), "{sep:?}");
    assert!(near(sep.from.1, 72.0, 0.1));
}

#[test]
fn section_single_unequal_column_keeps_its_width_past_the_right_margin() {
    // One `w:col` of 7.5 in between 1-inch margins of a Letter page: Word lays the text out
    // 540 pt wide, from 72 to 612 − 36, not in the 468 pt the margins leave.
    let right = r#"<w:p><w:pPr><w:jc w:val="right"/></w:pPr><w:r><w:t>Flush right</w:t></w:r></w:p>"#;
    let centred = r#"<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>Centred</w:t></w:r></w:p>"#;
    let cols = r#"<w:cols w:space="720" w:equalWidth="0"><w:col w:w="10800"/></w:cols>"#;
    let wide = lay_out(&docx(&format!("{right}{centred}{}", sect(cols))));
    let plain = lay_out(&docx(&format!("{right}{centred}{}", sect(""))));
    let (w, p) = (wide[0].find("Flush right").unwrap(), plain[0].find("Flush right").unwrap());
    assert!(near(p.right, 540.0, 0.5), "{p:?}");
    assert!(near(w.right, 612.0, 0.5), "{w:?}");
    let (w, p) = (wide[0].find("Centred").unwrap(), plain[0].find("Centred").unwrap());
    assert!(near(w.x - p.x, 36.0, 0.1), "the centre moves by half the extra width: {w:?} {p:?}");
}

#[test]
fn section_v_align_center_and_bottom() {
    let center = lay_out(&docx(&format!("{}{}", paragraph("Centred"), sect(r#"<w:vAlign w:val="center"/>"#))));
    let top = lay_out(&docx(&format!("{}{}", paragraph("Centred"), sect(""))));
    let bottom = lay_out(&docx(&format!("{}{}", paragraph("Centred"), sect(r#"<w:vAlign w:val="bottom"/>"#))));
    let (t, c, b) =
        (top[0].find("Centred").unwrap(), center[0].find("Centred").unwrap(), bottom[0].find("Centred").unwrap());
    // The body is 648 pt tall; one Calibri line at 1.08 is about 14.5 pt (the 8 pt after
    // does not count): centre moves it by about (648 − 14.5) / 2.
    let moved = c.baseline - t.baseline;
    assert!((310.0..322.0).contains(&moved), "centre moved by {moved}");
    assert!(near(b.baseline - t.baseline, 2.0 * moved, 0.1));
}

#[test]
fn section_v_align_both_spreads_paragraphs_over_the_page() {
    let body = format!(
        "{}{}{}{}",
        paragraph("First"),
        paragraph("Second"),
        paragraph("Third"),
        sect(r#"<w:vAlign w:val="both"/>"#)
    );
    let page = &lay_out(&docx(&body))[0];
    let (a, b, c) = (page.find("First").unwrap(), page.find("Second").unwrap(), page.find("Third").unwrap());
    assert!(near(a.baseline, 72.0 + 11.0, 3.0), "the first stays at the top: {a:?}");
    assert!(near(c.baseline, 720.0 - 3.0, 3.0), "the last ends at the bottom: {c:?}");
    assert!(near(b.baseline - a.baseline, c.baseline - b.baseline, 0.1));
}

#[test]
fn section_odd_page_inserts_a_blank_page() {
    let body = format!(
        "{}{}{}",
        closing("First section", &sect("")),
        paragraph("Odd section"),
        sect(r#"<w:type w:val="oddPage"/>"#)
    );
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 3);
    assert!(pages[1].text.is_empty(), "page 2 is blank");
    assert!(pages[2].find("Odd section").is_some());
}

#[test]
fn section_even_page_starts_on_the_next_even_page() {
    let body = format!(
        "{}{}{}",
        closing("First section", &sect("")),
        paragraph("Even section"),
        sect(r#"<w:type w:val="evenPage"/>"#)
    );
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2);
    assert!(pages[1].find("Even section").is_some());
}

#[test]
fn section_next_page_takes_its_own_page_size() {
    let landscape = r#"<w:sectPr><w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720" w:header="360" w:footer="360" w:gutter="0"/></w:sectPr>"#;
    let body = format!("{}{}{landscape}", closing("Portrait", &sect("")), paragraph("Landscape"));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2);
    assert_eq!((pages[0].width, pages[0].height), (612.0, 792.0));
    assert_eq!((pages[1].width, pages[1].height), (792.0, 612.0));
    assert!(near(pages[1].find("Landscape").unwrap().x, 36.0, 0.1));
}

#[test]
fn section_gutter_left_and_right() {
    let gutter = |rtl: &str| {
        format!(
            r#"<w:sectPr>{rtl}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="720"/></w:sectPr>"#
        )
    };
    let right_aligned = r#"<w:p><w:pPr><w:jc w:val="right"/></w:pPr><w:r><w:t>End</w:t></w:r></w:p>"#;
    let left = lay_out(&docx(&format!("{}{right_aligned}{}", paragraph("Start"), gutter(""))));
    assert!(near(left[0].find("Start").unwrap().x, 108.0, 0.1));
    assert!(near(left[0].find("End").unwrap().right, 540.0, 0.1));
    let rtl = lay_out(&docx(&format!("{}{right_aligned}{}", paragraph("Start"), gutter("<w:rtlGutter/>"))));
    assert!(near(rtl[0].find("Start").unwrap().x, 72.0, 0.1));
    assert!(near(rtl[0].find("End").unwrap().right, 504.0, 0.1));
}

/// A footer part whose one paragraph holds `text` with the page fields in `fields`
/// (`PAGE`, `SECTIONPAGES`…) as simple fields, e.g. `"Page {PAGE} of {SECTIONPAGES}"`.
fn footer_with_fields(template: &str) -> String {
    let mut runs = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').expect("closing brace") + open;
        runs.push_str(&format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(&rest[..open])));
        runs.push_str(&format!(
            r#"<w:fldSimple w:instr=" {} "><w:r><w:t>1</w:t></w:r></w:fldSimple>"#,
            &rest[open + 1..close]
        ));
        rest = &rest[close + 1..];
    }
    runs.push_str(&format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(rest)));
    header_footer_xml("ftr", &format!("<w:p>{runs}</w:p>"))
}

/// Section properties with the footer `rIdF` and `extra` (pgNumType…).
fn sect_with_footer(extra: &str) -> String {
    sect(&format!(r#"<w:footerReference w:type="default" r:id="rIdF"/>{extra}"#))
}

fn page_break(text: &str) -> String {
    format!(r#"<w:p><w:r><w:br w:type="page"/><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#, escape(text))
}

#[test]
fn section_page_number_format_and_restart() {
    let footer = footer_with_fields("Page {PAGE}");
    let body = format!(
        "{}{}{}",
        paragraph("One"),
        page_break("Two"),
        sect_with_footer(r#"<w:pgNumType w:fmt="lowerRoman" w:start="3"/>"#)
    );
    let pages = lay_out(&docx_with_rels(&body, &[("rIdF", "footer", "footer1.xml", &footer)]));
    assert_eq!(pages.len(), 2);
    assert!(pages[0].find("Page iii").is_some(), "{}", pages[0].all_text());
    assert!(pages[1].find("Page iv").is_some(), "{}", pages[1].all_text());
}

#[test]
fn section_page_number_in_dash_and_upper_letter() {
    let footer = footer_with_fields("{PAGE}");
    let body = format!(
        "{}{}{}",
        closing("Dashes", &sect_with_footer(r#"<w:pgNumType w:fmt="numberInDash"/>"#)),
        paragraph("Letters"),
        sect_with_footer(r#"<w:pgNumType w:fmt="upperLetter" w:start="1"/>"#)
    );
    let pages = lay_out(&docx_with_rels(&body, &[("rIdF", "footer", "footer1.xml", &footer)]));
    assert_eq!(pages.len(), 2);
    assert!(pages[0].find("- 1 -").is_some(), "{}", pages[0].all_text());
    let letter = pages[1].text.iter().find(|p| p.baseline > 700.0).expect("footer line");
    assert_eq!(letter.text.trim(), "A");
}

#[test]
fn section_pages_counts_the_pages_of_each_section() {
    let footer = footer_with_fields("Page {PAGE} of {SECTIONPAGES}, {NUMPAGES} in all");
    let body = format!(
        "{}{}{}{}{}",
        paragraph("A1"),
        page_break("A2"),
        closing("A2 end", &sect_with_footer("")),
        paragraph("B1"),
        sect_with_footer(r#"<w:pgNumType w:start="1"/>"#)
    );
    let pages = lay_out(&docx_with_rels(&body, &[("rIdF", "footer", "footer1.xml", &footer)]));
    assert_eq!(pages.len(), 3);
    assert!(pages[0].find("Page 1 of 2, 3 in all").is_some(), "{}", pages[0].all_text());
    assert!(pages[1].find("Page 2 of 2, 3 in all").is_some(), "{}", pages[1].all_text());
    assert!(pages[2].find("Page 1 of 1, 3 in all").is_some(), "{}", pages[2].all_text());
}

/// A paragraph whose first run is a page break, at the foot of a full page: the line that
/// holds only the break stays behind, whatever the paragraph's keep options, and its text
/// opens the next page, as Word sets AidarShaimov_carLoan_Otchet's keep-with-next,
/// keep-lines 16 pt headings (corpus/word: 15 pages, not 16 with a blank one).
#[test]
fn a_paragraph_opening_with_a_page_break_at_the_foot_of_a_full_page_opens_the_next_page() {
    let low = r#"<w:p><w:pPr><w:spacing w:before="12600"/></w:pPr><w:r><w:t>Last line</w:t></w:r></w:p>"#;
    let heading = r#"<w:p><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="240" w:line="360" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:sz w:val="32"/></w:rPr><w:br w:type="page"/></w:r><w:r><w:rPr><w:sz w:val="32"/></w:rPr><w:t>Chapter five</w:t></w:r></w:p>"#;
    let body = format!("{low}{heading}{}{}", paragraph("Its first paragraph"), sect(""));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{:?}", pages.iter().map(|p| p.all_text()).collect::<Vec<_>>());
    assert!(pages[1].find("Chapter five").is_some() && pages[1].find("Its first paragraph").is_some());
    assert!(pages[1].find("Chapter five").unwrap().baseline < 100.0, "at the top of the page");
}

#[test]
fn section_columns_separator_only_before_a_column_with_text() {
    // One short paragraph in the first of two columns: Word draws no separator.
    let body =
        format!("{}{}", paragraph("Only the first column"), sect(r#"<w:cols w:num="2" w:space="720" w:sep="1"/>"#));
    let pages = lay_out(&docx(&body));
    let vertical = pages[0].rules.iter().filter(|r| near(r.from.0, r.to.0, 0.01) && r.to.1 > r.from.1).count();
    assert_eq!(vertical, 0);
}

/// A page break that ends the last paragraph of a section is the section's next-page
/// break: one new page for the two, as Word lays out cover pages that end so
/// (1Fragrance_JavaTrySprint_Otchet, corpus/word). An empty paragraph that holds only the
/// section break after a page break (Aawahan_Electric-Circuit-Simulation_SRS), or at the foot
/// of a full page (AndresMunozB_Paradigmas-Scheme_Informe), takes no page either; a
/// continuous section after a page break starts on the break's new page.
#[test]
fn section_break_after_a_page_break_makes_no_blank_page() {
    let page_break = r#"<w:r><w:t>Cover</w:t></w:r><w:r><w:br w:type="page"/></w:r>"#;
    let ends_with_break = format!(r#"<w:p><w:pPr>{}</w:pPr>{page_break}</w:p>"#, sect(""));
    let body = format!("{ends_with_break}{}{}", paragraph("Contents"), sect(""));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{:?}", pages.iter().map(|p| p.all_text()).collect::<Vec<_>>());
    assert!(pages[1].find("Contents").is_some());

    let empty_closing = format!(r#"<w:p><w:pPr>{}</w:pPr></w:p>"#, sect(""));
    let body = format!(r#"<w:p>{page_break}</w:p>{empty_closing}{}{}"#, paragraph("Contents"), sect(""));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{:?}", pages.iter().map(|p| p.all_text()).collect::<Vec<_>>());
    assert!(pages[1].find("Contents").is_some());

    // Nor at the foot of a full page: the empty paragraph stays behind on it.
    let low = r#"<w:p><w:pPr><w:spacing w:before="12600"/></w:pPr><w:r><w:t>Last line</w:t></w:r></w:p>"#;
    let body = format!("{low}{empty_closing}{}{}", paragraph("Next section"), sect(""));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{:?}", pages.iter().map(|p| p.all_text()).collect::<Vec<_>>());
    assert!(pages[1].find("Next section").is_some());

    // Text after the break keeps its page: the break is not lost.
    let body = format!(r#"<w:p>{page_break}</w:p>{}{}{}"#, closing("Second page", &sect("")), paragraph("Third page"), sect(""));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 3);
    assert!(pages[1].find("Second page").is_some() && pages[2].find("Third page").is_some());

    let continuous = sect(r#"<w:type w:val="continuous"/>"#);
    let body = format!(r#"<w:p><w:pPr>{}</w:pPr>{page_break}</w:p>{}{continuous}"#, sect(""), paragraph("Continued"));
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2);
    assert!(near(pages[1].find("Continued").unwrap().baseline, pages[0].find("Cover").unwrap().baseline, 0.01));
}

#[test]
fn an_empty_paragraph_closing_a_section_before_a_continuous_one_takes_no_room() {
    // Word sets the next section's first line where the empty mark's line would stand.
    let spaced = r#"<w:pPr><w:spacing w:after="200" w:line="360" w:lineRule="auto"/></w:pPr>"#;
    let heading = format!(r#"<w:p>{spaced}<w:r><w:t>Heading</w:t></w:r></w:p>"#);
    let empty_closing = format!(r#"<w:p><w:pPr><w:spacing w:after="200" w:line="360" w:lineRule="auto"/>{}</w:pPr></w:p>"#, sect(""));
    let continuous = sect(r#"<w:type w:val="continuous"/>"#);
    let listing = |between: &str| {
        let body = format!("{heading}{between}{}{continuous}", paragraph("First listed line"));
        let pages = lay_out(&docx(&body));
        assert_eq!(pages.len(), 1);
        pages[0].find("First listed line").unwrap().baseline - pages[0].find("Heading").unwrap().baseline
    };
    let plain = listing("");
    assert!(near(listing(&empty_closing), plain, 0.01), "{} against {plain}", listing(&empty_closing));
    // An empty paragraph that closes no section keeps its line.
    let empty = format!("<w:p>{spaced}</w:p>");
    assert!(listing(&empty) > plain + 20.0);
    // One with text keeps it too.
    let closing_text = format!(r#"<w:p><w:pPr>{}</w:pPr><w:r><w:t>Closing words</w:t></w:r></w:p>"#, sect(""));
    assert!(listing(&closing_text) > plain + 10.0);
}
