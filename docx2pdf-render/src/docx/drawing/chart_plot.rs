//! A [`Chart`] drawn as a group of shapes and text boxes in the chart's box, with the look of
//! Word's default chart style (style 2 of Office 2013 and later): text in the body font at
//! 9 pt (title 14 pt) in `tx1` at 65 % (#595959), light grey (#D9D9D9) 0.75 pt gridlines and
//! axis line, series in the theme's accents in order, bars two thirds of their category
//! with `gapWidth` 150 %, lines 2.25 pt, slices outlined in white.
//!
//! Label widths are not measured here (the reader has no fonts): a label's box is wider than
//! its text needs and aligns the text, so layout sets it in one line where Word does.

use std::sync::Arc;

use super::chart::{Chart, ChartKind, Grouping, LegendPos, Rgb, Series};
use super::label::{self, Piece};
use crate::docx::model::{Align, Color, Geometry, GroupChild, ShapeStyle, TextBox, ThemeColor, ThemeColorRef};
use crate::docx::theme_color::{with_luminance, Palette};
use crate::units::Emu;

/// The text colour of the default chart style: `tx1` with lumMod 65 %, lumOff 35 %.
const TEXT: Rgb = (0x59, 0x59, 0x59);
/// Gridlines and the category axis: `tx1` with lumMod 15 %, lumOff 85 %.
const GRID: Rgb = (0xD9, 0xD9, 0xD9);
/// The accents of the Office theme, for a document without a theme.
const OFFICE_ACCENTS: [Rgb; 6] = [
    (0x44, 0x72, 0xC4),
    (0xED, 0x7D, 0x31),
    (0xA5, 0xA5, 0xA5),
    (0xFF, 0xC0, 0x00),
    (0x5B, 0x9B, 0xD5),
    (0x70, 0xAD, 0x47),
];
/// Bars or line points drawn at most in one chart.
const MAX_DRAWN: usize = 20_000;
/// Axis and legend text, points.
const LABEL_SIZE: f64 = 9.0;
/// Room between the chart's edge and its content, points.
const PAD: f64 = 7.0;

/// A rectangle in points from the chart's top-left corner.
#[derive(Debug, Clone, Copy)]
struct Area {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// What drawing a chart gives: the shapes of the group and its text boxes, in painting
/// order.
pub(super) struct Drawn {
    pub shapes: Vec<GroupChild>,
    pub labels: Vec<TextBox>,
}

/// Draws `chart` in `frame`'s box; `frame` carries where the box goes.
pub(super) fn plot(chart: &Chart, frame: &TextBox, palette: Option<&Palette>) -> Option<Drawn> {
    let (cx, cy) = frame.extent.filter(|(w, h)| w.0 > 0 && h.0 > 0)?;
    let (w, h) = (cx.pt().0, cy.pt().0);
    let mut out = Drawn { shapes: Vec::new(), labels: Vec::new() };
    let mut pen = Pen { frame, out: &mut out };
    let fill = chart.fill.or(Some((255, 255, 255)));
    pen.rect(Area { x: 0.0, y: 0.0, w, h }, fill, chart.outline, 0.75);
    let mut top = PAD;
    if let Some(title) = &chart.title {
        let height = chart.title_size * 1.3;
        pen.label(title, Area { x: PAD, y: top, w: w - 2.0 * PAD, h: height }, chart.title_size, Align::Center);
        top += height + 4.0;
    }
    let entries = legend_entries(chart, palette);
    let mut inner = Area { x: PAD, y: top, w: w - 2.0 * PAD, h: h - top - PAD };
    let line_swatch = matches!(chart.kind, ChartKind::Line { .. });
    if let Some(pos) = chart.legend.filter(|_| !entries.is_empty()) {
        match chart.legend_layout {
            // A legend placed by hand leaves the plot where it is.
            Some(l) => {
                legend(&mut pen, pos, &entries, Area { x: l.x * w, y: l.y * h, w: l.w * w, h: l.h * h }, line_swatch);
            }
            None => inner = legend(&mut pen, pos, &entries, inner, line_swatch),
        }
    }
    let plot_area = match chart.plot_layout {
        Some(l) => Area { x: l.x * w, y: l.y * h, w: l.w * w, h: l.h * h },
        None => inner,
    };
    match chart.kind {
        ChartKind::Pie { hole, first_angle } => pie(&mut pen, chart, plot_area, hole, first_angle, palette),
        _ => axes_and_values(&mut pen, chart, plot_area, chart.plot_layout.is_some(), palette),
    }
    Some(out)
}

/// Adds shapes and labels to the group.
struct Pen<'f, 'o> {
    frame: &'f TextBox,
    out: &'o mut Drawn,
}

impl Pen<'_, '_> {
    fn shape(&mut self, area: Area, style: ShapeStyle) {
        self.out.shapes.push(GroupChild {
            offset: (emu(area.x), emu(area.y)),
            extent: (emu(area.w.max(0.0)), emu(area.h.max(0.0))),
            style,
        });
    }

