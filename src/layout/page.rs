//! Pages under construction: size, body area between header and footer, columns.

use super::fragment::Fragment;
use super::frame::{Point, Size};
use crate::resolve::SectionStyle;
use crate::units::Pt;

/// The smallest body height accepted, whatever the header and footer take.
const MIN_BODY: Pt = Pt(12.0);

/// A page being filled.
#[derive(Debug, Clone)]
pub(crate) struct PageBuild {
    /// Page size.
    pub size: Size,
    /// Body items in painting order, with their marks.
    pub body: Fragment,
    /// The section the page belongs to (its header, footer and margins).
    pub section: usize,
    /// The displayed page number.
    pub number: i64,
    /// The header part id shown on this page.
    pub header: Option<String>,
    /// The footer part id shown on this page.
    pub footer: Option<String>,
}

impl PageBuild {
    /// Places a fragment with its top-left corner at `at`.
    pub fn place(&mut self, at: Point, frag: Fragment) {
        self.body.append_owned(at, frag);
    }

    /// Places a fragment under everything placed so far (`behindDoc`, §20.4.2.3).
    pub fn place_behind(&mut self, at: Point, frag: Fragment) {
        let mut under = Fragment::new(Pt::ZERO);
        under.append_owned(at, frag);
        self.body.items.splice(0..0, under.items);
        self.body.marks.extend(under.marks);
    }
}

/// The body area of a page and its columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BodyArea {
    /// Top of the body.
    pub top: Pt,
    /// Bottom of the body.
    pub bottom: Pt,
}

/// The body area: `max(top margin, header distance + header height)` down to the same rule
/// at the bottom (§17.6.11, notes §4).
pub(crate) fn body_area(s: &SectionStyle, header_height: Pt, footer_height: Pt) -> BodyArea {
    let top = s.margin_top.max(if header_height > Pt::ZERO { s.margin_header + header_height } else { Pt::ZERO });
    let footer_top = s.page_height - s.margin_footer - footer_height;
    let bottom_margin = s.page_height - s.margin_bottom;
    let bottom = if footer_height > Pt::ZERO { bottom_margin.min(footer_top) } else { bottom_margin };
    let bottom = bottom.max(top + MIN_BODY).min(s.page_height);
    BodyArea { top: top.min(s.page_height - MIN_BODY), bottom }
}

/// Column width and left edges (§17.6.4: equal columns, `space` apart); `mirrored` swaps
/// the left and right margins.
pub(crate) fn columns(s: &SectionStyle, mirrored: bool) -> (Pt, Vec<Pt>) {
    let mut n = s.columns.max(1) as usize;
    let text = s.text_width();
    let mut w = (text - s.column_space * (n as f64 - 1.0)) / n as f64;
    if w < Pt(18.0) {
        n = 1;
        w = text;
    }
    let left = s.left_margin(mirrored);
    let xs = (0..n).map(|i| left + (w + s.column_space) * i as f64).collect();
    (w, xs)
}
