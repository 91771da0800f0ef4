//! Tables laid out as Word does, on DOCX files the tests build: merged cells across a page
//! break, a repeated header row, border conflicts, styled borders, a conditional table
//! style and a floating table with text around it, checked on the laid-out frames (text
//! positions, rules, rectangles).

use std::io::{Cursor, Write};
use std::sync::OnceLock;

use docx2pdf::docx::{read, PackageLimits};
use docx2pdf::layout::frame::{Item, LineItem, Page, RectItem, Rgb};
use docx2pdf::layout::{layout, FontBook};
use docx2pdf::render::Deadline;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

const W_NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// Letter, one-inch margins: the body runs from y = 72 to y = 720.
const LETTER: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// Plain 11 pt paragraphs with no space after, and a table style with a header row and
/// banded rows (like Word's "Grid Table 4").
const STYLES: &str = r#"<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Liberation Sans" w:hAnsi="Liberation Sans"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>
<w:style w:type="table" w:styleId="Banded"><w:name w:val="Banded"/><w:basedOn w:val="TableNormal"/>
 <w:tblPr><w:tblStyleRowBandSize w:val="1"/><w:tblBorders><w:top w:val="single" w:sz="4" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:color="000000"/></w:tblBorders></w:tblPr>
 <w:tblStylePr w:type="firstRow"><w:rPr><w:b/><w:color w:val="FFFFFF"/></w:rPr><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="4472C4"/></w:tcPr></w:tblStylePr>
 <w:tblStylePr w:type="band1Horz"><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/></w:tcPr></w:tblStylePr>
</w:style>"#;

fn package(body: &str) -> Vec<u8> {
    let files = [
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>"#.to_string(),
        ),
        (
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#.to_string(),
        ),
        (
            "word/_rels/document.xml.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#.to_string(),
        ),
        ("word/styles.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><w:styles {W_NS}>{STYLES}</w:styles>"#)),
        (
            "word/document.xml",
            format!(r#"<?xml version="1.0" encoding="UTF-8"?><w:document {W_NS}><w:body>{body}{LETTER}</w:body></w:document>"#),
        ),
    ];
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in files {
        zip.start_file(name, SimpleFileOptions::default()).expect("zip entry");
        zip.write_all(text.as_bytes()).expect("zip write");
    }
    zip.finish().expect("zip").into_inner()
}

fn fonts() -> &'static FontBook {
    static BOOK: OnceLock<FontBook> = OnceLock::new();
    BOOK.get_or_init(|| FontBook::load(&[]))
}

/// Reads, resolves and lays out a body through the renderer's own path.
fn pages(body: &str) -> Vec<Page> {
    let doc = read(&package(body), &PackageLimits::default(), &Deadline::none()).expect("read");
    layout(&doc.document, fonts(), &Deadline::none()).expect("layout").layout.pages
}

/// The text items of a page: (x, baseline y, text, face name).
fn texts(page: &Page) -> Vec<(f64, f64, String, String)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Text(t) => Some((
                p.pos.x.0,
                p.pos.y.0,
                t.glyphs.iter().map(|g| g.text.as_str()).collect(),
                t.face.postscript_name.clone(),
            )),
            _ => None,
        })
        .collect()
}

fn find(page: &Page, text: &str) -> Option<(f64, f64, String, String)> {
    texts(page).into_iter().find(|t| t.2 == text)
}

fn rules(page: &Page) -> Vec<(f64, f64, LineItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Line(l) => Some((p.pos.x.0, p.pos.y.0, *l)),
            _ => None,
        })
        .collect()
}

fn rects(page: &Page) -> Vec<(f64, f64, RectItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Rect(r) => Some((p.pos.x.0, p.pos.y.0, *r)),
            _ => None,
        })
        .collect()
}

