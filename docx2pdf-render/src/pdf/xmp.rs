//! The XMP metadata stream (ISO 32000-1 §14.3.2, XMP Part 1): the same title, author,
//! subject, keywords, dates and producer as the Info dictionary, plus the PDF/UA and
//! PDF/A identification parts when those are claimed.

use std::fmt::Write;

use super::metadata::{present, W3cDate, PRODUCER};
use crate::frame::DocInfo;

/// The conformance claims written into the packet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Claims {
    /// `pdfuaid:part` 1 (ISO 14289-1 §5).
    pub pdfua: bool,
    /// `pdfaid:part` and `pdfaid:conformance` (ISO 19005-2 §6.6.4), e.g. (2, 'B').
    pub pdfa: Option<(u8, char)>,
}

/// The packet as UTF-8 bytes, deterministic for the same input.
pub(super) fn packet(info: &DocInfo, claims: Claims) -> Vec<u8> {
    let mut x = String::with_capacity(1024);
    x.push_str("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n");
    x.push_str("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n");
    x.push_str(
        "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
         xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\"",
    );
    if claims.pdfua {
        x.push_str(" xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"");
    }
    if claims.pdfa.is_some() {
        x.push_str(" xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\"");
    }
    x.push_str(">\n<dc:format>application/pdf</dc:format>\n");
    if let Some(title) = present(&info.title) {
        let _ = writeln!(x, "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt></dc:title>", Escaped(title));
    }
    if let Some(author) = present(&info.author) {
        let _ = writeln!(x, "<dc:creator><rdf:Seq><rdf:li>{}</rdf:li></rdf:Seq></dc:creator>", Escaped(author));
    }
    if let Some(subject) = present(&info.subject) {
        let _ = writeln!(
            x,
            "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt></dc:description>",
            Escaped(subject)
        );
    }
    if let Some(keywords) = present(&info.keywords) {
        let _ = writeln!(x, "<pdf:Keywords>{}</pdf:Keywords>", Escaped(keywords));
    }
    if let Some(creator) = present(&info.creator) {
        let _ = writeln!(x, "<xmp:CreatorTool>{}</xmp:CreatorTool>", Escaped(creator));
    }
    let _ = writeln!(x, "<pdf:Producer>{PRODUCER}</pdf:Producer>");
    if let Some(date) = info.created.as_deref().and_then(W3cDate::parse) {
        let _ = writeln!(x, "<xmp:CreateDate>{}</xmp:CreateDate>", date.xmp());
    }
    if let Some(date) = info.modified.as_deref().and_then(W3cDate::parse) {
        let _ = writeln!(x, "<xmp:ModifyDate>{}</xmp:ModifyDate>", date.xmp());
    }
    if claims.pdfua {
        x.push_str("<pdfuaid:part>1</pdfuaid:part>\n");
    }
    if let Some((part, conformance)) = claims.pdfa {
        let _ = writeln!(x, "<pdfaid:part>{part}</pdfaid:part>\n<pdfaid:conformance>{conformance}</pdfaid:conformance>");
    }
    x.push_str("</rdf:Description>\n</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>");
    x.into_bytes()
}

/// Text with XML's special characters escaped.
struct Escaped<'a>(&'a str);

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for ch in self.0.chars() {
            match ch {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                // Characters XML 1.0 does not allow are left out.
                c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packet_carries_the_info_escaped_with_its_claims() {
        let info = DocInfo {
            title: Some("R&D <plan>".into()),
            author: Some("Ada".into()),
            created: Some("2024-03-01T09:30:00Z".into()),
            ..DocInfo::default()
        };
        let xmp = String::from_utf8(packet(&info, Claims { pdfua: true, pdfa: Some((2, 'B')) })).unwrap();
        assert!(xmp.contains("<rdf:li xml:lang=\"x-default\">R&amp;D &lt;plan&gt;</rdf:li>"), "{xmp}");
        assert!(xmp.contains("<rdf:Seq><rdf:li>Ada</rdf:li></rdf:Seq>"));
        assert!(xmp.contains("<xmp:CreateDate>2024-03-01T09:30:00Z</xmp:CreateDate>"));
        assert!(xmp.contains("<pdfuaid:part>1</pdfuaid:part>"));
        assert!(xmp.contains("<pdfaid:part>2</pdfaid:part>\n<pdfaid:conformance>B</pdfaid:conformance>"));
        assert!(!xmp.contains("ModifyDate"));
    }
}
