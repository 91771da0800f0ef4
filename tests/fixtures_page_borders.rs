//! Page border fixtures (`w:pgBorders`, §17.6.10): each a DOCX built here and laid out,
//! checked by where its border lines land on which pages, in which colour and painting
//! order, and once in the rasterised PDF.

mod common;

use common::docx::{docx, docx_with_rels, header_footer_xml, paragraph};
use common::layout::{near, pages};
use common::pdf::page_pixels;
use docx2pdf::layout::frame::{Item, Page, Rgb};
use docx2pdf::render::{convert, Deadline};

/// Letter with 1-inch margins and the header/footer half an inch from the edges; `extra`
/// goes inside `w:sectPr`.
fn sect(extra: &str) -> String {
    format!(
        r#"<w:sectPr>{extra}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#
    )
}

/// A border side element: `w:val`, `w:sz` (eighths), `w:space` (points), more attributes.
fn side(name: &str, val: &str, sz: u32, space: u32, more: &str) -> String {
    format!(r#"<w:{name} w:val="{val}" w:sz="{sz}" w:space="{space}" {more}/>"#)
}

/// All four sides alike.
fn box_sides(val: &str, sz: u32, space: u32, more: &str) -> String {
    ["top", "left", "bottom", "right"].iter().map(|s| side(s, val, sz, space, more)).collect()
}

/// A straight line item: start, end, thickness.
#[derive(Debug, Clone, Copy)]
struct Line {
    from: (f64, f64),
    to: (f64, f64),
    thickness: f64,
}

/// The page's lines of colour `color`, with their index in painting order.
fn lines_of(page: &Page, color: Rgb) -> Vec<(usize, Line)> {
    page.items
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match &p.item {
            Item::Line(l) if l.color == color => Some((
                i,
                Line { from: (p.pos.x.0, p.pos.y.0), to: (l.to.x.0, l.to.y.0), thickness: l.thickness.0 },
            )),
            _ => None,
        })
        .collect()
}

fn horizontal(lines: &[(usize, Line)]) -> Vec<Line> {
    lines.iter().map(|(_, l)| *l).filter(|l| near(l.from.1, l.to.1, 0.001)).collect()
}

fn vertical(lines: &[(usize, Line)]) -> Vec<Line> {
    lines.iter().map(|(_, l)| *l).filter(|l| near(l.from.0, l.to.0, 0.001)).collect()
}

const NAVY: Rgb = Rgb(0x1F, 0x38, 0x64);

