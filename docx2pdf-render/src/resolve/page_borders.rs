//! Computed page borders of a section (§17.6.10): the sides as drawn, the pages that show
//! them, and whether they are measured from the page edge or from the text.

use super::BorderStyle;
use crate::docx::model::{PageBorderDisplay, PageBorders};

/// A section's page borders, with at least one visible side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageBorderStyle {
    /// Top side.
    pub top: Option<BorderStyle>,
    /// Left side.
    pub left: Option<BorderStyle>,
    /// Bottom side.
    pub bottom: Option<BorderStyle>,
    /// Right side.
    pub right: Option<BorderStyle>,
    /// `w:display`: all pages, the section's first page, or all but its first.
    pub display: PageBorderDisplay,
    /// `w:offsetFrom="page"`: each side's `w:space` is its distance from the page edge;
    /// otherwise from the text (§17.6.10).
    pub from_page_edge: bool,
    /// `w:zOrder="back"`: painted behind the text; in front of it otherwise.
    pub behind_text: bool,
}

impl PageBorderStyle {
    /// Whether the page at `index_in_section` (0 for the section's first page) shows the
    /// borders.
    pub fn shown_on(&self, index_in_section: usize) -> bool {
        match self.display {
            PageBorderDisplay::AllPages => true,
            PageBorderDisplay::FirstPage => index_in_section == 0,
            PageBorderDisplay::NotFirstPage => index_in_section > 0,
        }
    }
}

/// The borders of `w:pgBorders`, or `None` when no side is visible (`<w:pgBorders/>` and
/// sides of `none` draw nothing).
pub(super) fn compute_page_borders(b: Option<&PageBorders>) -> Option<PageBorderStyle> {
    let b = b?;
    let side = |s: &Option<crate::docx::model::Border>| s.as_ref().and_then(BorderStyle::from_model);
    let style = PageBorderStyle {
        top: side(&b.top),
        left: side(&b.left),
        bottom: side(&b.bottom),
        right: side(&b.right),
        display: b.display,
        from_page_edge: b.from_page_edge,
        behind_text: b.behind_text,
    };
    let any = style.top.is_some() || style.left.is_some() || style.bottom.is_some() || style.right.is_some();
    any.then_some(style)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{Border, LineStyle};
    use crate::units::EighthPoints;

    #[test]
    fn borders_of_none_are_no_borders() {
        let none = Border { visible: false, style: LineStyle::None, ..Border::default() };
        let b = PageBorders { top: Some(none), ..PageBorders::default() };
        assert_eq!(compute_page_borders(Some(&b)), None);
        assert_eq!(compute_page_borders(Some(&PageBorders::default())), None);
    }

    #[test]
    fn not_first_page_skips_the_section_s_first_page() {
        let top = Border { visible: true, width: EighthPoints(4), ..Border::default() };
        let b = PageBorders { top: Some(top), display: PageBorderDisplay::NotFirstPage, ..PageBorders::default() };
        let s = compute_page_borders(Some(&b)).unwrap();
        assert!(!s.shown_on(0) && s.shown_on(1));
        assert_eq!(s.top.unwrap().width.0, 0.5);
    }
}
