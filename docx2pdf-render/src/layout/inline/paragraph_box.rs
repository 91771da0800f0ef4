//! Paragraph borders and shading (`w:pBdr` §17.3.1.24, `w:shd` §17.3.1.31): the part of a
//! bordered or shaded paragraph's box that lies beside one of its lines.

use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, Point, RectItem, Rgb, Size};
use crate::layout::paragraph::LaidParagraph;
use crate::layout::table::borders::draw;
use crate::docx::model::Color;
use crate::resolve::BorderStyle;
use crate::units::Pt;

/// How far the box reaches beyond the text on each side besides a border's `w:space` and
/// width. Word's PDFs put a bottom border's ends 1.4–1.5 pt outside the text edges where
/// no side border is set (`developer0hye_office2pdf_04_resume_en`,
/// `developer0hye_office2pdf_06_official_letter_ko`, `suju297_Word2LaTeX…_resume`,
/// `isaqb_org_examination_foundation_examination_rules_de`, where white shading reaches
/// as far), and a left or right border as far outside its `w:space`
/// (`DickinsonCollege_FarmData2_01`).
const OUTSET: Pt = Pt(1.45);

/// Where a line of a paragraph sits: the text's left and right edges, the line's top and
/// height, and `top`, where the box beside it starts (the line's top, or the end of the
/// previous paragraph of the same box so that the sides run on through the space between).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineBox {
    pub left: Pt,
    pub right: Pt,
    pub top: Pt,
    pub y: Pt,
    pub height: Pt,
}

/// The room a side border takes outside the text: its `w:space` and its lines.
fn side(b: Option<BorderStyle>) -> Pt {
    b.map(|s| s.space + s.room).unwrap_or(Pt::ZERO) + OUTSET
}

/// The left and right outer edges of a paragraph's box.
pub(crate) fn box_edges(p: &LaidParagraph, left: Pt, right: Pt) -> (Pt, Pt) {
    let b = &p.style.borders;
    (left - side(b.left), right + side(b.right))
}

/// Whether a paragraph draws a box at all.
pub(crate) fn has_box(p: &LaidParagraph) -> bool {
    let b = &p.style.borders;
    matches!(p.style.shading, Some(Color::Rgb(..)))
        || b.left.is_some()
        || b.right.is_some()
        || (p.border_top && b.top.is_some())
        || (p.border_bottom && b.bottom.is_some())
        || p.border_between
}

/// Draws the shading and borders beside line `k` of `p`. The top border (or the between
/// border of a paragraph that continues a box) lies at the top of the room made for it
/// above the first line, the bottom border at the bottom of the room below the last; the
/// top and bottom borders run between the outer edges of the side borders, which run the
/// box's height (§17.3.1.24; every line style through [`draw`]).
pub(crate) fn decorate_line(out: &mut Fragment, p: &LaidParagraph, k: usize, at: LineBox) {
    let st = &p.style;
    let b = &st.borders;
    let (x0, x1) = box_edges(p, at.left, at.right);
    let bottom = at.y + at.height;
    if let Some(Color::Rgb(r, g, bl)) = st.shading {
        out.push(
            Point::new(x0, at.top),
            Item::Rect(RectItem { size: Size { width: x1 - x0, height: bottom - at.top }, fill: Some(Rgb(r, g, bl)), stroke: None }),
        );
    }
    if let Some(l) = b.left {
        draw(out, &l, Point::new(x0 + l.room * 0.5, at.top), bottom - at.top, true);
    }
    if let Some(r) = b.right {
        draw(out, &r, Point::new(x1 - r.room * 0.5, at.top), bottom - at.top, true);
    }
    if k == 0 {
        let above = if p.border_top { b.top } else if p.border_between { st.border_between } else { None };
        if let Some(t) = above {
            draw(out, &t, Point::new(x0, at.y + t.room * 0.5), x1 - x0, false);
        }
    }
    if k + 1 == p.lines.len() && p.border_bottom {
        if let Some(t) = b.bottom {
            draw(out, &t, Point::new(x0, bottom - t.room * 0.5), x1 - x0, false);
        }
    }
}
