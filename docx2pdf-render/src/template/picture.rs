//! Picture controls (`w:picture`, §17.5.2.25) filled from a `data:image/png;base64,…` or
//! `data:image/jpeg;base64,…` value: the picture takes the place of the control's own,
//! fitted into its extent with its aspect ratio kept. Any other value is refused: the
//! server never fetches a URL.

use base64::Engine;

/// A picture from the data, with its size in pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Picture {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Reads a data URI; the reason it cannot be used ends a sentence naming the control.
pub(crate) fn decode(value: &str, max_pixels: u64) -> Result<Picture, String> {
    let refused = || "is not a data:image/png or data:image/jpeg URI; pictures come inline as base64, the server fetches no URL".to_owned();
    let value = value.trim();
    let (head, payload) = value.split_once(',').ok_or_else(refused)?;
    let head = head.to_ascii_lowercase();
    let png = match head.as_str() {
        "data:image/png;base64" => true,
        "data:image/jpeg;base64" | "data:image/jpg;base64" => false,
        _ => return Err(refused()),
    };
    let payload: String = payload.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD.decode(payload).map_err(|e| format!("is not valid base64 ({e})"))?;
    let size = if png { png_size(&bytes) } else { jpeg_size(&bytes) };
    let (width, height) = size.ok_or_else(|| format!("is not a {} picture", if png { "PNG" } else { "JPEG" }))?;
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(format!("is {width}×{height} pixels, more than the limit of {max_pixels} pixels (--max-image-pixels / DOCX2PDF_MAX_IMAGE_PIXELS)"));
    }
    Ok(Picture { bytes, width, height })
}

/// A PNG's size from its IHDR chunk (ISO/IEC 15948 §11.2.2).
fn png_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 24 || &b[..8] != b"\x89PNG\r\n\x1a\n" || &b[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(b[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(b[20..24].try_into().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// A JPEG's size from its first start-of-frame marker (ITU T.81 §B.2.2).
fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.get(..2) != Some(&[0xFF, 0xD8]) {
        return None;
    }
    let mut at = 2;
    while at + 4 <= b.len() {
        if b[at] != 0xFF {
            return None;
        }
        let marker = b[at + 1];
        if marker == 0xFF {
            at += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([b[at + 2], b[at + 3]]));
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            let h = u16::from_be_bytes([*b.get(at + 5)?, *b.get(at + 6)?]);
            let w = u16::from_be_bytes([*b.get(at + 7)?, *b.get(at + 8)?]);
            return (w > 0 && h > 0).then_some((u32::from(w), u32::from(h)));
        }
        at += 2 + len;
    }
    None
}

/// The largest size of `width`×`height`'s aspect ratio inside `box_cx`×`box_cy` (EMUs).
pub(crate) fn fit(width: u32, height: u32, box_cx: i64, box_cy: i64) -> (i64, i64) {
    let (w, h) = (f64::from(width), f64::from(height));
    let scale = (box_cx as f64 / w).min(box_cy as f64 / h);
    ((w * scale).round() as i64, (h * scale).round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(kind: &str, bytes: &[u8]) -> String {
        format!("data:image/{kind};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    #[test]
    fn only_png_and_jpeg_data_uris_are_taken() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 2]);
        assert_eq!(decode(&uri("png", &png), 100).map(|p| (p.width, p.height)), Ok((4, 2)));
        let jpeg = [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0, 3, 0, 5, 3];
        assert_eq!(decode(&uri("jpeg", &jpeg), 100).map(|p| (p.width, p.height)), Ok((5, 3)));
        for bad in ["https://example.com/logo.png", "file:///etc/passwd", "data:image/gif;base64,R0lGOD", "logo.png"] {
            assert!(decode(bad, 100).unwrap_err().contains("fetches no URL"), "{bad}");
        }
        assert!(decode(&uri("png", b"not a png"), 100).unwrap_err().contains("not a PNG"));
        assert!(decode(&uri("png", &png), 7).unwrap_err().contains("4×2 pixels"));
    }

    #[test]
    fn a_picture_fills_the_extent_keeping_its_aspect_ratio() {
        assert_eq!(fit(4, 2, 1000, 1000), (1000, 500));
        assert_eq!(fit(1, 3, 900, 600), (200, 600));
    }
}
