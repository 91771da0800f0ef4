//! Metrics of Office fonts we have no face of (Aptos, Segoe UI, Georgia…), read once from assets/office_metrics, for the substitutes to lay out with.

use std::sync::OnceLock;

use rustybuzz::ttf_parser::{self, GlyphId};

use crate::layout::frame::Emulation;
use crate::fast_map::FastMap;

/// The table: measured from the fonts Word embedded in its PDFs (see the file's header and
/// assets/office_metrics/extract.py).
const TABLE: &str = include_str!("../../../assets/office_metrics/office_metrics.txt");

/// The fewest measured characters a style's advances are used with: the others are
/// scaled by the ratio measured over these, which a handful does not fix (Source Sans Pro
/// appears in Word's PDFs only as spaces, Aptos Display only as "Test").
const MIN_WIDTHS: usize = 8;

/// One style of an Office font as Word lays it out.
#[derive(Debug)]
pub(crate) struct OfficeFace {
    /// Units per em of the original.
    pub upm: f64,
    /// usWinAscent and usWinDescent.
    pub win: (f64, f64),
    /// hhea ascender, descender (negative) and line gap.
    pub hhea: (f64, f64, f64),
    /// Advance widths in 1000 units/em, by code point, sorted.
    pub widths: Box<[(u32, u16)]>,
}

/// The styles of a family in the table.
#[derive(Debug, Default)]
pub(crate) struct OfficeFamily {
    /// Regular, bold, italic, bold italic (index `bold + 2 × italic`).
    styles: [Option<OfficeFace>; 4],
}

impl OfficeFamily {
    /// The face of exactly that style, if Word's PDFs showed enough of its characters to
    /// set text with ([`MIN_WIDTHS`]).
    pub fn style(&self, bold: bool, italic: bool) -> Option<&OfficeFace> {
        self.styles[usize::from(bold) + 2 * usize::from(italic)].as_ref().filter(|f| f.widths.len() >= MIN_WIDTHS)
    }

    /// The style's face, else any face of the family for its vertical metrics (the same in
    /// every style of the measured families: Georgia, Segoe UI, Malgun Gothic).
    pub fn vertical(&self, bold: bool, italic: bool) -> Option<&OfficeFace> {
        let own = self.styles[usize::from(bold) + 2 * usize::from(italic)].as_ref();
        own.or_else(|| self.styles.iter().flatten().next()).filter(|f| f.upm > 0.0)
    }
}

/// The family of that lower-case name, if the table has it.
pub(crate) fn family(lower: &str) -> Option<(&'static str, &'static OfficeFamily)> {
    static FAMILIES: OnceLock<FastMap<&'static str, OfficeFamily>> = OnceLock::new();
    FAMILIES.get_or_init(|| parse(TABLE)).get_key_value(lower).map(|(k, v)| (*k, v))
}

