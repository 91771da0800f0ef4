//! PNG pictures whose compressed samples a PDF takes as they are: FlateDecode with the
//! PNG predictors (ISO 32000-1 §7.4.4.4, Table 8) reads a PNG's IDAT stream directly when
//! the image is opaque grey, RGB or palette, at most 8 bits a sample, and not interlaced.
//! Such a picture is checked by inflating it once instead of being decoded, unfiltered
//! and compressed again.

use flate2::{Decompress, FlushDecompress, Status};


const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// How the samples of a passed-through PNG are coloured.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PngColor {
    Gray,
    Rgb,
    /// Palette entries as RGB triples (PLTE).
    Indexed(Vec<u8>),
}

/// A PNG's zlib stream with what the PDF needs to read it.
#[derive(Debug)]
pub(super) struct PassedPng {
    pub width: u32,
    pub height: u32,
    pub bits: u8,
    pub color: PngColor,
    /// The IDAT payloads joined: one zlib stream of filtered rows.
    pub data: Vec<u8>,
}

impl PassedPng {
    /// Samples per pixel, the predictor's Colors.
    pub(super) fn colors(&self) -> u8 {
        match self.color {
            PngColor::Rgb => 3,
            PngColor::Gray | PngColor::Indexed(_) => 1,
        }
    }
}

/// The PNG's stream for passing through, or None when the picture must be decoded: it
/// has alpha or a transparent colour (tRNS), 16-bit samples, interlacing, more pixels
/// than `max_pixels`, or anything damaged (chunks, zlib stream, row filters, length).
pub(super) fn pass_through(png: &[u8], max_pixels: u64) -> Option<PassedPng> {
    let mut rest = png.strip_prefix(SIGNATURE)?;
    let mut header = None;
    let mut palette = None;
    let mut data = Vec::new();
    loop {
        let len = crate::bytes::u32_be(rest, 0)? as usize;
        let kind = rest.get(4..8)?;
        let body = rest.get(8..8 + len)?;
        rest = rest.get(12 + len..)?;
        match kind {
            b"IHDR" => header = Some(body),
            b"PLTE" => palette = Some(body),
            b"IDAT" => data.extend_from_slice(body),
            b"tRNS" => return None,
            b"IEND" => break,
            _ => {}
        }
    }
    let header = header.filter(|h| h.len() == 13)?;
    let width = crate::bytes::u32_be(header, 0)?;
    let height = crate::bytes::u32_be(header, 4)?;
    let (bits, kind, compression, filter, interlace) = (header[8], header[9], header[10], header[11], header[12]);
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > max_pixels {
        return None;
    }
    if (compression, filter, interlace) != (0, 0, 0) {
        return None;
    }
    let color = match (kind, bits) {
        (0, 1 | 2 | 4 | 8) => PngColor::Gray,
        (2, 8) => PngColor::Rgb,
        (3, 1 | 2 | 4 | 8) => {
            let palette = palette.filter(|p| !p.is_empty() && p.len() % 3 == 0 && p.len() / 3 <= 1 << bits)?;
            PngColor::Indexed(palette.to_vec())
        }
        _ => return None,
    };
    let passed = PassedPng { width, height, bits, color, data };
    let row = (passed.width as usize * usize::from(passed.colors()) * usize::from(bits)).div_ceil(8);
    rows_are_whole(&passed.data, row, passed.height as usize).then_some(passed)
}

