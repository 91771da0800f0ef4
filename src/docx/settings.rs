//! `word/settings.xml` (§17.15): the document-wide settings that change layout.

use super::model::Settings;
use super::simple_types::{int, twips};
use super::xml::{attr, attr_raw, on_off, val, XmlReader};
use super::DocxError;

/// Reads a settings part.
pub(crate) fn read_settings(xml: &mut XmlReader<'_>) -> Result<Settings, DocxError> {
    let mut s = Settings::default();
    if !xml.enter_root(&[b"settings"])? {
        return Ok(s);
    }
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"defaultTabStop" => s.default_tab_stop = val(&e).and_then(|v| twips(&v)).filter(|t| t.0 > 0),
            b"evenAndOddHeaders" => s.even_and_odd_headers = on_off(&e),
            b"mirrorMargins" => s.mirror_margins = on_off(&e),
            b"gutterAtTop" => s.gutter_at_top = on_off(&e),
            b"themeFontLang" => {
                let lang = &mut s.theme_font_lang;
                lang.latin = attr(&e, b"val").map(|v| v.into_owned());
                lang.east_asia = attr(&e, b"eastAsia").map(|v| v.into_owned());
                lang.bidi = attr(&e, b"bidi").map(|v| v.into_owned());
            }
            b"compat" => {
                return xml.children(|xml, e| {
                    match e.local_name().as_ref() {
                        // §17.15.3.4: `compatSetting` name/uri/val triples.
                        b"compatSetting" => {
                            if attr_raw(&e, b"name").as_deref() == Some(b"compatibilityMode") {
                                s.compatibility_mode = val(&e).and_then(|v| int(&v)).map(|v| v.clamp(0, 1000) as u32);
                            }
                        }
                        // The legacy switches (§17.15.3) are ST_OnOff elements.
                        name => {
                            if on_off(&e) {
                                s.compat_flags.push(String::from_utf8_lossy(name).into_owned());
                            }
                        }
                    }
                    xml.skip()
                });
            }
            _ => {}
        }
        xml.skip()
    })?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::deadline::Deadline;
    use crate::units::Twips;

    #[test]
    fn settings_are_read() {
        let xml = r#"<w:settings xmlns:w="w"><w:defaultTabStop w:val="708"/><w:evenAndOddHeaders/>
            <w:mirrorMargins w:val="0"/><w:themeFontLang w:val="en-US" w:eastAsia="ja-JP"/>
            <w:compat><w:doNotExpandShiftReturn/><w:useFELayout w:val="0"/>
              <w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/>
            </w:compat></w:settings>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/settings.xml", 64, &deadline);
        let s = read_settings(&mut r).unwrap();
        assert_eq!(s.default_tab_stop, Some(Twips(708)));
        assert!(s.even_and_odd_headers);
        assert!(!s.mirror_margins);
        assert_eq!(s.compatibility_mode, Some(15));
        assert_eq!(s.compat_flags, ["doNotExpandShiftReturn"]);
        assert_eq!(s.theme_font_lang.east_asia.as_deref(), Some("ja-JP"));
    }
}
