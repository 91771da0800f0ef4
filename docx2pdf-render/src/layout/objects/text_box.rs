//! Text boxes (`w:txbxContent`): where a floating box (or picture) goes (DrawingML
//! §20.4.2.10/11) and its content laid out inside the insets, over the shape it draws.

use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Point, Size};
use crate::layout::stack::layout_stack;
use crate::docx::model::AnchorPosition;
use crate::resolve::{ResolvedTextBox, SectionStyle};
use crate::units::Pt;

/// `a:bodyPr` default insets: 0.1 inch left and right, 0.05 inch top and bottom (§21.1.2.1.1).
const INSET_X: Pt = Pt(7.2);
const INSET_Y: Pt = Pt(3.6);

/// What a floating box can be positioned against on its page.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AnchorFrame<'s> {
    /// The page's section.
    pub section: &'s SectionStyle,
    /// Left edge of the page's text area (mirrored margins applied).
    pub margin_left: Pt,
    /// The column the anchoring paragraph is in: left edge and width.
    pub column: (Pt, Pt),
    /// Top of the body area and the anchoring paragraph's top.
    pub body_top: Pt,
    /// The anchoring paragraph's top.
    pub paragraph_top: Pt,
}

/// Lays out a box's content at its size; the fragment's origin is the box's corner.
pub(crate) fn layout_box(tb: &ResolvedTextBox<'_>, column_width: Pt, ctx: &mut Ctx<'_>) -> Result<(Pt, Fragment), LayoutError> {
    let width = tb.shape.extent.map(|(cx, _)| cx.pt()).filter(|w| *w > Pt::ZERO).unwrap_or(column_width);
    let [left, top, right, bottom] = tb.shape.insets;
    let inset = |v: Option<crate::units::Emu>, default: Pt| v.map(|e| e.pt()).unwrap_or(default);
    let (left, top, right, bottom) = (inset(left, INSET_X), inset(top, INSET_Y), inset(right, INSET_X), inset(bottom, INSET_Y));
    let inner = (width - left - right).max(Pt(1.0));
    let stack = layout_stack(&tb.blocks, inner, ctx, None, true)?;
    let mut frag = stack.to_fragment();
    // A shape fitted to its text (`a:spAutoFit`, §21.1.2.1.3) grows to hold it where the
    // saved extent is shorter than our text.
    let content = stack.height + top + bottom;
    let height = match tb.shape.extent.map(|(_, cy)| cy.pt()).filter(|h| *h > Pt::ZERO) {
        Some(h) if tb.shape.fit_text => h.max(content),
        Some(h) => h,
        None => content,
    };
    let mut out = Fragment::new(height);
    crate::layout::shape::push_shapes(tb.shape, crate::layout::frame::Size { width, height }, &mut out, tb.figure);
    // `bodyPr@anchor` centres the text or sets it at the bottom (§21.1.2.1.1).
    let free = (height - top - bottom - stack.height).max(Pt::ZERO);
    let dy = match tb.shape.text_anchor.as_deref() {
        Some("ctr") => free * 0.5,
        Some("b") => free,
        _ => Pt::ZERO,
    };
    out.append_owned(Point::new(left, top + dy), std::mem::take(&mut frag));
    Ok((width, out))
}

/// The top-left corner of a floating box `size` wide and high.
pub(crate) fn box_origin(tb: &ResolvedTextBox<'_>, frame: &AnchorFrame<'_>, width: Pt, height: Pt) -> Point {
    let (size, offset) = box_placement(tb, width, height);
    let at = anchor_origin(tb.shape.horizontal.as_ref(), tb.shape.vertical.as_ref(), frame, size.width, size.height);
    Point::new(at.x + offset.x, at.y + offset.y)
}

/// What the anchor of a box `width` wide and `height` high places, and where the box sits
/// in it: a group's text box sits at its offset in the group the anchor places, any other
/// box is placed itself.
pub(crate) fn box_placement(tb: &ResolvedTextBox<'_>, width: Pt, height: Pt) -> (Size, Point) {
    let (dx, dy) = tb.shape.group_offset;
    if dx.0 != 0 || dy.0 != 0 {
        let (gw, gh) = tb.shape.group_extent.map(|(w, h)| (w.pt(), h.pt())).unwrap_or((width, height));
        return (Size { width: gw, height: gh }, Point::new(dx.pt(), dy.pt()));
    }
    (Size { width, height }, Point::new(Pt::ZERO, Pt::ZERO))
}

