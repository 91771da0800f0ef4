//! The font book: installed faces, Word's substitutes, per-glyph fallback, loaded-face cache.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use fontdb::{Database, Family, Query, Source, Stretch, Style, Weight, ID};
use rustybuzz::ttf_parser;

use super::font_metrics::FaceMetrics;
use super::frame;

/// Process-wide counter for `frame::Face::id`.
static NEXT_FACE_ID: AtomicU32 = AtomicU32::new(1);

/// Metric-compatible substitutes (same advance widths, so the same line breaks; notes §2).
const SUBSTITUTES: &[(&str, &[&str])] = &[
    ("calibri", &["Carlito"]),
    ("calibri light", &["Carlito"]),
    ("cambria", &["Caladea"]),
    ("arial", &["Liberation Sans", "Arimo"]),
    ("helvetica", &["Liberation Sans", "Arimo"]),
    ("arial mt", &["Liberation Sans", "Arimo"]),
    ("times new roman", &["Liberation Serif", "Tinos"]),
    ("times", &["Liberation Serif", "Tinos"]),
    ("courier new", &["Liberation Mono", "Cousine"]),
    ("courier", &["Liberation Mono", "Cousine"]),
    ("arial narrow", &["Liberation Sans Narrow"]),
    // CSS generic names left by HTML imports: Word sets them in Arial, Times New Roman and
    // Courier New whatever the font table says (`AlexTatulescu_spotify_clone_srs` declares
    // "sans-serif" as roman with altName Times New Roman; Word's PDF uses Arial).
    ("sans-serif", &["Liberation Sans", "Arimo"]),
    ("serif", &["Liberation Serif", "Tinos"]),
    ("monospace", &["Liberation Mono", "Cousine"]),
];

/// Vertical metrics of Office fonts whose substitutes differ in height: (family, line height,
/// ascent) in em, as `FaceMetrics` would read them from the original. Cambria single lines
/// measure 2388/2048 em in Word PDFs (corpus `sverrejb_docxide_pdf_input_3`), Caladea's win
/// metrics give 1.3 em. The East Asian ones come from the faces Word embedded in its PDFs:
/// Malgun Gothic lines measure 1.737 em at 10.5 pt and 1.743 em at 9.5 pt with the baseline
/// 1.288 em below the line top (`developer0hye_office2pdf_06_official_letter_ko`; its glyph
/// box is only 2229 + 495 of 2048, Noto Sans CJK KR's 1.448 em); SimSun, SimHei and KaiTi
/// 220 + 36 of 256 with a 36 line gap, DengXian 1659 + 475 of 2048 (`16261909_Backup_Tools_`).
const METRIC_OVERRIDES: &[(&str, f64, f64)] = &[
    ("cambria", 2388.0 / 2048.0, 1946.0 / 2048.0),
    ("malgun gothic", 3560.0 / 2048.0, 2638.0 / 2048.0),
    ("simsun", 292.0 / 256.0, 1.0),
    ("simhei", 292.0 / 256.0, 1.0),
    ("kaiti", 292.0 / 256.0, 1.0),
    ("dengxian", 2134.0 / 2048.0, 1659.0 / 2048.0),
];

/// Loaded faces by database id and the Office font whose metrics they take, if any.
type FaceCache = HashMap<(ID, Option<&'static str>), Option<Arc<LoadedFace>>>;

/// Generic fallbacks by kind of family name.
const SERIF_FALLBACK: &[&str] = &["Liberation Serif", "DejaVu Serif", "Noto Serif"];
const SANS_FALLBACK: &[&str] = &["Liberation Sans", "DejaVu Sans", "Noto Sans"];
const MONO_FALLBACK: &[&str] = &["Liberation Mono", "DejaVu Sans Mono", "Noto Sans Mono"];

/// A face loaded for shaping and embedding, shared by every document that uses it.
pub(crate) struct LoadedFace {
    // Declared first so it is dropped before `face`, whose bytes it borrows.
    rb: rustybuzz::Face<'static>,
    /// The face as handed to the PDF writer.
    pub face: Arc<frame::Face>,
    /// Vertical metrics in em.
    pub metrics: FaceMetrics,
    /// The family name (for warnings and tests).
    pub family: String,
    /// Which of U+0000–U+00FF the face maps, so the common case skips the cmap.
    latin1: [u64; 4],
}

impl std::fmt::Debug for LoadedFace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedFace").field("id", &self.face.id).field("family", &self.family).finish()
    }
}

