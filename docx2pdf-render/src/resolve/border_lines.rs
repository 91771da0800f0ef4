//! The parallel lines a border style is drawn as (§17.18.2 ST_Border), with their widths
//! and gaps, and so the room the border takes across.

use super::BorderStyle;
use crate::docx::model::{Gap, LineStyle};
use crate::units::Pt;

/// The thin line and the small gap of the thin/thick pairs: 0.75 pt whatever `w:sz`.
/// Word's PDF of `DickinsonCollege_FarmData2_01` draws a `thinThickThinSmallGap` of
/// `w:sz="24"` as 0.75 + 0.75 + 3 + 0.75 + 0.75 pt (LibreOffice uses the same 15 twips).
const THIN: Pt = Pt(0.75);

/// At most three parallel lines: each `(offset, thickness)`, the offset of the line's near
/// edge from the border's top (horizontal) or left (vertical) edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stripes {
    lines: [(Pt, Pt); 3],
    count: usize,
}

impl Stripes {
    /// The lines in order, top to bottom or left to right.
    pub fn lines(&self) -> &[(Pt, Pt)] {
        &self.lines[..self.count]
    }

    /// The room across all lines and gaps.
    pub fn room(&self) -> Pt {
        self.lines().last().map(|&(at, w)| at + w).unwrap_or(Pt::ZERO)
    }

    /// Lines of the given thicknesses, each pair separated by `gap`.
    fn stacked(thicknesses: &[Pt], gap: Pt) -> Stripes {
        let mut lines = [(Pt::ZERO, Pt::ZERO); 3];
        let mut at = Pt::ZERO;
        for (slot, &w) in lines.iter_mut().zip(thicknesses) {
            *slot = (at, w);
            at = at + w + gap;
        }
        Stripes { lines, count: thicknesses.len().min(3) }
    }
}

/// The lines of a border `width` wide (`w:sz`) drawn in `line`: double is two lines of the
/// width one width apart (Word's PDF of `developer0hye_office2pdf_06_official_letter_ko`:
/// 1 + 1 + 1 pt for `w:sz="8"`), triple three; the thin/thick pairs draw the thick line at
/// the width and the thin line and gap at 0.75 pt (small gap), half the width (medium gap,
/// not measured) or the width (large gap, not measured). Other styles draw one line.
pub(super) fn stripes(line: LineStyle, width: Pt) -> Stripes {
    let gap = |g: Gap| match g {
        Gap::Small => (THIN, THIN),
        Gap::Medium => (THIN.max(width * 0.5), THIN.max(width * 0.5)),
        Gap::Large => (THIN, width),
    };
    match line {
        LineStyle::Double => Stripes::stacked(&[width, width], width),
        LineStyle::Triple => Stripes::stacked(&[width, width, width], width),
        LineStyle::ThinThick(g) => {
            let (thin, space) = gap(g);
            Stripes::stacked(&[thin, width], space)
        }
        LineStyle::ThickThin(g) => {
            let (thin, space) = gap(g);
            Stripes::stacked(&[width, thin], space)
        }
        LineStyle::ThinThickThin(g) => {
            let (thin, space) = gap(g);
            Stripes::stacked(&[thin, width, thin], space)
        }
        _ => Stripes::stacked(&[width], Pt::ZERO),
    }
}

impl BorderStyle {
    /// The parallel lines this border is drawn as.
    pub fn stripes(&self) -> Stripes {
        stripes(self.line, self.width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_double_border_is_two_lines_one_width_apart() {
        let s = stripes(LineStyle::Double, Pt(1.0));
        assert_eq!(s.lines(), &[(Pt(0.0), Pt(1.0)), (Pt(2.0), Pt(1.0))]);
        assert_eq!(s.room(), Pt(3.0));
    }

    #[test]
    fn a_thin_thick_thin_small_gap_border_is_a_thick_line_between_thin_ones() {
        let s = stripes(LineStyle::ThinThickThin(Gap::Small), Pt(3.0));
        assert_eq!(s.lines(), &[(Pt(0.0), Pt(0.75)), (Pt(1.5), Pt(3.0)), (Pt(5.25), Pt(0.75))]);
        assert_eq!(s.room(), Pt(6.0));
        let s = stripes(LineStyle::ThickThin(Gap::Small), Pt(3.0));
        assert_eq!(s.lines(), &[(Pt(0.0), Pt(3.0)), (Pt(3.75), Pt(0.75))]);
    }
}
