//! Image XObjects (ISO 32000-1 §8.9.5): each distinct image stored once per document,
//! JPEG passed through as DCTDecode, opaque PNG passed through as Flate with the PNG
//! predictors (`png_passthrough`), other PNG (and GIF, BMP, TIFF, decoded in `raster`)
//! written as Flate with an SMask for its alpha; metafiles, and images too large to
//! decode, become a placeholder box. Under PDF/A, whose output intent is sRGB, a CMYK
//! JPEG is decoded and written in RGB (ISO 19005-2 §6.2.4.3 allows DeviceCMYK only with
//! a CMYK output intent).

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Cursor;
use std::sync::Arc;

use pdf_writer::types::Predictor;
use pdf_writer::{Chunk, Content, Filter, Finish, Name, Ref};

use super::deflate::Deflater;
use super::document::Refs;
use super::png_passthrough::{pass_through, PassedPng, PngColor};
use super::{metafile, raster};
use super::PdfError;
use crate::frame::{ImageData, ImageFormat, ImageItem, Item, Page};
use crate::warning::Warning;


/// How an image is shown.
#[derive(Debug, Clone)]
pub(super) enum Stored {
    /// An image XObject under this resource name.
    XObject { id: Ref, name: String },
    /// A grey box stands in for it.
    Placeholder,
}

/// A distinct picture encoded for its XObject: the slow part of writing an image
/// (decoding, compressing), done for every picture before the pages are written, on as
/// many threads as the document may use.
pub(super) enum Encoded {
    /// A JPEG, passed through as DCTDecode.
    Jpeg(JpegInfo),
    /// A PNG's own zlib stream, read through the PNG predictors.
    Png(PassedPng),
    /// Samples compressed for FlateDecode, with the alpha as a soft mask when it has any.
    Flate {
        width: u32,
        height: u32,
        gray: bool,
        color: Vec<u8>,
        alpha: Option<Vec<u8>>,
    },
    /// It cannot be shown, for this reason: a grey box stands in for it.
    Unshown(String),
}


/// The images written so far, keyed by the identity of their bytes, and the encodings of
/// those still to be written, in the order [`ImageSet::unseen`] listed them.
#[derive(Default)]
pub(super) struct ImageSet {
    index: HashMap<(usize, usize), usize>,
    stored: Vec<Stored>,
    pending: VecDeque<Encoded>,
    /// The bytes of every image written: held so that no other image takes their address,
    /// the key, once the pages that showed them are gone.
    alive: Vec<Arc<[u8]>>,
    /// One warning per image that could not be shown.
    pub warnings: Vec<Warning>,
}

impl ImageSet {
    /// The images of `pages` not written yet, each once (by the identity of their bytes:
    /// the reader shares one buffer among all drawings of a media part), in the order the
    /// pages first show them.
    pub(super) fn unseen<'p, P: std::ops::Deref<Target = Page>>(&self, pages: &'p [P]) -> Vec<&'p ImageData> {
        let mut seen = HashSet::new();
        pages
            .iter()
            .flat_map(|page| &page.items)
            .filter_map(|positioned| match &positioned.item {
                Item::Image(item) if !self.index.contains_key(&key(&item.image)) && seen.insert(key(&item.image)) => {
                    Some(&*item.image)
                }
                _ => None,
            })
            .collect()
    }

    /// Queues the encodings of [`ImageSet::unseen`]'s images, in its order.
    pub(super) fn queue(&mut self, encoded: Vec<Encoded>) {
        self.pending.extend(encoded);
    }

    /// Writes the images of `page` not written yet: pages are prepared in order, so each
    /// new image is the next of the encodings.
    pub(super) fn prepare(&mut self, page: &Page, chunk: &mut Chunk, refs: &mut Refs) {
        for positioned in &page.items {
            let Item::Image(item) = &positioned.item else { continue };
            let key = key(&item.image);
            if self.index.contains_key(&key) {
                continue;
            }
            let encoded = self.pending.pop_front().unwrap_or_else(|| Encoded::Unshown("a picture was not encoded".into()));
            let stored = match write_image(&item.image, encoded, chunk, refs, self.stored.len()) {
                Ok(stored) => stored,
                Err(reason) => {
                    self.warnings.push(Warning::new("picture_placeholder", format!("{reason}; a grey box stands in for it")));
                    Stored::Placeholder
                }
            };
            self.index.insert(key, self.stored.len());
            self.stored.push(stored);
            self.alive.push(item.image.bytes.clone());
        }
    }

    /// How an image prepared earlier is shown, with its index.
    pub(super) fn get(&self, image: &ImageData) -> Option<(usize, &Stored)> {
        let i = *self.index.get(&key(image))?;
        Some((i, &self.stored[i]))
    }

    /// The XObject of image `i`, if it has one.
    pub(super) fn xobject(&self, i: usize) -> Option<(Ref, &str)> {
        match &self.stored[i] {
            Stored::XObject { id, name } => Some((*id, name)),
            Stored::Placeholder => None,
        }
    }
}

