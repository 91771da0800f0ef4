//! Languages and the characters that tell them apart: the language of a document that names
//! none, and which characters are drawn differently by East Asian language.

/// The language of a document that names none: Word's default.
pub const DEFAULT_LANG: &str = "en-US";

/// Whether a character belongs to the Han ideographs, kana or Hangul, whose glyphs differ
/// by East Asian language.
pub fn is_cjk(c: char) -> bool {
    matches!(u32::from(c), 0x1100..=0x11FF | 0x2E80..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7FF
        | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
}
