//! Font fixtures: an Office font we have no face of (Aptos, the default of new Office
//! documents) is set with the advances and line height Word uses for it
//! (assets/office_metrics), checked where poppler reads the words in our PDF.

mod common;

use common::docx::docx;
use common::layout::near;
use common::pdf::{word_boxes, WordBox};
use docx2pdf::render::{convert, Deadline};

const SECT: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// Aptos regular advances in 1000 units/em, as Word embedded them in its PDFs
/// (`sverrejb_docxide_pdf_case18`, assets/office_metrics/office_metrics.txt). Liberation
/// Sans, which the layout draws Aptos with, has other ones (space 278, m 833, t 278).
const APTOS: &[(char, f64)] = &[
    (' ', 203.0), ('A', 589.0), ('p', 561.0), ('t', 323.0), ('o', 552.0), ('s', 486.0), ('l', 260.0),
    ('e', 527.0), ('r', 334.0), ('i', 239.0), ('n', 551.0), ('m', 853.0),
];

/// Aptos's single line: its typo box, (1923 + 577 + 0) / 2048 em, which Word uses because
/// the font sets USE_TYPO_METRICS (its win box is 2068 + 563; Liberation Sans's 2288).
const APTOS_LINE: f64 = 2500.0 / 2048.0;

fn aptos_width(text: &str, size: f64) -> f64 {
    let em: f64 = text.chars().map(|c| APTOS.iter().find(|(k, _)| *k == c).expect("a measured character").1).sum();
    em * size / 1000.0
}

/// Single-spaced paragraphs without space after, one per text, in a font and half-point size.
fn paragraphs(font: &str, half_points: u32, texts: &[&str]) -> Vec<WordBox> {
    let body: String = texts
        .iter()
        .map(|t| {
            format!(
                r#"<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}"/><w:sz w:val="{half_points}"/></w:rPr><w:t xml:space="preserve">{t}</w:t></w:r></w:p>"#
            )
        })
        .collect();
    let pdf = convert(&common::renderer(), &docx(&format!("{body}{SECT}")), &Deadline::none()).expect("conversion").pdf;
    word_boxes(&pdf)
}

#[test]
fn a_run_in_aptos_puts_each_word_where_the_aptos_advances_do() {
    let text = "Aptos sets lines in time";
    let words = paragraphs("Aptos", 24, &[text]);
    assert_eq!(words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>(), text.split(' ').collect::<Vec<_>>());
    let mut x = 72.0;
    for (word, found) in text.split(' ').zip(&words) {
        assert!(near(found.x_min, x, 0.05), "{word} starts at {} instead of {x}", found.x_min);
        let end = x + aptos_width(word, 12.0);
        assert!(near(found.x_max, end, 0.05), "{word} ends at {} instead of {end}", found.x_max);
        x = end + aptos_width(" ", 12.0);
    }
}

#[test]
fn aptos_lines_break_where_the_aptos_advances_fill_the_line() {
    // At 9 pt, 25 words of "mini" and their spaces fill 467.3 of the 468 pt line in Aptos;
    // in Liberation Sans's own advances only 24 would fit.
    let words = paragraphs("Aptos", 18, &[&["mini"; 40].join(" ")]);
    let fits = ((468.0 + aptos_width(" ", 9.0)) / (aptos_width("mini ", 9.0))).floor() as usize;
    assert_eq!(fits, 25);
    let first_line = words.iter().filter(|w| near(w.y_min, words[0].y_min, 0.5)).count();
    assert_eq!(first_line, fits, "{words:?}");
    assert!(near(words[1].x_min - words[0].x_min, aptos_width("mini ", 9.0), 0.05), "{words:?}");
}

#[test]
fn aptos_lines_are_as_tall_as_aptos_lines() {
    let words = paragraphs("Aptos", 22, &["Aptos", "Aptos", "Aptos"]);
    assert_eq!(words.len(), 3, "{words:?}");
    for pair in words.windows(2) {
        let pitch = pair[1].y_min - pair[0].y_min;
        assert!(near(pitch, 11.0 * APTOS_LINE, 0.05), "line pitch {pitch} instead of {}", 11.0 * APTOS_LINE);
    }
}