fn key(image: &ImageData) -> (usize, usize) {
    (image.bytes.as_ptr() as usize, image.bytes.len())
}

/// About how much work encoding `image` is, in bytes to compress: a JPEG is passed
/// through; other pictures are decoded to several times their stored size and compressed.
pub(super) fn work(image: &&ImageData) -> usize {
    match image.format {
        ImageFormat::Jpeg | ImageFormat::Blank | ImageFormat::Unknown => 0,
        // Mostly passed through: inflated once to check it.
        ImageFormat::Png => image.bytes.len(),
        _ => image.bytes.len() * 4,
    }
}

/// How pictures are encoded for the conformance asked for.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ImageRules {
    /// Transparent pixels are painted over white instead of masked (PDF/A-1 forbids soft
    /// masks).
    pub opaque: bool,
    /// Only colour the sRGB output intent covers (RGB, grey): CMYK pictures are converted.
    pub rgb_only: bool,
    /// The most pixels a picture may decode to (`PdfOptions::max_image_pixels`).
    pub max_pixels: u64,
}

/// Decodes and compresses one image; `Encoded::Unshown` when it cannot be shown.
pub(super) fn encode(image: &&ImageData, deflater: &mut Deflater, rules: ImageRules) -> Result<Encoded, PdfError> {
    match image.format {
        ImageFormat::Jpeg => Ok(match jpeg_info(&image.bytes) {
            Some(info) if info.components == 4 && rules.rgb_only => match cmyk_jpeg_to_rgb(&image.bytes, info, rules.max_pixels) {
                Ok(rgb) => Encoded::Flate {
                    width: info.width,
                    height: info.height,
                    gray: false,
                    color: deflater.deflate(&rgb)?.to_vec(),
                    alpha: None,
                },
                Err(reason) => Encoded::Unshown(format!("a CMYK JPEG picture could not be decoded ({reason})")),
            },
            Some(info) => Encoded::Jpeg(info),
            None => Encoded::Unshown("a JPEG picture could not be read".into()),
        }),
        ImageFormat::Png if let Some(passed) = pass_through(&image.bytes, rules.max_pixels) => Ok(Encoded::Png(passed)),
        ImageFormat::Png | ImageFormat::Gif | ImageFormat::Bmp | ImageFormat::Tiff | ImageFormat::Emf | ImageFormat::Wmf => {
            // A metafile that is one bitmap shows that bitmap; vector drawing is not done.
            let vector = || "a Windows metafile (EMF/WMF) picture drawn with vectors is not drawn yet".to_string();
            let decoded = match image.format {
                ImageFormat::Png => decode_png(&image.bytes, rules.max_pixels),
                ImageFormat::Gif => raster::decode_gif(&image.bytes, rules.max_pixels),
                ImageFormat::Bmp => raster::decode_bmp(&image.bytes, rules.max_pixels),
                ImageFormat::Tiff => raster::decode_tiff(&image.bytes, rules.max_pixels),
                ImageFormat::Emf => metafile::emf_picture(&image.bytes, rules.max_pixels).unwrap_or_else(|| Err(vector())),
                _ => metafile::wmf_picture(&image.bytes, rules.max_pixels).unwrap_or_else(|| Err(vector())),
            };
            let mut decoded = match decoded {
                Ok(d) => d,
                Err(reason) => return Ok(Encoded::Unshown(reason)),
            };
            if rules.opaque {
                decoded.flatten_on_white();
            }
            let alpha = match &decoded.alpha {
                Some(alpha) => Some(deflater.deflate(alpha)?.to_vec()),
                None => None,
            };
            Ok(Encoded::Flate {
                width: decoded.width,
                height: decoded.height,
                gray: decoded.gray,
                color: deflater.deflate(&decoded.color)?.to_vec(),
                alpha,
            })
        }
        ImageFormat::Unknown => Ok(Encoded::Unshown("a picture in an unknown format was not drawn".into())),
        // Layout leaves blank pictures out; nothing to draw.
        ImageFormat::Blank => Ok(Encoded::Unshown("a blank picture has nothing to draw".into())),
    }
}

