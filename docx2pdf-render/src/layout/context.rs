//! Per-document layout state: the document's fonts, faces resolved once per family, shaping cache, warnings.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::document_fonts::DocumentFonts;
use super::east_asian::is_cjk;
use super::fonts::{FamilyMatch, FontBook, LoadedFace};
use super::shape_cache::MAX_CACHED_BYTES;
use super::shaping::{shape, shape_in_words, RawGlyph};
use crate::docx::model::{Document, NoteKind};
use crate::fast_map::FastMap;
use crate::deadline::Deadline;
use crate::units::Pt;
use crate::warning::Warning;

/// A longer piece shaped in one document: face, right to left, kerned, and its text.
type ShapeKey = (u32, bool, bool, String);
/// The most bytes of longer pieces kept shaped at once. A piece is shaped again when a
/// table measures a cell twice or a block is laid out again in a wider column, soon after
/// the first time; a long document's paragraphs are each shaped once, and keeping them all
/// held 23 MB for 10,000 paragraphs. When the budget is reached the cache starts afresh.
const LONG_SHAPES_BUDGET: usize = 2 * 1024 * 1024;
/// A family, weight and slant → the face found and how.
type FamilyCache = FastMap<(Arc<str>, bool, bool), Option<(Arc<LoadedFace>, FamilyMatch)>>;

/// What every layout step of one document shares.
pub(crate) struct Ctx<'f> {
    fonts: &'f FontBook,
    /// The document's embedded faces and font table, consulted before the shared book.
    doc_fonts: DocumentFonts,
    /// The render time limit.
    pub deadline: &'f Deadline,
    /// `w:defaultTabStop`.
    pub default_tab_stop: Pt,
    /// `compatibilityMode` (15 moves the `tblInd` edge, notes §8).
    pub compatibility_mode: Option<u32>,
    /// Whether justified lines ended by `w:br` stretch (no `doNotExpandShiftReturn`).
    pub expand_shift_return: bool,
    /// How many tables enclose the one being laid out.
    pub table_depth: usize,
    /// The current section's document-grid line pitch, when its lines snap to a grid.
    pub line_pitch: Option<Pt>,
    /// `adjustLineHeightInTable` (§17.15.3.1): the grid's pitch applies in table cells too.
    pub grid_in_tables: bool,
    /// How far from the page's left edge the body column starts, where tab leaders find
    /// their grid (see `line::leader_item`).
    pub column_x: Pt,
    /// The document's East Asian line-breaking lists (§17.15.1.60/61).
    pub kinsoku: super::kinsoku::Kinsoku,
    /// The marks of the referenced footnotes and endnotes (§17.11).
    pub note_marks: HashMap<(NoteKind, i64), String>,
    /// The mark of the note being laid out, which its `w:footnoteRef` shows.
    pub current_note: Option<String>,
    warnings: Vec<Warning>,
    warned: HashSet<(&'static str, String)>,
    families: FamilyCache,
    fallbacks: FastMap<(char, bool, bool), Option<Arc<LoadedFace>>>,
    shapes: FastMap<ShapeKey, Arc<[RawGlyph]>>,
    /// The bytes `shapes` holds, about: texts and glyphs.
    shaped_bytes: usize,
}

