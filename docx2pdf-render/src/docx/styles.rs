//! `word/styles.xml` (§17.7): document defaults and every style with its type, id, name,
//! base, default flag and properties; table styles also keep `tblPr`, `tcPr` and their
//! conditional `w:tblStylePr` parts.

use super::model::{CellProps, Style, StyleKind, StyleSheet, TableCondition, TableRegion};
use super::properties::{read_ppr, read_rpr};
use super::table_properties::{read_tblpr, read_tcpr, TcPr};
use super::xml::{attr, attr_raw, on_off_attr, val_string, XmlReader};
use super::DocxError;

/// Reads a styles part.
pub(crate) fn read_styles(xml: &mut XmlReader<'_>) -> Result<StyleSheet, DocxError> {
    let mut sheet = StyleSheet::default();
    if !xml.enter_root(&[b"styles"])? {
        return Ok(sheet);
    }
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"docDefaults" => read_doc_defaults(xml, &mut sheet),
        b"style" => {
            let kind = match attr_raw(&e, b"type").as_deref() {
                Some(b"character") => StyleKind::Character,
                Some(b"table") => StyleKind::Table,
                Some(b"numbering") => StyleKind::Numbering,
                _ => StyleKind::Paragraph,
            };
            let id = attr(&e, b"styleId").map(|s| s.into_owned());
            let style = Style {
                kind,
                is_default: on_off_attr(&e, b"default").unwrap_or(false),
                ..read_style(xml)?
            };
            // The first definition of an id wins; a later duplicate is ignored.
            if let Some(id) = id {
                sheet.styles.entry(id).or_insert(style);
            }
            Ok(())
        }
        // `w:latentStyles` only lists names for the UI.
        _ => xml.skip(),
    })?;
    Ok(sheet)
}

/// `w:docDefaults` (§17.7.5): `w:rPrDefault/w:rPr` and `w:pPrDefault/w:pPr`.
fn read_doc_defaults(xml: &mut XmlReader<'_>, sheet: &mut StyleSheet) -> Result<(), DocxError> {
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"rPrDefault" => xml.children(|xml, e| match e.local_name().as_ref() {
            b"rPr" => {
                sheet.default_run = read_rpr(xml)?.props;
                Ok(())
            }
            _ => xml.skip(),
        }),
        b"pPrDefault" => xml.children(|xml, e| match e.local_name().as_ref() {
            b"pPr" => {
                sheet.default_paragraph = read_ppr(xml)?.props;
                Ok(())
            }
            _ => xml.skip(),
        }),
        _ => xml.skip(),
    })
}

/// The children of one `w:style` (§17.7.4.17).
fn read_style(xml: &mut XmlReader<'_>) -> Result<Style, DocxError> {
    let mut style = Style::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"name" => style.name = val_string(&e),
            b"basedOn" => style.based_on = val_string(&e),
            b"pPr" => {
                style.paragraph = read_ppr(xml)?.props;
                return Ok(());
            }
            b"rPr" => {
                style.run = read_rpr(xml)?.props;
                return Ok(());
            }
            b"tblPr" => {
                style.table.table = read_tblpr(xml)?.props;
                return Ok(());
            }
            b"tcPr" => {
                style.table.cell = cell_props(read_tcpr(xml)?);
                return Ok(());
            }
            b"tblStylePr" => {
                if let Some(condition) = read_condition(xml, &e)? {
                    style.table.conditions.push(condition);
                }
                return Ok(());
            }
            _ => {}
        }
        xml.skip()
    })?;
    Ok(style)
}

fn cell_props(pr: TcPr) -> CellProps {
    CellProps {
        borders: pr.borders,
        shading: pr.shading,
        margins: pr.margins,
        v_align: pr.v_align,
    }
}

