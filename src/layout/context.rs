//! Per-document layout state: fonts resolved once per family, shaping cache, warnings.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::fonts::{FamilyMatch, FontBook, LoadedFace};
use super::shaping::{shape, RawGlyph};
use crate::render::deadline::Deadline;
use crate::units::Pt;
use crate::warning::Warning;

type ShapeKey = (u32, bool, String);
/// A family, weight and slant → the face found and how.
type FamilyCache = HashMap<(Arc<str>, bool, bool), Option<(Arc<LoadedFace>, FamilyMatch)>>;

/// What every layout step of one document shares.
pub(crate) struct Ctx<'f> {
    fonts: &'f FontBook,
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
    warnings: Vec<Warning>,
    warned: HashSet<(&'static str, String)>,
    families: FamilyCache,
    fallbacks: HashMap<(char, bool, bool), Option<Arc<LoadedFace>>>,
    shapes: HashMap<ShapeKey, Arc<[RawGlyph]>>,
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
            deadline,
            default_tab_stop,
            compatibility_mode,
            expand_shift_return,
            table_depth: 0,
            warnings: Vec::new(),
            warned: HashSet::new(),
            families: HashMap::new(),
            fallbacks: HashMap::new(),
            shapes: HashMap::new(),
        };
        if fonts.embedded_only() {
            ctx.warn("fonts_missing", "no fonts installed; the embedded DejaVu fonts stand in for every family".to_string());
        }
        ctx
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
        let found = self.fonts.resolve_family(family, bold, italic);
        if let Some((face, FamilyMatch::Generic)) = &found {
            self.warn("font_substituted", format!("font \"{family}\" is not installed; using \"{}\"", face.family));
        }
        if found.is_none() {
            self.warn("font_missing", format!("no face at all for font \"{family}\""));
        }
        self.families.insert(key, found.clone());
        found
    }

    /// Whether `family` is installed under that very name.
    pub fn has_family(&self, family: &str) -> bool {
        self.fonts.has_family(family)
    }

    /// A face that has `c`, for characters the chosen face lacks.
    pub fn fallback(&mut self, c: char, bold: bool, italic: bool) -> Option<Arc<LoadedFace>> {
        if let Some(f) = self.fallbacks.get(&(c, bold, italic)) {
            return f.clone();
        }
        let face = self.fonts.fallback_for(c, bold, italic);
        self.fallbacks.insert((c, bold, italic), face.clone());
        face
    }

    /// Shapes `text` in `face`, cached per document.
    pub fn shape(&mut self, face: &LoadedFace, text: &str, rtl: bool) -> Arc<[RawGlyph]> {
        let key = (face.face.id, rtl, text.to_string());
        if let Some(s) = self.shapes.get(&key) {
            return s.clone();
        }
        let glyphs: Arc<[RawGlyph]> = shape(face, text, rtl).into();
        self.shapes.insert(key, glyphs.clone());
        glyphs
    }
}
