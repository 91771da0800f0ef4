//! The look of drawn shapes: DrawingML `wps:spPr`/`wps:style` (geometry §20.1.9.18, fills
//! §20.1.8, outline §20.1.2.2.24, colours with their modifiers §20.1.2.3) and the VML
//! attributes of `v:rect`, `v:oval`, `v:line`… (Part 4 §14.1), and group coordinates
//! (`a:chOff`/`a:chExt`, §20.1.7.5).

use quick_xml::events::BytesStart;

use crate::docx::model::{Color, Geometry, PolygonPreset, ShapeStyle, ThemeColor, ThemeColorRef};
use crate::docx::simple_types::{color, int};
use crate::docx::theme_color::{with_luminance, Palette};
use crate::docx::xml::{attr, attr_raw};
use crate::units::Emu;

/// ST_PositiveFixedPercentage and friends: 100,000ths (§20.1.10.40).
const PERCENT: f64 = 100_000.0;
/// A VML outline's default width: 0.75 pt (Part 4 §14.1.2.21 `strokeweight`).
const VML_STROKE: Emu = Emu(9_525);
/// `a:ln` without `@w` is drawn one EMU wide by the spec, which Word shows as its thinnest
/// line; 0.75 pt (its default outline) is used when a style supplies the colour.
const DEFAULT_LINE: Emu = Emu(9_525);

/// Where a colour element being read goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Fill,
    Line,
    StyleFill,
    StyleLine,
}

/// A box in EMU: offset and size.
pub(crate) type EmuBox = ((Emu, Emu), (Emu, Emu));

/// One group's transform: where its children's coordinate space lands.
#[derive(Debug, Clone, Copy, Default)]
struct GroupXfrm {
    off: (i64, i64),
    ext: (i64, i64),
    ch_off: (i64, i64),
    ch_ext: (i64, i64),
}

/// Gathers one shape's look while its elements are read.
#[derive(Debug, Default)]
pub(crate) struct ShapeReader {
    geometry: Option<Geometry>,
    /// `Some(None)` for an explicit `a:noFill`.
    fill: Option<Option<Color>>,
    line: Option<Option<Color>>,
    style_fill: Option<Color>,
    style_line: Option<Color>,
    no_style_fill: bool,
    no_style_line: bool,
    line_width: Option<Emu>,
    dashed: bool,
    flip_h: bool,
    flip_v: bool,
    /// The shape's own `a:xfrm` box, in its parent's coordinates.
    own: Option<EmuBox>,
    /// The colour element being read and its value so far.
    current: Option<(Target, (u8, u8, u8))>,
    groups: Vec<GroupXfrm>,
    /// A shape (`wps:wsp` or a VML shape) was seen.
    pub seen: bool,
}

impl ShapeReader {
    /// Starts a new `wps:wsp` (group transforms are kept).
    pub(crate) fn begin_shape(&mut self) {
        let groups = std::mem::take(&mut self.groups);
        *self = ShapeReader {
            groups,
            seen: true,
            ..ShapeReader::default()
        };
    }

    /// Enters a group (`wpg:wgp`, `wpg:grpSp`).
    pub(crate) fn begin_group(&mut self) {
        self.groups.push(GroupXfrm::default());
    }

    /// Leaves a group.
    pub(crate) fn end_group(&mut self) {
        self.groups.pop();
    }

    /// Inside a group.
    pub(crate) fn in_group(&self) -> bool {
        !self.groups.is_empty()
    }