/// Cambria regular advances in 1000 units/em as Word embedded them in its PDFs (Word 2007
/// on Windows and Word for Mac agree). Caladea, its supposed metric clone, has others:
/// space 220 alike, but e 441, o 480, s 392, a 470.
const CAMBRIA: &[(char, f64)] = &[
    (' ', 220.0), ('C', 563.0), ('a', 488.0), ('m', 832.0), ('b', 547.0), ('r', 414.0), ('i', 278.0),
    ('s', 430.0), ('e', 488.0), ('t', 338.0), ('o', 531.0), ('x', 483.0),
];

#[test]
fn a_run_in_cambria_takes_word_s_cambria_advances_over_caladea_s() {
    let width = |t: &str| -> f64 {
        t.chars().map(|c| CAMBRIA.iter().find(|(k, _)| *k == c).expect("a measured character").1).sum::<f64>() * 11.0
            / 1000.0
    };
    let text = "Cambria sets some more text";
    let words = paragraphs("Cambria", 22, &[text]);
    let mut x = 72.0;
    for (word, found) in text.split(' ').zip(&words) {
        // Within Caladea's kerning of a pair or two; its own advances would put "text"
        // 6.3 pt further left.
        assert!(near(found.x_min, x, 0.3), "{word} starts at {} instead of {x}", found.x_min);
        x += width(word) + width(" ");
    }
}

/// The width poppler reads of "AVAVAV" in Times New Roman 12 pt under `rpr`.
fn avav_width(rpr: &str) -> f64 {
    let body = format!(
        r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="24"/>{rpr}</w:rPr><w:t>AVAVAV</w:t></w:r></w:p>{SECT}"#
    );
    let pdf = convert(&common::renderer(), &docx(&body), &Deadline::none()).expect("conversion").pdf;
    let words = word_boxes(&pdf);
    words[0].x_max - words[0].x_min
}

