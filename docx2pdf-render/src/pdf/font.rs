//! The fonts a document uses: one entry per `Face` in first-use order, with its glyph remapping and the text behind each glyph.

use pdf_writer::Ref;
use rustybuzz::ttf_parser;
use subsetter::GlyphRemapper;

use super::document::Refs;
use super::missing::Missing;
use super::PdfError;
use std::sync::Arc;

use crate::frame::{Face, Glyph, GlyphText};

/// One face as it will be embedded: a subset holding exactly the glyphs the pages showed.
/// It owns what it keeps of the pages (the face, the text behind each glyph), so that a
/// page can be dropped once it is written.
pub(super) struct UsedFont {
    /// The face from the layout.
    pub(super) face: Arc<Face>,
    /// The Type0 font dictionary that pages reference.
    pub(super) type0: Ref,
    /// The key in page resource dictionaries (`F0`, `F1`, …).
    pub(super) resource: String,
    /// Old glyph id → new glyph id; the new id is also the CID shown in content streams.
    pub(super) remapper: GlyphRemapper,
    /// The text behind each CID (index = CID), empty when unknown; feeds ToUnicode.
    pub(super) texts: Vec<GlyphText>,
    /// The width of each CID (see [`UsedFont::width`]), worked out when it is first shown.
    pub(super) widths: Vec<f32>,
    /// The .notdef glyphs shown: characters no available face has.
    pub(super) missing: Missing,
}

impl UsedFont {
    /// The face parsed, for its metrics and tables.
    pub(super) fn ttf(&self) -> Result<ttf_parser::Face<'_>, PdfError> {
        parse(&self.face)
    }

    /// The advance of an original glyph in 1000-unit glyph space, the unit of the W array
    /// and of TJ adjustments (ISO 32000-1 §9.2.4). The content stream and the W array
    /// both take it from `widths`, so the positions a viewer computes match the ones we
    /// assume. A face standing in for an Office font has the original's advances, drawn
    /// at the face's horizontal scale (`scale`): its widths are divided by it.
    fn width(&self, ttf: &ttf_parser::Face<'_>, glyph: u16) -> f32 {
        let advance = ttf.glyph_hor_advance(ttf_parser::GlyphId(glyph)).unwrap_or(0);
        let units = f32::from(ttf.units_per_em());
        match &self.face.emulation {
            Some(e) if advance != 0 => ((i32::from(advance) + e.delta(glyph)) as f32 * 1000.0 / units / self.scale()).max(0.0),
            _ => f32::from(advance) * 1000.0 / units,
        }
    }

    /// The horizontal scale the face's glyphs are drawn at (Tz / 100, §9.3.4).
    pub(super) fn scale(&self) -> f32 {
        self.face.emulation.as_ref().map_or(1.0, |e| e.scale as f32)
    }
}

fn parse(face: &Face) -> Result<ttf_parser::Face<'_>, PdfError> {
    ttf_parser::Face::parse(face.bytes(), face.index).map_err(|_| PdfError::FontParse { name: face.postscript_name.clone() })
}

/// Every font used so far, in first-use order so that output is deterministic.
#[derive(Default)]
pub(super) struct FontSet {
    fonts: Vec<UsedFont>,
    /// The face id and index of the last lookup: runs mostly repeat the previous face.
    last: Option<(u32, usize)>,
}

impl FontSet {
    /// The index of `face`, registering it (and allocating its Type0 reference) on first use.
    pub(super) fn font(&mut self, face: &Arc<Face>, refs: &mut Refs) -> Result<usize, PdfError> {
        if let Some((id, index)) = self.last {
            if id == face.id {
                return Ok(index);
            }
        }
        let index = match self.fonts.iter().position(|f| f.face.id == face.id) {
            Some(index) => index,
            None => {
                let ttf = parse(face)?;
                let index = self.fonts.len();
                let mut font = UsedFont {
                    face: face.clone(),
                    type0: refs.alloc(),
                    resource: format!("F{index}"),
                    remapper: GlyphRemapper::new(),
                    // CID 0 is .notdef, which the remapper always holds.
                    texts: vec![GlyphText::EMPTY],
                    widths: Vec::new(),
                    missing: Missing::default(),
                };
                font.widths.push(font.width(&ttf, 0));
                self.fonts.push(font);
                index
            }
        };
        self.last = Some((face.id, index));
        Ok(index)
    }

    /// Records that `glyphs` are shown in font `font`, in this order; puts each one's CID
    /// and natural width (1000-unit glyph space) in `out`. The face is parsed once for
    /// the glyphs it has not shown before.
    pub(super) fn show<'g>(
        &mut self,
        font: usize,
        glyphs: impl Iterator<Item = &'g Glyph>,
        out: &mut Vec<(u16, f32)>,
    ) -> Result<(), PdfError> {
        let used = &mut self.fonts[font];
        // The glyph ids of the CIDs allocated here, which follow the known ones in order.
        let mut fresh = Vec::new();
        out.clear();
        for glyph in glyphs {
            let cid = used.remapper.remap(glyph.id);
            let slot = usize::from(cid);
            if glyph.id == 0 {
                // .notdef stands for whatever the face lacks: it maps to no text, or every
                // missing character would read as the first one met (the painter gives
                // each run its own text with /ActualText).
                used.missing.count(&glyph.text);
            } else if slot == used.texts.len() {
                used.texts.push(glyph.text.clone());
                fresh.push(glyph.id);
            } else if used.texts[slot].is_empty() {
                // The first non-empty text wins: a glyph seen first as a cluster's tail
                // (empty text) may later start a cluster of its own.
                used.texts[slot] = glyph.text.clone();
            }
            out.push((cid, 0.0));
        }
        if !fresh.is_empty() {
            let ttf = parse(&used.face)?;
            let widths: Vec<f32> = fresh.iter().map(|&id| used.width(&ttf, id)).collect();
            used.widths.extend(widths);
        }
        for (cid, width) in out.iter_mut() {
            *width = used.widths[usize::from(*cid)];
        }
        Ok(())
    }

    /// The font at `index`.
    pub(super) fn get(&self, index: usize) -> &UsedFont {
        &self.fonts[index]
    }

    /// All fonts in first-use order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &UsedFont> {
        self.fonts.iter()
    }
}