/// Writes one encoded image as image `n`; `Err(reason)` when it cannot be shown.
fn write_image(image: &ImageData, encoded: Encoded, chunk: &mut Chunk, refs: &mut Refs, n: usize) -> Result<Stored, String> {
    let name = format!("Im{n}");
    match encoded {
        Encoded::Jpeg(info) => {
            let id = refs.alloc();
            let mut x = chunk.image_xobject(id, &image.bytes);
            x.filter(Filter::DctDecode);
            x.width(info.width as i32).height(info.height as i32).bits_per_component(8);
            match info.components {
                1 => {
                    x.color_space().device_gray();
                }
                3 => {
                    x.color_space().device_rgb();
                }
                _ => {
                    x.color_space().device_cmyk();
                    // Adobe writes CMYK JPEGs inverted (APP14; as every reader assumes).
                    if info.adobe {
                        x.decode([1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
                    }
                }
            }
            x.finish();
            Ok(Stored::XObject { id, name })
        }
        Encoded::Flate { width, height, gray, color, alpha } => {
            let id = refs.alloc();
            let mask = alpha.map(|alpha| {
                let mask_id = refs.alloc();
                let mut m = chunk.image_xobject(mask_id, &alpha);
                m.filter(Filter::FlateDecode);
                m.width(width as i32).height(height as i32).bits_per_component(8);
                m.color_space().device_gray();
                m.finish();
                mask_id
            });
            let mut x = chunk.image_xobject(id, &color);
            x.filter(Filter::FlateDecode);
            x.width(width as i32).height(height as i32).bits_per_component(8);
            if gray {
                x.color_space().device_gray();
            } else {
                x.color_space().device_rgb();
            }
            if let Some(mask_id) = mask {
                x.s_mask(mask_id);
            }
            x.finish();
            Ok(Stored::XObject { id, name })
        }
        Encoded::Png(png) => {
            let id = refs.alloc();
            let mut x = chunk.image_xobject(id, &png.data);
            x.filter(Filter::FlateDecode);
            x.width(png.width as i32).height(png.height as i32).bits_per_component(i32::from(png.bits));
            x.decode_parms()
                .predictor(Predictor::PngOptimum)
                .colors(i32::from(png.colors()))
                .bits_per_component(i32::from(png.bits))
                .columns(png.width as i32);
            match &png.color {
                PngColor::Gray => {
                    x.color_space().device_gray();
                }
                PngColor::Rgb => {
                    x.color_space().device_rgb();
                }
                PngColor::Indexed(palette) => {
                    x.color_space().indexed(Name(b"DeviceRGB"), (palette.len() / 3) as i32 - 1, palette);
                }
            }
            x.finish();
            Ok(Stored::XObject { id, name })
        }
        Encoded::Unshown(reason) => Err(reason),
    }
}

/// The RGB samples of a four-component JPEG. Its CMYK samples are stored inverted when an
/// Adobe APP14 segment says so (as [`write_image`] reads them with its Decode array), and a
/// YCCK JPEG (Adobe transform 2) is turned to RGB by the decoder. The conversion is the
/// plain one, R = (1 − C)(1 − K) and so on: no CMYK profile comes with the picture.
fn cmyk_jpeg_to_rgb(data: &[u8], info: JpegInfo, max_pixels: u64) -> Result<Vec<u8>, String> {
    use zune_core::bytestream::ZCursor;
    use zune_core::colorspace::ColorSpace;
    use zune_core::options::DecoderOptions;
    use zune_jpeg::JpegDecoder;

    let pixels = u64::from(info.width) * u64::from(info.height);
    if pixels > max_pixels {
        return Err(format!("{} × {} pixels, more than {max_pixels}", info.width, info.height));
    }
    let mut headers = JpegDecoder::new(ZCursor::new(data));
    headers.decode_headers().map_err(|e| e.to_string())?;
    let input = headers.input_colorspace().ok_or("no colour space")?;
    // Plain CMYK is read as stored and converted here; YCCK only the decoder can convert.
    let out = if input == ColorSpace::CMYK { ColorSpace::CMYK } else { ColorSpace::RGB };
    let options = DecoderOptions::default().jpeg_set_out_colorspace(out).set_max_width(1 << 16).set_max_height(1 << 16);
    let samples = JpegDecoder::new_with_options(ZCursor::new(data), options).decode().map_err(|e| e.to_string())?;
    if out == ColorSpace::RGB {
        return Ok(samples);
    }
    // Ink amounts, 0 (none) to 255 (full), whichever way they are stored.
    let ink = |v: u8| if info.adobe { 255 - u32::from(v) } else { u32::from(v) };
    Ok(samples
        .chunks_exact(4)
        .flat_map(|p| {
            let k = 255 - ink(p[3]);
            [0, 1, 2].map(|i| ((255 - ink(p[i])) * k / 255) as u8)
        })
        .collect())
}

/// What the frame header of a JPEG says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct JpegInfo {
    pub width: u32,
    pub height: u32,
    pub components: u8,
    /// An Adobe APP14 segment came before the frame.
    pub adobe: bool,
}

/// Reads the size and component count from the first SOF marker (ITU T.81 §B.2.2)
/// without decoding anything.
pub(super) fn jpeg_info(data: &[u8]) -> Option<JpegInfo> {
    let mut at = 2;
    let mut adobe = false;
    while at + 4 <= data.len() {
        if data[at] != 0xFF {
            return None;
        }
        let marker = data[at + 1];
        // Fill bytes, and markers without a length.
        if marker == 0xFF {
            at += 1;
            continue;
        }
        if matches!(marker, 0x01 | 0xD0..=0xD7) {
            at += 2;
            continue;
        }
        let len = u16::from_be_bytes([data[at + 2], data[at + 3]]) as usize;
        let segment = data.get(at + 4..at + 2 + len)?;
        match marker {
            0xEE if segment.starts_with(b"Adobe") => adobe = true,
            // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC).
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let height = u32::from(crate::bytes::u16_be(segment, 1)?);
                let width = u32::from(crate::bytes::u16_be(segment, 3)?);
                let components = *segment.get(5)?;
                let ok = width > 0 && height > 0 && matches!(components, 1 | 3 | 4);
                return ok.then_some(JpegInfo { width, height, components, adobe });
            }
            // Start of scan before any frame header: damaged.
            0xDA => return None,
            _ => {}
        }
        at += 2 + len;
    }
    None
}

