//! The text behind one glyph, stored inline when short so that laying out a glyph does not allocate.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// The longest text kept inline: the enum then takes 16 bytes, two thirds of a `String`
/// (a glyph is 48 bytes instead of 56; the glyphs are most of the heap of a long document).
const INLINE: usize = 14;

/// A glyph's text: almost always one character (a cluster of a few bytes), kept in place;
/// longer clusters (combining sequences, several ideographs) share one heap copy.
#[derive(Clone)]
pub enum GlyphText {
    /// `len` bytes of UTF-8 at the start of the array.
    Inline {
        /// How many bytes of `bytes` hold the text.
        len: u8,
        /// The text's UTF-8 bytes, then zeros.
        bytes: [u8; INLINE],
    },
    /// A cluster longer than `INLINE` bytes (behind a thin pointer, to keep the enum small).
    Heap(Arc<String>),
}

impl GlyphText {
    /// The empty text of a cluster's second and later glyphs.
    pub const EMPTY: GlyphText = GlyphText::Inline { len: 0, bytes: [0; INLINE] };

    /// A copy of `s`.
    pub fn new(s: &str) -> GlyphText {
        if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            GlyphText::Inline { len: s.len() as u8, bytes }
        } else {
            GlyphText::Heap(Arc::new(s.to_string()))
        }
    }

    /// A text whose UTF-8 bytes were taken from another `GlyphText` of at most `INLINE`
    /// bytes (a packed page): copied without being checked again. Bytes that are not UTF-8
    /// read as empty text, as `as_str` says.
    pub fn copy_inline(text: &[u8]) -> GlyphText {
        let len = text.len().min(INLINE);
        let mut bytes = [0; INLINE];
        bytes[..len].copy_from_slice(&text[..len]);
        GlyphText::Inline { len: len as u8, bytes }
    }

    /// Whether the text is empty, without reading it as UTF-8 (checked per glyph shown).
    pub fn is_empty(&self) -> bool {
        match self {
            GlyphText::Inline { len, .. } => *len == 0,
            GlyphText::Heap(s) => s.is_empty(),
        }
    }

    /// The text as a string slice.
    pub fn as_str(&self) -> &str {
        match self {
            // Only `new` fills the array, from a whole `&str`, so this never fails.
            GlyphText::Inline { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or(""),
            GlyphText::Heap(s) => s,
        }
    }
}

impl Default for GlyphText {
    fn default() -> GlyphText {
        GlyphText::EMPTY
    }
}

impl Deref for GlyphText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for GlyphText {
    fn from(s: &str) -> GlyphText {
        GlyphText::new(s)
    }
}

impl PartialEq for GlyphText {
    fn eq(&self, other: &GlyphText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<&str> for GlyphText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for GlyphText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for GlyphText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_stays_inline_and_reads_back() {
        let t = GlyphText::new("é");
        assert!(matches!(t, GlyphText::Inline { len: 2, .. }));
        assert_eq!(t, "é");
    }

    #[test]
    fn only_empty_text_is_empty() {
        assert!(GlyphText::EMPTY.is_empty() && GlyphText::new("").is_empty());
        assert!(!GlyphText::new("a").is_empty());
        assert!(!GlyphText::new("a cluster longer than fourteen bytes").is_empty());
    }

    #[test]
    fn long_text_goes_to_the_heap_and_reads_back() {
        let s = "a cluster longer than fourteen bytes";
        let t = GlyphText::new(s);
        assert!(matches!(t, GlyphText::Heap(_)));
        assert_eq!(t.as_str(), s);
    }

    #[test]
    fn the_text_takes_two_thirds_of_a_string() {
        assert_eq!(std::mem::size_of::<GlyphText>(), 16);
        assert_eq!(GlyphText::default(), "");
        assert_eq!(std::mem::size_of::<crate::frame::Glyph>(), 48);
    }
}