impl LoadedFace {
    /// The rustybuzz face for shaping.
    pub fn shaper(&self) -> &rustybuzz::Face<'static> {
        &self.rb
    }

    /// Whether the face maps `c` to a glyph (symbol fonts also through U+F000 + c).
    pub fn has_char(&self, c: char) -> bool {
        let u = u32::from(c);
        if u < 256 {
            return self.latin1[(u / 64) as usize] & (1 << (u % 64)) != 0;
        }
        has_glyph(&self.rb, c)
    }
}

fn has_glyph(face: &ttf_parser::Face<'_>, c: char) -> bool {
    let Some(cmap) = face.tables().cmap else { return false };
    let code = u32::from(c);
    cmap.subtables.into_iter().any(|s| {
        s.glyph_index(code).is_some_and(|g| g.0 != 0)
            || (s.platform_id == ttf_parser::PlatformId::Windows
                && s.encoding_id == 0
                && code < 0x100
                && s.glyph_index(0xF000 + code).is_some_and(|g| g.0 != 0))
    })
}

/// How a family name was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FamilyMatch {
    /// The family is installed.
    Exact,
    /// A metric-compatible substitute (Carlito for Calibri, …).
    Compatible,
    /// A generic fallback: the layout will differ, worth a warning.
    Generic,
}

/// The fonts of the machine and the configured folders, loaded once and shared by all
/// render workers.
pub struct FontBook {
    db: RwLock<Database>,
    /// Lower-case family name → the name as the database spells it.
    families: HashMap<String, String>,
    /// Every face in a deterministic order, for the last-resort glyph search.
    scan_order: Vec<ID>,
    faces: Mutex<FaceCache>,
    /// Character → the first face of `scan_order` that has it.
    any_face: Mutex<HashMap<char, Option<ID>>>,
    /// Whether only the embedded DejaVu fonts are available.
    embedded_only: bool,
}

impl std::fmt::Debug for FontBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FontBook").field("families", &self.families.len()).finish()
    }
}

impl FontBook {
    /// Loads system fonts plus `extra_dirs`; with no font at all, the embedded fallback.
    pub fn load(extra_dirs: &[PathBuf]) -> FontBook {
        FontBook::with_sources(extra_dirs, true)
    }

    /// Loads the fonts of `dirs`, and the system's when `system` is set (tests use an
    /// empty folder without system fonts to reach the embedded fallback).
    pub(crate) fn with_sources(dirs: &[PathBuf], system: bool) -> FontBook {
        let mut db = Database::new();
        if system {
            db.load_system_fonts();
        }
        for dir in dirs {
            db.load_fonts_dir(dir);
        }
        let embedded_only = db.is_empty();
        if embedded_only {
            tracing::warn!(
                "no system fonts found; install fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-dejavu-core fonts-noto-core fonts-noto-cjk (or pass --font-dir)"
            );
            for data in [
                dejavu::sans::regular(),
                dejavu::sans::bold(),
                dejavu::sans::oblique(),
                dejavu::sans::bold_oblique(),
                dejavu::serif::regular(),
                dejavu::serif::bold(),
                dejavu::serif::italic(),
                dejavu::serif::bold_italic(),
                dejavu::sans_mono::regular(),
                dejavu::sans_mono::bold(),
            ] {
                db.load_font_source(Source::Binary(Arc::new(data)));
            }
        }
        let mut families = HashMap::new();
        let mut order: Vec<(String, String, ID)> = Vec::new();
        for face in db.faces() {
            for (name, _) in &face.families {
                families.entry(name.to_lowercase()).or_insert_with(|| name.clone());
            }
            let first = face.families.first().map(|f| f.0.clone()).unwrap_or_default();
            order.push((first, face.post_script_name.clone(), face.id));
        }
        order.sort();
        FontBook {
            db: RwLock::new(db),
            families,
            scan_order: order.into_iter().map(|(_, _, id)| id).collect(),
            faces: Mutex::new(HashMap::new()),
            any_face: Mutex::new(HashMap::new()),
            embedded_only,
        }
    }

    /// Whether the book fell back to the embedded DejaVu fonts.
    pub(crate) fn embedded_only(&self) -> bool {
        self.embedded_only
    }

    /// Whether a family of that name (any case) is installed.
    pub(crate) fn has_family(&self, name: &str) -> bool {
        self.families.contains_key(&name.trim().to_lowercase())
    }

