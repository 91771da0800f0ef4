//! Drawings the reader draws itself, on DOCX files the tests build: charts without a
//! fallback picture from their chart part (DrawingML Charts §21.2), SmartArt from the drawing
//! part saved with it, and the text of metafile pictures; a column chart's bars, axis labels
//! and legend, a pie's slices, a diagram's boxes with their text, an EMF's words over the
//! picture, checked on the laid-out frames.

mod common;

use common::docx::{docx_with_image, docx_with_rels, inline_picture};
use common::layout::{lay_out, pages};
use docx2pdf::layout::frame::{Item, Page, Point, Rgb, ShapeItem, ShapeKind};

/// Letter, one-inch margins: the body starts at x = 72, y = 72.
const LETTER: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// A paragraph holding an inline chart 360 × 216 pt drawn from relationship `rIdChart`.
fn chart_paragraph() -> String {
    r#"<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0"><wp:extent cx="4572000" cy="2743200"/><wp:docPr id="1" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#.to_owned()
}

/// A series named `name` with values for the categories North, South, East.
fn series(index: usize, name: &str, values: [f64; 3]) -> String {
    let cats: String = ["North", "South", "East"]
        .iter()
        .enumerate()
        .map(|(i, c)| format!(r#"<c:pt idx="{i}"><c:v>{c}</c:v></c:pt>"#))
        .collect();
    let vals: String = values.iter().enumerate().map(|(i, v)| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#)).collect();
    format!(
        r#"<c:ser><c:idx val="{index}"/><c:order val="{index}"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>{name}</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/>{cats}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/>{vals}</c:numCache></c:numRef></c:val></c:ser>"#
    )
}

/// A chart part with `plot` (e.g. a `c:barChart`), a title and a legend at the bottom.
fn chart_xml(title: &str, plot: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>{title}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/><c:plotArea><c:layout/>{plot}<c:catAx><c:axId val="1"/><c:delete val="0"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:majorGridlines/></c:valAx></c:plotArea><c:legend><c:legendPos val="b"/></c:legend></c:chart></c:chartSpace>"#
    )
}

fn document(chart: &str) -> Vec<u8> {
    let body = format!("{}{LETTER}", chart_paragraph());
    docx_with_rels(&body, &[("rIdChart", "chart", "charts/chart1.xml", chart)])
}

fn shapes(page: &Page) -> Vec<(Point, &ShapeItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Shape(s) => Some((p.pos, s)),
            _ => None,
        })
        .collect()
}

/// The Office theme's first two accents, the colours of the first two series.
const BLUE: Rgb = Rgb(0x44, 0x72, 0xC4);
const ORANGE: Rgb = Rgb(0xED, 0x7D, 0x31);

#[test]
fn a_column_chart_draws_bars_to_scale_with_its_axis_labels_title_and_legend() {
    let plot = format!(
        r#"<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>{}{}<c:gapWidth val="150"/><c:axId val="1"/><c:axId val="2"/></c:barChart>"#,
        series(0, "Sales", [4.0, 2.0, 3.0]),
        series(1, "Costs", [1.0, 3.0, 2.0])
    );
    let bytes = document(&chart_xml("Quarterly results", &plot));
    let summary = lay_out(&bytes);
    let page = &summary[0];
    for text in ["Quarterly results", "North", "South", "East", "Sales", "Costs", "0", "1", "4"] {
        assert!(page.find(text).is_some(), "{text:?} in {:?}", page.all_text());
    }
    // The title sits above the plot, the categories left to right below it.
    let title = page.find("Quarterly results").unwrap();
    let (north, south, east) = (page.find("North").unwrap(), page.find("South").unwrap(), page.find("East").unwrap());
    assert!(north.x < south.x && south.x < east.x);
    assert!(title.baseline < north.baseline);
    // The chart box starts at the paragraph: the body's top-left corner.
    let laid = pages(&bytes);
    let all = shapes(&laid[0]);
    let frame = all.first().expect("the chart's frame").0;
    assert!((frame.x.0 - 72.0).abs() < 0.5 && (frame.y.0 - 72.0).abs() < 0.5, "{frame:?}");
    // Bars (wider than the legend keys): three per series, each series in its accent,
    // heights in proportion to values.
    let bars = |color: Rgb| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> = all
            .iter()
            .filter(|(_, s)| s.kind == ShapeKind::Rect && s.fill == Some(color) && s.size.width.0 > 6.0 && s.size.width.0 < 100.0)
            .map(|(p, s)| (p.x.0, s.size.height.0))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    };
    let (sales, costs) = (bars(BLUE), bars(ORANGE));
    assert_eq!(sales.len(), 3, "{all:?}");
    assert_eq!(costs.len(), 3);
    assert!((sales[0].1 / sales[1].1 - 2.0).abs() < 0.01, "4 against 2: {sales:?}");
    assert!((costs[1].1 / costs[0].1 - 3.0).abs() < 0.01, "3 against 1: {costs:?}");
    // Clustered: each Costs bar stands right beside its Sales bar, in its category.
    for (s, c) in sales.iter().zip(&costs) {
        assert!(c.0 > s.0 && c.0 - s.0 < 40.0, "{s:?} {c:?}");
    }
    assert!(north.x < sales[1].0 && sales[1].0 < east.x);
}

