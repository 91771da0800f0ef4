//! The theme part: its colour scheme (DrawingML §20.1.6.2 `a:clrScheme`) and its font
//! scheme (§20.1.4.1.18 `a:fontScheme`): the major and minor Latin, East Asian and
//! complex-script typefaces, and the per-script fallbacks.

use std::collections::HashMap;

use super::model::{Color, ColorScheme, ThemeFonts};
use super::simple_types::color;
use super::xml::{attr, attr_raw, XmlReader};
use super::DocxError;

/// What the reader takes from a theme part.
#[derive(Debug, Default)]
pub(crate) struct Theme {
    pub fonts: ThemeFonts,
    pub colors: ColorScheme,
}

/// Reads a theme part (`a:theme/a:themeElements`).
pub(crate) fn read_theme(xml: &mut XmlReader<'_>) -> Result<Theme, DocxError> {
    let mut theme = Theme::default();
    if !xml.enter_root(&[b"theme"])? {
        return Ok(theme);
    }
    let (fonts, colors) = (&mut theme.fonts, &mut theme.colors);
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"themeElements" => xml.children(|xml, e| match e.local_name().as_ref() {
            b"clrScheme" => read_color_scheme(xml, colors),
            b"fontScheme" => xml.children(|xml, e| match e.local_name().as_ref() {
                b"majorFont" => {
                    let (latin, ea, cs) = (&mut fonts.major_latin, &mut fonts.major_east_asia, &mut fonts.major_cs);
                    read_font_collection(xml, [latin, ea, cs], &mut fonts.major_by_script)
                }
                b"minorFont" => {
                    let (latin, ea, cs) = (&mut fonts.minor_latin, &mut fonts.minor_east_asia, &mut fonts.minor_cs);
                    read_font_collection(xml, [latin, ea, cs], &mut fonts.minor_by_script)
                }
                _ => xml.skip(),
            }),
            _ => xml.skip(),
        }),
        _ => xml.skip(),
    })?;
    Ok(theme)
}

/// `a:clrScheme` (§20.1.6.2): twelve slots, each holding one colour element.
fn read_color_scheme(xml: &mut XmlReader<'_>, out: &mut ColorScheme) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let slot = match e.local_name().as_ref() {
            b"dk1" => &mut out.dark1,
            b"lt1" => &mut out.light1,
            b"dk2" => &mut out.dark2,
            b"lt2" => &mut out.light2,
            b"accent1" => &mut out.accents[0],
            b"accent2" => &mut out.accents[1],
            b"accent3" => &mut out.accents[2],
            b"accent4" => &mut out.accents[3],
            b"accent5" => &mut out.accents[4],
            b"accent6" => &mut out.accents[5],
            b"hlink" => &mut out.hyperlink,
            b"folHlink" => &mut out.followed_hyperlink,
            _ => return xml.skip(),
        };
        xml.children(|xml, e| {
            if slot.is_none() {
                *slot = scheme_color(&e);
            }
            xml.skip()
        })
    })
}

/// A slot's colour: `a:srgbClr@val` (§20.1.2.3.32), or `a:sysClr` (§20.1.2.3.33) by the
/// `lastClr` the producer saw, else the usual value of the two system colours Office uses.
fn scheme_color(e: &quick_xml::events::BytesStart<'_>) -> Option<Color> {
    let rgb = |name: &[u8]| attr_raw(e, name).and_then(|v| color(&v)).filter(|c| *c != Color::Auto);
    match e.local_name().as_ref() {
        b"srgbClr" => rgb(b"val"),
        b"sysClr" => rgb(b"lastClr").or_else(|| match attr_raw(e, b"val").as_deref() {
            Some(b"windowText") => Some(Color::Rgb(0, 0, 0)),
            Some(b"window") => Some(Color::Rgb(255, 255, 255)),
            _ => None,
        }),
        _ => None,
    }
}

/// `a:majorFont`/`a:minorFont` (§20.1.4.1.24/25): `a:latin`, `a:ea`, `a:cs` typefaces
/// (empty means "none") and the `a:font@script` list.
fn read_font_collection(
    xml: &mut XmlReader<'_>,
    [latin, ea, cs]: [&mut Option<String>; 3],
    by_script: &mut HashMap<String, String>,
) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let typeface = || {
            attr(&e, b"typeface")
                .filter(|t| !t.trim().is_empty())
                .map(|t| t.into_owned())
        };
        match e.local_name().as_ref() {
            b"latin" => *latin = typeface(),
            b"ea" => *ea = typeface(),
            b"cs" => *cs = typeface(),
            b"font" => {
                if let (Some(script), Some(face)) = (attr(&e, b"script"), typeface()) {
                    by_script.insert(script.into_owned(), face);
                }
            }
            _ => {}
        }
        xml.skip()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deadline::Deadline;

    #[test]
    fn color_scheme_is_read_with_system_colors() {
        let xml = r#"<a:theme xmlns:a="a"><a:themeElements><a:clrScheme name="Office">
            <a:dk1><a:sysClr val="windowText" lastClr="111111"/></a:dk1><a:lt1><a:sysClr val="window"/></a:lt1>
            <a:dk2><a:srgbClr val="44546A"/></a:dk2><a:accent6><a:srgbClr val="70AD47"><a:lumMod val="75000"/></a:srgbClr></a:accent6>
            <a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme></a:themeElements></a:theme>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/theme/theme1.xml", 64, &deadline);
        let c = read_theme(&mut r).unwrap().colors;
        assert_eq!(c.dark1, Some(Color::Rgb(0x11, 0x11, 0x11)));
        assert_eq!(c.light1, Some(Color::Rgb(255, 255, 255)));
        assert_eq!(c.dark2, Some(Color::Rgb(0x44, 0x54, 0x6A)));
        assert_eq!(c.accents[5], Some(Color::Rgb(0x70, 0xAD, 0x47)));
        assert_eq!(c.followed_hyperlink, Some(Color::Rgb(0x95, 0x4F, 0x72)));
        assert_eq!((c.light2, c.hyperlink), (None, None));
    }

    #[test]
    fn font_scheme_is_read() {
        let xml = r#"<a:theme xmlns:a="a"><a:themeElements><a:clrScheme name="x"/>
            <a:fontScheme name="Office">
              <a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/>
                <a:font script="Jpan" typeface="游ゴシック Light"/></a:majorFont>
              <a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface="Arial"/></a:minorFont>
            </a:fontScheme></a:themeElements></a:theme>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/theme/theme1.xml", 64, &deadline);
        let f = read_theme(&mut r).unwrap().fonts;
        assert_eq!(f.major_latin.as_deref(), Some("Calibri Light"));
        assert_eq!(f.major_east_asia, None);
        assert_eq!(f.minor_latin.as_deref(), Some("Calibri"));
        assert_eq!(f.minor_cs.as_deref(), Some("Arial"));
        assert_eq!(
            f.major_by_script.get("Jpan").map(String::as_str),
            Some("游ゴシック Light")
        );
    }
}
