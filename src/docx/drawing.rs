//! Drawings (`w:drawing`, `w:pict`, `w:object`): skipped for now, one warning per kind,
//! but the content of their text boxes (`w:txbxContent`, §17.17.1.1) is kept, with where
//! the drawing says the box goes.

use quick_xml::events::BytesStart;

use super::body::read_blocks;
use super::context::Story;
use super::model::{AnchorPosition, TextBox};
use super::simple_types::int;
use super::xml::{attr, on_off_attr, Ev, XmlReader};
use super::DocxError;
use crate::units::Emu;

/// Which element is being skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DrawingKind {
    /// `w:drawing` (DrawingML, §20.4).
    Drawing,
    /// `w:pict` (VML).
    Pict,
    /// `w:object` (an embedded object with its VML preview).
    Object,
}

/// Which axis a `wp:posOffset`/`wp:align` belongs to.
#[derive(Clone, Copy)]
enum Axis {
    Horizontal,
    Vertical,
}

/// Skips a drawing whose `Start` was just returned. Text-box content found anywhere inside
/// (`wps:txbx/w:txbxContent`, `v:textbox/w:txbxContent`, in groups too) is read as a
/// [`TextBox`] into `story.text_boxes`, for the anchoring paragraph. `mc:AlternateContent`
/// is already resolved by the reader, so a text box with a VML fallback is read once.
pub(crate) fn skip_drawing(xml: &mut XmlReader<'_>, story: &mut Story<'_>, kind: DrawingKind) -> Result<(), DocxError> {
    match kind {
        DrawingKind::Drawing => story.skipped.drawings += 1,
        DrawingKind::Pict => story.skipped.picts += 1,
        DrawingKind::Object => story.skipped.objects += 1,
    }
    // Where the box goes, gathered from the elements before its content.
    let mut frame = Box::<TextBox>::default();
    let mut axis = Axis::Horizontal;
    let mut vml_style_seen = false;
    let mut depth = 0usize;
    loop {
        let e = match xml.next()? {
            Ev::Start(e) => e,
            Ev::End if depth == 0 => return Ok(()),
            Ev::End => {
                depth -= 1;
                continue;
            }
            Ev::Eof => return Ok(()),
            Ev::Text(_) | Ev::CData(_) => continue,
        };
        match e.local_name().as_ref() {
            b"txbxContent" => read_text_box(xml, story, &frame)?,
            // §20.4.2.10/11: the text of these elements is the value.
            b"posOffset" => {
                let offset = int(xml.read_text()?.as_bytes()).map(Emu);
                position(&mut frame, axis).offset = offset;
            }
            b"align" => {
                let align = xml.read_text()?.trim().to_owned();
                position(&mut frame, axis).align = Some(align).filter(|a| !a.is_empty());
            }
            name => {
                depth += 1;
                match name {
                    b"inline" => frame.anchored = false,
                    b"anchor" => {
                        frame.anchored = true;
                        frame.behind_text = on_off_attr(&e, b"behindDoc").unwrap_or(false);
                    }
                    // `wp:extent` (§20.4.2.7); `a:ext` of a transform has another name.
                    b"extent" => frame.extent = emu_pair(&e),
                    b"positionH" | b"positionV" => {
                        axis = if name == b"positionH" {
                            Axis::Horizontal
                        } else {
                            Axis::Vertical
                        };
                        position(&mut frame, axis).relative_from = attr(&e, b"relativeFrom").map(|r| r.into_owned());
                    }
                    // The outermost VML shape's CSS-like `style` places the box.
                    _ if kind != DrawingKind::Drawing && !vml_style_seen => {
                        if let Some(style) = attr(&e, b"style") {
                            vml_style_seen = true;
                            vml_frame(&style, &mut frame);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Reads a `w:txbxContent` whose `Start` was just returned into a text box placed as
/// `frame` says.
#[inline(never)]
fn read_text_box(xml: &mut XmlReader<'_>, story: &mut Story<'_>, frame: &TextBox) -> Result<(), DocxError> {
    // A text box inside this text box belongs to a paragraph of this one, not to the outer
    // paragraph: the outer pending boxes are set aside meanwhile.
    story.enter(xml)?;
    let outer = std::mem::take(&mut story.text_boxes);
    let blocks = read_blocks(xml, story)?;
    story.leave();
    let leftover = std::mem::replace(&mut story.text_boxes, outer);
    story.text_boxes.push(TextBox {
        blocks,
        anchored: frame.anchored,
        extent: frame.extent,
        horizontal: frame.horizontal.clone(),
        vertical: frame.vertical.clone(),
        behind_text: frame.behind_text,
    });
    story.text_boxes.extend(leftover);
    Ok(())
}

fn position(frame: &mut TextBox, axis: Axis) -> &mut AnchorPosition {
    let slot = match axis {
        Axis::Horizontal => &mut frame.horizontal,
        Axis::Vertical => &mut frame.vertical,
    };
    slot.get_or_insert_with(AnchorPosition::default)
}

/// `cx`/`cy` in EMU.
fn emu_pair(e: &BytesStart<'_>) -> Option<(Emu, Emu)> {
    let v = |name: &[u8]| super::xml::attr_raw(e, name).and_then(|v| int(&v)).map(Emu);
    Some((v(b"cx")?, v(b"cy")?))
}

/// A VML shape's `style` (VML §14.1.2.19 in Part 4): `position:absolute` floats the box;
/// `width`, `height`, `margin-left`, `margin-top` and the `mso-position-*-relative` keys
/// size and place it.
fn vml_frame(style: &str, frame: &mut TextBox) {
    let mut width = None;
    let mut height = None;
    for declaration in style.split(';') {
        let Some((key, value)) = declaration.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "position" => frame.anchored = value == "absolute",
            "width" => width = css_length(value),
            "height" => height = css_length(value),
            "margin-left" => position(frame, Axis::Horizontal).offset = css_length(value),
            "margin-top" => position(frame, Axis::Vertical).offset = css_length(value),
            "mso-position-horizontal-relative" => {
                position(frame, Axis::Horizontal).relative_from = Some(value.to_owned())
            }
            "mso-position-vertical-relative" => position(frame, Axis::Vertical).relative_from = Some(value.to_owned()),
            "mso-position-horizontal" => position(frame, Axis::Horizontal).align = Some(value.to_owned()),
            "mso-position-vertical" => position(frame, Axis::Vertical).align = Some(value.to_owned()),
            _ => {}
        }
    }
    if let (Some(w), Some(h)) = (width, height) {
        frame.extent = Some((w, h));
    }
}

/// A CSS length with a unit, in EMU; a bare number (group coordinates) is not a length.
fn css_length(v: &str) -> Option<Emu> {
    let (number, emu_per_unit) = [
        ("pt", 12_700.0),
        ("in", 914_400.0),
        ("cm", 360_000.0),
        ("mm", 36_000.0),
        ("px", 9_525.0),
    ]
    .iter()
    .find_map(|(unit, per)| v.strip_suffix(unit).map(|n| (n, *per)))?;
    let n: f64 = number.trim().parse().ok().filter(|n: &f64| n.is_finite())?;
    Some(Emu((n * emu_per_unit).round() as i64))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::Block;
    use crate::docx::test_support::{paragraph, read_body, texts};
    use crate::units::Emu;

    const TEXT_BOX: &str = r#"<w:p><w:r><w:t>anchor</w:t></w:r><w:r><mc:AlternateContent>
        <mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx>
          <w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent>
        </wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
        <mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>
        </mc:AlternateContent></w:r><w:r><w:t> text</w:t></w:r></w:p><w:p><w:r><w:t>next</w:t></w:r></w:p>"#;

    #[test]
    fn text_box_belongs_to_its_anchor_paragraph_not_the_body() {
        let read = read_body(TEXT_BOX);
        assert_eq!(texts(&read.document.body), ["anchor text", "next"]);
        let Block::Paragraph(p) = &read.document.body[0] else {
            panic!()
        };
        assert_eq!(p.text_boxes.len(), 1);
        assert_eq!(texts(&p.text_boxes[0].blocks), ["in the box"]);
        assert!(p.text_boxes[0].anchored);
    }

    #[test]
    fn anchor_extent_and_position_are_read() {
        let p = paragraph(
            r#"<w:p><w:r><w:drawing><wp:anchor behindDoc="1"><wp:simplePos x="0" y="0"/>
               <wp:positionH relativeFrom="page"><wp:posOffset>914400</wp:posOffset></wp:positionH>
               <wp:positionV relativeFrom="paragraph"><wp:align>top</wp:align></wp:positionV>
               <wp:extent cx="1828800" cy="457200"/><a:graphic><a:graphicData><wps:wsp><wps:spPr><a:xfrm><a:ext cx="1" cy="1"/></a:xfrm></wps:spPr>
               <wps:txbx><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic>
               </wp:anchor></w:drawing></w:r></w:p>"#,
        );
        let b = &p.text_boxes[0];
        assert!(b.anchored && b.behind_text);
        assert_eq!(b.extent, Some((Emu(1_828_800), Emu(457_200))));
        let h = b.horizontal.as_ref().unwrap();
        assert_eq!(
            (h.relative_from.as_deref(), h.offset),
            (Some("page"), Some(Emu(914_400)))
        );
        let v = b.vertical.as_ref().unwrap();
        assert_eq!(
            (v.relative_from.as_deref(), v.align.as_deref()),
            (Some("paragraph"), Some("top"))
        );
    }

    #[test]
    fn inline_text_box_is_not_anchored() {
        let p = paragraph(
            r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="200"/><a:graphic><a:graphicData><wps:wsp><wps:txbx>
               <w:txbxContent><w:p/></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
        );
        assert!(!p.text_boxes[0].anchored);
        assert_eq!(p.text_boxes[0].extent, Some((Emu(100), Emu(200))));
    }

    #[test]
    fn vml_text_box_is_placed_by_its_style() {
        let p = paragraph(
            r#"<w:p><w:r><w:pict><v:shapetype/><v:shape style="position:absolute;margin-left:36pt;margin-top:1in;width:144pt;height:72pt;mso-position-horizontal-relative:page">
               <v:textbox style="mso-fit-shape-to-text:t"><w:txbxContent><w:p><w:r><w:t>vml</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#,
        );
        let b = &p.text_boxes[0];
        assert!(b.anchored);
        assert_eq!(b.extent, Some((Emu(144 * 12_700), Emu(72 * 12_700))));
        let h = b.horizontal.as_ref().unwrap();
        assert_eq!(
            (h.relative_from.as_deref(), h.offset),
            (Some("page"), Some(Emu(36 * 12_700)))
        );
        assert_eq!(b.vertical.as_ref().unwrap().offset, Some(Emu(914_400)));
    }

    #[test]
    fn text_box_of_a_joined_paragraph_moves_with_its_content() {
        let body = r#"<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A"/></w:rPr></w:pPr><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>kept</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>
            <w:p><w:r><w:t>two</w:t></w:r></w:p>"#;
        let p = paragraph(body);
        assert_eq!(crate::docx::test_support::text(&p), "two");
        assert_eq!(texts(&p.text_boxes[0].blocks), ["kept"]);
    }

    #[test]
    fn drawing_is_skipped_with_one_warning_per_kind() {
        let body = format!(
            "{TEXT_BOX}{TEXT_BOX}<w:p><w:r><w:pict><v:rect/></w:pict></w:r><w:r><w:drawing><wp:inline/></w:drawing></w:r></w:p>"
        );
        let read = read_body(&body);
        let kinds: Vec<_> = read.warnings.iter().filter(|w| w.kind == "element_skipped").collect();
        assert_eq!(kinds.len(), 2, "{kinds:?}");
        assert!(kinds[0].message.contains("w:drawing") && kinds[0].message.contains("(3 skipped)"));
        assert!(kinds[1].message.contains("w:pict") && kinds[1].message.contains("(1 skipped)"));
    }

    #[test]
    fn text_box_inside_a_text_box_is_kept_once() {
        let body = r#"<w:p><w:r><w:pict><v:shape><v:textbox><w:txbxContent>
            <w:p><w:r><w:t>outer</w:t></w:r><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>inner</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>
            </w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#;
        let p = paragraph(body);
        assert_eq!(p.text_boxes.len(), 1);
        let outer = &p.text_boxes[0].blocks;
        assert_eq!(texts(outer), ["outer"]);
        let Block::Paragraph(inner) = &outer[0] else { panic!() };
        assert_eq!(inner.text_boxes.len(), 1);
        assert_eq!(texts(&inner.text_boxes[0].blocks), ["inner"]);
    }
}
