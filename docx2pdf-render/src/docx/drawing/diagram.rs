//! SmartArt drawn from the drawing part Word saves beside the diagram's data (`dsp:drawing`,
//! [MS-ODRAWXML] §2.2; reached from the data part's `dsp:dataModelExt@relId`): its shapes
//! already laid out by Word, each with its outline, fill and text. The diagram's layout
//! definition is not run: without a drawing part the diagram stays a placeholder.

use super::label::{self, Piece};
use super::shape::{OpenColor, ShapeReader};
use crate::docx::model::{Align, Block, GroupChild, TextBox};
use crate::docx::simple_types::int;
use crate::docx::xml::{attr, attr_raw, Ev, XmlReader};
use crate::docx::DocxError;
use crate::units::Emu;

/// Word's default text size in a shape: 18 pt (`a:rPr@sz` absent).
const DEFAULT_SIZE: f64 = 18.0;

/// The relationship id of the drawing part, from the data part `xml`
/// (`dgm:dataModel/dgm:extLst/a:ext/dsp:dataModelExt@relId`).
pub(super) fn drawing_rel(xml: &mut XmlReader<'_>) -> Result<Option<String>, DocxError> {
    loop {
        match xml.next()? {
            Ev::Start(e) if e.local_name().as_ref() == b"dataModelExt" => {
                return Ok(attr(&e, b"relId").map(|r| r.into_owned()).filter(|r| !r.is_empty()))
            }
            Ev::Eof => return Ok(None),
            _ => {}
        }
    }
}

/// What the drawing part holds: shapes in the group's box and their text boxes.
pub(super) struct Diagram {
    pub shapes: Vec<GroupChild>,
    pub labels: Vec<TextBox>,
}

/// A shape's text, gathered while it is read.
#[derive(Default)]
struct Text {
    paragraphs: Vec<Block>,
    pieces: Vec<Piece>,
    align: Option<Align>,
    line_pct: f64,
    /// The run being read: its size, colour and boldness.
    size: Option<f64>,
    color: Option<(u8, u8, u8)>,
    bold: bool,
    /// `dsp:style/a:fontRef`'s colour, for runs without their own.
    font_color: Option<(u8, u8, u8)>,
    /// `a:bodyPr@anchor` and insets (§21.1.2.1.1; 0.1 in and 0.05 in by default).
    anchor: String,
    insets: [Emu; 4],
    /// `dsp:txXfrm`: where the text goes, when it differs from the shape.
    text_box: Option<((Emu, Emu), (Emu, Emu))>,
}

