//! Section properties (`w:sectPr`, §17.6.17): page size and margins, columns, section
//! start, title page, page numbering, the document grid, line numbering, notes, page
//! borders and the header/footer references.

use quick_xml::events::BytesStart;

use super::model::{
    ColumnDef, DocGrid, DocGridType, HeaderFooterRefs, LineNumberRestart, LineNumbering, LineStyle, NoteProps,
    PageBorderDisplay, PageBorders, PageVAlign, SectionProps, SectionStart,
};
use super::simple_types::{border, int, is_art_border, number_format, twips_attr};
use crate::units::EighthPoints;
use super::xml::{attr, attr_raw, on_off, on_off_attr, val, XmlReader};
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
                s.equal_width = on_off_attr(&e, b"equalWidth");
                s.column_separator = on_off_attr(&e, b"sep").unwrap_or(false);
                return read_columns(xml, &mut s.column_defs);
            }
            b"titlePg" => s.title_page = on_off(&e),
            b"pgNumType" => {
                s.page_number_start = attr_raw(&e, b"start").and_then(|v| int(&v));
                s.page_number_format = attr_raw(&e, b"fmt").map(|v| number_format(&v));
            }
            b"docGrid" => s.doc_grid = Some(doc_grid(&e)),
            b"vAlign" => {
                s.v_align = match val(&e).as_deref().map(<[u8]>::trim_ascii) {
                    Some(b"top") => Some(PageVAlign::Top),
                    Some(b"center") => Some(PageVAlign::Center),
                    Some(b"both") => Some(PageVAlign::Both),
                    Some(b"bottom") => Some(PageVAlign::Bottom),
                    _ => None,
                }
            }
            b"bidi" => s.bidi = on_off(&e),
            b"rtlGutter" => s.rtl_gutter = on_off(&e),
            b"lnNumType" => s.line_numbering = Some(line_numbering(&e)),
            b"footnotePr" => {
                s.footnote_props = Some(read_note_props(xml)?);
                return Ok(());
            }
            b"endnotePr" => {
                s.endnote_props = Some(read_note_props(xml)?);
                return Ok(());
            }
            b"pgBorders" => {
                s.page_borders = Some(read_page_borders(xml, &e)?);
                return Ok(());
            }
            b"headerReference" => set_reference(&mut s.headers, &e),
            b"footerReference" => set_reference(&mut s.footers, &e),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(s)
}

/// The `w:col` children of `w:cols` (§17.6.3), which matter when `equalWidth` is off.
fn read_columns(xml: &mut XmlReader<'_>, out: &mut Vec<ColumnDef>) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        // Word allows at most 45 columns (§17.6.4).
        if e.local_name().as_ref() == b"col" && out.len() < 45 {
            out.push(ColumnDef {
                width: twips_attr(&e, b"w"),
                space: twips_attr(&e, b"space"),
            });
        }
        xml.skip()
    })
}

/// `w:pgBorders` (§17.6.10) whose `Start` `e` was just returned: its attributes and the
/// four sides. An art border's `w:sz` is in points, not eighths (§17.3.4); it is kept as a
/// single line of that width.
fn read_page_borders(xml: &mut XmlReader<'_>, e: &BytesStart<'_>) -> Result<PageBorders, DocxError> {
    let mut b = PageBorders {
        display: match attr_raw(e, b"display").as_deref().map(<[u8]>::trim_ascii) {
            Some(b"firstPage") => PageBorderDisplay::FirstPage,
            Some(b"notFirstPage") => PageBorderDisplay::NotFirstPage,
            _ => PageBorderDisplay::AllPages,
        },
        from_page_edge: attr_raw(e, b"offsetFrom").is_some_and(|v| v.trim_ascii() == b"page"),
        behind_text: attr_raw(e, b"zOrder").is_some_and(|v| v.trim_ascii() == b"back"),
        ..PageBorders::default()
    };
    xml.children(|xml, e| {
        let side = match e.local_name().as_ref() {
            b"top" => Some(&mut b.top),
            b"left" | b"start" => Some(&mut b.left),
            b"bottom" => Some(&mut b.bottom),
            b"right" | b"end" => Some(&mut b.right),
            _ => None,
        };
        if let Some(side) = side {
            let mut line = border(&e, xml.palette());
            if attr_raw(&e, b"val").is_some_and(|v| is_art_border(&v)) {
                line.style = LineStyle::Single;
                line.width = EighthPoints(line.width.0.clamp(1, 31) * 8);
            }
            *side = Some(line);
        }
        xml.skip()
    })?;
    Ok(b)
}

/// `w:docGrid` (§17.6.5).
fn doc_grid(e: &BytesStart<'_>) -> DocGrid {
    DocGrid {
        kind: match attr_raw(e, b"type").as_deref().map(<[u8]>::trim_ascii) {
            Some(b"default") => Some(DocGridType::Default),
            Some(b"lines") => Some(DocGridType::Lines),
            Some(b"linesAndChars") => Some(DocGridType::LinesAndChars),
            Some(b"snapToChars") => Some(DocGridType::SnapToChars),
            _ => None,
        },
        line_pitch: twips_attr(e, b"linePitch"),
        char_space: attr_raw(e, b"charSpace").and_then(|v| int(&v)),
    }
}