    /// Reads a DrawingML element `e` (local name `name`) whose ancestors' local names are
    /// `stack` (innermost last, `e` not included).
    pub(crate) fn element(
        &mut self,
        name: &[u8],
        e: &BytesStart<'_>,
        stack: &[Vec<u8>],
        palette: Option<&Palette>,
    ) {
        let parent = stack.last().map(|p| p.as_slice()).unwrap_or(b"");
        let grand = stack
            .len()
            .checked_sub(2)
            .map(|i| stack[i].as_slice())
            .unwrap_or(b"");
        let in_sp_pr = stack.iter().any(|s| s == b"spPr");
        let in_grp_pr = stack.iter().any(|s| s == b"grpSpPr");
        match name {
            b"prstGeom" if in_sp_pr => {
                self.geometry = Some(geometry(attr_raw(e, b"prst").as_deref().unwrap_or(b"rect")))
            }
            b"ln" if in_sp_pr => {
                self.line_width = attr_raw(e, b"w")
                    .and_then(|v| int(&v))
                    .map(Emu)
                    .or(self.line_width);
            }
            // `idx="0"` of a style reference means no fill or no line (§20.1.4.2.10/19).
            b"fillRef" => self.no_style_fill = attr_raw(e, b"idx").as_deref() == Some(b"0"),
            b"lnRef" => self.no_style_line = attr_raw(e, b"idx").as_deref() == Some(b"0"),
            b"prstDash" => {
                self.dashed = !matches!(attr_raw(e, b"val").as_deref(), Some(b"solid") | None)
            }
            b"noFill" if parent == b"ln" => self.line = Some(None),
            b"noFill" if parent == b"spPr" => self.fill = Some(None),
            b"xfrm" if parent == b"spPr" => {
                self.flip_h = attr_raw(e, b"flipH")
                    .is_some_and(|v| v.as_ref() == b"1" || v.as_ref() == b"true");
                self.flip_v = attr_raw(e, b"flipV")
                    .is_some_and(|v| v.as_ref() == b"1" || v.as_ref() == b"true");
            }
            b"off" | b"ext" | b"chOff" | b"chExt" if parent == b"xfrm" => {
                let pair = |x: &[u8], y: &[u8]| -> Option<(i64, i64)> {
                    Some((
                        attr_raw(e, x).and_then(|v| int(&v))?,
                        attr_raw(e, y).and_then(|v| int(&v))?,
                    ))
                };
                let value = if name == b"off" || name == b"chOff" {
                    pair(b"x", b"y")
                } else {
                    pair(b"cx", b"cy")
                };
                let Some(v) = value else { return };
                if grand == b"grpSpPr" && in_grp_pr {
                    if let Some(g) = self.groups.last_mut() {
                        match name {
                            b"off" => g.off = v,
                            b"ext" => g.ext = v,
                            b"chOff" => g.ch_off = v,
                            _ => g.ch_ext = v,
                        }
                    }
                } else if grand == b"spPr" {
                    let own = self.own.get_or_insert(((Emu(0), Emu(0)), (Emu(0), Emu(0))));
                    match name {
                        b"off" => own.0 = (Emu(v.0), Emu(v.1)),
                        b"ext" => own.1 = (Emu(v.0), Emu(v.1)),
                        _ => {}
                    }
                }
            }
            b"srgbClr" | b"schemeClr" | b"sysClr" | b"prstClr" | b"scrgbClr" => {
                let target = match (parent, grand) {
                    (b"solidFill", b"ln") if in_sp_pr => Some(Target::Line),
                    (b"solidFill", b"spPr") => Some(Target::Fill),
                    // A gradient shows as its first stop's colour.
                    (b"gs", _)
                        if in_sp_pr && !stack.iter().any(|s| s == b"ln") && self.fill.is_none() =>
                    {
                        Some(Target::Fill)
                    }
                    (b"lnRef", _) if !self.no_style_line => Some(Target::StyleLine),
                    (b"fillRef", _) if !self.no_style_fill => Some(Target::StyleFill),
                    _ => None,
                };
                self.current = None;
                let Some(target) = target else { return };
                let Some(rgb) = base_color(name, e, palette) else {
                    return;
                };
                self.current = Some((target, rgb));
                self.store();
            }
            b"lumMod" | b"lumOff" | b"tint" | b"shade"
                if matches!(parent, b"srgbClr" | b"schemeClr" | b"sysClr" | b"prstClr") =>
            {
                let Some((_, rgb)) = self.current.as_mut() else {
                    return;
                };
                *rgb = modified(*rgb, name, e);
                self.store();
            }
            _ => {}
        }
    }

    /// Writes the colour being read to its target.
    fn store(&mut self) {
        let Some((target, (r, g, b))) = self.current else {
            return;
        };
        let c = Some(Color::Rgb(r, g, b));
        match target {
            Target::Fill => self.fill = Some(c),
            Target::Line => self.line = Some(c),
            Target::StyleFill => self.style_fill = c,
            Target::StyleLine => self.style_line = c,
        }
    }

