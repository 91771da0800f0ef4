//! Computed tables: grid, margins (TableNormal's 108-twip sides), borders, cell content, and
//! the table style's conditional parts selected by `w:tblLook` (§17.7.6).

use super::cascade::{
    merge_cell, merge_margins, merge_table, merge_table_borders, region_bit, CellStyle, Level, REGION_ORDER,
};
use super::document::Resolver;
use super::structure::Scope;
use super::{BorderSet, BorderStyle, CellBorders, ResolvedCell, ResolvedRow, ResolvedTable};
use crate::docx::model::{
    Align, Border, CellMargins, CellProps, CellVAlign, Table, TableBorders, TableLayout, TableLook, TableRegion,
    TableRow,
};
use crate::units::{Pt, Twips};

/// TableNormal's left/right cell margin (notes §8).
const CELL_MARGIN_SIDE: Twips = Twips(108);
/// Word's table grid has at most 63 columns; larger spans come from damaged files.
const MAX_COLUMNS: u32 = 63;

/// Resolves a table and, recursively, its cells' content.
pub(super) fn resolve_table<'a>(r: &mut Resolver<'a>, t: &'a Table) -> ResolvedTable<'a> {
    let tstyle = r.table_style(t.style.as_deref());
    // The table style's tblPr/tcPr sit under the table's own properties (§17.7.6); its
    // whole-table part is part of the style for every cell.
    let mut level = r.table_level(tstyle).unwrap_or_default();
    if let Some(whole) = level.conditions.iter().find(|c| c.region == TableRegion::WholeTable).cloned() {
        merge_table(&mut level.table, &whole.table);
    }
    let mut borders = level.table.borders;
    merge_table_borders(&mut borders, &t.borders);
    let mut margins = level.table.cell_margins;
    merge_margins(&mut margins, &t.cell_margins);
    let width = t.width.or(level.table.width);
    let indent = t.indent.or(level.table.indent);
    let align = t.align.or(level.table.align);
    let bands = Bands {
        look: t.look,
        row_size: level.table.row_band_size.unwrap_or(1).max(1) as usize,
        col_size: level.table.col_band_size.unwrap_or(1).max(1) as usize,
        rows: t.rows.len(),
        styled_first_column: level.conditions.iter().any(|c| c.region == TableRegion::FirstColumn),
    };
    let vis = |b: &Option<Border>| b.as_ref().and_then(BorderStyle::from_model);
    r.tagger.table();
    let rows =
        t.rows.iter().enumerate().map(|(ri, row)| resolve_row(r, &level, tstyle, &margins, &bands, ri, row)).collect();
    r.tagger.end_table();
    ResolvedTable {
        grid: t.grid.iter().map(|g| g.pt().max(Pt::ZERO)).collect(),
        width,
        fixed: t.layout.or(level.table.layout) == Some(TableLayout::Fixed),
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
        position: t.position.as_deref(),
    }
}

fn resolve_row<'a>(
    r: &mut Resolver<'a>,
    level: &Level,
    tstyle: Option<&'a str>,
    margins: &CellMargins,
    bands: &Bands,
    ri: usize,
    row: &'a TableRow,
) -> ResolvedRow<'a> {
    // Header cells: the rows repeated as headers, and the first row when the table shows
    // its style's header-row look (Word tags that row's cells TH, measured on
    // `16261909_Backup_Tools_`, whose tables have no `w:tblHeader`).
    let column_header = row.header || (ri == 0 && bands.first_row());
    let tr = r.tagger.row(row.header);
    let n = row.cells.len();
    let cells = row
        .cells
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            let regions = bands.regions(ri, ci, n);
            let mut cp: CellProps = level.cell.clone();
            // Conditional tcPr in Word's order; a region's outer sides reach the cells on
            // its edge, its insideH/insideV the cells within (§17.7.6).
            for region in REGION_ORDER {
                if regions & region_bit(region) == 0 {
                    continue;
                }
                let Some(cond) = level.conditions.iter().find(|c| c.region == region) else {
                    continue;
                };
                let mut part = cond.cell.clone();
                part.borders = region_edges(region, &cond.cell.borders, bands, ri, ci, n);
                merge_cell(&mut cp, &part);
            }
            merge_cell(
                &mut cp,
                &CellProps { borders: c.borders, shading: c.shading, margins: c.margins, v_align: c.v_align },
            );
            let m = |own: Option<Twips>, table: Option<Twips>, d: Twips| own.or(table).unwrap_or(d).pt().max(Pt::ZERO);
            let cb: &TableBorders = &cp.borders;
            let side = |b: &Option<Border>| b.as_ref().map(BorderStyle::from_model);
            let cell_style = tstyle.map(|style| CellStyle { style, regions });
            ResolvedCell {
                grid_span: c.grid_span.clamp(1, MAX_COLUMNS),
                width: c.width,
                v_merge: c.v_merge,
                borders: CellBorders {
                    top: side(&cb.top),
                    left: side(&cb.left),
                    bottom: side(&cb.bottom),
                    right: side(&cb.right),
                },
                shading: cp.shading,
                margin_top: m(cp.margins.top, margins.top, Twips(0)),
                margin_left: m(cp.margins.left, margins.left, CELL_MARGIN_SIDE),
                margin_bottom: m(cp.margins.bottom, margins.bottom, Twips(0)),
                margin_right: m(cp.margins.right, margins.right, CELL_MARGIN_SIDE),
                v_align: cp.v_align.unwrap_or(CellVAlign::Top),
                blocks: {
                    let scope = if column_header {
                        Some(Scope::Column)
                    } else if bands.styled_first_column && regions & region_bit(TableRegion::FirstColumn) != 0 {
                        Some(Scope::Row)
                    } else {
                        None
                    };
                    let cell = r.tagger.cell(tr, scope);
                    r.blocks_in(cell, &c.blocks, cell_style)
                },
            }
        })
        .collect();
    ResolvedRow {
        height: row.height,
        header: row.header,
        cant_split: row.cant_split,
        grid_before: row.grid_before.min(MAX_COLUMNS),
        grid_after: row.grid_after.min(MAX_COLUMNS),
        cells,
    }
}

