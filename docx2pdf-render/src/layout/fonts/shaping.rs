//! Shaping with rustybuzz: text in one face → glyph ids, advances and clusters in font units.

use rustybuzz::ttf_parser::{GlyphId, Tag};
use rustybuzz::{script, Direction, Feature, Script, ShapePlan, UnicodeBuffer};

use crate::layout::fonts::LoadedFace;
use crate::layout::space_context::SpaceContext;

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

/// Shapes `text` in `face`, left to right or right to left, kerned or not, with the face's
/// shape plan for the direction, kerning and script (building a plan costs more than
/// shaping a word).
pub(crate) fn shape(face: &LoadedFace, text: &str, rtl: bool, kern: bool) -> Vec<RawGlyph> {
    shape_in(face, text, rtl, kern, None)
}

/// Shapes `text` in `script`, or in the script guessed from the text when `None`.
fn shape_in(face: &LoadedFace, text: &str, rtl: bool, kern: bool, script: Option<Script>) -> Vec<RawGlyph> {
    let mut buffer = take_buffer();
    buffer.push_str(text);
    if let Some(script) = script {
        buffer.set_script(script);
    }
    buffer.guess_segment_properties();
    let direction = if rtl { Direction::RightToLeft } else { Direction::LeftToRight };
    buffer.set_direction(direction);
    // The guess leaves the script unset (read back as UNKNOWN) for text of common
    // characters only; the plan must be built for exactly what the buffer holds.
    let script = Some(buffer.script()).filter(|s| *s != script::UNKNOWN);
    run(face, &plan_for(face, direction, script), buffer, kern)
}

/// The face's plan for a direction and script.
fn plan_for(face: &LoadedFace, direction: Direction, script: Option<Script>) -> std::sync::Arc<ShapePlan> {
    face.plan(direction, script, || ShapePlan::new(face.shaper(), direction, script, None, &features()))
}

/// Shapes what `buffer` holds and hands the buffer back to the thread for the next text.
/// Unkerned text keeps each glyph's own advance (the shaper's pair adjustments dropped;
/// switching the `kern` feature off instead left right-to-left glyphs in logical order).
fn run(face: &LoadedFace, plan: &ShapePlan, buffer: UnicodeBuffer, kern: bool) -> Vec<RawGlyph> {
    let out = rustybuzz::shape_with_plan(face.shaper(), plan, buffer);
    // A face standing in for an Office font sets each glyph with the original's advance,
    // keeping its own kerning where the text is kerned; marks the shaper zeroed stay zero.
    let emulation = face.face.emulation.as_deref();
    let glyphs = out
        .glyph_infos()
        .iter()
        .zip(out.glyph_positions())
        .map(|(info, pos)| {
            let id = u16::try_from(info.glyph_id).unwrap_or(0);
            let advance = if pos.x_advance == 0 {
                0
            } else {
                let own = if kern { None } else { face.shaper().glyph_hor_advance(GlyphId(id)).map(i32::from) };
                own.unwrap_or(pos.x_advance) + emulation.map_or(0, |e| e.delta(id))
            };
            RawGlyph { id, advance, x_offset: pos.x_offset, y_offset: pos.y_offset, cluster: info.cluster }
        })
        .collect();
    BUFFER.with(|b| b.set(Some(out.clear())));
    glyphs
}

thread_local! {
    /// One shaping buffer per thread, reused: a fresh one allocates for every word.
    static BUFFER: std::cell::Cell<Option<UnicodeBuffer>> = const { std::cell::Cell::new(None) };
}

fn take_buffer() -> UnicodeBuffer {
    BUFFER.with(|b| b.take()).unwrap_or_default()
}

/// Shapes left-to-right `text` word by word, each word through the face's cache in the
/// script of the whole text, cut only where the face's lookups allow (space_context.rs):
/// the glyphs are those of shaping it whole. `None` when the face, the script or the text
/// (no cut at all) has it shaped whole.
pub(crate) fn shape_in_words(face: &LoadedFace, text: &str, kern: bool) -> Option<Vec<RawGlyph>> {
    let SpaceContext::Cuts(cuts) = face.space_context() else { return None };
    let script = script_of(text);
    // Scripts that separate words with spaces and whose clusters never span one.
    if !matches!(script, None | Some(script::LATIN | script::GREEK | script::CYRILLIC)) {
        return None;
    }
    let mut starts = vec![0];
    let mut after_space = false;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            after_space = true;
            continue;
        }
        if after_space && starts_a_word(c) && face.shaper().glyph_index(c).is_some_and(|g| cuts.allows(g)) {
            starts.push(i);
        }
        after_space = false;
    }
    if starts.len() == 1 {
        return None;
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    let words: Vec<&str> = starts.iter().zip(ends).map(|(&a, b)| &text[a..b]).collect();
    let plan = plan_for(face, Direction::LeftToRight, script);
    let shaped = face.shapes.get_or_shape_all(&words, (false, kern, script), |word| {
        let mut buffer = take_buffer();
        buffer.push_str(word);
        if let Some(script) = script {
            buffer.set_script(script);
        }
        buffer.set_direction(Direction::LeftToRight);
        run(face, &plan, buffer, kern)
    });
    let mut glyphs: Vec<RawGlyph> = Vec::with_capacity(text.len());
    for (word, at) in shaped.iter().zip(starts) {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        glyphs.extend(word.iter().map(|g| RawGlyph { cluster: g.cluster.saturating_add(at), ..*g }));
    }
    Some(glyphs)
}

