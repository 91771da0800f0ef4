//! Stacked fractions of math text (§22.1.2.36): the numerator centred over a bar on the
//! math axis, the denominator centred under it, both at the run's size, as Word sets a
//! display fraction. The box is one object in its line, which grows to hold it.

use crate::layout::context::Ctx;
use crate::layout::fields::text_item;
use crate::layout::fonts::LoadedFace;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, LineItem, Point, Rgb, TextItem};
use crate::docx::model::{Fraction, MathText};
use crate::units::Pt;
use std::sync::Arc;

/// The math axis above the baseline, the gap between the bar and each part, the bar's
/// thickness and the room on each side, in ems (Cambria Math's MATH table: AxisHeight
/// 0.25, FractionRuleThickness and gaps about 0.066 em, here a little rounder).
const AXIS: f64 = 0.25;
const GAP: f64 = 0.12;
const RULE: f64 = 0.06;
const SIDE: f64 = 0.1;

/// A fraction ready to place: its parts shaped, its extent around the baseline.
#[derive(Debug, Clone)]
pub(crate) struct FractionBox {
    numerator: Vec<(Pt, TextItem)>,
    denominator: Vec<(Pt, TextItem)>,
    numerator_width: Pt,
    denominator_width: Pt,
    /// The whole width, room on both sides included.
    pub width: Pt,
    /// Above the baseline.
    pub ascent: Pt,
    /// Below the baseline.
    pub descent: Pt,
    /// The face's ascent and descent at the size: each part's line.
    part_ascent: Pt,
    part_descent: Pt,
    size: Pt,
    color: Rgb,
}

/// Shapes `f` at `size` in the family of `face`, italic pieces in its italic.
pub(crate) fn fraction_box(f: &Fraction, face: &Arc<LoadedFace>, bold: bool, size: Pt, color: Rgb, ctx: &mut Ctx<'_>) -> FractionBox {
    let family: Arc<str> = Arc::from(face.family.as_str());
    let mut row = |pieces: &[MathText]| {
        let mut x = Pt::ZERO;
        let mut items = Vec::new();
        for p in pieces {
            let face = ctx.face(&family, bold, p.italic).unwrap_or_else(|| face.clone());
            let item = text_item(&face, &p.text, size, color, ctx);
            let w = item.width();
            items.push((x, item));
            x += w;
        }
        (items, x)
    };
    let (numerator, numerator_width) = row(&f.numerator);
    let (denominator, denominator_width) = row(&f.denominator);
    let m = &face.metrics;
    let (asc, desc) = (m.extent(size).ascent, m.extent(size).descent);
    let em = size.0;
    // Numerator baseline: its descent plus the gap above the bar; denominator baseline: its
    // ascent plus the gap below.
    let ascent = Pt(em * (AXIS + RULE / 2.0 + GAP)) + desc + asc;
    let descent = Pt(em * (GAP + RULE / 2.0 - AXIS)) + asc + desc;
    FractionBox {
        numerator,
        denominator,
        numerator_width,
        denominator_width,
        width: numerator_width.max(denominator_width) + Pt(em * SIDE * 2.0),
        ascent,
        descent: descent.max(Pt::ZERO),
        part_ascent: asc,
        part_descent: desc,
        size,
        color,
    }
}

impl FractionBox {
    /// Draws the fraction with its left edge at `x` on the baseline `baseline`.
    pub(crate) fn draw(&self, x: Pt, baseline: Pt, frag: &mut Fragment) {
        let em = self.size.0;
        let axis = baseline - Pt(em * AXIS);
        let inner = self.width - Pt(em * SIDE * 2.0);
        let left = x + Pt(em * SIDE);
        let clear = Pt(em * (RULE / 2.0 + GAP));
        let num_base = axis - clear - self.part_descent;
        let den_base = axis + clear + self.part_ascent;
        for (dx, item) in &self.numerator {
            let at = Point::new(left + (inner - self.numerator_width) * 0.5 + *dx, num_base);
            frag.push(at, Item::Text(item.clone()));
        }
        for (dx, item) in &self.denominator {
            let at = Point::new(left + (inner - self.denominator_width) * 0.5 + *dx, den_base);
            frag.push(at, Item::Text(item.clone()));
        }
        frag.push(
            Point::new(left, axis),
            Item::Line(LineItem { to: Point::new(left + inner, axis), thickness: Pt(em * RULE), color: self.color }),
        );
    }
}
