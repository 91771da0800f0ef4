//! Theme colours (§17.3.2.6 `w:themeColor`, `w:themeTint`, `w:themeShade`): the palette
//! built from the theme's `a:clrScheme` and settings' `w:clrSchemeMapping`, and Word's
//! tint and shade arithmetic.

use super::model::{Color, ColorScheme, ColorSchemeMapping, ThemeColor, ThemeColorRef};
use super::xml::{attr_raw, AttrSource};

/// The theme colours a document can name, ready to resolve references while reading.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Palette {
    pub scheme: ColorScheme,
    pub mapping: ColorSchemeMapping,
}

impl Palette {
    /// The sRGB colour of a reference, `None` when the theme lacks the slot.
    pub(crate) fn resolve(&self, r: ThemeColorRef) -> Option<Color> {
        let Color::Rgb(red, green, blue) = self.slot(self.mapped(r.color))? else {
            return None;
        };
        // OI29500 2.1.72 b: with both present, Word applies the tint.
        let (r, g, b) = match (r.tint, r.shade) {
            (Some(t), _) => lighten((red, green, blue), t),
            (None, Some(s)) => darken((red, green, blue), s),
            (None, None) => (red, green, blue),
        };
        Some(Color::Rgb(r, g, b))
    }

    /// The scheme slot a role names through `w:clrSchemeMapping` (§17.15.1.20). The
    /// `dark1`…`light2` names address their slots directly.
    fn mapped(&self, c: ThemeColor) -> ThemeColor {
        let m = &self.mapping;
        let (mapped, default) = match c {
            ThemeColor::Text1 => (m.text1, ThemeColor::Dark1),
            ThemeColor::Background1 => (m.background1, ThemeColor::Light1),
            ThemeColor::Text2 => (m.text2, ThemeColor::Dark2),
            ThemeColor::Background2 => (m.background2, ThemeColor::Light2),
            ThemeColor::Accent1 => (m.accents[0], c),
            ThemeColor::Accent2 => (m.accents[1], c),
            ThemeColor::Accent3 => (m.accents[2], c),
            ThemeColor::Accent4 => (m.accents[3], c),
            ThemeColor::Accent5 => (m.accents[4], c),
            ThemeColor::Accent6 => (m.accents[5], c),
            ThemeColor::Hyperlink => (m.hyperlink, c),
            ThemeColor::FollowedHyperlink => (m.followed_hyperlink, c),
            ThemeColor::Dark1 | ThemeColor::Light1 | ThemeColor::Dark2 | ThemeColor::Light2 => (None, c),
        };
        // A mapping names a slot (ST_WmlColorSchemeIndex), never another role.
        match mapped {
            Some(ThemeColor::Text1 | ThemeColor::Background1 | ThemeColor::Text2 | ThemeColor::Background2) | None => {
                default
            }
            Some(slot) => slot,
        }
    }

    fn slot(&self, c: ThemeColor) -> Option<Color> {
        let s = &self.scheme;
        match c {
            ThemeColor::Dark1 => s.dark1,
            ThemeColor::Light1 => s.light1,
            ThemeColor::Dark2 => s.dark2,
            ThemeColor::Light2 => s.light2,
            ThemeColor::Accent1 => s.accents[0],
            ThemeColor::Accent2 => s.accents[1],
            ThemeColor::Accent3 => s.accents[2],
            ThemeColor::Accent4 => s.accents[3],
            ThemeColor::Accent5 => s.accents[4],
            ThemeColor::Accent6 => s.accents[5],
            ThemeColor::Hyperlink => s.hyperlink,
            ThemeColor::FollowedHyperlink => s.followed_hyperlink,
            _ => None,
        }
    }
}

