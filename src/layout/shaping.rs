//! Shaping with rustybuzz: text in one face → glyph ids, advances and clusters in font units.

use rustybuzz::ttf_parser::Tag;
use rustybuzz::{Direction, Feature, UnicodeBuffer};

use super::fonts::LoadedFace;

/// One shaped glyph in font units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawGlyph {
    /// Glyph id in the face.
    pub id: u16,
    /// Horizontal advance.
    pub advance: i32,
    /// Horizontal offset from the pen.
    pub x_offset: i32,
    /// Vertical offset from the pen (up).
    pub y_offset: i32,
    /// Byte offset of the cluster's first character in the shaped text.
    pub cluster: u32,
}

/// Shapes `text` in `face`, left to right or right to left. Kerning stays on; standard
/// ligatures are off because Word only applies them with `w14:ligatures` (notes §13).
pub(crate) fn shape(face: &LoadedFace, text: &str, rtl: bool) -> Vec<RawGlyph> {
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    buffer.set_direction(if rtl { Direction::RightToLeft } else { Direction::LeftToRight });
    let features = [
        Feature::new(Tag::from_bytes(b"liga"), 0, ..),
        Feature::new(Tag::from_bytes(b"clig"), 0, ..),
        Feature::new(Tag::from_bytes(b"kern"), 1, ..),
    ];
    let out = rustybuzz::shape(face.shaper(), &features, buffer);
    out.glyph_infos()
        .iter()
        .zip(out.glyph_positions())
        .map(|(info, pos)| RawGlyph {
            id: u16::try_from(info.glyph_id).unwrap_or(0),
            advance: pos.x_advance,
            x_offset: pos.x_offset,
            y_offset: pos.y_offset,
            cluster: info.cluster,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::testing::fonts;

    #[test]
    fn every_character_gets_a_glyph_with_its_cluster() {
        let (face, _) = fonts().resolve_family("Liberation Sans", false, false).expect("a face");
        let glyphs = shape(&face, "Hello", false);
        assert_eq!(glyphs.len(), 5);
        assert_eq!(glyphs.iter().map(|g| g.cluster).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert!(glyphs.iter().all(|g| g.id != 0 && g.advance > 0));
    }

    #[test]
    fn ligatures_stay_off() {
        let (face, _) = fonts().resolve_family("DejaVu Sans", false, false).expect("a face");
        assert_eq!(shape(&face, "fi", false).len(), 2);
    }
}
