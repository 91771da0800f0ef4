//! One document's fonts over the shared book: embedded faces, the font table's hints, its East Asian language.

use std::collections::HashMap;
use std::sync::Arc;

use rustybuzz::ttf_parser;

use crate::layout::east_asian::{cjk_family, CjkLang};
use crate::layout::fonts::{generic_kind, FamilyMatch, FontBook, Generic, LoadedFace};
use crate::docx::model::{Document, EmbeddedFontStyle, FontDecl, FontFamily, FontPitch};

/// What one document brings to font resolution. The shared `FontBook` is never changed:
/// embedded faces live here, parsed once when the document's layout starts, and go away
/// with it (§17.8.1: an embedded font belongs to its document).
#[derive(Debug, Default)]
pub(crate) struct DocumentFonts {
    /// Lower-case family name → the faces embedded for it, by style.
    embedded: HashMap<String, Vec<(EmbeddedFontStyle, Arc<LoadedFace>)>>,
    /// Lower-case `w:name` → the font table entry.
    decls: HashMap<String, FontDecl>,
    /// The document's East Asian language (`w:lang@w:eastAsia` of the defaults, else
    /// `w:themeFontLang`), for CJK glyphs no named font has.
    pub east_asia: Option<CjkLang>,
}

impl DocumentFonts {
    /// Reads the font table and parses the embedded faces of `doc`.
    pub fn new(doc: &Document) -> DocumentFonts {
        let mut fonts = DocumentFonts::default();
        for decl in &doc.fonts {
            let key = decl.name.trim().to_lowercase();
            for e in &decl.embedded {
                let data: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(e.data.clone());
                let ps = postscript_name(&e.data).unwrap_or_else(|| decl.name.replace(' ', ""));
                if let Some(face) = LoadedFace::from_data(data, 0, decl.name.clone(), ps) {
                    fonts.embedded.entry(key.clone()).or_default().push((e.style, Arc::new(face)));
                }
            }
            // Slim entries: the embedded bytes are kept by the faces above.
            fonts.decls.entry(key).or_insert_with(|| FontDecl { embedded: Vec::new(), ..decl.clone() });
        }
        let tag = doc.styles.default_run.lang.as_ref().and_then(|l| l.east_asia.clone());
        fonts.east_asia = tag.or_else(|| doc.settings.theme_font_lang.east_asia.clone()).as_deref().and_then(CjkLang::from_tag);
        fonts
    }

    /// Whether the document embeds faces of this family.
    pub fn embeds(&self, family: &str) -> bool {
        self.embedded.contains_key(&family.trim().to_lowercase())
    }

    /// The embedded face of a family for the weight and slant; with `exact` unset, the
    /// nearest style embedded (Word emboldens or slants it).
    fn embedded(&self, family: &str, bold: bool, italic: bool, exact: bool) -> Option<Arc<LoadedFace>> {
        let faces = self.embedded.get(&family.trim().to_lowercase())?;
        let want = match (bold, italic) {
            (false, false) => EmbeddedFontStyle::Regular,
            (true, false) => EmbeddedFontStyle::Bold,
            (false, true) => EmbeddedFontStyle::Italic,
            (true, true) => EmbeddedFontStyle::BoldItalic,
        };
        if let Some((_, f)) = faces.iter().find(|(s, _)| *s == want) {
            return Some(f.clone());
        }
        if exact {
            return None;
        }
        let score = |s: &EmbeddedFontStyle| {
            let (b, i) = match s {
                EmbeddedFontStyle::Regular => (false, false),
                EmbeddedFontStyle::Bold => (true, false),
                EmbeddedFontStyle::Italic => (false, true),
                EmbeddedFontStyle::BoldItalic => (true, true),
            };
            // Slant mismatches look worse than weight ones.
            u8::from(b != bold) + 2 * u8::from(i != italic)
        };
        faces.iter().min_by_key(|(s, _)| score(s)).map(|(_, f)| f.clone())
    }

