//! Horizontal rules (VML `o:hr`, HTML's `<hr>` pasted into Word): one object on its line,
//! as wide as the line, drawing a bar of its width, height and alignment.

use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, Point, RectItem, Rgb, Size};
use crate::docx::model::{Color, HorizontalRule, HorizontalRuleAlign};
use crate::units::Pt;

/// The fill of a rule without `fillcolor`: Word's standard rule grey (#A0A0A0).
const STANDARD_FILL: Rgb = Rgb(0xA0, 0xA0, 0xA0);
/// The light edge of a shaded rule, below and right of the bar (#E3E3E3).
const LIGHT_EDGE: Rgb = Rgb(0xE3, 0xE3, 0xE3);
/// The width of that edge: one 300 dpi device pixel.
const EDGE: Pt = Pt(0.24);

/// The bar's width in a line `line_width` wide: `o:hrpct` of it, else the `style` width,
/// else all of it.
pub(crate) fn rule_width(rule: &HorizontalRule, line_width: Pt) -> Pt {
    let w = if rule.fraction > 0.0 {
        line_width * rule.fraction
    } else {
        rule.width.map(|w| w.pt()).unwrap_or(line_width)
    };
    w.max(Pt::ZERO).min(line_width.max(Pt::ZERO))
}

/// Draws the rule in an atom `room` wide whose left edge is at `x`, standing on `baseline`.
///
/// Word draws a standard shaded rule (`o:hrstd`, no `o:hrnoshade`) as a bar of the fill
/// colour with a light grey (#E3E3E3) edge one 300 dpi pixel wide along its bottom and
/// right, HTML's inset look (measured in Word's PDF of
/// `Abdullah_R_ALshorafa_Software_Eng_project_document_project_proposal`, a full-width
/// 1.5 pt `#a0a0a0` rule); a rule without shade is a plain bar of its fill colour.
pub(crate) fn draw_rule(rule: &HorizontalRule, room: Pt, x: Pt, baseline: Pt, frag: &mut Fragment) {
    let width = rule_width(rule, room);
    let height = rule.height.pt();
    let left = x + match rule.align {
        HorizontalRuleAlign::Left => Pt::ZERO,
        HorizontalRuleAlign::Center => (room - width) * 0.5,
        HorizontalRuleAlign::Right => room - width,
    };
    let top = baseline - height;
    let fill = match rule.color {
        Some(Color::Rgb(r, g, b)) => Rgb(r, g, b),
        _ => STANDARD_FILL,
    };
    let rect = |w: Pt, h: Pt, fill: Rgb| Item::Rect(RectItem { size: Size { width: w, height: h }, fill: Some(fill), stroke: None });
    frag.push(Point::new(left, top), rect(width, height, fill));
    if rule.shaded && width > EDGE * 2.0 && height > EDGE * 2.0 {
        frag.push(Point::new(left + EDGE, top + height - EDGE), rect(width - EDGE, EDGE, LIGHT_EDGE));
        frag.push(Point::new(left + width - EDGE, top + EDGE), rect(EDGE, height - EDGE, LIGHT_EDGE));
    }
}
