//! Fragments: laid-out pieces with items relative to their corner, plus page-dependent marks.

use std::sync::Arc;

use super::fonts::LoadedFace;
use super::frame::{Item, Point, Positioned, Rgb, Tag};
use crate::docx::model::{FieldKind, NoteKind};
use crate::units::Pt;

/// Something whose final form depends on the page it lands on.
#[derive(Debug, Clone)]
pub(crate) enum Mark {
    /// A bookmark: a named destination.
    Destination { name: String, at: Point },
    /// A heading: an outline entry.
    Outline { level: u8, title: String, at: Point },
    /// A paragraph in the Title style or a heading, with its text: the document's title
    /// when its properties give none (PDF/UA, ISO 14289-1 §7.1).
    Title { text: String, heading: bool },
    /// A page-dependent field laid out with a reserved width, filled in after pagination.
    Field(PendingField),
    /// A footnote or endnote reference: the page holding this line holds the footnote.
    Note(NoteKind, i64),
}

/// A field waiting for the final page numbers.
#[derive(Debug, Clone)]
pub(crate) struct PendingField {
    /// Which number.
    pub kind: FieldKind,
    /// The pen position on the baseline.
    pub at: Point,
    /// The width reserved in the line.
    pub reserved: Pt,
    /// Where the real text sits inside the reserved width: 0 left, 0.5 centre, 1 right.
    pub align: f64,
    /// Face, size and colour of the text.
    pub face: Arc<LoadedFace>,
    /// Font size.
    pub size: Pt,
    /// Text colour.
    pub color: Rgb,
    /// The structure element the number belongs to.
    pub tag: Tag,
}

impl Mark {
    pub(crate) fn translate(&mut self, d: Point) {
        let p = match self {
            Mark::Destination { at, .. } | Mark::Outline { at, .. } => at,
            Mark::Field(f) => &mut f.at,
            Mark::Note(..) | Mark::Title { .. } => return,
        };
        p.x += d.x;
        p.y += d.y;
    }
}

/// A laid-out piece of content, positioned relative to its own top-left corner.
#[derive(Debug, Clone, Default)]
pub(crate) struct Fragment {
    /// The height it takes in the flow.
    pub height: Pt,
    /// Items in painting order.
    pub items: Vec<Positioned>,
    /// Page-dependent marks.
    pub marks: Vec<Mark>,
}

impl Fragment {
    /// An empty fragment of `height`.
    pub fn new(height: Pt) -> Fragment {
        Fragment { height, items: Vec::new(), marks: Vec::new() }
    }

    /// Adds an artifact item (a rule, a fill) at `pos`.
    pub fn push(&mut self, pos: Point, item: Item) {
        self.items.push(Positioned { pos, item, tag: Tag::ARTIFACT });
    }

    /// Adds an item of structure element `tag` at `pos`.
    pub fn push_tagged(&mut self, pos: Point, item: Item, tag: Tag) {
        self.items.push(Positioned { pos, item, tag });
    }

    /// Tags every item from `from` on with `tag` (a picture's overlay, a repeated row).
    pub fn retag(&mut self, from: usize, tag: Tag) {
        for p in self.items.iter_mut().skip(from) {
            p.tag = tag;
        }
    }

    /// Moves `other`'s items and marks into this fragment with its origin at `offset`.
    pub fn append_owned(&mut self, offset: Point, other: Fragment) {
        self.items.extend(other.items.into_iter().map(|mut p| {
            p.pos = Point::new(p.pos.x + offset.x, p.pos.y + offset.y);
            if let Item::Line(line) = &mut p.item {
                line.to = Point::new(line.to.x + offset.x, line.to.y + offset.y);
            }
            p
        }));
        self.marks.extend(other.marks.into_iter().map(|mut m| {
            m.translate(offset);
            m
        }));
    }

    /// Takes the items and marks out, leaving the height.
    pub fn take_content(&mut self) -> Fragment {
        Fragment { height: self.height, items: std::mem::take(&mut self.items), marks: std::mem::take(&mut self.marks) }
    }

    /// Copies `other` into this fragment with its origin at `offset`.
    pub fn append(&mut self, offset: Point, other: &Fragment) {
        self.items.extend(other.items.iter().map(|p| translate(p, offset)));
        self.marks.extend(other.marks.iter().map(|m| {
            let mut m = m.clone();
            m.translate(offset);
            m
        }));
    }
}

/// `p` moved by `d`; a line's end point moves too.
pub(crate) fn translate(p: &Positioned, d: Point) -> Positioned {
    let mut item = p.item.clone();
    if let Item::Line(line) = &mut item {
        line.to = Point::new(line.to.x + d.x, line.to.y + d.y);
    }
    Positioned { pos: Point::new(p.pos.x + d.x, p.pos.y + d.y), item, tag: p.tag }
}
