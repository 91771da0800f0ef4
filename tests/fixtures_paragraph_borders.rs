//! Paragraph border and shading fixtures (`w:pBdr` §17.3.1.24, `w:shd` §17.3.1.31): each a
//! DOCX built here and laid out, checked by where the border lines land, how far they push
//! the text, and once in the rasterised PDF.

mod common;

use common::docx::{docx, paragraph};
use common::layout::{lay_out, near, pages};
use common::pdf::page_pixels;
use docx2pdf::layout::frame::{Item, Page, Rgb};
use docx2pdf::render::{convert, Deadline};

/// Letter with 1-inch margins: the text runs from x = 72 to 540.
const SECT: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// How far Word's box reaches past the text besides `w:space` and the border's lines.
const OUTSET: f64 = 1.45;

/// A border side element: `w:val`, `w:sz` (eighths), `w:space` (points), `w:color`.
fn side(name: &str, val: &str, sz: u32, space: u32, color: &str) -> String {
    format!(r#"<w:{name} w:val="{val}" w:sz="{sz}" w:space="{space}" w:color="{color}"/>"#)
}

/// A paragraph with `w:pBdr` sides `borders` and more `w:pPr` children `more`.
fn bordered(borders: &str, more: &str, text: &str) -> String {
    format!(r#"<w:p><w:pPr><w:pBdr>{borders}</w:pBdr>{more}</w:pPr><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
}

/// A straight line item: start, end, thickness.
#[derive(Debug, Clone, Copy)]
struct Line {
    from: (f64, f64),
    to: (f64, f64),
    thickness: f64,
}

/// The page's lines of colour `color`, horizontal ones first, each group top to bottom or
/// left to right.
fn lines_of(page: &Page, color: Rgb) -> (Vec<Line>, Vec<Line>) {
    let all: Vec<Line> = page
        .items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Line(l) if l.color == color => {
                Some(Line { from: (p.pos.x.0, p.pos.y.0), to: (l.to.x.0, l.to.y.0), thickness: l.thickness.0 })
            }
            _ => None,
        })
        .collect();
    let mut h: Vec<Line> = all.iter().copied().filter(|l| near(l.from.1, l.to.1, 0.001)).collect();
    let mut v: Vec<Line> = all.iter().copied().filter(|l| near(l.from.0, l.to.0, 0.001)).collect();
    h.sort_by(|a, b| a.from.1.total_cmp(&b.from.1));
    v.sort_by(|a, b| a.from.0.total_cmp(&b.from.0));
    (h, v)
}

/// The baseline of the first text piece that starts with `word`.
fn baseline(body: &str, word: &str) -> f64 {
    let pages = lay_out(&docx(body));
    pages[0].text.iter().find(|t| t.text.starts_with(word)).map(|t| t.baseline).expect(word)
}

const RED: Rgb = Rgb(255, 0, 0);
const BLUE: Rgb = Rgb(0, 0, 255);

#[test]
fn double_bottom_border_is_two_lines_a_width_apart_below_its_space() {
    // A 1 pt double border 4 pt below the text: lines of 1 pt, 1 pt apart, taking 3 pt, so
    // the next paragraph moves down by 4 + 3 pt.
    let border = side("bottom", "double", 8, 4, "FF0000");
    let body = format!("{}{}{SECT}", bordered(&border, "", "Above"), paragraph("Below"));
    let plain = format!("{}{}{SECT}", paragraph("Above"), paragraph("Below"));
    assert!(near(baseline(&body, "Below") - baseline(&plain, "Below"), 7.0, 0.01));
    let (h, v) = lines_of(&pages(&docx(&body))[0], RED);
    assert_eq!((h.len(), v.len()), (2, 0), "{h:?}");
    assert!(h.iter().all(|l| near(l.thickness, 1.0, 0.001)), "{h:?}");
    assert!(near(h[1].from.1 - h[0].from.1, 2.0, 0.001), "{h:?}");
    // Both run 1.45 pt past the text edges, as in Word's PDFs.
    for l in &h {
        assert!(near(l.from.0, 72.0 - OUTSET, 0.01) && near(l.to.0, 540.0 + OUTSET, 0.01), "{l:?}");
    }
    // Both lie below the text where a single 1 pt border with the same space would start:
    // the upper line where the single line is.
    let single = format!("{}{}{SECT}", bordered(&side("bottom", "single", 8, 4, "FF0000"), "", "Above"), paragraph("Below"));
    let (one, _) = lines_of(&pages(&docx(&single))[0], RED);
    assert!(near(h[0].from.1, one[0].from.1, 0.001), "{h:?} {one:?}");
}