#[test]
fn text_is_kerned_only_from_the_size_its_w_kern_names() {
    // "A" and "V" advance 722 of 1000 each in Times New Roman (Liberation Serif alike):
    // six letters unkerned are 6 × 8.664 pt. Word sets them so without `w:kern`, and
    // with a `w:kern` above the text's size; from that size on it applies the font's
    // kerning, which pulls each of the five pairs together.
    let plain = 6.0 * 722.0 * 12.0 / 1000.0;
    assert!(near(avav_width(""), plain, 0.05), "{}", avav_width(""));
    assert!(near(avav_width(r#"<w:kern w:val="28"/>"#), plain, 0.05));
    let kerned = avav_width(r#"<w:kern w:val="2"/>"#);
    assert!(kerned < plain - 3.0, "kerned {kerned} against {plain}");
}

#[test]
fn cambria_lines_are_as_tall_as_word_s_cambria_lines() {
    // Cambria's line is 1946 + 455 of 2048 em (Caladea's own would be 1.3 em); Word for Mac
    // sets 11 pt lines at 1.15 alternately 14.75 and 15.0 pt apart, 14.83 on average.
    let body: String = (0..3)
        .map(|_| r#"<w:p><w:pPr><w:spacing w:after="0" w:line="276" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:rFonts w:ascii="Cambria" w:hAnsi="Cambria"/><w:sz w:val="22"/></w:rPr><w:t>Cambria</w:t></w:r></w:p>"#)
        .collect();
    let pdf = convert(&common::renderer(), &docx(&format!("{body}{SECT}")), &Deadline::none()).expect("conversion").pdf;
    let words = word_boxes(&pdf);
    assert_eq!(words.len(), 3, "{words:?}");
    let line = 11.0 * 2401.0 / 2048.0 * 1.15;
    for pair in words.windows(2) {
        let pitch = pair[1].y_min - pair[0].y_min;
        assert!(near(pitch, line, 0.01), "line pitch {pitch} instead of {line}");
    }
}

/// Arial Black, which no free face matches, as Word embedded it in its PDF of
/// Amanult_quatro-em-linha_Relatorio (corpus/word): advances in 1000 units/em and a line of
/// (2254 + 634) / 2048 em.
const ARIAL_BLACK: &[(char, f64)] = &[
    (' ', 333.0), ('I', 389.0), ('C', 778.0), ('n', 667.0), ('s', 611.0), ('t', 444.0), ('i', 333.0),
    ('u', 667.0), ('o', 667.0), ('d', 667.0), ('e', 667.0), ('m', 1000.0), ('b', 667.0), ('r', 444.0),
    ('a', 667.0),
];

#[test]
fn arial_black_takes_word_s_advances_and_line_height() {
    let width = |t: &str| -> f64 {
        t.chars().map(|c| ARIAL_BLACK.iter().find(|(k, _)| *k == c).expect("a measured character").1).sum::<f64>()
            * 12.0
            / 1000.0
    };
    let text = "Instituto de Coimbra";
    let words = paragraphs("Arial Black", 24, &[text, text]);
    assert_eq!(words.len(), 6, "{words:?}");
    let mut x = 72.0;
    for (word, found) in text.split(' ').zip(&words) {
        assert!(near(found.x_min, x, 0.05), "{word} starts at {} instead of {x}", found.x_min);
        x += width(word) + width(" ");
    }
    let line = 12.0 * (2254.0 + 634.0) / 2048.0;
    let pitch = words[3].y_min - words[0].y_min;
    assert!(near(pitch, line, 0.01), "line pitch {pitch} instead of {line}");
}

#[test]
fn fonts_word_had_and_we_do_not_set_lines_as_tall_as_their_own() {
    // Word measures a line with the font's own win ascent and descent, whatever face draws
    // it: Open Sans (2189 + 600 of 2048 em, embedded in Word's PDF of
    // aspose_words_Aspose_Words_for_NET_images) stands 21.8 pt apart at 16 pt, where a
    // substitute's own line would be 18.4; B Nazanin (1990 + 1045, HosseinGholami1995_ID3_gozaresh,
    // whose 11 pt lines stand 17.6 pt apart at 1.08 lines) 16.3 pt at 11 pt, Constantia
    // (1950 + 550 plus hhea's gap beyond them, dries007_Project2_Verslag) 1.22 em.
    for (font, half_points, line) in [
        ("Open Sans", 32, 16.0 * (2189.0 + 600.0) / 2048.0),
        ("B Nazanin", 22, 11.0 * (1990.0 + 1045.0) / 2048.0),
        ("Constantia", 24, 12.0 * (1950.0 + 550.0) / 2048.0),
    ] {
        let words = paragraphs(font, half_points, &["Lines", "Lines"]);
        assert_eq!(words.len(), 2, "{font}: {words:?}");
        let pitch = words[1].y_min - words[0].y_min;
        assert!(near(pitch, line, 0.01), "{font}: line pitch {pitch} instead of {line}");
    }
}

/// A family whose every face is heavy is drawn with the substitute's bold face, its regular
/// one looking light beside Word's (Amanult_quatro-em-linha_Relatorio's cover).
#[test]
fn arial_black_is_drawn_with_a_bold_face() {
    let body = r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="Arial Black" w:hAnsi="Arial Black"/></w:rPr><w:t>Coimbra</w:t></w:r></w:p>"#;
    let pdf = convert(&common::renderer(), &docx(&format!("{body}{SECT}")), &Deadline::none()).expect("conversion").pdf;
    let fonts = common::pdf::fonts(&pdf);
    assert!(fonts.contains("LiberationSans-Bold"), "{fonts}");
}

/// The families the fixtures' positions were measured with (README, "Fonts"), each with the
/// Debian package that brings it.
const MEASURED_WITH: &[(&str, &str)] = &[
    ("Carlito", "fonts-crosextra-carlito"),
    ("Caladea", "fonts-crosextra-caladea"),
    ("Liberation Sans", "fonts-liberation2"),
    ("Liberation Serif", "fonts-liberation2"),
    ("Liberation Mono", "fonts-liberation2"),
    ("DejaVu Sans", "fonts-dejavu-core"),
    ("Noto Sans", "fonts-noto-core"),
    ("Noto Sans CJK JP", "fonts-noto-cjk"),
    ("Tahoma", "fonts-wine"),
];

#[test]
fn the_fonts_the_fixtures_were_measured_with_are_installed() {
    // Without them the renderer falls back to other faces and many position checks fail
    // without saying why; this one names what is missing (a failure under CI=true).
    let mut db = fontdb::Database::new();
    db.load_system_fonts();
    // fonts-wine installs outside the font folders; the renderer looks there too.
    let _ = db.load_font_file("/usr/share/wine/fonts/tahoma.ttf");
    let missing: Vec<String> = MEASURED_WITH
        .iter()
        .filter(|(family, _)| !db.faces().any(|face| face.families.iter().any(|(name, _)| name == family)))
        .map(|(family, package)| format!("{family} ({package})"))
        .collect();
    if !missing.is_empty() {
        common::skip::skip(&format!("fonts not installed: {}", missing.join(", ")));
    }
}
