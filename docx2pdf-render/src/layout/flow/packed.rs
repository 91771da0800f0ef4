//! A finished page's items packed into bytes until the PDF writer takes the page. A glyph
//! is 48 bytes in a frame; packed, each distinct glyph of the page is kept once (id, an
//! advance that fits single precision, one byte saying how its advance, offset and text are
//! kept, the text: 8 bytes for a letter) and every glyph is its number in that list, one
//! byte on a page of at most 256 distinct glyphs, else two (four past 65,536). A long
//! document's glyphs are most of what its layout holds: 10,000 paragraphs of 430
//! characters held 32 MB of glyphs packed 8 bytes each over 1,250 pages.

use std::sync::Arc;

use crate::layout::frame::{Face, Glyph, GlyphText, Item, Point, Positioned, Rgb, Tag, TextItem};
use crate::units::Pt;

/// Items in painting order, glyph runs packed; unpacking gives them back exactly.
#[derive(Debug, Clone, Default)]
pub(crate) struct Packed {
    items: Vec<PackedItem>,
    /// The items other than glyph runs, in order.
    others: Vec<Positioned>,
    /// The page's distinct glyphs, each encoded once (see [`encode`]), in order of first
    /// appearance.
    entries: Box<[u8]>,
    /// How many glyphs `entries` holds.
    entry_count: usize,
    /// The texts of entries too long to keep inline, in order of appearance.
    long_texts: Vec<GlyphText>,
    /// Every glyph of the page's runs in order: its entry's number, `width` bytes little
    /// endian.
    codes: Box<[u8]>,
    width: usize,
}

/// An item: a glyph run in 48 bytes, less than half a positioned item (a page of
/// dense text has 40 runs), or the next of the others.
#[derive(Debug, Clone)]
enum PackedItem {
    Text(Run),
    Other,
}

/// A glyph run without its glyphs: they are the next `count` codes.
#[derive(Debug, Clone)]
struct Run {
    pos: Point,
    face: Arc<Face>,
    size: Pt,
    count: u32,
    tag: Tag,
    color: Rgb,
    rtl: bool,
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
/// The longest encoding: id, head, advance, both offsets in full, six bytes of text.
const MAX_ENCODED: usize = 2 + 1 + 8 + 8 + 8 + 6;

/// Finds the glyphs a page has already given an entry: a table of recent encodings indexed
/// by their hash, each slot overwritten by the next encoding hashed to it. A glyph missed
/// (two distinct glyphs of one page in one slot) takes a second entry: the page is a few
/// bytes longer, and unpacks the same. Kept from page to page so that packing a page
/// allocates no table (and a document that packs no page allocates none at all); `page`
/// tells this page's slots from the earlier pages'.
#[derive(Debug, Clone, Default)]
pub(crate) struct Entries {
    slots: Box<[Slot]>,
    page: u32,
}

/// Slots of [`Entries`], a power of two: a page of Latin text has about 80 distinct glyphs.
const SLOTS: usize = 1 << 10;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u128,
    entry: u32,
    page: u32,
}

impl Entries {
    /// Starts a page: no slot holds one of its glyphs.
    fn next_page(&mut self) {
        self.page = self.page.wrapping_add(1);
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); SLOTS].into_boxed_slice();
        } else if self.page == 0 {
            self.slots.fill(Slot::default());
            self.page = 1;
        }
    }

    /// The entry of the glyph encoded as `key` if this page gave it one; else remembers
    /// `entry` for it.
    fn find_or_add(&mut self, key: u128, entry: u32) -> Option<u32> {
        let folded = (key as u64) ^ ((key >> 64) as u64);
        let at = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize;
        let slot = &mut self.slots[at];
        if slot.page == self.page && slot.key == key {
            return Some(slot.entry);
        }
        *slot = Slot { key, entry, page: self.page };
        None
    }
}

