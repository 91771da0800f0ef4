//! Drawings laid out as Word does, on DOCX files the tests build: text wrapping around an
//! anchored picture (square, top and bottom) or a group of text frames, a filled
//! rectangle with text, an inline text box, a group of shapes, a cropped picture, and
//! GIF, BMP, TIFF and EMF pictures, checked on the laid-out frames and on the PDF's images.

mod common;

use common::docx::{docx_with_image, png};
use common::layout::pages;
use common::pdf;
use docx2pdf::layout::frame::{ImageItem, Item, Page, Point, Rgb, ShapeItem, ShapeKind, TextItem};
use docx2pdf::render::{convert, Deadline};

/// Letter, one-inch margins: the body runs from x = 72 to 540, y = 72 to 720.
const LETTER: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

const NS: &str = r#"xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup""#;

fn emu(pt: f64) -> i64 {
    (pt * 12_700.0) as i64
}

/// A `wp:anchor` at (`x`, `y`) points from the margin and the paragraph, `w`×`h` points,
/// with `wrap` (e.g. `<wp:wrapSquare wrapText="bothSides"/>`) around `graphic`.
fn anchor(x: f64, y: f64, w: f64, h: f64, wrap: &str, graphic: &str) -> String {
    format!(
        r#"<w:drawing><wp:anchor {NS} distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:posOffset>{}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>{}</wp:posOffset></wp:positionV><wp:extent cx="{}" cy="{}"/>{wrap}<wp:docPr id="1" name="Drawing 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">{graphic}</a:graphicData></a:graphic></wp:anchor></w:drawing>"#,
        emu(x),
        emu(y),
        emu(w),
        emu(h)
    )
}

/// A `pic:pic` showing the picture `rIdImg`, cut by `src_rect` (e.g. `<a:srcRect l="25000"/>`).
fn pic(w: f64, h: f64, src_rect: &str) -> String {
    format!(
        r#"<pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/>{src_rect}<a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{}" cy="{}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>"#,
        emu(w),
        emu(h)
    )
}

/// A 24-bit BMP of `w`×`h` pixels.
fn bmp(w: u32, h: u32) -> Vec<u8> {
    let stride = (w as usize * 3).div_ceil(4) * 4;
    let size = 54 + stride * h as usize;
    let mut out = b"BM".to_vec();
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(w as i32).to_le_bytes());
    out.extend_from_slice(&(h as i32).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&[0; 24]);
    out.resize(size, 200);
    out
}

/// A `w`×`h` GIF, its right half transparent.
fn gif(w: u16, h: u16) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, w, h, &[255, 0, 0, 0, 0, 0]).expect("gif header");
        let pixels: Vec<u8> = (0..h)
            .flat_map(|_| (0..w).map(move |x| u8::from(x >= w / 2)))
            .collect();
        let frame = gif::Frame {
            width: w,
            height: h,
            buffer: pixels.into(),
            transparent: Some(1),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame).expect("gif frame");
    }
    out
}

fn images(page: &Page) -> Vec<(Point, &ImageItem)> {
    page.items
        .iter()
        .filter_map(|p| {
            if let Item::Image(i) = &p.item {
                Some((p.pos, i))
            } else {
                None
            }
        })
        .collect()
}

fn shapes(page: &Page) -> Vec<(Point, &ShapeItem)> {
    page.items
        .iter()
        .filter_map(|p| {
            if let Item::Shape(s) = &p.item {
                Some((p.pos, s))
            } else {
                None
            }
        })
        .collect()
}

/// Text runs: left x, baseline y, the run.
fn texts(page: &Page) -> Vec<(f64, f64, &TextItem)> {
    page.items
        .iter()
        .filter_map(|p| {
            if let Item::Text(t) = &p.item {
                Some((p.pos.x.0, p.pos.y.0, t))
            } else {
                None
            }
        })
        .collect()
}

fn words(n: usize) -> String {
    "the quick brown fox jumps over a lazy dog ".repeat(n)
}