/// Reads the table: `face FAMILY|STYLE upm winAscent winDescent hheaAscender
/// hheaDescender hheaLineGap`, then `w FIRST_HEX WIDTH…` lines for consecutive code points.
fn parse(text: &'static str) -> FastMap<&'static str, OfficeFamily> {
    let mut families: FastMap<&'static str, OfficeFamily> = FastMap::default();
    let mut current: Option<(&'static str, usize, OfficeFace)> = None;
    let mut widths: Vec<(u32, u16)> = Vec::new();
    let mut finish = |current: Option<(&'static str, usize, OfficeFace)>, widths: &mut Vec<(u32, u16)>| {
        if let Some((name, style, mut face)) = current {
            widths.sort_unstable();
            face.widths = std::mem::take(widths).into_boxed_slice();
            families.entry(name).or_default().styles[style] = Some(face);
        }
    };
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split_ascii_whitespace();
        match fields.next() {
            Some("face") => {
                finish(current.take(), &mut widths);
                let Some((name, style)) = line["face ".len()..].split_once('|') else { continue };
                let mut rest = style.split_ascii_whitespace();
                let style = match rest.next() {
                    Some("bold") => 1,
                    Some("italic") => 2,
                    Some("bolditalic") => 3,
                    _ => 0,
                };
                let v: Vec<f64> = rest.filter_map(|n| n.parse().ok()).collect();
                let [upm, win_a, win_d, h_asc, h_desc, h_gap] = v[..] else { continue };
                let face = OfficeFace { upm, win: (win_a, win_d), hhea: (h_asc, h_desc, h_gap), widths: Box::new([]) };
                current = Some((name, style, face));
            }
            Some("w") => {
                let Some(first) = fields.next().and_then(|f| u32::from_str_radix(f, 16).ok()) else { continue };
                widths.extend(fields.filter_map(|w| w.parse().ok()).zip(first..).map(|(w, c)| (c, w)));
            }
            _ => {}
        }
    }
    finish(current, &mut widths);
    families
}

#[cfg(test)]
impl OfficeFace {
    /// The advance of `c` in 1000 units/em, if Word's PDFs showed it.
    pub fn width(&self, c: char) -> Option<u16> {
        let c = u32::from(c);
        self.widths.binary_search_by_key(&c, |(k, _)| *k).ok().map(|i| self.widths[i].1)
    }
}

/// The advances `face` takes to stand in for `office`: the measured widths for the
/// characters Word's PDFs showed; for the others the face's own advance scaled by the
/// ratio of the measured widths to the face's over the characters both have, East Asian
/// full-width characters and the rest apart (their proportions differ most between faces).
pub(crate) fn emulation(face: &ttf_parser::Face<'_>, office: &OfficeFace) -> Emulation {
    let upm = f64::from(face.units_per_em());
    let own = |g: GlyphId| f64::from(face.glyph_hor_advance(g).unwrap_or(0));
    let measured = |w: u16| f64::from(w) * upm / 1000.0;
    // (original, face) sums: [other, East Asian wide, all].
    let mut sums = [(0.0, 0.0); 3];
    let glyphs = office.widths.iter().filter_map(|&(c, w)| Some((c, w, face.glyph_index(char::from_u32(c)?)?)));
    for (c, w, g) in glyphs.clone().filter(|&(_, _, g)| own(g) > 0.0) {
        for k in [usize::from(wide(c)), 2] {
            sums[k].0 += measured(w);
            sums[k].1 += own(g);
        }
    }
    // A kind none of whose characters were measured keeps the face's own advances: the
    // Latin letters of SimSun (half an em each) tell nothing of its ideographs.
    let ratio = |k: usize| match sums[k] {
        (o, f) if f > 0.0 => o / f,
        _ => 1.0,
    };
    let (narrow, full) = (ratio(0), ratio(1));
    let scaled = |g: GlyphId, r: f64| (own(g) * (r - 1.0)).round() as i32;
    let mut deltas: Vec<i32> = (0..face.number_of_glyphs()).map(|g| scaled(GlyphId(g), narrow)).collect();
    if full != narrow {
        for sub in face.tables().cmap.iter().flat_map(|c| c.subtables).filter(|s| s.is_unicode()) {
            sub.codepoints(|c| {
                if let Some(g) = sub.glyph_index(c).filter(|_| wide(c)) {
                    if let Some(d) = deltas.get_mut(usize::from(g.0)) {
                        *d = scaled(g, full);
                    }
                }
            });
        }
    }
    for (_, w, g) in glyphs {
        if let Some(d) = deltas.get_mut(usize::from(g.0)) {
            *d = (measured(w) - own(g)).round() as i32;
        }
    }
    // The scale in thousandths, as the PDF writes it (Tz in percent to one decimal).
    Emulation { deltas: deltas.into_boxed_slice(), scale: (ratio(2) * 1000.0).round() / 1000.0 }
}

/// East Asian full-width characters: Hangul, CJK, kana, full-width forms.
fn wide(c: u32) -> bool {
    matches!(c, 0x1100..=0x11FF | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_measured_families() {
        let (_, aptos) = family("aptos").expect("Aptos");
        let regular = aptos.style(false, false).expect("Aptos regular");
        assert_eq!(regular.upm, 2048.0);
        // Aptos sets USE_TYPO_METRICS: its typo box stands in the table.
        assert_eq!(regular.win, (1923.0, 577.0));
        assert!(regular.width('a').is_some() && regular.width(' ').is_some());
        assert!(family("segoe ui").and_then(|(_, f)| f.style(true, false)).is_some());
        assert!(family("nowhere").is_none());
    }

    #[test]
    fn width_runs_continue_over_consecutive_code_points() {
        let families = parse("# header\nface test|bold 1000 800 200 800 -200 0\nw 0041 600 610 620\nw 0061 500 510 520 530 540\n");
        let face = families["test"].style(true, false).expect("bold");
        assert_eq!((face.width('A'), face.width('C'), face.width('D'), face.width('a')), (Some(600), Some(620), None, Some(500)));
        assert!(families["test"].style(false, false).is_none());
        assert_eq!(families["test"].vertical(false, false).map(|f| f.win), Some((800.0, 200.0)));
    }
}
