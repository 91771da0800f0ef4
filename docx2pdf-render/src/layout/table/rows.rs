//! Tables (§17.4): grid widths, cell boxes, merged cells, row heights, borders and shading.

pub(crate) mod borders;
mod widths;

use self::borders::{draw, edge};
use self::widths::column_widths;
use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fields::FieldValues;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, Point, RectItem, Rgb, Size};
use crate::layout::linebreak::EPSILON;
use crate::layout::stack::layout_stack;
use crate::docx::model::{Align, CellVAlign, Color, RowHeight, VMerge};
use crate::resolve::{BorderStyle, ResolvedCell, ResolvedTable};
use crate::units::Pt;

/// Tables nested deeper than this are skipped (a hostile document could nest until the
/// stack runs out).
const MAX_NESTING: usize = 24;

/// A laid-out table, rows not yet placed.
#[derive(Debug, Clone)]
pub(crate) struct LaidTable {
    /// Left edge of the table from the box's left edge.
    pub x: Pt,
    /// Rows in order.
    pub rows: Vec<LaidRow>,
    /// Leading rows marked `w:tblHeader`, repeated on every page (§17.4.49).
    pub header_rows: usize,
}

/// A laid-out row.
#[derive(Debug, Clone)]
pub(crate) struct LaidRow {
    /// The row height.
    pub height: Pt,
    /// `w:trHeight hRule="exact"`: never split.
    pub exact: bool,
    /// `w:cantSplit` (§17.4.6): moved whole to the next page when it fits there.
    pub cant_split: bool,
    /// Cells in order.
    pub cells: Vec<LaidCell>,
}

/// A laid-out cell.
#[derive(Debug, Clone)]
pub(crate) struct LaidCell {
    /// Left edge from the table's left edge.
    pub x: Pt,
    /// Cell width.
    pub width: Pt,
    /// Content pieces relative to the cell's top-left (top margin included).
    pub lines: Vec<(Pt, Fragment)>,
    /// Content height with the top and bottom margins.
    pub content_height: Pt,
    /// Bottom margin, kept for splitting.
    pub margin_bottom: Pt,
    /// Top margin, kept for splitting.
    pub margin_top: Pt,
    /// Vertical alignment.
    pub v_align: CellVAlign,
    /// Height used to align the content: the row, or the whole vertical merge.
    pub span_height: Pt,
    /// Shading fill.
    pub shading: Option<Rgb>,
    /// Top edge.
    pub top: Option<BorderStyle>,
    /// Bottom edge (last row only; inner edges are drawn by the cell below).
    pub bottom: Option<BorderStyle>,
    /// Left edge.
    pub left: Option<BorderStyle>,
    /// Right edge (last cell only).
    pub right: Option<BorderStyle>,
}

fn fill(c: Option<Color>) -> Option<Rgb> {
    match c {
        Some(Color::Rgb(r, g, b)) => Some(Rgb(r, g, b)),
        _ => None,
    }
}

/// Lays out a table in a box `box_width` wide.
pub(crate) fn layout_table(
    t: &ResolvedTable<'_>,
    box_width: Pt,
    ctx: &mut Ctx<'_>,
    fields: Option<&FieldValues>,
) -> Result<LaidTable, LayoutError> {
    if ctx.table_depth >= MAX_NESTING {
        ctx.warn("table_skipped", format!("tables nested deeper than {MAX_NESTING} levels were skipped"));
        return Ok(LaidTable { x: Pt::ZERO, rows: Vec::new(), header_rows: 0 });
    }
    ctx.table_depth += 1;
    let laid = layout_rows(t, box_width, ctx, fields);
    ctx.table_depth -= 1;
    laid
}