/// Whether `stream` inflates to exactly `rows` rows of a filter byte (0–4, PNG §9.2) and
/// `row` bytes, and ends there.
fn rows_are_whole(stream: &[u8], row: usize, rows: usize) -> bool {
    let Some(expected) = rows.checked_mul(row + 1) else { return false };
    let mut inflate = Decompress::new(true);
    let mut buf = vec![0u8; 64 * 1024];
    let mut produced = 0usize;
    loop {
        let before_in = inflate.total_in() as usize;
        let before_out = inflate.total_out();
        let Some(input) = stream.get(before_in..) else { return false };
        let status = match inflate.decompress(input, &mut buf, FlushDecompress::None) {
            Ok(status) => status,
            Err(_) => return false,
        };
        let out = (inflate.total_out() - before_out) as usize;
        // The filter byte of every row that starts in this piece.
        let mut at = (row + 1 - produced % (row + 1)) % (row + 1);
        while at < out {
            if produced + at >= expected || buf[at] > 4 {
                return false;
            }
            at += row + 1;
        }
        produced += out;
        if produced > expected {
            return false;
        }
        match status {
            Status::StreamEnd => return produced == expected,
            Status::Ok | Status::BufError if out == 0 && inflate.total_in() as usize == before_in => return false,
            Status::Ok | Status::BufError => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::image::tests::png_bytes;

    #[test]
    fn an_opaque_rgb_png_passes_with_its_stream() {
        let png = png_bytes(5, 3, png::ColorType::Rgb, 7);
        let passed = pass_through(&png, crate::frame::MAX_IMAGE_PIXELS).expect("passes");
        assert_eq!((passed.width, passed.height, passed.bits, passed.colors()), (5, 3, 8, 3));
        assert!(rows_are_whole(&passed.data, 15, 3));
    }

    #[test]
    fn alpha_and_sixteen_bit_samples_are_decoded_instead() {
        assert!(pass_through(&png_bytes(2, 2, png::ColorType::Rgba, 7), crate::frame::MAX_IMAGE_PIXELS).is_none());
        assert!(pass_through(&png_bytes(2, 2, png::ColorType::GrayscaleAlpha, 7), crate::frame::MAX_IMAGE_PIXELS).is_none());
    }

    #[test]
    fn a_palette_png_passes_with_its_palette() {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, 4, 4);
            enc.set_color(png::ColorType::Indexed);
            enc.set_depth(png::BitDepth::Two);
            enc.set_palette(vec![0, 0, 0, 255, 0, 0, 0, 0, 255]);
            enc.write_header().unwrap().write_image_data(&[0b0001_1000; 4]).unwrap();
        }
        let passed = pass_through(&out, crate::frame::MAX_IMAGE_PIXELS).expect("passes");
        assert_eq!(passed.color, PngColor::Indexed(vec![0, 0, 0, 255, 0, 0, 0, 0, 255]));
        assert_eq!((passed.bits, passed.colors()), (2, 1));
    }

    #[test]
    fn damaged_files_never_pass_unless_their_rows_are_whole() {
        let good = png_bytes(23, 17, png::ColorType::Rgb, 7);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let mut bad = good.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % bad.len() as u64) as usize;
                match next() % 3 {
                    0 => bad[at] ^= 1 << (next() % 8),
                    1 => bad.truncate(at),
                    _ => bad[at] = next() as u8,
                }
                if bad.is_empty() {
                    break;
                }
            }
            // Whatever passes has a header that parses and rows that inflate whole.
            if let Some(passed) = pass_through(&bad, crate::frame::MAX_IMAGE_PIXELS) {
                let row = (passed.width as usize * usize::from(passed.colors()) * usize::from(passed.bits)).div_ceil(8);
                assert!(rows_are_whole(&passed.data, row, passed.height as usize));
                assert!(u64::from(passed.width) * u64::from(passed.height) <= crate::frame::MAX_IMAGE_PIXELS);
            }
        }
    }

    #[test]
    fn a_truncated_or_damaged_stream_is_decoded_instead() {
        let png = png_bytes(40, 30, png::ColorType::Rgb, 7);
        let passed = pass_through(&png, crate::frame::MAX_IMAGE_PIXELS).expect("passes");
        // One row short: the stream ends before the rows do.
        assert!(!rows_are_whole(&passed.data, 120, 31));
        // One row long: it goes on after the rows.
        assert!(!rows_are_whole(&passed.data, 120, 29));
        let mut cut = passed.data.clone();
        cut.truncate(cut.len() / 2);
        assert!(!rows_are_whole(&cut, 120, 30));
        // A filter byte out of range.
        let mut rows = vec![0u8; 30 * 121];
        rows[121] = 9;
        let stream = miniz_oxide::deflate::compress_to_vec_zlib(&rows, 1);
        assert!(!rows_are_whole(&stream, 120, 30));
        rows[121] = 4;
        assert!(rows_are_whole(&miniz_oxide::deflate::compress_to_vec_zlib(&rows, 1), 120, 30));
    }
}