/// Reads the drawing part `xml` for a drawing of `frame`'s box.
pub(super) fn read_diagram(xml: &mut XmlReader<'_>, frame: &TextBox) -> Result<Option<Diagram>, DocxError> {
    if !xml.enter_root(&[b"drawing"])? {
        return Ok(None);
    }
    let extent = frame.extent.unwrap_or_default();
    let palette = xml.palette();
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut shapes = ShapeReader::default();
    let mut text = Text::default();
    let mut out = Diagram { shapes: Vec::new(), labels: Vec::new() };
    // The colour being read: a run's `a:solidFill` (false) or `a:fontRef` (true).
    let mut color: Option<OpenColor<bool>> = None;
    loop {
        let e = match xml.next()? {
            Ev::Start(e) => e,
            Ev::End => {
                let Some(name) = stack.pop() else { break };
                if let Some((font_ref, rgb)) = OpenColor::close(&mut color, stack.len() + 1) {
                    if font_ref {
                        text.font_color = Some(rgb);
                    } else {
                        text.color = Some(rgb);
                    }
                }
                match name.as_slice() {
                    b"p" if stack.last().is_some_and(|p| p == b"txBody") => {
                        let pieces = std::mem::take(&mut text.pieces);
                        let align = text.align.take().unwrap_or(Align::Left);
                        let line = if text.line_pct > 0.0 { text.line_pct } else { 1.0 };
                        text.paragraphs.push(label::paragraph(pieces, align, line));
                    }
                    b"sp" => finish_shape(&mut shapes, &mut text, extent, frame, &mut out),
                    b"spTree" | b"grpSp" => shapes.end_group(),
                    _ => {}
                }
                continue;
            }
            Ev::Eof => break,
            _ => continue,
        };
        let name = e.local_name().as_ref().to_vec();
        let parent = stack.last().map(Vec::as_slice).unwrap_or_default();
        let in_text = stack.iter().any(|s| s == b"txBody");
        match name.as_slice() {
            b"spTree" | b"grpSp" => shapes.begin_group(),
            b"sp" => {
                shapes.begin_shape();
                text = Text {
                    anchor: "t".to_owned(),
                    insets: [Emu(91_440), Emu(45_720), Emu(91_440), Emu(45_720)],
                    ..Text::default()
                };
            }
            b"bodyPr" => {
                let inset = |n: &[u8], d: Emu| attr_raw(&e, n).and_then(|v| int(&v)).map_or(d, Emu);
                let d = text.insets;
                text.insets = [inset(b"lIns", d[0]), inset(b"tIns", d[1]), inset(b"rIns", d[2]), inset(b"bIns", d[3])];
                if let Some(a) = attr(&e, b"anchor") {
                    text.anchor = a.into_owned();
                }
            }
            b"pPr" if in_text => {
                text.align = attr_raw(&e, b"algn").map(|a| match a.as_ref() {
                    b"ctr" => Align::Center,
                    b"r" => Align::Right,
                    b"just" | b"dist" => Align::Both,
                    _ => Align::Left,
                });
            }
            // `a:lnSpc/a:spcPct` in 1,000ths of a percent.
            b"spcPct" if parent == b"lnSpc" => {
                text.line_pct = attr_raw(&e, b"val").and_then(|v| int(&v)).map_or(1.0, |v| v as f64 / 100_000.0)
            }
            b"rPr" | b"endParaRPr" if in_text => {
                text.size = attr_raw(&e, b"sz").and_then(|v| int(&v)).map(|v| (v as f64 / 100.0).clamp(1.0, 400.0));
                text.bold = attr_raw(&e, b"b").is_some_and(|b| b.as_ref() == b"1");
                text.color = None;
            }
            b"t" if in_text => {
                let t = xml.read_text()?;
                text.pieces.push(Piece {
                    text: t,
                    size: text.size.unwrap_or(DEFAULT_SIZE),
                    color: text.color.or(text.font_color).unwrap_or((0, 0, 0)),
                    bold: text.bold,
                });
                continue;
            }
            b"off" | b"ext" if parent == b"txXfrm" => {
                let v = |a: &[u8]| attr_raw(&e, a).and_then(|v| int(&v)).map(Emu);
                let slot = text.text_box.get_or_insert(((Emu(0), Emu(0)), (Emu(0), Emu(0))));
                if name == b"off" {
                    slot.0 = (v(b"x").unwrap_or(Emu(0)), v(b"y").unwrap_or(Emu(0)));
                } else {
                    slot.1 = (v(b"cx").unwrap_or(Emu(0)), v(b"cy").unwrap_or(Emu(0)));
                }
            }
            b"srgbClr" | b"schemeClr" | b"sysClr" | b"prstClr"
                if (parent == b"solidFill" && stack.iter().any(|s| s == b"rPr")) || parent == b"fontRef" =>
            {
                color = OpenColor::start(parent == b"fontRef", &name, &e, palette, stack.len() + 1);
            }
            b"lumMod" | b"lumOff" | b"tint" | b"shade" => OpenColor::modify(&mut color, &name, &e),
            _ => {}
        }
        if !in_text {
            shapes.element(&name, &e, &stack, palette);
        }
        stack.push(name);
    }
    Ok((!out.shapes.is_empty() || !out.labels.is_empty()).then_some(out))
}

