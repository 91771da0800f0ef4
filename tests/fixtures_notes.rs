//! Footnotes and endnotes (§17.11) on DOCX files the tests build, laid out through the
//! real reader and layout: marks, the note area at the foot of the page, a long note
//! continued on the next page, endnotes after the body.

mod common;

use common::docx::{docx_with_parts, escape};
use docx2pdf::layout::frame::{Item, Page};

const LETTER_SECTION: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// Word's separator notes, as Word writes them (ids -1 and 0).
const SEPARATORS: &str = r#"<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>"#;

/// A body paragraph without space after, so lines sit one pitch apart.
fn line(text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#,
        escape(text)
    )
}

/// A paragraph ending with a reference of `kind` (`footnote`/`endnote`) to note `id`.
fn with_reference(text: &str, kind: &str, id: i64) -> String {
    format!(
        r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:t xml:space="preserve">{}</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:{kind}Reference w:id="{id}"/></w:r></w:p>"#,
        escape(text)
    )
}

/// A note of `kind` whose first paragraph starts with the note's own mark.
fn note(kind: &str, id: i64, paragraphs: &[String]) -> String {
    let mut body = String::new();
    for (i, p) in paragraphs.iter().enumerate() {
        let mark = if i == 0 {
            format!(
                r#"<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:{kind}Ref/></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r>"#
            )
        } else {
            String::new()
        };
        body.push_str(&format!(
            r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr>{mark}<w:r><w:rPr><w:sz w:val="20"/></w:rPr><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#,
            escape(p)
        ));
    }
    format!(r#"<w:{kind} w:id="{id}">{body}</w:{kind}>"#)
}

fn footnotes(notes: &str) -> String {
    format!(r#"<w:footnotes {NS}>{SEPARATORS}{notes}</w:footnotes>"#)
}

fn endnotes(notes: &str) -> String {
    let separators = SEPARATORS.replace("footnote", "endnote");
    format!(r#"<w:endnotes {NS}>{separators}{notes}</w:endnotes>"#)
}

fn lay(body: &str, parts: &[(&str, &str, &str)]) -> Vec<Page> {
    let bytes = docx_with_parts(&format!("{body}{LETTER_SECTION}"), parts);
    common::layout::pages(&bytes)
}

/// The text items of a page: (x, baseline y, size, text).
fn texts(page: &Page) -> Vec<(f64, f64, f64, String)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Text(t) => Some((p.pos.x.0, p.pos.y.0, t.size.0, t.glyphs.iter().map(|g| g.text.as_str()).collect())),
            _ => None,
        })
        .collect()
}

/// The text item holding `needle` on a page.
fn find(page: &Page, needle: &str) -> Option<(f64, f64, f64, String)> {
    texts(page).into_iter().find(|t| t.3.contains(needle))
}