fn layout_rows(
    t: &ResolvedTable<'_>,
    box_width: Pt,
    ctx: &mut Ctx<'_>,
    fields: Option<&FieldValues>,
) -> Result<LaidTable, LayoutError> {
    let grid = column_widths(t, box_width);
    let offsets: Vec<Pt> = std::iter::once(Pt::ZERO)
        .chain(grid.iter().scan(Pt::ZERO, |acc, g| {
            *acc += *g;
            Some(*acc)
        }))
        .collect();
    let total = *offsets.last().unwrap_or(&Pt::ZERO);
    let first_margin = t.rows.first().and_then(|r| r.cells.first()).map(|c| c.margin_left).unwrap_or(Pt(5.4));
    let x = match t.align {
        Align::Center => (box_width - total) * 0.5,
        Align::Right => box_width - total,
        // Mode 15: the border sits at tblInd; older modes put the text there (notes §8).
        _ if ctx.compatibility_mode.unwrap_or(0) >= 15 => t.indent,
        _ => t.indent - first_margin,
    };
    let col_of = |row: &crate::resolve::ResolvedRow<'_>| {
        let mut col = row.grid_before as usize;
        row.cells
            .iter()
            .map(|c| {
                let start = col;
                col += c.grid_span as usize;
                (start, col)
            })
            .collect::<Vec<_>>()
    };
    let cols: Vec<Vec<(usize, usize)>> = t.rows.iter().map(col_of).collect();
    let span_x = |(a, b): (usize, usize)| {
        let a = a.min(grid.len());
        let b = b.min(grid.len()).max(a);
        (offsets[a], offsets[b] - offsets[a])
    };

    let mut rows: Vec<LaidRow> = Vec::with_capacity(t.rows.len());
    // Rows each restart cell spans: (row, cell) → count.
    let mut merge_spans: Vec<Vec<usize>> = Vec::with_capacity(t.rows.len());
    // The shading of the cell that starts a vertical merge, by grid column.
    let mut col_shading: std::collections::HashMap<usize, Option<Color>> = std::collections::HashMap::new();
    for (ri, row) in t.rows.iter().enumerate() {
        ctx.deadline.check()?;
        let mut cells = Vec::with_capacity(row.cells.len());
        let mut spans = Vec::with_capacity(row.cells.len());
        let mut content_max = Pt::ZERO;
        for (ci, cell) in row.cells.iter().enumerate() {
            let (cx, cw) = span_x(cols[ri][ci]);
            let continues = cell.v_merge == Some(VMerge::Continue);
            if !continues {
                col_shading.insert(cols[ri][ci].0, cell.shading);
            }
            let span = if cell.v_merge == Some(VMerge::Restart) {
                1 + (ri + 1..t.rows.len())
                    .take_while(|&r| {
                        cols[r].iter().zip(&t.rows[r].cells).any(|(c, tc)| c.0 == cols[ri][ci].0 && tc.v_merge == Some(VMerge::Continue))
                    })
                    .count()
            } else {
                1
            };
            spans.push(span);
            let inner = (cw - cell.margin_left - cell.margin_right).max(Pt(1.0));
            let stack = if continues { Default::default() } else { layout_stack(&cell.blocks, inner, ctx, fields, true)? };
            let content_height = stack.height + cell.margin_top + cell.margin_bottom;
            if span == 1 && !continues {
                content_max = content_max.max(content_height);
            }
            let lines = stack
                .parts
                .into_iter()
                .map(|(y, mut f)| {
                    f = shift(f, cell.margin_left);
                    (y + cell.margin_top, f)
                })
                .collect();
            let (top, left, bottom, right) = cell_edges(t, ri, ci, cell, &cols);
            cells.push(LaidCell {
                x: cx,
                width: cw,
                lines,
                content_height,
                margin_bottom: cell.margin_bottom,
                margin_top: cell.margin_top,
                v_align: cell.v_align,
                span_height: Pt::ZERO,
                shading: fill(if continues { col_shading.get(&cols[ri][ci].0).copied().flatten() } else { cell.shading }),
                top,
                bottom,
                left,
                right,
            });
        }
        // Word keeps cell text clear of the horizontal borders: the row grows by the top
        // border's width (and the last row by the bottom border's), measured on the corpus's
        // `sverrejb_docxide_pdf_input_22` (0.5 pt borders, rows 0.5 pt taller).
        let widest = |f: fn(&LaidCell) -> Option<BorderStyle>| {
            cells.iter().filter_map(f).map(|b| b.width).fold(Pt::ZERO, Pt::max)
        };
        let border_top = widest(|c| c.top);
        let border_bottom = widest(|c| c.bottom);
        for cell in &mut cells {
            for (y, _) in &mut cell.lines {
                *y += border_top;
            }
            cell.content_height += border_top + border_bottom;
        }
        content_max += border_top + border_bottom;
        let (height, exact) = match row.height {
            Some(RowHeight::Exact(h)) => (h.pt(), true),
            Some(RowHeight::AtLeast(h)) => (content_max.max(h.pt()), false),
            None => (content_max, false),
        };
        rows.push(LaidRow { height: height.max(Pt(1.0)), exact, cant_split: row.cant_split, cells });
        merge_spans.push(spans);
    }
    // A merged cell's content may need more than its rows give: the last row grows.
    for ri in 0..rows.len() {
        for (ci, &span) in merge_spans[ri].iter().enumerate() {
            let end = (ri + span).min(rows.len());
            let have: Pt = rows[ri..end].iter().map(|r| r.height).sum();
            let need = rows[ri].cells[ci].content_height;
            if span > 1 && need > have && !rows[end - 1].exact {
                rows[end - 1].height += need - have;
            }
            let have: Pt = rows[ri..end].iter().map(|r| r.height).sum();
            rows[ri].cells[ci].span_height = have;
            if span > 1 {
                spread_merged(&mut rows, &cols, ri, ci, span);
            }
        }
    }
    let header_rows = t.rows.iter().take_while(|r| r.header).count();
    Ok(LaidTable { x, rows, header_rows: header_rows.min(t.rows.len()) })
}

