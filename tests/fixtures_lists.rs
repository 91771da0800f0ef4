//! Lists (numbering.xml, §17.9) on DOCX files the tests build, laid out through the real
//! reader and layout: nested levels, restarts, `w:lvlJc`, number formats.

mod common;

use common::docx::{docx_with_part, escape};
use docx2pdf::layout::frame::{Item, Page};

const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// One level: its format, text, justification and indents (twips).
fn level(ilvl: u8, format: &str, text: &str, jc: &str, left: i64, hanging: i64) -> String {
    format!(
        r#"<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{format}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="{jc}"/><w:pPr><w:ind w:left="{left}" w:hanging="{hanging}"/></w:pPr></w:lvl>"#
    )
}

fn numbering() -> String {
    let levels = [
        level(0, "decimal", "%1.", "left", 720, 360),
        level(1, "lowerLetter", "%2)", "left", 1440, 360),
        level(2, "lowerRoman", "%3.", "right", 2160, 180),
        level(3, "cardinalText", "%4:", "left", 2880, 360),
    ]
    .concat();
    format!(
        r#"<w:numbering {NS}><w:abstractNum w:abstractNumId="0">{levels}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num></w:numbering>"#
    )
}

fn item(num: i64, ilvl: u8, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num}"/></w:numPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>{}</w:t></w:r></w:p>"#,
        escape(text)
    )
}

fn lay(body: &str) -> Vec<Page> {
    let section = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;
    let bytes = docx_with_part(&format!("{body}{section}"), "numbering", "numbering.xml", &numbering());
    common::layout::pages(&bytes)
}

/// A text item: (x, end x, text).
type Piece = (f64, f64, String);