#[test]
fn dotted_border_is_drawn_as_dots() {
    let border = side("top", "dotted", 8, 1, "0000FF");
    let (h, _) = lines_of(&pages(&docx(&format!("{}{SECT}", bordered(&border, "", "Dotted"))))[0], BLUE);
    // 1 pt dots with 1 pt gaps along the 471 pt box: about 235 of them, all on one line.
    assert!((200..=260).contains(&h.len()), "{}", h.len());
    let last = h.len() - 1;
    assert!(h[..last].iter().all(|l| near(l.to.0 - l.from.0, 1.0, 0.001) && near(l.from.1, h[0].from.1, 0.001)), "{h:?}");
    assert!(near(h[last].to.0, 540.0 + OUTSET, 0.01), "{:?}", h[last]);
    // The first dot starts at the box's left edge, 1.45 pt left of the text.
    assert!(near(h[0].from.0, 72.0 - OUTSET, 0.01), "{:?}", h[0]);
}

#[test]
fn grouped_paragraphs_share_one_box_with_a_between_border() {
    // Three paragraphs with the same borders: one top and one bottom border, a between
    // border above the second and the third, and sides that run unbroken through the
    // spacing between them.
    let borders = format!(
        "{}{}{}{}{}",
        side("top", "single", 4, 1, "FF0000"),
        side("left", "single", 4, 4, "FF0000"),
        side("bottom", "single", 4, 1, "FF0000"),
        side("right", "single", 4, 4, "FF0000"),
        side("between", "single", 4, 1, "FF0000"),
    );
    let body = format!(
        "{}{}{}{SECT}",
        bordered(&borders, "", "One"),
        bordered(&borders, "", "Two"),
        bordered(&borders, "", "Three")
    );
    let (h, v) = lines_of(&pages(&docx(&body))[0], RED);
    assert_eq!((h.len(), v.len()), (4, 6), "{h:?} {v:?}");
    // The between borders lie 1 pt (space) + 0.25 (half the line) above the text tops of the
    // second and third paragraphs, whose baselines are as far below them as the first's
    // is below the top border.
    let (one, two, three) = (baseline(&body, "One"), baseline(&body, "Two"), baseline(&body, "Three"));
    assert!(near(two - h[1].from.1, one - h[0].from.1, 0.01), "{h:?} {one} {two}");
    assert!(near(three - h[2].from.1, one - h[0].from.1, 0.01), "{h:?} {three}");
    // The sides: each piece starts where the one above ended.
    let left: Vec<&Line> = v.iter().filter(|l| l.from.0 < 300.0).collect();
    assert_eq!(left.len(), 3);
    let mut ys: Vec<(f64, f64)> = left.iter().map(|l| (l.from.1, l.to.1)).collect();
    ys.sort_by(|a, b| a.0.total_cmp(&b.0));
    for pair in ys.windows(2) {
        assert!(near(pair[0].1, pair[1].0, 0.001), "{ys:?}");
    }
    assert!(near(ys[0].0, h[0].from.1 - 0.25, 0.01) && near(ys[2].1, h[3].from.1 + 0.25, 0.01), "{ys:?} {h:?}");
}

