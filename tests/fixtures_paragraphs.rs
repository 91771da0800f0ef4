//! Paragraph fixtures for justification (§17.18.44 `both`/`distribute`, and Word 2013's
//! shrinking of the spaces of a justified line), line height next to the paragraph mark,
//! font-table substitution of CSS names, and East Asian line breaking (kinsoku,
//! §17.3.1.16), each a DOCX built here and laid out, checked by where its lines end.

mod common;

use common::docx::{docx, docx_with_rels, docx_without_styles};
use common::layout::{lay_out, near};
use docx2pdf::layout::frame::{Item, Rgb};
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

/// Settings that declare Word 2013+ layout (`compatibilityMode` 15).
const MODE_15: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>"#;

const SHORT: &str = "Word keeps the last word of a justified line when its spaces can give way a little";

/// The pages of `SHORT` in a paragraph `jc` whose box is 1 pt narrower than the text,
/// with or without Word 2013+ layout, and the box's right edge.
fn one_point_too_narrow(jc: &str, mode_15: bool) -> (Vec<PageSummary>, f64) {
    let natural = lay_out(&docx(&aligned("left", &text_run(SHORT))));
    let line = body_lines(&natural[0]);
    assert_eq!(line.len(), 1, "the text fits a full line: {line:?}");
    let width = line[0].ink_right - 72.0;
    let indent = ((RIGHT - 72.0 - (width - 1.0)) * 20.0).round();
    let body = format!(r#"<w:p><w:pPr><w:ind w:right="{indent}"/><w:jc w:val="{jc}"/></w:pPr>{}</w:p>{SECT}"#, text_run(SHORT));
    let pages = if mode_15 {
        lay_out(&docx_with_rels(&body, &[("rIdS", "settings", "settings.xml", MODE_15)]))
    } else {
        lay_out(&docx(&body))
    };
    (pages, RIGHT - indent / 20.0)
}

#[test]
fn paragraph_both_in_word_2013_layout_shrinks_spaces_to_keep_the_last_word() {
    let (pages, edge) = one_point_too_narrow("both", true);
    let lines = body_lines(&pages[0]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(near(lines[0].ink_right, edge, 0.05), "pulled back to the indent at {edge}: {lines:?}");
}

#[test]
fn paragraph_spaces_do_not_shrink_in_legacy_layout_or_unjustified_lines() {
    for (jc, mode_15) in [("both", false), ("left", true)] {
        let (pages, _) = one_point_too_narrow(jc, mode_15);
        let lines = body_lines(&pages[0]);
        assert_eq!(lines.len(), 2, "{jc}, mode 15 {mode_15}: {lines:?}");
    }
}

/// The baseline of the paragraph after one of 10 pt text whose mark is `mark` half-points,
/// and after an empty paragraph with that mark.
fn after_marks_of(mark: u32) -> (f64, f64) {
    let p = |text: &str| {
        format!(r#"<w:p><w:pPr><w:spacing w:after="0"/><w:rPr><w:sz w:val="{mark}"/></w:rPr></w:pPr><w:r><w:rPr><w:sz w:val="20"/></w:rPr><w:t>{text}</w:t></w:r></w:p>"#)
    };
    let next = r#"<w:p><w:r><w:t>Next</w:t></w:r></w:p>"#;
    let with_text = lay_out(&docx(&format!("{}{next}{SECT}", p("Small text over the mark"))));
    let empty = lay_out(&docx(&format!("{}{next}{SECT}", p(""))));
    let baseline = |pages: &[PageSummary]| pages[0].find("Next").expect("next paragraph").baseline;
    (baseline(&with_text), baseline(&empty))
}

/// The baseline of text after a line holding only an 8 pt `w:br`, under a mark of `mark`
/// half-points.
fn after_a_break_line_under(mark: u32) -> f64 {
    let body = format!(
        r#"<w:p><w:pPr><w:rPr><w:sz w:val="{mark}"/></w:rPr></w:pPr><w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:br/></w:r><w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:t>After the break</w:t></w:r></w:p>{SECT}"#
    );
    lay_out(&docx(&body))[0].find("After the break").expect("the text").baseline
}

#[test]
fn paragraph_line_of_only_a_break_is_as_tall_as_the_break_run() {
    let (small, large) = (after_a_break_line_under(16), after_a_break_line_under(48));
    assert!(near(small, large, 0.01), "the mark does not size the break's line: {small} vs {large}");
}

#[test]
fn paragraph_mark_sizes_only_a_line_without_text() {
    let (text_small, empty_small) = after_marks_of(20);
    let (text_large, empty_large) = after_marks_of(48);
    assert!(near(text_large, text_small, 0.01), "a line of text keeps its own height: {text_small} vs {text_large}");
    assert!(empty_large > empty_small + 10.0, "an empty paragraph is as tall as its mark: {empty_small} vs {empty_large}");
}

#[test]
fn paragraph_of_nothing_but_spaces_is_as_tall_as_its_mark() {
    // A paragraph holding one 18 pt space under an 11 pt mark stands as an empty 11 pt
    // paragraph does: Word sizes a line of spaces by the paragraph mark
    // (Abhinaygoud07_elecricity_bill_payment_final_report, corpus/word: the heading after
    // such a Century 18 pt paragraph 8.6 pt higher than with the space's height;
    // AndreiBGheorghe_AutoCAD_Documentatie, 48 pages as Word's, not 49).
    let next = r#"<w:p><w:r><w:t>Next</w:t></w:r></w:p>"#;
    let baseline = |runs: &str| {
        let body = format!(r#"<w:p><w:pPr><w:spacing w:after="0"/></w:pPr>{runs}</w:p>{next}{SECT}"#);
        lay_out(&docx(&body))[0].find("Next").expect("next paragraph").baseline
    };
    let spaces = baseline(r#"<w:r><w:rPr><w:sz w:val="36"/></w:rPr><w:t xml:space="preserve">  </w:t></w:r>"#);
    let empty = baseline("");
    let text = baseline(r#"<w:r><w:rPr><w:sz w:val="36"/></w:rPr><w:t xml:space="preserve">Text </w:t></w:r>"#);
    assert!(near(spaces, empty, 0.01), "{spaces} vs {empty}");
    assert!(text > empty + 5.0, "a line with text keeps its text's height: {text} vs {empty}");
}

/// The pitch of two 12 pt lines in Constantia, declared in the font table with the
/// alternative Courier New and the entry's own extra elements `more`.
fn constantia_pitch(more: &str) -> f64 {
    let table = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:font w:name="Constantia"><w:altName w:val="Courier New"/>{more}<w:charset w:val="00"/><w:family w:val="roman"/><w:pitch w:val="variable"/></w:font></w:fonts>"#
    );
    let line = r#"<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:rFonts w:ascii="Constantia" w:hAnsi="Constantia"/><w:sz w:val="24"/></w:rPr><w:t>Line</w:t></w:r></w:p>"#;
    let body = format!("{line}{line}{SECT}");
    let pages = lay_out(&docx_with_rels(&body, &[("rIdF", "fontTable", "fontTable.xml", &table)]));
    let lines = body_lines(&pages[0]);
    lines[1].baseline - lines[0].baseline
}

#[test]
fn a_font_the_saving_machine_had_keeps_its_own_metrics_before_its_alternative() {
    // With its PANOSE in the font table the saving machine had the font, and Word sets it
    // with its own metrics (dries007_Project2_Verslag, corpus/word: Anonymous Pro, altName
    // Courier New, 1.0 em lines): Constantia's line, 1950 + 550 of 2048 em. Without it, the
    // alternative's (PedroAlmeidacode_SGP_WebService_sdd: Open Sans set as Segoe UI):
    // Courier New's, Liberation Mono's 1705 + 615.
    let own = constantia_pitch(r#"<w:panose1 w:val="02030602050306030303"/>"#);
    let alternative = constantia_pitch("");
    assert!(near(own, 12.0 * 2500.0 / 2048.0, 0.01), "{own}");
    assert!(near(alternative, 12.0 * 2320.0 / 2048.0, 0.01), "{alternative}");
}

/// The width of "Generic name" set in `font`, with a font table declaring "sans-serif" as
/// Word's HTML import writes it.
fn width_in(font: &str) -> f64 {
    let table = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:font w:name="sans-serif"><w:altName w:val="Times New Roman"/><w:panose1 w:val="00000000000000000000"/><w:charset w:val="00"/><w:family w:val="roman"/><w:notTrueType/><w:pitch w:val="default"/></w:font></w:fonts>"#;
    let body = format!(r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}"/></w:rPr><w:t>Generic name</w:t></w:r></w:p>{SECT}"#);
    let pages = lay_out(&docx_with_rels(&body, &[("rIdF", "fontTable", "fontTable.xml", table)]));
    let piece = pages[0].find("Generic name").expect("the text");
    piece.right - piece.x
}

#[test]
fn a_css_generic_font_name_follows_the_alt_name_of_the_font_table() {
    let generic = width_in("sans-serif");
    assert!(near(generic, width_in("Times New Roman"), 0.01), "{generic}");
    assert!(!near(generic, width_in("Arial"), 1.0), "{generic}");
}

#[test]
fn paragraph_breaks_after_a_space_between_a_closing_quote_and_an_opening_bracket() {
    // UAX #14 keeps `"quoted" (bracketed)` together (LB15); Word ends the line at the space
    // (the isaqb examination rules: `"eingetragener Verein" ` ends a line, `(asociación`
    // starts the next).
    const HEAD: &str = r#"Some words "quoted" "#;
    let natural = lay_out(&docx(&aligned("left", &text_run(HEAD))));
    let width = body_lines(&natural[0])[0].right - 72.0;
    // A box 20 pt wider than the head: "(bracketed)" cannot follow it on the line.
    let indent = ((RIGHT - 72.0 - (width + 20.0)) * 20.0).round();
    let body = format!(
        r#"<w:p><w:pPr><w:ind w:right="{indent}"/></w:pPr>{}</w:p>{SECT}"#,
        text_run(r#"Some words "quoted" (bracketed) and more"#)
    );
    let pages = lay_out(&docx(&body));
    let lines = body_lines(&pages[0]);
    assert!(lines[0].text.trim_end().ends_with(r#""quoted""#), "{lines:?}");
    assert!(lines[1].text.starts_with("(bracketed)"), "{lines:?}");
}

/// A Korean paragraph of one six-syllable word repeated, under `ppr`, as the lines it
/// breaks into, in a box 50 pt narrower than the text width so that no line ends with a
/// word by chance: the package defines a default paragraph style, or (`styled` false) has
/// no styles part at all.
fn korean_lines(ppr: &str, styled: bool) -> Vec<TextPiece> {
    let text = ["대한민국만세"; 24].join(" ");
    let body = format!(r#"<w:p><w:pPr><w:ind w:right="1000"/>{ppr}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>{SECT}"#);
    let pages = if styled { lay_out(&docx(&body)) } else { lay_out(&docx_without_styles(&body)) };
    body_lines(&pages[0]).into_iter().cloned().collect()
}

/// Whether every line holds whole words only.
fn whole_words(lines: &[TextPiece]) -> bool {
    lines.iter().all(|l| l.text.split_whitespace().all(|w| w == "대한민국만세"))
}

#[test]
fn paragraph_korean_in_a_defined_style_breaks_between_words() {
    // Word keeps each Korean word whole, as it does Latin ones (OI29500 2.1.67), in a
    // paragraph whose style the document defines, leaving the rest of the line empty.
    let lines = korean_lines("", true);
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(whole_words(&lines), "{lines:?}");
    assert!(lines[0].ink_right < RIGHT - 50.0 - 11.0, "room for a syllable is left: {:?}", lines[0]);
}

#[test]
fn paragraph_korean_breaks_between_syllables_with_word_wrap_off_or_no_style() {
    for (ppr, styled) in [(r#"<w:wordWrap w:val="0"/>"#, true), ("", false)] {
        let lines = korean_lines(ppr, styled);
        assert!(!whole_words(&lines), "{ppr}, styled {styled}: {lines:?}");
        let first = &lines[0];
        assert!(first.ink_right > RIGHT - 50.0 - first.size * 1.05, "the line is full to a syllable: {first:?}");
    }
}

#[test]
fn paragraph_korean_word_wrap_on_keeps_words_whole_without_styles() {
    let lines = korean_lines(r#"<w:wordWrap/>"#, false);
    assert!(whole_words(&lines), "{lines:?}");
}

#[test]
fn paragraph_without_a_styles_part_takes_words_built_in_defaults() {
    // No styles part (nor docDefaults): Times New Roman 10 pt, single spacing, nothing
    // after (notes §1; dolanmiu/docx #724), on a Letter page with 1-inch margins.
    let body = "<w:p><w:r><w:t>First line</w:t></w:r></w:p><w:p><w:r><w:t>Second line</w:t></w:r></w:p>";
    let pages = lay_out(&docx_without_styles(body));
    let (first, second) = (pages[0].find("First").expect("first"), pages[0].find("Second").expect("second"));
    assert!(near(first.size, 10.0, 0.001), "{first:?}");
    assert!(near(first.x, 72.0, 0.01), "{first:?}");
    // Times New Roman's win ascent is 0.891 em under 0.042 em of external leading, its
    // single line 1.149 em.
    assert!(near(first.baseline, 72.0 + 9.33, 0.05), "{first:?}");
    assert!(near(second.baseline - first.baseline, 11.49, 0.05), "{first:?} {second:?}");
}

/// The right edge of "2026년 8월 A반" (two digit and one letter boundaries with Hangul)
/// under `ppr`, in a package with a default paragraph style or (`styled` false) none.
fn mixed_width(ppr: &str, styled: bool) -> f64 {
    let body = format!(r#"<w:p><w:pPr>{ppr}</w:pPr><w:r><w:t>2026년 8월 A반</w:t></w:r></w:p>{SECT}"#);
    let pages = if styled { lay_out(&docx(&body)) } else { lay_out(&docx_without_styles(&body)) };
    pages[0].find("2026").expect("the line").ink_right
}

#[test]
fn paragraph_east_asian_text_is_spaced_a_quarter_em_from_latin_letters_and_digits() {
    // Word adds a quarter em where Hangul meets a digit (`w:autoSpaceDN`) or a Latin letter
    // (`w:autoSpaceDE`), both on in a paragraph of a document-defined style.
    let spaced = mixed_width("", true);
    let digits_off = mixed_width(r#"<w:autoSpaceDN w:val="0"/>"#, true);
    let both_off = mixed_width(r#"<w:autoSpaceDN w:val="0"/><w:autoSpaceDE w:val="0"/>"#, true);
    assert!(near(spaced - digits_off, 2.0 * 11.0 * 0.25, 0.01), "{spaced} vs {digits_off}");
    assert!(near(digits_off - both_off, 11.0 * 0.25, 0.01), "{digits_off} vs {both_off}");
    // A bare paragraph (no styles at all) sets them flush unless it asks for the space.
    let bare = mixed_width("", false);
    let asked = mixed_width("<w:autoSpaceDE/><w:autoSpaceDN/>", false);
    assert!(near(asked - bare, 3.0 * 10.0 * 0.25, 0.01), "{asked} vs {bare}");
}

/// A tab is blank and does not size its line: Word sets the TOC entries of
/// AndresMunozB_Paradigmas-Scheme_Informe (corpus/word), Times New Roman text whose tabs are
/// Calibri runs, as tall as Times New Roman lines.
#[test]
fn a_tab_in_a_larger_font_leaves_the_line_height_to_the_text() {
    let tnr = r#"<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="22"/></w:rPr>"#;
    let big_tab = r#"<w:r><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="48"/></w:rPr><w:tab/></w:r>"#;
    let para = |tab: &str, text: &str| {
        format!(r#"<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>{tnr}</w:pPr><w:r>{tnr}<w:t>{text}</w:t></w:r>{tab}<w:r>{tnr}<w:t>end</w:t></w:r></w:p>"#)
    };
    let body = format!("{}{}{}{}{SECT}", para("", "one"), para("", "two"), para(big_tab, "three"), para("", "four"));
    let pages = lay_out(&docx(&body));
    let y = |t: &str| pages[0].find(t).unwrap_or_else(|| panic!("{t}")).baseline;
    let plain = y("two") - y("one");
    // Times New Roman 11 pt: (1825 + 443 + 87) / 2048 em.
    assert!(near(plain, 11.0 * 2355.0 / 2048.0, 0.02), "{plain}");
    assert!(near(y("three") - y("two"), plain, 0.01), "the tab's 24 pt do not raise the line");
    assert!(near(y("four") - y("three"), plain, 0.01), "nor deepen it");
}

/// A URL moves to the next line whole (no break after a solidus, unlike UAX #14); one longer
/// than the line breaks after its last solidus that fits, not by character.
#[test]
fn a_url_moves_whole_and_breaks_after_a_solidus_only_when_longer_than_the_line() {
    let run = |text: &str| format!(r#"<w:r><w:rPr><w:sz w:val="40"/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>"#);
    let url = "https://example.org/docs/page";
    let body = format!(r#"<w:p>{}</w:p>{SECT}"#, run(&format!("Read the full and complete manual at {url} today")));
    let pages = lay_out(&docx(&body));
    let lines = body_lines(&pages[0]);
    assert!(lines.len() == 2 && lines[1].text.trim() == format!("{url} today"), "{:?}", lines.iter().map(|l| &l.text).collect::<Vec<_>>());

    let long = "https://example.org/averyveryverylongsegment/anotherverylongsegment/end";
    let body = format!(r#"<w:p>{}</w:p>{SECT}"#, run(long));
    let pages = lay_out(&docx(&body));
    let lines = body_lines(&pages[0]);
    assert!(lines.len() > 1 && lines[0].text.trim_end().ends_with('/'), "{:?}", lines.iter().map(|l| &l.text).collect::<Vec<_>>());
}

/// Baselines of the lines `宋一`, `宋二`… set in 宋体 (font table: altName SimSun, GB2312
/// charset) at `half_points` with line spacing `line` (240ths) on a 15.6 pt line grid, in
/// the body or, with `in_table`, in a cell; `adjust` writes `adjustLineHeightInTable` into
/// the settings.
fn simsun_grid_lines(in_table: bool, adjust: bool, half_points: u32, line: u32) -> Vec<f64> {
    let table = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:font w:name="宋体"><w:altName w:val="SimSun"/><w:charset w:val="86"/><w:family w:val="auto"/><w:pitch w:val="variable"/></w:font></w:fonts>"#;
    let compat = if adjust { "<w:compat><w:adjustLineHeightInTable/></w:compat>" } else { "" };
    let settings = format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">{compat}</w:settings>"#);
    let lines: String = ["宋一", "宋二", "宋三"]
        .iter()
        .map(|t| format!(r#"<w:p><w:pPr><w:spacing w:after="0" w:line="{line}" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:rFonts w:eastAsia="宋体"/><w:sz w:val="{half_points}"/></w:rPr><w:t>{t}</w:t></w:r></w:p>"#))
        .collect();
    let content = if in_table {
        format!(r#"<w:tbl><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{lines}</w:tc></w:tr></w:tbl><w:p/>"#)
    } else {
        lines
    };
    let sect = r#"<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="851" w:footer="992" w:gutter="0"/><w:docGrid w:type="lines" w:linePitch="312"/></w:sectPr>"#;
    let body = format!("{content}{sect}");
    let pages = lay_out(&docx_with_rels(&body, &[("rIdF", "fontTable", "fontTable.xml", table), ("rIdS", "settings", "settings.xml", &settings)]));
    ["宋一", "宋二", "宋三"].iter().map(|t| pages[0].find(t).unwrap_or_else(|| panic!("{t}")).baseline).collect()
}

/// 宋体 with altName SimSun is set with SimSun's line as Word sets East Asian fonts: 1.3
/// times its 1 em glyph box, 14.3 pt at 11 pt, one 15.6 pt grid line each, as in Word's PDF
/// of Levier-ack_Object-Oriented_baogao; a CJK substitute's own 1.448 em would take two.
/// In a table cell the lines snap to the grid only under `adjustLineHeightInTable`
/// (§17.15.3.1); without it they stand 1.3 em apart, as Word's 10.5 pt SimSun lines in the
/// cells of 16261909_Backup_Tools_ stand 13.65 pt apart.
#[test]
fn simsun_by_its_alt_name_takes_one_grid_line_and_cells_snap_only_when_settings_say() {
    let body = simsun_grid_lines(false, false, 22, 240);
    assert!(near(body[1] - body[0], 15.6, 0.01) && near(body[2] - body[1], 15.6, 0.01), "{body:?}");
    let snapped = simsun_grid_lines(true, true, 22, 240);
    assert!(near(snapped[1] - snapped[0], 15.6, 0.01), "{snapped:?}");
    let natural = simsun_grid_lines(true, false, 21, 240);
    assert!(near(natural[1] - natural[0], 13.65, 0.01), "{natural:?}");
}

/// An East Asian line is 1.3 em, so 26 pt SimSun (33.8 pt) takes three 15.6 pt grid lines,
/// as Word's 26 pt KaiTi title lines of 16261909_Backup_Tools_ stand 46.8 pt apart; 12 pt
/// (15.6 pt) still takes one. A multiple of the line counts in pitches and keeps the grid
/// lines the text takes where they are more: 1.5 lines of 10.5 pt are 23.4 pt, and 1.73
/// lines of 14 pt (18.2 pt of text, two grid lines) are 31.2 pt, not 27.0 or 54.1, as
/// Word's 12 pt DengXian headings in Levier-ack_Object-Oriented_baogao.
#[test]
fn east_asian_lines_are_1_3_em_and_a_grid_multiple_keeps_the_grid_lines_the_text_takes() {
    let title = simsun_grid_lines(false, false, 52, 240);
    assert!(near(title[1] - title[0], 46.8, 0.01), "{title:?}");
    let small = simsun_grid_lines(false, false, 24, 240);
    assert!(near(small[1] - small[0], 15.6, 0.01), "{small:?}");
    let half = simsun_grid_lines(false, false, 21, 360);
    assert!(near(half[1] - half[0], 23.4, 0.01), "{half:?}");
    let heading = simsun_grid_lines(false, false, 28, 416);
    assert!(near(heading[1] - heading[0], 31.2, 0.01), "{heading:?}");
}

/// A run border (`w:bdr`, §17.3.2.4) is drawn around the run's text and makes its line
/// taller by the border's width and space above and below, as Word sets
/// BIGheadED_Senior-Portfolio-2019_Cover_Letter (corpus/word): a 6 pt border moves the
/// line 6 pt down and the next one 6 pt further.
#[test]
fn a_run_border_frames_the_text_and_adds_its_width_above_and_below_the_line() {
    let para = |text: &str, bdr: &str| {
        format!(r#"<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:rPr>{bdr}<w:sz w:val="24"/></w:rPr><w:t>{text}</w:t></w:r></w:p>"#)
    };
    let bdr = r#"<w:bdr w:val="single" w:sz="48" w:space="0" w:color="FF0000"/>"#;
    let plain = lay_out(&docx(&format!("{}{}{}{SECT}", para("alpha", ""), para("beta", ""), para("gamma", ""))));
    let framed = lay_out(&docx(&format!("{}{}{}{SECT}", para("alpha", ""), para("beta", bdr), para("gamma", ""))));
    let y = |pages: &[PageSummary], t: &str| pages[0].find(t).unwrap_or_else(|| panic!("{t}")).baseline;
    assert!(near(y(&framed, "beta") - y(&plain, "beta"), 6.0, 0.01), "the bordered line drops by the border");
    assert!(near(y(&framed, "gamma") - y(&plain, "gamma"), 12.0, 0.01), "and the next line by its room below too");
    let bytes = docx(&format!("{}{}{}{SECT}", para("alpha", ""), para("beta", bdr), para("gamma", "")));
    let page = &common::layout::pages(&bytes)[0];
    let frames: Vec<(f64, f64, f64, f64, f64)> = page
        .items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Rect(r) if r.stroke.is_some_and(|(c, _)| c == Rgb(255, 0, 0)) => {
                Some((p.pos.x.0, p.pos.y.0, r.size.width.0, r.size.height.0, r.stroke.unwrap().1 .0))
            }
            _ => None,
        })
        .collect();
    assert_eq!(frames.len(), 1, "one red frame around the run: {frames:?}");
    let (x, top, w, h, thickness) = frames[0];
    let beta = framed[0].find("beta").unwrap();
    assert!(near(thickness, 6.0, 0.01));
    assert!(x <= beta.x && x + w >= beta.right && top < beta.baseline - 6.0 && top + h > beta.baseline, "{:?} around {beta:?}", frames[0]);
}

/// Word's blank-document styles with its List Paragraph (8 pt after from the defaults,
/// contextual spacing).
fn list_paragraph_styles() -> String {
    common::docx::WORD_STYLES.replace(
        "</w:styles>",
        r#"<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/><w:contextualSpacing/></w:pPr></w:style></w:styles>"#,
    )
}

/// The baseline of "Cell" in a one-cell table after a List Paragraph item, the cell's
/// paragraph in style `cell_style`.
fn cell_after_list_item(cell_style: &str) -> f64 {
    let item = r#"<w:p><w:pPr><w:pStyle w:val="ListParagraph"/></w:pPr><w:r><w:t>Item</w:t></w:r></w:p>"#;
    let table = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="5000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="5000" w:type="dxa"/></w:tcPr><w:p><w:pPr><w:pStyle w:val="{cell_style}"/></w:pPr><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#
    );
    let body = format!("{item}{table}<w:p/>{SECT}");
    let bytes = common::docx::docx_styled_with_files(&body, &list_paragraph_styles(), &[], &[]);
    lay_out(&bytes)[0].find("Cell").expect("the cell's text").baseline
}

#[test]
fn contextual_spacing_reaches_into_the_first_cell_of_a_table() {
    // §17.3.1.9: a List Paragraph item just before a table whose first cell begins with a
    // List Paragraph keeps no space after (Word's PDF of a held-out document: no gap between
    // the two items); before a Normal paragraph in the cell it keeps its 8 pt.
    let same = cell_after_list_item("ListParagraph");
    let other = cell_after_list_item("Normal");
    assert!(near(other - same, 8.0, 0.01), "{same} vs {other}");
}

#[test]
fn paragraph_mirrored_indents_trade_places_on_even_pages() {
    // §17.3.1.18, as Word sets DavidZimen_POT_semestralka_Dokumentacia (corpus/word): on
    // an even page the paragraph's box, its hanging first line included, moves to the
    // other side. A 12 pt left indent stands at the margin; 36 pt with 18 hanging puts the
    // first line at the margin and the others 18 pt in. Odd pages keep the indents.
    let p = |ind: &str, text: &str| {
        format!(r#"<w:p><w:pPr><w:mirrorIndents/><w:ind {ind}/></w:pPr><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
    };
    let long = "Hanging words run on to a second line that starts at the left indent, well past the hanging first line of it.";
    let page = format!("{}{}", p(r#"w:left="240""#, "Twelve"), p(r#"w:left="720" w:hanging="360""#, long));
    let body = format!(r#"{page}<w:p><w:r><w:br w:type="page"/></w:r></w:p>{page}{SECT}"#);
    let pages = lay_out(&docx(&body));
    assert_eq!(pages.len(), 2, "{pages:?}");
    let x = |page: usize, text: &str| pages[page].find(text).expect(text).x;
    let second_line = |page: usize| body_lines(&pages[page])[2].x;
    assert!(near(x(0, "Twelve"), 84.0, 0.01) && near(x(0, "Hanging"), 90.0, 0.01) && near(second_line(0), 108.0, 0.01));
    assert!(near(x(1, "Twelve"), 72.0, 0.01), "{:?}", pages[1]);
    assert!(near(x(1, "Hanging"), 72.0, 0.01) && near(second_line(1), 90.0, 0.01), "{:?}", pages[1]);
}