/// A `w:tblStylePr` (§17.7.6.6); `None` for an unknown `w:type` (its content is skipped).
fn read_condition(
    xml: &mut XmlReader<'_>,
    e: &quick_xml::events::BytesStart<'_>,
) -> Result<Option<TableCondition>, DocxError> {
    let region = match attr_raw(e, b"type").as_deref() {
        Some(b"wholeTable") => TableRegion::WholeTable,
        Some(b"firstRow") => TableRegion::FirstRow,
        Some(b"lastRow") => TableRegion::LastRow,
        Some(b"firstCol") => TableRegion::FirstColumn,
        Some(b"lastCol") => TableRegion::LastColumn,
        Some(b"band1Vert") => TableRegion::Band1Vertical,
        Some(b"band2Vert") => TableRegion::Band2Vertical,
        Some(b"band1Horz") => TableRegion::Band1Horizontal,
        Some(b"band2Horz") => TableRegion::Band2Horizontal,
        Some(b"neCell") => TableRegion::NeCell,
        Some(b"nwCell") => TableRegion::NwCell,
        Some(b"seCell") => TableRegion::SeCell,
        Some(b"swCell") => TableRegion::SwCell,
        _ => {
            xml.skip()?;
            return Ok(None);
        }
    };
    let mut c = TableCondition {
        region,
        paragraph: Default::default(),
        run: Default::default(),
        table: Default::default(),
        cell: Default::default(),
    };
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"pPr" => {
            c.paragraph = read_ppr(xml)?.props;
            Ok(())
        }
        b"rPr" => {
            c.run = read_rpr(xml)?.props;
            Ok(())
        }
        b"tblPr" => {
            c.table = read_tblpr(xml)?.props;
            Ok(())
        }
        b"tcPr" => {
            c.cell = cell_props(read_tcpr(xml)?);
            Ok(())
        }
        _ => xml.skip(),
    })?;
    Ok(Some(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{Align, Color, Width};
    use crate::deadline::Deadline;
    use crate::units::{HalfPoints, Twips};

    fn read(xml: &str) -> StyleSheet {
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/styles.xml", 64, &deadline);
        read_styles(&mut r).unwrap()
    }

    #[test]
    fn doc_defaults_are_read() {
        let s = read(
            r#"<w:styles xmlns:w="w"><w:docDefaults>
                <w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault>
                <w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault>
            </w:docDefaults></w:styles>"#,
        );
        assert_eq!(s.default_run.size, Some(HalfPoints(22)));
        assert_eq!(s.default_paragraph.spacing.after, Some(Twips(160)));
    }

    #[test]
    fn styles_keep_type_name_base_and_default() {
        let s = read(
            r#"<w:styles>
                <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>
                <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>
                    <w:pPr><w:keepNext/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>
                <w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>
            </w:styles>"#,
        );
        let normal = &s.styles["Normal"];
        assert!(normal.is_default);
        assert_eq!(normal.kind, StyleKind::Paragraph);
        let h1 = &s.styles["Heading1"];
        assert_eq!(h1.name.as_deref(), Some("heading 1"));
        assert_eq!(h1.based_on.as_deref(), Some("Normal"));
        assert_eq!(h1.paragraph.keep_next, Some(true));
        assert_eq!(h1.run.size, Some(HalfPoints(32)));
        assert!(!h1.is_default);
        assert_eq!(s.styles["Strong"].kind, StyleKind::Character);
    }

    #[test]
    fn table_style_keeps_table_cell_and_conditional_parts() {
        let s = read(
            r#"<w:styles><w:style w:type="table" w:styleId="GridTable"><w:name w:val="Grid Table"/>
                <w:tblPr><w:tblStyleRowBandSize w:val="1"/><w:tblInd w:w="0" w:type="dxa"/>
                  <w:tblCellMar><w:left w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr>
                <w:tcPr><w:shd w:val="clear" w:fill="F2F2F2"/></w:tcPr>
                <w:tblStylePr w:type="firstRow"><w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:b/></w:rPr>
                  <w:tcPr><w:shd w:val="clear" w:fill="4472C4"/></w:tcPr></w:tblStylePr>
                <w:tblStylePr w:type="unknownThing"><w:rPr><w:i/></w:rPr></w:tblStylePr>
            </w:style></w:styles>"#,
        );
        let t = &s.styles["GridTable"];
        assert_eq!(t.kind, StyleKind::Table);
        assert_eq!(t.table.table.row_band_size, Some(1));
        assert_eq!(t.table.table.indent, Some(Twips(0)));
        assert_eq!(t.table.table.cell_margins.left, Some(Twips(108)));
        assert_eq!(t.table.table.width, None::<Width>);
        assert_eq!(t.table.cell.shading, Some(Color::Rgb(0xF2, 0xF2, 0xF2)));
        assert_eq!(t.table.conditions.len(), 1);
        let first = &t.table.conditions[0];
        assert_eq!(first.region, TableRegion::FirstRow);
        assert_eq!(first.paragraph.align, Some(Align::Center));
        assert_eq!(first.run.bold, Some(true));
        assert_eq!(first.cell.shading, Some(Color::Rgb(0x44, 0x72, 0xC4)));
    }
}