    /// The best face of an installed family for the weight and slant.
    fn query(&self, name: &str, bold: bool, italic: bool) -> Option<ID> {
        let canonical = self.families.get(&name.to_lowercase())?;
        let db = self.db.read().unwrap_or_else(|e| e.into_inner());
        db.query(&Query {
            families: &[Family::Name(canonical)],
            weight: if bold { Weight::BOLD } else { Weight::NORMAL },
            stretch: Stretch::Normal,
            style: if italic { Style::Italic } else { Style::Normal },
        })
    }

    /// Resolves a family name: exact, then a metric-compatible substitute, then a generic
    /// fallback by the kind of name, then any face at all (without a document's font
    /// table; layout goes through `DocumentFonts::resolve`).
    #[cfg(test)]
    pub(crate) fn resolve_family(&self, name: &str, bold: bool, italic: bool) -> Option<(Arc<LoadedFace>, FamilyMatch)> {
        if let Some(face) = self.installed(name, bold, italic) {
            return Some((face, FamilyMatch::Exact));
        }
        if let Some(face) = self.compatible(name, bold, italic) {
            return Some((face, FamilyMatch::Compatible));
        }
        self.generic(generic_kind(&name.trim().to_lowercase()), bold, italic).map(|f| (f, FamilyMatch::Generic))
    }

    /// The face of an installed family, by its very name.
    pub(crate) fn installed(&self, name: &str, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        self.query(name.trim(), bold, italic).and_then(|id| self.face(id))
    }

    /// A metric-compatible substitute for an Office family (Carlito for Calibri…), with the
    /// original's line height where it is known to differ.
    pub(crate) fn compatible(&self, name: &str, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        let lower = name.trim().to_lowercase();
        let (_, subs) = SUBSTITUTES.iter().find(|(n, _)| *n == lower)?;
        subs.iter().find_map(|sub| self.installed_as(sub, bold, italic, &lower))
    }

    /// An installed family standing in for `original`, taking the original's vertical
    /// metrics when `METRIC_OVERRIDES` knows them (Word measures lines with the original).
    pub(crate) fn installed_as(&self, family: &str, bold: bool, italic: bool, original: &str) -> Option<Arc<LoadedFace>> {
        let lower = original.trim().to_lowercase();
        let metrics = METRIC_OVERRIDES.iter().find(|(n, _, _)| *n == lower).map(|(n, _, _)| *n);
        self.query(family, bold, italic).and_then(|id| self.face_as(id, metrics))
    }

    /// A generic face of a kind (Liberation Serif, Sans or Mono first), else any face at all.
    pub(crate) fn generic(&self, kind: Generic, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        let generic = match kind {
            Generic::Serif => SERIF_FALLBACK,
            Generic::Mono => MONO_FALLBACK,
            Generic::Sans => SANS_FALLBACK,
        };
        for fam in generic.iter().chain(SANS_FALLBACK) {
            if let Some(face) = self.installed(fam, bold, italic) {
                return Some(face);
            }
        }
        self.scan_order.iter().find_map(|id| self.face(*id))
    }

    /// The first face of the fallback chain for `c` that has it (CJK, scripts, symbols,
    /// DejaVu, then any installed face).
    pub(crate) fn fallback_for(&self, c: char, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        for fam in fallback_chain(c) {
            if let Some(face) = self.query(fam, bold, italic).and_then(|id| self.face(id)) {
                if face.has_char(c) {
                    return Some(face);
                }
            }
        }
        let cached = self.any_face.lock().unwrap_or_else(|e| e.into_inner()).get(&c).copied();
        let id = match cached {
            Some(id) => id,
            None => {
                let found = {
                    let db = self.db.read().unwrap_or_else(|e| e.into_inner());
                    self.scan_order.iter().copied().find(|id| {
                        db.with_face_data(*id, |data, index| {
                            ttf_parser::Face::parse(data, index).is_ok_and(|f| has_glyph(&f, c))
                        })
                        .unwrap_or(false)
                    })
                };
                self.any_face.lock().unwrap_or_else(|e| e.into_inner()).insert(c, found);
                found
            }
        };
        id.and_then(|id| self.face(id))
    }

    /// A loaded face by database id (loaded once, then shared).
    fn face(&self, id: ID) -> Option<Arc<LoadedFace>> {
        self.face_as(id, None)
    }