#[test]
fn different_indents_start_a_new_box() {
    let borders = format!("{}{}", side("top", "single", 4, 1, "FF0000"), side("bottom", "single", 4, 1, "FF0000"));
    let body = format!(
        "{}{}{SECT}",
        bordered(&borders, "", "Plain"),
        bordered(&borders, r#"<w:ind w:left="720"/>"#, "Indented")
    );
    let (h, _) = lines_of(&pages(&docx(&body))[0], RED);
    assert_eq!(h.len(), 4, "{h:?}");
    assert!(near(h[2].from.0, 72.0 + 36.0 - OUTSET, 0.01), "{h:?}");
}

#[test]
fn box_edges_lie_space_and_width_outside_the_indented_text() {
    // Left indent 36 pt with a hanging 18 pt: the text starts at 72 + 18; a 3 pt left border
    // 4 pt away has its outer edge 4 + 3 + 1.45 pt further left. Right indent 36 pt, a right
    // border of 1 pt 10 pt away.
    let borders = format!("{}{}", side("left", "single", 24, 4, "0000FF"), side("right", "single", 8, 10, "0000FF"));
    let ind = r#"<w:ind w:left="720" w:right="720" w:hanging="360"/>"#;
    let (_, v) = lines_of(&pages(&docx(&format!("{}{SECT}", bordered(&borders, ind, "Edges"))))[0], BLUE);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(near(v[0].from.0, 90.0 - 4.0 - OUTSET - 1.5, 0.01) && near(v[0].thickness, 3.0, 0.001), "{v:?}");
    assert!(near(v[1].from.0, 504.0 + 10.0 + OUTSET + 0.5, 0.01) && near(v[1].thickness, 1.0, 0.001), "{v:?}");
}

#[test]
fn shading_fills_the_border_box() {
    let borders = side("bottom", "single", 4, 6, "FF0000");
    let shd = r#"<w:shd w:val="clear" w:color="auto" w:fill="00FF00"/>"#;
    let out = pages(&docx(&format!("{}{SECT}", bordered(&borders, shd, "Shaded"))));
    let (h, _) = lines_of(&out[0], RED);
    let fill = out[0]
        .items
        .iter()
        .find_map(|p| match &p.item {
            Item::Rect(r) if r.fill == Some(Rgb(0, 255, 0)) => Some((p.pos, r.size)),
            _ => None,
        })
        .expect("a shading rectangle");
    assert!(near(fill.0.x.0, 72.0 - OUTSET, 0.01) && near(fill.1.width.0, 468.0 + 2.0 * OUTSET, 0.01), "{fill:?}");
    // Down to the bottom border's outer edge, past its 6 pt space.
    assert!(near(fill.0.y.0 + fill.1.height.0, h[0].from.1 + 0.25, 0.01), "{fill:?} {h:?}");
}

#[test]
fn double_paragraph_border_is_drawn_in_the_pdf() {
    // A 2 pt double red bottom border: two 2 pt lines with a 2 pt white gap.
    let border = side("bottom", "double", 16, 4, "FF0000");
    let bytes = docx(&format!("{}{SECT}", bordered(&border, "", "PDF")));
    let (h, _) = lines_of(&pages(&bytes)[0], RED);
    let pdf = convert(&common::renderer(), &bytes, &Deadline::none()).expect("conversion").pdf;
    let Some(page) = page_pixels(&pdf) else { return };
    // Sample the middle of each 2 pt band (1 pt pixels at 72 dpi).
    let top = h[0].from.1 - 1.0;
    let row = |offset: f64| (top + offset).floor() as usize;
    assert_eq!(page.pixel(300, row(0.5)), (255, 0, 0), "first line at {top}");
    assert_eq!(page.pixel(300, row(2.5)), (255, 255, 255), "gap");
    assert_eq!(page.pixel(300, row(4.5)), (255, 0, 0), "second line");
}