/// A raster picture decoded to 8-bit samples: colour (grey or RGB) and alpha apart.
pub(super) struct DecodedPng {
    pub width: u32,
    pub height: u32,
    pub gray: bool,
    pub color: Vec<u8>,
    /// Alpha samples, when the image has any that are not opaque.
    pub alpha: Option<Vec<u8>>,
}

impl DecodedPng {
    /// Composites the colour over white by the alpha and drops the alpha.
    pub(super) fn flatten_on_white(&mut self) {
        let Some(alpha) = self.alpha.take() else { return };
        let channels = if self.gray { 1 } else { 3 };
        for (pixel, &a) in self.color.chunks_exact_mut(channels).zip(&alpha) {
            let a = u32::from(a);
            for c in pixel {
                *c = ((u32::from(*c) * a + 255 * (255 - a) + 127) / 255) as u8;
            }
        }
    }

    /// Rows of `width` pixels of `channels` 8-bit samples (grey or RGB, then alpha when
    /// the count is even), `line` bytes apart, split into colour and alpha; the alpha is
    /// kept only when some pixel is not opaque, and a short last row stays short.
    pub(super) fn from_rows(width: u32, height: u32, samples: &[u8], line: usize, channels: usize) -> DecodedPng {
        let row = width as usize * channels;
        let has_alpha = channels.is_multiple_of(2);
        let color_channels = if has_alpha { channels - 1 } else { channels };
        let pixels = width as usize * height as usize;
        let mut color = vec![0u8; pixels * color_channels];
        let mut alpha = vec![0u8; if has_alpha { pixels } else { 0 }];
        // Written into buffers of their final size: pushing sample by sample was most of
        // the time of a large RGBA screenshot.
        let (mut c_at, mut a_at) = (0, 0);
        for r in samples.chunks(line.max(1)).take(height as usize) {
            let samples = &r[..row.min(r.len())];
            let count = samples.len() / channels;
            let colors = &mut color[c_at..c_at + count * color_channels];
            match channels {
                4 => split_alpha::<4, 3>(samples, colors, &mut alpha[a_at..a_at + count]),
                2 => split_alpha::<2, 1>(samples, colors, &mut alpha[a_at..a_at + count]),
                _ => colors.copy_from_slice(&samples[..count * channels]),
            }
            c_at += count * color_channels;
            a_at += count;
        }
        color.truncate(c_at);
        alpha.truncate(if has_alpha { a_at } else { 0 });
        let alpha = (has_alpha && alpha.iter().any(|&a| a != 255)).then_some(alpha);
        DecodedPng { width, height, gray: color_channels == 1, color, alpha }
    }
}

