//! The font book: installed faces, Word's substitutes, per-glyph fallback, loaded-face cache.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use fontdb::{Database, Family, Query, Source, Stretch, Style, Weight, ID};
use rustybuzz::ttf_parser;

use crate::layout::font_coverage::{self, Coverage};
use crate::layout::font_index::{self, IndexPaths};
use crate::layout::fonts::shadowed;
use crate::layout::east_asian::cjk_family;
use crate::layout::font_metrics::FaceMetrics;
use crate::layout::frame;
use crate::layout::office_metrics;
use crate::layout::shape_cache::ShapeCache;
use crate::layout::space_context::SpaceContext;
use crate::fast_map::FastMap;

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
];

/// Whether `face_family` is a metric-compatible substitute for the family named `lower`
/// (lower-case): one of [`SUBSTITUTES`], made to the original's advances.
pub(crate) fn is_metric_substitute(lower: &str, face_family: &str) -> bool {
    SUBSTITUTES.iter().any(|(n, subs)| *n == lower && subs.iter().any(|s| s.eq_ignore_ascii_case(face_family)))
}

/// Faces packages install outside the font folders: fonts-wine's Tahoma, made to Tahoma's
/// metrics (its Symbol, Wingdings and bitmap faces would shadow the faces the symbol
/// mapping expects, so they stay out).
pub(crate) const PACKAGED_FACES: &[&str] = &["/usr/share/wine/fonts/tahoma.ttf", "/usr/share/wine/fonts/tahomabd.ttf"];

/// CSS generic names left by HTML imports, for when the font table gives no `w:altName`.
/// They are no fonts to Word, which follows the font table's `w:altName` first:
/// `AlexTatulescu_spotify_clone_srs` declares "sans-serif" as roman with altName Times New
/// Roman, and Word's PDF sets its text in Times New Roman.
const CSS_GENERICS: &[(&str, &[&str])] = &[
    ("sans-serif", &["Liberation Sans", "Arimo"]),
    ("serif", &["Liberation Serif", "Tinos"]),
    ("monospace", &["Liberation Mono", "Cousine"]),
];

/// Vertical metrics of Office fonts measured in Word's PDFs where the office metrics table's
/// figures and the East Asian rule (`FaceMetrics::east_asian`) do not give them: (family,
/// line height, ascent) in em. Malgun Gothic lines measure 1.737 em at 10.5 pt and 1.743 em
/// at 9.5 pt with the baseline 1.288 em below the line top
/// (`developer0hye_office2pdf_06_official_letter_ko`); the rule gives 1.729 and 1.288.
/// (Cambria's come from the table: 1946 + 455 of 2048, the pitch of Word's lines, which its
/// Mac PDFs set a quarter point apart in turns of 14.75 and 15.0 pt at 11 pt and 1.15 lines,
/// 14.83 pt on average over `sverrejb_docxide_pdf_input_11`.)
const METRIC_OVERRIDES: &[(&str, f64, f64)] = &[("malgun gothic", 3560.0 / 2048.0, 2638.0 / 2048.0)];

/// Shape plans by direction and script (the features never change).
type PlanCache = FastMap<(rustybuzz::Direction, Option<rustybuzz::Script>), Arc<rustybuzz::ShapePlan>>;

/// Loaded faces by database id and the Office font whose metrics they take, if any.
type FaceCache = FastMap<(ID, Option<StandIn>), Option<Arc<LoadedFace>>>;

/// The Office font a substitute stands in for: its lower-case name (a key of
/// `METRIC_OVERRIDES` or of the office metrics table) and the style asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct StandIn {
    name: &'static str,
    bold: bool,
    italic: bool,
}

