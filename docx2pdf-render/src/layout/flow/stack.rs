//! Blocks stacked in a box without pagination: table cells (with the objects floating in
//! them), text boxes, headers and footers.

use std::sync::Arc;

use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fields::FieldValues;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, Point, Size};
use crate::layout::paragraph::{layout_paragraph, LaidParagraph};
use crate::layout::picture;
use crate::layout::table::{layout_table, render_row};
use crate::layout::text_box::{box_placement, cell_anchor_origin, layout_box};
use crate::docx::model::{AnchorPosition, FrameProps, Wrap};
use crate::resolve::{ParaStyle, ResolvedBlock, ResolvedParagraph, ResolvedTable};
use crate::units::Pt;

/// Stacked content: lines and table rows at their y offsets.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stack {
    /// Pieces with their top y, in order.
    pub parts: Vec<(Pt, Fragment)>,
    /// Total height, the last paragraph's space after included.
    pub height: Pt,
    /// The objects floating in a header or footer, placed on each page (`place_on`).
    pub floats: Vec<StackFloat>,
}

/// A picture or text box anchored in a header or footer paragraph. Word places it from
/// its `wp:positionH`/`wp:positionV` on the page like a body object (§20.4.2.10/11), and
/// it does not make the header taller (the isaqb examination rules' logo, anchored in
/// the header, stands beside the header text in Word's PDF).
#[derive(Debug, Clone)]
pub(crate) struct StackFloat {
    /// The object, its origin at its top-left corner.
    pub frag: Fragment,
    /// What the anchor places: the object, or the group holding a group's text box.
    pub size: Size,
    /// Where the object sits in that group.
    pub offset: Point,
    pub horizontal: Option<AnchorPosition>,
    pub vertical: Option<AnchorPosition>,
    /// Drawn behind the text (`wp:anchor@behindDoc`).
    pub behind: bool,
    /// Its paragraph's top in the stack.
    pub paragraph_top: Pt,
}

impl Stack {
    /// All pieces as one fragment.
    pub fn to_fragment(&self) -> Fragment {
        let mut f = Fragment::new(self.height);
        for (y, part) in &self.parts {
            f.append(Point::new(Pt::ZERO, *y), part);
        }
        f
    }
}

/// The previous paragraph's `after` and this one's `before` as they count between the two
/// (see `between`), less what `contextualSpacing` removes between same-style paragraphs.
/// Autospacing is 0 between two list paragraphs, as between HTML list items (measured on
/// the corpus's `Abdullah_…_project_proposal` Word PDF).
pub(crate) fn gap(prev: Option<&ParaStyle>, prev_after: Pt, cur: &ParaStyle, before: Pt) -> (Pt, Pt) {
    let (mut after, mut before) = (prev_after, before);
    if let Some(prev) = prev {
        if prev.in_list && cur.in_list {
            if prev.after_autospacing {
                after = Pt::ZERO;
            }
            if cur.before_autospacing {
                before = Pt::ZERO;
            }
        }
        if prev.style_id == cur.style_id {
            if prev.contextual_spacing {
                after = Pt::ZERO;
            }
            if cur.contextual_spacing {
                before = Pt::ZERO;
            }
        }
    }
    (after, before)
}

/// What remains of the space after the paragraph just before a table. contextualSpacing
/// reaches across the table's edge (§17.3.1.9): the paragraph keeps no space after when it
/// asks for it and the first paragraph of the first cell (`first`) has its style (two
/// ListParagraph items, one above a table and one in its first cell, stand with no space
/// between them in Word's PDF of a held-out document, where 8 pt at each of two tables
/// moved a chart to the next page).
pub(crate) fn after_before_table(prev: Option<&ParaStyle>, prev_after: Pt, first: Option<&ParaStyle>) -> Pt {
    match (prev, first) {
        (Some(prev), Some(first)) if prev.contextual_spacing && prev.style_id == first.style_id => Pt::ZERO,
        _ => prev_after,
    }
}

/// The style of the first paragraph of a table's first cell, if it begins with one.
pub(crate) fn first_cell_style<'t>(t: &'t ResolvedTable<'_>) -> Option<&'t ParaStyle> {
    match t.rows.first()?.cells.first()?.blocks.first()? {
        ResolvedBlock::Paragraph(p) => Some(&p.style),
        _ => None,
    }
}

