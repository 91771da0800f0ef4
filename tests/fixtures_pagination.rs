//! Pagination fixtures: where the first paragraph of a page starts after each kind of
//! page break (notes §3), each a DOCX built here and laid out, checked by its baseline.

mod common;

use common::docx::{docx, docx_with_image, inline_picture, png};
use common::layout::{lay_out, near};
use docx2pdf::layout::summary::TextPiece;

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

#[test]
fn pagination_bookmarks_after_a_page_break_leave_the_mark_with_the_break() {
    // Bookmarks are not content (§17.13.6): a paragraph whose page break is followed only
    // by a bookmark ends with the break, and the next paragraph starts flush at the top of
    // the next page, as without the bookmark. Word does so (measured on a held-out document:
    // without the bookmark, Word's position within 0.1 pt); we used to set an empty line
    // there first.
    let plain = heading_baseline(r#"<w:p><w:r><w:t>Text</w:t><w:br w:type="page"/></w:r></w:p>"#, "");
    let marked = heading_baseline(
        r#"<w:p><w:r><w:t>Text</w:t><w:br w:type="page"/></w:r><w:bookmarkStart w:id="0" w:name="_Toc1"/><w:bookmarkEnd w:id="0"/></w:p>"#,
        "",
    );
    assert!(near(marked, plain, 0.01), "{marked} vs {plain}");
    // Text after the bookmark is the paragraph's own next line, on the new page.
    let body = format!(
        r#"<w:p><w:r><w:t>Text</w:t><w:br w:type="page"/></w:r><w:bookmarkStart w:id="0" w:name="b"/><w:r><w:t>More</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>{SECT}"#
    );
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert!(pages[1].find("More").is_some(), "{pages:?}");
}

#[test]
fn pagination_a_rotated_inline_picture_takes_its_turned_box_in_the_line() {
    // Word sets a rotated inline picture by the bounding box of its turned extent
    // (dries007_Project2_Verslag, corpus/word: two 286 × 169 pt pictures turned 270° stand
    // side by side, each 169 wide and 286 tall). Two 300 × 100 pt pictures turned a quarter
    // fit side by side in the 468 pt column, and the line is 300 pt tall; upright, the
    // second goes to the next line.
    let turned = inline_picture(300, 100).replace("<a:xfrm>", r#"<a:xfrm rot="5400000">"#);
    let body = |picture: &str| {
        format!(r#"<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r>{picture}</w:r><w:r>{picture}</w:r></w:p><w:p><w:r><w:t>Next</w:t></w:r></w:p>{SECT}"#)
    };
    let lay = |picture: &str| lay_out(&docx_with_image(&body(picture), "p.png", &png(4, 4)));
    let next = |pages: &[docx2pdf::layout::summary::PageSummary]| pages[0].find("Next").expect("next").baseline;
    let turned_pages = lay(&turned);
    let upright_pages = lay(&inline_picture(300, 100));
    // One 300 pt line of pictures, then Next (11 pt Calibri: ascent 10.0 at single spacing).
    assert!(next(&turned_pages) > 72.0 + 300.0 && next(&turned_pages) < 72.0 + 300.0 + 16.0, "{turned_pages:?}");
    // Upright: two 100 pt lines.
    assert!(next(&upright_pages) > 72.0 + 200.0 && next(&upright_pages) < 72.0 + 200.0 + 16.0, "{upright_pages:?}");
}

#[test]
fn pagination_a_picture_that_would_run_off_the_page_takes_its_paragraph_along() {
    // A picture placed 20 pt below its paragraph's top, 300 pt tall and wrapping the text
    // square, does not fit under a paragraph at the foot of a full page: Word starts the
    // paragraph on the next page with the picture below it (FiryanulRizky_RisetOperasi_
    // SimpleksMaksimasi_Laporan, corpus/word). Placed from the margin, it stays.
    let picture = |from: &str| {
        format!(
            r#"<w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="{from}"><wp:posOffset>254000</wp:posOffset></wp:positionV><wp:extent cx="2540000" cy="3810000"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="Picture 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="p.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2540000" cy="3810000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing>"#
        )
    };
    let filler: String = (0..30).map(|_| r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t>Filler</w:t></w:r></w:p>"#).collect();
    let page_of_item = |from: &str| {
        let body = format!(r#"{filler}<w:p><w:r>{}</w:r><w:r><w:t>Item</w:t></w:r></w:p>{SECT}"#, picture(from));
        let pages = lay_out(&docx_with_image(&body, "p.png", &png(4, 4)));
        pages.iter().position(|p| p.find("Item").is_some()).expect("the item")
    };
    assert_eq!(page_of_item("paragraph"), 1, "the paragraph goes with its picture");
    assert_eq!(page_of_item("margin"), 0, "a picture placed from the margin does not move it");
}

/// The paragraph after one holding a 100 × 200 pt inline picture with `effect` (the
/// attributes of a `wp:effectExtent`, or none) between `text` and `after`, at the top of
/// the page; and the text after the picture on its line.
fn around_picture(text: &str, effect: &str, after: &str) -> (TextPiece, Option<TextPiece>) {
    let mut picture = inline_picture(100, 200);
    if !effect.is_empty() {
        picture = picture.replacen("<wp:docPr", &format!("<wp:effectExtent {effect}/><wp:docPr"), 1);
    }
    let body = format!(
        r#"<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r><w:r>{picture}</w:r><w:r><w:t xml:space="preserve">{after}</w:t></w:r></w:p><w:p><w:r><w:t>Next</w:t></w:r></w:p>{SECT}"#
    );
    let pages = lay_out(&docx_with_image(&body, "p.png", &png(4, 4)));
    let next = pages[0].find("Next").expect("the next paragraph").clone();
    (next, pages[0].find("After").cloned())
}

fn after_picture(text: &str) -> f64 {
    around_picture(text, "", "").0.baseline
}

#[test]
fn pagination_line_of_a_picture_alone_ends_at_the_picture() {
    // A line holding only a picture is as tall as the picture: no descent of the mark
    // under it (corpus `aspose_words_Aspose_Words_for_NET_images`). Under the styles of
    // Word's blank document (11 pt Calibri, 1.08 lines, 8 pt after) the next baseline is the
    // multiple's extra of the mark's 13.43 pt line, 8 pt and Calibri's 10.47 pt ascent below.
    let alone = after_picture("");
    assert!(near(alone, 72.0 + 200.0 + 13.43 * (259.0 / 240.0 - 1.0) + 8.0 + 10.47, 0.1), "{alone}");
    // Beside text, the line keeps the text's descent under its baseline.
    let beside = after_picture("Text");
    assert!(beside > alone + 2.5, "{beside} vs {alone}");
}

#[test]
fn pagination_effect_extent_adds_to_an_inline_pictures_box() {
    // `wp:effectExtent` (§20.4.2.6) takes room around the picture in its line: 4 pt below
    // move the next paragraph 4 pt down (corpus `Sari_Dot_ADPL_srs`), 3 pt left and 5 pt
    // right push the text after it 8 pt on.
    let (plain_next, plain_after) = around_picture("", "", "After");
    let (next, after) = around_picture("", r#"l="38100" t="0" r="63500" b="50800""#, "After");
    assert!(near(next.baseline - plain_next.baseline, 4.0, 0.01), "{next:?} vs {plain_next:?}");
    let (a, b) = (after.expect("text after"), plain_after.expect("text after"));
    assert!(near(a.x - b.x, 8.0, 0.01), "{a:?} vs {b:?}");
}

/// The page and baseline of a 1.5-spaced line of 11 pt Calibri (single 13.43 pt, spaced
/// 20.14 pt) whose top is `room` above the bottom margin of a Letter page.
fn last_line(room: f64) -> (usize, f64) {
    let exact = ((648.0 - room) * 20.0).round() as i64;
    let body = format!(
        r#"<w:p><w:pPr><w:spacing w:after="0" w:line="{exact}" w:lineRule="exact"/></w:pPr><w:r><w:t>Filler</w:t></w:r></w:p><w:p><w:pPr><w:spacing w:after="0" w:line="360" w:lineRule="auto"/></w:pPr><w:r><w:t>Last line</w:t></w:r></w:p>{SECT}"#
    );
    let pages = lay_out(&docx(&body));
    let page = pages.iter().position(|p| p.find("Last line").is_some()).expect("the line");
    (page, pages[page].find("Last line").expect("the line").baseline)
}

#[test]
fn pagination_last_line_may_hang_its_line_spacing_into_the_bottom_margin() {
    // 16 pt of room: the text (13.43 pt) fits, its spacing's extra hangs below the margin,
    // as Word ends pages (corpus `Sari_Dot_ADPL_sdd`, `AlexTatulescu_spotify_clone_srs`).
    assert_eq!(last_line(16.0).0, 0);
    // 13 pt: the text itself does not fit, and the line goes on.
    let (page, baseline) = last_line(13.0);
    assert_eq!(page, 1);
    assert!(baseline < 72.0 + 14.0, "{baseline}");
}

/// A square-wrapped picture of `width` × `height` points placed from the margin, `v` its
/// vertical position (`<wp:posOffset>…</wp:posOffset>` or `<wp:align>…</wp:align>`).
fn margin_picture(v: &str, width: i64, height: i64) -> String {
    let (cx, cy) = (width * 12_700, height * 12_700);
    format!(
        r#"<w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:align>center</wp:align></wp:positionH><wp:positionV relativeFrom="margin">{v}</wp:positionV><wp:extent cx="{cx}" cy="{cy}"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="Picture 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="p.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing>"#
    )
}

#[test]
fn pagination_a_paragraph_with_a_picture_goes_below_a_picture_that_leaves_it_no_room() {
    // The first picture spans the column from 20 pt below the top margin to the foot of
    // the page; the paragraph after it has no room left on the page, so it starts the next
    // one, and its own picture, aligned to the foot of the margin, goes with it
    // (GaborSzucs98_ASPNETVote_Dokumentacio, corpus/word: "Komponensek:" and its diagram).
    let first = margin_picture("<wp:posOffset>254000</wp:posOffset>", 468, 628);
    let second = margin_picture("<wp:align>bottom</wp:align>", 200, 300);
    let body = format!(
        r#"<w:p><w:r><w:t>Use cases</w:t></w:r><w:r>{first}</w:r></w:p><w:p><w:r><w:t>Components</w:t></w:r><w:r>{second}</w:r></w:p>{SECT}"#
    );
    let bytes = docx_with_image(&body, "p.png", &png(4, 4));
    let summary = lay_out(&bytes);
    assert_eq!(summary.len(), 2);
    assert!(summary[1].find("Components").is_some(), "the paragraph starts page 2");
    let pictures = |page: &docx2pdf::layout::frame::Page| {
        page.items.iter().filter(|p| matches!(p.item, docx2pdf::layout::frame::Item::Image(_))).count()
    };
    let laid = common::layout::pages(&bytes);
    assert_eq!((pictures(&laid[0]), pictures(&laid[1])), (1, 1), "each picture on its paragraph's page");
}