/// Which conditional regions a cell belongs to, from `w:tblLook` and the band sizes.
struct Bands {
    look: TableLook,
    row_size: usize,
    col_size: usize,
    rows: usize,
    /// The style formats the first column (a `firstCol` part): with the first-column
    /// look, that column holds row headers (Word's TH pattern in 16261909_Backup_Tools_;
    /// a style without one, such as Table Grid, gives none).
    styled_first_column: bool,
}

impl Bands {
    fn first_row(&self) -> bool {
        self.look.first_row.unwrap_or(false)
    }

    fn last_row(&self) -> bool {
        self.look.last_row.unwrap_or(false)
    }

    fn first_col(&self) -> bool {
        self.look.first_column.unwrap_or(false)
    }

    fn last_col(&self) -> bool {
        self.look.last_column.unwrap_or(false)
    }

    /// The region mask of cell `ci` (of `n`) in row `ri`. Banding counts from the first row
    /// (column) after the header row (first column) when those are on, as Word shows them.
    fn regions(&self, ri: usize, ci: usize, n: usize) -> u16 {
        let mut mask = region_bit(TableRegion::WholeTable);
        let first_row = self.first_row() && ri == 0;
        let last_row = self.last_row() && ri + 1 == self.rows;
        let first_col = self.first_col() && ci == 0;
        let last_col = self.last_col() && ci + 1 == n;
        if !self.look.no_h_band.unwrap_or(false) && !first_row && !last_row {
            let band = (ri - usize::from(self.first_row())) / self.row_size;
            mask |= region_bit(if band.is_multiple_of(2) {
                TableRegion::Band1Horizontal
            } else {
                TableRegion::Band2Horizontal
            });
        }
        if !self.look.no_v_band.unwrap_or(false) && !first_col && !last_col {
            let band = (ci - usize::from(self.first_col())) / self.col_size;
            mask |= region_bit(if band.is_multiple_of(2) {
                TableRegion::Band1Vertical
            } else {
                TableRegion::Band2Vertical
            });
        }
        let flags = [
            (first_row, TableRegion::FirstRow),
            (last_row, TableRegion::LastRow),
            (first_col, TableRegion::FirstColumn),
            (last_col, TableRegion::LastColumn),
            (first_row && last_col, TableRegion::NeCell),
            (first_row && first_col, TableRegion::NwCell),
            (last_row && last_col, TableRegion::SeCell),
            (last_row && first_col, TableRegion::SwCell),
        ];
        for (on, region) in flags {
            if on {
                mask |= region_bit(region);
            }
        }
        mask
    }

    /// Whether rows `a` and `b` fall in the same row band (or both in the header row).
    fn same_row_band(&self, a: usize, b: usize) -> bool {
        let skip = usize::from(self.first_row());
        if a < skip || b < skip {
            return a < skip && b < skip;
        }
        (a - skip) / self.row_size == (b - skip) / self.row_size
    }