    /// Reads the attributes of a VML shape element (`v:rect`, `v:roundrect`, `v:oval`,
    /// `v:line`, `v:shape`): filled white and outlined black 0.75 pt unless it says not.
    pub(crate) fn vml_shape(&mut self, name: &[u8], e: &BytesStart<'_>) {
        self.seen = true;
        self.geometry = Some(match name {
            b"roundrect" => Geometry::RoundRect,
            b"oval" => Geometry::Ellipse,
            b"line" => Geometry::Line,
            _ => Geometry::Rect,
        });
        let off = |v: Option<std::borrow::Cow<'_, [u8]>>| {
            v.is_some_and(|v| matches!(v.as_ref(), b"f" | b"false" | b"0"))
        };
        self.fill = Some(if off(attr_raw(e, b"filled")) || name == b"line" {
            None
        } else {
            Some(
                attr(e, b"fillcolor")
                    .and_then(|c| vml_color(&c))
                    .unwrap_or(Color::Rgb(255, 255, 255)),
            )
        });
        self.line = Some(if off(attr_raw(e, b"stroked")) {
            None
        } else {
            Some(
                attr(e, b"strokecolor")
                    .and_then(|c| vml_color(&c))
                    .unwrap_or(Color::Rgb(0, 0, 0)),
            )
        });
        self.line_width = Some(
            attr(e, b"strokeweight")
                .and_then(|w| super::css_length(w.trim()))
                .unwrap_or(VML_STROKE),
        );
    }

    /// Reads a VML `v:fill` or `v:stroke` inside the shape.
    pub(crate) fn vml_child(&mut self, name: &[u8], e: &BytesStart<'_>) {
        let off = attr_raw(e, b"on").is_some_and(|v| matches!(v.as_ref(), b"f" | b"false" | b"0"));
        match name {
            b"fill" if off => self.fill = Some(None),
            b"fill" => {
                if let Some(c) = attr(e, b"color").and_then(|c| vml_color(&c)) {
                    self.fill = Some(Some(c));
                }
            }
            b"stroke" if off => self.line = Some(None),
            b"stroke" => {
                self.dashed |= attr_raw(e, b"dashstyle").is_some_and(|d| d.as_ref() != b"solid");
                if let Some(c) = attr(e, b"color").and_then(|c| vml_color(&c)) {
                    self.line = Some(Some(c));
                }
            }
            _ => {}
        }
    }

    /// The shape's look; `None` when it shows nothing (no fill and no outline).
    pub(crate) fn style(&self) -> Option<ShapeStyle> {
        if !self.seen {
            return None;
        }
        let fill = self.fill.unwrap_or(self.style_fill);
        let (line, width) = match self.line {
            Some(line) => (line, self.line_width.unwrap_or(DEFAULT_LINE)),
            None => (self.style_line, self.line_width.unwrap_or(DEFAULT_LINE)),
        };
        let geometry = self.geometry.clone().unwrap_or_default();
        let fill = fill.filter(|_| geometry != Geometry::Line);
        if fill.is_none() && line.is_none() {
            return None;
        }
        Some(ShapeStyle {
            geometry,
            fill,
            line,
            line_width: width,
            dashed: self.dashed,
            flip_h: self.flip_h,
            flip_v: self.flip_v,
        })
    }

    /// The shape's own `a:xfrm` box, unscaled.
    pub(crate) fn own_box(&self) -> Option<EmuBox> {
        self.own
    }

    /// The shape's box inside the outermost group, scaled to `extent` (the drawing's
    /// `wp:extent`), through every enclosing group's `chOff`/`chExt` (§20.1.7.5).
    pub(crate) fn box_in_group(&self, extent: (Emu, Emu)) -> Option<EmuBox> {
        let ((mut x, mut y), (mut w, mut h)) = {
            let ((ox, oy), (cx, cy)) = self.own?;
            ((ox.0 as f64, oy.0 as f64), (cx.0 as f64, cy.0 as f64))
        };
        for g in self.groups.iter().rev() {
            let sx = if g.ch_ext.0 > 0 {
                g.ext.0 as f64 / g.ch_ext.0 as f64
            } else {
                1.0
            };
            let sy = if g.ch_ext.1 > 0 {
                g.ext.1 as f64 / g.ch_ext.1 as f64
            } else {
                1.0
            };
            x = g.off.0 as f64 + (x - g.ch_off.0 as f64) * sx;
            y = g.off.1 as f64 + (y - g.ch_off.1 as f64) * sy;
            w *= sx;
            h *= sy;
        }
        // The outermost group's own box is the drawing's extent.
        let outer = self.groups.first()?;
        let sx = if outer.ext.0 > 0 {
            extent.0 .0 as f64 / outer.ext.0 as f64
        } else {
            1.0
        };
        let sy = if outer.ext.1 > 0 {
            extent.1 .0 as f64 / outer.ext.1 as f64
        } else {
            1.0
        };
        x = (x - outer.off.0 as f64) * sx;
        y = (y - outer.off.1 as f64) * sy;
        let e = |v: f64| Emu(v.round() as i64);
        Some(((e(x), e(y)), (e(w * sx), e(h * sy))))
    }
}

