//! Decoding GIF (first frame), BMP and TIFF pictures to 8-bit grey or RGB samples with
//! an optional alpha plane, written like a PNG (Flate, with an SMask); each refuses an
//! image of more than [`MAX_PIXELS`] before allocating it.

use std::io::Cursor;

use super::image::DecodedPng as Decoded;

/// Refuses a `width`×`height` picture of `kind` of more than `max_pixels`.
fn check_size(kind: &str, width: u32, height: u32, max_pixels: u64) -> Result<(), String> {
    if width == 0 || height == 0 {
        return Err(format!("a {kind} picture has no pixels"));
    }
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(format!(
            "a {width}×{height} {kind} picture is larger than {max_pixels} pixels"
        ));
    }
    Ok(())
}

/// The first frame of a GIF on its logical screen, transparent where the frame is not.
pub(super) fn decode_gif(data: &[u8], max_pixels: u64) -> Result<Decoded, String> {
    let damaged = |e: gif::DecodingError| format!("a GIF picture could not be decoded: {e}");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(Cursor::new(data)).map_err(damaged)?;
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    check_size("GIF", width, height, max_pixels)?;
    let frame = decoder
        .read_next_frame()
        .map_err(damaged)?
        .ok_or("a GIF picture has no frame".to_string())?;
    let mut canvas = vec![0u8; width as usize * height as usize * 4];
    let (fw, fh) = (usize::from(frame.width), usize::from(frame.height));
    let (left, top) = (usize::from(frame.left), usize::from(frame.top));
    for row in 0..fh {
        let y = top + row;
        if y >= height as usize {
            break;
        }
        let visible = fw.min((width as usize).saturating_sub(left));
        let src = &frame.buffer[row * fw * 4..][..visible * 4];
        let at = (y * width as usize + left) * 4;
        canvas[at..at + visible * 4].copy_from_slice(src);
    }
    Ok(Decoded::from_rows(width, height, &canvas, width as usize * 4, 4))
}

/// A Windows bitmap (BITMAPINFOHEADER and its successors): 1, 4 and 8-bit palettes and
/// 24 and 32-bit pixels, uncompressed or with BI_BITFIELDS masks of the usual layout,
/// bottom-up or top-down.
pub(super) fn decode_bmp(data: &[u8], max_pixels: u64) -> Result<Decoded, String> {
    let bad = || "a BMP picture could not be read".to_string();
    let u16_at = |i: usize| crate::bytes::u16_le(data, i);
    let u32_at = |i: usize| crate::bytes::u32_le(data, i);
    if data.get(..2) != Some(b"BM") {
        return Err(bad());
    }
    let pixels_at = u32_at(10).ok_or_else(bad)? as usize;
    let header = u32_at(14).ok_or_else(bad)? as usize;
    if header < 40 {
        return Err("an OS/2 BMP picture is not drawn".into());
    }
    let width = u32_at(18).ok_or_else(bad)? as i32;
    let raw_height = u32_at(22).ok_or_else(bad)? as i32;
    let bits = u16_at(28).ok_or_else(bad)?;
    let compression = u32_at(30).ok_or_else(bad)?;
    // BI_RGB, or BI_BITFIELDS (taken as the standard masks Word and Paint write).
    if !(compression == 0 || compression == 3) {
        return Err("a compressed BMP picture is not drawn".into());
    }
    let top_down = raw_height < 0;
    let (width, height) = (width.unsigned_abs(), raw_height.unsigned_abs());
    check_size("BMP", width, height, max_pixels)?;
    let palette_at = 14 + header;
    let colors = match u32_at(46).ok_or_else(bad)? {
        0 if bits <= 8 => 1usize << bits,
        n => n as usize,
    };
    let palette: Vec<[u8; 3]> = (0..colors.min(256))
        .map(|i| {
            data.get(palette_at + i * 4..palette_at + i * 4 + 3)
                .map(|b| [b[2], b[1], b[0]])
                .unwrap_or([0, 0, 0])
        })
        .collect();
    let stride = (width as usize * usize::from(bits)).div_ceil(32) * 4;
    let row_bytes = width as usize * 3;
    if row_bytes > 0 && height > 0 && !matches!(bits, 1 | 4 | 8 | 24 | 32) {
        return Err(format!("a {bits}-bit BMP picture is not drawn"));
    }
    let mut color = vec![0u8; row_bytes * height as usize];
    // Rows are stored bottom up unless the height is negative; each is read by its depth.
    for (row, out) in color.chunks_exact_mut(row_bytes.max(1)).enumerate() {
        let src_row = if top_down {
            row
        } else {
            height as usize - 1 - row
        };
        let start = pixels_at + src_row * stride;
        let line = data.get(start..start + stride).ok_or_else(bad)?;
        match bits {
            24 | 32 => {
                let step = usize::from(bits / 8);
                for (o, s) in out.chunks_exact_mut(3).zip(line.chunks_exact(step)) {
                    o.copy_from_slice(&[s[2], s[1], s[0]]);
                }
            }
            _ => {
                for (x, o) in out.chunks_exact_mut(3).enumerate() {
                    let bit = x * usize::from(bits);
                    let shift = 8 - usize::from(bits) - bit % 8;
                    let index = (line[bit / 8] >> shift) & ((1u16 << bits) - 1) as u8;
                    o.copy_from_slice(&palette.get(usize::from(index)).copied().unwrap_or([0, 0, 0]));
                }
            }
        }
    }
    Ok(Decoded {
        width,
        height,
        gray: false,
        color,
        alpha: None,
    })
}

