//! Page content streams: text, lines, rectangles and images in PDF's bottom-left coordinates, with redundant state changes left out.

use pdf_writer::{Content, Name, Settings, Str};

use super::document::Refs;
use super::font::FontSet;
use super::image::{self, ImageSet};
use super::missing;
use super::structure::Tagging;
use super::PdfError;
use crate::frame::{ImageItem, Item, LineItem, Page, Point, RectItem, Rgb, ShapeItem, ShapeKind, Size, TextItem};

/// A piece of a TJ array (ISO 32000-1 §9.4.3): a byte range of the CID run buffer or a
/// position adjustment in thousandths of text space.
#[derive(Clone, Copy)]
enum Part {
    Glyphs(usize, usize),
    Adjust(f32),
}

/// The graphics state a content stream has set so far, so unchanged values are not
/// written again. Text state (Tf, Ts) and colours outlive BT/ET (§9.3.1), so this
/// holds for the whole page; a new page starts from the defaults (§8.4.1).
#[derive(Default)]
struct State {
    font: Option<(usize, f32)>,
    /// Horizontal scaling (Tz) in percent; 100 by default.
    scaling: Option<f32>,
    fill: Option<Rgb>,
    stroke: Option<Rgb>,
    line_width: Option<f32>,
    rise: f32,
    in_text: bool,
}

/// Writes page content streams, keeping its scratch buffers from page to page.
#[derive(Default)]
pub(super) struct Painter {
    run: Vec<u8>,
    parts: Vec<Part>,
    /// The pen position of each glyph of the text item being written.
    pens: Vec<f64>,
    /// The CID and width of each glyph of the text item, in the order they are written.
    shown: Vec<(u16, f32)>,
    used_fonts: Vec<bool>,
    used_images: Vec<bool>,
}

impl Painter {
    /// The content stream of `page` (uncompressed); registers its glyphs in `fonts`.
    /// Every item is painted inside the marked-content sequence of its tag (see
    /// `structure.rs`); `index` is the page's place in the document.
    pub(super) fn paint(
        &mut self,
        page: &Page,
        index: usize,
        fonts: &mut FontSet,
        images: &ImageSet,
        refs: &mut Refs,
        tagging: &mut Tagging<'_>,
    ) -> Result<Vec<u8>, PdfError> {
        self.used_fonts.clear();
        self.used_images.clear();
        let height = page.size.height.get();
        let mut content = Content::with_settings_and_capacity(
            Settings { pretty: false },
            64 + 48 * page.items.len(),
        );
        let mut state = State::default();
        for positioned in &page.items {
            // Links become annotations, not content (see link.rs).
            if matches!(positioned.item, Item::Link(_)) {
                continue;
            }
            let pos = pdf_point(positioned.pos, height);
            tagging.mark(&mut content, index, positioned.tag, |c| end_text(c, &mut state));
            match &positioned.item {
                Item::Text(text) => {
                    tagging.text(positioned.tag, &text.glyphs);
                    self.text(&mut content, &mut state, pos, text, fonts, refs)?
                }
                Item::Line(line) => line_item(&mut content, &mut state, pos, line, height),
                Item::Rect(rect) => rect_item(&mut content, &mut state, pos, rect),
                Item::Image(item) => {
                    let (x, top) = pos;
                    let (w, h) = (item.size.width.get() as f32, item.size.height.get() as f32);
                    tagging.picture(positioned.tag, index, [x, top - h, x + w, top]);
                    self.image(&mut content, &mut state, pos, item, images)
                }
                Item::Shape(shape) => {
                    let (x, top) = pos;
                    let (w, h) = (shape.size.width.get() as f32, shape.size.height.get() as f32);
                    tagging.picture(positioned.tag, index, [x, top - h, x + w, top]);
                    shape_item(&mut content, &mut state, pos, shape)
                }
                Item::Link(_) => {}
            }
        }
        end_text(&mut content, &mut state);
        tagging.end_page(&mut content);
        Ok(content.finish().into_vec())
    }