/// Pixels of `N` samples, the last of them alpha, split into `C = N - 1` colour samples
/// and one alpha. The sizes are constants so that a pixel's copy is a few moves: with the
/// pixel size known only at run time, the compiler made it a `memcpy` call per pixel
/// (callgrind: 19 M calls, a fifth of the instructions of a document of screenshots).
fn split_alpha<const N: usize, const C: usize>(samples: &[u8], color: &mut [u8], alpha: &mut [u8]) {
    let pixels = samples.chunks_exact(N).zip(color.chunks_exact_mut(C)).zip(alpha);
    for ((px, c), a) in pixels {
        c.copy_from_slice(&px[..C]);
        *a = px[C];
    }
}

/// Decodes a PNG (palette, transparency and 16-bit samples reduced to 8-bit grey or RGB
/// with alpha), refusing one of more than `max_pixels` before allocating.
pub(super) fn decode_png(data: &[u8], max_pixels: u64) -> Result<DecodedPng, String> {
    let damaged = |e: png::DecodingError| format!("a PNG picture could not be decoded: {e}");
    let limits = png::Limits { bytes: usize::try_from(max_pixels.saturating_mul(4)).unwrap_or(usize::MAX) };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(data), limits);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(damaged)?;
    let (width, height) = reader.info().size();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(format!("a {width}×{height} PNG picture is larger than {max_pixels} pixels"));
    }
    let size = reader.output_buffer_size().ok_or("a PNG picture is too large".to_string())?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(damaged)?;
    buf.truncate(frame.buffer_size());
    let channels = match frame.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("a PNG picture kept its palette".into()),
    };
    if frame.bit_depth != png::BitDepth::Eight {
        return Err("a PNG picture has an unexpected sample depth".into());
    }
    // Rows may be padded to the line size.
    let line = frame.line_size.max(width as usize * channels);
    Ok(DecodedPng::from_rows(width, height, &buf, line, channels))
}