    fn rect(&mut self, area: Area, fill: Option<Rgb>, line: Option<Rgb>, line_pt: f64) {
        self.shape(area, style(Geometry::Rect, fill, line, line_pt));
    }

    /// A straight line from (x1, y1) to (x2, y2).
    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), color: Rgb, width: f64) {
        let mut s = style(Geometry::Line, None, Some(color), width);
        // The line runs from the box's top-left corner down unless one flip turns it.
        s.flip_h = x2 < x1;
        s.flip_v = y2 < y1;
        let area = Area { x: x1.min(x2), y: y1.min(y2), w: (x2 - x1).abs(), h: (y2 - y1).abs() };
        self.shape(area, s);
    }

    /// A closed outline through `points` (points from the chart's corner).
    fn polygon(&mut self, points: &[(f64, f64)], fill: Rgb, line: Option<(Rgb, f64)>) {
        let min_x = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let min_y = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_x = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let max_y = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let (bw, bh) = ((max_x - min_x).max(0.01), (max_y - min_y).max(0.01));
        let scaled: Arc<[(i32, i32)]> = points
            .iter()
            .map(|&(x, y)| (((x - min_x) / bw * 1e5).round() as i32, ((y - min_y) / bh * 1e5).round() as i32))
            .collect();
        let (line, width) = line.map_or((None, 0.0), |(c, w)| (Some(c), w));
        let area = Area { x: min_x, y: min_y, w: bw, h: bh };
        self.shape(area, style(Geometry::Freeform(scaled), Some(fill), line, width));
    }

    /// One line of text in `area`, vertically centred.
    fn label(&mut self, text: &str, area: Area, size: f64, align: Align) {
        let piece = Piece { text: text.to_owned(), size, color: TEXT, bold: false };
        let blocks = vec![label::paragraph(vec![piece], align, 1.0)];
        let (offset, extent) = ((emu(area.x), emu(area.y)), (emu(area.w.max(1.0)), emu(area.h.max(1.0))));
        self.out.labels.push(label::text_box(self.frame, offset, extent, blocks, "ctr", [Emu(0); 4]));
    }
}

fn style(geometry: Geometry, fill: Option<Rgb>, line: Option<Rgb>, line_pt: f64) -> ShapeStyle {
    let color = |c: Rgb| Color::Rgb(c.0, c.1, c.2);
    ShapeStyle {
        geometry,
        fill: fill.map(color),
        line: line.map(color),
        line_width: emu(line_pt),
        ..Default::default()
    }
}

fn emu(pt: f64) -> Emu {
    Emu((pt * 12_700.0).round() as i64)
}

/// A label's width guessed from its length: about half an em per character, which holds
/// for the body fonts of Office themes; boxes are given room beyond it.
fn guess_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 0.52 } else { 1.0 }).sum::<f64>() * size
}

/// The series' or (for a pie) the categories' names and colours, in legend order.
fn legend_entries(chart: &Chart, palette: Option<&Palette>) -> Vec<(String, Rgb)> {
    match chart.kind {
        ChartKind::Pie { .. } => {
            let series = &chart.series[0];
            (0..series.values.len())
                .map(|i| (chart.categories.get(i).cloned().unwrap_or_else(|| (i + 1).to_string()), point_color(series, i, palette)))
                .collect()
        }
        _ => chart
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), series_color(chart, s, i, palette)))
            .collect(),
    }
}