/// A font file's bytes, shared by its faces.
type FontData = Arc<dyn AsRef<[u8]> + Send + Sync>;

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
    /// Which characters of each 256-character block of the Basic Multilingual Plane the
    /// face maps, read from the cmap on the block's first use: the layout asks for every
    /// character it sets.
    mapped: Box<[OnceLock<[u64; 4]>]>,
    /// Shape plans built so far, shared by every document and worker.
    plans: Mutex<PlanCache>,
    /// Short pieces shaped so far, shared likewise.
    pub(crate) shapes: ShapeCache,
    /// Where text in the face may be cut into words for shaping, read on first use.
    space: OnceLock<SpaceContext>,
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

    /// The shape plan for a direction and script, built by `build` the first time.
    pub(crate) fn plan(
        &self,
        direction: rustybuzz::Direction,
        script: Option<rustybuzz::Script>,
        build: impl FnOnce() -> rustybuzz::ShapePlan,
    ) -> Arc<rustybuzz::ShapePlan> {
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        plans.entry((direction, script)).or_insert_with(|| Arc::new(build())).clone()
    }

    /// What the face's lookups do around the space glyph.
    pub(crate) fn space_context(&self) -> &SpaceContext {
        self.space.get_or_init(|| SpaceContext::of(&self.rb))
    }

    /// Whether the face maps `c` to a glyph (symbol fonts also through U+F000 + c).
    pub fn has_char(&self, c: char) -> bool {
        let u = u32::from(c);
        let Some(block) = self.mapped.get((u >> 8) as usize) else { return has_glyph(&self.rb, c) };
        let bits = block.get_or_init(|| {
            let mut bits = [0u64; 4];
            for low in 0..256u32 {
                if char::from_u32((u & !0xFF) | low).is_some_and(|c| has_glyph(&self.rb, c)) {
                    bits[(low / 64) as usize] |= 1 << (low % 64);
                }
            }
            bits
        });
        bits[((u & 0xFF) / 64) as usize] & (1 << (u % 64)) != 0
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
    db: Database,
    /// Lower-case family name → the name as the database spells it.
    families: FastMap<String, String>,
    /// Every face in a deterministic order with its position in the database, for the
    /// last-resort glyph search: sorted on the first search.
    scan_order: OnceLock<Vec<(ID, usize)>>,
    faces: Mutex<FaceCache>,
    /// The font files mapped so far, by path.
    files: Mutex<HashMap<PathBuf, FontData>>,
    /// What each face maps, by database position: read once, on the first search.
    coverage: OnceLock<Vec<Coverage>>,
    /// The on-disk index this book was read from or written to, and its generation.
    index: Option<(IndexPaths, [u8; 8])>,
    /// Whether only the embedded DejaVu fonts are available.
    embedded_only: bool,
}

impl std::fmt::Debug for FontBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FontBook").field("families", &self.families.len()).finish()
    }
}

impl FontBook {
    /// Loads system fonts plus `extra_dirs` through the font index in the user's cache
    /// folder; with no font at all, the embedded fallback.
    pub fn load(extra_dirs: &[PathBuf]) -> FontBook {
        FontBook::with_cache(extra_dirs, true, Some(&font_index::default_cache_dir()))
    }

    /// Loads the fonts of `dirs`, and the system's when `system` is set, scanning every
    /// file (tests use an empty folder without system fonts to reach the embedded fallback).
    #[cfg(test)]
    pub(crate) fn with_sources(dirs: &[PathBuf], system: bool) -> FontBook {
        FontBook::with_cache(dirs, system, None)
    }

