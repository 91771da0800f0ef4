//! ToUnicode CMaps (ISO 32000-1 §9.10.3): CID → the text the glyph stands for, so text extraction and copy/paste work.

use pdf_writer::types::{SystemInfo, UnicodeCmap};
use pdf_writer::{Name, Str};

/// The conventional name of a CMap to Unicode (Adobe Technical Note #5411).
pub(super) const NAME: Name<'static> = Name(b"Adobe-Identity-UCS");

/// The character collection of a CMap to Unicode.
pub(super) const SYSTEM_INFO: SystemInfo<'static> = SystemInfo {
    registry: Str(b"Adobe"),
    ordering: Str(b"UCS"),
    supplement: 0,
};

/// A bfchar destination holds at most 512 bytes (Adobe TN #5014 §1.4.2), i.e. 256 UTF-16
/// code units; longer clusters are cut there.
const MAX_UNITS: usize = 256;

/// The CMap text for `texts` (index = CID); CIDs with empty text are left unmapped.
/// Multi-character clusters (ligatures) map to several code points, and pdf-writer writes
/// astral characters as UTF-16BE surrogate pairs.
pub(super) fn to_unicode(texts: &[&str]) -> Vec<u8> {
    let mut cmap = UnicodeCmap::new(NAME, SYSTEM_INFO);
    for (cid, text) in texts.iter().enumerate() {
        if text.is_empty() {
            continue;
        }
        let mut units = 0;
        let chars = text.chars().take_while(|c| {
            units += c.len_utf16();
            units <= MAX_UNITS
        });
        // CIDs come from a u16 remapper, so the index always fits.
        cmap.pair_with_multiple(cid as u16, chars);
    }
    cmap.finish().into_vec()
}
