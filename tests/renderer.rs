//! The renderer on small DOCX files built by the tests, read back with poppler: the words,
//! the page count and size, the fonts, determinism.

mod common;

use common::docx::{docx, paragraph, png};
use common::pdf;
use docx2pdf::render::{convert, Deadline, Release, RenderErrorKind, Renderer};

fn render(body: &str) -> Vec<u8> {
    convert(&common::renderer(), &docx(body), &Deadline::none()).expect("conversion").pdf
}

const LETTER_SECTION: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

#[test]
fn the_words_of_the_document_come_back_in_order() {
    let text = "The quick brown fox jumps over the lazy dog, and then it rests by the river.";
    let pdf = render(&format!("{}{}{LETTER_SECTION}", paragraph("Title of the memo"), paragraph(text)));
    let words = pdf::words(&pdf::text(&pdf));
    let expected = pdf::words(&format!("Title of the memo {text}"));
    assert_eq!(words, expected);
    assert_eq!(pdf::pages(&pdf), 1);
    assert!(pdf::info(&pdf).contains("612 x 792 pts"), "Letter size");
}

#[test]
fn long_documents_flow_onto_more_pages() {
    let body: String = (1..=120).map(|i| paragraph(&format!("Paragraph number {i} of a long report."))).collect();
    let pdf = render(&format!("{body}{LETTER_SECTION}"));
    // Calibri 11 pt at 1.08 lines with 8 pt after: about 29 paragraphs fit on a Letter page.
    let pages = pdf::pages(&pdf);
    assert!((4..=5).contains(&pages), "{pages} pages");
    assert!(pdf::page_text(&pdf, 1).contains("Paragraph number 1 "));
    assert!(pdf::page_text(&pdf, pages).contains("Paragraph number 120"));
}

#[test]
fn the_section_sets_page_size_and_orientation() {
    let a4_landscape = r#"<w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720" w:header="360" w:footer="360" w:gutter="0"/></w:sectPr>"#;
    let pdf = render(&format!("{}{a4_landscape}", paragraph("Wide page")));
    assert!(pdf::info(&pdf).contains("841.9 x 595.3 pts"), "{}", pdf::info(&pdf));
}

#[test]
fn a_page_break_starts_a_new_page() {
    let body = format!(
        r#"{}<w:p><w:r><w:br w:type="page"/></w:r><w:r><w:t>Second page</w:t></w:r></w:p>{LETTER_SECTION}"#,
        paragraph("First page")
    );
    let pdf = render(&body);
    assert_eq!(pdf::pages(&pdf), 2);
    assert!(pdf::page_text(&pdf, 2).contains("Second page"));
    assert!(!pdf::page_text(&pdf, 1).contains("Second"));
}

#[test]
fn bold_and_italic_runs_use_the_bold_and_italic_faces() {
    let body = format!(
        r#"<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Strong </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>slanted</w:t></w:r><w:r><w:t xml:space="preserve"> plain</w:t></w:r></w:p>{LETTER_SECTION}"#
    );
    let pdf = render(&body);
    let fonts = pdf::fonts(&pdf);
    assert!(fonts.contains("Carlito-Bold"), "{fonts}");
    assert!(fonts.contains("Carlito-Italic"), "{fonts}");
    assert!(fonts.contains("Carlito "), "{fonts}");
    assert!(fonts.lines().skip(2).all(|l| l.contains("CID TrueType") && l.contains("yes")), "embedded subsets: {fonts}");
    assert_eq!(pdf::words(&pdf::text(&pdf)), ["Strong", "slanted", "plain"]);
}

#[test]
fn table_cells_are_laid_out_with_their_text() {
    let cell = |t: &str| format!(r#"<w:tc><w:tcPr><w:tcW w:w="4680" w:type="dxa"/></w:tcPr>{}</w:tc>"#, paragraph(t));
    let table = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4680"/><w:gridCol w:w="4680"/></w:tblGrid><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>"#,
        cell("Item"),
        cell("Price"),
        cell("Coffee"),
        cell("3.50")
    );
    let pdf = render(&format!("{table}{LETTER_SECTION}"));
    let words = pdf::words(&pdf::text(&pdf));
    for w in ["Item", "Price", "Coffee", "3.50"] {
        assert!(words.iter().any(|x| x == w), "{w} in {words:?}");
    }
}

