//! Floating tables (`w:tblpPr`, §17.4.58): the whole table placed where its position says,
//! relative to the paragraph that follows it (`vertAnchor="text"`), the margin or the page,
//! with the text of the next paragraphs wrapping around it as around a square-wrapped
//! picture, keeping the `…FromText` distances.

use super::{FloatWrap, Flow};
use crate::docx::model::{TablePosition, Wrap, WrapText};
use crate::layout::error::LayoutError;
use crate::layout::fragment::Fragment;
use crate::layout::frame::Point;
use crate::layout::table::{render_row, LaidTable};
use crate::layout::text_box::anchor_origin;
use crate::units::Pt;

impl Flow<'_, '_, '_, '_> {
    /// Places a floating table over the flow; the flow itself does not move.
    pub(crate) fn place_floating_table(&mut self, t: &LaidTable, position: &TablePosition) -> Result<(), LayoutError> {
        let mut bg = Fragment::new(Pt::ZERO);
        let mut fg = Fragment::new(Pt::ZERO);
        let mut height = Pt::ZERO;
        let mut width = Pt::ZERO;
        for row in &t.rows {
            let (b, f) = render_row(row);
            bg.append_owned(Point::new(Pt::ZERO, height), b);
            fg.append_owned(Point::new(Pt::ZERO, height), f);
            height += row.height;
            width = row.cells.iter().map(|c| c.x + c.width).fold(width, Pt::max);
        }
        let mut frag = bg;
        frag.append_owned(Point::default(), fg);
        frag.height = height;
        if self.col_has_content {
            self.y += self.pending_after;
            self.pending_after = Pt::ZERO;
        }
        // A table anchored to the text that does not fit under it starts the next page,
        // as the paragraph it belongs to would.
        let below_text = position.vertical.relative_from.as_deref() == Some("paragraph");
        let offset = position.vertical.offset.map(|o| o.pt()).unwrap_or(Pt::ZERO);
        if below_text && self.col_has_content && self.y + offset + height > self.bottom {
            self.next_column(super::Cause::Auto)?;
        }
        let page = self.pages.len() - 1;
        let frame = self.anchor_frame(page, self.y);
        let at = anchor_origin(Some(&position.horizontal), Some(&position.vertical), &frame, width, height);
        let float = FloatWrap { behind: false, wrap: Wrap::Square, side: WrapText::BothSides, distance: position.distance };
        self.place_float(page, at, frag, width, float);
        Ok(())
    }
}