    /// Resolves a family as Word would for this document: a face embedded in it, the
    /// installed family, a metric-compatible substitute, the font table's `w:altName`, the
    /// face a CSS generic name stands for, a Noto CJK face for an East Asian family, then a generic face of the family's class
    /// (`w:family`, `w:pitch`, `w:panose1`; notes §2), then of the kind its name suggests;
    /// a generic face lays out with the family's metrics when the office metrics table has them.
    pub fn resolve(&self, book: &FontBook, family: &str, bold: bool, italic: bool) -> Option<(Arc<LoadedFace>, FamilyMatch)> {
        if let Some(face) = self.embedded(family, bold, italic, true) {
            return Some((face, FamilyMatch::Exact));
        }
        if let Some(face) = book.installed(family, bold, italic) {
            return Some((face, FamilyMatch::Exact));
        }
        if let Some(face) = self.embedded(family, bold, italic, false) {
            return Some((face, FamilyMatch::Exact));
        }
        if let Some(face) = book.compatible(family, bold, italic) {
            return Some((face, FamilyMatch::Compatible));
        }
        let decl = self.decls.get(&family.trim().to_lowercase());
        let alt = decl.and_then(|d| d.alt_name.as_deref()).map(str::trim).filter(|a| !a.is_empty());
        // A family whose font-table entry gives its PANOSE was on the machine that saved the
        // document, and Word sets it with its own metrics where we know them, before the
        // alternative: dries007_Project2_Verslag's Anonymous Pro (altName Courier New, with
        // PANOSE) stands 1.0 em apart in Word's PDF, where Courier New's 1.13 em made the
        // code listing 5 pages longer. An entry without it names a font the saving machine
        // lacked, which Word replaces with the alternative (Open Sans as Segoe UI in
        // PedroAlmeidacode_SGP_WebService_sdd).
        if alt.is_some() && decl.is_some_and(|d| d.panose1.is_some()) && cjk_family(family).is_none() {
            let kind = decl.and_then(class_of).unwrap_or_else(|| generic_kind(&family.trim().to_lowercase()));
            if let Some(face) = book.emulated(kind, bold, italic, family) {
                return Some((face, FamilyMatch::Compatible));
            }
        }
        if let Some(alt) = alt {
            if let Some(face) = self.embedded(alt, bold, italic, false).or_else(|| book.installed(alt, bold, italic)) {
                return Some((face, FamilyMatch::Exact));
            }
            if let Some(face) = book.compatible(alt, bold, italic) {
                return Some((face, FamilyMatch::Compatible));
            }
            // Word sets "Open Sans" with altName "Segoe UI" in Segoe UI when Open Sans is
            // missing (`PedroAlmeidacode_SGP_WebService_sdd`): the alternative's metrics.
            // An East Asian alternative (宋体 with altName SimSun) goes to a CJK face below:
            // a Latin face with SimSun's metrics would hand its Han to a fallback face whose
            // own, taller lines count (Levier-ack_Object-Oriented_baogao's 11 pt SimSun TOC
            // lines took two 15.6 pt grid lines instead of Word's one).
            let kind = decl.and_then(class_of).unwrap_or_else(|| generic_kind(&alt.to_lowercase()));
            let east_asian = cjk_family(family).is_some() || cjk_family(alt).is_some();
            if let Some(face) = book.emulated(kind, bold, italic, alt).filter(|_| !east_asian) {
                return Some((face, FamilyMatch::Compatible));
            }
        }
        if let Some(face) = book.css_generic(family, bold, italic) {
            return Some((face, FamilyMatch::Compatible));
        }
        if let Some(face) = self.east_asian_substitute(book, family, alt, decl, bold, italic) {
            return Some((face, FamilyMatch::Generic));
        }
        let kind = decl.and_then(class_of).unwrap_or_else(|| generic_kind(&family.trim().to_lowercase()));
        if let Some(face) = book.emulated(kind, bold, italic, family) {
            return Some((face, FamilyMatch::Compatible));
        }
        book.generic(kind, bold, italic).map(|f| (f, FamilyMatch::Generic))
    }

