//! Page borders (`w:pgBorders`, §17.6.10): the four sides of a page's border drawn as lines
//! around the text or at a distance from the page edge.

use crate::layout::fragment::Fragment;
use crate::layout::frame::Point;
use crate::layout::table::borders::draw;
use crate::resolve::{BorderStyle, PageBorderStyle, SectionStyle};
use crate::units::Pt;

/// Word's limit on `w:space` of a page border: 31 pt (ST_PointMeasure as used by §17.6.10).
const MAX_SPACE: Pt = Pt(31.0);

/// What a page shows beside its body that the border may surround.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Surround {
    /// The page shows a header and the borders take it in (`w:bordersDoNotSurroundHeader` off).
    pub header: bool,
    /// Likewise for the footer.
    pub footer: bool,
}

/// The border lines of one page, in page coordinates.
///
/// Measured from the page edge, a side's outer edge lies `w:space` from the page edge.
/// Measured from the text, its inner edge lies `w:space` outside the text area: the page's
/// margins, widened up to the header's and down to the footer's distance from the page edge
/// when the border surrounds them. A side's line runs between the outer edges of the sides
/// across it, or to the text area's edge where that side has no border, as LibreOffice draws
/// `Open-XML-SDK__top-Top_Border-themeColor-accent4` (no Word PDF of the shared sets has
/// page borders).
pub(crate) fn page_border_lines(b: &PageBorderStyle, s: &SectionStyle, mirrored: bool, surround: Surround) -> Fragment {
    let left = s.left_margin(mirrored);
    let right = left + s.text_width();
    let mut top = s.margin_top;
    let mut bottom = s.page_height - s.margin_bottom;
    if surround.header {
        top = top.min(s.margin_header);
    }
    if surround.footer {
        bottom = bottom.max(s.page_height - s.margin_footer);
    }
    // Each side's outer edge, measured inwards from the page edge it faces.
    let outer = |side: &BorderStyle, text_edge: Pt, page_extent: Pt| {
        let space = side.space.max(Pt::ZERO).min(MAX_SPACE);
        if b.from_page_edge {
            space
        } else {
            (text_edge - space - side.room).max(Pt::ZERO).min(page_extent)
        }
    };
    let o_top = b.top.map(|t| outer(&t, top, s.page_height));
    let o_left = b.left.map(|l| outer(&l, left, s.page_width));
    let o_bottom = b.bottom.map(|t| s.page_height - outer(&t, s.page_height - bottom, s.page_height));
    let o_right = b.right.map(|r| s.page_width - outer(&r, s.page_width - right, s.page_width));
    let (x0, x1) = (o_left.unwrap_or(left), o_right.unwrap_or(right));
    let (y0, y1) = (o_top.unwrap_or(top), o_bottom.unwrap_or(bottom));
    let mut f = Fragment::new(Pt::ZERO);
    if let (Some(t), Some(y)) = (b.top, o_top) {
        draw(&mut f, &t, Point::new(x0, y + t.room * 0.5), x1 - x0, false);
    }
    if let (Some(t), Some(y)) = (b.bottom, o_bottom) {
        draw(&mut f, &t, Point::new(x0, y - t.room * 0.5), x1 - x0, false);
    }
    if let (Some(l), Some(x)) = (b.left, o_left) {
        draw(&mut f, &l, Point::new(x + l.room * 0.5, y0), y1 - y0, true);
    }
    if let (Some(r), Some(x)) = (b.right, o_right) {
        draw(&mut f, &r, Point::new(x - r.room * 0.5, y0), y1 - y0, true);
    }
    f
}
