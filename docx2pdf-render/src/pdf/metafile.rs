//! The raster inside a Windows metafile: many EMF and WMF pictures (pasted screenshots,
//! scanned logos) are one device-independent bitmap stretched over the frame. That bitmap
//! is found, or several tiles composed, and decoded; a metafile drawn with vectors gives
//! `None`.

use crate::bytes::{i16_le, i32_le, u16_le, u32_le};
use crate::metafile::{emf_records, wmf_records, PLACEABLE_KEY};
use super::image::DecodedPng as Decoded;
use super::raster::decode_bmp;

/// EMF record types (MS-EMF §2.1.1): `EMR_BITBLT`, `EMR_STRETCHBLT`, `EMR_STRETCHDIBITS`.
const EMR_BITBLT: u32 = 76;
const EMR_STRETCHBLT: u32 = 77;
const EMR_STRETCHDIBITS: u32 = 81;
const EMR_EOF: u32 = 14;
/// WMF record functions (MS-WMF §2.1.1.1): `META_DIBBITBLT`, `META_DIBSTRETCHBLT`,
/// `META_STRETCHDIB`.
const META_DIBBITBLT: u16 = 0x0940;
const META_DIBSTRETCHBLT: u16 = 0x0B41;
const META_STRETCHDIB: u16 = 0x0F43;
/// A bitmap must cover this share of the frame's area to stand for the whole picture.
const MIN_COVER: f64 = 0.5;
/// At most this many records are looked at.
const MAX_RECORDS: usize = 100_000;

