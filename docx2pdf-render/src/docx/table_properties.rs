//! Table, row and cell properties (`w:tblPr` §17.4.60, `w:trPr` §17.4.82, `w:tcPr`
//! §17.4.70), shared by tables in the body and table styles. `*PrChange` is skipped.

use quick_xml::events::BytesStart;

use super::model::{
    AnchorPosition, Border, CellMargins, CellVAlign, Color, Distances, RowHeight, TableBorders, TableLayout, TableLook,
    TablePosition, TableProps, VMerge, Width,
};
use super::properties::align;
use super::simple_types::{border, int, shading, twips_attr, width};
use super::xml::{attr, attr_raw, on_off, on_off_attr, val, val_string, Attrs, XmlReader};
use super::DocxError;
use crate::units::{Emu, Twips};

/// A `w:tblPr` as read.
#[derive(Debug, Default)]
pub(crate) struct TblPr {
    /// `w:tblStyle`.
    pub style: Option<String>,
    /// Everything else a table style could also hold.
    pub props: TableProps,
    /// `w:tblLook`.
    pub look: TableLook,
    /// `w:tblpPr`.
    pub position: Option<Box<TablePosition>>,
}

/// A `w:trPr` as read.
#[derive(Debug, Default)]
pub(crate) struct TrPr {
    /// `w:trHeight` with its rule.
    pub height: Option<RowHeight>,
    /// `w:tblHeader` (§17.4.49).
    pub header: bool,
    /// `w:cantSplit` (§17.4.6).
    pub cant_split: bool,
    /// `w:gridBefore`.
    pub grid_before: u32,
    /// `w:gridAfter`.
    pub grid_after: u32,
    /// `w:del`: the row is a tracked deletion (§17.13.5.12).
    pub deleted: bool,
}

/// A `w:tcPr` as read.
#[derive(Debug, Default)]
pub(crate) struct TcPr {
    /// `w:tcW`.
    pub width: Option<Width>,
    /// `w:gridSpan`.
    pub grid_span: Option<u32>,
    /// `w:vMerge`.
    pub v_merge: Option<VMerge>,
    /// `w:hMerge`.
    pub h_merge: Option<VMerge>,
    /// `w:tcBorders`.
    pub borders: TableBorders,
    /// `w:shd`.
    pub shading: Option<Color>,
    /// `w:tcMar`.
    pub margins: CellMargins,
    /// `w:vAlign`.
    pub v_align: Option<CellVAlign>,
}

/// Reads a `w:tblPr` whose `Start` was just returned.
pub(crate) fn read_tblpr(xml: &mut XmlReader<'_>) -> Result<TblPr, DocxError> {
    let mut out = TblPr::default();
    xml.children(|xml, e| {
        let p = &mut out.props;
        match e.local_name().as_ref() {
            b"tblStyle" => out.style = val_string(&e),
            b"tblW" => p.width = width(&e),
            b"tblInd" => p.indent = dxa(&e),
            b"jc" => p.align = val(&e).and_then(|v| align(&v)),
            b"tblLayout" => {
                p.layout = match attr_raw(&e, b"type").as_deref() {
                    Some(b"fixed") => Some(TableLayout::Fixed),
                    Some(b"autofit") => Some(TableLayout::Autofit),
                    _ => None,
                }
            }
            b"tblStyleRowBandSize" => p.row_band_size = val(&e).and_then(|v| int(&v)).map(|v| v.max(1) as u32),
            b"tblStyleColBandSize" => p.col_band_size = val(&e).and_then(|v| int(&v)).map(|v| v.max(1) as u32),
            b"tblLook" => out.look = look(&e),
            b"tblpPr" => out.position = Some(Box::new(position(&e))),
            b"tblBorders" => return read_borders(xml, &mut p.borders),
            b"tblCellMar" => return read_margins(xml, &mut p.cell_margins),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(out)
}

/// `w:tblpPr` (§17.4.58): anchors `text` (the default, ST_VAnchor/ST_HAnchor), `margin` and
/// `page`; offsets in twips; a `…Spec` alignment wins over the offset.
fn position(e: &BytesStart<'_>) -> TablePosition {
    let twips = |name: &[u8]| attr_raw(e, name).and_then(|v| super::simple_types::twips(&v));
    let emu = |t: Option<Twips>| t.map(|t| Emu(t.0 * 635));
    let axis = |anchor: &[u8], offset: &[u8], spec: &[u8], text: &str| AnchorPosition {
        relative_from: Some(match attr_raw(e, anchor).as_deref() {
            Some(b"page") => "page".to_owned(),
            Some(b"margin") => "margin".to_owned(),
            _ => text.to_owned(),
        }),
        offset: emu(twips(offset)).or(Some(Emu(0))),
        // `inline` (ST_YAlign) is the flow position: no alignment.
        align: attr(e, spec).map(|s| s.into_owned()).filter(|s| s != "inline"),
        percent: None,
    };
    let distance = |name: &[u8]| emu(twips(name)).unwrap_or(Emu(0));
    TablePosition {
        horizontal: axis(b"horzAnchor", b"tblpX", b"tblpXSpec", "column"),
        vertical: axis(b"vertAnchor", b"tblpY", b"tblpYSpec", "paragraph"),
        distance: Distances {
            top: distance(b"topFromText"),
            bottom: distance(b"bottomFromText"),
            left: distance(b"leftFromText"),
            right: distance(b"rightFromText"),
        },
    }
}

/// Reads a `w:trPr` whose `Start` was just returned.
pub(crate) fn read_trpr(xml: &mut XmlReader<'_>) -> Result<TrPr, DocxError> {
    let mut out = TrPr::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"trHeight" => {
                // `hRule` defaults to atLeast; `auto` (or a zero height) sizes to content.
                let h = val(&e)
                    .and_then(|v| super::simple_types::twips(&v))
                    .filter(|h| h.0 != 0);
                out.height = match attr_raw(&e, b"hRule").as_deref() {
                    Some(b"auto") => None,
                    Some(b"exact") => h.map(RowHeight::Exact),
                    _ => h.map(RowHeight::AtLeast),
                };
            }
            b"tblHeader" => out.header = on_off(&e),
            b"cantSplit" => out.cant_split = on_off(&e),
            b"gridBefore" => out.grid_before = count(&e),
            b"gridAfter" => out.grid_after = count(&e),
            b"del" => out.deleted = true,
            _ => {}
        }
        xml.skip()
    })?;
    Ok(out)
}