/// ST_ThemeColor (§17.18.97) and ST_WmlColorSchemeIndex (§17.18.104); `none` and unknown
/// names give `None`.
pub(crate) fn theme_color(v: &[u8]) -> Option<ThemeColor> {
    Some(match v.trim_ascii() {
        b"dark1" => ThemeColor::Dark1,
        b"light1" => ThemeColor::Light1,
        b"dark2" => ThemeColor::Dark2,
        b"light2" => ThemeColor::Light2,
        b"accent1" => ThemeColor::Accent1,
        b"accent2" => ThemeColor::Accent2,
        b"accent3" => ThemeColor::Accent3,
        b"accent4" => ThemeColor::Accent4,
        b"accent5" => ThemeColor::Accent5,
        b"accent6" => ThemeColor::Accent6,
        b"hyperlink" => ThemeColor::Hyperlink,
        b"followedHyperlink" => ThemeColor::FollowedHyperlink,
        b"background1" => ThemeColor::Background1,
        b"text1" => ThemeColor::Text1,
        b"background2" => ThemeColor::Background2,
        b"text2" => ThemeColor::Text2,
        _ => return None,
    })
}

/// The theme reference of an element, from its colour, tint and shade attributes
/// (`themeColor`/`themeTint`/`themeShade`, or `themeFill`/`themeFillTint`/`themeFillShade`
/// for a shading's fill).
pub(crate) fn theme_ref(e: &(impl AttrSource + ?Sized), names: [&[u8]; 3]) -> Option<ThemeColorRef> {
    let [color, tint, shade] = names;
    let hex = |name: &[u8]| {
        attr_raw(e, name).and_then(|v| {
            let s = std::str::from_utf8(&v).ok()?.trim().to_owned();
            u8::from_str_radix(&s, 16).ok()
        })
    };
    Some(ThemeColorRef {
        color: theme_color(&attr_raw(e, color)?)?,
        tint: hex(tint),
        shade: hex(shade),
    })
}

/// The colour an element's theme attributes give through `palette`, if any.
pub(crate) fn themed(e: &(impl AttrSource + ?Sized), names: [&[u8]; 3], palette: Option<&Palette>) -> Option<Color> {
    palette?.resolve(theme_ref(e, names)?)
}

/// The attribute names of a run colour, border colour or shading pattern colour.
pub(crate) const THEME_COLOR: [&[u8]; 3] = [b"themeColor", b"themeTint", b"themeShade"];

/// The attribute names of a shading fill (§17.3.5).
pub(crate) const THEME_FILL: [&[u8]; 3] = [b"themeFill", b"themeFillTint", b"themeFillShade"];

// Word applies tints and shades to the HSL luminance, not per RGB channel as §17.3.2.6
// says: OI29500 2.1.72 a (accent2 C0504D with shade BF gives 943634). Measured on the
// shared corpus, where Word writes the result in `w:val` beside the reference: the HSL rule
// matches 3,270 of 3,271 tinted or shaded colours within one unit per channel, the
// per-channel rule 1,764.

/// `w:themeTint` t: L' = L·t + (1 − t), with t = tint/255.
fn lighten(rgb: (u8, u8, u8), tint: u8) -> (u8, u8, u8) {
    let t = tint as f64 / 255.0;
    with_luminance(rgb, |l| l * t + (1.0 - t))
}

/// `w:themeShade` s: L' = L·s, with s = shade/255.
fn darken(rgb: (u8, u8, u8), shade: u8) -> (u8, u8, u8) {
    let s = shade as f64 / 255.0;
    with_luminance(rgb, |l| l * s)
}