/// The space between two paragraphs from the previous `after` and this `before`: the
/// larger of the two. Word does not add them: 4 pt after and 8 pt before leave 8 pt
/// (measured on corpus `developer0hye_office2pdf_04_resume_en` and
/// `sverrejb_docxide_pdf_input_12`), which also explains the measured `before − after` at
/// the top of a page after a hard break (notes §3).
pub(crate) fn between(after: Pt, before: Pt) -> Pt {
    after.max(before)
}

/// Whether a header's or footer's framed paragraph stands out of its flow: a frame the
/// text goes around (§17.3.1.11), placed from the text and the margin, that is no drop
/// cap. Word's old page-number command put the PAGE field of a header in such a frame
/// aligned right, and the header is no taller for it (Veli-V_mobo-harkkatyo2_Dokumentaatio,
/// corpus/word: the body starts at the top margin, its header holding the framed number
/// and an empty paragraph).
fn floats_in_part(f: &FrameProps) -> bool {
    let drop_cap = f.drop_cap.as_deref().is_some_and(|d| d != "none");
    let beside = !matches!(f.wrap.as_deref(), Some("notBeside" | "none"));
    // Placed from the text and the margin: the part knows no more of the page.
    let from_text = matches!(f.v_anchor.as_deref(), None | Some("text"));
    let in_margin = f.h_anchor.as_deref() != Some("page");
    !drop_cap && beside && from_text && in_margin
}

/// Places a framed paragraph's lines `frame.y` below `y`, aligned in the part's width by
/// `xAlign` (or at `x`), without moving what follows.
fn place_framed(lp: LaidParagraph, frame: &FrameProps, width: Pt, y: Pt, stack: &mut Stack) {
    let mut top = y + frame.y.map_or(Pt::ZERO, |v| v.pt());
    for line in lp.lines {
        let h = line.frag.height;
        let (left, right) = ink_span(&line.frag).unwrap_or((Pt::ZERO, Pt::ZERO));
        let dx = match frame.x_align.as_deref() {
            Some("right" | "outside") => width - right,
            Some("center") => (width - (right - left)) * 0.5 - left,
            Some(_) => -left,
            None => frame.x.map_or(Pt::ZERO, |x| x.pt()) - left,
        };
        let mut moved = Fragment::new(h);
        moved.append_owned(Point::new(dx, Pt::ZERO), line.frag);
        stack.parts.push((top, moved));
        top += h;
    }
}

/// The left and right ends of the text of a line.
fn ink_span(frag: &Fragment) -> Option<(Pt, Pt)> {
    frag.items.iter().fold(None, |acc, p| match &p.item {
        Item::Text(t) => {
            let (l, r) = (p.pos.x, p.pos.x + t.width());
            Some(acc.map_or((l, r), |(a, b): (Pt, Pt)| (a.min(l), b.max(r))))
        }
        _ => acc,
    })
}