/// Hands the lines of a cell merged over `span` rows to the rows they fall in: each line
/// goes to the continuation cell of the row where it starts, so a merge broken across pages
/// continues its text on the next page (§17.4.85). The vertical alignment is applied here,
/// over the whole merge.
fn spread_merged(rows: &mut [LaidRow], cols: &[Vec<(usize, usize)>], ri: usize, ci: usize, span: usize) {
    let start = cols[ri][ci].0;
    let cell = &mut rows[ri].cells[ci];
    let room = cell.span_height;
    let dy = match cell.v_align {
        CellVAlign::Top => Pt::ZERO,
        CellVAlign::Center => ((room - cell.content_height) * 0.5).max(Pt::ZERO),
        CellVAlign::Bottom => (room - cell.content_height).max(Pt::ZERO),
    };
    cell.v_align = CellVAlign::Top;
    let lines = std::mem::take(&mut cell.lines);
    let mut top = Pt::ZERO;
    let mut tops = Vec::with_capacity(span);
    for row in &rows[ri..ri + span] {
        tops.push(top);
        top += row.height;
    }
    for (y, f) in lines {
        let y = y + dy;
        let j = tops.iter().rposition(|t| *t <= y + Pt(0.01)).unwrap_or(0);
        let target = if j == 0 {
            Some(ci)
        } else {
            cols[ri + j].iter().position(|c| c.0 == start)
        };
        // A row without a continuation cell there keeps the line in the first cell.
        let (row, target, y) = match target {
            Some(t) => (ri + j, t, y - tops[j]),
            None => (ri, ci, y),
        };
        let cell = &mut rows[row].cells[target];
        cell.v_align = CellVAlign::Top;
        cell.content_height = cell.content_height.max(y + f.height + cell.margin_bottom);
        cell.lines.push((y, f));
    }
}

fn shift(f: Fragment, dx: Pt) -> Fragment {
    let mut out = Fragment::new(f.height);
    out.append(Point::new(dx, Pt::ZERO), &f);
    out
}

type Edges = (Option<BorderStyle>, Option<BorderStyle>, Option<BorderStyle>, Option<BorderStyle>);

fn cell_edges(t: &ResolvedTable<'_>, ri: usize, ci: usize, cell: &ResolvedCell<'_>, cols: &[Vec<(usize, usize)>]) -> Edges {
    let (start, _) = cols[ri][ci];
    let above = |r: usize| -> Option<&ResolvedCell<'_>> {
        let i = cols[r].iter().position(|c| c.0 == start)?;
        t.rows[r].cells.get(i)
    };
    let continues = cell.v_merge == Some(VMerge::Continue);
    let top = if continues {
        None
    } else if ri == 0 {
        edge(cell.borders.top, None, t.borders.top)
    } else {
        edge(cell.borders.top, above(ri - 1).and_then(|a| a.borders.bottom), t.inside_h)
    };
    let bottom = if ri + 1 == t.rows.len() {
        edge(cell.borders.bottom, None, t.borders.bottom)
    } else {
        // Inner bottom edges are drawn as the top edge of the cell below, which weighs this
        // cell's own bottom border.
        None
    };
    let left = if ci == 0 {
        edge(cell.borders.left, None, t.borders.left)
    } else {
        edge(cell.borders.left, t.rows[ri].cells.get(ci - 1).and_then(|c| c.borders.right), t.inside_v)
    };
    let last = ci + 1 == t.rows[ri].cells.len();
    let right = if last { edge(cell.borders.right, None, t.borders.right) } else { None };
    (top, left, bottom, right)
}