/// Adds the shape just read, and its text, to the group.
fn finish_shape(shapes: &mut ShapeReader, text: &mut Text, extent: (Emu, Emu), frame: &TextBox, out: &mut Diagram) {
    let Some((offset, size)) = shapes.box_in_group(extent) else { return };
    if let Some(style) = shapes.style() {
        out.shapes.push(GroupChild { offset, extent: size, style });
    }
    let paragraphs = std::mem::take(&mut text.paragraphs);
    let has_text = paragraphs.iter().any(|b| match b {
        Block::Paragraph(p) => !p.inlines.is_empty(),
        Block::Table(_) => true,
    });
    if !has_text {
        return;
    }
    // The text box is in the drawing's coordinates like the shape: scale it the same way.
    let (tx_offset, tx_size) = match text.text_box {
        Some(((x, y), (w, h))) if w.0 > 0 && h.0 > 0 => {
            let own = shapes.own_box().unwrap_or(((x, y), (w, h)));
            let sx = if own.1 .0 .0 > 0 { size.0 .0 as f64 / own.1 .0 .0 as f64 } else { 1.0 };
            let sy = if own.1 .1 .0 > 0 { size.1 .0 as f64 / own.1 .1 .0 as f64 } else { 1.0 };
            let at = |v: Emu, from: Emu, to: Emu, s: f64| Emu(to.0 + ((v.0 - from.0) as f64 * s).round() as i64);
            (
                (at(x, own.0 .0, offset.0, sx), at(y, own.0 .1, offset.1, sy)),
                (Emu((w.0 as f64 * sx) as i64), Emu((h.0 as f64 * sy) as i64)),
            )
        }
        _ => (offset, size),
    };
    let insets = if text.text_box.is_some() { [Emu(0); 4] } else { text.insets };
    out.labels.push(label::text_box(frame, tx_offset, tx_size, paragraphs, &text.anchor, insets));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deadline::Deadline;

    #[test]
    fn the_data_part_names_its_drawing() {
        let xml = r#"<dgm:dataModel xmlns:dgm="d" xmlns:a="a" xmlns:dsp="s"><dgm:ptLst/><dgm:extLst><a:ext uri="x"><dsp:dataModelExt relId="rId8" minVer="m"/></a:ext></dgm:extLst></dgm:dataModel>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/diagrams/data1.xml", 64, &deadline);
        assert_eq!(drawing_rel(&mut r).unwrap().as_deref(), Some("rId8"));
    }

    #[test]
    fn shapes_and_their_text_are_read_in_the_drawing_box() {
        let xml = r#"<dsp:drawing xmlns:dsp="s" xmlns:a="a"><dsp:spTree><dsp:grpSpPr/>
            <dsp:sp><dsp:spPr><a:xfrm><a:off x="100" y="200"/><a:ext cx="1000" cy="500"/></a:xfrm><a:prstGeom prst="roundRect"/><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></dsp:spPr>
            <dsp:style><a:fontRef idx="minor"><a:srgbClr val="FFFFFF"/></a:fontRef></dsp:style>
            <dsp:txBody><a:bodyPr anchor="ctr"/><a:p><a:pPr algn="ctr"/><a:r><a:rPr sz="2200"/><a:t>From here</a:t></a:r></a:p></dsp:txBody></dsp:sp>
            </dsp:spTree></dsp:drawing>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/diagrams/drawing1.xml", 64, &deadline);
        let frame = TextBox { extent: Some((Emu(2000), Emu(1000))), ..TextBox::default() };
        let d = read_diagram(&mut r, &frame).unwrap().expect("a diagram");
        assert_eq!(d.shapes.len(), 1);
        assert_eq!(d.shapes[0].offset, (Emu(100), Emu(200)));
        assert_eq!(d.shapes[0].extent, (Emu(1000), Emu(500)));
        assert_eq!(d.labels.len(), 1);
        assert_eq!(d.labels[0].group_offset, (Emu(100), Emu(200)));
        assert_eq!(d.labels[0].text_anchor.as_deref(), Some("ctr"));
        let Block::Paragraph(p) = &d.labels[0].blocks[0] else { panic!("a paragraph") };
        assert_eq!(p.props.align, Some(Align::Center));
        let crate::docx::model::Inline::Run(run) = &p.inlines[0] else { panic!("a run") };
        assert_eq!(run.props.size, Some(crate::units::HalfPoints(44)));
        assert_eq!(run.props.color, Some(crate::docx::model::Color::Rgb(255, 255, 255)));
    }
}
