//! Computed tables: grid, margins (TableNormal's 108-twip sides), borders, cell content.

use super::cascade::{merge_cell, merge_margins, merge_table_borders};
use super::document::Resolver;
use super::{BorderSet, BorderStyle, CellBorders, ResolvedCell, ResolvedRow, ResolvedTable};
use crate::docx::model::{Align, Border, CellMargins, CellProps, CellVAlign, Table, TableBorders};
use crate::units::{Pt, Twips};

/// TableNormal's left/right cell margin (notes §8).
const CELL_MARGIN_SIDE: Twips = Twips(108);
/// Word's table grid has at most 63 columns; larger spans come from damaged files.
const MAX_COLUMNS: u32 = 63;

/// Resolves a table and, recursively, its cells' content.
pub(super) fn resolve_table<'a>(r: &mut Resolver<'a>, t: &'a Table) -> ResolvedTable<'a> {
    let tstyle = r.table_style(t.style.as_deref());
    // The table style's tblPr/tcPr sit under the table's own properties (§17.7.6); its
    // conditional parts (first row, banding…) are a later issue.
    let level = r.table_level(tstyle).unwrap_or_default();
    let mut borders = level.table.borders;
    merge_table_borders(&mut borders, &t.borders);
    let mut margins = level.table.cell_margins;
    merge_margins(&mut margins, &t.cell_margins);
    let width = t.width.or(level.table.width);
    let indent = t.indent.or(level.table.indent);
    let align = t.align.or(level.table.align);
    let vis = |b: &Option<Border>| b.as_ref().and_then(BorderStyle::from_model);
    let rows = t
        .rows
        .iter()
        .map(|row| ResolvedRow {
            height: row.height,
            header: row.header,
            cant_split: row.cant_split,
            grid_before: row.grid_before.min(MAX_COLUMNS),
            grid_after: row.grid_after.min(MAX_COLUMNS),
            cells: row
                .cells
                .iter()
                .map(|c| {
                    let mut cp: CellProps = level.cell.clone();
                    merge_cell(
                        &mut cp,
                        &CellProps { borders: c.borders, shading: c.shading, margins: c.margins, v_align: c.v_align },
                    );
                    let m = |own: Option<Twips>, table: Option<Twips>, d: Twips| own.or(table).unwrap_or(d).pt().max(Pt::ZERO);
                    let tm: &CellMargins = &margins;
                    let cb: &TableBorders = &cp.borders;
                    let side = |b: &Option<Border>| b.as_ref().map(BorderStyle::from_model);
                    ResolvedCell {
                        grid_span: c.grid_span.clamp(1, MAX_COLUMNS),
                        v_merge: c.v_merge,
                        borders: CellBorders {
                            top: side(&cb.top),
                            left: side(&cb.left),
                            bottom: side(&cb.bottom),
                            right: side(&cb.right),
                        },
                        shading: cp.shading,
                        margin_top: m(cp.margins.top, tm.top, Twips(0)),
                        margin_left: m(cp.margins.left, tm.left, CELL_MARGIN_SIDE),
                        margin_bottom: m(cp.margins.bottom, tm.bottom, Twips(0)),
                        margin_right: m(cp.margins.right, tm.right, CELL_MARGIN_SIDE),
                        v_align: cp.v_align.unwrap_or(CellVAlign::Top),
                        blocks: r.blocks(&c.blocks, tstyle),
                    }
                })
                .collect(),
        })
        .collect();
    ResolvedTable {
        grid: t.grid.iter().map(|g| g.pt().max(Pt::ZERO)).collect(),
        width,
        indent: indent.map(|i| i.pt()).unwrap_or(Pt::ZERO),
        align: align.unwrap_or(Align::Left),
        borders: BorderSet {
            top: vis(&borders.top),
            bottom: vis(&borders.bottom),
            left: vis(&borders.left),
            right: vis(&borders.right),
        },
        inside_h: vis(&borders.inside_h),
        inside_v: vis(&borders.inside_v),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{
        Block, Border, Color, Document, Style, StyleKind, Table, TableBorders, TableCell, TableRow, TableStyleProps,
    };
    use crate::resolve::{resolve, ResolvedBlock};
    use crate::units::EighthPoints;

    #[test]
    fn table_style_borders_apply_under_the_table_own() {
        let single = Border { visible: true, width: EighthPoints(4), space: 0, color: Color::Auto, ..Default::default() };
        let mut style = Style { kind: StyleKind::Table, table: TableStyleProps::default(), ..Default::default() };
        style.table.table.borders = TableBorders { inside_h: Some(single), top: Some(single), ..Default::default() };
        let table = Table {
            style: Some("TableGrid".into()),
            borders: TableBorders { top: Some(Border { visible: false, ..single }), ..Default::default() },
            rows: vec![TableRow { cells: vec![TableCell { grid_span: 1, ..Default::default() }], ..Default::default() }],
            ..Default::default()
        };
        let mut doc = Document { body: vec![Block::Table(table)], ..Default::default() };
        doc.styles.styles.insert("TableGrid".into(), style);
        let r = resolve(&doc);
        let ResolvedBlock::Table(t) = &r.body[0] else { panic!("not a table") };
        assert!(t.inside_h.is_some());
        assert!(t.borders.top.is_none());
        assert_eq!(t.rows[0].cells[0].margin_left.0, 5.4);
    }
}
