//! Simple-type values (§17.18): measures, colours, highlight names, widths, borders and
//! shading, parsed from attribute bytes without allocating.

use quick_xml::events::BytesStart;

use crate::units::{EighthPoints, HalfPoints, Twips};

use super::model::{Border, Color, Gap, LineStyle, NumberFormat, Width};
use super::theme_color::{themed, Palette, THEME_COLOR, THEME_FILL};
use super::xml::{attr_raw, AttrSource, Attrs};

/// A decimal number, tolerating surrounding spaces and a fractional part.
pub(crate) fn number(raw: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(raw).ok()?.trim();
    if let Ok(i) = s.parse::<i64>() {
        return Some(i as f64);
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// An integer (ST_DecimalNumber); a decimal is rounded, as Word does when it reads one.
pub(crate) fn int(raw: &[u8]) -> Option<i64> {
    number(raw).map(|v| v.round() as i64)
}

/// A measure whose plain numbers are in a unit with `per_point` units per point; a
/// universal measure (ST_UniversalMeasure, §22.9.2.15: `12pt`, `2.5cm`, `1in`…) is
/// converted.
pub(crate) fn measure(raw: &[u8], per_point: f64) -> Option<i64> {
    if let Some(v) = number(raw) {
        return Some(v.round() as i64);
    }
    let s = std::str::from_utf8(raw).ok()?.trim();
    let (digits, points_per_unit) = if let Some(d) = s.strip_suffix("pt") {
        (d, 1.0)
    } else if let Some(d) = s.strip_suffix("mm") {
        (d, 72.0 / 25.4)
    } else if let Some(d) = s.strip_suffix("cm") {
        (d, 72.0 / 2.54)
    } else if let Some(d) = s.strip_suffix("in") {
        (d, 72.0)
    } else if let Some(d) = s.strip_suffix("pc").or_else(|| s.strip_suffix("pi")) {
        (d, 12.0)
    } else {
        return None;
    };
    let v: f64 = digits.trim().parse().ok().filter(|v: &f64| v.is_finite())?;
    Some((v * points_per_unit * per_point).round() as i64)
}

/// A length in twips (ST_TwipsMeasure / ST_SignedTwipsMeasure).
pub(crate) fn twips(raw: &[u8]) -> Option<Twips> {
    measure(raw, 20.0).map(Twips)
}

/// A length in half-points (ST_HpsMeasure / ST_SignedHpsMeasure).
pub(crate) fn half_points(raw: &[u8]) -> Option<HalfPoints> {
    measure(raw, 2.0).map(HalfPoints)
}

/// A twips attribute of an element.
pub(crate) fn twips_attr(e: &(impl AttrSource + ?Sized), local: &[u8]) -> Option<Twips> {
    attr_raw(e, local).and_then(|v| twips(&v))
}

/// ST_HexColor (§17.18.38): `RRGGBB` or `auto`.
pub(crate) fn color(raw: &[u8]) -> Option<Color> {
    let v = raw.trim_ascii();
    let v = v.strip_prefix(b"#").unwrap_or(v);
    if v.eq_ignore_ascii_case(b"auto") {
        return Some(Color::Auto);
    }
    if v.len() != 6 {
        return None;
    }
    let hex = |i: usize| -> Option<u8> {
        let s = std::str::from_utf8(&v[i..i + 2]).ok()?;
        u8::from_str_radix(s, 16).ok()
    };
    Some(Color::Rgb(hex(0)?, hex(2)?, hex(4)?))
}

/// ST_HighlightColor (§17.18.40) as the colour Word paints; `none` (and unknown names)
/// give `None`.
pub(crate) fn highlight(raw: &[u8]) -> Option<Color> {
    let rgb = match raw.trim_ascii() {
        b"yellow" => (0xFF, 0xFF, 0x00),
        b"green" => (0x00, 0xFF, 0x00),
        b"cyan" => (0x00, 0xFF, 0xFF),
        b"magenta" => (0xFF, 0x00, 0xFF),
        b"blue" => (0x00, 0x00, 0xFF),
        b"red" => (0xFF, 0x00, 0x00),
        b"darkBlue" => (0x00, 0x00, 0x80),
        b"darkCyan" => (0x00, 0x80, 0x80),
        b"darkGreen" => (0x00, 0x80, 0x00),
        b"darkMagenta" => (0x80, 0x00, 0x80),
        b"darkRed" => (0x80, 0x00, 0x00),
        b"darkYellow" => (0x80, 0x80, 0x00),
        b"darkGray" => (0x80, 0x80, 0x80),
        b"lightGray" => (0xC0, 0xC0, 0xC0),
        b"black" => (0x00, 0x00, 0x00),
        b"white" => (0xFF, 0xFF, 0xFF),
        _ => return None,
    };
    Some(Color::Rgb(rgb.0, rgb.1, rgb.2))
}

/// A `w:tblW`/`w:tcW`-style width (§17.18.90 ST_TblWidth). `nil`, and a zero width of any
/// type, count as auto (OI29500 2.1.171). `pct` is in fiftieths of a percent, or a `50%`
/// string in transitional files. A missing type is `dxa`.
pub(crate) fn width(e: &BytesStart<'_>) -> Option<Width> {
    let e = &Attrs::of(e);
    let w = attr_raw(e, b"w");
    let kind = attr_raw(e, b"type");
    match kind.as_deref().map(<[u8]>::trim_ascii) {
        Some(b"auto") | Some(b"nil") => Some(Width::Auto),
        Some(b"pct") => {
            let w = w?;
            let w = w.trim_ascii();
            let v = match w.strip_suffix(b"%") {
                Some(percent) => (number(percent)? * 50.0).round() as i64,
                None => int(w)?,
            };
            Some(if v == 0 { Width::Auto } else { Width::Pct(v) })
        }
        Some(b"dxa") | None => {
            let v = twips(&w?)?;
            Some(if v.0 == 0 { Width::Auto } else { Width::Dxa(v) })
        }
        Some(_) => None,
    }
}

/// A border element (§17.3.4: `w:top`, `w:insideH`…). `none` and `nil` are invisible. A
/// `w:themeColor` wins over `w:color` when the palette gives it.
pub(crate) fn border(e: &BytesStart<'_>, palette: Option<&Palette>) -> Border {
    let e = &Attrs::of(e);
    let style = match attr_raw(e, b"val").as_deref().map(<[u8]>::trim_ascii) {
        Some(b"none") | Some(b"nil") | None => LineStyle::None,
        Some(b"thick") => LineStyle::Thick,
        Some(b"triple") => LineStyle::Triple,
        Some(b"dotted") => LineStyle::Dotted,
        Some(b"dashed") | Some(b"dashSmallGap") => LineStyle::Dashed,
        Some(b"dotDash") => LineStyle::DotDash,
        Some(b"dotDotDash") => LineStyle::DotDotDash,
        Some(b"wave") | Some(b"doubleWave") => LineStyle::Wave,
        Some(b"double") => LineStyle::Double,
        Some(v) if v.starts_with(b"thinThickThin") => LineStyle::ThinThickThin(gap(v)),
        Some(v) if v.starts_with(b"thinThick") => LineStyle::ThinThick(gap(v)),
        Some(v) if v.starts_with(b"thickThin") => LineStyle::ThickThin(gap(v)),
        Some(_) => LineStyle::Single,
    };
    Border {
        visible: style != LineStyle::None,
        width: EighthPoints(attr_raw(e, b"sz").and_then(|v| int(&v)).unwrap_or(0)),
        space: attr_raw(e, b"space").and_then(|v| int(&v)).unwrap_or(0),
        color: themed(e, THEME_COLOR, palette)
            .or_else(|| attr_raw(e, b"color").and_then(|v| color(&v)))
            .unwrap_or(Color::Auto),
        style,
    }
}

/// The gap named at the end of a thin/thick border value (`thinThickMediumGap`).
fn gap(v: &[u8]) -> Gap {
    if v.ends_with(b"LargeGap") {
        Gap::Large
    } else if v.ends_with(b"MediumGap") {
        Gap::Medium
    } else {
        Gap::Small
    }
}

/// Whether a `w:val` of a border names an art border (§17.18.2: `apples`, `basicBlackDots`…)
/// rather than a line style; only page borders may use them.
pub(crate) fn is_art_border(val: &[u8]) -> bool {
    const LINES: &[&[u8]] = &[
        b"nil", b"none", b"single", b"thick", b"double", b"dotted", b"dashed", b"dotDash", b"dotDotDash", b"triple",
        b"wave", b"doubleWave", b"dashSmallGap", b"dashDotStroked", b"threeDEmboss", b"threeDEngrave", b"outset",
        b"inset",
    ];
    let v = val.trim_ascii();
    !(LINES.contains(&v) || v.starts_with(b"thinThick") || v.starts_with(b"thickThin"))
}

/// `w:shd` (§17.3.5) as the colour Word paints. `clear` paints the fill; `solid` paints
/// the pattern colour; `pctN` mixes N % of the pattern colour (auto = black) into the fill
/// (auto = white); `nil` clears inherited shading (`Some(Auto)`); other patterns keep the fill.
/// `w:themeFill` and `w:themeColor` supersede `w:fill` and `w:color` (§17.3.5).
pub(crate) fn shading(e: &BytesStart<'_>, palette: Option<&Palette>) -> Option<Color> {
    let e = &Attrs::of(e);
    let fill = themed(e, THEME_FILL, palette).or_else(|| attr_raw(e, b"fill").and_then(|v| color(&v)));
    let pattern = attr_raw(e, b"val");
    let pattern = pattern.as_deref().map(<[u8]>::trim_ascii).unwrap_or(b"clear");
    let fore = themed(e, THEME_COLOR, palette)
        .or_else(|| attr_raw(e, b"color").and_then(|v| color(&v)))
        .unwrap_or(Color::Auto);
    let rgb = |c: Color, auto: (u8, u8, u8)| match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Auto => auto,
    };
    match pattern {
        b"nil" => Some(Color::Auto),
        b"solid" => Some(match fore {
            Color::Auto => Color::Rgb(0, 0, 0),
            c => c,
        }),
        p if p.starts_with(b"pct") => {
            let pct = number(&p[3..])?.clamp(0.0, 100.0) / 100.0;
            if pct == 0.0 {
                return fill;
            }
            let (fr, fg, fb) = rgb(fore, (0, 0, 0));
            let (br, bg, bb) = rgb(fill.unwrap_or(Color::Auto), (0xFF, 0xFF, 0xFF));
            let mix = |f: u8, b: u8| (b as f64 + (f as f64 - b as f64) * pct).round() as u8;
            Some(Color::Rgb(mix(fr, br), mix(fg, bg), mix(fb, bb)))
        }
        _ => fill,
    }
}

/// ST_NumberFormat (§17.18.59).
pub(crate) fn number_format(raw: &[u8]) -> NumberFormat {
    match raw.trim_ascii() {
        b"decimal" => NumberFormat::Decimal,
        b"upperRoman" => NumberFormat::UpperRoman,
        b"lowerRoman" => NumberFormat::LowerRoman,
        b"upperLetter" => NumberFormat::UpperLetter,
        b"lowerLetter" => NumberFormat::LowerLetter,
        other => NumberFormat::Other(String::from_utf8_lossy(other).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(content: &str) -> BytesStart<'_> {
        BytesStart::from_content(content, content.find(' ').unwrap_or(content.len()))
    }

    #[test]
    fn universal_measures_convert_to_twips() {
        assert_eq!(twips(b"1440"), Some(Twips(1440)));
        assert_eq!(twips(b"1in"), Some(Twips(1440)));
        assert_eq!(twips(b"12pt"), Some(Twips(240)));
        assert_eq!(twips(b"2.54cm"), Some(Twips(1440)));
        assert_eq!(twips(b"720.0"), Some(Twips(720)));
        assert_eq!(twips(b"-360"), Some(Twips(-360)));
        assert_eq!(twips(b"wide"), None);
    }

    #[test]
    fn hex_and_auto_colours_parse() {
        assert_eq!(color(b"FF0080"), Some(Color::Rgb(255, 0, 128)));
        assert_eq!(color(b"auto"), Some(Color::Auto));
        assert_eq!(color(b"F00"), None);
    }

    #[test]
    fn highlight_names_become_colours() {
        assert_eq!(highlight(b"yellow"), Some(Color::Rgb(0xFF, 0xFF, 0)));
        assert_eq!(highlight(b"darkYellow"), Some(Color::Rgb(0x80, 0x80, 0)));
        assert_eq!(highlight(b"lightGray"), Some(Color::Rgb(0xC0, 0xC0, 0xC0)));
        assert_eq!(highlight(b"none"), None);
    }

    #[test]
    fn percent_string_width_is_fiftieths() {
        assert_eq!(width(&el(r#"tblW w:w="50%" w:type="pct""#)), Some(Width::Pct(2500)));
        assert_eq!(width(&el(r#"tblW w:w="5000" w:type="pct""#)), Some(Width::Pct(5000)));
    }

    #[test]
    fn nil_and_zero_widths_are_auto() {
        assert_eq!(width(&el(r#"tcW w:w="0" w:type="dxa""#)), Some(Width::Auto));
        assert_eq!(width(&el(r#"tcW w:w="2880" w:type="nil""#)), Some(Width::Auto));
        assert_eq!(width(&el(r#"tcW w:w="2880""#)), Some(Width::Dxa(Twips(2880))));
    }

    #[test]
    fn nil_border_is_invisible() {
        let b = border(&el(r#"top w:val="nil""#), None);
        assert!(!b.visible);
        let b = border(&el(r#"top w:val="double" w:sz="6" w:space="1" w:color="FF0000""#), None);
        assert!(b.visible);
        assert_eq!(
            (b.width, b.space, b.color, b.style),
            (EighthPoints(6), 1, Color::Rgb(255, 0, 0), LineStyle::Double)
        );
    }

    #[test]
    fn thin_thick_borders_keep_their_order_and_gap() {
        let style = |v: &str| border(&el(&format!(r#"top w:val="{v}" w:sz="24""#)), None).style;
        assert_eq!(style("thinThickThinSmallGap"), LineStyle::ThinThickThin(Gap::Small));
        assert_eq!(style("thinThickMediumGap"), LineStyle::ThinThick(Gap::Medium));
        assert_eq!(style("thickThinLargeGap"), LineStyle::ThickThin(Gap::Large));
        assert_eq!(style("doubleWave"), LineStyle::Wave);
    }

    #[test]
    fn percent_shading_mixes_pattern_into_fill() {
        assert_eq!(
            shading(&el(r#"shd w:val="clear" w:color="auto" w:fill="D9D9D9""#), None),
            Some(Color::Rgb(0xD9, 0xD9, 0xD9))
        );
        assert_eq!(
            shading(&el(r#"shd w:val="pct50" w:color="auto" w:fill="auto""#), None),
            Some(Color::Rgb(128, 128, 128))
        );
        assert_eq!(
            shading(&el(r#"shd w:val="solid" w:color="00FF00""#), None),
            Some(Color::Rgb(0, 255, 0))
        );
    }
}