/// Reads a `w:tcPr` whose `Start` was just returned.
pub(crate) fn read_tcpr(xml: &mut XmlReader<'_>) -> Result<TcPr, DocxError> {
    let mut out = TcPr::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"tcW" => out.width = width(&e),
            b"gridSpan" => out.grid_span = Some(count(&e).max(1)),
            b"vMerge" => out.v_merge = Some(merge(&e)),
            b"hMerge" => out.h_merge = Some(merge(&e)),
            b"shd" => out.shading = shading(&e, xml.palette()),
            b"vAlign" => {
                out.v_align = match val(&e).as_deref() {
                    Some(b"top") => Some(CellVAlign::Top),
                    Some(b"center") | Some(b"both") => Some(CellVAlign::Center),
                    Some(b"bottom") => Some(CellVAlign::Bottom),
                    _ => None,
                }
            }
            b"tcBorders" => return read_borders(xml, &mut out.borders),
            b"tcMar" => return read_margins(xml, &mut out.margins),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(out)
}

/// A count attribute `w:val` (gridSpan, gridBefore…), at most the 63 grid columns Word
/// allows a table and never negative.
fn count(e: &BytesStart<'_>) -> u32 {
    val(e).and_then(|v| int(&v)).map(|v| v.clamp(0, 63) as u32).unwrap_or(0)
}

/// `w:vMerge`/`w:hMerge` (§17.4.85): `restart`, or `continue` (also when `w:val` is absent).
fn merge(e: &BytesStart<'_>) -> VMerge {
    match val(e).as_deref() {
        Some(b"restart") => VMerge::Restart,
        _ => VMerge::Continue,
    }
}

/// A `dxa` measure with a `w:w`/`w:type` pair (tblInd, tblCellMar sides); `nil` is 0 and
/// `pct` cannot be expressed in twips.
fn dxa(e: &BytesStart<'_>) -> Option<Twips> {
    let e = &Attrs::of(e);
    match attr_raw(e, b"type").as_deref() {
        Some(b"nil") => Some(Twips(0)),
        Some(b"dxa") | None => twips_attr(e, b"w"),
        _ => None,
    }
}

/// `w:tblLook` (§17.4.56): attributes, or the legacy hex `w:val` bit mask.
fn look(e: &BytesStart<'_>) -> TableLook {
    let bits = val(e).and_then(|v| {
        std::str::from_utf8(&v)
            .ok()
            .and_then(|s| u32::from_str_radix(s.trim(), 16).ok())
    });
    let bit = |mask: u32| bits.map(|b| b & mask != 0);
    TableLook {
        first_row: on_off_attr(e, b"firstRow").or(bit(0x0020)),
        last_row: on_off_attr(e, b"lastRow").or(bit(0x0040)),
        first_column: on_off_attr(e, b"firstColumn").or(bit(0x0080)),
        last_column: on_off_attr(e, b"lastColumn").or(bit(0x0100)),
        no_h_band: on_off_attr(e, b"noHBand").or(bit(0x0200)),
        no_v_band: on_off_attr(e, b"noVBand").or(bit(0x0400)),
    }
}