/// Converts to HSL, changes the luminance, converts back.
pub(crate) fn with_luminance((r, g, b): (u8, u8, u8), f: impl Fn(f64) -> f64) -> (u8, u8, u8) {
    let (r, g, b) = (r as f64 / 255.0, g as f64 / 255.0, b as f64 / 255.0);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let l = (max + min) / 2.0;
    let d = max - min;
    let (h, s) = if d == 0.0 {
        (0.0, 0.0)
    } else {
        let s = if l <= 0.5 {
            d / (max + min)
        } else {
            d / (2.0 - max - min)
        };
        let h = if max == r {
            ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        (h / 6.0, s)
    };
    let l = f(l).clamp(0.0, 1.0);
    // Word truncates: exact on 2,362 of the 3,271 corpus colours (rounding: 766), and
    // within one unit per channel on all.
    let byte = |v: f64| (v * 255.0 + 1e-9).floor().clamp(0.0, 255.0) as u8;
    if s == 0.0 {
        return (byte(l), byte(l), byte(l));
    }
    let q = if l <= 0.5 { l * (1.0 + s) } else { l + s - l * s };
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        byte(if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        })
    };
    (channel(h + 1.0 / 3.0), channel(h), channel(h - 1.0 / 3.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette() -> Palette {
        let mut scheme = ColorScheme {
            dark1: Some(Color::Rgb(0, 0, 0)),
            light1: Some(Color::Rgb(255, 255, 255)),
            dark2: Some(Color::Rgb(0x1F, 0x49, 0x7D)),
            ..Default::default()
        };
        scheme.accents[1] = Some(Color::Rgb(0xC0, 0x50, 0x4D));
        scheme.accents[5] = Some(Color::Rgb(0xF7, 0x96, 0x46));
        Palette {
            scheme,
            mapping: ColorSchemeMapping::default(),
        }
    }

    fn r(color: ThemeColor, tint: Option<u8>, shade: Option<u8>) -> ThemeColorRef {
        ThemeColorRef { color, tint, shade }
    }

    /// Asserts `c` is within one unit per channel of Word's value.
    fn assert_close(c: Option<Color>, (r, g, b): (u8, u8, u8)) {
        let Some(Color::Rgb(cr, cg, cb)) = c else {
            panic!("{c:?}")
        };
        let near = |x: u8, y: u8| x.abs_diff(y) <= 1;
        assert!(
            near(cr, r) && near(cg, g) && near(cb, b),
            "{c:?} vs {r:02X}{g:02X}{b:02X}"
        );
    }

    #[test]
    fn theme_color_with_shade_darkens() {
        // The example of OI29500 2.1.72: Word writes 943634.
        let c = palette().resolve(r(ThemeColor::Accent2, None, Some(0xBF)));
        assert_close(c, (0x94, 0x36, 0x34));
    }

    #[test]
    fn theme_color_with_tint_lightens() {
        // Word's "Accent 6, lighter 80%" (themeTint 33) is FDE9D9.
        let c = palette().resolve(r(ThemeColor::Accent6, Some(0x33), None));
        assert_close(c, (0xFD, 0xE9, 0xD9));
    }

    #[test]
    fn tint_wins_over_shade() {
        let both = palette().resolve(r(ThemeColor::Accent6, Some(0x33), Some(0x80)));
        assert_eq!(both, palette().resolve(r(ThemeColor::Accent6, Some(0x33), None)));
    }

    #[test]
    fn text_and_background_roles_follow_the_mapping() {
        let mut p = palette();
        assert_eq!(p.resolve(r(ThemeColor::Text1, None, None)), Some(Color::Rgb(0, 0, 0)));
        p.mapping.text1 = Some(ThemeColor::Light1);
        p.mapping.background1 = Some(ThemeColor::Dark1);
        assert_eq!(
            p.resolve(r(ThemeColor::Text1, None, None)),
            Some(Color::Rgb(255, 255, 255))
        );
        assert_eq!(
            p.resolve(r(ThemeColor::Background1, None, None)),
            Some(Color::Rgb(0, 0, 0))
        );
    }

    #[test]
    fn missing_slot_resolves_to_nothing() {
        assert_eq!(palette().resolve(r(ThemeColor::Hyperlink, None, None)), None);
    }

    #[test]
    fn grey_keeps_no_hue_when_shaded() {
        let c = palette().resolve(r(ThemeColor::Background1, None, Some(0xD9)));
        assert_eq!(c, Some(Color::Rgb(0xD9, 0xD9, 0xD9)));
    }
}
