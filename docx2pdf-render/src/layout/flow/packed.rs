//! A finished page's items packed into bytes until the PDF writer takes the page: a glyph
//! is 48 bytes in a frame and 12 packed (id, advance, one byte saying what its offset and
//! text are, the text), and a long document's glyphs are most of what its layout holds
//! (10,000 paragraphs: 55 MB of glyph runs over 589 pages).

use crate::layout::frame::{Glyph, GlyphText, Item, Point, Positioned, TextItem};
use crate::units::Pt;

/// Items in painting order, glyph runs packed; unpacking gives them back exactly.
#[derive(Debug, Clone, Default)]
pub(crate) struct Packed {
    items: Vec<PackedItem>,
    /// The texts of glyphs too long to keep inline, in order of appearance.
    long_texts: Vec<GlyphText>,
}

#[derive(Debug, Clone)]
enum PackedItem {
    /// A glyph run: the item with no glyphs, and its glyphs packed.
    Text { item: Positioned, count: usize, bytes: Box<[u8]> },
    Other(Positioned),
}

/// How an offset coordinate is kept, in two bits of a glyph's head byte: most are zero,
/// written as -0.0 where shaping negated a zero y offset; the others follow in full.
const ZERO: u8 = 0;
const NEGATIVE_ZERO: u8 = 1;
const FULL: u8 = 2;
/// The text's length in the head byte's high four bits; this value says the text is in
/// `long_texts`.
const LONG: u8 = 15;

impl Packed {
    /// Packs `items`.
    pub(crate) fn pack(items: Vec<Positioned>) -> Packed {
        let mut packed = Packed { items: Vec::with_capacity(items.len()), long_texts: Vec::new() };
        for mut positioned in items {
            let Item::Text(text) = &mut positioned.item else {
                packed.items.push(PackedItem::Other(positioned));
                continue;
            };
            let glyphs = std::mem::take(&mut text.glyphs);
            let mut bytes = Vec::with_capacity(glyphs.len() * 12);
            for g in &glyphs {
                let (x, y) = (coordinate(g.offset.x), coordinate(g.offset.y));
                let len = match &g.text {
                    GlyphText::Inline { len, .. } => *len,
                    GlyphText::Heap(_) => LONG,
                };
                bytes.extend_from_slice(&g.id.to_le_bytes());
                bytes.extend_from_slice(&g.advance.0.to_bits().to_le_bytes());
                bytes.push(x | y << 2 | len << 4);
                for (code, value) in [(x, g.offset.x), (y, g.offset.y)] {
                    if code == FULL {
                        bytes.extend_from_slice(&value.0.to_bits().to_le_bytes());
                    }
                }
                match &g.text {
                    GlyphText::Inline { len, bytes: text } => bytes.extend_from_slice(&text[..usize::from(*len)]),
                    GlyphText::Heap(_) => packed.long_texts.push(g.text.clone()),
                }
            }
            let count = glyphs.len();
            packed.items.push(PackedItem::Text { item: positioned, count, bytes: bytes.into_boxed_slice() });
        }
        packed
    }

    /// The items as they were packed.
    pub(crate) fn unpack(self) -> Vec<Positioned> {
        let mut long_texts = self.long_texts.into_iter();
        self.items
            .into_iter()
            .map(|packed| match packed {
                PackedItem::Other(positioned) => positioned,
                PackedItem::Text { mut item, count, bytes } => {
                    if let Item::Text(TextItem { glyphs, .. }) = &mut item.item {
                        *glyphs = unpack_glyphs(&bytes, count, &mut long_texts);
                    }
                    item
                }
            })
            .collect()
    }
}

