//! Font descriptors (ISO 32000-1 §9.8): flags and metrics read from a face's head, hhea, OS/2 and post tables.

use pdf_writer::types::FontFlags;
use pdf_writer::writers::FontDescriptor;
use pdf_writer::{Chunk, Name, Rect, Ref};
use rustybuzz::ttf_parser::{self, Tag};

/// OS/2 sFamilyClass values (high byte) of the serif classes: oldstyle, transitional,
/// modern, clarendon, slab and freeform serifs (OpenType spec, IBM font classes).
const SERIF_CLASSES: [u8; 6] = [1, 2, 3, 4, 5, 7];

/// Writes the descriptor of `ttf` named `name`; the caller adds the font file entry.
pub(super) fn write<'c>(
    chunk: &'c mut Chunk,
    id: Ref,
    name: Name,
    ttf: &ttf_parser::Face,
) -> FontDescriptor<'c> {
    // Glyph space has 1000 units per em in every PDF font dictionary (§9.2.4).
    let scale = 1000.0 / f32::from(ttf.units_per_em());
    let to_pdf = |v: i16| (f32::from(v) * scale).round();

    let mut flags = FontFlags::empty();
    flags.set(FontFlags::FIXED_PITCH, ttf.is_monospaced());
    flags.set(FontFlags::SERIF, is_serif(ttf));
    // Symbolic: CID fonts address glyphs, not the standard Latin set (§9.8.2).
    flags.insert(FontFlags::SYMBOLIC);
    flags.set(
        FontFlags::ITALIC,
        ttf.is_italic() || ttf.italic_angle() != 0.0,
    );

    let bbox = ttf.global_bounding_box();
    let cap_height = cap_height(ttf);
    // No table records the vertical stem width; this common estimate from the weight
    // class gives 88 for regular (400) and 166 for bold (700).
    let weight = f32::from(ttf.weight().to_number());
    let stem_v = (50.0 + (weight / 65.0).powi(2)).round();

    let mut descriptor = chunk.font_descriptor(id);
    descriptor
        .name(name)
        .flags(flags)
        .bbox(Rect::new(
            to_pdf(bbox.x_min),
            to_pdf(bbox.y_min),
            to_pdf(bbox.x_max),
            to_pdf(bbox.y_max),
        ))
        .italic_angle(ttf.italic_angle())
        .ascent(to_pdf(ttf.ascender()))
        .descent(to_pdf(ttf.descender()))
        .cap_height(to_pdf(cap_height))
        .stem_v(stem_v);
    descriptor
}

/// The OS/2 cap height (version 2 and later), else the top of `H`, else the ascender.
fn cap_height(ttf: &ttf_parser::Face) -> i16 {
    ttf.capital_height()
        .filter(|&h| h > 0)
        .or_else(|| {
            let h = ttf.glyph_index('H')?;
            Some(ttf.glyph_bounding_box(h)?.y_max)
        })
        .unwrap_or_else(|| ttf.ascender())
}

/// Whether the OS/2 family class says the face has serifs.
fn is_serif(ttf: &ttf_parser::Face) -> bool {
    ttf.raw_face()
        .table(Tag::from_bytes(b"OS/2"))
        .and_then(|os2| os2.get(30).copied())
        .is_some_and(|class| SERIF_CLASSES.contains(&class))
}
