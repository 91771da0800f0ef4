//! Table border conflicts (§17.4.66 with OI29500 2.1.169) and border lines drawn in their
//! style: single, double, dotted, dashed and the dot-dash families.

use crate::docx::model::{Color, Gap, LineStyle};
use crate::layout::collect::rgb;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, LineItem, Point};
use crate::resolve::BorderStyle;
use crate::units::Pt;

/// The shortest dash or dot drawn; finer patterns would fill the page with tiny lines.
const MIN_DASH: Pt = Pt(0.75);

/// A border's weight in a conflict: width in eighth-points × the style's border number
/// (single 1, thick 2, double 3, dotDash 8, triple 10…); dotted and dashed borders count
/// as 1 whatever their width (OI29500 2.1.169, notes §8).
fn weight(b: &BorderStyle) -> f64 {
    let number = match b.line {
        LineStyle::None => 0.0,
        LineStyle::Single => 1.0,
        LineStyle::Thick => 2.0,
        LineStyle::Double => 3.0,
        LineStyle::Dotted | LineStyle::Dashed => return 1.0,
        LineStyle::DotDash => 8.0,
        LineStyle::DotDotDash => 9.0,
        LineStyle::Triple => 10.0,
        LineStyle::Wave => 20.0,
        LineStyle::ThinThick(g) => 11.0 + gap_rank(g),
        LineStyle::ThickThin(g) => 12.0 + gap_rank(g),
        LineStyle::ThinThickThin(g) => 13.0 + gap_rank(g),
    };
    b.width.0 * 8.0 * number
}

/// How far a thin/thick style's border number moves with its gap: small 11–13, medium
/// 14–16, large 17–19 (ST_Border order, OI29500 2.1.169).
fn gap_rank(g: Gap) -> f64 {
    match g {
        Gap::Small => 0.0,
        Gap::Medium => 3.0,
        Gap::Large => 6.0,
    }
}

/// Brightness for the colour tie-break: R + B + 2G, auto counting as black.
fn brightness(c: Color) -> u32 {
    match c {
        Color::Auto => 0,
        Color::Rgb(r, g, b) => r as u32 + b as u32 + 2 * g as u32,
    }
}

/// The border drawn where two meet: the heavier one, then the darker one, then `first`
/// (the earlier in reading order) — Word's rule for adjacent cells without cell spacing.
pub(crate) fn stronger(first: BorderStyle, second: BorderStyle) -> BorderStyle {
    let (a, b) = (weight(&first), weight(&second));
    if (a - b).abs() > 1e-9 {
        return if b > a { second } else { first };
    }
    if brightness(second.color) < brightness(first.color) {
        second
    } else {
        first
    }
}

/// Where a cell edge's border comes from: the cell's own (`tcBorders`, style parts
/// included) and the neighbour's facing side conflict; a side neither says takes the
/// table's (outer edge or insideH/insideV). `Some(None)` (an explicit `none`/`nil`) yields
/// to a visible opposing border.
pub(crate) fn edge(
    own: Option<Option<BorderStyle>>,
    neighbour: Option<Option<BorderStyle>>,
    table: Option<BorderStyle>,
) -> Option<BorderStyle> {
    match (own, neighbour) {
        (Some(Some(a)), Some(Some(b))) => Some(stronger(a, b)),
        (Some(a), Some(b)) => a.or(b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => table,
    }
}

/// Draws a horizontal (`vertical` false) or vertical border from `from` for `length`,
/// its lines centred across `from` (see [`BorderStyle::stripes`]).
pub(crate) fn draw(out: &mut Fragment, b: &BorderStyle, from: Point, length: Pt, vertical: bool) {
    let w = b.width;
    let color = rgb(b.color);
    let at = |along: Pt, across: Pt| {
        if vertical {
            Point::new(from.x + across, from.y + along)
        } else {
            Point::new(from.x + along, from.y + across)
        }
    };
    let seg = |out: &mut Fragment, a: Pt, z: Pt, across: Pt, thickness: Pt| {
        out.push(at(a, across), Item::Line(LineItem { to: at(z, across), thickness, color }));
    };
    match b.line {
        LineStyle::Dotted | LineStyle::Dashed | LineStyle::DotDash | LineStyle::DotDotDash => {
            let dot = w.max(MIN_DASH);
            let dash = (w * 3.0).max(MIN_DASH * 3.0);
            let gap = dot;
            let pattern: &[Pt] = match b.line {
                LineStyle::Dotted => &[dot],
                LineStyle::Dashed => &[dash],
                LineStyle::DotDash => &[dash, dot],
                _ => &[dash, dot, dot],
            };
            let mut pos = Pt::ZERO;
            let mut k = 0;
            while pos < length {
                let end = (pos + pattern[k % pattern.len()]).min(length);
                seg(out, pos, end, Pt::ZERO, w);
                pos = end + gap;
                k += 1;
            }
        }
        _ => {
            let stripes = b.stripes();
            let half = stripes.room() * 0.5;
            for &(at, thickness) in stripes.lines() {
                seg(out, Pt::ZERO, length, at + thickness * 0.5 - half, thickness);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn border(eighths: f64, line: LineStyle, color: Color) -> BorderStyle {
        let width = Pt(eighths / 8.0);
        BorderStyle { width, room: width, space: Pt::ZERO, color, line }
    }

    #[test]
    fn the_wider_border_wins_then_the_heavier_style_then_the_darker_colour() {
        let thin = border(4.0, LineStyle::Single, Color::Auto);
        let wide = border(12.0, LineStyle::Single, Color::Rgb(200, 200, 200));
        assert_eq!(stronger(thin, wide), wide);
        // A double 4 (weight 12) beats a single 8 (weight 8).
        let double = border(4.0, LineStyle::Double, Color::Auto);
        assert_eq!(stronger(border(8.0, LineStyle::Single, Color::Auto), double), double);
        // A wide dotted border weighs 1.
        assert_eq!(stronger(border(24.0, LineStyle::Dotted, Color::Auto), thin), thin);
        let red = border(4.0, LineStyle::Single, Color::Rgb(255, 0, 0));
        let navy = border(4.0, LineStyle::Single, Color::Rgb(0, 0, 128));
        assert_eq!(stronger(red, navy), navy);
        assert_eq!(stronger(navy, red), navy);
    }

    #[test]
    fn an_explicit_none_yields_to_the_opposing_border() {
        let thin = border(4.0, LineStyle::Single, Color::Auto);
        assert_eq!(edge(Some(None), Some(Some(thin)), None), Some(thin));
        assert_eq!(edge(Some(None), None, Some(thin)), None);
        assert_eq!(edge(None, None, Some(thin)), Some(thin));
    }

    #[test]
    fn styled_borders_draw_their_pattern() {
        let count = |line| {
            let mut f = Fragment::new(Pt::ZERO);
            draw(&mut f, &border(4.0, line, Color::Auto), Point::default(), Pt(100.0), false);
            f.items.len()
        };
        assert_eq!(count(LineStyle::Single), 1);
        assert_eq!(count(LineStyle::Double), 2);
        assert!(count(LineStyle::Dotted) > 30, "{}", count(LineStyle::Dotted));
        let dashed = count(LineStyle::Dashed);
        assert!((15..=40).contains(&dashed), "{dashed}");
    }
}
