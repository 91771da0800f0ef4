//! A chart part (`c:chartSpace`, DrawingML Charts §21.2) read into what drawing it
//! needs: the kind of plot, the title, the series with their cached values and colours,
//! the categories, the legend and the axes. The spreadsheet behind the chart is not read:
//! the part caches every value it shows (`c:strCache`, `c:numCache`, §21.2.2.199/120).

use quick_xml::events::BytesStart;

use super::shape::OpenColor;
use crate::docx::xml::{attr_raw, Ev, XmlReader};
use crate::docx::DocxError;

/// An RGB colour.
pub(super) type Rgb = (u8, u8, u8);

/// The plot types drawn (§21.2.2.16 barChart, 97 lineChart, 141 pieChart, 50 doughnutChart,
/// 5 areaChart, 161 scatterChart); their 3-D variants draw flat.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ChartKind {
    /// Bars: `horizontal` for `c:barDir val="bar"`, columns otherwise.
    Bar { horizontal: bool, grouping: Grouping, gap: f64 },
    /// Lines through the values, also for scatter charts (x values are not read).
    Line { grouping: Grouping },
    /// Filled areas under the values.
    Area { grouping: Grouping },
    /// Slices of one series; `hole` is the doughnut's hole as a fraction of the radius.
    Pie { hole: f64, first_angle: f64 },
}

/// `c:grouping` (§21.2.2.76/77): side by side, stacked, or stacked to 100 %.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Grouping {
    #[default]
    Standard,
    Stacked,
    PercentStacked,
}

/// `c:legendPos` (§21.2.2.104).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LegendPos {
    Right,
    Left,
    Top,
    Bottom,
}

/// One `c:ser`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Series {
    pub name: String,
    /// Values by point index; a gap is `None`.
    pub values: Vec<Option<f64>>,
    /// `c:spPr` fill (bars, slices, areas).
    pub fill: Option<Rgb>,
    /// `c:spPr/a:ln` colour (lines).
    pub line: Option<Rgb>,
    /// `c:dPt` colours by point index (a pie's slices).
    pub point_colors: Vec<(usize, Rgb)>,
}

/// `c:plotArea/c:layout/c:manualLayout` of the inner plot (§21.2.2.95): fractions of the
/// chart's box.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct ManualLayout {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// What a chart part says, as far as drawing it goes.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Chart {
    pub kind: ChartKind,
    /// The title's text; the series name or "Chart Title" for an automatic one.
    pub title: Option<String>,
    pub title_size: f64,
    pub series: Vec<Series>,
    /// Category labels by point index.
    pub categories: Vec<String>,
    pub legend: Option<LegendPos>,
    /// The value axis's labels show (`c:valAx/c:delete` not set).
    pub value_axis: bool,
    /// The category axis's labels show.
    pub category_axis: bool,
    /// `c:valAx/c:majorGridlines`.
    pub gridlines: bool,
    /// The chart space's own fill and outline (`c:chartSpace/c:spPr`).
    pub fill: Option<Rgb>,
    pub outline: Option<Rgb>,
    pub plot_layout: Option<ManualLayout>,
    /// `c:legend/c:layout/c:manualLayout`: where the legend's entries go.
    pub legend_layout: Option<ManualLayout>,
}

/// Where a colour being read goes.
#[derive(Clone, Copy, PartialEq)]
enum ColorTarget {
    SpaceFill,
    SpaceLine,
    SeriesFill,
    SeriesLine,
    Point,
}