/// Renders a row: background (shading) and foreground (content, borders), relative to the
/// table's left edge and the row's top.
pub(crate) fn render_row(row: &LaidRow) -> (Fragment, Fragment) {
    let mut bg = Fragment::new(row.height);
    let mut fg = Fragment::new(row.height);
    for cell in &row.cells {
        if let Some(color) = cell.shading {
            bg.push(
                Point::new(cell.x, Pt::ZERO),
                Item::Rect(RectItem { size: Size { width: cell.width, height: row.height }, fill: Some(color), stroke: None }),
            );
        }
        let room = cell.span_height.max(row.height);
        let dy = match cell.v_align {
            CellVAlign::Top => Pt::ZERO,
            CellVAlign::Center => ((room - cell.content_height) * 0.5).max(Pt::ZERO),
            CellVAlign::Bottom => (room - cell.content_height).max(Pt::ZERO),
        };
        for (y, f) in &cell.lines {
            fg.append(Point::new(cell.x, *y + dy), f);
        }
    }
    for cell in &row.cells {
        let (x0, x1, h) = (cell.x, cell.x + cell.width, row.height);
        let sides = [
            (cell.top, Point::new(x0, Pt::ZERO), cell.width, false),
            (cell.left, Point::new(x0, Pt::ZERO), h, true),
            (cell.right, Point::new(x1, Pt::ZERO), h, true),
            (cell.bottom, Point::new(x0, h), cell.width, false),
        ];
        for (b, from, length, vertical) in sides {
            if let Some(b) = b {
                draw(&mut fg, &b, from, length, vertical);
            }
        }
    }
    (bg, fg)
}

/// What a row does with the room left in its region (a page or a column), as Word breaks
/// tables across pages (§17.4.6).
pub(crate) enum RowFit {
    /// Placed here: it fits, or nothing would hold it better (a fresh region).
    Here,
    /// Moved whole to the next region, headers repeated before it.
    NextRegion,
    /// Broken at a line: the first part here, the rest opening the next region.
    Split(LaidRow, LaidRow),
}

/// Where `row` goes with `room` left in a region of `region` height; `fresh` when the
/// region holds nothing yet but repeated header rows, `header` for a header row. A row
/// breaks across regions at a line unless `cantSplit` or an exact height keeps it whole
/// (§17.4.6), in which case it moves on when the next region can hold it; a row that can
/// neither split nor move stays and overflows.
pub(crate) fn fit_row(row: &LaidRow, room: Pt, region: Pt, fresh: bool, header: bool) -> RowFit {
    if row.height <= room + EPSILON {
        return RowFit::Here;
    }
    let whole = row.cant_split || row.exact || header;
    if whole && !fresh && row.height <= region {
        return RowFit::NextRegion;
    }
    match split_row(row, room) {
        Some((a, b)) => RowFit::Split(a, b),
        None if !fresh => RowFit::NextRegion,
        None => RowFit::Here,
    }
}

