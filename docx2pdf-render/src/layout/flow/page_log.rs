//! What a page's body holds, line by line, so that finished columns can be balanced and
//! the body aligned vertically after the fact.

use std::ops::Range;

use crate::layout::frame::Point;
use crate::layout::page::{shift, v_align_shifts, PageBuild};
use crate::docx::model::PageVAlign;
use crate::units::Pt;

/// Balancing searches the column height to this precision (points).
const PRECISION: Pt = Pt(0.05);

/// One placed line (or a block of table rows) of the body.
#[derive(Debug, Clone)]
pub(crate) struct PlacedLine {
    /// Its items in the page body.
    pub items: Range<usize>,
    /// Its marks in the page body.
    pub marks: Range<usize>,
    /// The column it went to.
    pub col: usize,
    /// Its top.
    pub top: Pt,
    /// Its height.
    pub height: Pt,
    /// Whether it is a paragraph's first line.
    pub starts_paragraph: bool,
}

/// The lines of the current page, and of the current run of columns (a region, which a
/// continuous section break ends).
#[derive(Debug, Default)]
pub(crate) struct PageLog {
    lines: Vec<PlacedLine>,
    region_start: usize,
    /// The region holds something balancing cannot move line by line (table rows, a hard
    /// column break).
    region_fixed: bool,
    /// The page holds table rows.
    page_has_blocks: bool,
}

impl PageLog {
    /// Records a placed line.
    pub fn push(&mut self, line: PlacedLine) {
        self.lines.push(line);
    }

    /// Records a block placed at once (table rows) in column `col`: it moves only with the
    /// whole page.
    pub fn other_content(&mut self, col: usize, items: Range<usize>, marks: Range<usize>) {
        self.lines.push(PlacedLine { items, marks, col, top: Pt::ZERO, height: Pt::ZERO, starts_paragraph: true });
        self.region_fixed = true;
        self.page_has_blocks = true;
    }

    /// Records a move to the next column; a hard one (`w:br w:type="column"`) is kept.
    pub fn column_break(&mut self, hard: bool) {
        self.region_fixed |= hard;
    }

    /// `n` items were inserted at the front of the page body.
    pub fn inserted_in_front(&mut self, n: usize) {
        for l in &mut self.lines {
            l.items = l.items.start + n..l.items.end + n;
        }
    }

    /// How many columns of the current region hold something.
    pub fn region_columns(&self) -> usize {
        self.lines[self.region_start..].iter().map(|l| l.col + 1).max().unwrap_or(0)
    }

    /// Starts a new run of columns.
    pub fn new_region(&mut self) {
        self.region_start = self.lines.len();
        self.region_fixed = false;
    }

    /// Balances the region's lines over `cols` (left edge, width) from `top`: the lowest
    /// column height that holds them in order, each column's first line moved to its top.
    /// Returns the bottom of the balanced columns, or `None` when it left them as they are.
    pub fn balance(&mut self, page: &mut PageBuild, cols: &[(Pt, Pt)], top: Pt) -> Option<Pt> {
        let lines = &self.lines[self.region_start..];
        // Moving lines between columns of different widths would need them laid out again.
        if self.region_fixed || lines.is_empty() || cols.windows(2).any(|w| (w[0].1 - w[1].1).0.abs() > 0.01) {
            return None;
        }
        // Every column starts as low as the region's first line (the space above it
        // belongs to the paragraph before the section break).
        let top = top + (lines[0].top - top).max(Pt::ZERO);
        // The gap above each line within its column; a column's first line has none.
        let units: Vec<(Pt, Pt)> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let gap = match i.checked_sub(1).map(|p| &lines[p]) {
                    Some(p) if p.col == l.col => (l.top - (p.top + p.height)).max(Pt::ZERO),
                    _ => Pt::ZERO,
                };
                (gap, l.height)
            })
            .collect();
        let tallest = units.iter().map(|u| u.1).fold(Pt::ZERO, Pt::max);
        let total: Pt = units.iter().map(|u| u.0 + u.1).sum();
        let (mut lo, mut hi) = (tallest, total.max(tallest));
        if pack(&units, hi).len() > cols.len() {
            return None;
        }
        while hi - lo > PRECISION {
            let mid = (lo + hi) * 0.5;
            if pack(&units, mid).len() <= cols.len() {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let starts = pack(&units, hi);
        let mut bottom = top;
        let mut col = 0;
        let mut y = top;
        for (i, l) in lines.iter().enumerate() {
            if starts.get(col + 1) == Some(&i) {
                col += 1;
                y = top;
            } else if i > 0 {
                y += units[i].0;
            }
            let d = Point::new(cols[col].0 - cols[l.col].0, y - l.top);
            shift(page, l.items.clone(), l.marks.clone(), d);
            y += l.height;
            bottom = bottom.max(y);
        }
        let region = self.region_start;
        let mut col = 0;
        let mut y = top;
        for (i, l) in self.lines[region..].iter_mut().enumerate() {
            if starts.get(col + 1) == Some(&i) {
                col += 1;
                y = top;
            } else if i > 0 {
                y += units[i].0;
            }
            l.col = col;
            l.top = y;
            y += l.height;
        }
        Some(bottom)
    }

    /// Moves the page's body down for the section's vertical alignment (§17.6.23): `used`
    /// is where the content ends, `bottom` the bottom of the body. `both` needs lines it
    /// can move one by one, so a page with table rows stays at the top.
    pub fn v_align(&self, page: &mut PageBuild, align: PageVAlign, used: Pt, bottom: Pt) {
        if align == PageVAlign::Top || (align == PageVAlign::Both && self.page_has_blocks) {
            return;
        }
        let tops: Vec<(Pt, bool)> = self.lines.iter().map(|l| (l.top, l.starts_paragraph)).collect();
        for (l, dy) in self.lines.iter().zip(v_align_shifts(align, &tops, used, bottom)) {
            if dy > Pt::ZERO {
                shift(page, l.items.clone(), l.marks.clone(), Point::new(Pt::ZERO, dy));
            }
        }
    }
}

/// Packs lines (gap above, height) into columns of height `h`; returns the index of each
/// column's first line.
fn pack(units: &[(Pt, Pt)], h: Pt) -> Vec<usize> {
    let mut starts = vec![0];
    let mut y = Pt::ZERO;
    for (i, (gap, height)) in units.iter().enumerate() {
        let need = if y > Pt::ZERO { *gap + *height } else { *height };
        if y > Pt::ZERO && y + need > h + PRECISION {
            starts.push(i);
            y = *height;
        } else {
            y += need;
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_starts_a_column_when_the_next_line_does_not_fit() {
        let units = [(Pt(0.0), Pt(10.0)), (Pt(2.0), Pt(10.0)), (Pt(2.0), Pt(10.0)), (Pt(2.0), Pt(10.0))];
        assert_eq!(pack(&units, Pt(22.0)), vec![0, 2]);
        assert_eq!(pack(&units, Pt(21.0)), vec![0, 1, 2, 3]);
    }
}