#[test]
fn lines_beside_a_square_wrapped_picture_are_shorter_and_do_not_overlap_it() {
    let drawing = anchor(
        0.0,
        0.0,
        144.0,
        108.0,
        r#"<wp:wrapSquare wrapText="bothSides"/>"#,
        &pic(144.0, 108.0, ""),
    );
    let body = format!(
        r#"<w:p><w:r>{drawing}</w:r><w:r><w:t>{}</w:t></w:r></w:p>{LETTER}"#,
        words(30)
    );
    let pages = pages(&docx_with_image(&body, "image1.png", &png(4, 3)));
    let page = &pages[0];
    let (at, image) = images(page)[0];
    assert_eq!(
        (at.x.0, at.y.0),
        (72.0, 72.0),
        "at the margin and the paragraph top"
    );
    let (bottom, right) = (at.y.0 + image.size.height.0, at.x.0 + image.size.width.0);
    let t = texts(page);
    let beside: Vec<_> = t.iter().filter(|(_, y, _)| *y < bottom).collect();
    assert!(
        beside.len() >= 5,
        "several lines run beside the picture: {}",
        beside.len()
    );
    for (x, y, _) in &beside {
        assert!(
            *x >= right + 9.0 - 0.01,
            "a line at y {y} starts at {x}, inside the picture or its distance"
        );
    }
    let below: Vec<_> = t.iter().filter(|(_, y, _)| *y > bottom + 14.0).collect();
    assert!(
        !below.is_empty() && below.iter().all(|(x, _, _)| (x - 72.0).abs() < 0.01),
        "full lines below"
    );
}

#[test]
fn a_top_and_bottom_picture_keeps_the_text_off_its_band() {
    let drawing = anchor(
        100.0,
        30.0,
        200.0,
        100.0,
        "<wp:wrapTopAndBottom/>",
        &pic(200.0, 100.0, ""),
    );
    let body = format!(
        r#"<w:p><w:r>{drawing}</w:r><w:r><w:t>{}</w:t></w:r></w:p>{LETTER}"#,
        words(40)
    );
    let pages = pages(&docx_with_image(&body, "image1.png", &png(4, 2)));
    let page = &pages[0];
    let (at, image) = images(page)[0];
    let (top, bottom) = (at.y.0, at.y.0 + image.size.height.0);
    let t = texts(page);
    assert!(
        t.iter().any(|(_, y, _)| *y < top),
        "the first lines stay above it"
    );
    assert!(
        t.iter().any(|(_, y, _)| *y > bottom),
        "the rest goes below it"
    );
    // A line's glyphs reach about 2 pt below the baseline and 9 pt above it at 11 pt.
    assert!(
        t.iter()
            .all(|(_, y, _)| *y - 9.0 > bottom || *y + 2.0 < top),
        "no line in the band {top}–{bottom}"
    );
}

