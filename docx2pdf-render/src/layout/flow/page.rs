//! Pages under construction: size, body area between header and footer, columns.

use std::ops::Range;

use super::packed::{Entries, Packed};
use crate::layout::fragment::{translate, Fragment};
use crate::layout::frame::{Item, LineItem, Point, Positioned, Rgb, Size};
use crate::docx::model::PageVAlign;
use crate::resolve::SectionStyle;
use crate::units::Pt;

/// The smallest body height accepted, whatever the header and footer take.
const MIN_BODY: Pt = Pt(12.0);
/// Narrower columns are dropped for one column across the text width.
const MIN_COLUMN: Pt = Pt(18.0);
/// The width of the column separator: Word draws a thin black line; ½ pt is our choice.
const SEPARATOR_WIDTH: Pt = Pt(0.5);

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
    /// The body's first items, packed once the page was finished (its marks stay in
    /// `body`); anything placed later follows them.
    pub packed: Option<Packed>,
}

impl PageBuild {
    /// Packs the items placed so far: the page is finished.
    pub fn pack(&mut self, entries: &mut Entries) {
        self.unpack();
        self.packed = Some(Packed::pack(std::mem::take(&mut self.body.items), entries));
    }

    fn unpack(&mut self) {
        if let Some(packed) = self.packed.take() {
            let mut items = packed.unpack();
            items.append(&mut self.body.items);
            self.body.items = items;
        }
    }

    /// The body's items in painting order.
    pub fn take_items(&mut self) -> Vec<Positioned> {
        self.unpack();
        std::mem::take(&mut self.body.items)
    }

    /// Places a fragment with its top-left corner at `at`.
    pub fn place(&mut self, at: Point, frag: Fragment) {
        self.body.append_owned(at, frag);
    }

    /// Places a fragment under everything placed so far (`behindDoc`, §20.4.2.3).
    pub fn place_behind(&mut self, at: Point, frag: Fragment) {
        let mut under = Fragment::new(Pt::ZERO);
        under.append_owned(at, frag);
        self.unpack();
        self.body.items.splice(0..0, under.items);
        self.body.marks.extend(under.marks);
    }
}

/// The most glyphs finished pages keep unpacked: 0.8 MB as frames, about 5 pages of dense
/// text. A short document never pays for packing; a long one holds about a byte a glyph
/// (packed.rs).
const UNPACKED_GLYPHS: usize = 1 << 14;

/// Finished pages waiting for the PDF writer: the oldest are packed once the others hold
/// more than [`UNPACKED_GLYPHS`].
#[derive(Debug, Default)]
pub(crate) struct Shelf {
    /// How many pages are packed, from the first.
    packed: usize,
    /// The glyphs of the finished pages not packed.
    unpacked_glyphs: usize,
    /// What packing finds repeated glyphs with.
    entries: Entries,
}

impl Shelf {
    /// The last of `pages` is finished.
    pub fn finished(&mut self, pages: &mut [PageBuild]) {
        self.unpacked_glyphs += pages.last().map_or(0, unpacked_glyphs);
        while self.unpacked_glyphs > UNPACKED_GLYPHS && self.packed < pages.len() {
            let page = &mut pages[self.packed];
            self.unpacked_glyphs = self.unpacked_glyphs.saturating_sub(unpacked_glyphs(page));
            page.pack(&mut self.entries);
            self.packed += 1;
        }
    }

    /// The whole document is laid out. A document long enough to have packed pages packs
    /// the rest too: they wait for the PDF writer as long as the others, up to 0.8 MB of
    /// frames; a short one keeps them as frames and never packs.
    pub fn laid_out(&mut self, pages: &mut [PageBuild]) {
        if self.packed == 0 {
            return;
        }
        for page in pages.iter_mut().skip(self.packed) {
            page.pack(&mut self.entries);
        }
        self.packed = pages.len();
        self.unpacked_glyphs = 0;
    }
}