/// Reads the chart part `xml`; `None` when it holds no plot this module draws.
pub(super) fn read_chart(xml: &mut XmlReader<'_>) -> Result<Option<Chart>, DocxError> {
    if !xml.enter_root(&[b"chartSpace"])? {
        return Ok(None);
    }
    let palette = xml.palette();
    let mut stack: Vec<Vec<u8>> = vec![b"chartSpace".to_vec()];
    let mut kind = None;
    let mut grouping = Grouping::Standard;
    let mut horizontal = false;
    let mut gap = 150.0;
    let mut hole = 0.5;
    let mut first_angle = 0.0;
    let mut doughnut = false;
    let mut title: Option<String> = None;
    let mut has_title = false;
    let mut auto_title_deleted = false;
    let mut title_size = 14.0;
    let mut series: Vec<Series> = Vec::new();
    let mut categories: Vec<String> = Vec::new();
    let mut legend = None;
    let (mut value_axis, mut category_axis, mut gridlines) = (true, true, false);
    let (mut fill, mut outline) = (None, None);
    let mut plot_layout: Option<ManualLayout> = None;
    let mut legend_layout: Option<ManualLayout> = None;
    // The point index of the `c:pt` or `c:dPt` being read.
    let mut point: Option<usize> = None;
    let mut color: Option<OpenColor<ColorTarget>> = None;
    loop {
        let e = match xml.next()? {
            Ev::Start(e) => e,
            Ev::End => {
                if let Some((target, rgb)) = OpenColor::close(&mut color, stack.len()) {
                    store_color(target, rgb, &mut fill, &mut outline, series.last_mut(), point);
                }
                if stack.pop().is_none() || stack.is_empty() {
                    break;
                }
                continue;
            }
            Ev::Eof => break,
            _ => continue,
        };
        let name = e.local_name().as_ref().to_vec();
        let inside = |n: &[u8]| stack.iter().any(|s| s == n);
        let parent = stack.last().map(Vec::as_slice).unwrap_or_default();
        match name.as_slice() {
            b"barChart" | b"bar3DChart" => kind = Some(name.clone()),
            b"lineChart" | b"line3DChart" | b"scatterChart" | b"radarChart" | b"stockChart" => {
                kind = kind.or(Some(b"lineChart".to_vec()))
            }
            b"areaChart" | b"area3DChart" => kind = kind.or(Some(b"areaChart".to_vec())),
            b"pieChart" | b"pie3DChart" | b"ofPieChart" => kind = kind.or(Some(b"pieChart".to_vec())),
            b"doughnutChart" => {
                kind = kind.or(Some(b"pieChart".to_vec()));
                doughnut = true;
            }
            b"barDir" => horizontal = val(&e).as_deref() == Some(b"bar"),
            b"grouping" if inside(b"plotArea") => {
                grouping = match val(&e).as_deref() {
                    Some(b"stacked") => Grouping::Stacked,
                    Some(b"percentStacked") => Grouping::PercentStacked,
                    _ => Grouping::Standard,
                }
            }
            b"gapWidth" => gap = number(&e).unwrap_or(150.0).clamp(0.0, 500.0),
            b"holeSize" => hole = number(&e).unwrap_or(50.0).clamp(10.0, 90.0) / 100.0,
            b"firstSliceAng" => first_angle = number(&e).unwrap_or(0.0),
            b"title" if parent == b"chart" => has_title = true,
            b"autoTitleDeleted" => auto_title_deleted = val(&e).as_deref() != Some(b"0"),
            // The title's own text size (`a:defRPr@sz`, hundredths of a point).
            b"defRPr" if inside(b"title") && !inside(b"plotArea") => {
                if let Some(size) = attr_raw(&e, b"sz").and_then(|v| parse(&v)) {
                    title_size = (size / 100.0).clamp(4.0, 72.0);
                }
            }
            b"t" if inside(b"title") && !inside(b"plotArea") => {
                let text = xml.read_text()?;
                title.get_or_insert_with(String::new).push_str(&text);
                continue;
            }
            // Excel charts hold at most 255 series; more are not drawn.
            b"ser" if series.len() < MAX_SERIES => series.push(Series::default()),
            b"ser" => {
                xml.skip()?;
                continue;
            }
            b"pt" => point = attr_raw(&e, b"idx").and_then(|v| parse(&v)).map(|i| i as usize),
            b"idx" if parent == b"dPt" => point = number(&e).map(|i| i as usize),
            b"v" => {
                let text = xml.read_text()?;
                if let Some(s) = series.last_mut().filter(|_| inside(b"ser")) {
                    if inside(b"tx") {
                        s.name = text;
                    } else if inside(b"cat") || inside(b"xVal") {
                        if let Some(i) = point.filter(|&i| i < MAX_POINTS) {
                            if categories.len() <= i {
                                categories.resize(i + 1, String::new());
                            }
                            if categories[i].is_empty() {
                                categories[i] = text;
                            }
                        }
                    } else if inside(b"val") || inside(b"yVal") {
                        if let Some(i) = point.filter(|&i| i < MAX_POINTS) {
                            if s.values.len() <= i {
                                s.values.resize(i + 1, None);
                            }
                            s.values[i] = text.trim().parse::<f64>().ok().filter(|v| v.is_finite());
                        }
                    }
                }
                continue;
            }
            b"legend" => legend = Some(LegendPos::Right),
            b"legendPos" => {
                legend = Some(match val(&e).as_deref() {
                    Some(b"b") => LegendPos::Bottom,
                    Some(b"t") => LegendPos::Top,
                    Some(b"l") => LegendPos::Left,
                    _ => LegendPos::Right,
                })
            }
            b"delete" if parent == b"valAx" => value_axis = val(&e).as_deref() == Some(b"0"),
            b"delete" if parent == b"catAx" || parent == b"dateAx" => {
                category_axis = val(&e).as_deref() == Some(b"0")
            }
            b"majorGridlines" if parent == b"valAx" => gridlines = true,
            b"x" | b"y" | b"w" | b"h" if parent == b"manualLayout" && (inside(b"plotArea") || inside(b"legend")) => {
                let layout = if inside(b"legend") { &mut legend_layout } else { &mut plot_layout };
                let layout = layout.get_or_insert_with(ManualLayout::default);
                let v = number(&e).unwrap_or(0.0).clamp(0.0, 1.0);
                match name.as_slice() {
                    b"x" => layout.x = v,
                    b"y" => layout.y = v,
                    b"w" => layout.w = v,
                    _ => layout.h = v,
                }
            }
            b"srgbClr" | b"schemeClr" | b"sysClr" | b"prstClr" if parent == b"solidFill" => {
                let grand = stack.iter().rev().nth(1).map(Vec::as_slice).unwrap_or_default();
                let great = stack.iter().rev().nth(2).map(Vec::as_slice).unwrap_or_default();
                let owner = if grand == b"ln" { great } else { grand };
                let owner_of_sppr = stack
                    .iter()
                    .rev()
                    .skip_while(|s| s.as_slice() != b"spPr")
                    .nth(1)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let target = match (owner, grand == b"ln", owner_of_sppr) {
                    (b"spPr", false, b"chartSpace") => Some(ColorTarget::SpaceFill),
                    (b"spPr", true, b"chartSpace") => Some(ColorTarget::SpaceLine),
                    (b"spPr", false, b"ser") => Some(ColorTarget::SeriesFill),
                    (b"spPr", true, b"ser") => Some(ColorTarget::SeriesLine),
                    (b"spPr", false, b"dPt") => Some(ColorTarget::Point),
                    _ => None,
                };
                color = target.and_then(|t| OpenColor::start(t, &name, &e, palette, stack.len() + 1));
            }
            b"lumMod" | b"lumOff" | b"tint" | b"shade" => OpenColor::modify(&mut color, &name, &e),
            _ => {}
        }
        stack.push(name);
    }
    let kind = match kind.as_deref() {
        Some(b"barChart" | b"bar3DChart") => ChartKind::Bar { horizontal, grouping, gap },
        Some(b"lineChart") => ChartKind::Line { grouping },
        Some(b"areaChart") => ChartKind::Area { grouping },
        Some(_) => ChartKind::Pie {
            hole: if doughnut { hole } else { 0.0 },
            first_angle,
        },
        None => return Ok(None),
    };
    series.retain(|s| !s.values.is_empty());
    if series.is_empty() {
        return Ok(None);
    }
    // §21.2.2.210: a title without text shows the only series' name, else "Chart Title".
    let title = match (has_title && !auto_title_deleted, title) {
        (true, Some(t)) => Some(t),
        (true, None) if series.len() == 1 => Some(series[0].name.clone()),
        (true, None) => Some("Chart Title".to_owned()),
        (false, _) => None,
    };
    Ok(Some(Chart {
        kind,
        title: title.filter(|t| !t.trim().is_empty()),
        title_size,
        series,
        categories,
        legend,
        value_axis,
        category_axis,
        gridlines,
        fill,
        outline,
        plot_layout: plot_layout.filter(|l| l.w > 0.05 && l.h > 0.05),
        legend_layout: legend_layout.filter(|l| l.w > 0.01 && l.h > 0.01),
    }))
}