/// Draws the legend on side `pos` of `inner` and returns what is left for the plot.
fn legend(pen: &mut Pen<'_, '_>, pos: LegendPos, entries: &[(String, Rgb)], inner: Area, line_swatch: bool) -> Area {
    // A line series shows a short stretch of its line, the others a square of their fill.
    let swatch = if line_swatch { 20.0 } else { 5.5 };
    let line_h = LABEL_SIZE * 1.3;
    let key = |pen: &mut Pen<'_, '_>, x: f64, y: f64, color: Rgb| {
        if line_swatch {
            pen.line((x, y + line_h / 2.0), (x + swatch, y + line_h / 2.0), color, 2.25);
        } else {
            pen.rect(Area { x, y: y + (line_h - swatch) / 2.0, w: swatch, h: swatch }, Some(color), None, 0.0);
        }
    };
    match pos {
        LegendPos::Bottom | LegendPos::Top => {
            let widths: Vec<f64> = entries.iter().map(|(t, _)| swatch + 3.0 + guess_width(t, LABEL_SIZE)).collect();
            let total: f64 = widths.iter().sum::<f64>() + 10.0 * (entries.len() as f64 - 1.0);
            let mut x = inner.x + ((inner.w - total) / 2.0).max(0.0);
            let y = match pos {
                LegendPos::Bottom => inner.y + inner.h - line_h,
                _ => inner.y,
            };
            for ((text, color), width) in entries.iter().zip(&widths) {
                key(pen, x, y, *color);
                let text_x = x + swatch + 3.0;
                pen.label(text, Area { x: text_x, y, w: width * 1.5 + 8.0, h: line_h }, LABEL_SIZE, Align::Left);
                x += width + 10.0;
            }
            let h = inner.h - line_h - 6.0;
            match pos {
                LegendPos::Bottom => Area { h, ..inner },
                _ => Area { y: inner.y + line_h + 6.0, h, ..inner },
            }
        }
        LegendPos::Right | LegendPos::Left => {
            let width = entries.iter().map(|(t, _)| guess_width(t, LABEL_SIZE)).fold(0.0, f64::max) + swatch + 3.0;
            let width = width.min(inner.w / 2.0);
            let x = match pos {
                LegendPos::Right => inner.x + inner.w - width,
                _ => inner.x,
            };
            let mut y = inner.y + ((inner.h - line_h * entries.len() as f64) / 2.0).max(0.0);
            for (text, color) in entries {
                key(pen, x, y, *color);
                pen.label(text, Area { x: x + swatch + 3.0, y, w: width * 1.5 + 8.0, h: line_h }, LABEL_SIZE, Align::Left);
                y += line_h;
            }
            let w = inner.w - width - 8.0;
            match pos {
                LegendPos::Right => Area { w, ..inner },
                _ => Area { x: inner.x + width + 8.0, w, ..inner },
            }
        }
    }
}

/// The theme accent `n` (0-based, cycling) and, past the sixth series, darker variants as
/// in the default colour style (`lumMod` 60 %).
fn accent(n: usize, palette: Option<&Palette>) -> Rgb {
    const ACCENTS: [ThemeColor; 6] = [
        ThemeColor::Accent1,
        ThemeColor::Accent2,
        ThemeColor::Accent3,
        ThemeColor::Accent4,
        ThemeColor::Accent5,
        ThemeColor::Accent6,
    ];
    let slot = n % 6;
    let base = palette
        .and_then(|p| p.resolve(ThemeColorRef { color: ACCENTS[slot], tint: None, shade: None }))
        .and_then(|c| match c {
            Color::Rgb(r, g, b) => Some((r, g, b)),
            Color::Auto => None,
        })
        .unwrap_or(OFFICE_ACCENTS[slot]);
    if n >= 6 {
        with_luminance(base, |l| l * 0.6)
    } else {
        base
    }
}

fn series_color(chart: &Chart, series: &Series, index: usize, palette: Option<&Palette>) -> Rgb {
    let own = match chart.kind {
        ChartKind::Line { .. } => series.line.or(series.fill),
        _ => series.fill.or(series.line),
    };
    own.unwrap_or_else(|| accent(index, palette))
}

fn point_color(series: &Series, point: usize, palette: Option<&Palette>) -> Rgb {
    series
        .point_colors
        .iter()
        .rev()
        .find(|(i, _)| *i == point)
        .map(|(_, c)| *c)
        .unwrap_or_else(|| accent(point, palette))
}

/// The value axis: from `min` to `max` in steps of `step`.
struct Scale {
    min: f64,
    max: f64,
    step: f64,
}