/// The glyphs of a page's items not packed.
fn unpacked_glyphs(page: &PageBuild) -> usize {
    page.body.items.iter().map(|p| if let Item::Text(text) = &p.item { text.glyphs.len() } else { 0 }).sum()
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

/// The columns' left edges and widths: equal columns `space` apart (§17.6.4), or the
/// section's unequal widths (§17.6.3) as written, even where they do not add up to the text
/// width; `mirrored` swaps the left and right margins. Word keeps a `w:col` width that is
/// wider than the margins leave (a single 9406-twip column between 1418-twip margins of an
/// 11907-twip page centres its titles 8.4 pt right of the margins' middle in Word's PDFs of
/// the isaqb examination rules, Mac and Windows alike); only columns that would run off
/// the page are scaled back to end at its edge.
pub(crate) fn columns(s: &SectionStyle, mirrored: bool) -> Vec<(Pt, Pt)> {
    let text = s.text_width();
    let left = s.left_margin(mirrored);
    if !s.column_widths.is_empty() {
        let last = s.column_widths.len() - 1;
        let total: Pt =
            s.column_widths.iter().enumerate().map(|(i, (w, sp))| *w + if i < last { *sp } else { Pt::ZERO }).sum();
        let room = s.page_width - left;
        let scale = if total > room && total > Pt::ZERO { room.0 / total.0 } else { 1.0 };
        if s.column_widths.iter().all(|(w, _)| *w * scale >= MIN_COLUMN) {
            let mut x = left;
            let mut out = Vec::with_capacity(s.column_widths.len());
            for (w, sp) in &s.column_widths {
                out.push((x, *w * scale));
                x += (*w + *sp) * scale;
            }
            return out;
        }
    }
    let n = s.columns.max(1) as usize;
    let w = (text - s.column_space * (n as f64 - 1.0)) / n as f64;
    if w < MIN_COLUMN {
        return vec![(left, text)];
    }
    (0..n).map(|i| (left + (w + s.column_space) * i as f64, w)).collect()
}

/// Column separators (`w:cols@w:sep`, §17.6.4): a thin line centred in each gap between
/// columns, from the top of the columns down to the bottom of the longest one.
pub(crate) fn separators(cols: &[(Pt, Pt)], top: Pt, bottom: Pt) -> Fragment {
    let mut f = Fragment::new(Pt::ZERO);
    for pair in cols.windows(2) {
        let (x0, w0) = pair[0];
        let x = (x0 + w0 + pair[1].0) * 0.5;
        f.push(
            Point::new(x, top),
            Item::Line(LineItem { to: Point::new(x, bottom), thickness: SEPARATOR_WIDTH, color: Rgb::BLACK }),
        );
    }
    f
}

/// Moves the body items `items` and marks `marks` of a page by `d`.
pub(crate) fn shift(page: &mut PageBuild, items: Range<usize>, marks: Range<usize>, d: Point) {
    for p in &mut page.body.items[items] {
        *p = translate(p, d);
    }
    for m in &mut page.body.marks[marks] {
        m.translate(d);
    }
}

/// The downward shift of each placed line for a section's vertical alignment (§17.6.23):
/// `lines` are (top, starts a paragraph) in order, `used` is the bottom of the content and
/// `bottom` the bottom of the body. `both` spreads the room between paragraphs.
pub(crate) fn v_align_shifts(align: PageVAlign, lines: &[(Pt, bool)], used: Pt, bottom: Pt) -> Vec<Pt> {
    let room = (bottom - used).max(Pt::ZERO);
    match align {
        PageVAlign::Top => vec![Pt::ZERO; lines.len()],
        PageVAlign::Center => vec![room * 0.5; lines.len()],
        PageVAlign::Bottom => vec![room; lines.len()],
        PageVAlign::Both => {
            let gaps = lines.iter().skip(1).filter(|(_, starts)| *starts).count();
            if gaps == 0 {
                return vec![Pt::ZERO; lines.len()];
            }
            let per = room / gaps as f64;
            let mut d = Pt::ZERO;
            lines
                .iter()
                .enumerate()
                .map(|(i, (_, starts))| {
                    if i > 0 && *starts {
                        d += per;
                    }
                    d
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::frame::{Face, Glyph, GlyphText, TextItem, Tag};
    use std::sync::Arc;

    /// A page whose body is one run of `glyphs` glyphs.
    fn page_of(glyphs: usize) -> PageBuild {
        let face = Arc::new(Face { id: 1, data: Arc::new(Vec::new()), index: 0, postscript_name: "Test".into(), emulation: None });
        let glyph = Glyph { id: 3, advance: Pt(5.0), offset: Point::default(), text: GlyphText::new("a") };
        let item = TextItem { face, size: Pt(11.0), color: Rgb::BLACK, glyphs: vec![glyph; glyphs], rtl: false };
        let mut body = Fragment::new(Pt::ZERO);
        body.items.push(Positioned { pos: Point::default(), item: Item::Text(item), tag: Tag::PAGINATION });
        PageBuild {
            size: Size { width: Pt(612.0), height: Pt(792.0) },
            body,
            section: 0,
            number: 1,
            header: None,
            footer: None,
            packed: None,
        }
    }

    #[test]
    fn the_oldest_pages_are_packed_once_the_others_hold_too_many_glyphs() {
        let (mut pages, mut shelf) = (Vec::new(), Shelf::default());
        let per_page = UNPACKED_GLYPHS / 4;
        for _ in 0..4 {
            pages.push(page_of(per_page));
            shelf.finished(&mut pages);
        }
        assert!(pages.iter().all(|p| p.packed.is_none()), "four pages hold the budget exactly");
        for _ in 0..3 {
            pages.push(page_of(per_page));
            shelf.finished(&mut pages);
        }
        let packed: Vec<bool> = pages.iter().map(|p| p.packed.is_some()).collect();
        assert_eq!(packed, [true, true, true, false, false, false, false]);
        let mut first = pages.swap_remove(0);
        let Item::Text(text) = &first.take_items()[0].item else { panic!("the run is gone") };
        assert_eq!(text.glyphs.len(), per_page);
    }

    #[test]
    fn a_long_document_packs_its_last_pages_once_laid_out_and_a_short_one_none() {
        let (mut short, mut shelf) = (vec![page_of(10), page_of(10)], Shelf::default());
        shelf.finished(&mut short);
        shelf.laid_out(&mut short);
        assert!(short.iter().all(|p| p.packed.is_none()), "a short document never packs");
        let (mut long, mut shelf) = (Vec::new(), Shelf::default());
        for _ in 0..6 {
            long.push(page_of(UNPACKED_GLYPHS / 4));
            shelf.finished(&mut long);
        }
        assert!(long.last().is_some_and(|p| p.packed.is_none()));
        shelf.laid_out(&mut long);
        assert!(long.iter().all(|p| p.packed.is_some()), "every page of a long document waits packed");
        let Item::Text(text) = &long[5].take_items()[0].item else { panic!("the run is gone") };
        assert_eq!(text.glyphs.len(), UNPACKED_GLYPHS / 4);
    }

    #[test]
    fn center_and_bottom_move_every_line_by_half_or_all_of_the_room() {
        let lines = [(Pt(72.0), true), (Pt(90.0), false)];
        assert_eq!(v_align_shifts(PageVAlign::Center, &lines, Pt(108.0), Pt(208.0)), vec![Pt(50.0), Pt(50.0)]);
        assert_eq!(v_align_shifts(PageVAlign::Bottom, &lines, Pt(108.0), Pt(208.0)), vec![Pt(100.0), Pt(100.0)]);
    }

    #[test]
    fn both_spreads_the_room_between_paragraphs() {
        let lines = [(Pt(72.0), true), (Pt(90.0), false), (Pt(108.0), true), (Pt(126.0), true)];
        let d = v_align_shifts(PageVAlign::Both, &lines, Pt(144.0), Pt(244.0));
        assert_eq!(d, vec![Pt(0.0), Pt(0.0), Pt(50.0), Pt(100.0)]);
    }
}