    /// The fonts the last painted page showed, by index in the `FontSet`, ascending.
    pub(super) fn used_fonts(&self) -> impl Iterator<Item = usize> + '_ {
        self.used_fonts
            .iter()
            .enumerate()
            .filter(|(_, used)| **used)
            .map(|(i, _)| i)
    }

    /// The images the last painted page showed, by index in the `ImageSet`, ascending.
    pub(super) fn used_images(&self) -> impl Iterator<Item = usize> + '_ {
        self.used_images.iter().enumerate().filter(|(_, used)| **used).map(|(i, _)| i)
    }

    /// Draws an image (or its placeholder) prepared in `images`.
    fn image(&mut self, content: &mut Content, state: &mut State, pos: (f32, f32), item: &ImageItem, images: &ImageSet) {
        let Some((index, _)) = images.get(&item.image) else { return };
        end_text(content, state);
        let name = images.xobject(index).map(|(_, name)| name);
        if name.is_some() {
            if self.used_images.len() <= index {
                self.used_images.resize(index + 1, false);
            }
            self.used_images[index] = true;
        }
        image::paint(content, pos, item, name);
    }

    /// Shows a glyph run with BT/Tf/Tm/TJ using 2-byte CIDs (Identity-H).
    fn text(
        &mut self,
        content: &mut Content,
        state: &mut State,
        (x, y): (f32, f32),
        text: &TextItem,
        fonts: &mut FontSet,
        refs: &mut Refs,
    ) -> Result<(), PdfError> {
        // The size as written to Tf, so TJ adjustments use what the viewer will use.
        let size32 = round(text.size.get());
        let size = f64::from(size32);
        if text.glyphs.is_empty() || size <= 0.0 {
            return Ok(());
        }
        let font = fonts.font(&text.face, refs)?;
        if self.used_fonts.len() <= font {
            self.used_fonts.resize(font + 1, false);
        }
        self.used_fonts[font] = true;

        if !state.in_text {
            content.begin_text();
            state.in_text = true;
        }
        if state.font != Some((font, size32)) {
            content.set_font(Name(fonts.get(font).resource.as_bytes()), size32);
            state.font = Some((font, size32));
        }
        // A face standing in for an Office font is drawn scaled to the original's width.
        let scale = fonts.get(font).scale();
        let scaling = round(f64::from(scale) * 100.0);
        if state.scaling.unwrap_or(100.0) != scaling {
            content.set_horizontal_scaling(scaling);
            state.scaling = Some(scaling);
        }
        // What one unit of glyph space moves the pen, in points (Th × Tfs / 1000, §9.4.4).
        let unit = size * f64::from(scaling) / 100.0 / 1000.0;
        set_fill(content, state, text.color);
        // A unit text matrix keeps text space in points, so Ts (rise) is in points too.
        content.set_text_matrix([1.0, 0.0, 0.0, 1.0, x, y]);

        // `pen` is where the layout wants the next glyph's origin, `shown` is where the
        // viewer's pen stands after the glyphs written so far; both are relative to the
        // item's start, in points. Any difference (justification, letter spacing,
        // kerning, x offsets) becomes a TJ adjustment, and rounding is carried forward
        // instead of accumulating.
        let mut shown = 0.0f64;
        self.run.clear();
        self.parts.clear();
        let mut run_start = 0;
        // Right-to-left text is written from its last glyph to its first, in reading order,
        // the pen stepping back before each: its glyphs' pen positions are worked out first.
        let mut pens = std::mem::take(&mut self.pens);
        pens.clear();
        if text.rtl {
            let mut pen = 0.0f64;
            for glyph in &text.glyphs {
                pens.push(pen);
                pen += glyph.advance.get();
            }
        }
        let n = text.glyphs.len();
        let order = |k: usize| if text.rtl { n - 1 - k } else { k };
        let mut cids = std::mem::take(&mut self.shown);
        fonts.show(font, (0..n).map(|k| &text.glyphs[order(k)]), &mut cids)?;
        let mut forward = 0.0f64;
        // Whether the glyphs being written are .notdef, inside their /ActualText span.
        let mut notdef = false;
        for k in 0..n {
            if (cids[k].0 == 0) != notdef {
                self.flush_run(&mut run_start);
                self.show(content);
                notdef = !notdef;
                if notdef {
                    let run: String = (k..n).take_while(|&j| cids[j].0 == 0).map(|j| text.glyphs[order(j)].text.as_str()).collect();
                    missing::begin_span(content, &run);
                } else {
                    content.end_marked_content();
                }
            }
            let (at, pen) = if text.rtl {
                (n - 1 - k, pens[n - 1 - k])
            } else {
                let pen = forward;
                forward += text.glyphs[k].advance.get();
                (k, pen)
            };
            let glyph = &text.glyphs[at];
            // y offsets (marks, sub-/superscript nudges) become text rise; positive
            // offsets point down on the page, positive rise points up (§9.3.7).
            let rise = round(-glyph.offset.y.get());
            if rise != state.rise {
                self.flush_run(&mut run_start);
                self.show(content);
                content.set_rise(rise);
                state.rise = rise;
            }
            let want = pen + glyph.offset.x.get();
            let adjust = ((shown - want) / unit * 10.0).round() / 10.0;
            if adjust != 0.0 {
                self.flush_run(&mut run_start);
                self.parts.push(Part::Adjust(adjust as f32));
                shown -= adjust * unit;
            }
            let (cid, width) = cids[k];
            self.run.extend_from_slice(&cid.to_be_bytes());
            shown += f64::from(width) * unit;
        }
        self.pens = pens;
        self.shown = cids;
        self.flush_run(&mut run_start);
        self.show(content);
        if notdef {
            content.end_marked_content();
        }
        Ok(())
    }

    /// Closes the pending byte range of the CID run as a TJ string.
    fn flush_run(&mut self, start: &mut usize) {
        if self.run.len() > *start {
            self.parts.push(Part::Glyphs(*start, self.run.len()));
            *start = self.run.len();
        }
    }

    /// Writes the collected parts as one TJ operator.
    fn show(&mut self, content: &mut Content) {
        // Adjustments are only pushed before a glyph, so parts never end with one.
        if self.parts.is_empty() {
            return;
        }
        let mut op = content.show_positioned();
        let mut items = op.items();
        for part in &self.parts {
            match *part {
                Part::Glyphs(start, end) => items.show(Str(&self.run[start..end])),
                Part::Adjust(amount) => items.adjust(amount),
            };
        }
        self.parts.clear();
    }
}

