//! Shaping with rustybuzz: text in one face → glyph ids, advances and clusters in font units.

use rustybuzz::ttf_parser::Tag;
use rustybuzz::{script, Direction, Feature, ShapePlan, UnicodeBuffer};

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

/// Shapes `text` in `face`, left to right or right to left, with the face's shape plan
/// for the direction and script (building a plan costs more than shaping a word).
pub(crate) fn shape(face: &LoadedFace, text: &str, rtl: bool) -> Vec<RawGlyph> {
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    let direction = if rtl { Direction::RightToLeft } else { Direction::LeftToRight };
    buffer.set_direction(direction);
    // The guess leaves the script unset (read back as UNKNOWN) for text of common
    // characters only; the plan must be built for exactly what the buffer holds.
    let script = Some(buffer.script()).filter(|s| *s != script::UNKNOWN);
    let plan = face.plan(direction, script, || ShapePlan::new(face.shaper(), direction, script, None, &features()));
    let out = rustybuzz::shape_with_plan(face.shaper(), &plan, buffer);
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

/// Kerning stays on; standard ligatures are off because Word only applies them with
/// `w14:ligatures` (notes §13).
fn features() -> [Feature; 3] {
    [
        Feature::new(Tag::from_bytes(b"liga"), 0, ..),
        Feature::new(Tag::from_bytes(b"clig"), 0, ..),
        Feature::new(Tag::from_bytes(b"kern"), 1, ..),
    ]
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
    fn a_cached_plan_shapes_as_a_fresh_one() {
        let (face, _) = fonts().resolve_family("Liberation Serif", false, false).expect("a face");
        for (text, rtl) in [("AVATAR Wo 12", false), ("1234", false), ("AVATAR", false), ("שלום", true)] {
            let mut buffer = UnicodeBuffer::new();
            buffer.push_str(text);
            buffer.guess_segment_properties();
            buffer.set_direction(if rtl { Direction::RightToLeft } else { Direction::LeftToRight });
            let fresh = rustybuzz::shape(face.shaper(), &features(), buffer);
            let cached = shape(&face, text, rtl);
            let ids: Vec<u16> = fresh.glyph_infos().iter().map(|g| g.glyph_id as u16).collect();
            let advances: Vec<i32> = fresh.glyph_positions().iter().map(|p| p.x_advance).collect();
            assert_eq!(cached.iter().map(|g| g.id).collect::<Vec<_>>(), ids, "{text}");
            assert_eq!(cached.iter().map(|g| g.advance).collect::<Vec<_>>(), advances, "{text}");
        }
    }

    #[test]
    fn ligatures_stay_off() {
        let (face, _) = fonts().resolve_family("DejaVu Sans", false, false).expect("a face");
        assert_eq!(shape(&face, "fi", false).len(), 2);
    }
}