    /// Whether cells `a` and `b` of a row fall in the same column band.
    fn same_col_band(&self, a: usize, b: usize) -> bool {
        let skip = usize::from(self.first_col());
        if a < skip || b < skip {
            return a < skip && b < skip;
        }
        (a - skip) / self.col_size == (b - skip) / self.col_size
    }
}

/// A region's `tcBorders` as the edges of one of its cells: the outer sides where the cell
/// meets the region's edge, `insideH`/`insideV` where it meets another cell of the region.
fn region_edges(region: TableRegion, b: &TableBorders, bands: &Bands, ri: usize, ci: usize, n: usize) -> TableBorders {
    use TableRegion::*;
    let last_row = bands.rows.saturating_sub(1);
    // Whether the region goes on past the cell on each side: (above, below, left, right).
    let (up, down, left, right) = match region {
        FirstRow | LastRow => (false, false, ci > 0, ci + 1 < n),
        Band1Horizontal | Band2Horizontal => (
            ri > 0 && bands.same_row_band(ri - 1, ri),
            ri < last_row && bands.same_row_band(ri, ri + 1),
            ci > 0,
            ci + 1 < n,
        ),
        FirstColumn | LastColumn => (ri > 0, ri < last_row, false, false),
        Band1Vertical | Band2Vertical => (
            ri > 0,
            ri < last_row,
            ci > 0 && bands.same_col_band(ci - 1, ci),
            ci + 1 < n && bands.same_col_band(ci, ci + 1),
        ),
        WholeTable => (ri > 0, ri < last_row, ci > 0, ci + 1 < n),
        NeCell | NwCell | SeCell | SwCell => (false, false, false, false),
    };
    let pick = |inside: bool, outer: Option<Border>, inner: Option<Border>| {
        if inside {
            inner
        } else {
            outer
        }
    };
    TableBorders {
        top: pick(up, b.top, b.inside_h),
        bottom: pick(down, b.bottom, b.inside_h),
        left: pick(left, b.left, b.inside_v),
        right: pick(right, b.right, b.inside_v),
        inside_h: None,
        inside_v: None,
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{
        Block, Border, Color, Document, Paragraph, RunProps, Style, StyleKind, Table, TableBorders, TableCell,
        TableCondition, TableLook, TableRegion, TableRow, TableStyleProps,
    };
    use crate::resolve::{resolve, ResolvedBlock, ResolvedTable};
    use crate::units::EighthPoints;

    fn single() -> Border {
        Border { visible: true, width: EighthPoints(4), space: 0, color: Color::Auto, ..Default::default() }
    }

    fn condition(region: TableRegion) -> TableCondition {
        TableCondition {
            region,
            paragraph: Default::default(),
            run: Default::default(),
            table: Default::default(),
            cell: Default::default(),
        }
    }

    fn grid_table(rows: usize, cols: usize, style: Style, look: TableLook) -> Document {
        let cell =
            || TableCell { grid_span: 1, blocks: vec![Block::Paragraph(Paragraph::default())], ..Default::default() };
        let table = Table {
            style: Some("Styled".into()),
            rows: (0..rows)
                .map(|_| TableRow { cells: (0..cols).map(|_| cell()).collect(), ..Default::default() })
                .collect(),
            look,
            ..Default::default()
        };
        let mut doc = Document { body: vec![Block::Table(table)], ..Default::default() };
        doc.styles.styles.insert("Styled".into(), style);
        doc
    }

    fn table<'d, 'a>(r: &'d crate::resolve::ResolvedDocument<'a>) -> &'d ResolvedTable<'a> {
        let ResolvedBlock::Table(t) = &r.body[0] else { panic!("not a table") };
        t
    }

    fn bold_of(t: &ResolvedTable<'_>, ri: usize, ci: usize) -> bool {
        let ResolvedBlock::Paragraph(p) = &t.rows[ri].cells[ci].blocks[0] else { panic!() };
        p.mark.bold
    }

    #[test]
    fn table_style_borders_apply_under_the_table_own() {
        let mut style = Style { kind: StyleKind::Table, table: TableStyleProps::default(), ..Default::default() };
        style.table.table.borders =
            TableBorders { inside_h: Some(single()), top: Some(single()), ..Default::default() };
        let table = Table {
            style: Some("TableGrid".into()),
            borders: TableBorders { top: Some(Border { visible: false, ..single() }), ..Default::default() },
            rows: vec![TableRow {
                cells: vec![TableCell { grid_span: 1, ..Default::default() }],
                ..Default::default()
            }],
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

    #[test]
    fn banded_rows_follow_the_header_row_and_tbl_look() {
        let mut style = Style { kind: StyleKind::Table, ..Default::default() };
        let mut first = condition(TableRegion::FirstRow);
        first.run = RunProps { bold: Some(true), ..Default::default() };
        let mut band1 = condition(TableRegion::Band1Horizontal);
        band1.cell.shading = Some(Color::Rgb(0xDD, 0xDD, 0xDD));
        let mut band2 = condition(TableRegion::Band2Horizontal);
        band2.cell.shading = Some(Color::Rgb(0xEE, 0xEE, 0xEE));
        style.table.conditions = vec![first, band1, band2];
        let look = TableLook { first_row: Some(true), ..Default::default() };
        let doc = grid_table(4, 2, style.clone(), look);
        let r = resolve(&doc);
        let t = table(&r);
        assert!(bold_of(t, 0, 0) && bold_of(t, 0, 1));
        assert!(!bold_of(t, 1, 0));
        assert_eq!(t.rows[0].cells[0].shading, None);
        assert_eq!(t.rows[1].cells[0].shading, Some(Color::Rgb(0xDD, 0xDD, 0xDD)));
        assert_eq!(t.rows[2].cells[1].shading, Some(Color::Rgb(0xEE, 0xEE, 0xEE)));
        assert_eq!(t.rows[3].cells[0].shading, Some(Color::Rgb(0xDD, 0xDD, 0xDD)));
        // Without the header row the bands start at the first row; noHBand drops them.
        let doc = grid_table(2, 1, style.clone(), TableLook::default());
        let r = resolve(&doc);
        assert!(!bold_of(table(&r), 0, 0));
        assert_eq!(table(&r).rows[0].cells[0].shading, Some(Color::Rgb(0xDD, 0xDD, 0xDD)));
        let doc = grid_table(2, 1, style, TableLook { no_h_band: Some(true), ..Default::default() });
        let r = resolve(&doc);
        assert_eq!(table(&r).rows[0].cells[0].shading, None);
    }

    #[test]
    fn later_regions_win_and_direct_cell_formatting_wins_over_all() {
        let mut style = Style { kind: StyleKind::Table, ..Default::default() };
        let mut col = condition(TableRegion::FirstColumn);
        col.cell.shading = Some(Color::Rgb(1, 1, 1));
        let mut row = condition(TableRegion::FirstRow);
        row.cell.shading = Some(Color::Rgb(2, 2, 2));
        let mut nw = condition(TableRegion::NwCell);
        nw.cell.shading = Some(Color::Rgb(3, 3, 3));
        // Written corner first: the order of application is Word's, not the file's.
        style.table.conditions = vec![nw, row, col];
        let look = TableLook { first_row: Some(true), first_column: Some(true), ..Default::default() };
        let mut doc = grid_table(2, 2, style, look);
        let crate::docx::model::Block::Table(t) = &mut doc.body[0] else { panic!() };
        t.rows[1].cells[1].shading = Some(Color::Rgb(9, 9, 9));
        let r = resolve(&doc);
        let t = table(&r);
        assert_eq!(t.rows[0].cells[0].shading, Some(Color::Rgb(3, 3, 3)));
        assert_eq!(t.rows[0].cells[1].shading, Some(Color::Rgb(2, 2, 2)));
        assert_eq!(t.rows[1].cells[0].shading, Some(Color::Rgb(1, 1, 1)));
        assert_eq!(t.rows[1].cells[1].shading, Some(Color::Rgb(9, 9, 9)));
    }

    #[test]
    fn a_region_border_reaches_the_cells_on_its_edge() {
        let mut style = Style { kind: StyleKind::Table, ..Default::default() };
        let mut row = condition(TableRegion::FirstRow);
        let thick = Border { width: EighthPoints(12), ..single() };
        row.cell.borders = TableBorders {
            bottom: Some(thick),
            left: Some(single()),
            inside_v: Some(Border { visible: false, ..single() }),
            ..Default::default()
        };
        style.table.conditions = vec![row];
        let look = TableLook { first_row: Some(true), ..Default::default() };
        let doc = grid_table(2, 3, style, look);
        let r = resolve(&doc);
        let t = table(&r);
        let cells = &t.rows[0].cells;
        assert!(cells.iter().all(|c| c.borders.bottom.flatten().is_some_and(|b| b.width.0 == 1.5)));
        assert!(cells[0].borders.left.flatten().is_some());
        assert_eq!(cells[1].borders.left, Some(None));
        assert_eq!(cells[2].borders.right, None);
        assert_eq!(t.rows[1].cells[0].borders.top, None);
    }
}
