//! Whether raw deflate data (RFC 1951) can start with given bytes, decided from the first
//! literals of its first block with a bit-by-bit canonical Huffman decoder (the method of
//! zlib's `puff.c`), without the lookup tables an inflater builds.
//!
//! The package check for PNG headers asks it of every entry: inflating 24 bytes of each
//! one built the inflater's tables for its first block, and an XML part differs from a
//! PNG signature at its first byte. Opening 4KA18_Klmpk1__Notulen_Rapat_2.docx (twelve
//! deflated entries) took 0.47 M instructions with the inflater, 0.25 M with this
//! (callgrind); decoding the code lengths a bit at a time is most of what is left.

/// Bit-length code order of a dynamic block header (RFC 1951 §3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Whether `raw` may inflate to bytes that start with `prefix`. `false` only when the
/// first block's first symbols are literals and one differs from `prefix`; anything this
/// reader does not follow (a back-reference, a block that ends first, damage, data that
/// ends) answers `true`, leaving the question to an inflater.
pub(crate) fn may_start_with(raw: &[u8], prefix: &[u8]) -> bool {
    first_literals_match(&mut Bits { data: raw, pos: 0, buf: 0, count: 0 }, prefix) != Some(false)
}

/// `Some(false)` when a literal differs from `prefix`, `None` when undecided.
fn first_literals_match(bits: &mut Bits<'_>, prefix: &[u8]) -> Option<bool> {
    let _final_block = bits.take(1)?;
    let literals = match bits.take(2)? {
        0 => return stored_match(bits, prefix),
        1 => fixed_code()?,
        2 => dynamic_code(bits)?,
        _ => return None,
    };
    for &expected in prefix {
        let symbol = literals.decode(bits)?;
        if symbol >= 256 {
            // The end of the block or a back-reference: not followed here.
            return None;
        }
        if symbol as u8 != expected {
            return Some(false);
        }
    }
    Some(true)
}

/// A stored block (§3.2.4): its bytes follow LEN and NLEN.
fn stored_match(bits: &mut Bits<'_>, prefix: &[u8]) -> Option<bool> {
    bits.align();
    let len = bits.take(16)?;
    let nlen = bits.take(16)?;
    if len != !nlen & 0xFFFF || (len as usize) < prefix.len() {
        return None;
    }
    for &expected in prefix {
        if bits.take(8)? as u8 != expected {
            return Some(false);
        }
    }
    Some(true)
}

/// The literal/length code of a fixed block (§3.2.6).
fn fixed_code() -> Option<Huffman> {
    let mut lengths = [0u8; 288];
    lengths[..144].fill(8);
    lengths[144..256].fill(9);
    lengths[256..280].fill(7);
    lengths[280..].fill(8);
    Huffman::new(&lengths)
}

/// The literal/length code of a dynamic block (§3.2.7); the distance code is not needed
/// for literals.
fn dynamic_code(bits: &mut Bits<'_>) -> Option<Huffman> {
    let literal_count = bits.take(5)? as usize + 257;
    let distance_count = bits.take(5)? as usize + 1;
    let code_count = bits.take(4)? as usize + 4;
    if literal_count > 286 || distance_count > 30 {
        return None;
    }
    let mut code_lengths = [0u8; 19];
    for &symbol in &CODE_LENGTH_ORDER[..code_count] {
        code_lengths[symbol] = bits.take(3)? as u8;
    }
    let code_length_code = Huffman::new(&code_lengths)?;
    // The distance code lengths follow the literal/length ones in the same sequence (a
    // repeat may cross from one to the other): all are read, to reach the block's data.
    let mut all_lengths = [0u8; 286 + 30];
    let lengths = &mut all_lengths[..literal_count + distance_count];
    let mut at = 0;
    while at < lengths.len() {
        let (length, repeat) = match code_length_code.decode(bits)? {
            symbol @ 0..=15 => (symbol as u8, 1),
            16 => (*lengths.get(at.checked_sub(1)?)?, 3 + bits.take(2)? as usize),
            17 => (0, 3 + bits.take(3)? as usize),
            _ => (0, 11 + bits.take(7)? as usize),
        };
        lengths.get_mut(at..at + repeat)?.fill(length);
        at += repeat;
    }
    Huffman::new(&lengths[..literal_count])
}

/// A canonical Huffman code (§3.2.2): how many codes of each length, and the symbols in
/// code order.
struct Huffman {
    counts: [u16; 16],
    symbols: [u16; 288],
}