/// `a:prstGeom@prst` (ST_ShapeType): the outlines drawn; others are drawn as their box.
fn geometry(prst: &[u8]) -> Geometry {
    use PolygonPreset as P;
    let polygon = match prst {
        b"roundRect" | b"flowChartAlternateProcess" | b"flowChartTerminator" => {
            return Geometry::RoundRect
        }
        b"ellipse" | b"flowChartConnector" | b"donut" | b"cloud" | b"heart" => {
            return Geometry::Ellipse
        }
        b"line"
        | b"straightConnector1"
        | b"bentConnector2"
        | b"bentConnector3"
        | b"curvedConnector3" => return Geometry::Line,
        b"diamond" | b"flowChartDecision" => P::Diamond,
        b"triangle" | b"flowChartExtract" => P::Triangle,
        b"rtTriangle" => P::RightTriangle,
        b"pentagon" => P::Pentagon,
        b"hexagon" | b"flowChartPreparation" => P::Hexagon,
        b"octagon" => P::Octagon,
        b"parallelogram" | b"flowChartInputOutput" => P::Parallelogram,
        b"trapezoid" | b"flowChartManualOperation" => P::Trapezoid,
        b"rightArrow" => P::RightArrow,
        b"leftArrow" => P::LeftArrow,
        b"upArrow" => P::UpArrow,
        b"downArrow" => P::DownArrow,
        b"upDownArrow" => P::UpDownArrow,
        b"leftRightArrow" => P::LeftRightArrow,
        b"chevron" => P::Chevron,
        b"homePlate" => P::HomePlate,
        b"plus" | b"flowChartSummingJunction" => P::Plus,
        b"star5" => P::Star5,
        _ => return Geometry::Rect,
    };
    Geometry::Polygon(polygon)
}

/// A DrawingML colour being read for `target`: its base from `a:srgbClr`, `a:schemeClr`…,
/// changed by the modifiers that are its children (§20.1.2.3), complete when its element
/// closes.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenColor<T> {
    target: T,
    rgb: (u8, u8, u8),
    /// Open elements, itself included, while it is read.
    depth: usize,
}

impl<T: Copy> OpenColor<T> {
    /// The colour element `name` opening as the `depth`th open element; `None` for a colour
    /// that cannot be resolved.
    pub(super) fn start(target: T, name: &[u8], e: &BytesStart<'_>, palette: Option<&Palette>, depth: usize) -> Option<Self> {
        Some(OpenColor { target, rgb: base_color(name, e, palette)?, depth })
    }

    /// Applies the modifier `name` to the colour being read, if any.
    pub(super) fn modify(open: &mut Option<Self>, name: &[u8], e: &BytesStart<'_>) {
        if let Some(c) = open {
            c.rgb = modified(c.rgb, name, e);
        }
    }

    /// The finished colour and its target when the element closing with `depth` open
    /// elements (itself included) is the colour's own.
    pub(super) fn close(open: &mut Option<Self>, depth: usize) -> Option<(T, (u8, u8, u8))> {
        let c = open.filter(|c| c.depth == depth)?;
        *open = None;
        Some((c.target, c.rgb))
    }
}

/// `rgb` changed by the colour modifier `a:lumMod`, `a:lumOff`, `a:tint` or `a:shade`
/// (§20.1.2.3) named `name`.
fn modified(rgb: (u8, u8, u8), name: &[u8], e: &BytesStart<'_>) -> (u8, u8, u8) {
    let v = attr_raw(e, b"val").and_then(|v| int(&v)).unwrap_or(PERCENT as i64) as f64 / PERCENT;
    match name {
        b"lumMod" => with_luminance(rgb, |l| l * v),
        b"lumOff" => with_luminance(rgb, |l| l + v),
        // §20.1.2.3.34/31: towards white, towards black.
        b"tint" => map_rgb(rgb, |c| c + (1.0 - c) * (1.0 - v)),
        b"shade" => map_rgb(rgb, |c| c * v),
        _ => rgb,
    }
}

/// The colour of `a:srgbClr`, `a:schemeClr`, `a:sysClr` or `a:prstClr` before its
/// modifiers.
fn base_color(name: &[u8], e: &BytesStart<'_>, palette: Option<&Palette>) -> Option<(u8, u8, u8)> {
    let rgb = |c: Color| match c {
        Color::Rgb(r, g, b) => Some((r, g, b)),
        Color::Auto => None,
    };
    match name {
        b"srgbClr" => rgb(color(&attr_raw(e, b"val")?)?),
        b"sysClr" => {
            rgb(color(&attr_raw(e, b"lastClr")?)?).or(match attr_raw(e, b"val")?.as_ref() {
                b"window" => Some((255, 255, 255)),
                _ => Some((0, 0, 0)),
            })
        }
        b"prstClr" => preset(&attr_raw(e, b"val")?),
        b"schemeClr" => {
            let slot = scheme_slot(&attr_raw(e, b"val")?)?;
            rgb(palette?.resolve(ThemeColorRef {
                color: slot,
                tint: None,
                shade: None,
            })?)
        }
        _ => None,
    }
}

