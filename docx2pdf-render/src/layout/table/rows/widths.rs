//! Column widths (§17.4.16, §17.4.53, notes §8): the grid as Word saved it, else the
//! cells' preferred widths; fitted to `tblW`, and autofit tables to the text column.

use crate::docx::model::Width;
use crate::resolve::ResolvedTable;
use crate::units::Pt;

/// The most grid columns laid out.
const MAX_GRID: usize = 1_000;
/// A grid column no width says anything about gets at least this much (an inch).
const MIN_UNKNOWN: Pt = Pt(72.0);

/// A preferred width (`tblW`, `tcW`) in points; `auto`/`nil` have none.
fn preferred(w: Option<Width>, box_width: Pt) -> Option<Pt> {
    match w {
        Some(Width::Dxa(w)) if w.0 > 0 => Some(w.pt()),
        Some(Width::Pct(p)) if p > 0 => Some(box_width * (p as f64 / 5000.0)),
        _ => None,
    }
}

/// Column widths: the grid (or, without one, the cells' `tcW`), scaled to `tblW`; an
/// autofit table wider than the column is scaled to it, a fixed one keeps its widths and
/// may run into the margin as in Word.
pub(crate) fn column_widths(t: &ResolvedTable<'_>, box_width: Pt) -> Vec<Pt> {
    let mut grid = t.grid.clone();
    let needed = t
        .rows
        .iter()
        .map(|r| (r.grid_before + r.grid_after) as usize + r.cells.iter().map(|c| c.grid_span as usize).sum::<usize>())
        .max()
        .unwrap_or(0);
    if grid.iter().all(|g| *g <= Pt::ZERO) {
        grid.clear();
    }
    // Damaged files can ask for absurd grids; nothing sensible is that wide.
    let needed = needed.min(MAX_GRID);
    grid.truncate(MAX_GRID);
    if grid.is_empty() && needed > 0 {
        grid = from_cells(t, needed, box_width);
    }
    if grid.len() < needed {
        // Missing grid columns share what is left of the box, at least an inch each.
        let used: Pt = grid.iter().copied().sum();
        let missing = (needed - grid.len()) as f64;
        let each = ((box_width - used) / missing).max(MIN_UNKNOWN.min(box_width / missing));
        grid.resize(needed, each);
    }
    let total: Pt = grid.iter().copied().sum();
    if total <= Pt::ZERO {
        return grid;
    }
    let target = preferred(t.width, box_width);
    let limit = if t.fixed { target } else { Some(target.unwrap_or(box_width)) };
    let scale_up = matches!(t.width, Some(Width::Pct(_)));
    if let Some(limit) = limit {
        if total > limit + Pt(0.5) || (scale_up && total < limit - Pt(0.5)) {
            let k = limit.0 / total.0;
            for g in &mut grid {
                *g = *g * k;
            }
        }
    }
    grid
}

/// A grid built from the cells' `tcW` where the table has no `w:tblGrid`: single-column
/// cells price their column, spanning cells share what their known columns leave, and
/// columns nothing prices share the rest of the box.
fn from_cells(t: &ResolvedTable<'_>, needed: usize, box_width: Pt) -> Vec<Pt> {
    let mut cols: Vec<Option<Pt>> = vec![None; needed];
    for single in [true, false] {
        for row in &t.rows {
            let mut col = row.grid_before as usize;
            for cell in &row.cells {
                let span = cell.grid_span as usize;
                let end = (col + span).min(needed);
                if (span == 1) == single && col < end {
                    if let Some(w) = preferred(cell.width, box_width) {
                        let known: Pt = cols[col..end].iter().flatten().copied().sum();
                        let unknown = cols[col..end].iter().filter(|c| c.is_none()).count();
                        if unknown > 0 && w > known {
                            let each = (w - known) / unknown as f64;
                            for c in cols[col..end].iter_mut().filter(|c| c.is_none()) {
                                *c = Some(each);
                            }
                        }
                    }
                }
                col += span;
            }
        }
    }
    let known: Pt = cols.iter().flatten().copied().sum();
    let unknown = cols.iter().filter(|c| c.is_none()).count();
    let each = if unknown > 0 {
        ((box_width - known) / unknown as f64).max(MIN_UNKNOWN.min(box_width / unknown as f64))
    } else {
        Pt::ZERO
    };
    cols.into_iter().map(|c| c.unwrap_or(each)).collect()
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Block, Document, Paragraph, Table, TableCell, TableLayout, TableRow, Width};
    use crate::layout::testing::*;
    use crate::units::Twips;

    fn cell(text: &str, width: Option<Width>, span: u32) -> TableCell {
        TableCell { grid_span: span, width, blocks: vec![Block::Paragraph(para(text))], ..Default::default() }
    }

    fn x_of(doc: &Document, text: &str) -> f64 {
        let out = lay(doc);
        texts(&out.layout.pages[0]).into_iter().find(|t| t.2 == text).expect(text).0
    }

    fn doc(t: Table) -> Document {
        Document { body: vec![Block::Table(t), Block::Paragraph(Paragraph::default())], ..Default::default() }
    }

    #[test]
    fn without_a_grid_the_cells_preferred_widths_make_the_columns() {
        let dxa = |tw| Some(Width::Dxa(Twips(tw)));
        let rows = vec![
            TableRow {
                cells: vec![cell("a", dxa(1440), 1), cell("b", dxa(2880), 1), cell("c", None, 1)],
                ..Default::default()
            },
            TableRow { cells: vec![cell("wide", dxa(5760), 2), cell("d", None, 1)], ..Default::default() },
        ];
        let t = Table { rows, ..Default::default() };
        let d = doc(t);
        // Legacy mode: text at the margin; columns 72 and 144 pt wide.
        assert!((x_of(&d, "b") - (72.0 + 72.0)).abs() < 0.01);
        assert!((x_of(&d, "c") - (72.0 + 216.0)).abs() < 0.01);
        assert!((x_of(&d, "d") - (72.0 + 216.0)).abs() < 0.01);
    }

    #[test]
    fn a_fixed_table_wider_than_the_column_keeps_its_widths() {
        let grid = vec![Twips(7200), Twips(7200)];
        let row = TableRow { cells: vec![cell("a", None, 1), cell("b", None, 1)], ..Default::default() };
        let mut t = Table { grid, rows: vec![row], ..Default::default() };
        assert!((x_of(&doc(t.clone()), "b") - (72.0 + 234.0)).abs() < 0.01, "autofit fits the column");
        t.layout = Some(TableLayout::Fixed);
        assert!((x_of(&doc(t), "b") - (72.0 + 360.0)).abs() < 0.01, "fixed keeps 5 inches");
    }
}
