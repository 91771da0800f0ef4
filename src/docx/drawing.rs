//! Drawings (`w:drawing`, `w:pict`, `w:object`): skipped for now, one warning per kind,
//! but the paragraphs of their text boxes (`w:txbxContent`, §17.17.1.1) are kept.

use super::body::read_blocks;
use super::context::Story;
use super::xml::{Ev, XmlReader};
use super::DocxError;

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

/// Skips a drawing whose `Start` was just returned. Text-box content found anywhere inside
/// (`wps:txbx/w:txbxContent`, `v:textbox/w:txbxContent`, in groups too) is read as blocks
/// into `story.text_boxes`, to follow the anchoring paragraph. `mc:AlternateContent` is
/// already resolved by the reader, so a text box with a VML fallback is read once.
pub(crate) fn skip_drawing(xml: &mut XmlReader<'_>, story: &mut Story<'_>, kind: DrawingKind) -> Result<(), DocxError> {
    match kind {
        DrawingKind::Drawing => story.skipped.drawings += 1,
        DrawingKind::Pict => story.skipped.picts += 1,
        DrawingKind::Object => story.skipped.objects += 1,
    }
    let mut depth = 0usize;
    loop {
        match xml.next()? {
            Ev::Start(e) if e.local_name().as_ref() == b"txbxContent" => {
                // A text box inside this text box must not collect the outer ones.
                story.enter(xml)?;
                let outer = std::mem::take(&mut story.text_boxes);
                let blocks = read_blocks(xml, story)?;
                story.leave();
                story.text_boxes = outer;
                story.text_boxes.extend(blocks);
            }
            Ev::Start(_) => depth += 1,
            Ev::End if depth == 0 => return Ok(()),
            Ev::End => depth -= 1,
            Ev::Eof => return Ok(()),
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::test_support::{read_body, texts};

    const TEXT_BOX: &str = r#"<w:p><w:r><w:t>anchor</w:t></w:r><w:r><mc:AlternateContent>
        <mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx>
          <w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent>
        </wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
        <mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>
        </mc:AlternateContent></w:r><w:r><w:t> text</w:t></w:r></w:p><w:p><w:r><w:t>next</w:t></w:r></w:p>"#;

    #[test]
    fn text_box_paragraphs_follow_their_anchor() {
        let read = read_body(TEXT_BOX);
        assert_eq!(texts(&read.document.body), ["anchor text", "in the box", "next"]);
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
        let read = read_body(body);
        assert_eq!(texts(&read.document.body), ["", "outer", "inner"]);
    }
}