/// ST_SchemeColorVal (§20.1.10.54) as a theme role.
fn scheme_slot(v: &[u8]) -> Option<ThemeColor> {
    Some(match v {
        b"bg1" => ThemeColor::Background1,
        b"tx1" => ThemeColor::Text1,
        b"bg2" => ThemeColor::Background2,
        b"tx2" => ThemeColor::Text2,
        b"dk1" => ThemeColor::Dark1,
        b"lt1" => ThemeColor::Light1,
        b"dk2" => ThemeColor::Dark2,
        b"lt2" => ThemeColor::Light2,
        b"accent1" => ThemeColor::Accent1,
        b"accent2" => ThemeColor::Accent2,
        b"accent3" => ThemeColor::Accent3,
        b"accent4" => ThemeColor::Accent4,
        b"accent5" => ThemeColor::Accent5,
        b"accent6" => ThemeColor::Accent6,
        b"hlink" => ThemeColor::Hyperlink,
        b"folHlink" => ThemeColor::FollowedHyperlink,
        _ => return None,
    })
}

/// A few ST_PresetColorVal names (§20.1.10.47).
fn preset(v: &[u8]) -> Option<(u8, u8, u8)> {
    Some(match v {
        b"black" => (0, 0, 0),
        b"white" => (255, 255, 255),
        b"red" => (255, 0, 0),
        b"green" => (0, 128, 0),
        b"blue" => (0, 0, 255),
        b"yellow" => (255, 255, 0),
        b"gray" | b"grey" => (128, 128, 128),
        _ => return None,
    })
}

/// A VML colour: `#RRGGBB`, `#RGB` or a name, with an optional ` [index]` after it.
pub(crate) fn vml_color(v: &str) -> Option<Color> {
    let v = v.split_whitespace().next()?;
    if let Some(hex) = v.strip_prefix('#') {
        if hex.len() == 3 {
            let d = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok().map(|n| n * 17);
            return Some(Color::Rgb(d(0)?, d(1)?, d(2)?));
        }
        return color(hex.as_bytes()).filter(|c| *c != Color::Auto);
    }
    let (r, g, b) = match v.to_ascii_lowercase().as_str() {
        "black" => (0, 0, 0),
        "white" => (255, 255, 255),
        "red" => (255, 0, 0),
        "green" => (0, 128, 0),
        "lime" => (0, 255, 0),
        "blue" => (0, 0, 255),
        "yellow" => (255, 255, 0),
        "gray" | "grey" => (128, 128, 128),
        "silver" => (192, 192, 192),
        "navy" => (0, 0, 128),
        "maroon" => (128, 0, 0),
        _ => return None,
    };
    Some(Color::Rgb(r, g, b))
}

fn map_rgb((r, g, b): (u8, u8, u8), f: impl Fn(f64) -> f64) -> (u8, u8, u8) {
    let c = |v: u8| (f(f64::from(v) / 255.0).clamp(0.0, 1.0) * 255.0).round() as u8;
    (c(r), c(g), c(b))
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lum_mod_and_off_lighten_in_hsl() {
        // accent1 4472C4 with lumMod 20% lumOff 80% is Word's D9E2F3 (within a unit).
        let (r, g, b) = with_luminance(with_luminance((0x44, 0x72, 0xC4), |l| l * 0.2), |l| l + 0.8);
        assert!(
            (i32::from(r) - 0xD9).abs() <= 1
                && (i32::from(g) - 0xE2).abs() <= 1
                && (i32::from(b) - 0xF3).abs() <= 1,
            "{r:x}{g:x}{b:x}"
        );
    }

    #[test]
    fn vml_colours_are_hex_short_hex_or_names() {
        assert_eq!(
            vml_color("#4f81bd [3204]"),
            Some(Color::Rgb(0x4f, 0x81, 0xbd))
        );
        assert_eq!(vml_color("#f00"), Some(Color::Rgb(255, 0, 0)));
        assert_eq!(vml_color("black"), Some(Color::Rgb(0, 0, 0)));
    }
}