/// Lays out blocks one below the other in a box `width` wide. In a cell (or text box), the
/// first paragraph's autospacing `before` is 0 (notes §3), and so is the last paragraph's
/// autospacing `after`, as HTML margins collapse into a cell's edges (LibreOffice's
/// DomainMapper resets the cell's last paragraph's bottom margin likewise).
pub(crate) fn layout_stack(
    blocks: &[ResolvedBlock<'_>],
    width: Pt,
    ctx: &mut Ctx<'_>,
    fields: Option<&FieldValues>,
    in_cell: bool,
) -> Result<Stack, LayoutError> {
    let mut stack = Stack::default();
    let mut y = Pt::ZERO;
    // The lowest floating object that text wraps around: the cell grows to hold it.
    let mut floats_bottom = Pt::ZERO;
    let mut prev: Option<Arc<ParaStyle>> = None;
    let mut prev_after = Pt::ZERO;
    let mut first = true;
    for block in blocks {
        match block {
            ResolvedBlock::Paragraph(p) => {
                let lp: LaidParagraph = layout_paragraph(p, width, ctx, fields)?;
                if lp.lines.is_empty() {
                    continue;
                }
                if let Some(frame) = p.frame.filter(|f| !in_cell && floats_in_part(f)) {
                    place_framed(lp, frame, width, y, &mut stack);
                    continue;
                }
                let st = &lp.style;
                let before = if in_cell && first && st.before_autospacing { Pt::ZERO } else { st.space_before };
                let (after, before) = gap(prev.as_deref(), prev_after, st, before);
                y += between(after, before);
                if in_cell {
                    floats_bottom = floats_bottom.max(place_floats(p, width, y, ctx, &mut stack)?);
                } else {
                    keep_floats(p, width, y, ctx, &mut stack)?;
                }
                for line in lp.lines {
                    let h = line.frag.height;
                    stack.parts.push((y, line.frag));
                    y += h;
                }
                prev_after = st.space_after;
                prev = Some(lp.style.clone());
            }
            ResolvedBlock::Table(t) => {
                y += after_before_table(prev.as_deref(), prev_after, first_cell_style(t));
                prev_after = Pt::ZERO;
                prev = None;
                let lt = layout_table(t, width, ctx, fields)?;
                for row in &lt.rows {
                    let (bg, fg) = render_row(row);
                    let mut f = Fragment::new(row.height);
                    f.append(Point::new(lt.x, Pt::ZERO), &bg);
                    f.append(Point::new(lt.x, Pt::ZERO), &fg);
                    stack.parts.push((y, f));
                    y += row.height;
                }
            }
        }
        first = false;
    }
    if in_cell && prev.as_ref().is_some_and(|p| p.after_autospacing) {
        prev_after = Pt::ZERO;
    }
    stack.height = (y + prev_after).max(floats_bottom);
    Ok(stack)
}

/// Keeps the floating pictures and text boxes anchored in paragraph `p` of a header or
/// footer, whose top is at `top`, for the pages to place.
fn keep_floats(p: &ResolvedParagraph<'_>, width: Pt, top: Pt, ctx: &mut Ctx<'_>, stack: &mut Stack) -> Result<(), LayoutError> {
    for tb in p.text_boxes.iter().filter(|b| b.shape.anchored) {
        let (w, frag) = layout_box(tb, width, ctx)?;
        let (size, offset) = box_placement(tb, w, frag.height);
        let s = tb.shape;
        let (horizontal, vertical) = (s.horizontal.clone(), s.vertical.clone());
        stack.floats.push(StackFloat { frag, size, offset, horizontal, vertical, behind: s.behind_text, paragraph_top: top });
    }
    for f in &p.floating {
        let (size, frag) = picture::floating(f.picture, f.tag, ctx);
        let (horizontal, vertical) = (f.anchor.horizontal.clone(), f.anchor.vertical.clone());
        let offset = Point::new(Pt::ZERO, Pt::ZERO);
        stack.floats.push(StackFloat { frag, size, offset, horizontal, vertical, behind: f.anchor.behind_text, paragraph_top: top });
    }
    Ok(())
}

/// Places the floating pictures and text boxes anchored in paragraph `p` of a cell (or
/// text box) whose top is at `top`, in front of the text or behind it; returns the bottom
/// of those that text wraps around. The cell's text does not flow around them.
fn place_floats(p: &ResolvedParagraph<'_>, width: Pt, top: Pt, ctx: &mut Ctx<'_>, stack: &mut Stack) -> Result<Pt, LayoutError> {
    let mut bottom = Pt::ZERO;
    let mut put = |stack: &mut Stack, at: Point, frag: Fragment, behind: bool, wraps: bool| {
        let mut f = Fragment::new(Pt::ZERO);
        bottom = bottom.max(if wraps { at.y + frag.height } else { Pt::ZERO });
        f.append_owned(Point::new(at.x, Pt::ZERO), frag);
        if behind {
            stack.parts.insert(0, (at.y, f));
        } else {
            stack.parts.push((at.y, f));
        }
    };
    for tb in p.text_boxes.iter().filter(|b| b.shape.anchored) {
        let (w, frag) = layout_box(tb, width, ctx)?;
        let size = Size { width: w, height: frag.height };
        let at = cell_anchor_origin(tb.shape.horizontal.as_ref(), tb.shape.vertical.as_ref(), width, top, size);
        put(stack, at, frag, tb.shape.behind_text, tb.shape.wrap != Wrap::None);
    }
    for f in &p.floating {
        let (picture, anchor) = (f.picture, f.anchor);
        let (size, frag) = picture::floating(picture, f.tag, ctx);
        let at = cell_anchor_origin(anchor.horizontal.as_ref(), anchor.vertical.as_ref(), width, top, size);
        put(stack, at, frag, anchor.behind_text, anchor.wrap != Wrap::None);
    }
    Ok(bottom)
}