    /// A Noto CJK face for an East Asian family: a known Windows family by either name, or
    /// any family whose `w:charset` is an East Asian code page; serif or sans as the
    /// original (Batang, SimSun, MS Mincho → Serif CJK; Malgun Gothic, MS Gothic → Sans CJK).
    /// It keeps the original's line height where Word's PDFs told us.
    fn east_asian_substitute(
        &self,
        book: &FontBook,
        family: &str,
        alt: Option<&str>,
        decl: Option<&FontDecl>,
        bold: bool,
        italic: bool,
    ) -> Option<Arc<LoadedFace>> {
        let (original, lang, serif) = match cjk_family(family).or_else(|| alt.and_then(cjk_family)) {
            Some(known) => known,
            None => {
                let lang = decl.and_then(|d| d.charset).and_then(CjkLang::from_charset)?;
                let serif = decl.and_then(class_of).unwrap_or_else(|| generic_kind(&family.trim().to_lowercase())) == Generic::Serif;
                ("", lang, serif)
            }
        };
        book.installed_as(lang.noto(serif), bold, italic, original)
            .or_else(|| book.installed_as(lang.noto(!serif), bold, italic, original))
    }
}

/// The kind of a declared font from `w:family`, then `w:pitch`, then `w:panose1`.
fn class_of(decl: &FontDecl) -> Option<Generic> {
    if decl.pitch == Some(FontPitch::Fixed) || decl.family == Some(FontFamily::Modern) {
        return Some(Generic::Mono);
    }
    match decl.family {
        Some(FontFamily::Roman) => return Some(Generic::Serif),
        Some(FontFamily::Swiss) => return Some(Generic::Sans),
        _ => {}
    }
    panose_class(decl.panose1.as_ref()?)
}

/// PANOSE 1 for Latin text (family kind 2): proportion 9 is monospaced; serif styles 2–10
/// have serifs, 11–15 (normal, obtuse and perpendicular sans, flared, rounded) do not.
fn panose_class(p: &[u8; 10]) -> Option<Generic> {
    if p[0] != 2 {
        return None;
    }
    match (p[1], p[3]) {
        (_, 9) => Some(Generic::Mono),
        (2..=10, _) => Some(Generic::Serif),
        (11..=15, _) => Some(Generic::Sans),
        _ => None,
    }
}

