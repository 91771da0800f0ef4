//! Section properties (`w:sectPr`, §17.6.17): page size and margins, columns, section
//! start, title page, page numbering and the header/footer references.

use super::model::{HeaderFooterRefs, SectionProps, SectionStart};
use super::simple_types::{int, twips_attr};
use super::xml::{attr, attr_raw, on_off, val, XmlReader};
use super::DocxError;

/// Reads a `w:sectPr` whose `Start` was just returned. `w:sectPrChange` (old properties,
/// §17.13.5.32) is skipped.
pub(crate) fn read_section(xml: &mut XmlReader<'_>) -> Result<SectionProps, DocxError> {
    let mut s = SectionProps::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            // `w`/`h` already hold the oriented size; `w:orient` is informative (§17.6.13).
            b"pgSz" => {
                s.page_width = twips_attr(&e, b"w");
                s.page_height = twips_attr(&e, b"h");
            }
            b"pgMar" => {
                s.margin_top = twips_attr(&e, b"top");
                s.margin_bottom = twips_attr(&e, b"bottom");
                s.margin_left = twips_attr(&e, b"left").or_else(|| twips_attr(&e, b"start"));
                s.margin_right = twips_attr(&e, b"right").or_else(|| twips_attr(&e, b"end"));
                s.margin_header = twips_attr(&e, b"header");
                s.margin_footer = twips_attr(&e, b"footer");
                s.gutter = twips_attr(&e, b"gutter");
            }
            b"type" => {
                s.start = match val(&e).as_deref().map(<[u8]>::trim_ascii) {
                    Some(b"continuous") => Some(SectionStart::Continuous),
                    Some(b"evenPage") => Some(SectionStart::EvenPage),
                    Some(b"oddPage") => Some(SectionStart::OddPage),
                    Some(b"nextColumn") => Some(SectionStart::NextColumn),
                    Some(b"nextPage") => Some(SectionStart::NextPage),
                    _ => None,
                }
            }
            b"cols" => {
                s.columns = attr_raw(&e, b"num")
                    .and_then(|v| int(&v))
                    .map(|n| n.clamp(1, 45) as u32);
                s.column_space = twips_attr(&e, b"space");
            }
            b"titlePg" => s.title_page = on_off(&e),
            b"pgNumType" => s.page_number_start = attr_raw(&e, b"start").and_then(|v| int(&v)),
            b"headerReference" => set_reference(&mut s.headers, &e),
            b"footerReference" => set_reference(&mut s.footers, &e),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(s)
}

/// A `w:headerReference`/`w:footerReference` (§17.10.5): `w:type` (default when absent)
/// and `r:id`.
fn set_reference(refs: &mut HeaderFooterRefs, e: &quick_xml::events::BytesStart<'_>) {
    let Some(id) = attr(e, b"id") else { return };
    let slot = match attr_raw(e, b"type").as_deref().map(<[u8]>::trim_ascii) {
        Some(b"first") => &mut refs.first,
        Some(b"even") => &mut refs.even,
        _ => &mut refs.default,
    };
    *slot = Some(id.into_owned());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::deadline::Deadline;
    use crate::units::Twips;

    fn section(inner: &str) -> SectionProps {
        let xml = format!("<w:sectPr>{inner}</w:sectPr>");
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "t.xml", 64, &deadline);
        r.enter_root(&[b"sectPr"]).unwrap();
        read_section(&mut r).unwrap()
    }

    #[test]
    fn page_setup_is_read() {
        let s = section(
            r#"<w:headerReference w:type="default" r:id="rId8"/><w:headerReference w:type="first" r:id="rId9"/>
               <w:footerReference w:type="even" r:id="rId10"/>
               <w:type w:val="continuous"/><w:pgSz w:w="11906" w:h="16838"/>
               <w:pgMar w:top="1440" w:right="1800" w:bottom="-1440" w:left="1800" w:header="708" w:footer="708" w:gutter="0"/>
               <w:pgNumType w:start="5"/><w:cols w:num="2" w:space="720"/><w:titlePg/>"#,
        );
        assert_eq!((s.page_width, s.page_height), (Some(Twips(11906)), Some(Twips(16838))));
        assert_eq!((s.margin_top, s.margin_bottom), (Some(Twips(1440)), Some(Twips(-1440))));
        assert_eq!((s.margin_left, s.margin_right), (Some(Twips(1800)), Some(Twips(1800))));
        assert_eq!(
            (s.margin_header, s.margin_footer, s.gutter),
            (Some(Twips(708)), Some(Twips(708)), Some(Twips(0)))
        );
        assert_eq!(s.start, Some(SectionStart::Continuous));
        assert_eq!((s.columns, s.column_space), (Some(2), Some(Twips(720))));
        assert!(s.title_page);
        assert_eq!(s.page_number_start, Some(5));
        assert_eq!(s.headers.default.as_deref(), Some("rId8"));
        assert_eq!(s.headers.first.as_deref(), Some("rId9"));
        assert_eq!(s.footers.even.as_deref(), Some("rId10"));
    }

    #[test]
    fn section_property_change_is_ignored() {
        let s = section(
            r#"<w:pgSz w:w="12240" w:h="15840"/><w:sectPrChange><w:sectPr><w:pgSz w:w="1" w:h="1"/></w:sectPr></w:sectPrChange>"#,
        );
        assert_eq!(s.page_width, Some(Twips(12240)));
    }
}