    /// A loaded face, with the vertical metrics of the Office font it stands in for.
    fn face_as(&self, id: ID, metrics_of: Option<&'static str>) -> Option<Arc<LoadedFace>> {
        let mut faces = self.faces.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = faces.get(&(id, metrics_of)) {
            return f.clone();
        }
        let loaded = match metrics_of {
            None => self.load_face(id),
            Some(name) => {
                let base = match faces.get(&(id, None)) {
                    Some(f) => f.clone(),
                    None => {
                        let f = self.load_face(id);
                        faces.insert((id, None), f.clone());
                        f
                    }
                };
                base.and_then(|b| {
                    let (_, height, ascent) = METRIC_OVERRIDES.iter().find(|(n, _, _)| *n == name)?;
                    let bytes: &[u8] = b.face.bytes();
                    // SAFETY: as in `load_face`: the bytes belong to `b.face.data`, which the
                    // new face keeps alive and outlives `rb`.
                    let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
                    let rb = rustybuzz::Face::from_slice(bytes, b.face.index)?;
                    let mut metrics = b.metrics;
                    metrics.line_height = *height;
                    metrics.line_ascent = *ascent;
                    Some(Arc::new(LoadedFace {
                        rb,
                        face: b.face.clone(),
                        metrics,
                        family: b.family.clone(),
                        latin1: b.latin1,
                    }))
                })
            }
        };
        faces.insert((id, metrics_of), loaded.clone());
        loaded
    }

    fn load_face(&self, id: ID) -> Option<Arc<LoadedFace>> {
        let mut db = self.db.write().unwrap_or_else(|e| e.into_inner());
        let info = db.face(id)?;
        let family = info.families.first().map(|f| f.0.clone()).unwrap_or_default();
        let postscript_name = if info.post_script_name.is_empty() {
            family.replace(' ', "")
        } else {
            info.post_script_name.clone()
        };
        // SAFETY: fontdb memory-maps the file; a font file rewritten while mapped could
        // change under us. Font folders are read-only system data, the same trade-off
        // every mmap-based font stack makes.
        let (data, index) = unsafe { db.make_shared_face_data(id)? };
        drop(db);
        LoadedFace::from_data(data, index, family, postscript_name).map(Arc::new)
    }
}

impl LoadedFace {
    /// Parses a font file (or one face of a collection) into a face with a fresh
    /// process-wide id, so the PDF writer embeds and subsets it like any other.
    pub(crate) fn from_data(
        data: Arc<dyn AsRef<[u8]> + Send + Sync>,
        index: u32,
        family: String,
        postscript_name: String,
    ) -> Option<LoadedFace> {
        let bytes: &[u8] = (*data).as_ref();
        // SAFETY: the bytes live in `data` (a Vec, an Arc'd slice or a memory map that never
        // moves), which `LoadedFace::face` keeps alive for as long as `rb` exists: `rb` is
        // declared first and therefore dropped first.
        let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
        let rb = rustybuzz::Face::from_slice(bytes, index)?;
        let metrics = FaceMetrics::read(&rb);
        let face = Arc::new(frame::Face {
            id: NEXT_FACE_ID.fetch_add(1, Ordering::Relaxed),
            data,
            index,
            postscript_name,
        });
        let mut latin1 = [0u64; 4];
        for u in 0u32..256 {
            if char::from_u32(u).is_some_and(|c| has_glyph(&rb, c)) {
                latin1[(u / 64) as usize] |= 1 << (u % 64);
            }
        }
        Some(LoadedFace { rb, face, metrics, family, latin1 })
    }
}

/// The kind of a family, for generic substitution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generic {
    /// Proportional with serifs.
    Serif,
    /// Proportional without serifs.
    Sans,
    /// Fixed pitch.
    Mono,
}

/// Guesses the kind of a missing family from its name.
pub(crate) fn generic_kind(lower: &str) -> Generic {
    const MONO: &[&str] = &["mono", "courier", "consolas", "code", "typewriter", "console", "fixed"];
    const SERIF: &[&str] = &[
        "times", "roman", "georgia", "garamond", "cambria", "book", "minion", "palatino", "century",
        "bodoni", "baskerville", "didot", "caslon", "constantia", "serif", "mincho", "song", "ming",
        "batang", "myungjo", "sylfaen", "perpetua", "rockwell", "bell mt", "goudy", "charter", "bookman",
    ];
    if MONO.iter().any(|m| lower.contains(m)) {
        Generic::Mono
    } else if SERIF.iter().any(|s| lower.contains(s)) && !lower.contains("sans") {
        Generic::Serif
    } else {
        Generic::Sans
    }
}

