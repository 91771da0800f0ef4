//! The font table (`word/fontTable.xml`, §17.8.3): each font's alternative name, family,
//! pitch, character set, PANOSE bytes and the references to its embedded faces.

use quick_xml::events::BytesStart;

use super::model::{EmbeddedFontStyle, FontDecl, FontFamily, FontPitch};
use super::obfuscated_font::font_key;
use super::xml::{attr, on_off_attr, val, XmlReader};
use super::DocxError;

/// Most fonts read from one font table; real documents list a few dozen.
const MAX_FONTS: usize = 1_000;

/// A `w:font` as read: the declaration, and its embedded faces still to be fetched.
#[derive(Debug, Default)]
pub(crate) struct FontEntry {
    pub decl: FontDecl,
    pub embeds: Vec<EmbedRef>,
}

/// A `w:embedRegular`/`w:embedBold`/`w:embedItalic`/`w:embedBoldItalic` (§17.8.3.3–6).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EmbedRef {
    pub style: EmbeddedFontStyle,
    /// `r:id`: the font part, through the font table's relationships.
    pub rel_id: String,
    /// `w:fontKey` as a de-obfuscation key; `None` when absent or not a GUID.
    pub key: Option<[u8; 16]>,
    /// `w:subsetted`.
    pub subsetted: bool,
}

/// Reads a font table part (`w:fonts`).
pub(crate) fn read_font_table(xml: &mut XmlReader<'_>) -> Result<Vec<FontEntry>, DocxError> {
    let mut fonts = Vec::new();
    if !xml.enter_root(&[b"fonts"])? {
        return Ok(fonts);
    }
    xml.children(|xml, e| {
        let name = attr(&e, b"name").map(|n| n.trim().to_owned()).filter(|n| !n.is_empty());
        match name {
            Some(name) if e.local_name().as_ref() == b"font" && fonts.len() < MAX_FONTS => {
                let mut entry = FontEntry::default();
                entry.decl.name = name;
                read_font(xml, &mut entry)?;
                fonts.push(entry);
                Ok(())
            }
            _ => xml.skip(),
        }
    })?;
    Ok(fonts)
}

/// The children of one `w:font` (§17.8.3.10).
fn read_font(xml: &mut XmlReader<'_>, out: &mut FontEntry) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let d = &mut out.decl;
        match e.local_name().as_ref() {
            b"altName" => d.alt_name = attr(&e, b"val").map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()),
            b"family" => d.family = val(&e).and_then(|v| family(&v)),
            b"pitch" => {
                d.pitch = match val(&e).as_deref().map(<[u8]>::trim_ascii) {
                    Some(b"fixed") => Some(FontPitch::Fixed),
                    Some(b"variable") => Some(FontPitch::Variable),
                    Some(b"default") => Some(FontPitch::Default),
                    _ => None,
                }
            }
            // ST_UcharHexNumber (§17.18.87).
            b"charset" => d.charset = val(&e).and_then(|v| hex_bytes::<1>(&v)).map(|[b]| b),
            b"panose1" => d.panose1 = val(&e).and_then(|v| hex_bytes::<10>(&v)),
            b"embedRegular" => embed(&e, EmbeddedFontStyle::Regular, &mut out.embeds),
            b"embedBold" => embed(&e, EmbeddedFontStyle::Bold, &mut out.embeds),
            b"embedItalic" => embed(&e, EmbeddedFontStyle::Italic, &mut out.embeds),
            b"embedBoldItalic" => embed(&e, EmbeddedFontStyle::BoldItalic, &mut out.embeds),
            _ => {}
        }
        xml.skip()
    })
}

fn embed(e: &BytesStart<'_>, style: EmbeddedFontStyle, out: &mut Vec<EmbedRef>) {
    let Some(rel_id) = attr(e, b"id").filter(|id| !id.is_empty()) else {
        return;
    };
    out.push(EmbedRef {
        style,
        rel_id: rel_id.into_owned(),
        key: attr(e, b"fontKey").and_then(|k| font_key(&k)),
        subsetted: on_off_attr(e, b"subsetted").unwrap_or(false),
    });
}

/// ST_FontFamily (§17.18.30).
fn family(v: &[u8]) -> Option<FontFamily> {
    Some(match v.trim_ascii() {
        b"roman" => FontFamily::Roman,
        b"swiss" => FontFamily::Swiss,
        b"modern" => FontFamily::Modern,
        b"script" => FontFamily::Script,
        b"decorative" => FontFamily::Decorative,
        b"auto" => FontFamily::Auto,
        _ => return None,
    })
}

/// Exactly `N` bytes written as `2N` hex digits (ST_Panose, ST_UcharHexNumber).
fn hex_bytes<const N: usize>(raw: &[u8]) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    hex::decode_to_slice(raw.trim_ascii(), &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deadline::Deadline;

    fn table(inner: &str) -> Vec<FontEntry> {
        let xml = format!(r#"<w:fonts xmlns:w="w" xmlns:r="r">{inner}</w:fonts>"#);
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/fontTable.xml", 64, &deadline);
        read_font_table(&mut r).unwrap()
    }

    #[test]
    fn font_declaration_is_read() {
        let f = table(
            r#"<w:font w:name="MS Mincho"><w:altName w:val="ＭＳ 明朝"/><w:panose1 w:val="02020609040205080304"/>
               <w:charset w:val="80"/><w:family w:val="roman"/><w:pitch w:val="fixed"/><w:sig w:usb0="E00002FF"/></w:font>"#,
        );
        let d = &f[0].decl;
        assert_eq!(d.name, "MS Mincho");
        assert_eq!(d.alt_name.as_deref(), Some("ＭＳ 明朝"));
        assert_eq!(d.panose1, Some([2, 2, 6, 9, 4, 2, 5, 8, 3, 4]));
        assert_eq!(d.charset, Some(0x80));
        assert_eq!((d.family, d.pitch), (Some(FontFamily::Roman), Some(FontPitch::Fixed)));
        assert!(f[0].embeds.is_empty());
    }

    #[test]
    fn embedded_faces_keep_their_style_and_key() {
        let f = table(
            r#"<w:font w:name="Lato"><w:embedRegular r:id="rId1" w:fontKey="{00112233-4455-6677-8899-AABBCCDDEEFF}" w:subsetted="1"/>
               <w:embedBoldItalic r:id="rId2"/></w:font>"#,
        );
        let e = &f[0].embeds;
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].style, e[0].rel_id.as_str(), e[0].subsetted),
            (EmbeddedFontStyle::Regular, "rId1", true)
        );
        assert_eq!(e[0].key.unwrap()[0], 0xFF);
        assert_eq!((e[1].style, e[1].key), (EmbeddedFontStyle::BoldItalic, None));
    }

    #[test]
    fn bad_panose_is_dropped_and_nameless_font_skipped() {
        let f =
            table(r#"<w:font><w:family w:val="swiss"/></w:font><w:font w:name="A"><w:panose1 w:val="0202"/></w:font>"#);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].decl.panose1, None);
    }
}
