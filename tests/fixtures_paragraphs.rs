//! Paragraph fixtures for justification (§17.18.44 `both`/`distribute`) and East Asian
//! line breaking (kinsoku, §17.3.1.16), each a DOCX built here and laid out, checked by
//! where its lines end.

mod common;

use common::docx::{docx, docx_with_rels};
use common::layout::{lay_out, near};
use docx2pdf::layout::summary::{PageSummary, TextPiece};

const SECT: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// The right margin of the Letter page with 1-inch margins.
const RIGHT: f64 = 540.0;

const TEXT: &str = "Justified text spreads the room left on each line over its spaces, so that both edges of the block are straight, except on the last line of the paragraph.";

fn aligned(jc: &str, runs: &str) -> String {
    format!(r#"<w:p><w:pPr><w:jc w:val="{jc}"/></w:pPr>{runs}</w:p>{SECT}"#)
}

fn text_run(text: &str) -> String {
    format!(r#"<w:r><w:t xml:space="preserve">{text}</w:t></w:r>"#)
}

fn body_lines(page: &PageSummary) -> Vec<&TextPiece> {
    page.text.iter().filter(|p| p.baseline < 720.0).collect()
}

#[test]
fn paragraph_both_stretches_every_line_but_the_last() {
    let pages = lay_out(&docx(&aligned("both", &text_run(TEXT))));
    let lines = body_lines(&pages[0]);
    assert!(lines.len() >= 2, "{lines:?}");
    for l in &lines[..lines.len() - 1] {
        assert!(near(l.ink_right, RIGHT, 0.05), "a full line reaches the margin: {l:?}");
    }
    let last = lines[lines.len() - 1];
    assert!(last.ink_right < RIGHT - 20.0, "the last line keeps its natural width: {last:?}");
}

#[test]
fn paragraph_distribute_stretches_the_last_line_too() {
    let pages = lay_out(&docx(&aligned("distribute", &text_run(TEXT))));
    let lines = body_lines(&pages[0]);
    assert!(lines.iter().all(|l| near(l.ink_right, RIGHT, 0.05)), "{lines:?}");
}

#[test]
fn paragraph_both_line_ended_by_a_break_stretches_unless_do_not_expand_shift_return() {
    let runs = format!(r#"{}<w:r><w:br/></w:r>{}"#, text_run("Short line ended by a break"), text_run("Last line"));
    let body = aligned("both", &runs);
    // Word stretches a justified line ended by Shift+Enter...
    let stretched = lay_out(&docx(&body));
    let first = stretched[0].find("Short line").expect("first line");
    assert!(near(first.ink_right, RIGHT, 0.05), "{first:?}");
    // ...unless the compatibility option says not to (notes §13).
    let settings = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:compat><w:doNotExpandShiftReturn/></w:compat></w:settings>"#;
    let plain = lay_out(&docx_with_rels(&body, &[("rIdS", "settings", "settings.xml", settings)]));
    let first = plain[0].find("Short line").expect("first line");
    assert!(first.ink_right < 300.0, "{first:?}");
}

/// Katakana of one em each, alternating カ and the small ッ, in a box 41 em wide (11 pt
/// Calibri falls back to a CJK face; 451 pt + 5 pt of slack).
fn katakana(settings: Option<&str>) -> Vec<PageSummary> {
    let text: String = "カッ".repeat(40);
    let body = format!(r#"<w:p><w:pPr><w:ind w:right="240"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>{SECT}"#);
    match settings {
        None => lay_out(&docx(&body)),
        Some(xml) => lay_out(&docx_with_rels(&body, &[("rIdS", "settings", "settings.xml", xml)])),
    }
}

#[test]
fn paragraph_kinsoku_lets_small_kana_start_a_line() {
    let pages = katakana(None);
    let lines = body_lines(&pages[0]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    // 41 characters fit, so the second line starts with the 42nd: a small ッ, which UAX #14
    // would keep from the start of a line but Word's standard kinsoku allows.
    assert_eq!(lines[0].text.chars().count(), 41, "{lines:?}");
    assert!(lines[1].text.starts_with('ッ'), "{lines:?}");
}

#[test]
fn paragraph_kinsoku_strict_keeps_small_kana_off_the_start_of_a_line() {
    let settings = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:strictFirstAndLastChars/></w:settings>"#;
    let pages = katakana(Some(settings));
    let lines = body_lines(&pages[0]);
    assert_eq!(lines[0].text.chars().count(), 40, "{lines:?}");
    assert!(lines[1].text.starts_with('カ'), "{lines:?}");
}

#[test]
fn paragraph_kinsoku_no_line_breaks_after_from_the_settings() {
    // The document forbids a break after カ: the line must end after a ッ.
    let settings = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:noLineBreaksAfter w:lang="ja-JP" w:val="カ"/></w:settings>"#;
    let pages = katakana(Some(settings));
    let lines = body_lines(&pages[0]);
    assert!(lines[0].text.ends_with('ッ'), "{lines:?}");
    assert!(lines[1].text.starts_with('カ'), "{lines:?}");
}

#[test]
fn paragraph_distribute_spaces_out_east_asian_characters() {
    // A short line of ideographs without spaces: `distribute` spreads its characters over
    // the whole width, the last one ending at the margin.
    let body =
        format!(r#"<w:p><w:pPr><w:jc w:val="distribute"/></w:pPr><w:r><w:t>日本語の文章</w:t></w:r></w:p>{SECT}"#);
    let pages = lay_out(&docx(&body));
    let lines = body_lines(&pages[0]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(near(lines[0].x, 72.0, 0.05), "{lines:?}");
    assert!(near(lines[0].ink_right, RIGHT, 0.05), "{lines:?}");
}
