//! `[Content_Types].xml` (OPC Part 2 §10.1.2): the media type of each part, used to
//! check that the main part is a WordprocessingML document.

use super::xml::{attr, XmlReader};
use super::DocxError;

/// Media types Word accepts for the main document part: document, template and their
/// macro-enabled variants (Part 1 §11.3.10).
pub(crate) const MAIN_PART_TYPES: &[&str] = &[
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
];

/// The `Default` and `Override` entries of the package.
#[derive(Debug, Default)]
pub(crate) struct ContentTypes {
    /// (extension, media type).
    defaults: Vec<(String, String)>,
    /// (part name without the leading `/`, media type).
    overrides: Vec<(String, String)>,
}

impl ContentTypes {
    /// Reads `[Content_Types].xml`.
    pub(crate) fn read(xml: &mut XmlReader<'_>) -> Result<ContentTypes, DocxError> {
        let mut types = ContentTypes::default();
        if !xml.enter_root(&[b"Types"])? {
            return Ok(types);
        }
        xml.children(|xml, e| {
            let content_type = attr(&e, b"ContentType").map(|c| c.trim().to_owned());
            match e.local_name().as_ref() {
                b"Default" => {
                    if let (Some(ext), Some(ct)) = (attr(&e, b"Extension"), content_type) {
                        types.defaults.push((ext.into_owned(), ct));
                    }
                }
                b"Override" => {
                    if let (Some(name), Some(ct)) = (attr(&e, b"PartName"), content_type) {
                        types.overrides.push((name.trim_start_matches('/').to_owned(), ct));
                    }
                }
                _ => {}
            }
            xml.skip()
        })?;
        Ok(types)
    }

    /// The media type of a part: its override, else the default for its extension. Names
    /// and extensions compare case-insensitively (Part 2 §10.1.2.2).
    pub(crate) fn of(&self, part: &str) -> Option<&str> {
        let part = part.trim_start_matches('/');
        if let Some((_, ct)) = self.overrides.iter().find(|(n, _)| n.eq_ignore_ascii_case(part)) {
            return Some(ct);
        }
        let ext = part.rsplit_once('.').map(|(_, e)| e)?;
        self.defaults
            .iter()
            .find(|(e, _)| e.eq_ignore_ascii_case(ext))
            .map(|(_, ct)| ct.as_str())
    }
}

/// Whether a media type is one of a WordprocessingML main part.
pub(crate) fn is_main_part_type(content_type: &str) -> bool {
    MAIN_PART_TYPES.iter().any(|t| t.eq_ignore_ascii_case(content_type))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deadline::Deadline;

    fn read(xml: &str) -> ContentTypes {
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "[Content_Types].xml", 64, &deadline);
        ContentTypes::read(&mut r).unwrap()
    }

    #[test]
    fn override_wins_over_default() {
        let ct = read(
            r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
                <Default Extension="xml" ContentType="application/xml"/>
                <Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/>
            </Types>"#,
        );
        assert!(is_main_part_type(ct.of("word/document.xml").unwrap()));
        assert_eq!(ct.of("word/styles.xml"), Some("application/xml"));
    }

    #[test]
    fn template_main_part_is_accepted() {
        assert!(is_main_part_type(
            "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"
        ));
        assert!(!is_main_part_type(
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
        ));
    }
}