fn para(text: &str) -> String {
    format!(r#"<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
}

fn cell(pr: &str, content: &str) -> String {
    format!("<w:tc><w:tcPr>{pr}</w:tcPr>{content}</w:tc>")
}

const GRID2: &str = r#"<w:tblGrid><w:gridCol w:w="4680"/><w:gridCol w:w="4680"/></w:tblGrid>"#;

#[test]
fn a_merged_cell_continues_its_text_across_a_page_break() {
    // 70 one-line rows; the left column is one merge holding 70 lines, one beside each row.
    let rows: String = (0..70)
        .map(|i| {
            let left = if i == 0 {
                cell(r#"<w:vMerge w:val="restart"/>"#, &(0..70).map(|k| para(&format!("m{k}"))).collect::<String>())
            } else {
                cell("<w:vMerge/>", "<w:p/>")
            };
            format!("<w:tr>{left}{}</w:tr>", cell("", &para(&format!("r{i}"))))
        })
        .collect();
    let pages = pages(&format!("<w:tbl><w:tblPr/>{GRID2}{rows}</w:tbl><w:p/>"));
    assert!(pages.len() >= 2, "{} pages", pages.len());
    for page in &pages {
        for (_, y, text, _) in texts(page) {
            assert!(y <= 720.0, "{text} at {y}, below the bottom margin");
        }
    }
    // The merge's text goes on beside the rows on the second page, from its top.
    let r = texts(&pages[1]).into_iter().find(|t| t.2.starts_with('r')).expect("a row on page 2");
    let m = texts(&pages[1]).into_iter().find(|t| t.2.starts_with('m')).expect("merged text on page 2");
    assert!((m.1 - r.1).abs() < 0.5, "merged text {m:?} beside row {r:?}");
    assert!(m.1 < 100.0, "{m:?}");
    assert!(pages.iter().any(|p| find(p, "m69").is_some()));
}

#[test]
fn header_rows_repeat_and_rows_split_at_the_page_bottom() {
    let header = format!(r#"<w:tr><w:trPr><w:tblHeader/></w:trPr>{}</w:tr>"#, cell("", &para("Header")));
    let rows: String = (0..45).map(|i| format!("<w:tr>{}</w:tr>", cell("", &para(&format!("row {i}"))))).collect();
    // A tall row that may break, then one that may not.
    let tall = |pr: &str, name: &str| {
        let lines: String = (0..12).map(|k| para(&format!("{name} {k}"))).collect();
        format!("<w:tr><w:trPr>{pr}</w:trPr>{}</w:tr>", cell("", &lines))
    };
    let body = format!(
        r#"<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="9360"/></w:tblGrid>{header}{rows}{}{}</w:tbl><w:p/>"#,
        tall("", "split"),
        tall("<w:cantSplit/>", "whole")
    );
    let pages = pages(&body);
    assert_eq!(pages.len(), 2, "{} pages", pages.len());
    let top = |p: &Page| texts(p).into_iter().min_by(|a, b| a.1.total_cmp(&b.1)).expect("text");
    assert_eq!(top(&pages[0]).2, "Header");
    assert_eq!(top(&pages[1]).2, "Header", "the header row repeats");
    // The breakable row starts on the first page and ends on the second.
    assert!(find(&pages[0], "split 0").is_some());
    assert!(find(&pages[1], "split 11").is_some());
    // The cantSplit row is whole on the second page.
    assert!(find(&pages[1], "whole 0").is_some() && find(&pages[1], "whole 11").is_some());
}

#[test]
fn the_heavier_border_wins_where_two_cells_meet() {
    let left = cell(r#"<w:tcBorders><w:right w:val="single" w:sz="4" w:color="000000"/></w:tcBorders>"#, &para("a"));
    let right = cell(r#"<w:tcBorders><w:left w:val="single" w:sz="24" w:color="FF0000"/></w:tcBorders>"#, &para("b"));
    let pages = pages(&format!("<w:tbl><w:tblPr/>{GRID2}<w:tr>{left}{right}</w:tr></w:tbl><w:p/>"));
    let r = rules(&pages[0]);
    assert_eq!(r.len(), 1, "one shared edge: {r:?}");
    let (x, _, line) = r[0];
    assert!((line.thickness.0 - 3.0).abs() < 1e-6, "{line:?}");
    assert_eq!(line.color, Rgb(255, 0, 0));
    // Legacy layout: the text sits at the margin, the grid line 234 pt further on.
    assert!((x - (72.0 - 5.4 + 234.0)).abs() < 0.01, "{x}");
}

#[test]
fn double_and_dotted_borders_are_drawn_in_their_style() {
    let borders = r#"<w:tblBorders><w:top w:val="double" w:sz="4" w:color="000000"/><w:bottom w:val="dotted" w:sz="4" w:color="000000"/></w:tblBorders>"#;
    let pages = pages(&format!(
        r#"<w:tbl><w:tblPr>{borders}</w:tblPr><w:tblGrid><w:gridCol w:w="9360"/></w:tblGrid><w:tr>{}</w:tr></w:tbl><w:p/>"#,
        cell("", &para("x"))
    ));
    let r = rules(&pages[0]);
    let ys: Vec<f64> = r.iter().map(|l| l.1).collect();
    let top = ys.iter().copied().fold(f64::MAX, f64::min);
    let double: Vec<_> = r.iter().filter(|l| l.1 < top + 2.0).collect();
    assert_eq!(double.len(), 2, "two lines of a double border: {double:?}");
    assert!((double[1].1 - double[0].1 - 1.0).abs() < 1e-6, "{double:?}");
    let dots = r.iter().filter(|l| l.1 > top + 5.0).count();
    assert!(dots > 50, "a dotted line is many dots: {dots}");
}

#[test]
fn a_conditional_table_style_shades_the_header_and_bands_the_rows() {
    let rows: String = (0..4)
        .map(|i| {
            let name = if i == 0 { "Head".to_string() } else { format!("body{i}") };
            format!("<w:tr>{}{}</w:tr>", cell("", &para(&name)), cell("", &para("v")))
        })
        .collect();
    let body = format!(
        r#"<w:tbl><w:tblPr><w:tblStyle w:val="Banded"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr>{GRID2}{rows}</w:tbl><w:p/>"#
    );
    let pages = pages(&body);
    let page = &pages[0];
    let head = find(page, "Head").expect("header text");
    let body1 = find(page, "body1").expect("body text");
    assert!(head.3.contains("Bold"), "the header row is bold: {}", head.3);
    assert!(!body1.3.contains("Bold"), "{}", body1.3);
    let fill_at = |y: f64| -> Vec<Rgb> {
        rects(page).iter().filter(|(_, ry, r)| *ry <= y && y <= ry + r.size.height.0).filter_map(|r| r.2.fill).collect()
    };
    assert_eq!(fill_at(head.1), [Rgb(0x44, 0x72, 0xC4), Rgb(0x44, 0x72, 0xC4)]);
    assert_eq!(fill_at(body1.1), [Rgb(0xD9, 0xE2, 0xF3), Rgb(0xD9, 0xE2, 0xF3)]);
    let body2 = find(page, "body2").expect("row 2");
    assert!(fill_at(body2.1).is_empty(), "band 2 has no shading");
    let body3 = find(page, "body3").expect("row 3");
    assert_eq!(fill_at(body3.1).len(), 2);
    // The style's borders: top, three insideH and bottom, drawn on each of the two cells.
    assert_eq!(rules(page).len(), 5 * 2);
}

#[test]
fn a_floating_table_sits_at_its_position_and_the_next_paragraph_wraps_beside_it() {
    // 144 pt wide, at the right margin, 10 pt below the top of the paragraph after it,
    // keeping 9 pt from the text on its left.
    let table = format!(
        r#"<w:tbl><w:tblPr><w:tblpPr w:leftFromText="180" w:vertAnchor="text" w:horzAnchor="margin" w:tblpXSpec="right" w:tblpY="200"/><w:tblW w:w="2880" w:type="dxa"/><w:tblBorders><w:top w:val="single" w:sz="4" w:color="000000"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="2880"/></w:tblGrid><w:tr>{}</w:tr><w:tr>{}</w:tr></w:tbl>"#,
        cell("", &para("Floating")),
        cell("", &para("Cell two"))
    );
    let words = "words beside the floating table ".repeat(12);
    let body = format!("{}{table}{}{LETTER}", para("Before the table."), para(&words));
    let page = &pages(&body)[0];
    let before = find(page, "Before the table.").expect("the first paragraph");
    let floating = find(page, "Floating").expect("the table's first cell");
    // The table's right edge is the margin's (540): its cell text starts 144 pt before,
    // inside the 5.4 pt cell margin.
    assert!((floating.0 - (540.0 - 144.0 + 5.4)).abs() < 0.6, "{floating:?}");
    // Its top is 10 pt below the top of the next paragraph, which starts right under the
    // first line: the first cell's baseline lies within one line of there.
    let next_top = before.1 + 4.0;
    assert!(floating.1 > next_top + 10.0 && floating.1 < next_top + 10.0 + 16.0, "{floating:?} after {before:?}");
    // The next paragraph does not move down for the table, and its lines beside the
    // table stop short of it.
    let lines: Vec<_> = texts(page).into_iter().filter(|t| t.2.contains("beside")).collect();
    assert!(lines[0].1 - before.1 < 16.0, "{lines:?}");
    let mut beside = 0;
    for p in &page.items {
        let Item::Text(t) = &p.item else { continue };
        let (x, y) = (p.pos.x.0, p.pos.y.0);
        if y > floating.1 - 12.0 && y < floating.1 + 20.0 && t.glyphs.first().is_some_and(|g| g.text == "w") {
            let right = x + t.glyphs.iter().map(|g| g.advance.0).sum::<f64>();
            assert!(right <= 396.0 - 9.0 + 0.5, "text at {y} runs to {right} under the table at {floating:?}");
            beside += 1;
        }
    }
    assert!(beside > 0, "lines beside the table");
    // Below the table the lines run the full width again.
    let last = lines.last().expect("lines");
    assert!(last.1 > floating.1 + 30.0, "{lines:?}");
}