#[test]
fn scripts_the_body_font_lacks_fall_back_to_other_faces() {
    let pdf = render(&format!("{}{LETTER_SECTION}", paragraph("English 中文 Ελληνικά")));
    let text = pdf::text(&pdf);
    assert!(text.contains("中文") && text.contains("Ελληνικά") && text.contains("English"), "{text}");
}

#[test]
fn the_same_document_gives_the_same_bytes() {
    let body = format!("{}{LETTER_SECTION}", paragraph("Deterministic output"));
    assert_eq!(render(&body), render(&body));
}

#[test]
fn a_broken_main_part_is_an_invalid_docx_error() {
    let err = convert(&common::renderer(), &docx("<w:p><w:r><w:t>unclosed"), &Deadline::none()).unwrap_err();
    assert_eq!(err.kind(), RenderErrorKind::InvalidDocx, "{err}");
    assert!(err.to_string().contains("word/document.xml"), "{err}");
}

fn render_with_image(body: &str, image: &[u8]) -> Vec<u8> {
    let bytes = common::docx::docx_with_image(body, "image1.png", image);
    convert(&common::renderer(), &bytes, &Deadline::none()).expect("conversion").pdf
}

#[test]
fn an_inline_png_is_stored_as_one_image_of_its_pixel_size() {
    let body = format!(r#"<w:p><w:r>{}</w:r></w:p>{LETTER_SECTION}"#, common::docx::inline_picture(144, 72));
    let pdf = render_with_image(&body, &png(40, 20));
    let images = pdf::images(&pdf);
    assert_eq!(images.len(), 1, "{images:?}");
    // page, num, type, width, height, color…
    assert_eq!(&images[0][..5], ["1", "0", "image", "40", "20"]);
    assert_eq!(images[0][5], "rgb");
}

#[test]
fn an_opaque_png_is_embedded_with_its_own_compressed_rows() {
    let body = format!(r#"<w:p><w:r>{}</w:r></w:p>{LETTER_SECTION}"#, common::docx::inline_picture(144, 72));
    let source = png(40, 20);
    let pdf = render_with_image(&body, &source);
    // The PNG's IDAT payload (after its 8-byte signature, the 25-byte IHDR chunk and the
    // IDAT length and type) is in the PDF as it is, read through the PNG predictors.
    let idat_len = u32::from_be_bytes(source[33..37].try_into().unwrap()) as usize;
    assert_eq!(&source[37..41], b"IDAT");
    let idat = &source[41..41 + idat_len];
    assert!(pdf.windows(idat.len()).any(|w| w == idat), "the IDAT bytes are passed through");
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.contains("/Predictor 15") || text.contains("/Predictor\n15"), "PNG predictors declared");
    // And a reader gets back exactly the pixels of the source.
    let (w, h, color, samples) = pdf::first_image_pixels(&pdf);
    assert_eq!((w, h, color), (40, 20, png::ColorType::Rgb));
    let expected: Vec<u8> = (0..40 * 20 * 3).map(|i| (i % 251) as u8).collect();
    assert!(samples == expected, "pixels differ from the source");
}

/// A translucent RGBA PNG of noise (it compresses badly, so it is real work to encode).
fn noisy_rgba_png(w: u32, h: u32, seed: u32) -> Vec<u8> {
    let pixels: Vec<u8> = (0..w * h * 4).map(|i| (i.wrapping_add(seed).wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    common::docx::png_of(w, h, png::ColorType::Rgba, &pixels)
}

#[test]
fn a_document_written_on_several_threads_is_byte_for_byte_the_one_written_on_one() {
    // Enough of everything that the writer spreads it over threads: two pictures to
    // decode, dozens of dense pages of content streams, and their fonts.
    let dense = r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:rPr><w:sz w:val="12"/></w:rPr><w:t>The renderer lays text out as Word does: lines are broken at the opportunities of the Unicode rules, filled greedily, aligned and justified, and placed on pages in columns.</w:t></w:r><w:r><w:rPr><w:b/><w:sz w:val="12"/></w:rPr><w:t xml:space="preserve"> Bold words 0123456789.</w:t></w:r></w:p>"#;
    let body = format!(
        r#"<w:p><w:r>{}{}</w:r></w:p>{}{LETTER_SECTION}"#,
        common::docx::inline_picture_of("rIdA", 200, 200),
        common::docx::inline_picture_of("rIdB", 200, 200),
        dense.repeat(2500)
    );
    let (a, b) = (noisy_rgba_png(300, 300, 1), noisy_rgba_png(300, 300, 2));
    let bytes = common::docx::docx_with_images(&body, &[("rIdA", "a.png", &a), ("rIdB", "b.png", &b)]);
    let shared = common::renderer();
    let with = |threads| Renderer { fonts: shared.fonts.clone(), limits: shared.limits.clone(), threads, release: Release::Free };
    let one = convert(&with(1), &bytes, &Deadline::none()).expect("one thread");
    let three = convert(&with(3), &bytes, &Deadline::none()).expect("three threads");
    assert!(one.pages > 32, "more than one batch of pages: {}", one.pages);
    assert!(one.pdf == three.pdf, "the bytes differ");
    let images = pdf::images(&three.pdf);
    assert_eq!(images.iter().filter(|row| row[2] == "smask").count(), 2, "{images:?}");
}

#[test]
fn a_conversion_that_leaves_its_memory_to_the_exit_writes_the_same_pdf() {
    // What `convert` does: the model, the resolved styles, the layout's caches and the
    // pages are not freed. The PDF is written before any of them is let go.
    let text = r#"<w:p><w:r><w:t>Left to the end of the process, the document's structures are not freed one by one.</w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve"> Italic words.</w:t></w:r></w:p>"#;
    let body = format!(
        r#"<w:p><w:r>{}</w:r></w:p>{}{LETTER_SECTION}"#,
        common::docx::inline_picture_of("rIdA", 40, 40),
        text.repeat(200)
    );
    let a = noisy_rgba_png(32, 32, 3);
    let bytes = common::docx::docx_with_images(&body, &[("rIdA", "a.png", &a)]);
    let shared = common::renderer();
    let with = |release| Renderer { fonts: shared.fonts.clone(), limits: shared.limits.clone(), threads: 1, release };
    let freed = convert(&with(Release::Free), &bytes, &Deadline::none()).expect("freed");
    let kept = convert(&with(Release::AtExit), &bytes, &Deadline::none()).expect("left to the exit");
    assert!(freed.pages > 2, "{} pages", freed.pages);
    assert_eq!(freed.pages, kept.pages);
    assert!(freed.pdf == kept.pdf, "the bytes differ");
}

#[test]
fn two_drawings_of_one_picture_store_it_once() {
    let picture = common::docx::inline_picture(100, 50);
    let body = format!(r#"<w:p><w:r>{picture}</w:r></w:p><w:p><w:r>{picture}</w:r></w:p>{LETTER_SECTION}"#);
    let pdf = render_with_image(&body, &png(8, 4));
    let images = pdf::images(&pdf);
    assert_eq!(images.len(), 2, "drawn twice: {images:?}");
    // Column 10 is the object number: both draws show the same object.
    assert_eq!(images[0][10], images[1][10]);
    let objects = String::from_utf8_lossy(&pdf).matches("/Subtype /Image").count()
        + String::from_utf8_lossy(&pdf).matches("/Subtype/Image").count();
    assert_eq!(objects, 1);
}

#[test]
fn a_tall_inline_picture_pushes_the_next_line_down() {
    let body = format!(
        r#"<w:p><w:r><w:t>above</w:t></w:r></w:p><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r>{}</w:r></w:p>{}{LETTER_SECTION}"#,
        common::docx::inline_picture(100, 620),
        paragraph("below the picture")
    );
    let pdf = render_with_image(&body, &png(4, 4));
    // 72 pt margins leave 648 pt: "above" (21.4 pt with its spacing) and the 620 pt picture
    // line fit, the next line does not.
    assert_eq!(pdf::pages(&pdf), 2);
    assert!(pdf::page_text(&pdf, 1).contains("above"));
    assert!(pdf::page_text(&pdf, 2).contains("below the picture"));
}

/// A decimal list with a lower-letter second level, as Word writes it.
const NUMBERING: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#;

fn list_item(level: u8, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

#[test]
fn list_paragraphs_show_their_numbers() {
    let body = format!(
        "{}{}{}{LETTER_SECTION}",
        list_item(0, "First"),
        list_item(0, "Second"),
        list_item(1, "Nested")
    );
    let bytes = common::docx::docx_with_part(&body, "numbering", "numbering.xml", NUMBERING);
    let pdf = convert(&common::renderer(), &bytes, &Deadline::none()).expect("conversion").pdf;
    let words = pdf::words(&pdf::text(&pdf));
    assert_eq!(words, pdf::words("1. First 2. Second a) Nested"));
}
