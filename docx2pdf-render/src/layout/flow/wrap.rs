//! Text wrap around floating objects (§20.4.2.15–20): the areas anchored pictures, text
//! boxes and shapes keep free on a page, and the room a body line has beside them.

use crate::docx::model::{Wrap, WrapText};
use crate::units::Pt;

/// Text does not run beside an object in a gap narrower than this; the line goes below
/// the object instead. An estimate: Word leaves gaps of about half an inch empty.
pub(crate) const MIN_ROOM: Pt = Pt(36.0);

/// The room one line has.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LineBand {
    /// The whole column.
    Free,
    /// The column less `left` from its left edge and `right` from its right edge.
    Inset { left: Pt, right: Pt },
    /// No room at this height: the line moves down this far and asks again.
    Below(Pt),
}

/// The area an object keeps text out of, on one page: its box grown by its distances.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Exclusion {
    /// The page index.
    pub page: usize,
    pub x0: Pt,
    pub y0: Pt,
    pub x1: Pt,
    pub y1: Pt,
    /// `wrapTopAndBottom`, or square.
    pub top_and_bottom: bool,
    /// The sides text may run on.
    pub side: WrapText,
}

impl Exclusion {
    /// The exclusion of an object of `wrap` in box `(x, y, w, h)` grown by `(top, bottom,
    /// left, right)`; `None` for `wrapNone`.
    pub(crate) fn new(
        page: usize,
        wrap: Wrap,
        side: WrapText,
        (x, y, w, h): (Pt, Pt, Pt, Pt),
        (top, bottom, left, right): (Pt, Pt, Pt, Pt),
    ) -> Option<Exclusion> {
        let top_and_bottom = match wrap {
            Wrap::None => return None,
            Wrap::Square => false,
            Wrap::TopAndBottom => true,
        };
        if !(w > Pt::ZERO && h > Pt::ZERO) {
            return None;
        }
        Some(Exclusion {
            page,
            x0: x - left,
            y0: y - top,
            x1: x + w + right,
            y1: y + h + bottom,
            top_and_bottom,
            side,
        })
    }
}

/// The exclusions of the pages laid so far.
#[derive(Debug, Default)]
pub(crate) struct Exclusions {
    list: Vec<Exclusion>,
}

impl Exclusions {
    /// Adds an object's area; areas of earlier pages are dropped.
    pub(crate) fn add(&mut self, e: Exclusion) {
        self.list.retain(|x| x.page >= e.page);
        self.list.push(e);
    }

    /// Whether anything on `page` reaches below `y`.
    pub(crate) fn any_below(&self, page: usize, y: Pt) -> bool {
        self.list.iter().any(|e| e.page == page && e.y1 > y)
    }

    /// Where a block `height` high that cannot run beside objects starts, at `y` or
    /// below every object on `page` in the column `(x, width)` it would meet.
    pub(crate) fn clear_below(
        &self,
        page: usize,
        (col_x, col_w): (Pt, Pt),
        mut y: Pt,
        height: Pt,
    ) -> Pt {
        // Each pass clears the objects met at the current top; a bound keeps it finite.
        for _ in 0..64 {
            let met = self
                .list
                .iter()
                .filter(|e| {
                    e.page == page
                        && e.y0 < y + height
                        && e.y1 > y
                        && e.x0 < col_x + col_w
                        && e.x1 > col_x
                })
                .map(|e| e.y1)
                .fold(None, |a: Option<Pt>, b| Some(a.map_or(b, |a| a.max(b))));
            match met {
                Some(bottom) => y = bottom,
                None => break,
            }
        }
        y
    }

    /// Where a line `height` high finds room at `y` or below on `page` in the column
    /// `(x, width)`: past every object that leaves it none beside it.
    pub(crate) fn first_room(&self, page: usize, column: (Pt, Pt), mut y: Pt, height: Pt) -> Pt {
        // Each pass moves below one object; a bound keeps it finite.
        for _ in 0..64 {
            match self.band(page, column, y, height) {
                LineBand::Below(down) => y += down,
                _ => break,
            }
        }
        y
    }

