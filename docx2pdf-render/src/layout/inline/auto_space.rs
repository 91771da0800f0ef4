//! Word's automatic space between East Asian text and Latin letters or digits (`w:autoSpaceDE`, `w:autoSpaceDN`).

use crate::layout::collect::{AtomKind, Collected};

/// The share of the East Asian character's size Word adds at a boundary: a quarter em,
/// measured with native Word by office2pdf (developer0hye/office2pdf #521: 2.625 pt at
/// 10.5 pt and 2.375 pt at 9.5 pt, Hangul next to digits) and by betteroffice #739
/// (Japanese, 1.25 em advances next to Latin letters).
const QUARTER_EM: f64 = 0.25;

/// Hangul, kana and Han ideographs: the East Asian letters Word spaces from Latin text
/// (punctuation and full-width forms are not spaced).
fn is_east_asian_letter(c: char) -> bool {
    matches!(u32::from(c), 0x1100..=0x11FF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

/// What kind of Latin text a character is: a digit (`Some(true)`), a letter
/// (`Some(false)`), or neither.
fn latin(c: char) -> Option<bool> {
    if c.is_ascii_digit() {
        Some(true)
    } else if c.is_alphabetic() && u32::from(c) < 0x0250 {
        Some(false)
    } else {
        None
    }
}

/// Widens each boundary of left-to-right text where an East Asian letter meets a Latin
/// letter (`de`) or digit (`dn`) with nothing between them, by a quarter em of the East
/// Asian character's size, added to the advance before the boundary. A literal space
/// between them gets nothing more.
pub(crate) fn apply(c: &mut Collected, de: bool, dn: bool) {
    if !(de || dn) || !c.text.chars().any(is_east_asian_letter) {
        return;
    }
    let glyph_atom = |c: &Collected, i: usize| -> Option<(usize, usize, usize, (usize, usize))> {
        let a = &c.atoms[i];
        match a.kind {
            AtomKind::Glyphs { seg, first, count, .. } if a.level.is_multiple_of(2) && count > 0 => {
                Some((seg, first, count, c.segments[seg].glyphs[first].text))
            }
            _ => None,
        }
    };
    for i in 1..c.atoms.len() {
        let (Some((seg_a, first_a, count_a, text_a)), Some((seg_b, _, _, text_b))) = (glyph_atom(c, i - 1), glyph_atom(c, i))
        else {
            continue;
        };
        if text_a.1 != text_b.0 {
            continue;
        }
        let (Some(before), Some(after)) = (c.text[text_a.0..text_a.1].chars().last(), c.text[text_b.0..text_b.1].chars().next())
        else {
            continue;
        };
        let (digit, east_asian_seg) = match (latin(before), latin(after)) {
            (None, Some(d)) if is_east_asian_letter(before) => (d, seg_a),
            (Some(d), None) if is_east_asian_letter(after) => (d, seg_b),
            _ => continue,
        };
        if !(if digit { dn } else { de }) {
            continue;
        }
        let extra = c.segments[east_asian_seg].size * QUARTER_EM;
        c.segments[seg_a].glyphs[first_a + count_a - 1].advance += extra;
        c.atoms[i - 1].width += extra;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hangul_kana_and_han_are_spaced_but_not_their_punctuation() {
        assert!(is_east_asian_letter('월') && is_east_asian_letter('カ') && is_east_asian_letter('多'));
        assert!(!is_east_asian_letter('、') && !is_east_asian_letter('（') && !is_east_asian_letter('Ａ'));
        assert_eq!((latin('8'), latin('s'), latin('é'), latin('-')), (Some(true), Some(false), Some(false), None));
    }
}