/// A TIFF's first image: grey, grey with alpha, RGB, RGBA or CMYK samples of 8 or 16 bits.
pub(super) fn decode_tiff(data: &[u8], max_pixels: u64) -> Result<Decoded, String> {
    use tiff::decoder::{Decoder, DecodingResult};
    use tiff::ColorType;
    let damaged = |e: tiff::TiffError| format!("a TIFF picture could not be decoded: {e}");
    let mut decoder = Decoder::new(Cursor::new(data)).map_err(damaged)?;
    let (width, height) = decoder.dimensions().map_err(damaged)?;
    check_size("TIFF", width, height, max_pixels)?;
    let color_type = decoder.colortype().map_err(damaged)?;
    let samples: Vec<u8> = match decoder.read_image().map_err(damaged)? {
        DecodingResult::U8(v) => v,
        DecodingResult::U16(v) => v.into_iter().map(|s| (s >> 8) as u8).collect(),
        _ => return Err("a TIFF picture has samples of an unusual type".into()),
    };
    let channels = match color_type {
        ColorType::Gray(8 | 16) => 1,
        ColorType::GrayA(8 | 16) => 2,
        ColorType::RGB(8 | 16) => 3,
        ColorType::RGBA(8 | 16) => 4,
        ColorType::CMYK(8 | 16) => 4,
        other => return Err(format!("a TIFF picture in {other:?} is not drawn")),
    };
    let n = width as usize * height as usize;
    if samples.len() < n * channels {
        return Err("a TIFF picture has fewer samples than pixels".into());
    }
    Ok(match color_type {
        ColorType::CMYK(_) => {
            // CMYK to RGB by the naive complement, as viewers show untagged CMYK.
            let color = samples
                .chunks_exact(4)
                .take(n)
                .flat_map(|p| {
                    let k = 255 - u16::from(p[3]);
                    [0, 1, 2].map(|i| ((255 - u16::from(p[i])) * k / 255) as u8)
                })
                .collect();
            Decoded {
                width,
                height,
                gray: false,
                color,
                alpha: None,
            }
        }
        // Grey or RGB, with or without alpha: `channels` samples a pixel, rows unpadded.
        _ => Decoded::from_rows(width, height, &samples[..n * channels], width as usize * channels, channels),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 24-bit bottom-up BMP of `w`×`h` pixels, the bottom row red and the rest blue.
    pub(crate) fn bmp_bytes(w: u32, h: u32) -> Vec<u8> {
        let stride = (w as usize * 3).div_ceil(4) * 4;
        let size = 54 + stride * h as usize;
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(b"BM");
        out.extend_from_slice(&(size as u32).to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&54u32.to_le_bytes());
        out.extend_from_slice(&40u32.to_le_bytes());
        out.extend_from_slice(&(w as i32).to_le_bytes());
        out.extend_from_slice(&(h as i32).to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&24u16.to_le_bytes());
        out.extend_from_slice(&[0; 24]);
        for row in 0..h {
            let mut line = Vec::with_capacity(stride);
            for _ in 0..w {
                line.extend_from_slice(if row == 0 { &[0, 0, 255] } else { &[255, 0, 0] });
            }
            line.resize(stride, 0);
            out.extend_from_slice(&line);
        }
        out
    }

    /// A `w`×`h` GIF whose left half is opaque green and right half transparent.
    pub(crate) fn gif_bytes(w: u16, h: u16) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let palette = [0, 255, 0, 0, 0, 0];
            let mut encoder = gif::Encoder::new(&mut out, w, h, &palette).unwrap();
            let pixels: Vec<u8> = (0..h)
                .flat_map(|_| (0..w).map(move |x| u8::from(x >= w / 2)))
                .collect();
            let mut frame = gif::Frame {
                width: w,
                height: h,
                buffer: pixels.into(),
                transparent: Some(1),
                ..gif::Frame::default()
            };
            frame.palette = None;
            encoder.write_frame(&frame).unwrap();
        }
        out
    }

    #[test]
    fn a_bottom_up_bmp_is_read_top_row_first() {
        let d = decode_bmp(&bmp_bytes(3, 2), crate::frame::MAX_IMAGE_PIXELS).unwrap();
        assert_eq!((d.width, d.height, d.gray), (3, 2, false));
        assert_eq!(&d.color[..3], &[0, 0, 255], "top row blue");
        assert_eq!(&d.color[9..12], &[255, 0, 0], "bottom row red");
    }

    /// A BMP of `bits` per pixel, one row per entry of `rows` (raw pixel bytes, padded
    /// here), a palette of `palette` BGR entries; `top_down` stores a negative height.
    fn bmp_with(bits: u16, width: i32, rows: &[&[u8]], palette: &[[u8; 3]], top_down: bool) -> Vec<u8> {
        let stride = (width as usize * usize::from(bits)).div_ceil(32) * 4;
        let at = 54 + palette.len() * 4;
        let mut out = b"BM".to_vec();
        out.extend_from_slice(&((at + stride * rows.len()) as u32).to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(at as u32).to_le_bytes());
        out.extend_from_slice(&40u32.to_le_bytes());
        out.extend_from_slice(&width.to_le_bytes());
        let height = rows.len() as i32;
        out.extend_from_slice(&(if top_down { -height } else { height }).to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&bits.to_le_bytes());
        // Compression, image size and resolution, then the palette's length.
        out.extend_from_slice(&[0; 16]);
        out.extend_from_slice(&(palette.len() as u32).to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        for bgr in palette {
            out.extend_from_slice(&[bgr[0], bgr[1], bgr[2], 0]);
        }
        for row in rows {
            let mut line = row.to_vec();
            line.resize(stride, 0);
            out.extend_from_slice(&line);
        }
        out
    }

    #[test]
    fn palette_and_32_bit_bmps_are_read_pixel_by_pixel() {
        let palette = [[0, 0, 0], [0, 0, 255], [0, 255, 0], [255, 0, 0]];
        // 4 bits: indexes 1, 2, 3 (high nibble first); 1 bit: 1, 0, 1; 8 bits: 3, 1, 9 (past
        // the palette: black).
        for (bits, row) in [(4, &[0x12, 0x30][..]), (1, &[0b1010_0000][..]), (8, &[3, 1, 9][..])] {
            let d = decode_bmp(&bmp_with(bits, 3, &[row], &palette, false), crate::frame::MAX_IMAGE_PIXELS).unwrap();
            let expected: &[u8] = match bits {
                4 => &[255, 0, 0, 0, 255, 0, 0, 0, 255],
                1 => &[255, 0, 0, 0, 0, 0, 255, 0, 0],
                _ => &[0, 0, 255, 255, 0, 0, 0, 0, 0],
            };
            assert_eq!(d.color, expected, "{bits} bits");
        }
        // 32 bits, stored top down: BGRA → RGB, the first stored row on top.
        let d = decode_bmp(&bmp_with(32, 2, &[&[1, 2, 3, 0, 4, 5, 6, 0], &[7, 8, 9, 0, 10, 11, 12, 0]], &[], true), crate::frame::MAX_IMAGE_PIXELS).unwrap();
        assert_eq!(d.color, vec![3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10]);
        assert!(decode_bmp(&bmp_with(16, 2, &[&[0; 4]], &[], false), crate::frame::MAX_IMAGE_PIXELS).is_err(), "16 bits are not drawn");
    }

    #[test]
    fn a_gif_keeps_its_transparency_as_alpha() {
        let d = decode_gif(&gif_bytes(4, 2), crate::frame::MAX_IMAGE_PIXELS).unwrap();
        assert_eq!((d.width, d.height), (4, 2));
        assert_eq!(&d.color[..3], &[0, 255, 0]);
        assert_eq!(
            d.alpha.as_deref().map(|a| &a[..4]),
            Some(&[255, 255, 0, 0][..])
        );
    }

    /// A `w`×`h` RGB TIFF, every pixel `rgb`.
    pub(crate) fn tiff_bytes(w: u32, h: u32, rgb: [u8; 3]) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let pixels: Vec<u8> = (0..w * h).flat_map(|_| rgb).collect();
        let mut encoder = tiff::encoder::TiffEncoder::new(&mut out).unwrap();
        encoder
            .write_image::<tiff::encoder::colortype::RGB8>(w, h, &pixels)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn an_rgb_tiff_is_read() {
        let d = decode_tiff(&tiff_bytes(2, 3, [10, 20, 30]), crate::frame::MAX_IMAGE_PIXELS).unwrap();
        assert_eq!((d.width, d.height, d.gray), (2, 3, false));
        assert_eq!(&d.color[..6], &[10, 20, 30, 10, 20, 30]);
        assert!(d.alpha.is_none());
    }

    #[test]
    fn damaged_or_huge_pictures_are_refused() {
        assert!(decode_bmp(b"BM short", crate::frame::MAX_IMAGE_PIXELS).is_err());
        assert!(decode_gif(b"GIF89a tiny", crate::frame::MAX_IMAGE_PIXELS).is_err());
        assert!(decode_tiff(b"II*\0junk", crate::frame::MAX_IMAGE_PIXELS).is_err());
        let mut huge = bmp_bytes(1, 1);
        huge[18..22].copy_from_slice(&100_000i32.to_le_bytes());
        huge[22..26].copy_from_slice(&100_000i32.to_le_bytes());
        assert!(decode_bmp(&huge, crate::frame::MAX_IMAGE_PIXELS)
            .err()
            .is_some_and(|e| e.contains("larger than")));
    }
}