/// Strokes a line from the item's position to `to`; the initial line cap is butt (§8.4.3.3).
fn line_item(
    content: &mut Content,
    state: &mut State,
    (x, y): (f32, f32),
    line: &LineItem,
    height: f64,
) {
    if line.thickness.get() <= 0.0 {
        return;
    }
    end_text(content, state);
    set_stroke(content, state, line.color, round(line.thickness.get()));
    let (x2, y2) = pdf_point(line.to, height);
    content.move_to(x, y).line_to(x2, y2).stroke();
}

/// Fills and/or strokes a rectangle whose top-left corner is at the item's position.
fn rect_item(content: &mut Content, state: &mut State, (x, top): (f32, f32), rect: &RectItem) {
    let stroke = rect.stroke.filter(|(_, width)| width.get() > 0.0);
    if rect.fill.is_none() && stroke.is_none() {
        return;
    }
    end_text(content, state);
    if let Some(fill) = rect.fill {
        set_fill(content, state, fill);
    }
    if let Some((color, width)) = stroke {
        set_stroke(content, state, color, round(width.get()));
    }
    let Size { width, height } = rect.size;
    let (w, h) = (round(width.get()), round(height.get()));
    content.rect(x, top - h, w, h);
    match (rect.fill.is_some(), stroke.is_some()) {
        (true, true) => content.fill_nonzero_and_stroke(),
        (true, false) => content.fill_nonzero(),
        _ => content.stroke(),
    };
}

/// The Bézier handle length for a quarter circle of radius 1.
const KAPPA: f32 = 0.552_284_8;