impl Huffman {
    /// The code of these code lengths; `None` when they over-subscribe it.
    fn new(lengths: &[u8]) -> Option<Huffman> {
        let mut counts = [0u16; 16];
        for &length in lengths {
            counts[length as usize] += 1;
        }
        let mut left = 1i32;
        for &count in &counts[1..] {
            left = (left << 1) - count as i32;
            if left < 0 {
                return None;
            }
        }
        let mut offsets = [0u16; 16];
        for length in 1..15 {
            offsets[length + 1] = offsets[length] + counts[length];
        }
        let mut symbols = [0u16; 288];
        for (symbol, &length) in lengths.iter().enumerate() {
            if length != 0 {
                symbols[offsets[length as usize] as usize] = symbol as u16;
                offsets[length as usize] += 1;
            }
        }
        Some(Huffman { counts, symbols })
    }

    /// The next symbol, a bit at a time (codes are packed most significant bit first).
    fn decode(&self, bits: &mut Bits<'_>) -> Option<u16> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for &count in &self.counts[1..] {
            code |= bits.take(1)? as i32;
            let count = count as i32;
            if code < first + count {
                return Some(self.symbols[(index + code - first) as usize]);
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        None
    }
}

/// The bits of the data, least significant first (§3.1.1).
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    buf: u64,
    count: u32,
}

impl Bits<'_> {
    /// The next `n` (at most 16) bits, or `None` past the end.
    fn take(&mut self, n: u32) -> Option<u32> {
        while self.count < n {
            self.buf |= u64::from(*self.data.get(self.pos)?) << self.count;
            self.pos += 1;
            self.count += 8;
        }
        let value = (self.buf & ((1 << n) - 1)) as u32;
        self.buf >>= n;
        self.count -= n;
        Some(value)
    }

    /// Drops the bits left of the current byte.
    fn align(&mut self) {
        let partial = self.count % 8;
        self.buf >>= partial;
        self.count -= partial;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::DeflateEncoder;
    use flate2::Compression;
    use std::io::Write;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

    fn deflate(data: &[u8], level: u32) -> Vec<u8> {
        let mut e = DeflateEncoder::new(Vec::new(), Compression::new(level));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn inflate(raw: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut flate2::read::DeflateDecoder::new(raw), &mut out);
        out
    }

    #[test]
    fn data_that_inflates_to_the_prefix_is_never_ruled_out() {
        let text = "<?xml version=\"1.0\"?><w:document><w:body><w:p/></w:body></w:document>".repeat(40);
        let noise: Vec<u8> = (0u32..5000).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
        let mut png = PNG.to_vec();
        png.extend_from_slice(&[0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 0xC3, 0x50, 0, 0, 0xC3, 0x50]);
        let png_then_text = [&png[..], text.as_bytes()].concat();
        let png_then_noise = [&png[..], &noise[..]].concat();
        let repeated_png = PNG.repeat(100);
        let inputs: [&[u8]; 7] = [&png, &png_then_text, &png_then_noise, &repeated_png, text.as_bytes(), &noise, b"\x89P"];
        for data in inputs {
            for level in 0..=9 {
                let raw = deflate(data, level);
                let starts = inflate(&raw).starts_with(PNG);
                assert_eq!(starts, data.starts_with(PNG));
                if starts {
                    assert!(may_start_with(&raw, PNG), "level {level}, {} bytes", data.len());
                }
            }
        }
    }

    #[test]
    fn xml_parts_are_decoded_and_ruled_out_at_every_level() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:styles>".to_owned() + &"<w:style/>".repeat(300);
        let noise: Vec<u8> = (0u32..5000).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
        for data in [text.as_bytes(), &noise[..]] {
            for level in 0..=9 {
                let raw = deflate(data, level);
                // The first literals really are read (a wrong decoder would not find them).
                let mut bits = Bits { data: &raw, pos: 0, buf: 0, count: 0 };
                assert_eq!(first_literals_match(&mut bits, &data[..8]), Some(true), "level {level}");
                assert!(!may_start_with(&raw, PNG), "level {level}");
            }
        }
    }

    #[test]
    fn every_byte_after_a_png_signature_leaves_the_answer_to_the_inflater() {
        // Each compressed byte of a PNG head's stream truncated or flipped: whenever the
        // damaged data still inflates to the signature, the answer must be `true`.
        let mut png = PNG.to_vec();
        png.extend_from_slice(b"\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0");
        png.extend(std::iter::repeat_n(7u8, 300));
        for level in [0, 1, 6, 9] {
            let raw = deflate(&png, level);
            for at in 0..raw.len().min(40) {
                for flip in [0x01u8, 0x10, 0x80] {
                    let mut damaged = raw.clone();
                    damaged[at] ^= flip;
                    if inflate(&damaged).starts_with(PNG) {
                        assert!(may_start_with(&damaged, PNG), "level {level}, byte {at} ^ {flip:#x}");
                    }
                }
                if inflate(&raw[..at]).starts_with(PNG) {
                    assert!(may_start_with(&raw[..at], PNG), "level {level}, cut at {at}");
                }
            }
        }
    }
}