/// Families to try for a character the chosen face lacks, by Unicode block.
fn fallback_chain(c: char) -> &'static [&'static str] {
    let u = u32::from(c);
    match u {
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => {
            &["Noto Sans CJK KR", "Noto Sans CJK SC", "Noto Sans CJK JP", "DejaVu Sans"]
        }
        0x3040..=0x30FF | 0x31F0..=0x31FF => &["Noto Sans CJK JP", "Noto Sans CJK SC"],
        0x2E80..=0x2FFF | 0x3000..=0x303F | 0x3100..=0x312F | 0x3190..=0x9FFF | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF => &["Noto Sans CJK SC", "Noto Sans CJK JP"],
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => &["Noto Sans Hebrew", "DejaVu Sans"],
        0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            &["Noto Sans Arabic", "Noto Naskh Arabic", "DejaVu Sans"]
        }
        0x0900..=0x097F => &["Noto Sans Devanagari"],
        0x0980..=0x09FF => &["Noto Sans Bengali"],
        0x0A00..=0x0A7F => &["Noto Sans Gurmukhi"],
        0x0A80..=0x0AFF => &["Noto Sans Gujarati"],
        0x0B80..=0x0BFF => &["Noto Sans Tamil"],
        0x0C00..=0x0C7F => &["Noto Sans Telugu"],
        0x0C80..=0x0CFF => &["Noto Sans Kannada"],
        0x0D00..=0x0D7F => &["Noto Sans Malayalam"],
        0x0E00..=0x0E7F => &["Noto Sans Thai", "Noto Looped Thai"],
        0x0E80..=0x0EFF => &["Noto Sans Lao"],
        0x10A0..=0x10FF => &["Noto Sans Georgian", "DejaVu Sans"],
        0x0530..=0x058F => &["Noto Sans Armenian", "DejaVu Sans"],
        0x1200..=0x139F => &["Noto Sans Ethiopic"],
        0x1780..=0x17FF => &["Noto Sans Khmer"],
        _ => &["DejaVu Sans", "Noto Sans", "Noto Sans Symbols", "Noto Sans Symbols2", "Noto Sans Math"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::testing::fonts;

    #[test]
    fn calibri_resolves_to_carlito() {
        let (face, how) = fonts().resolve_family("Calibri", false, false).expect("a face");
        assert_eq!(face.family, "Carlito");
        assert_eq!(how, FamilyMatch::Compatible);
    }

    #[test]
    fn cambria_resolves_to_caladea_with_cambria_line_height() {
        let (face, _) = fonts().resolve_family("Cambria", false, false).expect("a face");
        assert_eq!(face.family, "Caladea");
        assert!((face.metrics.line_height - 2388.0 / 2048.0).abs() < 1e-9);
        let (plain, _) = fonts().resolve_family("Caladea", false, false).expect("a face");
        assert!(Arc::ptr_eq(&plain.face, &face.face));
    }

    #[test]
    fn arial_bold_resolves_to_liberation_sans_bold() {
        let (face, _) = fonts().resolve_family("Arial", true, false).expect("a face");
        assert_eq!(face.face.postscript_name, "LiberationSans-Bold");
    }

    #[test]
    fn an_unknown_serif_name_falls_back_to_a_serif_face() {
        let (face, how) = fonts().resolve_family("Garamond Premier", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Serif");
        assert_eq!(how, FamilyMatch::Generic);
    }

    #[test]
    fn a_cjk_character_falls_back_to_noto_cjk() {
        let face = fonts().fallback_for('中', false, false).expect("a face");
        assert!(face.family.starts_with("Noto Sans CJK"), "{}", face.family);
    }

    #[test]
    fn the_css_name_sans_serif_stands_for_arial() {
        let face = fonts().compatible("sans-serif", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Sans");
    }

    #[test]
    fn the_same_face_is_loaded_once() {
        let (a, _) = fonts().resolve_family("Carlito", false, false).expect("a face");
        let (b, _) = fonts().resolve_family("Calibri", false, false).expect("a face");
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn no_fonts_at_all_loads_embedded_dejavu() {
        let dir = tempfile::tempdir().expect("temp dir");
        let book = FontBook::with_sources(&[dir.path().to_path_buf()], false);
        assert!(book.embedded_only());
        let (face, _) = book.resolve_family("Calibri", false, false).expect("a face");
        assert_eq!(face.family, "DejaVu Sans");
    }

    #[test]
    fn the_font_book_can_be_shared_between_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<FontBook>();
    }
}