/// The top-left corner of any floating shape (text box or picture) `width` wide and
/// `height` high, from its `wp:positionH`/`wp:positionV`.
pub(crate) fn anchor_origin(
    horizontal: Option<&AnchorPosition>,
    vertical: Option<&AnchorPosition>,
    frame: &AnchorFrame<'_>,
    width: Pt,
    height: Pt,
) -> Point {
    let s = frame.section;
    let (col_x, col_w) = frame.column;
    let text_w = s.text_width();
    let (h0, hw) = match horizontal.and_then(|h| h.relative_from.as_deref()) {
        Some("page") => (Pt::ZERO, s.page_width),
        Some("leftMargin" | "insideMargin") => (Pt::ZERO, frame.margin_left),
        Some("rightMargin" | "outsideMargin") => {
            let right = frame.margin_left + text_w;
            (right, s.page_width - right)
        }
        Some("column" | "character") => (col_x, col_w),
        _ => (frame.margin_left, text_w),
    };
    let (v0, vh) = match vertical.and_then(|v| v.relative_from.as_deref()) {
        Some("page") => (Pt::ZERO, s.page_height),
        Some("margin") => (frame.body_top, s.page_height - s.margin_bottom - frame.body_top),
        Some("topMargin") => (Pt::ZERO, s.margin_top),
        Some("bottomMargin") => (s.page_height - s.margin_bottom, s.margin_bottom),
        _ => (frame.paragraph_top, Pt::ZERO),
    };
    Point::new(place(horizontal, h0, hw, width, "left", "right"), place(vertical, v0, vh, height, "top", "bottom"))
}

/// The top-left corner of a floating shape `size` in a table cell `width` wide, for a
/// paragraph whose top is `paragraph_top` in the cell. Word lays a `layoutInCell` object
/// out in its cell: every horizontal reference is the cell's text area, and every
/// vertical one but the paragraph (or line) is the cell's top (§20.4.2.3 `layoutInCell`;
/// AllirezaAfshar's logos sit 11.4 pt inside their cell in Word's PDF).
pub(crate) fn cell_anchor_origin(
    horizontal: Option<&AnchorPosition>,
    vertical: Option<&AnchorPosition>,
    width: Pt,
    paragraph_top: Pt,
    size: crate::layout::frame::Size,
) -> Point {
    let v0 = match vertical.and_then(|v| v.relative_from.as_deref()) {
        Some("paragraph" | "line") | None => paragraph_top,
        _ => Pt::ZERO,
    };
    let x = place(horizontal, Pt::ZERO, width, size.width, "left", "right");
    let y = place(vertical, v0, Pt::ZERO, size.height, "top", "bottom");
    Point::new(x, y.max(Pt::ZERO))
}