fn unpack_glyphs(bytes: &[u8], count: usize, long_texts: &mut impl Iterator<Item = GlyphText>) -> Vec<Glyph> {
    let f64_at = |at: usize| Pt(f64::from_bits(u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default())));
    let mut glyphs = Vec::with_capacity(count);
    let mut at = 0;
    for _ in 0..count {
        let id = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let advance = f64_at(at + 2);
        let head = bytes[at + 10];
        at += 11;
        let mut coordinate = |code: u8| match code {
            NEGATIVE_ZERO => Pt(-0.0),
            FULL => {
                at += 8;
                f64_at(at - 8)
            }
            _ => Pt(0.0),
        };
        let x = coordinate(head & 3);
        let offset = Point::new(x, coordinate(head >> 2 & 3));
        let text = match head >> 4 {
            LONG => long_texts.next().unwrap_or_default(),
            len => {
                let len = usize::from(len);
                at += len;
                GlyphText::copy_inline(&bytes[at - len..at])
            }
        };
        glyphs.push(Glyph { id, advance, offset, text });
    }
    glyphs
}

/// How an offset coordinate is kept: zero and -0.0 in the head byte alone.
fn coordinate(v: Pt) -> u8 {
    match v.0.to_bits() {
        0 => ZERO,
        bits if bits == (-0.0f64).to_bits() => NEGATIVE_ZERO,
        _ => FULL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::frame::{Face, LineItem, Rgb, Tag};
    use std::sync::Arc;

    fn text(glyphs: Vec<Glyph>) -> Positioned {
        let face = Arc::new(Face {
            id: 7,
            data: Arc::new(Vec::<u8>::new()),
            index: 0,
            postscript_name: "Test".into(),
            emulation: None,
        });
        let item = TextItem { face, size: Pt(11.0), color: Rgb::BLACK, glyphs, rtl: true };
        Positioned { pos: Point::new(Pt(72.5), Pt(90.25)), item: Item::Text(item), tag: Tag::PAGINATION }
    }

    #[test]
    fn unpacking_gives_back_every_glyph_exactly() {
        let glyphs = vec![
            Glyph { id: 3, advance: Pt(5.123456789), offset: Point::default(), text: GlyphText::new("A") },
            Glyph { id: 65535, advance: Pt(-0.1), offset: Point::new(Pt(0.3), Pt(-1.7)), text: GlyphText::EMPTY },
            Glyph { id: 9, advance: Pt(2.0), offset: Point::default(), text: GlyphText::new("a cluster longer than fourteen bytes") },
            Glyph { id: 10, advance: Pt(2.5), offset: Point::new(Pt(0.0), Pt(-0.0)), text: GlyphText::new("ﻼ") },
            Glyph { id: 11, advance: Pt(0.0), offset: Point::new(Pt(-0.0), Pt(4.0)), text: GlyphText::new("é") },
        ];
        let line = Positioned {
            pos: Point::new(Pt(1.0), Pt(2.0)),
            item: Item::Line(LineItem { to: Point::new(Pt(3.0), Pt(2.0)), thickness: Pt(0.5), color: Rgb::BLACK }),
            tag: Tag::ARTIFACT,
        };
        let items = vec![text(glyphs.clone()), line.clone(), text(glyphs[2..].to_vec())];
        let back = Packed::pack(items.clone()).unpack();
        assert_eq!(back.len(), 3);
        for (a, b) in items.iter().zip(&back) {
            assert_eq!((a.pos, a.tag), (b.pos, b.tag));
            match (&a.item, &b.item) {
                (Item::Text(a), Item::Text(b)) => {
                    assert_eq!((a.size, a.color, a.rtl, a.face.id), (b.size, b.color, b.rtl, b.face.id));
                    assert_eq!(a.glyphs, b.glyphs);
                    // Equal is not enough: -0.0 must come back as itself.
                    let bits = |g: &Glyph| (g.advance.0.to_bits(), g.offset.x.0.to_bits(), g.offset.y.0.to_bits());
                    assert!(a.glyphs.iter().map(bits).eq(b.glyphs.iter().map(bits)));
                }
                (Item::Line(a), Item::Line(b)) => assert_eq!(a, b),
                _ => panic!("items changed kind"),
            }
        }
    }
}