/// Horizontal rules of a page: (x0, x1, y).
fn rules(page: &Page) -> Vec<(f64, f64, f64)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Line(l) if (l.to.y.0 - p.pos.y.0).abs() < 0.01 => Some((p.pos.x.0, l.to.x.0, p.pos.y.0)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_footnote_sits_at_the_foot_of_the_page_under_a_short_separator() {
    let body = format!("{}{}", with_reference("A claim that needs a source.", "footnote", 1), line("More text."));
    let notes = footnotes(&note("footnote", 1, &["The source of the claim.".into()]));
    let pages = lay(&body, &[("footnotes", "footnotes.xml", &notes)]);
    assert_eq!(pages.len(), 1);
    let page = &pages[0];

    // The reference mark: "1" after the claim, smaller than the text (superscript).
    let claim = find(page, "source.").or_else(|| find(page, "claim")).expect("the claim");
    let mark = texts(page)
        .into_iter()
        .find(|t| t.3 == "1" && (t.1 - claim.1).abs() < 12.0 && t.0 > claim.0)
        .expect("the mark");
    assert!(mark.2 < claim.2, "the mark is smaller: {mark:?} vs {claim:?}");

    // The note at the foot: its last line ends at the bottom margin (720 pt).
    let text = find(page, "The source of the claim.").expect("the note text");
    assert!(text.1 > 690.0 && text.1 < 720.0, "{text:?}");
    // The note's own mark precedes its text on the same line.
    assert!(texts(page).iter().any(|t| t.3 == "1" && t.0 < text.0 && (t.1 - text.1).abs() < 6.0));

    // Word's separator: 144 pt from the left margin, above the note.
    let sep = rules(page).into_iter().find(|r| r.2 > 600.0).expect("a separator");
    assert!((sep.0 - 72.0).abs() < 0.01 && (sep.1 - 216.0).abs() < 0.01, "{sep:?}");
    assert!(sep.2 < text.1 - 8.0, "{sep:?} above {text:?}");
}

#[test]
fn a_long_footnote_continues_on_the_next_page() {
    let mut body: String = (1..=38).map(|i| line(&format!("Body line {i}"))).collect();
    body.push_str(&with_reference("Body line with the reference", "footnote", 1));
    body.extend((40..=45).map(|i| line(&format!("Body line {i}"))));
    let note_lines: Vec<String> = (1..=20).map(|i| format!("Note line {i}")).collect();
    let notes = footnotes(&note("footnote", 1, &note_lines));
    let pages = lay(&body, &[("footnotes", "footnotes.xml", &notes)]);
    assert_eq!(pages.len(), 2);

    // The reference line stays on the first page with the note's first lines below it.
    let reference = find(&pages[0], "with the reference").expect("the reference line on page 1");
    let first = find(&pages[0], "Note line 1").expect("the note starts on page 1");
    assert!(first.1 > reference.1, "{first:?} below {reference:?}");
    assert!(find(&pages[0], "Note line 20").is_none());

    // The rest goes on to page 2, at its foot, under a full-width continuation separator.
    let last = find(&pages[1], "Note line 20").expect("the note ends on page 2");
    assert!(last.1 > 690.0 && last.1 < 720.0, "{last:?}");
    let continued =
        rules(&pages[1]).into_iter().find(|r| (r.1 - r.0 - 468.0).abs() < 0.01).expect("a continuation separator");
    assert!(continued.2 < last.1, "{continued:?}");

    // Every note line is printed exactly once.
    for i in 1..=20 {
        let needle = format!("Note line {i}");
        let count: usize = pages.iter().map(|p| texts(p).iter().filter(|t| t.3.trim_end() == needle).count()).sum();
        assert_eq!(count, 1, "{needle}");
    }
    // The body after the reference moved on: the page's room went to the note.
    let after = find(&pages[1], "Body line 45").expect("the last body line on page 2");
    assert!(after.1 < 200.0, "{after:?}");
}

#[test]
fn endnotes_follow_the_body_in_reference_order_with_roman_marks() {
    let body = format!(
        "{}{}{}",
        with_reference("First claim.", "endnote", 5),
        with_reference("Second claim.", "endnote", 2),
        line("The last body line.")
    );
    let notes = endnotes(&format!(
        "{}{}",
        note("endnote", 2, &["Second endnote text.".into()]),
        note("endnote", 5, &["First endnote text.".into()])
    ));
    let pages = lay(&body, &[("endnotes", "endnotes.xml", &notes)]);
    assert_eq!(pages.len(), 1);
    let page = &pages[0];
    let last = find(page, "The last body line.").expect("body");
    let first = find(page, "First endnote text.").expect("first endnote");
    let second = find(page, "Second endnote text.").expect("second endnote");
    // After the body, in the order of the references, not of the ids.
    assert!(first.1 > last.1 && second.1 > first.1, "{last:?} {first:?} {second:?}");
    // Marks count in lower-case roman numerals (§17.11.17's default for endnotes).
    assert!(texts(page).iter().any(|t| t.3 == "i" && (t.1 - first.1).abs() < 6.0));
    assert!(texts(page).iter().any(|t| t.3 == "ii" && (t.1 - second.1).abs() < 6.0));
    // A separator between the body and the notes.
    assert!(rules(page).iter().any(|r| r.2 > last.1 && r.2 < first.1));
}

#[test]
fn a_footnote_referenced_in_a_table_cell_goes_to_the_foot_of_its_page() {
    let cell = with_reference("Cell text", "footnote", 1);
    let body = format!(
        r#"<w:tbl><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{cell}</w:tc></w:tr></w:tbl>{}"#,
        line("After the table.")
    );
    let notes = footnotes(&note("footnote", 1, &["The note of the cell.".into()]));
    let pages = lay(&body, &[("footnotes", "footnotes.xml", &notes)]);
    assert_eq!(pages.len(), 1);
    let text = find(&pages[0], "The note of the cell.").expect("the note");
    assert!(text.1 > 690.0 && text.1 < 720.0, "{text:?}");
}
