//! A finished page's items packed into bytes until the PDF writer takes the page: a glyph
//! is 48 bytes in a frame and 8 packed (id, an advance that fits single precision, one
//! byte saying how its advance, offset and text are kept, the text), and a long
//! document's glyphs are most of what its layout holds (10,000 paragraphs: 55 MB of glyph
//! runs over 589 pages).

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
/// The head byte's bit saying the advance follows in single precision, which holds it
/// exactly (a font's units times a size in half points over a power-of-two em, the common
/// case); otherwise it follows in full.
const SINGLE: u8 = 1 << 4;
/// The text's length in the head byte's high three bits; this value says the text is in
/// `long_texts` (clusters of seven bytes or more: ligatures of many letters, several
/// ideographs).
const LONG: u8 = 7;

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
            let mut bytes = Vec::with_capacity(glyphs.len() * 8);
            for g in &glyphs {
                let (x, y) = (coordinate(g.offset.x), coordinate(g.offset.y));
                let len = match &g.text {
                    GlyphText::Inline { len, .. } if *len < LONG => *len,
                    _ => LONG,
                };
                let single = g.advance.0 as f32;
                let exact = f64::from(single).to_bits() == g.advance.0.to_bits();
                bytes.extend_from_slice(&g.id.to_le_bytes());
                bytes.push(x | y << 2 | if exact { SINGLE } else { 0 } | len << 5);
                if exact {
                    bytes.extend_from_slice(&single.to_bits().to_le_bytes());
                } else {
                    bytes.extend_from_slice(&g.advance.0.to_bits().to_le_bytes());
                }
                for (code, value) in [(x, g.offset.x), (y, g.offset.y)] {
                    if code == FULL {
                        bytes.extend_from_slice(&value.0.to_bits().to_le_bytes());
                    }
                }
                match &g.text {
                    GlyphText::Inline { len: n, bytes: text } if len != LONG => bytes.extend_from_slice(&text[..usize::from(*n)]),
                    _ => packed.long_texts.push(g.text.clone()),
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
    let mut glyphs = Vec::with_capacity(count);
    let mut at = 0;
    let mut take = move |n: usize| {
        at += n;
        &bytes[at - n..at]
    };
    let f64_of = |b: &[u8]| Pt(f64::from_bits(u64::from_le_bytes(b.try_into().unwrap_or_default())));
    for _ in 0..count {
        let id = u16::from_le_bytes(take(2).try_into().unwrap_or_default());
        let head = take(1)[0];
        let advance = if head & SINGLE != 0 {
            Pt(f64::from(f32::from_bits(u32::from_le_bytes(take(4).try_into().unwrap_or_default()))))
        } else {
            f64_of(take(8))
        };
        let mut coordinate = |code: u8| match code {
            NEGATIVE_ZERO => Pt(-0.0),
            FULL => f64_of(take(8)),
            _ => Pt(0.0),
        };
        let x = coordinate(head & 3);
        let offset = Point::new(x, coordinate(head >> 2 & 3));
        let text = match head >> 5 {
            LONG => long_texts.next().unwrap_or_default(),
            len => GlyphText::copy_inline(take(usize::from(len))),
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
            // Seven bytes, inline in the frame and in `long_texts` packed, with an advance
            // single precision holds exactly; then six, the longest kept in the bytes.
            Glyph { id: 12, advance: Pt(1038.0 * 11.0 / 2048.0), offset: Point::default(), text: GlyphText::new("ffi\u{301}é") },
            Glyph { id: 13, advance: Pt(-0.0), offset: Point::default(), text: GlyphText::new("six by") },
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
