//! Vertical metrics of a face as Word uses them: GDI TEXTMETRIC from OS/2 win metrics (notes §3).

use rustybuzz::ttf_parser;

use crate::units::Pt;

/// An East Asian font's single line in Word, in its win box (`FaceMetrics::east_asian`).
const EAST_ASIAN_LINE: f64 = 1.3;

/// A face's metrics in em (multiply by the font size for points).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FaceMetrics {
    /// Units per em.
    pub upm: f64,
    /// Single line height: (usWinAscent + usWinDescent)/upm plus external leading.
    pub line_height: f64,
    /// Baseline from the line top: usWinAscent/upm plus the external leading (lineGap above).
    pub line_ascent: f64,
    /// usWinAscent/upm: the top of the glyph box (highlights).
    pub ascent: f64,
    /// usWinDescent/upm: the bottom of the glyph box.
    pub descent: f64,
    /// Underline distance below the baseline.
    pub underline_offset: f64,
    /// Underline thickness.
    pub underline_thickness: f64,
    /// Strikeout height above the baseline.
    pub strike_offset: f64,
    /// Strikeout thickness.
    pub strike_thickness: f64,
}

/// A single line's vertical extent at one size: ascent part and total.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct LineExtent {
    /// From the line top to the baseline.
    pub ascent: Pt,
    /// From the baseline to the line bottom.
    pub descent: Pt,
}

impl LineExtent {
    /// The larger of two extents, side by side.
    pub fn max(self, o: LineExtent) -> LineExtent {
        LineExtent { ascent: self.ascent.max(o.ascent), descent: self.descent.max(o.descent) }
    }

    /// Total height.
    pub fn height(self) -> Pt {
        self.ascent + self.descent
    }
}

impl FaceMetrics {
    /// Reads the metrics of a parsed face.
    pub fn read(face: &ttf_parser::Face<'_>) -> FaceMetrics {
        let upm = f64::from(face.units_per_em().max(16));
        let hhea = face.tables().hhea;
        let (h_asc, h_desc, h_gap) = (f64::from(hhea.ascender), f64::from(hhea.descender), f64::from(hhea.line_gap));
        let (win_a, win_d) = match face.tables().os2 {
            Some(os2) if os2.windows_ascender() != 0 || os2.windows_descender() != 0 => {
                // usWinAscent/usWinDescent are unsigned; ttf-parser hands them out as i16, the
                // descent negated.
                (f64::from(os2.windows_ascender() as u16), f64::from(os2.windows_descender().wrapping_neg() as u16))
            }
            _ => (h_asc, -h_desc),
        };
        let underline = face.underline_metrics();
        let strike = face.strikeout_metrics();
        let metrics = FaceMetrics {
            upm,
            line_height: 0.0,
            line_ascent: 0.0,
            ascent: 0.0,
            descent: 0.0,
            underline_offset: underline.map(|m| -f64::from(m.position) / upm).filter(|v| *v > 0.0).unwrap_or(0.1),
            underline_thickness: underline
                .map(|m| f64::from(m.thickness) / upm)
                .filter(|v| *v > 0.0)
                .unwrap_or(0.05),
            strike_offset: strike.map(|m| f64::from(m.position) / upm).filter(|v| *v > 0.0).unwrap_or(0.26),
            strike_thickness: strike.map(|m| f64::from(m.thickness) / upm).filter(|v| *v > 0.0).unwrap_or(0.05),
        };
        metrics.with_vertical(upm, (win_a, win_d), (h_asc, h_desc, h_gap))
    }

    /// These metrics with the vertical ones of a face of `upm` units per em, its
    /// usWinAscent/usWinDescent and its hhea ascender, descender and line gap: the
    /// substitute's own, or those of the Office font it stands in for (office_metrics.rs).
    pub fn with_vertical(self, upm: f64, (win_a, win_d): (f64, f64), (h_asc, h_desc, h_gap): (f64, f64, f64)) -> FaceMetrics {
        // GDI's external leading: what hhea's gap adds beyond the win box (notes §3).
        let ext = (h_gap - ((win_a + win_d) - (h_asc - h_desc))).max(0.0);
        FaceMetrics {
            line_height: (win_a + win_d + ext) / upm,
            line_ascent: (win_a + ext) / upm,
            ascent: win_a / upm,
            descent: win_d / upm,
            ..self
        }
    }

    /// These metrics as Word lines an East Asian font: 1.3 times its win box, the extra
    /// split evenly above and below the glyphs, in place of hhea's gap. Measured in Word's
    /// PDFs: SimSun (220 + 36 of 256, gap 36) lines stand 13.65 pt apart at 10.5 pt in table
    /// cells, KaiTi titles of 26 and 36 pt take three 15.6 pt grid lines with the baseline
    /// 1.01 em below the natural line's top (`16261909_Backup_Tools_`), and Malgun Gothic
    /// (2229 + 495 of 2048) lines 1.737 em with the baseline at 1.288 em
    /// (`developer0hye_office2pdf_06_official_letter_ko`), where the rule gives 1.729 and 1.288.
    pub fn east_asian(self) -> FaceMetrics {
        let glyph_box = self.ascent + self.descent;
        FaceMetrics {
            line_height: EAST_ASIAN_LINE * glyph_box,
            line_ascent: self.ascent + (EAST_ASIAN_LINE - 1.0) / 2.0 * glyph_box,
            ..self
        }
    }

    /// The single-spaced line extent at `size`.
    pub fn extent(&self, size: Pt) -> LineExtent {
        LineExtent { ascent: size * self.line_ascent, descent: size * (self.line_height - self.line_ascent) }
    }
}