impl Packed {
    /// Packs `items`, finding repeated glyphs with `entries`.
    pub(crate) fn pack(items: Vec<Positioned>, entries: &mut Entries) -> Packed {
        entries.next_page();
        let glyph_count: usize = items.iter().map(|p| if let Item::Text(t) = &p.item { t.glyphs.len() } else { 0 }).sum();
        let mut packed = Packed { items: Vec::with_capacity(items.len()), ..Packed::default() };
        let mut numbers: Vec<u32> = Vec::with_capacity(glyph_count);
        let mut bytes = Vec::new();
        let mut next: u32 = 0;
        for positioned in items {
            let Positioned { pos, item: Item::Text(text), tag } = positioned else {
                packed.items.push(PackedItem::Other);
                packed.others.push(positioned);
                continue;
            };
            let TextItem { face, size, color, glyphs, rtl } = text;
            let count = u32::try_from(glyphs.len()).unwrap_or(u32::MAX);
            for g in glyphs {
                let Some((key, len)) = key(&g) else {
                    // Rare: offsets or a long text; an entry of its own.
                    let mut encoded = [0u8; MAX_ENCODED];
                    let (len, long) = encode(&g, &mut encoded);
                    bytes.extend_from_slice(&encoded[..len]);
                    if long {
                        packed.long_texts.push(g.text);
                    }
                    numbers.push(next);
                    next += 1;
                    continue;
                };
                if let Some(entry) = entries.find_or_add(key, next) {
                    numbers.push(entry);
                    continue;
                }
                bytes.extend_from_slice(&key.to_le_bytes()[..len]);
                numbers.push(next);
                next += 1;
            }
            packed.items.push(PackedItem::Text(Run { pos, face, size, count, tag, color, rtl }));
        }
        packed.entries = bytes.into_boxed_slice();
        packed.entry_count = next as usize;
        packed.width = match next {
            0..=0x100 => 1,
            0x101..=0x1_0000 => 2,
            _ => 4,
        };
        packed.codes = match packed.width {
            1 => numbers.iter().map(|&n| n as u8).collect(),
            2 => numbers.iter().flat_map(|&n| (n as u16).to_le_bytes()).collect(),
            _ => numbers.iter().flat_map(|&n| n.to_le_bytes()).collect(),
        };
        packed
    }

    /// The items as they were packed.
    pub(crate) fn unpack(self) -> Vec<Positioned> {
        let glyphs = decode_entries(&self.entries, self.entry_count, self.long_texts);
        let (width, codes) = (self.width, &self.codes);
        // The entry of glyph `i` of the page.
        let entry = |i: usize| -> usize {
            let at = i * width;
            match width {
                1 => codes.get(at).map_or(usize::MAX, |&b| usize::from(b)),
                2 => codes.get(at..at + 2).map_or(usize::MAX, |b| usize::from(u16::from_le_bytes([b[0], b[1]]))),
                _ => codes.get(at..at + 4).map_or(usize::MAX, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize),
            }
        };
        let mut next = 0;
        let mut others = self.others.into_iter();
        self.items
            .into_iter()
            .filter_map(|packed| match packed {
                PackedItem::Other => others.next(),
                PackedItem::Text(Run { pos, face, size, count, tag, color, rtl }) => {
                    let first = next;
                    next += count as usize;
                    let glyphs = (first..next).map(|i| glyphs.get(entry(i)).cloned().unwrap_or_else(empty_glyph)).collect();
                    Some(Positioned { pos, item: Item::Text(TextItem { face, size, color, glyphs, rtl }), tag })
                }
            })
            .collect()
    }
}

/// What a code outside the entries would give; packing writes none.
fn empty_glyph() -> Glyph {
    Glyph { id: 0, advance: Pt::ZERO, offset: Point::default(), text: GlyphText::EMPTY }
}

/// The encoding of `g` (see [`encode`]) as a number, little endian, and its length, when
/// it has no offset and fits 16 bytes: the common glyph, encoded without copying bytes and
/// looked up among the page's entries. The others (offsets, texts in `long_texts`) are rare
/// and each takes an entry of its own.
fn key(g: &Glyph) -> Option<(u128, usize)> {
    let GlyphText::Inline { len: n, bytes: text } = &g.text else { return None };
    let n = *n;
    let (x, y) = (g.offset.x.0.to_bits(), g.offset.y.0.to_bits());
    let zero_or_negative = |bits: u64| bits & !(1 << 63) == 0;
    if n >= LONG || !zero_or_negative(x) || !zero_or_negative(y) {
        return None;
    }
    let head = u64::from((x >> 63) as u8 | ((y >> 63) as u8) << 2 | n << 5);
    // The text's bytes, n ≤ 6 of them.
    let word = u64::from_le_bytes(text[..8].try_into().unwrap_or_default()) & ((1u64 << (8 * n)) - 1);
    let single = g.advance.0 as f32;
    let id = u64::from(g.id);
    if f64::from(single).to_bits() == g.advance.0.to_bits() {
        // id, head, 4 bytes of advance, then the text from byte 7.
        let low = id | (head | u64::from(SINGLE)) << 16 | u64::from(single.to_bits()) << 24 | word << 56;
        return Some((u128::from(low) | u128::from(word >> 8) << 64, 7 + usize::from(n)));
    }
    if n > 5 {
        return None;
    }
    // id, head, 8 bytes of advance, then the text from byte 11.
    let advance = g.advance.0.to_bits();
    let low = id | head << 16 | advance << 24;
    let high = advance >> 40 | word << 24;
    Some((u128::from(low) | u128::from(high) << 64, 11 + usize::from(n)))
}