/// Points read per series at most: a chart is drawn from the cache, not the workbook.
const MAX_POINTS: usize = 4_096;
/// Series read at most (Excel's own limit per chart).
const MAX_SERIES: usize = 255;

fn store_color(
    target: ColorTarget,
    rgb: Rgb,
    fill: &mut Option<Rgb>,
    outline: &mut Option<Rgb>,
    series: Option<&mut Series>,
    point: Option<usize>,
) {
    match (target, series) {
        (ColorTarget::SpaceFill, _) => *fill = Some(rgb),
        (ColorTarget::SpaceLine, _) => *outline = Some(rgb),
        (ColorTarget::SeriesFill, Some(s)) => s.fill = Some(rgb),
        (ColorTarget::SeriesLine, Some(s)) => s.line = Some(rgb),
        (ColorTarget::Point, Some(s)) => {
            if let Some(i) = point {
                s.point_colors.push((i, rgb));
            }
        }
        _ => {}
    }
}

fn val<'e>(e: &'e BytesStart<'_>) -> Option<std::borrow::Cow<'e, [u8]>> {
    attr_raw(e, b"val")
}

fn number(e: &BytesStart<'_>) -> Option<f64> {
    parse(&val(e)?)
}

fn parse(v: &[u8]) -> Option<f64> {
    std::str::from_utf8(v).ok()?.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}