/// A BMP file of a bitmap info block and its bits.
fn bmp_file(info: &[u8], bits: &[u8]) -> Vec<u8> {
    let offset = 14 + info.len();
    let mut out = Vec::with_capacity(offset + bits.len());
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&((offset + bits.len()) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(info);
    out.extend_from_slice(bits);
    out
}

/// A bitmap record: where it lands (x, y, width, height in the frame's units) and the
/// bitmap as BMP file bytes.
type Placed = (Area, Vec<u8>);

/// A rectangle: x, y, width, height.
type Area = (f64, f64, f64, f64);

/// The bitmaps of an EMF placed by their records' device bounds, with the header's
/// bounds as the frame.
fn emf_bitmaps(d: &[u8]) -> Option<(Area, Vec<Placed>)> {
    if u32_le(d, 0)? != 1 {
        return None;
    }
    let rect = |r: &[u8], at: usize| -> Option<(f64, f64, f64, f64)> {
        let (l, t, rr, b) = (
            i32_le(r, at)?,
            i32_le(r, at + 4)?,
            i32_le(r, at + 8)?,
            i32_le(r, at + 12)?,
        );
        // In f64: a corrupt record's bounds may span past i32.
        let (l, t, rr, b) = (f64::from(l), f64::from(t), f64::from(rr), f64::from(b));
        Some((l, t, rr - l + 1.0, b - t + 1.0))
    };
    let frame = rect(d, 8)?;
    let mut found = Vec::new();
    for (kind, rec) in emf_records(d, MAX_RECORDS) {
        let fields = match kind {
            EMR_STRETCHDIBITS => Some(48),
            EMR_BITBLT | EMR_STRETCHBLT => Some(84),
            _ => None,
        };
        if let (Some(off), Some(bounds)) = (fields, rect(rec, 8)) {
            let field = |i: usize| u32_le(rec, off + i).map(|v| v as usize);
            if let (Some(ob), Some(cb), Some(obits), Some(cbits)) =
                (field(0), field(4), field(8), field(12))
            {
                if cb >= 40 && cbits > 0 && ob + cb <= rec.len() && obits + cbits <= rec.len() {
                    found.push((
                        bounds,
                        bmp_file(&rec[ob..ob + cb], &rec[obits..obits + cbits]),
                    ));
                }
            }
        }
        if kind == EMR_EOF {
            break;
        }
    }
    Some((frame, found))
}

/// The size of a packed DIB's header, masks and palette: where its bits begin.
fn dib_bits_offset(dib: &[u8]) -> Option<usize> {
    let header = u32_le(dib, 0)? as usize;
    let bits = u16_le(dib, 14)?;
    let compression = u32_le(dib, 16)?;
    let used = u32_le(dib, 32).unwrap_or(0) as usize;
    let colors = if used > 0 {
        used
    } else if bits <= 8 {
        1 << bits
    } else {
        0
    };
    let masks = if header == 40 && compression == 3 {
        12
    } else {
        0
    };
    Some(header + masks + colors * 4)
}

/// The bitmaps of a WMF placed by their destination rectangles, with the placeable
/// header's box (or the first bitmap's) as the frame.
fn wmf_bitmaps(d: &[u8]) -> Option<(Area, Vec<Placed>)> {
    let frame = if u32_le(d, 0)? == PLACEABLE_KEY {
        let (l, t, r, b) = (
            f64::from(i16_le(d, 6)?),
            f64::from(i16_le(d, 8)?),
            f64::from(i16_le(d, 10)?),
            f64::from(i16_le(d, 12)?),
        );
        Some((l.min(r), t.min(b), (r - l).abs(), (b - t).abs()))
    } else {
        None
    };
    let mut found = Vec::new();
    for (function, rec) in wmf_records(d, MAX_RECORDS)? {
        if function == 0 {
            break;
        }
        // The DIB's offset and the destination's height, width, y and x fields (MS-WMF
        // §2.3.1.3, §2.3.1.2, §2.3.1.1: the variants that carry a bitmap).
        let layout = match function {
            META_STRETCHDIB => Some((28, 20, 22, 24, 26)),
            META_DIBSTRETCHBLT => Some((26, 18, 20, 22, 24)),
            META_DIBBITBLT => Some((22, 14, 16, 18, 20)),
            _ => None,
        };
        if let Some((dib_at, h_at, w_at, y_at, x_at)) = layout {
            let v = |i: usize| i16_le(rec, i).map(f64::from);
            if let (Some(dib), Some(h), Some(w), Some(y), Some(x)) =
                (rec.get(dib_at..), v(h_at), v(w_at), v(y_at), v(x_at))
            {
                if let Some(bits_at) =
                    dib_bits_offset(dib).filter(|&b| b < dib.len() && dib.len() >= 40)
                {
                    let r = (x.min(x + w), y.min(y + h), w.abs(), h.abs());
                    found.push((r, bmp_file(&dib[..bits_at], &dib[bits_at..])));
                }
            }
        }
    }
    let frame = frame.or_else(|| found.first().map(|(r, _)| *r))?;
    Some((frame, found))
}

/// The most pixels a composed metafile picture gets.
const MAX_CANVAS: f64 = 4_000_000.0;

/// The picture the bitmaps of a metafile make in its frame: the one bitmap when it fills
/// the frame alone, else the bitmaps painted on a transparent canvas; `None` when they
/// cover less than half of the frame (a vector drawing with a small bitmap in it).
fn compose((fx, fy, fw, fh): Area, placed: Vec<Placed>, max_pixels: u64) -> Option<Result<Decoded, String>> {
    if !(fw > 0.0 && fh > 0.0) || placed.is_empty() {
        return None;
    }
    let clip = |(x, y, w, h): (f64, f64, f64, f64)| {
        let (x0, y0) = (x.max(fx), y.max(fy));
        let (x1, y1) = ((x + w).min(fx + fw), (y + h).min(fy + fh));
        ((x1 - x0).max(0.0)) * ((y1 - y0).max(0.0))
    };
    let covered: f64 = placed.iter().map(|(r, _)| clip(*r)).sum();
    if covered < fw * fh * MIN_COVER {
        return None;
    }
    if placed.len() == 1 {
        return Some(decode_bmp(&placed[0].1, max_pixels));
    }
    // Tiles are painted where their records' bounds say; mirroring by world transforms
    // is not followed (measured on the corpus, the composed picture still matches Word's
    // far better than any one tile).
    let decoded: Vec<(Area, Decoded)> = placed
        .into_iter()
        .filter_map(|(r, bmp)| decode_bmp(&bmp, max_pixels).ok().map(|d| (r, d)))
        .collect();
    // As fine as the finest bitmap, within the canvas limit.
    let scale = decoded
        .iter()
        .filter(|((_, _, w, _), _)| *w > 0.0)
        .map(|((_, _, w, _), d)| f64::from(d.width) / w)
        .fold(1.0_f64, f64::max)
        .min((MAX_CANVAS / (fw * fh)).sqrt());
    let (cw, ch) = (
        (fw * scale).round().max(1.0) as usize,
        (fh * scale).round().max(1.0) as usize,
    );
    // A frame far from square (a corrupt header) could still ask for a huge canvas.
    if (cw as f64) * (ch as f64) > MAX_CANVAS * 1.01 {
        return Some(Err("a Windows metafile picture's frame is too large".into()));
    }
    // Painted straight into the picture's colour and alpha (uncovered canvas stays
    // transparent), each tile dropped once painted: a canvas and a copy of it held 28 MB
    // at once for docx4j's headers_footers.
    let mut color = vec![0u8; cw * ch * 3];
    let mut alpha = vec![0u8; cw * ch];
    for ((x, y, w, h), d) in decoded {
        let (px, py) = (
            ((x - fx) * scale).round() as i64,
            ((y - fy) * scale).round() as i64,
        );
        let (pw, ph) = ((w * scale).round() as i64, (h * scale).round() as i64);
        if pw <= 0 || ph <= 0 {
            continue;
        }
        let channels = if d.gray { 1 } else { 3 };
        let (x0, x1) = (px.max(0), px.saturating_add(pw).min(cw as i64));
        // The source column of each canvas column, computed once per tile, not per pixel.
        let columns: Vec<usize> = (x0..x1)
            .map(|tx| {
                let sx = (((tx - px) as f64 / pw as f64) * f64::from(d.width)) as usize;
                sx.min(d.width as usize - 1) * channels
            })
            .collect();
        // A tile wholly beside the canvas has no column on it.
        if columns.is_empty() {
            continue;
        }
        for ty in py.max(0)..py.saturating_add(ph).min(ch as i64) {
            let sy = (((ty - py) as f64 / ph as f64) * f64::from(d.height)) as usize;
            let row = sy.min(d.height as usize - 1) * d.width as usize * channels;
            let start = ty as usize * cw + x0 as usize;
            let out = &mut color[start * 3..(start + columns.len()) * 3];
            for (t, &sx) in out.chunks_exact_mut(3).zip(&columns) {
                let c = &d.color[row + sx..row + sx + channels];
                let (r, g, b) = if d.gray { (c[0], c[0], c[0]) } else { (c[0], c[1], c[2]) };
                t.copy_from_slice(&[r, g, b]);
            }
            alpha[start..start + columns.len()].fill(255);
        }
    }
    let alpha = alpha.iter().any(|&a| a != 255).then_some(alpha);
    Some(Ok(Decoded { width: cw as u32, height: ch as u32, gray: false, color, alpha }))
}

/// The picture of an EMF made of bitmaps; `None` for a vector drawing.
pub(super) fn emf_picture(d: &[u8], max_pixels: u64) -> Option<Result<Decoded, String>> {
    let (frame, placed) = emf_bitmaps(d)?;
    compose(frame, placed, max_pixels)
}

/// The picture of a WMF made of bitmaps; `None` for a vector drawing.
pub(super) fn wmf_picture(d: &[u8], max_pixels: u64) -> Option<Result<Decoded, String>> {
    let (frame, placed) = wmf_bitmaps(d)?;
    compose(frame, placed, max_pixels)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pdf::raster::tests::bmp_bytes;

    /// An EMF of one EMR_STRETCHDIBITS drawing a `w`×`h` bitmap over a `w`×`h` frame,
    /// scaled by `cover` (1.0: the whole frame).
    pub(crate) fn emf_bytes(w: i32, h: i32, cover: f64) -> Vec<u8> {
        let bmp = bmp_bytes(w as u32, h as u32);
        let (info, bits) = (&bmp[14..54], &bmp[54..]);
        let mut header = vec![0u8; 88];
        header[0..4].copy_from_slice(&1u32.to_le_bytes());
        header[4..8].copy_from_slice(&88u32.to_le_bytes());
        header[16..20].copy_from_slice(&(w - 1).to_le_bytes());
        header[20..24].copy_from_slice(&(h - 1).to_le_bytes());
        header[40..44].copy_from_slice(&0x464D_4520u32.to_le_bytes());
        let size = 80 + info.len() + bits.len();
        let mut rec = vec![0u8; 80];
        rec[0..4].copy_from_slice(&EMR_STRETCHDIBITS.to_le_bytes());
        rec[4..8].copy_from_slice(&(size as u32).to_le_bytes());
        rec[48..52].copy_from_slice(&80u32.to_le_bytes());
        rec[52..56].copy_from_slice(&(info.len() as u32).to_le_bytes());
        rec[56..60].copy_from_slice(&((80 + info.len()) as u32).to_le_bytes());
        rec[60..64].copy_from_slice(&(bits.len() as u32).to_le_bytes());
        rec[16..20].copy_from_slice(&((f64::from(w) * cover) as i32 - 1).to_le_bytes());
        rec[20..24].copy_from_slice(&((f64::from(h) * cover) as i32 - 1).to_le_bytes());
        rec[72..76].copy_from_slice(&((f64::from(w) * cover) as i32).to_le_bytes());
        rec[76..80].copy_from_slice(&((f64::from(h) * cover) as i32).to_le_bytes());
        rec.extend_from_slice(info);
        rec.extend_from_slice(bits);
        let mut eof = vec![0u8; 20];
        eof[0..4].copy_from_slice(&14u32.to_le_bytes());
        eof[4..8].copy_from_slice(&20u32.to_le_bytes());
        [header, rec, eof].concat()
    }

    #[test]
    fn an_emf_holding_one_bitmap_gives_that_bitmap() {
        let decoded = emf_picture(&emf_bytes(3, 2, 1.0), crate::frame::MAX_IMAGE_PIXELS)
            .expect("the bitmap")
            .unwrap();
        assert_eq!((decoded.width, decoded.height), (3, 2));
        assert_eq!(&decoded.color[..3], &[0, 0, 255]);
    }

    #[test]
    fn a_small_bitmap_in_a_vector_emf_does_not_stand_for_it() {
        assert!(emf_picture(&emf_bytes(10, 10, 0.3), crate::frame::MAX_IMAGE_PIXELS).is_none());
        assert!(emf_picture(b"not a metafile", crate::frame::MAX_IMAGE_PIXELS).is_none());
        assert!(wmf_picture(&[0xD7, 0xCD, 0xC6, 0x9A, 0, 0], crate::frame::MAX_IMAGE_PIXELS).is_none());
    }

    #[test]
    fn tiles_are_composed_on_a_transparent_canvas() {
        let tile = |x: f64| ((x, 0.0, 2.0, 2.0), bmp_bytes(2, 2));
        let d = compose((0.0, 0.0, 6.0, 2.0), vec![tile(0.0), tile(4.0)], crate::frame::MAX_IMAGE_PIXELS)
            .expect("covers two thirds")
            .unwrap();
        assert_eq!((d.width, d.height), (6, 2));
        let alpha = d.alpha.expect("a gap");
        assert_eq!(&alpha[..6], &[255, 255, 0, 0, 255, 255]);
    }

    #[test]
    fn a_tile_beside_the_canvas_is_left_out() {
        let tile = |x: f64, y: f64| ((x, y, 2.0, 2.0), bmp_bytes(2, 2));
        let d = compose((0.0, 0.0, 4.0, 2.0), vec![tile(0.0, 0.0), tile(2.0, 0.0), tile(9.0, 1.0), tile(-5.0, 0.0)], crate::frame::MAX_IMAGE_PIXELS)
            .expect("covered")
            .unwrap();
        assert_eq!((d.width, d.height), (4, 2));
        assert!(d.alpha.is_none(), "the two tiles on the canvas fill it");
    }
}
