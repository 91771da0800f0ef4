//! Bidirectional text (UAX #9): embedding levels of a paragraph and visual order of a line.

use unicode_bidi::{BidiInfo, Level};

/// Whether `text` needs the bidi algorithm at all in a left-to-right paragraph: only
/// right-to-left letters, Arabic digits and explicit direction controls change anything.
fn has_rtl(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(u32::from(c), 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF
            | 0x1E800..=0x1EFFF | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
    })
}

/// Resolved embedding levels per byte of `text` in a paragraph of the given direction
/// (`w:bidi`, §17.3.1.6), through rule I2 (line rules come per line); `None` when every
/// level is 0, the common case, which skips the algorithm.
pub(crate) fn levels(text: &str, rtl: bool) -> Option<Vec<u8>> {
    if !rtl && !has_rtl(text) {
        return None;
    }
    let base = if rtl { Level::rtl() } else { Level::ltr() };
    let info = BidiInfo::new(text, Some(base));
    Some(info.levels.iter().map(|l| l.number()).collect())
}

/// The visual order of items at these levels, left to right (rule L2: from the highest
/// level down to the lowest odd one, reverse every run at that level or above).
pub(crate) fn visual_order(levels: &[u8]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..levels.len()).collect();
    let (Some(&max), Some(&min)) = (levels.iter().max(), levels.iter().min()) else { return order };
    let lowest_odd = if min % 2 == 1 { min } else { min + 1 };
    let mut level = max;
    while level >= lowest_odd && level > 0 {
        let mut i = 0;
        while i < order.len() {
            if levels[order[i]] >= level {
                let start = i;
                while i < order.len() && levels[order[i]] >= level {
                    i += 1;
                }
                order[start..i].reverse();
            } else {
                i += 1;
            }
        }
        level -= 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_text_in_a_left_to_right_paragraph_skips_the_algorithm() {
        assert_eq!(levels("plain text", false), None);
    }

    #[test]
    fn hebrew_in_a_left_to_right_paragraph_is_at_level_one() {
        let l = levels("ab שלום", false).expect("levels");
        assert_eq!(l[0], 0);
        assert_eq!(*l.last().expect("a level"), 1);
    }

    #[test]
    fn latin_in_a_right_to_left_paragraph_is_at_level_two() {
        let l = levels("שלום ab", true).expect("levels");
        assert_eq!(l[0], 1);
        assert_eq!(*l.last().expect("a level"), 2);
    }

    #[test]
    fn a_right_to_left_line_reverses_and_keeps_embedded_latin_in_order() {
        // Logical: R1 R2 L1 L2 R3 in a right-to-left paragraph.
        assert_eq!(visual_order(&[1, 1, 2, 2, 1]), vec![4, 2, 3, 1, 0]);
    }

    #[test]
    fn a_left_to_right_line_without_rtl_keeps_its_order() {
        assert_eq!(visual_order(&[0, 0, 0]), vec![0, 1, 2]);
    }

    #[test]
    fn an_rtl_phrase_in_a_left_to_right_line_is_reversed_in_place() {
        assert_eq!(visual_order(&[0, 1, 1, 1, 0]), vec![0, 3, 2, 1, 4]);
    }
}