/// Word's automatic axis bounds (as Excel's): zero is included when every value has one
/// sign; the extreme is pushed out by 5 % of the range and rounded up to a major unit of
/// 1, 2 or 5 times a power of ten giving at most about eight divisions.
fn scale(low: f64, high: f64) -> Scale {
    let (mut low, mut high) = (low.min(0.0), high.max(0.0));
    if high - low < 1e-12 {
        high = low + 1.0;
    }
    let range = high - low;
    if high > 0.0 {
        high += range * 0.05;
    }
    if low < 0.0 {
        low -= range * 0.05;
    }
    let raw = (high - low) / 8.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    Scale {
        min: (low / step).floor() * step,
        max: (high / step).ceil() * step,
        step,
    }
}

/// An axis value in the `General` number format: no more decimals than the step needs.
fn axis_number(v: f64, step: f64, percent: bool) -> String {
    let decimals = if step >= 1.0 { 0 } else { (-step.log10()).ceil().clamp(0.0, 6.0) as usize };
    let mut text = format!("{:.*}", decimals, v);
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_owned();
    }
    if text == "-0" {
        text = "0".to_owned();
    }
    if percent {
        format!("{text}%")
    } else {
        text
    }
}

/// Bars, lines and areas over a value axis: gridlines and value labels, category labels,
/// then the series.
fn axes_and_values(pen: &mut Pen<'_, '_>, chart: &Chart, area: Area, manual: bool, palette: Option<&Palette>) {
    let (horizontal, grouping) = match chart.kind {
        ChartKind::Bar { horizontal, grouping, .. } => (horizontal, grouping),
        ChartKind::Line { grouping } | ChartKind::Area { grouping } => (false, grouping),
        ChartKind::Pie { .. } => return,
    };
    // At most `MAX_DRAWN` bars or line points in all: a hostile chart part cannot ask for
    // more shapes than a page can show.
    let count = chart.series.iter().map(|s| s.values.len()).max().unwrap_or(0).max(chart.categories.len()).max(1);
    let count = count.min(MAX_DRAWN / chart.series.len().max(1)).max(1);
    let value = |s: &Series, i: usize| s.values.get(i).copied().flatten().unwrap_or(0.0);
    // Stacked values: the running total of every category.
    let totals: Vec<f64> = (0..count).map(|i| chart.series.iter().map(|s| value(s, i).abs()).sum()).collect();
    let shown = |s: &Series, i: usize| match grouping {
        Grouping::PercentStacked if totals[i] > 0.0 => value(s, i) / totals[i] * 100.0,
        _ => value(s, i),
    };
    let (low, high) = match grouping {
        Grouping::Standard => chart
            .series
            .iter()
            .flat_map(|s| s.values.iter().flatten().copied())
            .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v))),
        Grouping::Stacked => (0.0, totals.iter().copied().fold(0.0, f64::max)),
        Grouping::PercentStacked => (0.0, 100.0),
    };
    let scale = match grouping {
        Grouping::PercentStacked => Scale { min: 0.0, max: 100.0, step: 10.0 },
        _ => scale(low, high),
    };
    let percent = grouping == Grouping::PercentStacked;
    let labels: Vec<String> = {
        let steps = ((scale.max - scale.min) / scale.step).round() as usize;
        (0..=steps.min(50)).map(|k| axis_number(scale.min + k as f64 * scale.step, scale.step, percent)).collect()
    };
    let value_w = labels.iter().map(|l| guess_width(l, LABEL_SIZE)).fold(0.0, f64::max) + 4.0;
    let cat_h = LABEL_SIZE * 1.3 + 3.0;
    let cat_w = chart.categories.iter().map(|c| guess_width(c, LABEL_SIZE)).fold(0.0, f64::max) + 6.0;
    // The plot itself, inside the labels unless a manual layout placed it.
    let plot = match (manual, horizontal) {
        (true, _) => area,
        (false, false) => {
            let left = if chart.value_axis { value_w } else { 0.0 };
            let bottom = if chart.category_axis { cat_h } else { 0.0 };
            Area { x: area.x + left, y: area.y + 4.0, w: area.w - left - 4.0, h: area.h - bottom - 4.0 }
        }
        (false, true) => {
            let left = if chart.category_axis { cat_w.min(area.w / 3.0) } else { 0.0 };
            let bottom = if chart.value_axis { cat_h } else { 0.0 };
            Area { x: area.x + left, y: area.y + 4.0, w: area.w - left - 8.0, h: area.h - bottom - 4.0 }
        }
    };
    if plot.w <= 1.0 || plot.h <= 1.0 {
        return;
    }
    let span = scale.max - scale.min;
    // Where a value falls along the value axis, from the plot's left or bottom edge.
    let along = |v: f64, length: f64| (v - scale.min) / span * length;
    // Gridlines and value labels.
    for (k, text) in labels.iter().enumerate() {
        let v = scale.min + k as f64 * scale.step;
        if horizontal {
            let x = plot.x + along(v, plot.w);
            if chart.gridlines {
                pen.line((x, plot.y), (x, plot.y + plot.h), GRID, 0.75);
            }
            if chart.value_axis {
                let w = value_w + 10.0;
                pen.label(text, Area { x: x - w / 2.0, y: plot.y + plot.h + 2.0, w, h: cat_h - 2.0 }, LABEL_SIZE, Align::Center);
            }
        } else {
            let y = plot.y + plot.h - along(v, plot.h);
            if chart.gridlines {
                pen.line((plot.x, y), (plot.x + plot.w, y), GRID, 0.75);
            }
            if chart.value_axis {
                let h = LABEL_SIZE * 1.3;
                pen.label(text, Area { x: plot.x - value_w - 3.0, y: y - h / 2.0, w: value_w, h }, LABEL_SIZE, Align::Right);
            }
        }
    }
    // The category axis line at zero and the category labels.
    let band = if horizontal { plot.h } else { plot.w } / count as f64;
    if horizontal {
        let x = plot.x + along(0.0, plot.w);
        pen.line((x, plot.y), (x, plot.y + plot.h), GRID, 0.75);
    } else {
        let y = plot.y + plot.h - along(0.0, plot.h);
        pen.line((plot.x, y), (plot.x + plot.w, y), GRID, 0.75);
    }
    if chart.category_axis {
        for (i, text) in chart.categories.iter().enumerate().take(count) {
            if horizontal {
                // Bar charts list the first category at the bottom.
                let y = plot.y + plot.h - band * (i as f64 + 1.0);
                let w = cat_w.min(area.w / 3.0);
                pen.label(text, Area { x: plot.x - w - 3.0, y, w, h: band }, LABEL_SIZE, Align::Right);
            } else {
                let x = plot.x + band * i as f64;
                pen.label(text, Area { x, y: plot.y + plot.h + 2.0, w: band, h: cat_h - 2.0 }, LABEL_SIZE, Align::Center);
            }
        }
    }
    match chart.kind {
        ChartKind::Bar { gap, .. } => {
            let stacked = grouping != Grouping::Standard;
            let slots = if stacked { 1.0 } else { chart.series.len() as f64 };
            let group = band / (1.0 + gap / 100.0);
            let bar = group / slots;
            let mut base_pos = vec![0.0; count];
            let mut base_neg = vec![0.0; count];
            for (n, s) in chart.series.iter().enumerate() {
                let color = series_color(chart, s, n, palette);
                for i in 0..count {
                    let v = shown(s, i);
                    let base = if v >= 0.0 { &mut base_pos[i] } else { &mut base_neg[i] };
                    let (from, to) = if stacked { (*base, *base + v) } else { (0.0, v) };
                    if stacked {
                        *base += v;
                    }
                    let slot = if stacked { 0.0 } else { n as f64 };
                    let across = band * i as f64 + (band - group) / 2.0 + bar * slot;
                    let (a, b) = (from.min(to).max(scale.min), from.max(to).min(scale.max));
                    if b <= a {
                        continue;
                    }
                    let area = if horizontal {
                        let y = plot.y + plot.h - across - bar;
                        Area { x: plot.x + along(a, plot.w), y, w: along(b, plot.w) - along(a, plot.w), h: bar }
                    } else {
                        let top = plot.y + plot.h - along(b, plot.h);
                        Area { x: plot.x + across, y: top, w: bar, h: along(b, plot.h) - along(a, plot.h) }
                    };
                    pen.rect(area, Some(color), None, 0.0);
                }
            }
        }
        ChartKind::Line { .. } | ChartKind::Area { .. } => {
            let area_kind = matches!(chart.kind, ChartKind::Area { .. });
            let mut running = vec![0.0; count];
            // Areas are painted from the last series back so the first stays in front.
            let order: Vec<usize> = if area_kind {
                (0..chart.series.len()).rev().collect()
            } else {
                (0..chart.series.len()).collect()
            };
            let stacked = grouping != Grouping::Standard;
            let mut points_of: Vec<Vec<(f64, f64)>> = vec![Vec::new(); chart.series.len()];
            for (n, s) in chart.series.iter().enumerate() {
                for (i, total) in running.iter_mut().enumerate() {
                    let mut v = shown(s, i);
                    if stacked {
                        *total += v;
                        v = *total;
                    }
                    let v = v.clamp(scale.min, scale.max);
                    let x = if area_kind {
                        plot.x + plot.w * i as f64 / (count.max(2) - 1) as f64
                    } else {
                        plot.x + band * (i as f64 + 0.5)
                    };
                    points_of[n].push((x, plot.y + plot.h - along(v, plot.h)));
                }
            }
            for n in order {
                let color = series_color(chart, &chart.series[n], n, palette);
                let points = &points_of[n];
                if area_kind {
                    let zero = plot.y + plot.h - along(0.0f64.clamp(scale.min, scale.max), plot.h);
                    let mut outline = points.clone();
                    outline.push((points.last().map_or(plot.x, |p| p.0), zero));
                    outline.push((points.first().map_or(plot.x, |p| p.0), zero));
                    pen.polygon(&outline, color, None);
                } else {
                    for pair in points.windows(2) {
                        pen.line(pair[0], pair[1], color, 2.25);
                    }
                }
            }
        }
        ChartKind::Pie { .. } => {}
    }
}