#[test]
fn page_border_from_text_sits_its_space_outside_the_margins() {
    // 2.25 pt lines 24 pt outside the 72 pt margins (as office2pdf's technical brief has them).
    let borders = format!("<w:pgBorders>{}</w:pgBorders>", box_sides("single", 18, 24, r#"w:color="1F3864""#));
    let out = pages(&docx(&format!("{}{}", paragraph("Bordered page"), sect(&borders))));
    let lines = lines_of(&out[0], NAVY);
    let (h, v) = (horizontal(&lines), vertical(&lines));
    assert_eq!((h.len(), v.len()), (2, 2), "{lines:?}");
    // The inner edge is 72 − 24 = 48 from the page edge: the 2.25 pt line is centred at 46.875.
    let top = h.iter().find(|l| l.from.1 < 100.0).unwrap();
    assert!(near(top.from.1, 46.875, 0.01) && near(top.thickness, 2.25, 0.001), "{top:?}");
    let bottom = h.iter().find(|l| l.from.1 > 700.0).unwrap();
    assert!(near(bottom.from.1, 792.0 - 46.875, 0.01), "{bottom:?}");
    let left = v.iter().find(|l| l.from.0 < 100.0).unwrap();
    assert!(near(left.from.0, 46.875, 0.01), "{left:?}");
    let right = v.iter().find(|l| l.from.0 > 500.0).unwrap();
    assert!(near(right.from.0, 612.0 - 46.875, 0.01), "{right:?}");
    // The sides meet at the corners: each runs between the outer edges of the sides across it.
    assert!(near(top.from.0, 45.75, 0.01) && near(top.to.0, 612.0 - 45.75, 0.01), "{top:?}");
    assert!(near(left.from.1, 45.75, 0.01) && near(left.to.1, 792.0 - 45.75, 0.01), "{left:?}");
}

#[test]
fn page_border_from_page_edge_lies_its_space_from_the_edge() {
    let borders = format!(r#"<w:pgBorders w:offsetFrom="page">{}</w:pgBorders>"#, side("top", "single", 4, 24, r#"w:color="FF0000""#));
    let out = pages(&docx(&format!("{}{}", paragraph("Top border only"), sect(&borders))));
    let lines = lines_of(&out[0], Rgb(255, 0, 0));
    assert_eq!(lines.len(), 1, "{lines:?}");
    let top = lines[0].1;
    // The outer edge 24 pt below the page edge: a ½ pt line centred at 24.25, running
    // between the margins where no side borders are.
    assert!(near(top.from.1, 24.25, 0.01) && near(top.thickness, 0.5, 0.001), "{top:?}");
    assert!(near(top.from.0, 72.0, 0.01) && near(top.to.0, 540.0, 0.01), "{top:?}");
}

#[test]
fn page_border_from_text_surrounds_the_header_unless_told_not_to() {
    let header = header_footer_xml("hdr", &paragraph("Running head"));
    let borders = format!("<w:pgBorders>{}</w:pgBorders>", side("top", "single", 8, 4, r#"w:color="1F3864""#));
    let body = format!("{}{}", paragraph("Body"), sect(&format!(r#"<w:headerReference w:type="default" r:id="rIdH"/>{borders}"#)));
    let top_of = |settings: Option<&str>| {
        let mut parts = vec![("rIdH", "header", "header1.xml", header.as_str())];
        if let Some(s) = settings {
            parts.push(("rIdS", "settings", "settings.xml", s));
        }
        let out = pages(&docx_with_rels(&body, &parts));
        let lines = lines_of(&out[0], NAVY);
        assert_eq!(lines.len(), 1, "{lines:?}");
        lines[0].1.from.1
    };
    // Around the header: 4 pt above its top, 36 pt from the page edge, a 1 pt line.
    assert!(near(top_of(None), 36.0 - 4.0 - 0.5, 0.01));
    let settings = r#"<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:bordersDoNotSurroundHeader/></w:settings>"#;
    assert!(near(top_of(Some(settings)), 72.0 - 4.0 - 0.5, 0.01));
}

#[test]
fn page_border_display_picks_the_section_s_first_page_or_the_others() {
    let two_pages = |display: &str| {
        let borders = format!(r#"<w:pgBorders w:display="{display}">{}</w:pgBorders>"#, box_sides("double", 4, 24, r#"w:color="1F3864""#));
        let body = format!(
            r#"{}<w:p><w:r><w:br w:type="page"/><w:t>Second page</w:t></w:r></w:p>{}"#,
            paragraph("First page"),
            sect(&borders)
        );
        let out = pages(&docx(&body));
        assert_eq!(out.len(), 2);
        (lines_of(&out[0], NAVY).len(), lines_of(&out[1], NAVY).len())
    };
    // A double border is two lines per side.
    assert_eq!(two_pages("allPages"), (8, 8));
    assert_eq!(two_pages("firstPage"), (8, 0));
    assert_eq!(two_pages("notFirstPage"), (0, 8));
}

#[test]
fn page_border_z_order_back_paints_it_before_the_text() {
    let order = |z: &str| {
        let borders = format!(r#"<w:pgBorders w:zOrder="{z}">{}</w:pgBorders>"#, box_sides("single", 8, 4, r#"w:color="1F3864""#));
        let out = pages(&docx(&format!("{}{}", paragraph("Text"), sect(&borders))));
        let page = &out[0];
        let text: Vec<usize> =
            page.items.iter().enumerate().filter(|(_, p)| matches!(p.item, Item::Text(_))).map(|(i, _)| i).collect();
        let border: Vec<usize> = lines_of(page, NAVY).iter().map(|(i, _)| *i).collect();
        assert_eq!(border.len(), 4);
        (border, text)
    };
    let (border, text) = order("back");
    assert!(border.iter().max() < text.iter().min(), "behind: {border:?} before {text:?}");
    let (border, text) = order("front");
    assert!(border.iter().min() > text.iter().max(), "in front: {border:?} after {text:?}");
}

#[test]
fn page_border_takes_its_theme_colour_and_an_art_border_its_width_in_points() {
    let theme = r#"<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="t"><a:themeElements><a:clrScheme name="x"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6><a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme></a:themeElements></a:theme>"#;
    let borders = format!(
        r#"<w:pgBorders w:offsetFrom="page">{}{}</w:pgBorders>"#,
        side("top", "single", 12, 20, r#"w:color="000000" w:themeColor="accent2""#),
        side("bottom", "apples", 10, 20, r#"w:color="00FF00""#)
    );
    let body = format!("{}{}", paragraph("Themed"), sect(&borders));
    let out = pages(&docx_with_rels(&body, &[("rIdT", "theme", "theme/theme1.xml", theme)]));
    let top = lines_of(&out[0], Rgb(0xED, 0x7D, 0x31));
    assert_eq!(top.len(), 1, "the theme's accent2 wins over w:color");
    assert!(near(top[0].1.from.1, 20.0 + 0.75, 0.01), "{top:?}");
    // An art border's `w:sz` is in points: a 10 pt line whose outer edge is 20 pt above the
    // page's bottom edge.
    let art = lines_of(&out[0], Rgb(0, 255, 0));
    assert_eq!(art.len(), 1);
    assert!(near(art[0].1.thickness, 10.0, 0.001) && near(art[0].1.from.1, 792.0 - 20.0 - 5.0, 0.01), "{art:?}");
}

#[test]
fn page_border_is_drawn_in_the_pdf() {
    // A 3 pt red box 20 pt from the page edges: pixels 20–22 are red, 30 is white.
    let borders = format!(r#"<w:pgBorders w:offsetFrom="page">{}</w:pgBorders>"#, box_sides("single", 24, 20, r#"w:color="FF0000""#));
    let pdf = convert(&common::renderer(), &docx(&format!("{}{}", paragraph("PDF"), sect(&borders))), &Deadline::none())
        .expect("conversion")
        .pdf;
    let Some(page) = page_pixels(&pdf) else { return };
    for (x, y) in [(300, 21), (21, 400), (612 - 22, 400), (300, 792 - 22)] {
        assert_eq!(page.pixel(x, y), (255, 0, 0), "border at ({x}, {y})");
    }
    assert_eq!(page.pixel(300, 30), (255, 255, 255));
}
