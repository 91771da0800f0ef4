//! Unit newtypes: the lengths OOXML writes (twips, half-points, eighth-points, EMU) and the
//! points that layout and PDF work in. Conversions happen once, at the parse boundary.
//! Byte counts are in bytes; [`MIB`] is the unit limits are given in.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A mebibyte, 2^20 bytes: the unit of the size limits (`--max-upload-mb`, package limits).
pub const MIB: u64 = 1 << 20;

/// A length in PostScript points (1/72 inch), the unit of layout and of PDF user space.
#[derive(Debug, Clone, Copy, Default, PartialEq, PartialOrd)]
pub struct Pt(pub f64);

impl Pt {
    /// Zero points.
    pub const ZERO: Pt = Pt(0.0);

    /// A length of `v` points.
    pub const fn new(v: f64) -> Pt {
        Pt(v)
    }

    /// The raw number of points.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// The larger of two lengths.
    pub fn max(self, other: Pt) -> Pt {
        Pt(self.0.max(other.0))
    }

    /// The smaller of two lengths.
    pub fn min(self, other: Pt) -> Pt {
        Pt(self.0.min(other.0))
    }

    /// A length from millimetres.
    pub fn mm(v: f64) -> Pt {
        Pt(v * 72.0 / 25.4)
    }
}

impl Add for Pt {
    type Output = Pt;
    fn add(self, o: Pt) -> Pt {
        Pt(self.0 + o.0)
    }
}
impl Sub for Pt {
    type Output = Pt;
    fn sub(self, o: Pt) -> Pt {
        Pt(self.0 - o.0)
    }
}
impl AddAssign for Pt {
    fn add_assign(&mut self, o: Pt) {
        self.0 += o.0;
    }
}
impl SubAssign for Pt {
    fn sub_assign(&mut self, o: Pt) {
        self.0 -= o.0;
    }
}
impl Neg for Pt {
    type Output = Pt;
    fn neg(self) -> Pt {
        Pt(-self.0)
    }
}
impl Mul<f64> for Pt {
    type Output = Pt;
    fn mul(self, k: f64) -> Pt {
        Pt(self.0 * k)
    }
}
impl Div<f64> for Pt {
    type Output = Pt;
    fn div(self, k: f64) -> Pt {
        Pt(self.0 / k)
    }
}
impl std::iter::Sum for Pt {
    fn sum<I: Iterator<Item = Pt>>(iter: I) -> Pt {
        Pt(iter.map(|p| p.0).sum())
    }
}

/// Twentieths of a point (dxa): page sizes, margins, indents, spacing, tab stops (§17.18.105).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Twips(pub i64);

impl Twips {
    /// The length in points.
    pub fn pt(self) -> Pt {
        Pt(self.0 as f64 / 20.0)
    }
}

/// Half-points: font sizes `w:sz`/`w:szCs` (§17.3.2.38), `w:kern`, `w:position`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HalfPoints(pub i64);

impl HalfPoints {
    /// The length in points.
    pub fn pt(self) -> Pt {
        Pt(self.0 as f64 / 2.0)
    }
}

/// Eighths of a point: border widths (`w:sz` of a border, §17.3.4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EighthPoints(pub i64);

impl EighthPoints {
    /// The length in points.
    pub fn pt(self) -> Pt {
        Pt(self.0 as f64 / 8.0)
    }
}

/// English Metric Units: DrawingML extents and offsets (914,400 per inch, 12,700 per point).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Emu(pub i64);

impl Emu {
    /// The length in points.
    pub fn pt(self) -> Pt {
        Pt(self.0 as f64 / 12_700.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_width_in_twips_is_612_points() {
        assert_eq!(Twips(12240).pt(), Pt(612.0));
    }

    #[test]
    fn half_points_and_eighth_points_convert_to_points() {
        assert_eq!(HalfPoints(22).pt(), Pt(11.0));
        assert_eq!(EighthPoints(4).pt(), Pt(0.5));
    }

    #[test]
    fn one_inch_of_emu_is_72_points() {
        assert_eq!(Emu(914_400).pt(), Pt(72.0));
    }
}