/// The script the shaper guesses for the whole text: that of its first letter of a script
/// of its own (`None` for digits, punctuation and spaces only).
fn script_of(text: &str) -> Option<Script> {
    let mut buffer = take_buffer();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    let script = Some(buffer.script()).filter(|s| *s != script::UNKNOWN);
    buffer.clear();
    BUFFER.with(|b| b.set(Some(buffer)));
    script
}

/// Characters a word may start with: letters, digits and punctuation of the Latin, Greek
/// and Cyrillic blocks and the quotation marks, none of them combining (a mark belongs to
/// the cluster of the character before it) or ignorable (the soft hyphen).
fn starts_a_word(c: char) -> bool {
    c.is_ascii_graphic()
        || matches!(c, '\u{A1}'..='\u{AC}' | '\u{AE}'..='\u{24F}' | '\u{370}'..='\u{3FF}' | '\u{400}'..='\u{482}' | '\u{48A}'..='\u{52F}' | '\u{2018}'..='\u{201F}')
}

/// Kerning is on in the plan and dropped from unkerned text afterwards (see [`run`]);
/// standard ligatures are off because Word only applies them with `w14:ligatures`
/// (notes §13).
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
        let glyphs = shape(&face, "Hello", false, true);
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
            let cached = shape(&face, text, rtl, true);
            let ids: Vec<u16> = fresh.glyph_infos().iter().map(|g| g.glyph_id as u16).collect();
            let advances: Vec<i32> = fresh.glyph_positions().iter().map(|p| p.x_advance).collect();
            assert_eq!(cached.iter().map(|g| g.id).collect::<Vec<_>>(), ids, "{text}");
            assert_eq!(cached.iter().map(|g| g.advance).collect::<Vec<_>>(), advances, "{text}");
        }
    }

    #[test]
    fn kerning_applies_only_when_asked_for() {
        let (face, _) = fonts().resolve_family("Liberation Serif", false, false).expect("a face");
        let plain: Vec<i32> = "AV".chars().map(|c| shape(&face, &c.to_string(), false, false)[0].advance).collect();
        let unkerned: Vec<i32> = shape(&face, "AV", false, false).iter().map(|g| g.advance).collect();
        let kerned: Vec<i32> = shape(&face, "AV", false, true).iter().map(|g| g.advance).collect();
        assert_eq!(unkerned, plain);
        assert!(kerned[0] < plain[0], "{kerned:?} against {plain:?}");
    }

    #[test]
    fn ligatures_stay_off() {
        let (face, _) = fonts().resolve_family("DejaVu Sans", false, false).expect("a face");
        assert_eq!(shape(&face, "fi", false, true).len(), 2);
    }

    #[test]
    fn text_shaped_word_by_word_gets_the_glyphs_of_text_shaped_whole() {
        // Kerned space pairs (Liberation: "space T", "A space"), Greek capitals that
        // Carlito's contextual alternates read with the space before them, digits and
        // punctuation only (no script of their own), a word longer than the cache's limit.
        let texts = [
            "Annual Report To The Board: Year 2024, Volume A Total of 1,234 units, AVATAR Way.",
            "Ο Άρης και ο Όμηρος έγραψαν ΆΛΦΑ Ή ΩΜΕΓΑ σε μια γραμμή με ελληνικά γράμματα.",
            "12 345 678 (90) – 1.5 % / 2.5 % ... 100 200 300 400 500 600 700 800 900 1000",
            "Supercalifragilisticexpialidocious-and-a-very-long-hyphenated-compound-word-indeed more words",
            "Привет мир, это Тест Ясной строки для кириллицы, Ъ Ы Ь, и ещё немного слов в ряд.",
        ];
        let mut cut = 0;
        for family in ["Liberation Sans", "Liberation Serif", "Carlito", "Caladea", "Liberation Mono", "Noto Sans"] {
            let (face, _) = fonts().resolve_family(family, false, false).expect("a face");
            for (text, kern) in texts.iter().flat_map(|t| [(*t, true), (*t, false)]) {
                let whole = shape(&face, text, false, kern);
                // Twice: shaped the first time, from the cache the second.
                for _ in 0..2 {
                    if let Some(words) = shape_in_words(&face, text, kern) {
                        assert_eq!(words, whole, "{family}, kerned {kern}: {text}");
                        cut += 1;
                    }
                }
            }
        }
        assert!(cut >= 100, "only {cut} texts were cut into words");
    }

    #[test]
    fn a_face_that_ligates_across_the_space_is_shaped_whole() {
        // DejaVu Sans matches the space through class-based contexts, which are not read.
        let (face, _) = fonts().resolve_family("DejaVu Sans", false, false).expect("a face");
        assert!(shape_in_words(&face, "words after words after words after words after words after words", true).is_none());
    }
}