/// Writes `g` at the start of `out`: its length, and whether its text goes to `long_texts`.
fn encode(g: &Glyph, out: &mut [u8; MAX_ENCODED]) -> (usize, bool) {
    let (x, y) = (coordinate(g.offset.x), coordinate(g.offset.y));
    let len = match &g.text {
        GlyphText::Inline { len, .. } if *len < LONG => *len,
        _ => LONG,
    };
    let single = g.advance.0 as f32;
    let exact = f64::from(single).to_bits() == g.advance.0.to_bits();
    let mut at = 0;
    let mut put = |b: &[u8]| {
        out[at..at + b.len()].copy_from_slice(b);
        at += b.len();
    };
    put(&g.id.to_le_bytes());
    put(&[x | y << 2 | if exact { SINGLE } else { 0 } | len << 5]);
    if exact {
        put(&single.to_bits().to_le_bytes());
    } else {
        put(&g.advance.0.to_bits().to_le_bytes());
    }
    for (code, value) in [(x, g.offset.x), (y, g.offset.y)] {
        if code == FULL {
            put(&value.0.to_bits().to_le_bytes());
        }
    }
    if let GlyphText::Inline { len: n, bytes: text } = &g.text {
        if len != LONG {
            put(&text[..usize::from(*n)]);
        }
    }
    (at, len == LONG)
}

/// The `count` glyphs encoded in `bytes`, the long texts taken in order.
fn decode_entries(bytes: &[u8], count: usize, long_texts: Vec<GlyphText>) -> Vec<Glyph> {
    let mut long_texts = long_texts.into_iter();
    let mut glyphs = Vec::with_capacity(count);
    let mut at = 0;
    let mut take = move |n: usize| {
        at += n;
        bytes.get(at - n..at).unwrap_or(&[])
    };
    let f64_of = |b: &[u8]| Pt(f64::from_bits(u64::from_le_bytes(b.try_into().unwrap_or_default())));
    for _ in 0..count {
        let id = u16::from_le_bytes(take(2).try_into().unwrap_or_default());
        let head = take(1).first().copied().unwrap_or_default();
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
        let back = Packed::pack(items.clone(), &mut Entries::default()).unpack();
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

    /// A run of `count` glyphs cycling through `distinct` ids, with a line between runs.
    fn cycling(count: usize, distinct: u16) -> Vec<Positioned> {
        let glyphs: Vec<Glyph> = (0..count)
            .map(|i| {
                let id = (i % usize::from(distinct)) as u16;
                Glyph { id, advance: Pt(f64::from(id) * 0.5), offset: Point::default(), text: GlyphText::new("x") }
            })
            .collect();
        let line = Positioned {
            pos: Point::default(),
            item: Item::Line(LineItem { to: Point::new(Pt(3.0), Pt(0.0)), thickness: Pt(0.5), color: Rgb::BLACK }),
            tag: Tag::ARTIFACT,
        };
        vec![text(glyphs[..count / 2].to_vec()), line, text(glyphs[count / 2..].to_vec())]
    }

    fn glyphs_of(items: &[Positioned]) -> Vec<Glyph> {
        items.iter().filter_map(|p| if let Item::Text(t) = &p.item { Some(t.glyphs.clone()) } else { None }).flatten().collect()
    }

    #[test]
    fn a_page_keeps_each_distinct_glyph_once_and_a_byte_per_glyph() {
        let items = cycling(1000, 10);
        let mut entries = Entries::default();
        let packed = Packed::pack(items.clone(), &mut entries);
        assert_eq!((packed.entry_count, packed.width, packed.codes.len()), (10, 1, 1000));
        assert_eq!(packed.entries.len(), 10 * 8, "id, head, advance in single precision, one byte of text");
        let back = packed.unpack();
        assert_eq!(glyphs_of(&back), glyphs_of(&items));
        assert!(matches!(back[1].item, Item::Line(_)), "the line between the runs stays in its place");
        // The next page finds none of this page's glyphs: each page holds its own entries.
        let again = Packed::pack(items, &mut entries);
        assert_eq!(again.entry_count, 10);
    }

    #[test]
    fn a_page_of_more_than_256_distinct_glyphs_numbers_them_in_two_bytes() {
        let items = cycling(2000, 300);
        let packed = Packed::pack(items.clone(), &mut Entries::default());
        assert_eq!(packed.width, 2);
        assert!(packed.entry_count >= 300, "a glyph missed in the table takes a second entry, never none");
        assert_eq!(glyphs_of(&packed.unpack()), glyphs_of(&items));
    }

    #[test]
    fn a_packed_run_takes_less_than_half_a_positioned_item() {
        assert_eq!(std::mem::size_of::<PackedItem>(), 48);
        assert!(std::mem::size_of::<Positioned>() >= 2 * std::mem::size_of::<PackedItem>());
    }
}
