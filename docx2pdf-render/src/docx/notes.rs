//! The footnotes and endnotes parts (`w:footnotes`/`w:endnotes`, §17.11.15, §17.11.8):
//! each note's blocks by id, and the separator notes.

use super::body::read_blocks;
use super::context::{Skipped, Story};
use super::media::MediaSource;
use super::model::Notes;
use super::rels::Rels;
use super::xml::{attr, XmlReader};
use super::DocxError;

/// Reads a footnotes or endnotes part. Separators are told apart by `w:type`, never by
/// id: Word writes -1 and 0, other producers 0 and 1 (notes §10).
pub(crate) fn read_notes(
    xml: &mut XmlReader<'_>,
    rels: &Rels,
    skipped: &mut Skipped,
    media: &mut dyn MediaSource,
) -> Result<Notes, DocxError> {
    let mut notes = Notes::default();
    if !xml.enter_root(&[b"footnotes", b"endnotes"])? {
        return Ok(notes);
    }
    let mut story = Story::new(rels, skipped).with_media(media);
    xml.children(|xml, e| {
        if !matches!(e.local_name().as_ref(), b"footnote" | b"endnote") {
            return xml.skip();
        }
        let id = attr(&e, b"id").and_then(|v| v.trim().parse::<i64>().ok());
        let kind = attr(&e, b"type").map(|t| t.into_owned());
        let blocks = read_blocks(xml, &mut story)?;
        match (kind.as_deref(), id) {
            (Some("separator"), _) => notes.separator = Some(blocks),
            (Some("continuationSeparator"), _) => notes.continuation_separator = Some(blocks),
            // `continuationNotice` is the text Word prints under a note that goes on: not
            // shown by Word when empty, and rarely filled in.
            (Some("continuationNotice"), _) | (_, None) => {}
            (_, Some(id)) => {
                notes.notes.insert(id, blocks);
            }
        }
        Ok(())
    })?;
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Block, NoteKind, NoteReference, RunContent};
    use crate::docx::test_support::{zip_of, CONTENT_TYPES, NS, PACKAGE_RELS};
    use crate::docx::{read, PackageLimits};
    use crate::deadline::Deadline;

    const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>
<Relationship Id="rE" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes" Target="endnotes.xml"/>
</Relationships>"#;

    fn package(document: &str, footnotes: &str, endnotes: &str) -> crate::docx::model::Document {
        let document = format!(r#"<w:document {NS}><w:body>{document}</w:body></w:document>"#);
        let footnotes = format!(r#"<w:footnotes {NS}>{footnotes}</w:footnotes>"#);
        let endnotes = format!(r#"<w:endnotes {NS}>{endnotes}</w:endnotes>"#);
        let bytes = zip_of(&[
            ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
            ("_rels/.rels", PACKAGE_RELS.as_bytes()),
            ("word/document.xml", document.as_bytes()),
            ("word/_rels/document.xml.rels", RELS.as_bytes()),
            ("word/footnotes.xml", footnotes.as_bytes()),
            ("word/endnotes.xml", endnotes.as_bytes()),
        ]);
        read(&bytes, &PackageLimits::default(), &Deadline::none()).expect("reads").document
    }

    const SEPARATORS: &str = r#"<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>"#;

    #[test]
    fn notes_are_read_by_id_and_separators_by_type() {
        let notes = format!(
            r#"{SEPARATORS}<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> A note.</w:t></w:r></w:p></w:footnote>"#
        );
        let doc = package("<w:p/>", &notes, "");
        let f = &doc.footnotes;
        assert!(f.separator.is_some() && f.continuation_separator.is_some());
        assert_eq!(f.notes.len(), 1);
        let Block::Paragraph(p) = &f.notes[&1][0] else { panic!("a paragraph") };
        let contents: Vec<&RunContent> = p
            .inlines
            .iter()
            .flat_map(|i| match i {
                crate::docx::model::Inline::Run(r) => r.content.iter().collect(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(contents, [&RunContent::NoteMark, &RunContent::Text(" A note.".into())]);
    }

    #[test]
    fn separators_are_found_by_type_whatever_their_ids() {
        let notes = r#"<w:endnote w:type="separator" w:id="0"><w:p/></w:endnote><w:endnote w:type="continuationSeparator" w:id="1"><w:p/></w:endnote><w:endnote w:id="2"><w:p/></w:endnote>"#;
        let doc = package("<w:p/>", "", notes);
        assert!(doc.endnotes.separator.is_some());
        assert_eq!(doc.endnotes.notes.keys().copied().collect::<Vec<_>>(), [2]);
    }

    #[test]
    fn references_in_the_text_keep_kind_id_and_custom_mark() {
        let body = r#"<w:p><w:r><w:footnoteReference w:id="3"/></w:r><w:r><w:endnoteReference w:customMarkFollows="1" w:id="2"/><w:t>*</w:t></w:r></w:p>"#;
        let doc = package(body, "", "");
        let Block::Paragraph(p) = &doc.body[0] else { panic!("a paragraph") };
        let refs: Vec<NoteReference> = p
            .inlines
            .iter()
            .flat_map(|i| match i {
                crate::docx::model::Inline::Run(r) => r.content.clone(),
                _ => Vec::new(),
            })
            .filter_map(|c| match c {
                RunContent::NoteReference(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(
            refs,
            [
                NoteReference { kind: NoteKind::Footnote, id: 3, custom_mark: false },
                NoteReference { kind: NoteKind::Endnote, id: 2, custom_mark: true },
            ]
        );
    }
}