    /// Loads the fonts of `dirs` (and the system's when `system` is set) from the index in
    /// `cache_dir` when it is still valid; otherwise scans every font file and writes the
    /// index for the next process. Scanning costs tens of milliseconds and hundreds of
    /// file mappings, more than a whole small conversion.
    pub fn with_cache(dirs: &[PathBuf], system: bool, cache_dir: Option<&Path>) -> FontBook {
        let paths = cache_dir.map(|c| IndexPaths::new(c, dirs, system));
        let cached = paths.as_ref().and_then(|p| font_index::load(p).map(|(db, generation)| (db, (p.clone(), generation))));
        let (mut db, index) = match cached {
            Some((db, index)) => (db, Some(index)),
            None => {
                let mut db = Database::new();
                if system {
                    db.load_system_fonts();
                    for file in PACKAGED_FACES.iter().map(Path::new).filter(|f| f.exists()) {
                        // A file that does not parse is skipped, as in the system folders.
                        let _ = db.load_font_file(file);
                    }
                }
                for dir in dirs {
                    db.load_fonts_dir(dir);
                }
                shadowed::drop_shadowed(&mut db);
                let index = match &paths {
                    Some(p) if !db.is_empty() => font_index::store(p, &db, dirs, system).map(|generation| (p.clone(), generation)),
                    _ => None,
                };
                (db, index)
            }
        };
        let embedded_only = db.is_empty();
        if embedded_only {
            tracing::warn!(
                "no system fonts found; install fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-wine (or pass --font-dir)"
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
        let mut families = FastMap::default();
        for face in db.faces() {
            for (name, _) in &face.families {
                families.entry(name.to_lowercase()).or_insert_with(|| name.clone());
            }
        }
        FontBook {
            db,
            families,
            scan_order: OnceLock::new(),
            faces: Mutex::new(FastMap::default()),
            files: Mutex::new(HashMap::new()),
            coverage: OnceLock::new(),
            index,
            embedded_only,
        }
    }

    /// Every face by first family name, PostScript name and id, with its position in the
    /// database. Sorted when first needed: most documents never search every face, and
    /// the sort was 0.45 M instructions of a one-page conversion's 22 M (callgrind).
    fn scan_order(&self) -> &[(ID, usize)] {
        self.scan_order.get_or_init(|| {
            let faces: Vec<_> = self.db.faces().collect();
            let key = |position: usize| {
                let face = faces[position];
                (face.families.first().map_or("", |f| f.0.as_str()), face.post_script_name.as_str(), face.id)
            };
            let mut order: Vec<usize> = (0..faces.len()).collect();
            order.sort_unstable_by(|&a, &b| key(a).cmp(&key(b)));
            order.into_iter().map(|position| (faces[position].id, position)).collect()
        })
    }

    /// The coverage of every face, from the file beside the index when it matches, else
    /// read from the cmaps (once per process) and written there for the next one.
    fn coverage(&self) -> &[Coverage] {
        self.coverage.get_or_init(|| {
            let faces = self.db.len();
            let stored = self.index.as_ref().and_then(|(p, generation)| font_coverage::load(&p.coverage, generation, faces));
            if let Some(found) = stored {
                return found;
            }
            let computed = font_coverage::compute(&self.db);
            if let Some((p, generation)) = &self.index {
                font_coverage::store(&p.coverage, generation, &computed);
            }
            computed
        })
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
        self.db.query(&Query {
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
        if let Some(face) = self.compatible(name, bold, italic).or_else(|| self.css_generic(name, bold, italic)) {
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

    /// The face a CSS generic name (`sans-serif`, `serif`, `monospace`) stands for.
    pub(crate) fn css_generic(&self, name: &str, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        let lower = name.trim().to_lowercase();
        let (_, subs) = CSS_GENERICS.iter().find(|(n, _)| *n == lower)?;
        subs.iter().find_map(|sub| self.installed(sub, bold, italic))
    }

    /// An installed family standing in for `original`, taking the original's metrics where
    /// they are known (Word measures lines and sets text with the original): vertical ones
    /// from `METRIC_OVERRIDES` or the office metrics table, advances from the table.
    pub(crate) fn installed_as(&self, family: &str, bold: bool, italic: bool, original: &str) -> Option<Arc<LoadedFace>> {
        self.installed_as_weighing(family, bold, bold, italic, original)
    }

    /// As [`FontBook::installed_as`], drawn with the substitute's bold face when `heavy`
    /// while the original's `bold` style gives the metrics.
    fn installed_as_weighing(&self, family: &str, heavy: bool, bold: bool, italic: bool, original: &str) -> Option<Arc<LoadedFace>> {
        // An East Asian family under any of its names (宋体 is SimSun) takes the metrics of
        // its canonical one.
        let lower = match cjk_family(original) {
            Some((canonical, _, _)) => canonical.to_owned(),
            None => original.trim().to_lowercase(),
        };
        let name = METRIC_OVERRIDES
            .iter()
            .find(|(n, _, _)| *n == lower)
            .map(|(n, _, _)| *n)
            .or_else(|| office_metrics::family(&lower).map(|(n, _)| n));
        self.query(family, heavy, italic).and_then(|id| self.face_as(id, name.map(|name| StandIn { name, bold, italic })))
    }

    /// A generic face of a kind standing in for `original` with the original's metrics, if
    /// the office metrics table has them.
    pub(crate) fn emulated(&self, kind: Generic, bold: bool, italic: bool, original: &str) -> Option<Arc<LoadedFace>> {
        let lower = original.trim().to_lowercase();
        office_metrics::family(&lower)?;
        // A family whose every face is heavy (Arial Black) is drawn with the substitute's
        // bold face: its regular one, stretched to the original's advances, looks light
        // beside Word's (Amanult_quatro-em-linha_Relatorio's cover, corpus/word).
        let heavy = bold || lower.ends_with(" black") || lower.ends_with(" heavy");
        fallbacks(kind).iter().find_map(|fam| self.installed_as_weighing(fam, heavy, bold, italic, original))
    }

    /// A generic face of a kind (Liberation Serif, Sans or Mono first), else any face at all.
    pub(crate) fn generic(&self, kind: Generic, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        for fam in fallbacks(kind).iter().chain(SANS_FALLBACK) {
            if let Some(face) = self.installed(fam, bold, italic) {
                return Some(face);
            }
        }
        self.scan_order().iter().find_map(|(id, _)| self.face(*id))
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
        // Every face's cmap coverage, read once: parsing each installed face per missing
        // character cost seconds on symbol-heavy documents (`docx4j__Symbols`).
        let coverage = self.coverage();
        let id = self.scan_order().iter().find(|(_, position)| coverage.get(*position).is_some_and(|cov| cov.contains(c)));
        id.and_then(|(id, _)| self.face(*id))
    }

    /// A loaded face by database id (loaded once, then shared).
    fn face(&self, id: ID) -> Option<Arc<LoadedFace>> {
        self.face_as(id, None)
    }

    /// A loaded face, with the metrics of the Office font it stands in for.
    fn face_as(&self, id: ID, stand_in: Option<StandIn>) -> Option<Arc<LoadedFace>> {
        let mut faces = self.faces.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = faces.get(&(id, stand_in)) {
            return f.clone();
        }
        let loaded = match stand_in {
            None => self.load_face(id),
            Some(stand_in) => {
                let base = match faces.get(&(id, None)) {
                    Some(f) => f.clone(),
                    None => {
                        let f = self.load_face(id);
                        faces.insert((id, None), f.clone());
                        f
                    }
                };
                base.and_then(|b| b.standing_in(stand_in).map(Arc::new))
            }
        };
        faces.insert((id, stand_in), loaded.clone());
        loaded
    }

    fn load_face(&self, id: ID) -> Option<Arc<LoadedFace>> {
        let info = self.db.face(id)?;
        let family = info.families.first().map(|f| f.0.clone()).unwrap_or_default();
        let postscript_name = if info.post_script_name.is_empty() {
            family.replace(' ', "")
        } else {
            info.post_script_name.clone()
        };
        let data = match &info.source {
            Source::File(path) => {
                let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(data) = files.get(path) {
                    data.clone()
                } else {
                    let data = map_file(path)?;
                    files.insert(path.clone(), data.clone());
                    data
                }
            }
            Source::SharedFile(_, data) | Source::Binary(data) => data.clone(),
        };
        LoadedFace::from_data(data, info.index, family, postscript_name).map(Arc::new)
    }
}

/// The bytes of a font file, memory-mapped. fontdb's own `make_shared_face_data` does the
/// same and then compares the path with every face's path to share the mapping: 1.2 M
/// instructions of path comparisons for the five faces of a one-page conversion
/// (callgrind). The font book keeps one mapping per file in a map instead, so the faces
/// of a collection (Noto Sans CJK's five languages) share theirs.
fn map_file(path: &Path) -> Option<FontData> {
    let file = std::fs::File::open(path).ok()?;
    // SAFETY: a font file rewritten while mapped could change under us. Font folders are
    // read-only system data, the same trade-off every mmap-based font stack makes.
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    Some(Arc::new(map))
}

impl LoadedFace {
    /// Parses a font file (or one face of a collection) into a face with a fresh
    /// process-wide id, so the PDF writer embeds and subsets it like any other.
    pub(crate) fn from_data(
        data: FontData,
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
            emulation: None,
        });
        let mapped = (0..256).map(|_| OnceLock::new()).collect();
        Some(LoadedFace { rb, face, metrics, family, mapped, plans: Mutex::new(FastMap::default()), shapes: ShapeCache::default(), space: OnceLock::new() })
    }
}

impl LoadedFace {
    /// This face standing in for an Office font: the original's vertical metrics (those
    /// measured in Word's PDFs in `METRIC_OVERRIDES` first, then the table's) and, when
    /// the table has the style asked for, its advances, in a face of its own for the PDF.
    fn standing_in(&self, stand_in: StandIn) -> Option<LoadedFace> {
        let bytes: &[u8] = self.face.bytes();
        // SAFETY: as in `from_data`: the bytes belong to `self.face.data`, which the new
        // face keeps alive and outlives `rb`.
        let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
        let rb = rustybuzz::Face::from_slice(bytes, self.face.index)?;
        let mut metrics = self.metrics;
        let office = office_metrics::family(stand_in.name).map(|(_, f)| f);
        if let Some(v) = office.and_then(|f| f.vertical(stand_in.bold, stand_in.italic)) {
            metrics = metrics.with_vertical(v.upm, v.win, v.hhea);
            if cjk_family(stand_in.name).is_some() {
                metrics = metrics.east_asian();
            }
        }
        if let Some((_, height, ascent)) = METRIC_OVERRIDES.iter().find(|(n, _, _)| *n == stand_in.name) {
            metrics.line_height = *height;
            metrics.line_ascent = *ascent;
        }
        let face = match office.and_then(|f| f.style(stand_in.bold, stand_in.italic)) {
            Some(widths) => Arc::new(frame::Face {
                id: NEXT_FACE_ID.fetch_add(1, Ordering::Relaxed),
                data: self.face.data.clone(),
                index: self.face.index,
                postscript_name: self.face.postscript_name.clone(),
                emulation: Some(Arc::new(office_metrics::emulation(&rb, widths))),
            }),
            None => self.face.clone(),
        };
        Some(LoadedFace {
            rb,
            face,
            metrics,
            family: self.family.clone(),
            mapped: self.mapped.clone(),
            plans: Mutex::new(FastMap::default()),
            shapes: ShapeCache::default(),
            space: OnceLock::new(),
        })
    }
}

/// The generic families of a kind, in order.
fn fallbacks(kind: Generic) -> &'static [&'static str] {
    match kind {
        Generic::Serif => SERIF_FALLBACK,
        Generic::Mono => MONO_FALLBACK,
        Generic::Sans => SANS_FALLBACK,
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
    fn cambria_resolves_to_caladea_with_cambria_line_height_and_advances() {
        let (face, _) = fonts().resolve_family("Cambria", false, false).expect("a face");
        assert_eq!(face.family, "Caladea");
        assert!((face.metrics.line_height - 2401.0 / 2048.0).abs() < 1e-9, "{}", face.metrics.line_height);
        // Caladea's advances are not Cambria's (assets/office_metrics): Cambria gets a face
        // of its own that carries Word's widths, Caladea asked for by name keeps its own.
        assert!(face.face.emulation.is_some());
        let (plain, _) = fonts().resolve_family("Caladea", false, false).expect("a face");
        assert!(plain.face.emulation.is_none());
        assert!(!Arc::ptr_eq(&plain.face, &face.face));
    }

    #[test]
    fn tahoma_comes_from_fonts_wine() {
        let (face, how) = fonts().resolve_family("Tahoma", true, false).expect("a face");
        assert_eq!((face.family.as_str(), how), ("Tahoma", FamilyMatch::Exact));
        assert!(face.face.emulation.is_none());
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
        let face = fonts().css_generic("sans-serif", false, false).expect("a face");
        assert_eq!(face.family, "Liberation Sans");
    }

    #[test]
    fn the_block_bitmaps_agree_with_the_cmap() {
        let book = fonts();
        for family in ["Liberation Sans", "Noto Sans CJK JP", "DejaVu Sans"] {
            let face = book.installed(family, false, false).expect("an installed face");
            for c in ['A', 'é', 'Ω', 'Ж', '€', '中', 'ア', '가', '\u{F0B7}', '\u{1F600}', '\u{10FFFF}'] {
                assert_eq!(face.has_char(c), has_glyph(&face.rb, c), "{family} {c:?}");
            }
            // The whole of two blocks, read once and asked again.
            for u in (0x0300..0x0500).chain(0x0300..0x0500) {
                let c = char::from_u32(u).expect("a character");
                assert_eq!(face.has_char(c), has_glyph(&face.rb, c), "{family} U+{u:04X}");
            }
        }
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
    fn a_book_read_from_the_font_index_resolves_like_a_scanned_one() {
        let cache = tempfile::tempdir().expect("temp dir");
        let scanned = FontBook::with_sources(&[], true);
        let written = FontBook::with_cache(&[], true, Some(cache.path()));
        let read = FontBook::with_cache(&[], true, Some(cache.path()));
        assert!(read.index.is_some());
        let names = |b: &FontBook| {
            b.scan_order().iter().map(|(id, _)| b.db.face(*id).map(|f| f.post_script_name.clone())).collect::<Vec<_>>()
        };
        assert_eq!(names(&scanned), names(&read));
        assert_eq!(names(&written), names(&read));
        assert_eq!(scanned.families, read.families);
        for (name, bold, italic) in [("Calibri", false, false), ("Arial", true, true), ("Cambria", true, false), ("Nowhere", false, false)] {
            let a = scanned.resolve_family(name, bold, italic).map(|(f, how)| (f.face.postscript_name.clone(), how));
            let b = read.resolve_family(name, bold, italic).map(|(f, how)| (f.face.postscript_name.clone(), how));
            assert_eq!(a, b, "{name}");
        }
    }

    #[test]
    fn the_glyph_search_through_the_coverage_file_finds_what_a_cmap_scan_finds() {
        let cache = tempfile::tempdir().expect("temp dir");
        let fonts = tempfile::tempdir().expect("temp dir");
        for (name, data) in [("a.ttf", dejavu::sans_mono::regular()), ("b.ttf", dejavu::serif::regular()), ("c.ttf", dejavu::sans::regular())] {
            std::fs::write(fonts.path().join(name), data).expect("font written");
        }
        let dirs = [fonts.path().to_path_buf()];
        let first = FontBook::with_cache(&dirs, false, Some(cache.path()));
        let second = FontBook::with_cache(&dirs, false, Some(cache.path()));
        for c in ['A', '\u{2713}', '\u{0416}', '\u{1F600}', '中', '\u{F0FC}', '\u{25A0}'] {
            let db = &second.db;
            let scan = second.scan_order().iter().find(|(id, _)| {
                db.with_face_data(*id, |data, index| ttf_parser::Face::parse(data, index).is_ok_and(|f| has_glyph(&f, c))).unwrap_or(false)
            });
            let want = scan.and_then(|(id, _)| db.face(*id)).map(|f| f.post_script_name.clone());
            assert_eq!(first.fallback_for(c, false, false).map(|f| f.face.postscript_name.clone()), want, "{c}");
            assert_eq!(second.fallback_for(c, false, false).map(|f| f.face.postscript_name.clone()), want, "{c}");
        }
        let (paths, generation) = second.index.as_ref().expect("index");
        assert!(font_coverage::load(&paths.coverage, generation, second.db.len()).is_some());
    }

    #[test]
    fn a_font_added_to_a_folder_invalidates_the_index() {
        let cache = tempfile::tempdir().expect("temp dir");
        let fonts = tempfile::tempdir().expect("temp dir");
        std::fs::write(fonts.path().join("sans.ttf"), dejavu::sans::regular()).expect("font written");
        let dirs = [fonts.path().to_path_buf()];
        let first = FontBook::with_cache(&dirs, false, Some(cache.path()));
        assert!(first.has_family("DejaVu Sans") && !first.has_family("DejaVu Serif"));
        assert!(font_index::load(&IndexPaths::new(cache.path(), &dirs, false)).is_some());
        // Folder mtimes tick with the kernel's coarse clock: let it move on.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(fonts.path().join("serif.ttf"), dejavu::serif::regular()).expect("font written");
        assert!(font_index::load(&IndexPaths::new(cache.path(), &dirs, false)).is_none());
        let second = FontBook::with_cache(&dirs, false, Some(cache.path()));
        assert!(second.has_family("DejaVu Serif"));
    }

    #[test]
    fn an_unwritable_cache_folder_only_costs_the_scan() {
        let file = tempfile::NamedTempFile::new().expect("temp file");
        let fonts = tempfile::tempdir().expect("temp dir");
        std::fs::write(fonts.path().join("sans.ttf"), dejavu::sans::regular()).expect("font written");
        let book = FontBook::with_cache(&[fonts.path().to_path_buf()], false, Some(&file.path().join("cache")));
        assert!(book.has_family("DejaVu Sans"));
        assert_eq!(book.fallback_for('A', false, false).map(|f| f.family.clone()).as_deref(), Some("DejaVu Sans"));
    }

    #[test]
    fn the_font_book_can_be_shared_between_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<FontBook>();
    }
}
