//! Tables (`w:tbl`, §17.4.38): grid, rows and cells, with nested tables and row- and
//! cell-level content controls; rows deleted in tracked changes are dropped.

use super::body::read_blocks_with;
use super::context::Story;
use super::model::{Table, TableCell, TableRow};
use super::simple_types::twips_attr;
use super::table_properties::{read_tblpr, read_tcpr, read_trpr};
use super::xml::{Ev, XmlReader};
use super::DocxError;
use crate::units::Twips;

/// Reads a `w:tbl` whose `Start` was just returned.
pub(crate) fn read_table(xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<Table, DocxError> {
    story.enter(xml)?;
    let mut t = Table::default();
    let mut open = 0usize;
    loop {
        match xml.next()? {
            Ev::Start(e) => match e.local_name().as_ref() {
                b"tblPr" => read_table_props(xml, &mut t)?,
                b"tblGrid" => read_grid(xml, &mut t.grid)?,
                b"tr" => {
                    if let Some(row) = read_row(xml, story)? {
                        t.rows.push(row);
                    }
                }
                // Row-level content controls and custom XML are transparent.
                b"sdt" | b"sdtContent" | b"customXml" => open += 1,
                _ => xml.skip()?,
            },
            Ev::End if open == 0 => break,
            Ev::End => open -= 1,
            Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
    story.leave();
    Ok(t)
}

// The property readers below are kept out of the table, row and cell frames, which sit on
// the recursion path of nested tables (debug frames hold every temporary).

#[inline(never)]
fn read_table_props(xml: &mut XmlReader<'_>, t: &mut Table) -> Result<(), DocxError> {
    let pr = read_tblpr(xml)?;
    t.style = pr.style;
    t.width = pr.props.width;
    t.indent = pr.props.indent;
    t.align = pr.props.align;
    t.borders = pr.props.borders;
    t.cell_margins = pr.props.cell_margins;
    t.layout = pr.props.layout;
    t.look = pr.look;
    t.position = pr.position;
    Ok(())
}

/// `w:tblGrid/w:gridCol@w:w` (§17.4.16).
#[inline(never)]
fn read_grid(xml: &mut XmlReader<'_>, grid: &mut Vec<Twips>) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        if e.local_name().as_ref() == b"gridCol" {
            grid.push(twips_attr(&e, b"w").unwrap_or(Twips(0)));
        }
        xml.skip()
    })
}

/// `w:trPr`; returns whether the row is a tracked deletion.
#[inline(never)]
fn read_row_props(xml: &mut XmlReader<'_>, row: &mut TableRow) -> Result<bool, DocxError> {
    let pr = read_trpr(xml)?;
    row.height = pr.height;
    row.header = pr.header;
    row.cant_split = pr.cant_split;
    row.grid_before = pr.grid_before;
    row.grid_after = pr.grid_after;
    Ok(pr.deleted)
}

#[inline(never)]
fn read_cell_props(xml: &mut XmlReader<'_>, cell: &mut TableCell) -> Result<(), DocxError> {
    let pr = read_tcpr(xml)?;
    cell.width = pr.width;
    cell.grid_span = pr.grid_span.unwrap_or(1);
    cell.v_merge = pr.v_merge;
    cell.h_merge = pr.h_merge;
    cell.borders = pr.borders;
    cell.shading = pr.shading;
    cell.margins = pr.margins;
    cell.v_align = pr.v_align;
    Ok(())
}