/// Paints a shape: its outline path, filled and/or stroked. A dash is set and reset
/// inside a saved graphics state, so the page's state cache stays true.
fn shape_item(content: &mut Content, state: &mut State, (x, top): (f32, f32), shape: &ShapeItem) {
    let stroke = shape.stroke.filter(|(_, width)| width.get() > 0.0);
    let fill = shape.fill.filter(|_| !matches!(shape.kind, ShapeKind::Line { .. }));
    if fill.is_none() && stroke.is_none() {
        return;
    }
    end_text(content, state);
    if let Some(fill) = fill {
        set_fill(content, state, fill);
    }
    if let Some((color, width)) = stroke {
        set_stroke(content, state, color, round(width.get()));
    }
    let (w, h) = (shape.size.width.get() as f32, shape.size.height.get() as f32);
    let bottom = top - h;
    let dashed = shape.dashed && stroke.is_some();
    if dashed {
        content.save_state();
        let unit = stroke.map(|(_, w)| w.get() as f32).unwrap_or(1.0).max(0.5);
        content.set_dash_pattern([unit * 4.0, unit * 3.0], 0.0);
    }
    match &shape.kind {
        ShapeKind::Polygon(points) => {
            for (i, p) in points.iter().enumerate() {
                let (px, py) = (x + p.x.get() as f32, top - p.y.get() as f32);
                if i == 0 {
                    content.move_to(px, py);
                } else {
                    content.line_to(px, py);
                }
            }
            content.close_path();
        }
        ShapeKind::Rect => {
            content.rect(x, bottom, w, h);
        }
        ShapeKind::RoundRect(radius) => {
            let r = (radius.get() as f32).min(w / 2.0).min(h / 2.0).max(0.0);
            let k = r * (1.0 - KAPPA);
            content.move_to(x + r, bottom);
            content.line_to(x + w - r, bottom);
            content.cubic_to(x + w - k, bottom, x + w, bottom + k, x + w, bottom + r);
            content.line_to(x + w, top - r);
            content.cubic_to(x + w, top - k, x + w - k, top, x + w - r, top);
            content.line_to(x + r, top);
            content.cubic_to(x + k, top, x, top - k, x, top - r);
            content.line_to(x, bottom + r);
            content.cubic_to(x, bottom + k, x + k, bottom, x + r, bottom);
            content.close_path();
        }
        ShapeKind::Ellipse => {
            let (rx, ry) = (w / 2.0, h / 2.0);
            let (cx, cy) = (x + rx, bottom + ry);
            let (kx, ky) = (rx * KAPPA, ry * KAPPA);
            content.move_to(cx + rx, cy);
            content.cubic_to(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
            content.cubic_to(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
            content.cubic_to(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
            content.cubic_to(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
            content.close_path();
        }
        ShapeKind::Line { down } => {
            let (y0, y1) = if *down { (top, bottom) } else { (bottom, top) };
            content.move_to(x, y0);
            content.line_to(x + w, y1);
        }
    }
    match (fill.is_some(), stroke.is_some()) {
        (true, true) => content.fill_nonzero_and_stroke(),
        (true, false) => content.fill_nonzero(),
        _ => content.stroke(),
    };
    if dashed {
        content.restore_state();
    }
}

/// Ends an open text object: path operators are not allowed inside BT/ET (§8.2, Figure 9).
fn end_text(content: &mut Content, state: &mut State) {
    if state.in_text {
        content.end_text();
        state.in_text = false;
    }
}

/// Sets the non-stroking colour (text and fills) unless it is already current.
fn set_fill(content: &mut Content, state: &mut State, color: Rgb) {
    if state.fill != Some(color) {
        let [r, g, b] = channels(color);
        content.set_fill_rgb(r, g, b);
        state.fill = Some(color);
    }
}

/// Sets the stroking colour and line width unless they are already current.
fn set_stroke(content: &mut Content, state: &mut State, color: Rgb, width: f32) {
    if state.stroke != Some(color) {
        let [r, g, b] = channels(color);
        content.set_stroke_rgb(r, g, b);
        state.stroke = Some(color);
    }
    if state.line_width != Some(width) {
        content.set_line_width(width);
        state.line_width = Some(width);
    }
}

/// A frame point (top-left origin, y down) in PDF user space (bottom-left origin, y up).
fn pdf_point(point: Point, page_height: f64) -> (f32, f32) {
    (round(point.x.get()), round(page_height - point.y.get()))
}

/// A coordinate rounded to 1/1000 pt: far below what any device shows, and it keeps
/// numbers short in the stream. A non-finite value (a layout bug) becomes 0 rather than
/// a `NaN` token that would make the whole stream unreadable.
fn round(v: f64) -> f32 {
    if v.is_finite() {
        ((v * 1000.0).round() / 1000.0) as f32
    } else {
        0.0
    }
}

/// sRGB channels in 0..=1, rounded to 4 decimals (finer than 8-bit steps).
fn channels(Rgb(r, g, b): Rgb) -> [f32; 3] {
    [r, g, b].map(|c| (f32::from(c) / 255.0 * 10_000.0).round() / 10_000.0)
}