/// `w:tblBorders`/`w:tcBorders`; `start`/`end` are the strict names of `left`/`right`.
fn read_borders(xml: &mut XmlReader<'_>, out: &mut TableBorders) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let side: Option<&mut Option<Border>> = match e.local_name().as_ref() {
            b"top" => Some(&mut out.top),
            b"left" | b"start" => Some(&mut out.left),
            b"bottom" => Some(&mut out.bottom),
            b"right" | b"end" => Some(&mut out.right),
            b"insideH" => Some(&mut out.inside_h),
            b"insideV" => Some(&mut out.inside_v),
            _ => None,
        };
        if let Some(side) = side {
            *side = Some(border(&e, xml.palette()));
        }
        xml.skip()
    })
}

/// `w:tblCellMar`/`w:tcMar` (§17.4.42).
fn read_margins(xml: &mut XmlReader<'_>, out: &mut CellMargins) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let side = match e.local_name().as_ref() {
            b"top" => Some(&mut out.top),
            b"left" | b"start" => Some(&mut out.left),
            b"bottom" => Some(&mut out.bottom),
            b"right" | b"end" => Some(&mut out.right),
            _ => None,
        };
        if let Some(side) = side {
            *side = dxa(&e);
        }
        xml.skip()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::Align;
    use crate::deadline::Deadline;

    fn with<T>(root: &str, inner: &str, f: impl FnOnce(&mut XmlReader<'_>) -> T) -> T {
        let xml = format!("<w:{root}>{inner}</w:{root}>");
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "t.xml", 64, &deadline);
        r.enter_root(&[root.as_bytes()]).unwrap();
        f(&mut r)
    }

    #[test]
    fn table_properties_are_read() {
        let t = with(
            "tblPr",
            r#"<w:tblStyle w:val="TableGrid"/><w:tblW w:w="5000" w:type="pct"/><w:jc w:val="center"/>
               <w:tblInd w:w="108" w:type="dxa"/><w:tblLayout w:type="fixed"/>
               <w:tblBorders><w:top w:val="single" w:sz="4"/><w:insideV w:val="nil"/></w:tblBorders>
               <w:tblCellMar><w:left w:w="108" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar>
               <w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/>"#,
            |r| read_tblpr(r).unwrap(),
        );
        assert_eq!(t.style.as_deref(), Some("TableGrid"));
        assert_eq!(t.props.width, Some(Width::Pct(5000)));
        assert_eq!(t.props.align, Some(Align::Center));
        assert_eq!(t.props.indent, Some(Twips(108)));
        assert_eq!(t.props.layout, Some(TableLayout::Fixed));
        assert!(t.props.borders.top.unwrap().visible);
        assert!(!t.props.borders.inside_v.unwrap().visible);
        assert_eq!(
            (t.props.cell_margins.left, t.props.cell_margins.right),
            (Some(Twips(108)), Some(Twips(108)))
        );
        assert_eq!((t.look.first_row, t.look.no_v_band), (Some(true), Some(true)));
    }

    #[test]
    fn legacy_hex_table_look_is_decoded() {
        let t = with("tblPr", r#"<w:tblLook w:val="04A0"/>"#, |r| read_tblpr(r).unwrap());
        assert_eq!(t.look.first_row, Some(true));
        assert_eq!(t.look.last_row, Some(false));
        assert_eq!(t.look.first_column, Some(true));
        assert_eq!(t.look.no_v_band, Some(true));
    }

    #[test]
    fn row_properties_are_read() {
        let r = with(
            "trPr",
            r#"<w:gridBefore w:val="1"/><w:trHeight w:val="400" w:hRule="exact"/><w:tblHeader/><w:cantSplit/>"#,
            |r| read_trpr(r).unwrap(),
        );
        assert_eq!(r.height, Some(RowHeight::Exact(Twips(400))));
        assert!(r.header && r.cant_split && !r.deleted);
        assert_eq!(r.grid_before, 1);
    }

    #[test]
    fn cell_properties_are_read() {
        let c = with(
            "tcPr",
            r#"<w:tcW w:w="2880" w:type="dxa"/><w:gridSpan w:val="2"/><w:vMerge w:val="restart"/>
               <w:tcBorders><w:bottom w:val="double" w:sz="4"/></w:tcBorders>
               <w:shd w:val="clear" w:color="auto" w:fill="C0C0C0"/><w:tcMar><w:top w:w="57" w:type="dxa"/></w:tcMar>
               <w:vAlign w:val="center"/>"#,
            |r| read_tcpr(r).unwrap(),
        );
        assert_eq!(c.width, Some(Width::Dxa(Twips(2880))));
        assert_eq!(c.grid_span, Some(2));
        assert_eq!(c.v_merge, Some(VMerge::Restart));
        assert!(c.borders.bottom.unwrap().visible);
        assert_eq!(c.shading, Some(Color::Rgb(0xC0, 0xC0, 0xC0)));
        assert_eq!(c.margins.top, Some(Twips(57)));
        assert_eq!(c.v_align, Some(CellVAlign::Center));
    }

    #[test]
    fn vmerge_without_value_continues() {
        let c = with("tcPr", r#"<w:vMerge/>"#, |r| read_tcpr(r).unwrap());
        assert_eq!(c.v_merge, Some(VMerge::Continue));
    }
}