#[test]
fn a_pie_draws_one_slice_per_value_in_the_accents_and_lists_the_categories() {
    let plot = format!(r#"<c:pieChart><c:varyColors val="1"/>{}<c:firstSliceAng val="0"/></c:pieChart>"#, series(0, "Share", [1.0, 1.0, 2.0]));
    let bytes = document(&chart_xml("Market", &plot));
    let summary = lay_out(&bytes);
    for text in ["Market", "North", "South", "East"] {
        assert!(summary[0].find(text).is_some(), "{text:?} in {:?}", summary[0].all_text());
    }
    let laid = pages(&bytes);
    let slices: Vec<_> = shapes(&laid[0]).into_iter().filter(|(_, s)| matches!(s.kind, ShapeKind::Polygon(_))).collect();
    assert_eq!(slices.len(), 3);
    assert_eq!(slices[0].1.fill, Some(BLUE));
    assert_eq!(slices[1].1.fill, Some(ORANGE));
    // The half-pie slice (2 of 4) runs from six o'clock back to twelve: as wide as the
    // radius and as tall as the diameter; the quarter slices are a radius square.
    let (w0, h0) = (slices[0].1.size.width.0, slices[0].1.size.height.0);
    let (w2, h2) = (slices[2].1.size.width.0, slices[2].1.size.height.0);
    assert!((w0 - h0).abs() < 1.0, "a quarter: {w0} × {h0}");
    assert!((h2 / w2 - 2.0).abs() < 0.05, "a half: {w2} × {h2}");
    // Every slice is outlined in white.
    assert!(slices.iter().all(|(_, s)| s.stroke.map(|(c, _)| c) == Some(Rgb(255, 255, 255))));
}

#[test]
fn a_chart_part_that_is_missing_leaves_the_placeholder_box() {
    let body = format!("{}{LETTER}", chart_paragraph());
    let bytes = docx_with_rels(&body, &[]);
    let laid = pages(&bytes);
    assert!(shapes(&laid[0]).is_empty());
    assert!(laid[0].items.iter().any(|p| matches!(p.item, Item::Image(_))), "the grey stand-in box");
}

#[test]
fn smart_art_draws_the_shapes_and_text_of_its_drawing_part() {
    let body = format!(
        r#"<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5486400" cy="1270000"/><wp:docPr id="1" name="Diagram 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdData" r:lo="rIdLayout" r:qs="rIdStyle" r:cs="rIdColors"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p><w:p><w:r><w:t>After the diagram</w:t></w:r></w:p>{LETTER}"#
    );
    let data = r#"<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst/><dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rIdDrawing" minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>"#;
    // Two boxes 100 × 50 pt, 150 pt apart, 20 pt down in the drawing, with white 20 pt text.
    let shape = |x: i64, text: &str| {
        format!(
            r#"<dsp:sp><dsp:spPr><a:xfrm><a:off x="{}" y="254000"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></dsp:spPr><dsp:style><a:fontRef idx="minor"><a:srgbClr val="FFFFFF"/></a:fontRef></dsp:style><dsp:txBody><a:bodyPr anchor="ctr"/><a:p><a:pPr algn="ctr"/><a:r><a:rPr sz="2000"/><a:t>{text}</a:t></a:r></a:p></dsp:txBody></dsp:sp>"#,
            x * 12_700
        )
    };
    let drawing = format!(
        r#"<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>{}{}</dsp:spTree></dsp:drawing>"#,
        shape(0, "Plan"),
        shape(150, "Build")
    );
    let bytes = docx_with_rels(
        &body,
        &[
            ("rIdData", "diagramData", "diagrams/data1.xml", data),
            ("rIdDrawing", "diagramDrawing", "diagrams/drawing1.xml", &drawing),
        ],
    );
    let laid = pages(&bytes);
    let boxes: Vec<_> = shapes(&laid[0]).into_iter().filter(|(_, s)| matches!(s.kind, ShapeKind::RoundRect(_))).collect();
    assert_eq!(boxes.len(), 2, "{:?}", shapes(&laid[0]));
    // The drawing starts at the body's corner; each box sits at its offset in it.
    assert!((boxes[0].0.x.0 - 72.0).abs() < 0.5 && (boxes[0].0.y.0 - 92.0).abs() < 0.5, "{:?}", boxes[0].0);
    assert!((boxes[1].0.x.0 - 222.0).abs() < 0.5);
    assert_eq!(boxes[0].1.fill, Some(BLUE));
    // The text is centred in its box, in white, and the next paragraph follows the drawing.
    let summary = lay_out(&bytes);
    let plan = summary[0].find("Plan").expect("the first box's text");
    assert!(plan.x > 72.0 && plan.right < 172.0 && (plan.x - 72.0 - (172.0 - plan.right)).abs() < 1.0, "{plan:?}");
    assert!(plan.baseline > 92.0 && plan.baseline < 142.0);
    assert!(summary[0].find("Build").is_some_and(|b| b.x > 222.0));
    let after = summary[0].find("After the diagram").expect("the next paragraph");
    assert!(after.baseline > 72.0 + 100.0, "{after:?}");
}

/// An EMF whose frame is 100 × 50 mm on a device of one pixel per millimetre, drawing
/// `text` with its baseline at (10, 40) px in a font 10 px high (MS-EMF §2.3.5.8).
fn emf_with_text(text: &str) -> Vec<u8> {
    let record = |kind: u32, body: &[u8]| {
        let mut r = kind.to_le_bytes().to_vec();
        r.extend_from_slice(&((8 + body.len()) as u32).to_le_bytes());
        r.extend_from_slice(body);
        r
    };
    let ints = |v: &[i32]| v.iter().flat_map(|i| i.to_le_bytes()).collect::<Vec<u8>>();
    // Header: bounds, frame (0.01 mm), signature, version, size, records, handles,
    // reserved, description, palette, device size in pixels and in millimetres.
    let mut header = ints(&[0, 0, 100, 50, 0, 0, 10_000, 5_000]);
    header.extend_from_slice(&0x464D_4520u32.to_le_bytes());
    header.extend_from_slice(&ints(&[0x10000, 0, 5, 2, 0, 0, 0, 1000, 1000, 1000, 1000]));
    let mut font = ints(&[1, -10, 0, 0, 0, 400]);
    font.extend_from_slice(&[0; 8]);
    let face: Vec<u8> = "Arial".encode_utf16().chain(std::iter::repeat(0)).take(32).flat_map(|u| u.to_le_bytes()).collect();
    font.extend_from_slice(&face);
    let units: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let mut out = ints(&[0, 0, 100, 50, 1]);
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&ints(&[10, 40, text.encode_utf16().count() as i32, 76, 0, 0, 0, 0, 0, 0]));
    out.extend_from_slice(&units);
    let mut emf = record(1, &header);
    emf.extend(record(82, &font));
    emf.extend(record(37, &ints(&[1])));
    emf.extend(record(22, &ints(&[24])));
    emf.extend(record(84, &out));
    emf.extend(record(14, &ints(&[0, 0, 20])));
    emf
}

#[test]
fn the_words_of_a_metafile_picture_are_set_over_it() {
    let body = format!("<w:p><w:r>{}</w:r></w:p>{LETTER}", inline_picture(200, 100));
    let bytes = docx_with_image(&body, "image1.emf", &emf_with_text("Revenue 2024"));
    let summary = lay_out(&bytes);
    let words = summary[0].find("Revenue 2024").expect("the metafile's text");
    // The picture fills 200 × 100 pt from the body's corner (72, 72): a tenth across and
    // four fifths down, a fifth of its height high.
    assert!((words.x - 92.0).abs() < 0.5, "{words:?}");
    assert!((words.baseline - 152.0).abs() < 0.5, "{words:?}");
    assert!((words.size - 20.0).abs() < 0.1, "{words:?}");
}
