//! Computed page setup of a section (§17.6.17) with Word's defaults and inherited headers.

use super::page_borders::compute_page_borders;
use super::{HeaderFooterIds, SectionStyle};
use crate::docx::model::{DocGridType, HeaderFooterRefs, PageVAlign, SectionProps, SectionStart};
use crate::units::{Pt, Twips};

/// Letter, Word's page when `w:pgSz` is missing (§17.6.13).
const PAGE_WIDTH: Twips = Twips(12240);
const PAGE_HEIGHT: Twips = Twips(15840);
/// Word's margins when `w:pgMar` is missing: 1 inch, header/footer at 0.5 inch.
const MARGIN: Twips = Twips(1440);
const MARGIN_HEADER_FOOTER: Twips = Twips(720);

/// Computes a section. `previous` supplies header/footer kinds this section does not name
/// (§17.10.5: a missing kind is inherited; in the first section it is blank).
pub(super) fn compute_section(
    props: &SectionProps,
    previous: Option<&SectionStyle>,
    gutter_at_top: bool,
) -> SectionStyle {
    let len = |v: Option<Twips>, d: Twips| v.unwrap_or(d).pt();
    let page_width = len(props.page_width, PAGE_WIDTH).max(Pt(36.0));
    let page_height = len(props.page_height, PAGE_HEIGHT).max(Pt(36.0));
    // §17.6.11: a negative top/bottom margin is used as its absolute value (the text may then
    // overlap the header); left/right margins below zero make no sense and are clamped.
    let gutter = props.gutter.map(|g| g.pt()).unwrap_or(Pt::ZERO).max(Pt::ZERO);
    // The gutter is added on the left, or at the top with `w:gutterAtTop` (notes §4).
    // `w:rtlGutter` (§17.6.16) puts it on the right.
    let (gutter_left, gutter_top, gutter_right) = match (gutter_at_top, props.rtl_gutter) {
        (true, _) => (Pt::ZERO, gutter, Pt::ZERO),
        (false, true) => (Pt::ZERO, Pt::ZERO, gutter),
        (false, false) => (gutter, Pt::ZERO, Pt::ZERO),
    };
    let margin_top = Pt(len(props.margin_top, MARGIN).0.abs()) + gutter_top;
    let margin_bottom = Pt(len(props.margin_bottom, MARGIN).0.abs());
    let margin_left = len(props.margin_left, MARGIN).max(Pt::ZERO) + gutter_left;
    let margin_right = len(props.margin_right, MARGIN).max(Pt::ZERO) + gutter_right;
    let inherit = |own: &HeaderFooterRefs, prev: Option<&HeaderFooterIds>| HeaderFooterIds {
        default: own.default.clone().or_else(|| prev.and_then(|p| p.default.clone())),
        first: own.first.clone().or_else(|| prev.and_then(|p| p.first.clone())),
        even: own.even.clone().or_else(|| prev.and_then(|p| p.even.clone())),
    };
    SectionStyle {
        page_width,
        page_height,
        margin_top: margin_top.min(page_height * 0.45),
        margin_bottom: margin_bottom.min(page_height * 0.45),
        margin_left: margin_left.min(page_width * 0.45),
        margin_right: margin_right.min(page_width * 0.45),
        margin_header: len(props.margin_header, MARGIN_HEADER_FOOTER).max(Pt::ZERO),
        margin_footer: len(props.margin_footer, MARGIN_HEADER_FOOTER).max(Pt::ZERO),
        start: props.start.unwrap_or(SectionStart::NextPage),
        columns: props.columns.unwrap_or(1).clamp(1, 45),
        column_space: props.column_space.map(|t| t.pt()).unwrap_or(Pt::ZERO).max(Pt::ZERO),
        title_page: props.title_page,
        page_number_start: props.page_number_start,
        page_number_format: props.page_number_format.clone(),
        column_widths: unequal_columns(props),
        column_separator: props.column_separator,
        v_align: props.v_align.unwrap_or(PageVAlign::Top),
        line_pitch: line_pitch(props),
        headers: inherit(&props.headers, previous.map(|p| &p.headers)),
        footers: inherit(&props.footers, previous.map(|p| &p.footers)),
        page_borders: compute_page_borders(props.page_borders.as_ref()),
    }
}