/// Splits a row taller than the room left at line boundaries: the first part fills
/// `room`, the rest continues (top edges are not repeated). `None` when it cannot split.
pub(crate) fn split_row(row: &LaidRow, room: Pt) -> Option<(LaidRow, LaidRow)> {
    if row.exact || room <= Pt(1.0) {
        return None;
    }
    let mut first = LaidRow { height: room, exact: false, cant_split: false, cells: Vec::new() };
    let mut rest = LaidRow { height: Pt::ZERO, exact: false, cant_split: row.cant_split, cells: Vec::new() };
    let mut moved_any = false;
    let mut kept_any = false;
    for cell in &row.cells {
        let limit = room - cell.margin_bottom;
        let split_at = cell.lines.iter().position(|(y, f)| *y + f.height > limit + Pt(0.01)).unwrap_or(cell.lines.len());
        let (a, b) = cell.lines.split_at(split_at);
        kept_any |= !a.is_empty();
        moved_any |= !b.is_empty();
        let shift_up = b.first().map(|(y, _)| *y - cell.margin_top).unwrap_or(Pt::ZERO);
        let b: Vec<(Pt, Fragment)> = b.iter().map(|(y, f)| (*y - shift_up, f.clone())).collect();
        let rest_height = b.last().map(|(y, f)| *y + f.height + cell.margin_bottom).unwrap_or(Pt::ZERO);
        first.cells.push(LaidCell {
            lines: a.to_vec(),
            span_height: room,
            v_align: CellVAlign::Top,
            bottom: None,
            ..cell.clone()
        });
        rest.cells.push(LaidCell {
            lines: b,
            content_height: rest_height,
            span_height: Pt::ZERO,
            v_align: CellVAlign::Top,
            top: None,
            ..cell.clone()
        });
        rest.height = rest.height.max(rest_height);
    }
    if !kept_any || !moved_any {
        return None;
    }
    rest.height = rest.height.max(Pt(1.0));
    Some((first, rest))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{
        Block, Border, CellVAlign, Color, Document, Paragraph, RowHeight, Table, TableBorders, TableCell, TableRow,
        VMerge, Width,
    };
    use crate::layout::testing::*;
    use crate::units::{EighthPoints, Twips};

    fn cell(text: &str) -> TableCell {
        TableCell { grid_span: 1, blocks: vec![Block::Paragraph(para(text))], ..Default::default() }
    }

    fn table(grid: &[i64], rows: Vec<Vec<TableCell>>) -> Table {
        Table {
            grid: grid.iter().map(|g| Twips(*g)).collect(),
            rows: rows.into_iter().map(|cells| TableRow { cells, ..Default::default() }).collect(),
            ..Default::default()
        }
    }

    fn doc_with(t: Table) -> Document {
        Document { body: vec![Block::Table(t), Block::Paragraph(Paragraph::default())], ..Default::default() }
    }

    fn single() -> Border {
        Border { visible: true, width: EighthPoints(4), space: 0, color: Color::Auto, ..Default::default() }
    }

    #[test]
    fn table_cells_sit_side_by_side() {
        let out = lay(&doc_with(table(&[2880, 2880], vec![vec![cell("left"), cell("right")]])));
        let t = texts(&out.layout.pages[0]);
        let l = t.iter().find(|x| x.2 == "left").expect("left");
        let r = t.iter().find(|x| x.2 == "right").expect("right");
        // Legacy compat: the text sits at tblInd (0), the border 5.4 pt further out.
        assert!((l.0 - 72.0).abs() < 0.01, "{}", l.0);
        assert!((r.0 - (72.0 + 144.0)).abs() < 0.01, "{}", r.0);
        assert!((l.1 - r.1).abs() < 0.01);
    }

    #[test]
    fn a_grid_wider_than_the_text_is_scaled_down() {
        let out = lay(&doc_with(table(&[9360, 9360], vec![vec![cell("a"), cell("b")]])));
        let t = texts(&out.layout.pages[0]);
        let b = t.iter().find(|x| x.2 == "b").expect("b");
        assert!((b.0 - (72.0 + 234.0)).abs() < 0.01, "{}", b.0);
    }

    #[test]
    fn rows_stack_and_at_least_heights_apply() {
        let mut t = table(&[4680], vec![vec![cell("one")], vec![cell("two")]]);
        t.rows[0].height = Some(RowHeight::AtLeast(Twips(720)));
        let out = lay(&doc_with(t));
        let l = lines(&out.layout.pages[0]);
        assert!((l[1].0 - l[0].0 - 36.0).abs() < 0.01, "{l:?}");
    }

    #[test]
    fn table_borders_are_drawn_and_none_draws_nothing() {
        let mut t = table(&[2880, 2880], vec![vec![cell("a"), cell("b")], vec![cell("c"), cell("d")]]);
        t.borders = TableBorders {
            top: Some(single()),
            bottom: Some(single()),
            left: Some(single()),
            right: Some(single()),
            inside_h: Some(single()),
            inside_v: Some(single()),
        };
        let out = lay(&doc_with(t.clone()));
        // Two rows × (top + left) + right per row + bottom of the last row's two cells.
        assert_eq!(rules(&out.layout.pages[0]).len(), 2 * 2 * 2 + 2 + 2);
        t.borders = TableBorders { top: Some(Border { visible: false, ..single() }), ..Default::default() };
        let out = lay(&doc_with(t));
        assert!(rules(&out.layout.pages[0]).is_empty());
    }

    #[test]
    fn cell_shading_fills_the_cell() {
        let mut c = cell("x");
        c.shading = Some(Color::Rgb(200, 0, 0));
        let out = lay(&doc_with(table(&[2880], vec![vec![c]])));
        let r = rects(&out.layout.pages[0]);
        assert_eq!(r.len(), 1);
        assert!((r[0].1.size.width.0 - 144.0).abs() < 0.01);
    }

    #[test]
    fn a_vertically_merged_cell_spans_its_rows() {
        let mut first = cell("merged");
        first.v_merge = Some(VMerge::Restart);
        first.v_align = Some(CellVAlign::Center);
        let mut cont = cell("");
        cont.v_merge = Some(VMerge::Continue);
        cont.blocks.clear();
        let t = table(&[2880, 2880], vec![vec![first, cell("r1")], vec![cont, cell("r2")]]);
        let out = lay(&doc_with(t));
        let l = lines(&out.layout.pages[0]);
        let merged = l.iter().find(|x| x.1.contains("merged")).expect("merged");
        let r1 = l.iter().find(|x| x.1.contains("r1")).expect("r1");
        let r2 = l.iter().find(|x| x.1.contains("r2")).expect("r2");
        assert!(merged.0 > r1.0 && merged.0 < r2.0, "{l:?}");
    }

    #[test]
    fn a_percent_width_table_takes_its_share_of_the_text() {
        let mut t = table(&[1000, 1000], vec![vec![cell("a"), cell("b")]]);
        t.width = Some(Width::Pct(5000));
        let out = lay(&doc_with(t));
        let b = texts(&out.layout.pages[0]).into_iter().find(|x| x.2 == "b").expect("b");
        assert!((b.0 - (72.0 + 234.0)).abs() < 0.01, "{}", b.0);
    }

    #[test]
    fn rows_move_to_the_next_page_and_header_rows_repeat() {
        let mut rows = vec![vec![cell("header")]];
        rows.extend((0..80).map(|i| vec![cell(&format!("row {i}"))]));
        let mut t = table(&[4680], rows);
        t.rows[0].header = true;
        let out = lay(&doc_with(t));
        assert!(out.layout.pages.len() >= 2);
        let second = lines(&out.layout.pages[1]);
        assert_eq!(second[0].1, "header");
        assert!(second[1].1.starts_with("row "));
    }

    #[test]
    fn a_row_taller_than_a_page_splits_at_line_boundaries() {
        let c = TableCell {
            grid_span: 1,
            blocks: (0..100).map(|i| Block::Paragraph(para(&format!("line {i}")))).collect(),
            ..Default::default()
        };
        let out = lay(&doc_with(table(&[4680], vec![vec![c]])));
        assert!(out.layout.pages.len() >= 2);
        let all: Vec<String> = out.layout.pages.iter().flat_map(|p| lines(p).into_iter().map(|l| l.1)).collect();
        assert!(all.contains(&"line 0".to_string()) && all.contains(&"line 99".to_string()));
        for page in &out.layout.pages {
            for (y, _) in lines(page) {
                assert!(y < 720.0, "a line below the bottom margin at {y}");
            }
        }
    }

    #[test]
    fn tables_nested_too_deep_are_skipped_with_a_warning() {
        let mut t = table(&[4680], vec![vec![cell("innermost")]]);
        for _ in 0..30 {
            let mut c = cell("");
            c.blocks = vec![Block::Table(t)];
            t = table(&[4680], vec![vec![c]]);
        }
        let out = lay(&doc_with(t));
        assert!(out.warnings.iter().any(|w| w.kind == "table_skipped"));
    }
}