/// The PostScript name in a font's `name` table (the PDF BaseFont).
fn postscript_name(data: &[u8]) -> Option<String> {
    let face = ttf_parser::Face::parse(data, 0).ok()?;
    face.names()
        .into_iter()
        .filter(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
        .find_map(|n| n.to_string())
        .filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::EmbeddedFont;
    use crate::layout::testing::fonts;

    fn embedded_doc(name: &str, data: Vec<u8>) -> Document {
        let decl = FontDecl {
            name: name.into(),
            embedded: vec![EmbeddedFont { style: EmbeddedFontStyle::Regular, subsetted: false, data: data.into() }],
            ..Default::default()
        };
        Document { fonts: vec![decl], ..Default::default() }
    }

    fn declared(decl: FontDecl) -> DocumentFonts {
        DocumentFonts::new(&Document { fonts: vec![decl], ..Default::default() })
    }

    #[test]
    fn an_embedded_face_wins_over_every_installed_one() {
        let doc = DocumentFonts::new(&embedded_doc("Corporate Sans", dejavu::sans::regular().to_vec()));
        let (face, how) = doc.resolve(fonts(), "Corporate Sans", false, false).expect("a face");
        assert_eq!(how, FamilyMatch::Exact);
        assert_eq!(face.face.postscript_name, "DejaVuSans");
        assert!(face.has_char('A'));
    }

    #[test]
    fn embedded_faces_get_their_own_ids_and_stay_out_of_the_shared_book() {
        let a = DocumentFonts::new(&embedded_doc("Corporate Sans", dejavu::sans::regular().to_vec()));
        let b = DocumentFonts::new(&embedded_doc("Corporate Sans", dejavu::sans::regular().to_vec()));
        let (fa, _) = a.resolve(fonts(), "Corporate Sans", false, false).expect("a face");
        let (fb, _) = b.resolve(fonts(), "Corporate Sans", false, false).expect("a face");
        assert_ne!(fa.face.id, fb.face.id);
        assert!(!fonts().has_family("Corporate Sans"));
    }

    #[test]
    fn a_bold_run_uses_the_embedded_regular_face_when_no_bold_is_embedded_or_installed() {
        let doc = DocumentFonts::new(&embedded_doc("Corporate Sans", dejavu::sans::regular().to_vec()));
        let (face, _) = doc.resolve(fonts(), "Corporate Sans", true, false).expect("a face");
        assert_eq!(face.face.postscript_name, "DejaVuSans");
    }

    #[test]
    fn an_unreadable_embedded_font_is_skipped() {
        let doc = DocumentFonts::new(&embedded_doc("Broken", vec![0; 64]));
        assert!(!doc.embeds("Broken"));
    }

    #[test]
    fn a_missing_roman_family_falls_back_to_a_serif() {
        let doc = declared(FontDecl { name: "Corporate Text".into(), family: Some(FontFamily::Roman), ..Default::default() });
        let (face, how) = doc.resolve(fonts(), "Corporate Text", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Serif");
        assert_eq!(how, FamilyMatch::Generic);
    }

    #[test]
    fn a_missing_swiss_family_falls_back_to_a_sans_even_with_a_serif_sounding_name() {
        let doc = declared(FontDecl { name: "Book Antiqua Grotesk".into(), family: Some(FontFamily::Swiss), ..Default::default() });
        let (face, _) = doc.resolve(fonts(), "Book Antiqua Grotesk", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Sans");
    }

    #[test]
    fn a_missing_fixed_pitch_family_falls_back_to_a_mono() {
        let doc = declared(FontDecl { name: "Terminal X".into(), pitch: Some(FontPitch::Fixed), ..Default::default() });
        let (face, _) = doc.resolve(fonts(), "Terminal X", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Mono");
    }

    #[test]
    fn a_panose_serif_style_classifies_an_auto_family() {
        let panose = [2, 2, 6, 3, 5, 4, 5, 2, 3, 4];
        let doc = declared(FontDecl { name: "Unknown Face".into(), family: Some(FontFamily::Auto), panose1: Some(panose), ..Default::default() });
        let (face, _) = doc.resolve(fonts(), "Unknown Face", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Serif");
    }

    #[test]
    fn the_alt_name_of_the_font_table_is_tried_before_a_generic_face() {
        let doc = declared(FontDecl { name: "Arial (Corporate)".into(), alt_name: Some("Arial".into()), ..Default::default() });
        let (face, how) = doc.resolve(fonts(), "Arial (Corporate)", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Sans");
        assert_eq!(how, FamilyMatch::Compatible);
    }

    #[test]
    fn malgun_gothic_becomes_noto_sans_cjk_kr_with_malgun_line_height() {
        let (face, _) = DocumentFonts::default().resolve(fonts(), "Malgun Gothic", false, false).expect("a face");
        assert_eq!(face.family, "Noto Sans CJK KR");
        assert!((face.metrics.line_height - 3560.0 / 2048.0).abs() < 1e-9);
    }

    #[test]
    fn chinese_families_line_at_1_3_times_their_glyph_box_with_the_extra_split_evenly() {
        // SimSun, KaiTi: 220 + 36 of 256 (office_metrics.txt); DengXian 1659 + 475 of 2048.
        for (name, ascent, glyph_box) in [("宋体", 220.0 / 256.0, 1.0), ("KaiTi", 220.0 / 256.0, 1.0), ("DengXian", 1659.0 / 2048.0, 2134.0 / 2048.0)] {
            let (face, _) = DocumentFonts::default().resolve(fonts(), name, false, false).expect("a face");
            assert!(face.family.starts_with("Noto S") && face.family.ends_with("CJK SC"), "{name}: {}", face.family);
            assert!((face.metrics.line_height - 1.3 * glyph_box).abs() < 1e-9, "{name}: {}", face.metrics.line_height);
            assert!((face.metrics.line_ascent - (ascent + 0.15 * glyph_box)).abs() < 1e-9, "{name}: {}", face.metrics.line_ascent);
        }
    }

    #[test]
    fn aptos_is_set_in_a_generic_face_with_the_aptos_advances_and_line_height() {
        let (face, how) = DocumentFonts::default().resolve(fonts(), "Aptos", false, false).expect("a face");
        assert_eq!((face.family.as_str(), how), ("Liberation Sans", FamilyMatch::Compatible));
        assert!((face.metrics.line_height - 2500.0 / 2048.0).abs() < 1e-9);
        // "m" is 853 of 1000 in Aptos (office_metrics.txt), 1706 of 2048 in Liberation Sans.
        let m = crate::layout::shaping::shape(&face, "m", false, true);
        assert_eq!(m[0].advance, (853.0f64 * 2048.0 / 1000.0).round() as i32);
        let (plain, _) = DocumentFonts::default().resolve(fonts(), "Liberation Sans", false, false).expect("a face");
        assert_eq!(crate::layout::shaping::shape(&plain, "m", false, true)[0].advance, 1706);
        assert_ne!(face.face.id, plain.face.id);
    }

    #[test]
    fn a_missing_family_takes_the_metrics_of_its_alt_name() {
        let doc = declared(FontDecl { name: "Corporate Sans".into(), alt_name: Some("Segoe UI".into()), family: Some(FontFamily::Swiss), ..Default::default() });
        let (face, how) = doc.resolve(fonts(), "Corporate Sans", false, false).expect("a face");
        assert_eq!((face.family.as_str(), how), ("Liberation Sans", FamilyMatch::Compatible));
        assert!(face.face.emulation.is_some());
        // Segoe UI's win box, 2210 + 514 of 2048.
        assert!((face.metrics.line_height - 2724.0 / 2048.0).abs() < 1e-9);
    }

    #[test]
    fn a_style_without_measured_advances_keeps_the_substitute_ones_and_the_family_line_height() {
        // Word's PDFs show Aptos Display italic only as a space: too few characters.
        let (face, _) = DocumentFonts::default().resolve(fonts(), "Aptos Display", false, true).expect("a face");
        assert!(face.face.emulation.is_none());
        assert!((face.metrics.line_height - 2500.0 / 2048.0).abs() < 1e-9);
        let (plain, _) = DocumentFonts::default().resolve(fonts(), "Liberation Sans", false, true).expect("a face");
        assert!(Arc::ptr_eq(&face.face, &plain.face));
    }

    #[test]
    fn calibri_light_takes_its_own_advances_over_carlito() {
        let (face, how) = DocumentFonts::default().resolve(fonts(), "Calibri Light", false, false).expect("a face");
        assert_eq!((face.family.as_str(), how), ("Carlito", FamilyMatch::Compatible));
        assert!(face.face.emulation.is_some());
        let (calibri, _) = DocumentFonts::default().resolve(fonts(), "Calibri", false, false).expect("a face");
        assert!(calibri.face.emulation.is_none());
    }

    #[test]
    fn batang_becomes_noto_serif_cjk_kr() {
        let (face, _) = DocumentFonts::default().resolve(fonts(), "바탕", false, false).expect("a face");
        assert_eq!(face.family, "Noto Serif CJK KR");
    }

    #[test]
    fn an_unknown_family_with_a_shift_jis_charset_becomes_noto_cjk_jp() {
        let doc = declared(FontDecl { name: "HG丸ｺﾞｼｯｸM-PRO".into(), charset: Some(0x80), ..Default::default() });
        let (face, _) = doc.resolve(fonts(), "HG丸ｺﾞｼｯｸM-PRO", false, false).expect("a face");
        assert_eq!(face.family, "Noto Sans CJK JP");
    }

    #[test]
    fn the_default_east_asian_language_comes_from_the_theme_font_lang() {
        let mut doc = Document::default();
        doc.settings.theme_font_lang.east_asia = Some("ko-KR".into());
        assert_eq!(DocumentFonts::new(&doc).east_asia, Some(CjkLang::Ko));
    }
}
