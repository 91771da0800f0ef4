//! The text a Windows metafile draws (EMF `EMR_EXTTEXTOUTW`/`A`, MS-EMF §2.3.5.7–8; WMF
//! `META_EXTTEXTOUT`/`META_TEXTOUT`, MS-WMF §2.3.3.5, §2.3.3.20), placed in the picture's
//! box: the reference point through the window/viewport mapping and the world transform,
//! the size of the selected font, its alignment and colour. Pictures pasted from Excel or
//! Visio and OLE previews carry their words this way; layout sets them over the picture.

use crate::bytes::{f32_le, i16_le, i32_le, u16_le, u32_le};
use crate::metafile::{emf_records, wmf_records, PLACEABLE_KEY};
use crate::docx::model::{PictureText, TextAnchor};

/// At most this many records are read, and this many texts kept.
const MAX_RECORDS: usize = 200_000;
const MAX_TEXTS: usize = 2_000;

/// A font object: its em height in logical units (`lfHeight`, §2.2.13), weight, slant and
/// face name.
#[derive(Debug, Clone, Default)]
struct Font {
    height: f64,
    bold: bool,
    italic: bool,
    face: String,
}

/// The drawing state that `SaveDC`/`RestoreDC` keep.
#[derive(Debug, Clone)]
struct State {
    window_org: (f64, f64),
    window_ext: (f64, f64),
    viewport_org: (f64, f64),
    viewport_ext: (f64, f64),
    /// `MM_TEXT` maps one logical unit to one device unit; the others scale.
    scaled: bool,
    /// The world transform: x' = a·x + c·y + e, y' = b·x + d·y + f.
    world: [f64; 6],
    font: Option<usize>,
    align: u32,
    color: (u8, u8, u8),
}

impl Default for State {
    fn default() -> State {
        State {
            window_org: (0.0, 0.0),
            window_ext: (1.0, 1.0),
            viewport_org: (0.0, 0.0),
            viewport_ext: (1.0, 1.0),
            scaled: false,
            world: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
            font: None,
            align: 0,
            color: (0, 0, 0),
        }
    }
}

impl State {
    /// A logical point in device units.
    fn device(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let [a, b, c, d, e, f] = self.world;
        let (x, y) = (a * x + c * y + e, b * x + d * y + f);
        let (sx, sy) = self.scale();
        (
            (x - self.window_org.0) * sx + self.viewport_org.0,
            (y - self.window_org.1) * sy + self.viewport_org.1,
        )
    }

    /// Device units per logical unit, each axis.
    fn scale(&self) -> (f64, f64) {
        if !self.scaled || self.window_ext.0 == 0.0 || self.window_ext.1 == 0.0 {
            return (1.0, 1.0);
        }
        (self.viewport_ext.0 / self.window_ext.0, self.viewport_ext.1 / self.window_ext.1)
    }

    /// A logical height in device units (the world transform's and the mapping's y scale).
    fn device_height(&self, h: f64) -> f64 {
        let [_, b, _, d, _, _] = self.world;
        h * (b * b + d * d).sqrt() * self.scale().1.abs()
    }
}

/// Text being collected, in device units until the box is known.
struct Found {
    at: (f64, f64),
    height: f64,
    text: String,
    font: Font,
    align: u32,
    color: (u8, u8, u8),
}

/// `TA_*` (MS-WMF §2.1.2.18): vertical reference and horizontal alignment.
const TA_BOTTOM: u32 = 8;
const TA_BASELINE: u32 = 24;
const TA_CENTER: u32 = 6;
const TA_RIGHT: u32 = 2;

