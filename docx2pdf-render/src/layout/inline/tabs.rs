//! Tab stops (§17.3.1.37): custom, hanging-indent and default stops, and the pen placing them.

use crate::docx::model::{TabKind, TabLeader};
use crate::resolve::TabStopStyle;
use crate::units::Pt;

/// Stops closer than this to the pen are skipped (Word moves to the next one).
const EPSILON: Pt = Pt(0.01);

/// Everything that decides where a tab goes on one line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TabContext<'a> {
    /// Custom stops sorted by position, from the text margin.
    pub tabs: &'a [TabStopStyle],
    /// `w:defaultTabStop`.
    pub default: Pt,
    /// The hanging indent's implicit stop (the left indent), on a first line with hanging.
    pub hanging_stop: Option<Pt>,
    /// The right edge of the line (default stops past it are clamped to it).
    pub right: Pt,
}

/// A resolved stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Stop {
    /// Alignment of the text after the tab.
    pub kind: TabKind,
    /// Position from the text margin.
    pub pos: Pt,
    /// Leader drawn in the gap.
    pub leader: TabLeader,
}

/// The first stop after `x`: a custom stop (or the hanging indent, whichever comes first),
/// else the next default stop (notes §7).
pub(crate) fn next_stop(tc: &TabContext<'_>, x: Pt) -> Stop {
    let custom = tc
        .tabs
        .iter()
        .find(|t| t.kind != TabKind::Bar && t.kind != TabKind::Clear && t.pos > x + EPSILON)
        .map(|t| Stop { kind: t.kind, pos: t.pos, leader: t.leader });
    let hanging = tc
        .hanging_stop
        .filter(|h| *h > x + EPSILON)
        .map(|h| Stop { kind: TabKind::Left, pos: h, leader: TabLeader::None });
    match (custom, hanging) {
        (Some(c), Some(h)) if h.pos < c.pos => return h,
        (Some(c), _) => return c,
        (None, Some(h)) => return h,
        (None, None) => {}
    }
    let step = if tc.default.0 > 0.5 { tc.default } else { Pt(36.0) };
    let n = (x.0 / step.0 + 1e-6).floor() + 1.0;
    let mut pos = step * n;
    if pos > tc.right {
        pos = tc.right.max(x);
    }
    Stop { kind: TabKind::Left, pos, leader: TabLeader::None }
}

/// One tab segment: the text between a tab (or the line start) and the next tab.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TabSegment {
    /// The stop that places it.
    pub stop: Stop,
    /// Where the pen was when the tab came.
    pub start_x: Pt,
    /// Width of the text in the segment.
    pub width: Pt,
    /// Width before the decimal separator (decimal stops).
    pub before_decimal: Option<Pt>,
}

impl TabSegment {
    /// Where the segment's text starts.
    pub fn x0(&self) -> Pt {
        let pos = self.stop.pos;
        let x0 = match self.stop.kind {
            TabKind::Right => pos - self.width,
            TabKind::Center => pos - self.width * 0.5,
            TabKind::Decimal => pos - self.before_decimal.unwrap_or(self.width),
            _ => pos,
        };
        x0.max(self.start_x)
    }
}

/// The pen of one line: segments in order; the last one is open.
#[derive(Debug, Clone)]
pub(crate) struct Pen {
    /// Segments so far.
    pub segments: Vec<TabSegment>,
}

impl Pen {
    /// A pen at the line's start.
    pub fn new(x0: Pt) -> Pen {
        let stop = Stop { kind: TabKind::Left, pos: x0, leader: TabLeader::None };
        Pen { segments: vec![TabSegment { stop, start_x: x0, width: Pt::ZERO, before_decimal: None }] }
    }

    fn open(&mut self) -> &mut TabSegment {
        let last = self.segments.len() - 1;
        &mut self.segments[last]
    }

    /// The pen position.
    pub fn x(&self) -> Pt {
        let s = self.segments[self.segments.len() - 1];
        s.x0() + s.width
    }

    /// Advances by a piece of text; `decimal` marks the decimal separator.
    pub fn add(&mut self, width: Pt, decimal: bool) {
        let seg = self.open();
        if decimal && seg.stop.kind == TabKind::Decimal && seg.before_decimal.is_none() {
            seg.before_decimal = Some(seg.width);
        }
        seg.width += width;
    }

    /// A tab: opens a new segment at the next stop and returns its index.
    pub fn tab(&mut self, tc: &TabContext<'_>) -> usize {
        let x = self.x();
        let stop = next_stop(tc, x);
        self.segments.push(TabSegment { stop, start_x: x, width: Pt::ZERO, before_decimal: None });
        self.segments.len() - 1
    }

    /// The index of the open segment.
    pub fn current(&self) -> usize {
        self.segments.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(tabs: &[TabStopStyle]) -> TabContext<'_> {
        TabContext { tabs, default: Pt(36.0), hanging_stop: None, right: Pt(468.0) }
    }

    #[test]
    fn default_stops_sit_every_half_inch_from_the_margin() {
        assert_eq!(next_stop(&ctx(&[]), Pt(10.0)).pos, Pt(36.0));
        assert_eq!(next_stop(&ctx(&[]), Pt(36.0)).pos, Pt(72.0));
    }

    #[test]
    fn a_custom_stop_comes_before_default_stops() {
        let tabs = [TabStopStyle { kind: TabKind::Right, pos: Pt(200.0), leader: TabLeader::Dot }];
        let s = next_stop(&ctx(&tabs), Pt(50.0));
        assert_eq!((s.kind, s.pos), (TabKind::Right, Pt(200.0)));
    }

    #[test]
    fn the_hanging_indent_is_an_implicit_stop() {
        let tc = TabContext { hanging_stop: Some(Pt(18.0)), ..ctx(&[]) };
        assert_eq!(next_stop(&tc, Pt(5.0)).pos, Pt(18.0));
    }

    #[test]
    fn right_tab_text_ends_at_the_stop() {
        let tabs = [TabStopStyle { kind: TabKind::Right, pos: Pt(200.0), leader: TabLeader::None }];
        let mut pen = Pen::new(Pt::ZERO);
        pen.add(Pt(20.0), false);
        pen.tab(&ctx(&tabs));
        pen.add(Pt(30.0), false);
        assert_eq!(pen.x(), Pt(200.0));
    }
}