/// The lines of a page: (baseline, pieces left to right), top to bottom.
fn lines(page: &Page) -> Vec<(f64, Vec<Piece>)> {
    let mut out: Vec<(f64, Vec<Piece>)> = Vec::new();
    for p in &page.items {
        let Item::Text(t) = &p.item else { continue };
        let text: String = t.glyphs.iter().map(|g| g.text.as_str()).collect();
        let end = p.pos.x.0 + t.glyphs.iter().map(|g| g.advance.0).sum::<f64>();
        let y = p.pos.y.0;
        match out.iter_mut().find(|l| (l.0 - y).abs() < 0.5) {
            Some(l) => l.1.push((p.pos.x.0, end, text)),
            None => out.push((y, vec![(p.pos.x.0, end, text)])),
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    for l in &mut out {
        l.1.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out
}

#[test]
fn a_nested_list_counts_restarts_and_aligns_its_numbers() {
    let body = [
        item(1, 0, "one"),
        item(1, 1, "one a"),
        item(1, 1, "one b"),
        item(1, 0, "two"),
        item(1, 1, "two a"),
        item(1, 2, "deep"),
        item(1, 2, "deeper"),
        item(1, 3, "words"),
        item(2, 0, "again"),
    ]
    .concat();
    let pages = lay(&body);
    let lines = lines(&pages[0]);
    // A line's label: every text item before the paragraph's own text (the last item).
    let label = |k: usize| {
        let items = &lines[k].1[..lines[k].1.len() - 1];
        let text: String = items.iter().map(|i| i.2.as_str()).collect();
        (items[0].0, items[items.len() - 1].1, text.trim().to_owned())
    };
    let labels: Vec<String> = (0..lines.len()).map(|k| label(k).2).collect();
    // Level 2 restarts when level 1 advances; the second list instance restarts at 1
    // through its startOverride.
    assert_eq!(labels, ["1.", "a)", "b)", "2.", "a)", "i.", "ii.", "One:", "1."]);

    // Left-aligned numbers start at the first-line indent (left − hanging).
    assert!((label(0).0 - (72.0 + 18.0)).abs() < 0.01, "{:?}", lines[0]);
    assert!((label(1).0 - (72.0 + 54.0)).abs() < 0.01, "{:?}", lines[1]);
    // Right-aligned (lvlJc) numbers end there: 2160 − 180 twips from the margin.
    let first_line = 72.0 + 99.0;
    for k in [5, 6] {
        let number = label(k);
        assert!((number.1 - first_line).abs() < 0.05, "{number:?} ends at the indent");
    }
}

/// A Symbol bullet raises its line by Symbol's own ascent, 2059 of 2048 em, beyond Arial's
/// 1854 + 67 (line gap), but not by its descent, 450 against Arial's 434: Word sets bullet
/// lines further apart than numbered ones (sverrejb_docxide_pdf_input_19: 17.75 against
/// 17.0 pt at 12 pt Aptos), though Symbol is drawn with a stand-in.
#[test]
fn a_symbol_bullet_makes_its_line_as_tall_as_symbol_s_ascent() {
    let arial = r#"<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="24"/></w:rPr>"#;
    let bullet = r#"<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr></w:lvl>"#;
    let numbering = format!(
        r#"<w:numbering {NS}><w:abstractNum w:abstractNumId="0">{}</w:abstractNum><w:abstractNum w:abstractNumId="1">{bullet}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>"#,
        level(0, "decimal", "%1.", "left", 720, 360)
    );
    let item = |num: i64, text: &str| {
        format!(
            r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>{arial}</w:pPr><w:r>{arial}<w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let body = [item(1, "one"), item(1, "two"), item(2, "three"), item(2, "four")].concat();
    let section = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;
    let bytes = docx_with_part(&format!("{body}{section}"), "numbering", "numbering.xml", &numbering);
    let pages = common::layout::pages(&bytes);
    let ys: Vec<f64> = lines(&pages[0]).iter().map(|l| l.0).collect();
    assert_eq!(ys.len(), 4, "{ys:?}");
    let numbered = ys[1] - ys[0];
    let bulleted = ys[3] - ys[2];
    // Symbol's ascent above Arial's (line gap included), at 12 pt; its deeper descent
    // (450 against 434 of 2048, 0.09 pt) is left out.
    let higher = 12.0 * (2059.0 - 1854.0 - 67.0) / 2048.0;
    assert!((bulleted - numbered - higher).abs() < 0.02, "numbered {numbered:.2} pt, bulleted {bulleted:.2} pt apart");
    // The first bullet line's baseline drops by the ascent alone below the numbered line.
    assert!((ys[2] - ys[1] - numbered - higher).abs() < 0.05, "{ys:?}");
}

/// A picture bullet (`w:numPicBullet`, §17.9.20) is drawn in place of its level's Symbol
/// bullet, as tall as the label's text and in the picture's proportions (a 6 × 3 pt
/// picture at 12 pt is 24 × 12), and its items stand as far apart as numbered ones: the
/// picture does not size the line, nor does the Symbol font it replaces.
#[test]
fn a_picture_bullet_is_drawn_at_text_height_and_leaves_its_line_as_tall_as_its_text() {
    let arial = r#"<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="24"/></w:rPr>"#;
    let bullet = r#"<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/><w:lvlPicBulletId w:val="0"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr></w:lvl>"#;
    let picture = r##"<w:numPicBullet w:numPicBulletId="0" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:pict><v:shape id="_x0000_i1025" type="#_x0000_t75" style="width:6pt;height:3pt" o:bullet="t"><v:imagedata r:id="rIdBullet" o:title=""/></v:shape></w:pict></w:numPicBullet>"##;
    let numbering = format!(
        r#"<w:numbering {NS}>{picture}<w:abstractNum w:abstractNumId="0">{}</w:abstractNum><w:abstractNum w:abstractNumId="1">{bullet}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>"#,
        level(0, "decimal", "%1.", "left", 720, 360)
    );
    let numbering_rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdBullet" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/bullet.png"/></Relationships>"#;
    let item = |num: i64, text: &str| {
        format!(
            r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>{arial}</w:pPr><w:r>{arial}<w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let body = [item(1, "one"), item(1, "two"), item(2, "three"), item(2, "four")].concat();
    let section = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;
    let png = common::docx::png(2, 1);
    let bytes = common::docx::docx_with_files(
        &format!("{body}{section}"),
        &[("rIdNumbering", "numbering", "numbering.xml")],
        &[("word/numbering.xml", numbering.as_bytes()), ("word/_rels/numbering.xml.rels", numbering_rels.as_bytes()), ("word/media/bullet.png", &png)],
    );
    let pages = common::layout::pages(&bytes);
    let ys: Vec<f64> = lines(&pages[0]).iter().map(|l| l.0).collect();
    assert_eq!(ys.len(), 4, "the bullets are pictures, not text: {ys:?}");
    let numbered = ys[1] - ys[0];
    assert!((ys[3] - ys[2] - numbered).abs() < 0.01 && (ys[2] - ys[1] - numbered).abs() < 0.01, "{ys:?}");
    let pictures: Vec<(f64, f64, f64, f64)> = pages[0]
        .items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Image(i) => Some((p.pos.x.0, p.pos.y.0, i.size.width.0, i.size.height.0)),
            _ => None,
        })
        .collect();
    assert_eq!(pictures.len(), 2, "{pictures:?}");
    for (x, _, width, height) in &pictures {
        assert!((x - 90.0).abs() < 0.01 && (width - 24.0).abs() < 0.01 && (height - 12.0).abs() < 0.01, "{pictures:?}");
    }
}

/// A list label's descent does not size its line (corpus/word,
/// Baywetche_ocean-explorer_Pflichtenheft: items behind a 10 pt Courier New "o", 3.0 pt
/// deep, over 12 pt Times New Roman, 2.6 pt deep, stand 13.8 pt apart like plain lines;
/// sverrejb_docxide_pdf_input_33: a 20 pt number leaves its item's second line of 10 pt text
/// 12.2 pt below the first). A line holding nothing but a label, an empty item, is as tall
/// as its paragraph mark.
#[test]
fn a_list_label_sizes_its_line_by_its_ascent_alone() {
    let times = r#"<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr>"#;
    let lvl = |text: &str, rpr: &str| {
        format!(
            r#"<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr>{rpr}</w:rPr></w:lvl>"#
        )
    };
    let courier = lvl("o", r#"<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/><w:sz w:val="20"/>"#);
    let big = lvl("o", r#"<w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="48"/>"#);
    let numbering = format!(
        r#"<w:numbering {NS}><w:abstractNum w:abstractNumId="0">{courier}</w:abstractNum><w:abstractNum w:abstractNumId="1">{big}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>"#
    );
    let para = |num: Option<i64>, text: &str| {
        let numbered = num.map(|n| format!(r#"<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{n}"/></w:numPr>"#)).unwrap_or_default();
        let run = if text.is_empty() { String::new() } else { format!("<w:r>{times}<w:t>{text}</w:t></w:r>") };
        format!(r#"<w:p><w:pPr>{numbered}<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>{times}</w:pPr>{run}</w:p>"#)
    };
    let long = "words that fill the line and wrap onto a second line under the first ".repeat(2);
    let body = [
        para(None, "plain"),
        para(None, "plain"),
        para(Some(1), "small bullet"),
        para(Some(1), "small bullet"),
        para(Some(2), &long),
        para(Some(1), ""),
        para(None, "after"),
    ]
    .concat();
    let section = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;
    let bytes = docx_with_part(&format!("{body}{section}"), "numbering", "numbering.xml", &numbering);
    let ys: Vec<f64> = lines(&common::layout::pages(&bytes)[0]).iter().map(|l| l.0).collect();
    assert_eq!(ys.len(), 8, "{ys:?}");
    // Times New Roman at 12 pt: 1825 + 87 (line gap) above the baseline, 443 below, of 2048.
    let (ascent, descent) = (12.0 * (1825.0 + 87.0) / 2048.0, 12.0 * 443.0 / 2048.0);
    let plain = ys[1] - ys[0];
    assert!((plain - ascent - descent).abs() < 0.01, "{ys:?}");
    assert!((ys[2] - ys[1] - plain).abs() < 0.01 && (ys[3] - ys[2] - plain).abs() < 0.01, "Courier New's descent counted: {ys:?}");
    // The 24 pt label raises the first line of its item by its ascent; the second line
    // follows the first as plain lines do.
    let big_ascent = 2.0 * ascent;
    assert!((ys[4] - ys[3] - descent - big_ascent).abs() < 0.01, "{ys:?}");
    assert!((ys[5] - ys[4] - plain).abs() < 0.01, "the 24 pt descent counted: {ys:?}");
    // The empty item: the mark's line, then "after" a plain line below it.
    assert!((ys[6] - ys[5] - plain).abs() < 0.01 && (ys[7] - ys[6] - plain).abs() < 0.01, "{ys:?}");
}

/// An empty numbered paragraph whose mark is hidden (`w:vanish`) shows neither its number
/// nor a line, bookmarks or not: Word's PDF of AndresMunozB_Paradigmas-Scheme_Informe has
/// no "1." before "Tipos de datos Abstractos", where such a paragraph stands.
#[test]
fn a_hidden_empty_numbered_paragraph_takes_no_line_and_shows_no_number() {
    let hidden = r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr><w:spacing w:after="0"/><w:rPr><w:vanish/></w:rPr></w:pPr><w:bookmarkStart w:id="1" w:name="_Toc1"/><w:bookmarkEnd w:id="1"/></w:p>"#;
    let plain = |t: &str| format!(r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#);
    let pages = lay(&format!("{}{hidden}{}", plain("before"), plain("after")));
    let ls = lines(&pages[0]);
    let texts: Vec<String> = ls.iter().map(|l| l.1.iter().map(|p| p.2.as_str()).collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(texts, ["before", "after"], "no number, no blank line");
    let shown = lay(&format!("{}{}{}", plain("before"), hidden.replace("<w:vanish/>", ""), plain("after")));
    assert_eq!(lines(&shown[0]).len(), 3, "the same paragraph shown has its number");
    assert!(ls[1].0 < lines(&shown[0])[2].0, "the hidden one takes no room");
}

/// An empty paragraph whose mark is a section break is no list item and breaks no page:
/// dries007_Project2_Verslag (corpus/word) ends its first section with an empty numbered
/// heading that has page break before; Word gives the next heading the number 1 and starts
/// it on the page after the contents, no page holding the empty one.
#[test]
fn an_empty_paragraph_holding_a_section_break_is_no_list_item_and_breaks_no_page() {
    let heading = |num: i64, text: &str, sect: &str| {
        format!(
            r#"<w:p><w:pPr><w:pageBreakBefore/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr>{sect}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let section = r#"<w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;
    let body = format!(
        r#"<w:p><w:r><w:t>Contents</w:t></w:r></w:p>{}{}{}"#,
        heading(1, "", section),
        heading(1, "Hardware", ""),
        heading(1, "Software", "")
    );
    let pages = lay(&body);
    assert_eq!(pages.len(), 3, "contents, Hardware, Software: {}", pages.len());
    let text = |page: usize| -> String { lines(&pages[page])[0].1.iter().map(|p| p.2.as_str()).collect() };
    assert_eq!(text(1), "1.Hardware");
    assert_eq!(text(2), "2.Software");
}
