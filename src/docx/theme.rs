//! The theme part's font scheme (DrawingML §20.1.4.1.18 `a:fontScheme`): the major and
//! minor Latin, East Asian and complex-script typefaces, and the per-script fallbacks.

use std::collections::HashMap;

use super::model::ThemeFonts;
use super::xml::{attr, XmlReader};
use super::DocxError;

/// Reads a theme part (`a:theme/a:themeElements/a:fontScheme`).
pub(crate) fn read_theme(xml: &mut XmlReader<'_>) -> Result<ThemeFonts, DocxError> {
    let mut fonts = ThemeFonts::default();
    if !xml.enter_root(&[b"theme"])? {
        return Ok(fonts);
    }
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"themeElements" => xml.children(|xml, e| match e.local_name().as_ref() {
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
    Ok(fonts)
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
    use crate::render::deadline::Deadline;

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
        let f = read_theme(&mut r).unwrap();
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