/// A position on one axis: the offset from the reference edge, or the alignment in it.
fn place(pos: Option<&AnchorPosition>, start: Pt, extent: Pt, size: Pt, near: &str, far: &str) -> Pt {
    let Some(pos) = pos else { return start };
    match pos.align.as_deref() {
        Some("center") => start + (extent - size) * 0.5,
        Some(a) if a == far || a == "outside" => start + extent - size,
        Some(a) if a == near || a == "inside" => start,
        _ => match pos.percent {
            Some(p) => start + extent * (p as f64 / 100_000.0),
            None => start + pos.offset.map(|o| o.pt()).unwrap_or(Pt::ZERO),
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{AnchorPosition, Block, Paragraph, TextBox};
    use crate::layout::testing::*;
    use crate::units::Emu;

    fn boxed(h: AnchorPosition, v: AnchorPosition) -> Paragraph {
        let mut p = para("anchor");
        p.text_boxes.push(TextBox {
            blocks: vec![Block::Paragraph(para("boxed"))],
            anchored: true,
            extent: Some((Emu(72 * 12_700), Emu(36 * 12_700))),
            horizontal: Some(h),
            vertical: Some(v),
            behind_text: false,
            ..TextBox::default()
        });
        p
    }

    fn at(from: &str, offset_pt: i64) -> AnchorPosition {
        AnchorPosition { relative_from: Some(from.into()), offset: Some(Emu(offset_pt * 12_700)), align: None, percent: None }
    }

    #[test]
    fn a_box_anchored_to_the_page_sits_at_its_offset_inside_the_insets() {
        let out = lay(&doc_of(vec![boxed(at("page", 300), at("page", 400))]));
        let t = texts(&out.layout.pages[0]);
        let b = t.iter().find(|x| x.2 == "boxed").expect("the box text");
        assert!((b.0 - 307.2).abs() < 0.01, "x {}", b.0);
        assert!(b.1 > 403.6 && b.1 < 420.0, "y {}", b.1);
    }

    #[test]
    fn a_floating_box_does_not_push_the_body_text_down() {
        let out = lay(&doc_of(vec![boxed(at("margin", 0), at("paragraph", 0)), para("next")]));
        let l = lines(&out.layout.pages[0]);
        let next = l.iter().find(|x| x.1 == "next").expect("next");
        let anchor = l.iter().find(|x| x.1 == "anchor").expect("anchor");
        assert!((next.0 - anchor.0 - 11.499).abs() < 0.01);
    }

    #[test]
    fn a_percent_offset_is_a_share_of_the_reference_width() {
        let h = AnchorPosition { relative_from: Some("page".into()), offset: Some(Emu(0)), align: None, percent: Some(10_000) };
        let out = lay(&doc_of(vec![boxed(h, at("page", 400))]));
        let t = texts(&out.layout.pages[0]);
        let b = t.iter().find(|x| x.2 == "boxed").expect("the box text");
        assert!((b.0 - (61.2 + 7.2)).abs() < 0.01, "x {}", b.0);
    }

    #[test]
    fn a_group_text_box_sits_at_its_offset_in_the_aligned_group() {
        let mut p = boxed(at("page", 100), AnchorPosition { relative_from: Some("page".into()), offset: None, align: Some("top".into()), percent: None });
        p.text_boxes[0].group_offset = (Emu(0), Emu(200 * 12_700));
        p.text_boxes[0].group_extent = Some((Emu(72 * 12_700), Emu(300 * 12_700)));
        let out = lay(&doc_of(vec![p]));
        let t = texts(&out.layout.pages[0]);
        let b = t.iter().find(|x| x.2 == "boxed").expect("the box text");
        assert!(b.1 > 203.6 && b.1 < 220.0, "y {}", b.1);
    }

    #[test]
    fn a_box_fitted_to_its_text_grows_to_hold_it_and_keeps_the_text_below_clear() {
        use crate::docx::model::Wrap;
        let anchor_y = |fit_text: bool| {
            let mut p = boxed(at("margin", 0), at("paragraph", 0));
            let b = &mut p.text_boxes[0];
            b.blocks = vec![Block::Paragraph(para("one")), Block::Paragraph(para("two"))];
            b.extent = Some((Emu(468 * 12_700), Emu(12_700)));
            b.wrap = Wrap::TopAndBottom;
            b.fit_text = fit_text;
            let out = lay(&doc_of(vec![p]));
            let t = texts(&out.layout.pages[0]);
            let two = t.iter().find(|x| x.2 == "two").expect("the box's second line").1;
            (t.iter().find(|x| x.2 == "anchor").expect("the anchor").1, two)
        };
        // Saved 1 pt high, the box is a thin band: the anchor's line stands just below it.
        assert!(anchor_y(false).0 < 72.0 + 1.0 + 12.0, "{:?}", anchor_y(false));
        // Fitted, it holds its two lines and 3.6 pt insets: the anchor's line comes after.
        let (anchor, two) = anchor_y(true);
        assert!(anchor > two + 3.6, "anchor {anchor}, box's last line {two}");
    }

    #[test]
    fn a_centred_box_is_centred_in_the_margins() {
        let h = AnchorPosition { relative_from: Some("margin".into()), offset: None, align: Some("center".into()), percent: None };
        let out = lay(&doc_of(vec![boxed(h, at("paragraph", 0))]));
        let t = texts(&out.layout.pages[0]);
        let b = t.iter().find(|x| x.2 == "boxed").expect("the box text");
        assert!((b.0 - (306.0 - 36.0 + 7.2)).abs() < 0.01, "x {}", b.0);
    }
}