/// Reads a `w:tr`; `None` when the row is a tracked deletion (`w:trPr/w:del`, §17.13.5.12).
fn read_row(xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<Option<TableRow>, DocxError> {
    let mut row = TableRow::default();
    let mut deleted = false;
    let mut open = 0usize;
    loop {
        match xml.next()? {
            Ev::Start(e) => match e.local_name().as_ref() {
                b"trPr" => deleted = read_row_props(xml, &mut row)?,
                b"tc" => row.cells.push(read_cell(xml, story)?),
                // Cell-level content controls and custom XML are transparent.
                b"sdt" | b"sdtContent" | b"customXml" => open += 1,
                // `w:tblPrEx` (row exceptions), `w:sdtPr`, range marks, unknown.
                _ => xml.skip()?,
            },
            Ev::End if open == 0 => break,
            Ev::End => open -= 1,
            Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
    Ok((!deleted).then_some(row))
}

/// Reads a `w:tc`: its properties, then block content like the body's.
fn read_cell(xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<TableCell, DocxError> {
    let mut cell = TableCell {
        grid_span: 1,
        ..TableCell::default()
    };
    cell.blocks = read_blocks_with(xml, story, |xml, e| {
        if e.local_name().as_ref() != b"tcPr" {
            return Ok(false);
        }
        read_cell_props(xml, &mut cell)?;
        Ok(true)
    })?;
    Ok(cell)
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Block, RowHeight, Table, VMerge, Width};
    use crate::docx::test_support::{blocks, texts};
    use crate::units::Twips;

    fn table(body: &str) -> Table {
        match blocks(body).into_iter().next() {
            Some(Block::Table(t)) => t,
            other => panic!("expected a table, got {other:?}"),
        }
    }

    fn cell(text: &str, pr: &str) -> String {
        format!("<w:tc><w:tcPr>{pr}</w:tcPr><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>")
    }

    #[test]
    fn grid_rows_and_cells_are_read() {
        let t = table(&format!(
            r#"<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>
               <w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="6000"/></w:tblGrid>
               <w:tr><w:trPr><w:trHeight w:val="500"/><w:tblHeader/></w:trPr>{}{}</w:tr>
               <w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>{}</w:tr></w:tbl>"#,
            cell("a", r#"<w:tcW w:w="3000" w:type="dxa"/><w:vMerge w:val="restart"/>"#),
            cell("b", r#"<w:tcW w:w="6000" w:type="dxa"/>"#),
            cell("c", r#"<w:vMerge/>"#),
        ));
        assert_eq!(t.style.as_deref(), Some("TableGrid"));
        assert_eq!(t.width, Some(Width::Auto));
        assert_eq!(t.grid, [Twips(3000), Twips(6000)]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].height, Some(RowHeight::AtLeast(Twips(500))));
        assert!(t.rows[0].header);
        assert_eq!(t.rows[0].cells[0].v_merge, Some(VMerge::Restart));
        assert_eq!(t.rows[0].cells[1].width, Some(Width::Dxa(Twips(6000))));
        assert_eq!(t.rows[0].cells[1].grid_span, 1);
        assert_eq!(t.rows[1].grid_before, 1);
        assert_eq!(t.rows[1].cells[0].v_merge, Some(VMerge::Continue));
        assert_eq!(texts(&t.rows[1].cells[0].blocks), ["c"]);
    }

    #[test]
    fn deleted_row_is_dropped() {
        let t = table(&format!(
            r#"<w:tbl><w:tr>{}</w:tr><w:tr><w:trPr><w:del w:id="1" w:author="A"/></w:trPr>{}</w:tr></w:tbl>"#,
            cell("keep", ""),
            cell("gone", ""),
        ));
        assert_eq!(t.rows.len(), 1);
    }

    #[test]
    fn nested_table_is_read_inside_its_cell() {
        let inner = format!("<w:tbl><w:tr>{}</w:tr></w:tbl>", cell("inner", ""));
        let t = table(&format!("<w:tbl><w:tr><w:tc>{inner}<w:p/></w:tc></w:tr></w:tbl>"));
        let blocks = &t.rows[0].cells[0].blocks;
        assert_eq!(texts(blocks), ["[table]", ""]);
        let Block::Table(nested) = &blocks[0] else { panic!() };
        assert_eq!(texts(&nested.rows[0].cells[0].blocks), ["inner"]);
    }

    #[test]
    fn row_and_cell_content_controls_are_transparent() {
        let t = table(&format!(
            r#"<w:tbl><w:sdt><w:sdtPr/><w:sdtContent><w:tr><w:sdt><w:sdtPr/><w:sdtContent>{}</w:sdtContent></w:sdt>{}</w:tr></w:sdtContent></w:sdt></w:tbl>"#,
            cell("a", ""),
            cell("b", ""),
        ));
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0].cells.len(), 2);
    }

    #[test]
    fn cell_without_grid_span_spans_one_column() {
        let t = table(&format!(
            r#"<w:tbl><w:tr>{}</w:tr></w:tbl>"#,
            cell("a", r#"<w:gridSpan w:val="3"/>"#)
        ));
        assert_eq!(t.rows[0].cells[0].grid_span, 3);
    }
}