#[test]
fn a_filled_rectangle_shape_is_drawn_with_its_text_inside() {
    let shape = format!(
        r#"<w:drawing><wp:anchor {NS} distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>{}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>{}</wp:posOffset></wp:positionV><wp:extent cx="{}" cy="{}"/><wp:wrapNone/><wp:docPr id="2" name="Rectangle 2"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1" cy="1"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill><a:ln w="12700"><a:solidFill><a:srgbClr val="2F528F"/></a:solidFill></a:ln></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>Inside the box</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>"#,
        emu(200.0),
        emu(400.0),
        emu(180.0),
        emu(60.0)
    );
    let body = format!(r#"<w:p><w:r>{shape}</w:r><w:r><w:t>body</w:t></w:r></w:p>{LETTER}"#);
    let pages = pages(&common::docx::docx(&body));
    let page = &pages[0];
    let s = shapes(page);
    assert_eq!(s.len(), 1, "{s:?}");
    let (at, item) = s[0];
    assert_eq!(
        (at.x.0, at.y.0, item.size.width.0, item.size.height.0),
        (200.0, 400.0, 180.0, 60.0)
    );
    assert_eq!(
        (item.kind.clone(), item.fill),
        (ShapeKind::Rect, Some(Rgb(0x44, 0x72, 0xC4)))
    );
    assert_eq!(
        item.stroke,
        Some((Rgb(0x2F, 0x52, 0x8F), docx2pdf::units::Pt(1.0)))
    );
    let inside = texts(page)
        .into_iter()
        .find(|(_, _, t)| t.glyphs.iter().any(|g| g.text == "I"))
        .expect("the text");
    assert!(
        inside.0 > 200.0 && inside.0 < 380.0 && inside.1 > 400.0 && inside.1 < 460.0,
        "{:?}",
        (inside.0, inside.1)
    );
}

/// A `wps:wsp` text box `w`×`h` points at (`x`, `y`) in a group, or alone (no offset),
/// filled with `fill` (e.g. `<a:solidFill><a:srgbClr val="EEEEEE"/></a:solidFill>` or
/// `<a:noFill/>`), holding `text`.
fn text_frame(x: f64, y: f64, w: f64, h: f64, fill: &str, text: &str) -> String {
    format!(
        r#"<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="{}" y="{}"/><a:ext cx="{}" cy="{}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>{fill}<a:ln><a:noFill/></a:ln></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>"#,
        emu(x),
        emu(y),
        emu(w),
        emu(h)
    )
}

#[test]
fn an_inline_text_box_keeps_its_room_in_the_line_and_draws_its_text_in_it() {
    // `wp:inline` (§20.4.2.8): the box is a character of its line, 100 pt tall.
    let frame = text_frame(0.0, 0.0, 200.0, 100.0, r#"<a:solidFill><a:srgbClr val="EEEEEE"/></a:solidFill>"#, "Boxed code");
    let inline = format!(
        r#"<w:p><w:r><w:drawing><wp:inline {NS} distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{}" cy="{}"/><wp:docPr id="4" name="Text Box 4"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">{frame}</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
        emu(200.0),
        emu(100.0)
    );
    let after = r#"<w:p><w:r><w:t>After the box</w:t></w:r></w:p>"#;
    let laid = |body: &str| pages(&common::docx::docx(&format!("{body}{after}{LETTER}")));
    let baseline = |page: &Page| {
        texts(page).iter().find(|(_, _, t)| t.glyphs.iter().any(|g| g.text == "A")).map(|(_, y, _)| *y).expect("the text after")
    };
    let with_box = laid(&inline);
    let page = &with_box[0];
    let moved = baseline(page) - baseline(&laid(r#"<w:p/>"#)[0]);
    assert!((85.0..100.5).contains(&moved), "moved by {moved}");
    let s = shapes(page);
    assert_eq!(s.len(), 1, "{s:?}");
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    let (at, item) = s[0];
    assert!(near(at.x.0, 72.0) && near(at.y.0, 72.0) && near(item.size.width.0, 200.0) && near(item.size.height.0, 100.0), "{at:?} {:?}", item.size);
    let (x, y, _) = texts(page).into_iter().find(|(_, _, t)| t.glyphs.iter().any(|g| g.text == "B")).expect("the box's text");
    // Inside the default insets (7.2 pt, 3.6 pt), above the text after it.
    assert!(near(x, 72.0 + 7.2) && y > 72.0 + 3.6 && y < 72.0 + 30.0, "({x}, {y})");
}

#[test]
fn a_square_wrapped_group_of_text_frames_as_wide_as_the_column_keeps_the_text_below_it() {
    // A caption group: two text frames without fill or line, which draw nothing of their
    // own; the group wraps square across the whole column (§20.4.2.17), so no text fits
    // beside it and the lines go below it.
    let group = format!(
        r#"<wpg:wgp><wpg:cNvGrpSpPr/><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{w}" cy="{h}"/><a:chOff x="0" y="0"/><a:chExt cx="{w}" cy="{h}"/></a:xfrm></wpg:grpSpPr>{}{}</wpg:wgp>"#,
        text_frame(0.0, 0.0, 234.0, 120.0, "<a:noFill/>", "Left caption"),
        text_frame(234.0, 0.0, 234.0, 120.0, "<a:noFill/>", "Right caption"),
        w = emu(468.0),
        h = emu(120.0)
    );
    let drawing = anchor(0.0, 0.0, 468.0, 120.0, r#"<wp:wrapSquare wrapText="bothSides"/>"#, &group);
    let body = format!(r#"<w:p><w:r>{drawing}</w:r><w:r><w:t>{}</w:t></w:r></w:p><w:p><w:r><w:t>{}</w:t></w:r></w:p>{LETTER}"#, words(8), words(8));
    let pages = pages(&common::docx::docx(&body));
    let t = texts(&pages[0]);
    let captions: Vec<_> = t.iter().filter(|(_, _, x)| x.glyphs.iter().any(|g| g.text == "L" || g.text == "R")).collect();
    assert_eq!(captions.len(), 2, "both captions drawn");
    let body_lines: Vec<_> = t.iter().filter(|(_, _, x)| x.glyphs.iter().any(|g| g.text == "q")).collect();
    assert!(!body_lines.is_empty());
    assert!(body_lines.iter().all(|(_, y, _)| *y > 72.0 + 120.0), "{:?}", body_lines.iter().map(|l| l.1).collect::<Vec<_>>());
}

#[test]
fn a_group_places_its_shapes_from_child_coordinates() {
    let child = |x: i64, prst: &str, color: &str| {
        format!(
            r#"<wps:wsp><wps:cNvSpPr/><wps:spPr><a:xfrm><a:off x="{x}" y="0"/><a:ext cx="1000" cy="500"/></a:xfrm><a:prstGeom prst="{prst}"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="{color}"/></a:solidFill><a:ln><a:noFill/></a:ln></wps:spPr><wps:bodyPr/></wps:wsp>"#
        )
    };
    let group = format!(
        r#"<w:drawing><wp:anchor {NS} distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>{}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>{}</wp:posOffset></wp:positionV><wp:extent cx="{}" cy="{}"/><wp:wrapNone/><wp:docPr id="3" name="Group 3"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><wpg:wgp><wpg:cNvGrpSpPr/><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{}" cy="{}"/><a:chOff x="0" y="0"/><a:chExt cx="3000" cy="500"/></a:xfrm></wpg:grpSpPr>{}{}</wpg:wgp></a:graphicData></a:graphic></wp:anchor></w:drawing>"#,
        emu(100.0),
        emu(300.0),
        emu(300.0),
        emu(50.0),
        emu(300.0),
        emu(50.0),
        child(0, "ellipse", "FF0000"),
        child(2000, "roundRect", "00FF00")
    );
    let body = format!(r#"<w:p><w:r>{group}</w:r></w:p>{LETTER}"#);
    let pages = pages(&common::docx::docx(&body));
    let s = shapes(&pages[0]);
    assert_eq!(s.len(), 2, "{s:?}");
    // 3000 child units span 300 pt: a 1000-unit child is 100 pt wide.
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    assert!(near(s[0].0.x.0, 100.0) && near(s[0].0.y.0, 300.0) && near(s[0].1.size.width.0, 100.0));
    assert_eq!(
        (s[0].1.kind.clone(), s[0].1.fill, s[0].1.stroke),
        (ShapeKind::Ellipse, Some(Rgb(255, 0, 0)), None)
    );
    assert!(near(s[1].0.x.0, 300.0) && matches!(s[1].1.kind, ShapeKind::RoundRect(_)));
}

#[test]
fn a_cropped_picture_keeps_its_crop_and_is_stored_once() {
    let drawing = anchor(
        0.0,
        0.0,
        100.0,
        50.0,
        "<wp:wrapNone/>",
        &pic(100.0, 50.0, r#"<a:srcRect l="25000" b="10000"/>"#),
    );
    let body = format!(r#"<w:p><w:r>{drawing}</w:r><w:r>{drawing}</w:r></w:p>{LETTER}"#);
    let bytes = docx_with_image(&body, "image1.png", &png(8, 8));
    let laid = pages(&bytes);
    let (_, image) = images(&laid[0])[0];
    assert_eq!(
        (image.crop.left, image.crop.bottom, image.crop.top),
        (0.25, 0.1, 0.0)
    );
    let pdf = convert(&common::renderer(), &bytes, &Deadline::none())
        .expect("conversion")
        .pdf;
    let listed = pdf::images(&pdf);
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0][10], listed[1][10], "one image object");
}

/// Converts a body showing the picture `name` inline and returns `pdfimages -list`.
fn pdf_images_of(name: &str, image: &[u8]) -> Vec<Vec<String>> {
    let body = format!(
        r#"<w:p><w:r>{}</w:r></w:p>{LETTER}"#,
        common::docx::inline_picture(100, 50)
    );
    let out = convert(
        &common::renderer(),
        &docx_with_image(&body, name, image),
        &Deadline::none(),
    )
    .expect("conversion");
    assert!(
        out.warnings.iter().all(|w| w.kind != "picture_placeholder"),
        "{:?}",
        out.warnings
    );
    pdf::images(&out.pdf)
}

#[test]
fn a_bmp_picture_is_drawn_at_its_pixel_size() {
    let listed = pdf_images_of("image1.bmp", &bmp(6, 4));
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(&listed[0][..6], ["1", "0", "image", "6", "4", "rgb"]);
}

#[test]
fn a_gif_picture_is_drawn_with_its_transparency() {
    let listed = pdf_images_of("image1.gif", &gif(8, 2));
    assert_eq!(listed.len(), 2, "the image and its soft mask: {listed:?}");
    assert_eq!(&listed[0][2..5], ["image", "8", "2"]);
    assert_eq!(listed[1][2], "smask");
}

#[test]
fn a_tiff_picture_is_drawn() {
    let mut tiff = std::io::Cursor::new(Vec::new());
    tiff::encoder::TiffEncoder::new(&mut tiff)
        .expect("tiff header")
        .write_image::<tiff::encoder::colortype::RGB8>(5, 3, &[90; 45])
        .expect("tiff image");
    let listed = pdf_images_of("image1.tif", tiff.get_ref());
    assert_eq!(&listed[0][2..5], ["image", "5", "3"]);
}

#[test]
fn inline_word_art_keeps_its_room_in_the_line() {
    // VML WordArt is not drawn, but Word sets its shape in the line all the same: the
    // paragraph after a 100 pt tall one stands 100 pt lower, less the empty line it takes
    // the place of, than after an empty paragraph.
    let art = r##"<w:p><w:r><w:pict><v:shape style="width:200pt;height:100pt" fillcolor="#dcebf5"><v:textpath on="t" string="Title"/></v:shape></w:pict></w:r></w:p>"##;
    let after = r#"<w:p><w:r><w:t>After the title</w:t></w:r></w:p>"#;
    let baseline = |body: &str| {
        let pages = pages(&common::docx::docx(&format!("{body}{after}{LETTER}")));
        texts(&pages[0]).iter().find(|(_, _, t)| t.glyphs.iter().any(|g| g.text == "A")).map(|(_, y, _)| *y).expect("the text after")
    };
    let with_art = baseline(art);
    let without = baseline(r#"<w:p/>"#);
    let moved = with_art - without;
    assert!((80.0..100.0).contains(&moved), "moved by {moved}");
}

#[test]
fn a_picture_floating_in_a_table_cell_is_placed_in_the_cell_and_the_row_holds_it() {
    // Word lays a `layoutInCell` picture out in its cell: 20 pt from the cell's text area
    // (the cell at the margin, 5.4 pt of cell margin) and 6 pt below its paragraph's top.
    let drawing = anchor(20.0, 6.0, 72.0, 90.0, r#"<wp:wrapSquare wrapText="bothSides"/>"#, &pic(72.0, 90.0, ""));
    let cell = |content: &str| format!(r#"<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr><w:p>{content}</w:p></w:tc>"#);
    let body = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="8000" w:type="dxa"/><w:tblInd w:w="108" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/><w:gridCol w:w="4000"/></w:tblGrid><w:tr>{}{}</w:tr></w:tbl><w:p><w:r><w:t>After the table</w:t></w:r></w:p>{LETTER}"#,
        cell(&format!(r#"<w:r>{drawing}</w:r><w:r><w:t>Logo</w:t></w:r>"#)),
        cell("<w:r><w:t>Title</w:t></w:r>")
    );
    let pages = pages(&docx_with_image(&body, "image1.png", &png(4, 3)));
    let page = &pages[0];
    let found = images(page);
    assert_eq!(found.len(), 1, "the picture is drawn");
    let (at, image) = found[0];
    assert!((at.x.0 - (72.0 + 5.4 + 20.0)).abs() < 0.01, "x {}", at.x.0);
    assert!((at.y.0 - (72.0 + 6.0)).abs() < 0.01, "y {}", at.y.0);
    // The row grows to hold the picture, which text wraps around: the next paragraph
    // starts below it.
    let after = texts(page).into_iter().find(|(_, _, t)| t.glyphs.iter().any(|g| g.text == "A")).expect("the paragraph after");
    assert!(after.1 > at.y.0 + image.size.height.0, "after the table at {}", after.1);
}

/// One pixel limit: a GIF, a BMP or a TIFF of more pixels than the package limit
/// (`--max-image-pixels`) is drawn as a placeholder, as a PNG is refused, whatever the
/// format; at the default limit the same picture is drawn.
#[test]
fn the_package_pixel_limit_holds_for_pictures_of_every_format() {
    use docx2pdf::docx::PackageLimits;
    use docx2pdf::render::{convert_with, Renderer};
    let body = format!(r#"<w:p><w:r>{}</w:r></w:p>{LETTER}"#, common::docx::inline_picture(100, 50));
    let small = PackageLimits { max_image_pixels: 10, ..PackageLimits::default() };
    let limited = Renderer { limits: small, ..Renderer::new(&[], PackageLimits::default()) };
    for (name, image) in [("image1.gif", gif(8, 2)), ("image1.bmp", bmp(6, 4))] {
        let bytes = docx_with_image(&body, name, &image);
        let out = convert_with(&limited, &bytes, &Deadline::none(), Default::default()).expect("conversion");
        let placeholder = out.warnings.iter().find(|w| w.kind == "picture_placeholder");
        assert!(placeholder.is_some_and(|w| w.message.contains("larger than 10 pixels")), "{name}: {:?}", out.warnings);
        assert!(pdf::images(&out.pdf).is_empty(), "{name}: no image drawn");
        let default = convert(&common::renderer(), &bytes, &Deadline::none()).expect("conversion");
        assert!(!pdf::images(&default.pdf).is_empty(), "{name}: drawn under the default limit");
    }
}