/// The texts of an EMF, placed in the picture's box; empty when there are none.
pub(crate) fn emf_texts(d: &[u8]) -> Vec<PictureText> {
    // The header: the frame in 0.01 mm, the reference device in pixels and millimetres.
    if u32_le(d, 0) != Some(1) || u32_le(d, 40) != Some(0x464D_4520) {
        return Vec::new();
    }
    let frame = [i32_le(d, 24), i32_le(d, 28), i32_le(d, 32), i32_le(d, 36)];
    let (dev_px, dev_mm) = ((i32_le(d, 72), i32_le(d, 76)), (i32_le(d, 80), i32_le(d, 84)));
    let px_per_mm = |px: Option<i32>, mm: Option<i32>| match (px, mm) {
        (Some(px), Some(mm)) if px > 0 && mm > 0 => px as f64 / mm as f64,
        _ => 96.0 / 25.4,
    };
    let (kx, ky) = (px_per_mm(dev_px.0, dev_mm.0) / 100.0, px_per_mm(dev_px.1, dev_mm.1) / 100.0);
    let [Some(l), Some(t), Some(r), Some(b)] = frame else { return Vec::new() };
    let area = (l as f64 * kx, t as f64 * ky, (r - l) as f64 * kx, (b - t) as f64 * ky);
    let mut state = State::default();
    let mut saved: Vec<State> = Vec::new();
    let mut fonts: Vec<Option<Font>> = Vec::new();
    let mut found: Vec<Found> = Vec::new();
    for (kind, rec) in emf_records(d, MAX_RECORDS) {
        let pair = |o: usize| Some((i32_le(rec, o)? as f64, i32_le(rec, o + 4)? as f64));
        match kind {
            14 => break,
            // EMR_SETWINDOWEXTEX, ORGEX, VIEWPORTEXTEX, ORGEX.
            9 => state.window_ext = pair(8).unwrap_or(state.window_ext),
            10 => state.window_org = pair(8).unwrap_or(state.window_org),
            11 => state.viewport_ext = pair(8).unwrap_or(state.viewport_ext),
            12 => state.viewport_org = pair(8).unwrap_or(state.viewport_org),
            // EMR_SETMAPMODE: anything but MM_TEXT (1) scales.
            17 => state.scaled = u32_le(rec, 8).is_some_and(|m| m != 1),
            22 => state.align = u32_le(rec, 8).unwrap_or(0),
            24 => state.color = color(rec, 8),
            33 => saved.push(state.clone()),
            34 => {
                // EMR_RESTOREDC with a negative index: that many states back.
                let back = (i32_le(rec, 8).unwrap_or(-1).unsigned_abs() as usize).clamp(1, saved.len().max(1));
                for _ in 0..back {
                    if let Some(s) = saved.pop() {
                        state = s;
                    }
                }
            }
            // EMR_SETWORLDTRANSFORM, EMR_MODIFYWORLDTRANSFORM (§2.3.12).
            35 | 36 => {
                let m: Option<Vec<f64>> = (0..6).map(|k| f32_le(rec, 8 + 4 * k)).collect();
                if let Some(m) = m {
                    let m = [m[0], m[1], m[2], m[3], m[4], m[5]];
                    state.world = match (kind, u32_le(rec, 32)) {
                        (35, _) => m,
                        (_, Some(1)) => [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                        (_, Some(2)) => multiply(m, state.world),
                        (_, Some(3)) => multiply(state.world, m),
                        (_, Some(4)) => m,
                        _ => state.world,
                    };
                }
            }
            37 => {
                let handle = u32_le(rec, 8).unwrap_or(0) as usize;
                if fonts.get(handle).is_some_and(Option::is_some) {
                    state.font = Some(handle);
                }
            }
            40 => {
                if let Some(slot) = fonts.get_mut(u32_le(rec, 8).unwrap_or(0) as usize) {
                    *slot = None;
                }
            }
            // EMR_EXTCREATEFONTINDIRECTW: a LogFont at 12 (§2.2.13).
            82 => {
                let handle = u32_le(rec, 8).unwrap_or(0) as usize;
                if handle < 4_096 {
                    if fonts.len() <= handle {
                        fonts.resize(handle + 1, None);
                    }
                    let face: Vec<u16> = (0..32).map_while(|k| u16_le(rec, 40 + 2 * k)).take_while(|&c| c != 0).collect();
                    fonts[handle] = Some(Font {
                        height: log_height(i32_le(rec, 12).unwrap_or(0) as f64),
                        bold: i32_le(rec, 28).unwrap_or(400) >= 600,
                        italic: rec.get(32).is_some_and(|&v| v != 0),
                        face: String::from_utf16_lossy(&face),
                    });
                }
            }
            // EMR_EXTTEXTOUTA (83), EMR_EXTTEXTOUTW (84): the EmrText at 36.
            83 | 84 if found.len() < MAX_TEXTS => {
                let (Some(at), Some(n), Some(off)) = (pair(36), u32_le(rec, 44), u32_le(rec, 48)) else {
                    continue;
                };
                let (n, off) = (n as usize, off as usize);
                let text = if kind == 84 {
                    let units: Vec<u16> = (0..n.min(4_096)).map_while(|k| u16_le(rec, off + 2 * k)).collect();
                    String::from_utf16_lossy(&units)
                } else {
                    rec.get(off..off + n.min(4_096)).map(latin1).unwrap_or_default()
                };
                let font = state.font.and_then(|h| fonts.get(h).cloned().flatten()).unwrap_or_default();
                found.push(Found {
                    at: state.device(at),
                    height: state.device_height(font.height),
                    text,
                    font,
                    align: state.align,
                    color: state.color,
                });
            }
            _ => {}
        }
    }
    place(found, area)
}

/// The texts of a WMF (placeable or not), placed in the picture's box.
pub(crate) fn wmf_texts(d: &[u8]) -> Vec<PictureText> {
    let Some(records) = wmf_records(d, MAX_RECORDS) else { return Vec::new() };
    let mut state = State { scaled: true, ..State::default() };
    let mut window_set = false;
    let mut saved: Vec<State> = Vec::new();
    // WMF objects take the lowest free slot of one table (MS-WMF §3.1.4.1).
    let mut objects: Vec<Option<Option<Font>>> = Vec::new();
    let mut found: Vec<Found> = Vec::new();
    for (function, rec) in records {
        let xy = |o: usize| Some((i16_le(rec, o + 2)? as f64, i16_le(rec, o)? as f64));
        match function {
            0x0000 => break,
            0x020B => state.window_org = xy(6).unwrap_or(state.window_org),
            0x020C => {
                state.window_ext = xy(6).unwrap_or(state.window_ext);
                window_set = true;
            }
            0x012E => state.align = u16_le(rec, 6).unwrap_or(0) as u32,
            0x0209 => state.color = color(rec, 6),
            0x001E => saved.push(state.clone()),
            0x0127 => {
                if let Some(s) = saved.pop() {
                    state = s;
                }
            }
            0x01F0 => {
                if let Some(slot) = objects.get_mut(u16_le(rec, 6).unwrap_or(u16::MAX) as usize) {
                    *slot = None;
                }
            }
            0x012D => {
                let index = u16_le(rec, 6).unwrap_or(u16::MAX) as usize;
                if let Some(Some(Some(_))) = objects.get(index) {
                    state.font = Some(index);
                }
            }
            // Objects: pen, brush, font, palette, pattern brushes, region.
            0x02FA | 0x02FC | 0x02FB | 0x00F7 | 0x0142 | 0x01F9 | 0x06FF => {
                let font = (function == 0x02FB).then(|| {
                    let face: Vec<u8> = rec.get(24..).unwrap_or_default().iter().take(32).copied().take_while(|&c| c != 0).collect();
                    Font {
                        height: log_height(i16_le(rec, 6).unwrap_or(0) as f64),
                        bold: i16_le(rec, 14).unwrap_or(400) >= 600,
                        italic: rec.get(16).is_some_and(|&v| v != 0),
                        face: latin1(&face),
                    }
                });
                match objects.iter().position(Option::is_none) {
                    Some(free) => objects[free] = Some(font),
                    None if objects.len() < 4_096 => objects.push(Some(font)),
                    None => {}
                }
            }
            0x0A32 | 0x0521 if found.len() < MAX_TEXTS => {
                let parsed = if function == 0x0A32 {
                    // y, x, count, options, [clip rectangle], string.
                    (|| {
                        let (y, x, n, options) = (i16_le(rec, 6)?, i16_le(rec, 8)?, i16_le(rec, 10)?, u16_le(rec, 12)?);
                        let start = 14 + if options & 0x0006 != 0 { 8 } else { 0 };
                        let bytes = rec.get(start..start + (n.max(0) as usize))?;
                        Some(((x as f64, y as f64), latin1(bytes)))
                    })()
                } else {
                    (|| {
                        let n = i16_le(rec, 6)?.max(0) as usize;
                        let bytes = rec.get(8..8 + n)?;
                        let o = 8 + n.div_ceil(2) * 2;
                        Some(((i16_le(rec, o + 2)? as f64, i16_le(rec, o)? as f64), latin1(bytes)))
                    })()
                };
                if let Some((at, text)) = parsed {
                    let font = state.font.and_then(|h| objects.get(h).cloned().flatten().flatten()).unwrap_or_default();
                    found.push(Found { at, height: font.height, text, font, align: state.align, color: state.color });
                }
            }
            _ => {}
        }
    }
    // The box: the placeable header's bounds, else the window.
    let placeable = u32_le(d, 0) == Some(PLACEABLE_KEY);
    let area = match (placeable, [i16_le(d, 6), i16_le(d, 8), i16_le(d, 10), i16_le(d, 12)]) {
        (true, [Some(l), Some(t), Some(r), Some(b)]) if r != l && b != t => {
            (l as f64, t as f64, (r - l) as f64, (b - t) as f64)
        }
        _ if window_set => (state.window_org.0, state.window_org.1, state.window_ext.0, state.window_ext.1),
        _ => return Vec::new(),
    };
    place(found, area)
}

/// `lfHeight` (§2.2.13): negative is the em height, positive the cell height, of which the
/// em is about 0.87 in the common faces.
fn log_height(h: f64) -> f64 {
    if h < 0.0 {
        -h
    } else {
        h * 0.87
    }
}

fn multiply(a: [f64; 6], b: [f64; 6]) -> [f64; 6] {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn color(rec: &[u8], o: usize) -> (u8, u8, u8) {
    match rec.get(o..o + 3) {
        Some(c) => (c[0], c[1], c[2]),
        None => (0, 0, 0),
    }
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// The texts as fractions of `area` (x, y, width, height in device units), the reference
/// point turned into the baseline's left end as far as the alignment allows.
fn place(found: Vec<Found>, (ax, ay, aw, ah): (f64, f64, f64, f64)) -> Vec<PictureText> {
    if aw.abs() < 1e-9 || ah.abs() < 1e-9 {
        return Vec::new();
    }
    found
        .into_iter()
        .filter(|f| !f.text.trim().is_empty() && f.height > 0.0)
        .filter_map(|f| {
            let height = (f.height / ah.abs()).min(1.0);
            let (x, y) = ((f.at.0 - ax) / aw, (f.at.1 - ay) / ah);
            // Reference at the top (TA_TOP) or bottom of the cell: the baseline is about
            // 0.8 em below the top and 0.2 em above the bottom.
            let y = match f.align & TA_BASELINE {
                TA_BASELINE => y,
                TA_BOTTOM => y - 0.2 * height,
                _ => y + 0.9 * height,
            };
            let anchor = match f.align & TA_CENTER {
                TA_CENTER => TextAnchor::Center,
                TA_RIGHT => TextAnchor::Right,
                _ => TextAnchor::Left,
            };
            ((-0.05..=1.05).contains(&x) && (-0.05..=1.1).contains(&y)).then(|| PictureText {
                x,
                y,
                height,
                text: f.text.trim_end().to_owned(),
                anchor,
                color: f.color,
                bold: f.font.bold,
                italic: f.font.italic,
                face: f.font.face,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A placeable WMF 1000 × 500 units with one `META_EXTTEXTOUT` at (100, 400) in a font
    /// 100 units high, aligned on the baseline.
    fn wmf() -> Vec<u8> {
        let mut d = Vec::new();
        d.extend_from_slice(&0x9AC6_CDD7u32.to_le_bytes());
        d.extend_from_slice(&0u16.to_le_bytes());
        for v in [0i16, 0, 1000, 500] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        d.extend_from_slice(&1440u16.to_le_bytes());
        d.extend_from_slice(&[0; 6]);
        // Standard header: type, header size 9 words, version, size, objects, max, params.
        for v in [1u16, 9, 0x0300, 0, 0, 0, 0, 0, 0] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        let record = |d: &mut Vec<u8>, function: u16, params: &[u8]| {
            d.extend_from_slice(&(((6 + params.len()) / 2) as u32).to_le_bytes());
            d.extend_from_slice(&function.to_le_bytes());
            d.extend_from_slice(params);
        };
        let mut font = Vec::new();
        font.extend_from_slice(&(-100i16).to_le_bytes());
        font.extend_from_slice(&[0; 6]);
        font.extend_from_slice(&700i16.to_le_bytes());
        font.extend_from_slice(&[0; 8]);
        font.extend_from_slice(b"Arial\0\0\0");
        record(&mut d, 0x02FB, &font);
        record(&mut d, 0x012D, &0u16.to_le_bytes());
        record(&mut d, 0x012E, &(TA_BASELINE as u16).to_le_bytes());
        let mut text = Vec::new();
        for v in [400i16, 100, 5, 0] {
            text.extend_from_slice(&v.to_le_bytes());
        }
        text.extend_from_slice(b"Hello\0");
        record(&mut d, 0x0A32, &text);
        record(&mut d, 0x0000, &[]);
        d
    }

    #[test]
    fn wmf_text_lands_at_its_reference_point_in_its_font() {
        let t = wmf_texts(&wmf());
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].text, "Hello");
        assert!((t[0].x - 0.1).abs() < 1e-9 && (t[0].y - 0.8).abs() < 1e-9, "{:?}", t[0]);
        assert!((t[0].height - 0.2).abs() < 1e-9);
        assert!(t[0].bold);
        assert_eq!(t[0].face, "Arial");
    }

    #[test]
    fn a_damaged_metafile_gives_no_text() {
        let mut d = wmf();
        d.truncate(60);
        assert!(wmf_texts(&d).is_empty());
        assert!(emf_texts(b"not an emf").is_empty());
    }
}