    /// The room of a line `height` high at `y` on `page` in the column `(x, width)`.
    pub(crate) fn band(
        &self,
        page: usize,
        (col_x, col_w): (Pt, Pt),
        y: Pt,
        height: Pt,
    ) -> LineBand {
        let col_right = col_x + col_w;
        let (mut left, mut right) = (Pt::ZERO, Pt::ZERO);
        let mut below: Option<Pt> = None;
        let mut hit = false;
        for e in &self.list {
            if e.page != page
                || e.y0 >= y + height
                || e.y1 <= y
                || e.x0 >= col_right
                || e.x1 <= col_x
            {
                continue;
            }
            hit = true;
            let left_room = e.x0 - col_x;
            let right_room = col_right - e.x1;
            // Text on the left of the object, or on its right.
            let on_left = match e.side {
                WrapText::Left => Some(true),
                WrapText::Right => Some(false),
                // Both sides: Word fills the wider side when only one line fits on each
                // (a two-sided line is not laid out yet).
                WrapText::BothSides | WrapText::Largest => Some(left_room >= right_room),
            }
            .filter(|&l| !e.top_and_bottom && (if l { left_room } else { right_room }) >= MIN_ROOM);
            match on_left {
                Some(true) => right = right.max(col_right - e.x0),
                Some(false) => left = left.max(e.x1 - col_x),
                None => below = Some(below.map_or(e.y1 - y, |b| b.min(e.y1 - y))),
            }
        }
        if let Some(down) = below {
            return LineBand::Below(down.max(Pt(0.01)));
        }
        if !hit {
            return LineBand::Free;
        }
        if col_w - left - right < MIN_ROOM {
            // Objects on both sides leave no room: below the one that ends first.
            let down = self
                .list
                .iter()
                .filter(|e| e.page == page && e.y0 < y + height && e.y1 > y)
                .map(|e| e.y1 - y)
                .fold(Pt(f64::MAX), Pt::min);
            return LineBand::Below(down.max(Pt(0.01)));
        }
        LineBand::Inset { left, right }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, w: f64, side: WrapText) -> Exclusion {
        Exclusion::new(
            0,
            Wrap::Square,
            side,
            (Pt(x), Pt(100.0), Pt(w), Pt(100.0)),
            (Pt::ZERO, Pt::ZERO, Pt(9.0), Pt(9.0)),
        )
        .unwrap()
    }

    fn with(e: Exclusion) -> Exclusions {
        let mut x = Exclusions::default();
        x.add(e);
        x
    }

    const COL: (Pt, Pt) = (Pt(72.0), Pt(468.0));

    #[test]
    fn a_line_beside_a_left_object_starts_after_it_and_its_distance() {
        let x = with(square(72.0, 100.0, WrapText::BothSides));
        assert_eq!(
            x.band(0, COL, Pt(120.0), Pt(12.0)),
            LineBand::Inset {
                left: Pt(109.0),
                right: Pt::ZERO
            }
        );
        assert_eq!(
            x.band(0, COL, Pt(50.0), Pt(12.0)),
            LineBand::Free,
            "above it"
        );
        assert_eq!(
            x.band(0, COL, Pt(200.0), Pt(12.0)),
            LineBand::Free,
            "below it"
        );
        assert_eq!(
            x.band(1, COL, Pt(120.0), Pt(12.0)),
            LineBand::Free,
            "another page"
        );
    }

    #[test]
    fn the_side_follows_wrap_text() {
        let x = with(square(250.0, 100.0, WrapText::Left));
        assert_eq!(
            x.band(0, COL, Pt(120.0), Pt(12.0)),
            LineBand::Inset {
                left: Pt::ZERO,
                right: Pt(540.0 - 241.0)
            }
        );
        let x = with(square(250.0, 100.0, WrapText::BothSides));
        assert_eq!(
            x.band(0, COL, Pt(120.0), Pt(12.0)),
            LineBand::Inset {
                left: Pt(359.0 - 72.0),
                right: Pt::ZERO
            },
            "the wider side"
        );
    }

    #[test]
    fn the_first_room_of_a_line_is_below_an_object_as_wide_as_the_column() {
        let x = with(square(72.0, 468.0, WrapText::BothSides));
        // The object spans the column from 100 to 200: a line at 150 goes to 200.
        assert_eq!(x.first_room(0, COL, Pt(150.0), Pt(12.0)), Pt(200.0));
        // Above it, it stays where it is; beside a narrow one too.
        assert_eq!(x.first_room(0, COL, Pt(50.0), Pt(12.0)), Pt(50.0));
        let narrow = with(square(72.0, 100.0, WrapText::BothSides));
        assert_eq!(narrow.first_room(0, COL, Pt(150.0), Pt(12.0)), Pt(150.0));
    }

    #[test]
    fn top_and_bottom_or_no_room_sends_the_line_below() {
        let x = with(
            Exclusion::new(
                0,
                Wrap::TopAndBottom,
                WrapText::BothSides,
                (Pt(72.0), Pt(100.0), Pt(50.0), Pt(100.0)),
                (Pt::ZERO, Pt(6.0), Pt::ZERO, Pt::ZERO),
            )
            .unwrap(),
        );
        assert_eq!(
            x.band(0, COL, Pt(150.0), Pt(12.0)),
            LineBand::Below(Pt(56.0))
        );
        let x = with(square(90.0, 430.0, WrapText::BothSides));
        assert_eq!(
            x.band(0, COL, Pt(150.0), Pt(12.0)),
            LineBand::Below(Pt(50.0))
        );
        assert_eq!(x.clear_below(0, COL, Pt(150.0), Pt(12.0)), Pt(200.0));
        assert_eq!(x.clear_below(0, COL, Pt(300.0), Pt(12.0)), Pt(300.0));
        assert!(Exclusion::new(
            0,
            Wrap::None,
            WrapText::BothSides,
            (Pt(0.0), Pt(0.0), Pt(1.0), Pt(1.0)),
            Default::default()
        )
        .is_none());
    }
}
