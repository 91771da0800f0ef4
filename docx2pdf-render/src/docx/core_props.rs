//! `docProps/core.xml` (OPC Part 2 §11): the title, author, subject and keywords that
//! become the PDF's document information.

use super::model::CoreProps;
use super::xml::XmlReader;
use super::DocxError;

/// Reads a core-properties part (`cp:coreProperties` with Dublin Core children).
pub(crate) fn read_core_props(xml: &mut XmlReader<'_>) -> Result<CoreProps, DocxError> {
    let mut info = CoreProps::default();
    if !xml.enter_root(&[b"coreProperties"])? {
        return Ok(info);
    }
    xml.children(|xml, e| {
        let slot = match e.local_name().as_ref() {
            b"title" => &mut info.title,
            b"creator" => &mut info.author,
            b"subject" => &mut info.subject,
            b"keywords" => &mut info.keywords,
            b"created" => &mut info.created,
            b"modified" => &mut info.modified,
            _ => return xml.skip(),
        };
        let text = xml.read_text()?;
        let text = text.trim();
        *slot = (!text.is_empty()).then(|| text.to_owned());
        Ok(())
    })?;
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deadline::Deadline;

    #[test]
    fn core_properties_are_read() {
        let xml = r#"<cp:coreProperties xmlns:cp="cp" xmlns:dc="dc"><dc:title>Annual report</dc:title>
            <dc:creator>Ada &amp; Co</dc:creator><dc:subject> </dc:subject><cp:keywords>a, b</cp:keywords>
            <cp:lastModifiedBy>Bob</cp:lastModifiedBy></cp:coreProperties>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "docProps/core.xml", 64, &deadline);
        let info = read_core_props(&mut r).unwrap();
        assert_eq!(info.title.as_deref(), Some("Annual report"));
        assert_eq!(info.author.as_deref(), Some("Ada & Co"));
        assert_eq!(info.subject, None);
        assert_eq!(info.keywords.as_deref(), Some("a, b"));
    }
}