/// Paints an image in its box: rotation and flips about the box's centre, the box as the
/// clip, and the whole image scaled so that its uncropped part fills the box (§8.3.4).
/// `(x, top)` is the box's top-left corner in PDF user space.
pub(super) fn paint(content: &mut Content, (x, top): (f32, f32), item: &ImageItem, name: Option<&str>) {
    let (w, h) = (item.size.width.get(), item.size.height.get());
    if !(w > 0.0 && h > 0.0) {
        return;
    }
    let c = item.crop;
    let (shown_w, shown_h) = (1.0 - c.left - c.right, 1.0 - c.top - c.bottom);
    if !(shown_w > 1e-6 && shown_h > 1e-6) {
        return;
    }
    content.save_state();
    // Origin at the box's centre; page rotation is clockwise, PDF angles counter-clockwise.
    let (cx, cy) = (f64::from(x) + w / 2.0, f64::from(top) - h / 2.0);
    let angle = -item.rotation.to_radians();
    let (sin, cos) = (angle.sin(), angle.cos());
    let sx = if item.flip_h { -1.0 } else { 1.0 };
    let sy = if item.flip_v { -1.0 } else { 1.0 };
    content.transform([
        (cos * sx) as f32,
        (sin * sx) as f32,
        (-sin * sy) as f32,
        (cos * sy) as f32,
        cx as f32,
        cy as f32,
    ]);
    // Now the box spans (-w/2, -h/2)–(w/2, h/2).
    let (x0, y0) = (-w / 2.0, -h / 2.0);
    match name {
        Some(name) => {
            content.rect(x0 as f32, y0 as f32, w as f32, h as f32).clip_nonzero().end_path();
            let (full_w, full_h) = (w / shown_w, h / shown_h);
            content.transform([
                full_w as f32,
                0.0,
                0.0,
                full_h as f32,
                (x0 - c.left * full_w) as f32,
                (y0 - c.bottom * full_h) as f32,
            ]);
            content.x_object(Name(name.as_bytes()));
        }
        None => {
            // Colours are set inside the saved state, so the caller's remain current.
            content.set_fill_gray(0.9).set_stroke_gray(0.6).set_line_width(0.5);
            content.rect(x0 as f32, y0 as f32, w as f32, h as f32).fill_nonzero_and_stroke();
        }
    }
    content.restore_state();
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A PNG of `w`×`h` pixels in `color` type, all samples `v`.
    pub(crate) fn png_bytes(w: u32, h: u32, color: png::ColorType, v: u8) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(color);
            enc.set_depth(png::BitDepth::Eight);
            let channels = match color {
                png::ColorType::Grayscale | png::ColorType::Indexed => 1,
                png::ColorType::GrayscaleAlpha => 2,
                png::ColorType::Rgb => 3,
                png::ColorType::Rgba => 4,
            };
            let mut writer = enc.write_header().unwrap();
            writer.write_image_data(&vec![v; (w * h) as usize * channels]).unwrap();
        }
        out
    }

    /// A JPEG header: SOI, an optional Adobe APP14, SOF0 and EOI (no scan data needed).
    fn jpeg_header(w: u16, h: u16, components: u8, adobe: bool) -> Vec<u8> {
        let mut out = vec![0xFF, 0xD8];
        if adobe {
            out.extend_from_slice(&[0xFF, 0xEE, 0, 14]);
            out.extend_from_slice(b"Adobe\0\x64\0\0\0\0\0");
        }
        let len = 8 + 3 * components as u16;
        out.extend_from_slice(&[0xFF, 0xC0]);
        out.extend_from_slice(&len.to_be_bytes());
        out.push(8);
        out.extend_from_slice(&h.to_be_bytes());
        out.extend_from_slice(&w.to_be_bytes());
        out.push(components);
        for i in 0..components {
            out.extend_from_slice(&[i + 1, 0x11, 0]);
        }
        out.extend_from_slice(&[0xFF, 0xD9]);
        out
    }

    #[test]
    fn jpeg_size_and_components_come_from_the_frame_header() {
        let info = jpeg_info(&jpeg_header(640, 480, 3, false)).unwrap();
        assert_eq!(info, JpegInfo { width: 640, height: 480, components: 3, adobe: false });
    }

    #[test]
    fn an_adobe_cmyk_jpeg_is_recognised() {
        let info = jpeg_info(&jpeg_header(10, 20, 4, true)).unwrap();
        assert_eq!((info.components, info.adobe), (4, true));
    }

    #[test]
    fn a_jpeg_without_a_frame_header_is_refused() {
        assert_eq!(jpeg_info(&[0xFF, 0xD8, 0xFF, 0xD9]), None);
    }

    #[test]
    fn an_opaque_png_decodes_to_rgb_without_a_mask() {
        let png = decode_png(&png_bytes(3, 2, png::ColorType::Rgb, 200), crate::frame::MAX_IMAGE_PIXELS).unwrap();
        assert_eq!((png.width, png.height, png.gray), (3, 2, false));
        assert_eq!(png.color.len(), 18);
        assert!(png.alpha.is_none());
    }

    #[test]
    fn a_translucent_png_keeps_its_alpha_apart() {
        let png = decode_png(&png_bytes(2, 2, png::ColorType::Rgba, 100), crate::frame::MAX_IMAGE_PIXELS).unwrap();
        assert_eq!(png.color.len(), 12);
        assert_eq!(png.alpha.as_deref(), Some(&[100u8; 4][..]));
    }

    #[test]
    fn rows_split_into_colour_and_alpha_pixel_by_pixel() {
        // Two RGBA pixels per row, rows 10 bytes apart, the last row one pixel short.
        let rgba = DecodedPng::from_rows(2, 2, &[1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 9, 10, 11, 12], 10, 4);
        assert_eq!(rgba.color, [1, 2, 3, 5, 6, 7, 9, 10, 11]);
        assert_eq!(rgba.alpha.as_deref(), Some(&[4, 8, 12][..]));
        let grey = DecodedPng::from_rows(3, 1, &[1, 255, 2, 128, 3, 0], 6, 2);
        assert_eq!((grey.gray, grey.color, grey.alpha), (true, vec![1, 2, 3], Some(vec![255, 128, 0])));
    }

    #[test]
    fn a_png_larger_than_the_pixel_limit_is_refused_before_decoding() {
        // A valid header claiming 100,000 × 100,000 pixels; no image data follows.
        let mut png = png_bytes(1, 1, png::ColorType::Grayscale, 0);
        png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = decode_png(&png, crate::frame::MAX_IMAGE_PIXELS).err().unwrap();
        assert!(e.contains("larger than"), "{e}");
    }

    /// A one-page layout showing `bytes` in a 100×50 pt box, twice.
    fn layout_with(bytes: Vec<u8>, format: ImageFormat) -> crate::frame::Layout {
        use crate::frame::{ImageCrop, Layout, Page, Point, Positioned, Size};
        use crate::units::Pt;
        let image = std::sync::Arc::new(ImageData { bytes: bytes.into(), format });
        let item = ImageItem {
            image,
            size: Size { width: Pt(100.0), height: Pt(50.0) },
            crop: ImageCrop::default(),
            rotation: 0.0,
            flip_h: false,
            flip_v: false,
        };
        let at = |y| Positioned { pos: Point::new(Pt(72.0), Pt(y)), item: Item::Image(item.clone()), tag: Default::default() };
        Layout {
            pages: vec![Page { size: Size { width: Pt(612.0), height: Pt(792.0) }, items: vec![at(72.0), at(200.0)] }],
            ..Layout::default()
        }
    }

    #[test]
    fn a_png_shown_twice_is_stored_once() {
        let (pdf, warnings) = crate::pdf::write_with_warnings(&layout_with(png_bytes(4, 2, png::ColorType::Rgb, 9), ImageFormat::Png), 1).unwrap();
        let text = String::from_utf8_lossy(&pdf);
        assert_eq!(text.matches("/Subtype /Image").count() + text.matches("/Subtype/Image").count(), 1);
        assert!(warnings.is_empty());
    }

    #[test]
    fn a_metafile_becomes_a_placeholder_with_a_warning() {
        let (pdf, warnings) = crate::pdf::write_with_warnings(&layout_with(vec![0xD7, 0xCD, 0xC6, 0x9A, 0, 0], ImageFormat::Wmf), 1).unwrap();
        assert!(!String::from_utf8_lossy(&pdf).contains("/Image"));
        assert_eq!(warnings.len(), 1, "one warning per image, not per drawing");
        assert!(warnings[0].message.contains("EMF/WMF"), "{}", warnings[0].message);
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { 0xEDB8_8320 ^ (crc >> 1) } else { crc >> 1 };
            }
        }
        !crc
    }
}