/// `w:lnNumType` (§17.6.8).
fn line_numbering(e: &BytesStart<'_>) -> LineNumbering {
    LineNumbering {
        count_by: attr_raw(e, b"countBy").and_then(|v| int(&v)),
        start: attr_raw(e, b"start").and_then(|v| int(&v)),
        distance: twips_attr(e, b"distance"),
        restart: match attr_raw(e, b"restart").as_deref().map(<[u8]>::trim_ascii) {
            Some(b"newPage") => Some(LineNumberRestart::NewPage),
            Some(b"newSection") => Some(LineNumberRestart::NewSection),
            Some(b"continuous") => Some(LineNumberRestart::Continuous),
            _ => None,
        },
    }
}

/// `w:footnotePr`/`w:endnotePr` (§17.11.11, §17.11.4) whose `Start` was just returned; the
/// `w:footnote`/`w:endnote` children of the settings form (special notes' ids) are skipped.
pub(crate) fn read_note_props(xml: &mut XmlReader<'_>) -> Result<NoteProps, DocxError> {
    let mut n = NoteProps::default();
    xml.children(|xml, e| {
        let text = || attr(&e, b"val").map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        match e.local_name().as_ref() {
            b"pos" => n.position = text(),
            b"numFmt" => n.format = val(&e).map(|v| number_format(&v)),
            b"numStart" => n.start = val(&e).and_then(|v| int(&v)),
            b"numRestart" => n.restart = text(),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(n)
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
    use crate::docx::model::NumberFormat;
    use crate::deadline::Deadline;
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
        assert_eq!(s.page_borders, None);
    }

    #[test]
    fn unequal_columns_keep_their_widths() {
        let s = section(
            r#"<w:cols w:num="2" w:equalWidth="0" w:sep="1"><w:col w:w="5000" w:space="400"/><w:col w:w="3000"/></w:cols>"#,
        );
        assert_eq!(s.columns, Some(2));
        assert_eq!((s.equal_width, s.column_separator), (Some(false), true));
        assert_eq!(
            s.column_defs,
            [
                ColumnDef {
                    width: Some(Twips(5000)),
                    space: Some(Twips(400))
                },
                ColumnDef {
                    width: Some(Twips(3000)),
                    space: None
                }
            ]
        );
    }

    #[test]
    fn page_number_format_is_read() {
        let roman = section(r#"<w:pgNumType w:fmt="lowerRoman" w:start="1"/>"#);
        assert_eq!(roman.page_number_format, Some(NumberFormat::LowerRoman));
        assert_eq!(roman.page_number_start, Some(1));
        let other = section(r#"<w:pgNumType w:fmt="numberInDash"/>"#);
        assert_eq!(
            other.page_number_format,
            Some(NumberFormat::Other("numberInDash".into()))
        );
    }

    #[test]
    fn document_grid_is_read() {
        let s = section(r#"<w:docGrid w:type="linesAndChars" w:linePitch="312" w:charSpace="-3849"/>"#);
        assert_eq!(
            s.doc_grid,
            Some(DocGrid {
                kind: Some(DocGridType::LinesAndChars),
                line_pitch: Some(Twips(312)),
                char_space: Some(-3849)
            })
        );
        let bare = section(r#"<w:docGrid w:linePitch="360"/>"#);
        assert_eq!(bare.doc_grid.unwrap().kind, None);
    }

    #[test]
    fn vertical_alignment_direction_and_gutter_side_are_read() {
        let s = section(r#"<w:vAlign w:val="center"/><w:bidi/><w:rtlGutter/>"#);
        assert_eq!(s.v_align, Some(PageVAlign::Center));
        assert!(s.bidi && s.rtl_gutter);
        assert!(!section("").bidi);
    }

    #[test]
    fn line_numbering_is_read() {
        let s = section(r#"<w:lnNumType w:countBy="5" w:start="1" w:distance="360" w:restart="newPage"/>"#);
        assert_eq!(
            s.line_numbering,
            Some(LineNumbering {
                count_by: Some(5),
                start: Some(1),
                distance: Some(Twips(360)),
                restart: Some(LineNumberRestart::NewPage)
            })
        );
    }

    #[test]
    fn section_note_properties_are_read() {
        let s = section(
            r#"<w:footnotePr><w:pos w:val="beneathText"/><w:numFmt w:val="lowerRoman"/><w:numStart w:val="3"/></w:footnotePr>"#,
        );
        let n = s.footnote_props.unwrap();
        assert_eq!(n.position.as_deref(), Some("beneathText"));
        assert_eq!((n.format, n.start), (Some(NumberFormat::LowerRoman), Some(3)));
    }

    #[test]
    fn section_property_change_is_ignored() {
        let s = section(
            r#"<w:pgSz w:w="12240" w:h="15840"/><w:sectPrChange><w:sectPr><w:pgSz w:w="1" w:h="1"/></w:sectPr></w:sectPrChange>"#,
        );
        assert_eq!(s.page_width, Some(Twips(12240)));
    }

    #[test]
    fn page_borders_are_read_with_art_widths_in_points() {
        let s = section(
            r#"<w:pgBorders w:offsetFrom="page" w:display="notFirstPage" w:zOrder="back">
               <w:top w:val="double" w:sz="6" w:space="24" w:color="FF0000"/><w:left w:val="apples" w:sz="20" w:space="4"/></w:pgBorders>"#,
        );
        let b = s.page_borders.unwrap();
        assert!(b.from_page_edge && b.behind_text);
        assert_eq!(b.display, PageBorderDisplay::NotFirstPage);
        let top = b.top.unwrap();
        assert_eq!((top.style, top.width, top.space), (LineStyle::Double, EighthPoints(6), 24));
        let left = b.left.unwrap();
        assert_eq!((left.style, left.width), (LineStyle::Single, EighthPoints(160)));
        assert_eq!((b.bottom, b.right), (None, None));
    }
}