/// The widths of unequal columns with the space after each (§17.6.3), when
/// `w:equalWidth="0"` and the `w:col` children give them (one child is enough: its width
/// still sets the column's); empty otherwise. A missing space is 0, Word's default
/// (OI29500 2.1.212).
fn unequal_columns(props: &SectionProps) -> Vec<(Pt, Pt)> {
    if props.equal_width != Some(false) || props.column_defs.is_empty() {
        return Vec::new();
    }
    if props.column_defs.iter().any(|c| c.width.is_none_or(|w| w.0 <= 0)) {
        return Vec::new();
    }
    props
        .column_defs
        .iter()
        .map(|c| {
            (c.width.map(|w| w.pt()).unwrap_or(Pt::ZERO), c.space.map(|w| w.pt()).unwrap_or(Pt::ZERO).max(Pt::ZERO))
        })
        .collect()
}

/// The grid's line pitch when line heights snap to it: a grid of type `lines` or
/// `linesAndChars` (§17.6.5); Word's default grid (no type) has no effect (notes §3).
fn line_pitch(props: &SectionProps) -> Option<Pt> {
    let grid = props.doc_grid?;
    match grid.kind? {
        DocGridType::Lines | DocGridType::LinesAndChars => grid.line_pitch.map(|t| t.pt()).filter(|p| p.0 > 1.0),
        DocGridType::Default | DocGridType::SnapToChars => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_page_setup_is_letter_with_one_inch_margins() {
        let s = compute_section(&SectionProps::default(), None, false);
        assert_eq!((s.page_width, s.page_height), (Pt(612.0), Pt(792.0)));
        assert_eq!(s.margin_left, Pt(72.0));
        assert_eq!(s.margin_header, Pt(36.0));
    }

    #[test]
    fn gutter_is_added_to_the_left_margin() {
        let props = SectionProps { gutter: Some(Twips(720)), ..Default::default() };
        assert_eq!(compute_section(&props, None, false).margin_left, Pt(108.0));
    }

    #[test]
    fn gutter_at_top_is_added_to_the_top_margin() {
        let props = SectionProps { gutter: Some(Twips(720)), ..Default::default() };
        let s = compute_section(&props, None, true);
        assert_eq!((s.margin_top, s.margin_left), (Pt(108.0), Pt(72.0)));
    }

    #[test]
    fn a_missing_header_kind_is_inherited_from_the_previous_section() {
        let first = SectionProps {
            headers: HeaderFooterRefs { default: Some("rId1".into()), ..Default::default() },
            ..Default::default()
        };
        let first = compute_section(&first, None, false);
        let second = compute_section(&SectionProps::default(), Some(&first), false);
        assert_eq!(second.headers.default.as_deref(), Some("rId1"));
    }

    #[test]
    fn an_rtl_gutter_is_added_to_the_right_margin() {
        let props = SectionProps { gutter: Some(Twips(720)), rtl_gutter: true, ..Default::default() };
        let s = compute_section(&props, None, false);
        assert_eq!((s.margin_left, s.margin_right), (Pt(72.0), Pt(108.0)));
    }

    #[test]
    fn unequal_columns_keep_their_widths_and_spaces() {
        use crate::docx::model::ColumnDef;
        let col = |w, sp| ColumnDef { width: Some(Twips(w)), space: Some(Twips(sp)) };
        let props = SectionProps {
            columns: Some(2),
            equal_width: Some(false),
            column_defs: vec![col(2880, 720), col(5760, 0)],
            ..Default::default()
        };
        let s = compute_section(&props, None, false);
        assert_eq!(s.column_widths, vec![(Pt(144.0), Pt(36.0)), (Pt(288.0), Pt(0.0))]);
        let equal = SectionProps { equal_width: None, ..props };
        assert!(compute_section(&equal, None, false).column_widths.is_empty());
    }
}