/// The first series as slices clockwise from `first_angle` degrees past twelve o'clock,
/// each outlined in white; a doughnut leaves a `hole` of the radius empty.
fn pie(pen: &mut Pen<'_, '_>, chart: &Chart, area: Area, hole: f64, first_angle: f64, palette: Option<&Palette>) {
    let series = &chart.series[0];
    let values: Vec<f64> = series.values.iter().map(|v| v.unwrap_or(0.0).abs()).collect();
    let total: f64 = values.iter().sum();
    if total <= 0.0 {
        return;
    }
    let r = (area.w.min(area.h) / 2.0 - 2.0).max(1.0);
    let (cx, cy) = (area.x + area.w / 2.0, area.y + area.h / 2.0);
    let at = |deg: f64, radius: f64| {
        let a = deg.to_radians();
        (cx + radius * a.sin(), cy - radius * a.cos())
    };
    let mut start = first_angle;
    for (i, v) in values.iter().enumerate() {
        let sweep = v / total * 360.0;
        if sweep <= 0.0 {
            continue;
        }
        let steps = (sweep / 3.0).ceil().max(1.0) as usize;
        let arc = |radius: f64| (0..=steps).map(move |k| start + sweep * k as f64 / steps as f64).map(move |d| at(d, radius));
        let mut points: Vec<(f64, f64)> = arc(r).collect();
        if hole > 0.0 {
            points.extend(arc(r * hole).collect::<Vec<_>>().into_iter().rev());
        } else if sweep < 360.0 {
            points.push((cx, cy));
        }
        pen.polygon(&points, point_color(series, i, palette), Some(((255, 255, 255), 1.5)));
        start += sweep;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_includes_zero_and_rounds_past_the_largest_value() {
        // Values up to 5 → 5.25 with the 5 % margin → 0 to 6 in steps of 1.
        let s = scale(1.5, 5.0);
        assert_eq!((s.min, s.max, s.step), (0.0, 6.0, 1.0));
        let s = scale(0.0, 420.0);
        assert_eq!((s.min, s.max, s.step), (0.0, 500.0, 100.0));
        let s = scale(-3.0, 2.0);
        assert!(s.min <= -3.0 && s.max >= 2.0 && s.step == 1.0);
    }

    #[test]
    fn axis_numbers_show_the_decimals_of_the_step() {
        assert_eq!(axis_number(1.5, 0.5, false), "1.5");
        assert_eq!(axis_number(2.0, 1.0, false), "2");
        assert_eq!(axis_number(40.0, 10.0, true), "40%");
        assert_eq!(axis_number(-0.0, 0.2, false), "0");
        assert_eq!(axis_number(0.6000000001, 0.2, false), "0.6");
    }
}