impl<'f> Ctx<'f> {
    /// A context for one document.
    pub fn new(
        fonts: &'f FontBook,
        deadline: &'f Deadline,
        default_tab_stop: Pt,
        compatibility_mode: Option<u32>,
        expand_shift_return: bool,
    ) -> Ctx<'f> {
        let mut ctx = Ctx {
            fonts,
            doc_fonts: DocumentFonts::default(),
            deadline,
            default_tab_stop,
            compatibility_mode,
            expand_shift_return,
            table_depth: 0,
            line_pitch: None,
            grid_in_tables: false,
            column_x: Pt::ZERO,
            kinsoku: Default::default(),
            note_marks: HashMap::new(),
            current_note: None,
            warnings: Vec::new(),
            warned: HashSet::new(),
            families: FastMap::default(),
            fallbacks: FastMap::default(),
            shapes: FastMap::default(),
            shaped_bytes: 0,
        };
        if fonts.embedded_only() {
            ctx.warn("fonts_missing", "no fonts installed; the embedded DejaVu fonts stand in for every family".to_string());
        }
        ctx
    }

    /// Takes the fonts of the document being laid out: its embedded faces (parsed here,
    /// once), its font table and its East Asian language.
    pub fn use_document_fonts(&mut self, doc: &Document) {
        self.doc_fonts = DocumentFonts::new(doc);
        self.families.clear();
        self.fallbacks.clear();
    }

    /// Records a warning once per kind and message.
    pub fn warn(&mut self, kind: &'static str, message: String) {
        if self.warned.insert((kind, message.clone())) {
            self.warnings.push(Warning::new(kind, message));
        }
    }

    /// The warnings gathered so far.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// The face for a family, weight and slant, resolved once per document; a generic
    /// substitution is reported once per family.
    pub fn face(&mut self, family: &Arc<str>, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        self.face_match(family, bold, italic).map(|(f, _)| f)
    }

    /// The face for a family with how it was matched.
    pub fn face_match(&mut self, family: &Arc<str>, bold: bool, italic: bool) -> Option<(Arc<LoadedFace>, FamilyMatch)> {
        let key = (family.clone(), bold, italic);
        if let Some(f) = self.families.get(&key) {
            return f.clone();
        }
        let found = self.doc_fonts.resolve(self.fonts, family, bold, italic);
        // What the document asked for and did not get, said once per family and face:
        // a metric-compatible substitute (Carlito for Calibri), a face set with the
        // original's metrics measured in Word's PDFs (office_metrics.rs), or a plain
        // fallback (a CSS generic name, an alternative name's face, a face of its kind).
        let lower = family.trim().to_lowercase();
        let fallback = "a fallback with other metrics";
        let substitute = match &found {
            Some((face, FamilyMatch::Generic)) => Some(("font_substituted", face, fallback)),
            Some((face, FamilyMatch::Compatible)) if face.face.emulation.is_some() => {
                Some(("font_emulated", face, "set with the original's measured advances"))
            }
            Some((face, FamilyMatch::Compatible)) if super::fonts::is_metric_substitute(&lower, &face.family) => {
                Some(("font_compatible", face, "metric-compatible"))
            }
            Some((face, FamilyMatch::Compatible)) if super::office_metrics::family(&lower).is_some() => {
                Some(("font_emulated", face, "set with the original's measured line metrics"))
            }
            Some((face, FamilyMatch::Compatible)) => Some(("font_substituted", face, fallback)),
            _ => None,
        };
        if let Some((kind, face, how)) = substitute {
            let detail = format!("{} -> {}", family.trim(), face.family);
            if self.warned.insert((kind, detail.clone())) {
                let message = format!("font \"{family}\" is not installed; using \"{}\" ({how})", face.family);
                self.warnings.push(Warning::counted(kind, detail, 1, message));
            }
        }
        if found.is_none() {
            self.warn("font_missing", format!("no face at all for font \"{family}\""));
        }
        self.families.insert(key, found.clone());
        found
    }

    /// Whether `family` is embedded in the document or installed under that very name.
    pub fn has_family(&self, family: &str) -> bool {
        self.doc_fonts.embeds(family) || self.fonts.has_family(family)
    }

    /// A face that has `c`, for characters the chosen face lacks: for Han, kana and
    /// Hangul the Noto Sans CJK face of the document's East Asian language (the same
    /// ideograph is drawn differently in Japan, Korea and China), else the book's chain.
    pub fn fallback(&mut self, c: char, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        if let Some(f) = self.fallbacks.get(&(c, bold, italic)) {
            return f.clone();
        }
        let by_lang = match self.doc_fonts.east_asia {
            Some(lang) if is_cjk(c) => self.fonts.installed(lang.noto(false), bold, italic).filter(|f| f.has_char(c)),
            _ => None,
        };
        let face = by_lang.or_else(|| self.fonts.fallback_for(c, bold, italic));
        self.fallbacks.insert((c, bold, italic), face.clone());
        face
    }

    /// Shapes `text` in `face`, kerned or not: short pieces cached in the face (across
    /// documents), longer ones per document, built from the face's cached words where it
    /// allows.
    pub fn shape(&mut self, face: &LoadedFace, text: &str, rtl: bool, kern: bool) -> Arc<[RawGlyph]> {
        if text.len() <= MAX_CACHED_BYTES {
            return face.shapes.get_or_shape(text, (rtl, kern, None), || shape(face, text, rtl, kern));
        }
        let key = (face.face.id, rtl, kern, text.to_string());
        if let Some(s) = self.shapes.get(&key) {
            return s.clone();
        }
        let words = if rtl { None } else { shape_in_words(face, text, kern) };
        let glyphs: Arc<[RawGlyph]> = words.unwrap_or_else(|| shape(face, text, rtl, kern)).into();
        let bytes = text.len() + std::mem::size_of_val(&*glyphs);
        if self.shaped_bytes + bytes > LONG_SHAPES_BUDGET {
            self.shapes.clear();
            self.shaped_bytes = 0;
        }
        self.shaped_bytes += bytes;
        self.shapes.insert(key, glyphs.clone());
        glyphs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{EmbeddedFont, EmbeddedFontStyle, FontDecl, FontRef, FontSlots, Paragraph, RunProps};
    use crate::layout::testing::{doc_of, fonts, lay, run, texts};

    fn in_font(text: &str, family: &str) -> Paragraph {
        let name = || Some(FontRef::Named(family.into()));
        let props = RunProps { fonts: FontSlots { ascii: name(), h_ansi: name(), east_asia: name(), ..Default::default() }, ..Default::default() };
        Paragraph { inlines: vec![run(text, props)], ..Default::default() }
    }

    #[test]
    fn a_subsetted_embedded_face_lacking_a_glyph_falls_back_for_that_glyph_only() {
        let mut doc = doc_of(vec![in_font("A中", "Corporate Sans")]);
        let data = dejavu::sans::regular().to_vec();
        doc.fonts = vec![FontDecl {
            name: "Corporate Sans".into(),
            embedded: vec![EmbeddedFont { style: EmbeddedFontStyle::Regular, subsetted: true, data: data.into() }],
            ..Default::default()
        }];
        let out = lay(&doc);
        let items = texts(&out.layout.pages[0]);
        let face_of = |s: &str| items.iter().find(|t| t.2.contains(s)).map(|t| t.3.face.postscript_name.clone());
        assert_eq!(face_of("A").as_deref(), Some("DejaVuSans"));
        assert!(face_of("中").is_some_and(|ps| ps.starts_with("NotoSansCJK")), "{:?}", face_of("中"));
        assert!(out.warnings.iter().all(|w| !w.to_string().contains("Corporate Sans")));
    }

    #[test]
    fn a_han_character_no_font_has_takes_the_cjk_face_of_the_document_language() {
        let mut doc = doc_of(vec![]);
        doc.settings.theme_font_lang.east_asia = Some("ja-JP".into());
        let deadline = Deadline::none();
        let mut ctx = Ctx::new(fonts(), &deadline, Pt(36.0), None, false);
        ctx.use_document_fonts(&doc);
        assert_eq!(ctx.fallback('中', false, false).map(|f| f.family.clone()).as_deref(), Some("Noto Sans CJK JP"));
        doc.settings.theme_font_lang.east_asia = Some("zh-TW".into());
        ctx.use_document_fonts(&doc);
        assert_eq!(ctx.fallback('中', false, false).map(|f| f.family.clone()).as_deref(), Some("Noto Sans CJK TC"));
    }

    #[test]
    fn a_missing_family_is_reported_once() {
        let doc = doc_of(vec![in_font("one", "Nowhere Grotesk"), in_font("two", "Nowhere Grotesk")]);
        let out = lay(&doc);
        let n = out.warnings.iter().filter(|w| w.to_string().contains("Nowhere Grotesk")).count();
        assert_eq!(n, 1);
    }
}
