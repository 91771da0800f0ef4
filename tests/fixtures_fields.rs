//! Fields and content controls (§17.16, §17.5.2) on DOCX files the tests build, laid out
//! through the real reader and layout: a table of contents inside its `w:sdt` keeps its
//! cached entries with dot leaders, their PAGEREF page numbers recomputed from our own
//! pagination and right-aligned at the tab stop.

mod common;

use common::docx::docx;
use docx2pdf::layout::frame::{Item, Page};

fn lay(body: &str) -> Vec<Page> {
    let section = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;
    let bytes = docx(&format!("{body}{section}"));
    common::layout::pages(&bytes)
}

/// The text items of a page: (x, end x, baseline, text).
fn texts(page: &Page) -> Vec<(f64, f64, f64, String)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Text(t) => Some((
                p.pos.x.0,
                p.pos.x.0 + t.glyphs.iter().map(|g| g.advance.0).sum::<f64>(),
                p.pos.y.0,
                t.glyphs.iter().map(|g| g.text.as_str()).collect(),
            )),
            _ => None,
        })
        .collect()
}

/// One cached TOC entry: a right tab with dot leader at 9350 twips, the title, a PAGEREF to
/// `bookmark` whose cached result is `page`.
fn entry(title: &str, bookmark: &str, page: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9350"/></w:tabs><w:spacing w:after="100"/></w:pPr><w:hyperlink w:anchor="{bookmark}" w:history="1"><w:r><w:t>{title}</w:t></w:r><w:r><w:tab/></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGEREF {bookmark} \h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>{page}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:hyperlink></w:p>"#
    )
}

/// A paragraph starting a new page with bookmark `name` around `text`.
fn heading_on_new_page(name: &str, text: &str) -> String {
    format!(
        r#"<w:p><w:r><w:br w:type="page"/></w:r></w:p><w:p><w:bookmarkStart w:id="0" w:name="{name}"/><w:r><w:t>{text}</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>"#
    )
}

#[test]
fn a_table_of_contents_keeps_its_entries_with_dot_leaders_and_our_page_numbers() {
    let toc = format!(
        r#"<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent><w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \o "1-3" \h \z \u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Contents</w:t></w:r></w:p>{}{}<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:sdtContent></w:sdt>"#,
        entry("Introduction", "_Toc1", "7"),
        entry("Results", "_Toc2", "12")
    );
    // The headings land on pages 2 and 3, whatever the cached 7 and 12 said.
    let body = format!("{toc}{}{}", heading_on_new_page("_Toc1", "Introduction"), heading_on_new_page("_Toc2", "Results"));
    let pages = lay(&body);
    assert_eq!(pages.len(), 3);
    let t = texts(&pages[0]);
    let find = |s: &str| t.iter().find(|x| x.3 == s).unwrap_or_else(|| panic!("{s} in {t:?}"));
    let intro = find("Introduction");
    assert!((intro.0 - 72.0).abs() < 0.01, "{intro:?}");
    assert!(!t.iter().any(|x| x.3 == "7" || x.3 == "12"), "cached numbers replaced: {t:?}");
    // The page numbers end at the right tab stop: 72 + 9350/20 pt.
    for (title, page) in [("Introduction", "2"), ("Results", "3")] {
        let title = find(title);
        let number = t.iter().find(|x| x.3 == page && (x.2 - title.2).abs() < 0.5).expect("the page number");
        assert!((number.1 - 539.5).abs() < 0.05, "{number:?}");
        // Dot leaders fill the gap between the title and the number.
        let dots = t.iter().find(|x| x.3.trim_start().starts_with("....") && (x.2 - title.2).abs() < 0.5).expect("a dot leader");
        assert!(dots.0 >= title.1 - 0.01 && dots.1 <= number.0 + 0.01, "{dots:?} between {title:?} and {number:?}");
    }
}

#[test]
fn a_pageref_to_a_missing_bookmark_prints_words_error() {
    let pages = lay(&entry("Lost", "_TocGone", "4"));
    let t = texts(&pages[0]);
    assert!(t.iter().any(|x| x.3.contains("Error!")), "{t:?}");
    assert!(!t.iter().any(|x| x.3 == "4"));
}
