//! Block-level content (§17.3.1, §17.4): the body, table cells, headers, footers and text
//! boxes hold paragraphs and tables, inside transparent containers (`w:sdt`,
//! `w:customXml`).

use quick_xml::events::BytesStart;

use super::context::Story;
use super::model::{Block, Inline, Paragraph, SectionProps};
use super::paragraph::read_paragraph;
use super::section::read_section;
use super::table::read_table;
use super::xml::{attr, Ev, XmlReader};
use super::DocxError;

/// Collects the blocks of one container as its children arrive.
#[derive(Default)]
pub(crate) struct Blocks {
    blocks: Vec<Block>,
    /// Transparent containers open inside this one.
    open: usize,
    /// A paragraph whose mark is a tracked deletion: in the final view its content joins
    /// the next paragraph (§17.13.5.15).
    carried: Option<Box<Paragraph>>,
    /// `w:bookmarkStart` between blocks, given to the next paragraph.
    bookmarks: Vec<String>,
    /// The level of [`Blocks::open`] at which a table-of-contents content control is open.
    toc_at: Option<usize>,
}

impl Blocks {
    /// Whether the child being handled sits directly in the container (not in an `w:sdt`).
    pub(crate) fn at_top(&self) -> bool {
        self.open == 0
    }

    /// Handles a child element whose `Start` was just returned. Each arm is its own
    /// function: in a debug build a frame holds every arm's temporaries, and this one sits
    /// on the recursion path of nested tables.
    pub(crate) fn start(
        &mut self,
        xml: &mut XmlReader<'_>,
        story: &mut Story<'_>,
        e: &BytesStart<'_>,
    ) -> Result<(), DocxError> {
        match e.local_name().as_ref() {
            b"p" => self.paragraph(xml, story),
            b"tbl" => self.table(xml, story),
            // Content controls, custom XML and block-level insertions are transparent.
            b"sdt" | b"sdtContent" | b"customXml" | b"ins" | b"moveTo" => {
                self.open += 1;
                Ok(())
            }
            b"bookmarkStart" => {
                if let Some(name) = attr(e, b"name") {
                    self.bookmarks.push(name.into_owned());
                }
                xml.skip()
            }
            b"sdtPr" => {
                if sdt_is_toc(xml)? && self.toc_at.is_none() {
                    self.toc_at = Some(self.open);
                }
                Ok(())
            }
            b"altChunk" => {
                story.skipped.alt_chunks += 1;
                xml.skip()
            }
            // `w:sdtEndPr`, `w:customXmlPr`, deletions, range markers, proofing
            // marks and anything unknown.
            _ => xml.skip(),
        }
    }

    /// Reads a paragraph into a heap slot: this frame sits on the recursion path of text
    /// boxes and tables in cells, so it holds no `Paragraph` by value.
    #[inline(never)]
    fn paragraph(&mut self, xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<(), DocxError> {
        let mut p = Box::<Paragraph>::default();
        let mark_deleted = read_paragraph(xml, story, &mut p)?;
        self.place(p, mark_deleted, story);
        Ok(())
    }

    /// Places a paragraph read with the text boxes anchored in it: pending bookmarks
    /// first, a carried paragraph's content and text boxes joined in front.
    #[inline(never)]
    fn place(&mut self, mut p: Box<Paragraph>, mark_deleted: bool, story: &mut Story<'_>) {
        if !self.bookmarks.is_empty() {
            p.inlines.splice(0..0, self.bookmarks.drain(..).map(Inline::Bookmark));
        }
        super::drawing::settle_inline_boxes(&p, &mut story.text_boxes);
        p.text_boxes.append(&mut story.text_boxes);
        if let Some(mut carried) = self.carried.take() {
            carried.inlines.append(&mut p.inlines);
            p.inlines = std::mem::take(&mut carried.inlines);
            carried.text_boxes.append(&mut p.text_boxes);
            p.text_boxes = std::mem::take(&mut carried.text_boxes);
        }
        p.toc |= self.toc_at.is_some();
        if mark_deleted && p.section.is_none() {
            self.carried = Some(p);
        } else {
            p.inlines.shrink_to_fit();
            self.blocks.push(Block::Paragraph(*p));
        }
    }

    /// Reads a table; a carried paragraph cannot join it, so it is placed first.
    #[inline(never)]
    fn table(&mut self, xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<(), DocxError> {
        self.release_carried();
        let table = read_table(xml, story)?;
        self.blocks.push(Block::Table(table));
        Ok(())
    }

    /// Handles an `End`; `true` when it closes the container itself.
    pub(crate) fn end(&mut self) -> bool {
        if self.open == 0 {
            return true;
        }
        self.open -= 1;
        if self.toc_at.is_some_and(|level| self.open < level) {
            self.toc_at = None;
        }
        false
    }

    fn release_carried(&mut self) {
        if let Some(p) = self.carried.take() {
            self.blocks.push(Block::Paragraph(*p));
        }
    }

    /// The blocks read, with anything still pending placed.
    pub(crate) fn finish(mut self) -> Vec<Block> {
        self.release_carried();
        if !self.bookmarks.is_empty() {
            if let Some(Block::Paragraph(p)) = self.blocks.last_mut() {
                p.inlines.extend(self.bookmarks.drain(..).map(Inline::Bookmark));
            }
        }
        // The model lives as long as the conversion: a vector's room to grow is a third of
        // its size on average (a 10,000-paragraph body held 7 MB of it).
        self.blocks.shrink_to_fit();
        self.blocks
    }
}

/// Reads a `w:sdtPr` whose `Start` was just returned, up to its `End`: whether the content
/// control is a table of contents (`w:docPartObj/w:docPartGallery`, §17.5.2.12).
#[inline(never)]
fn sdt_is_toc(xml: &mut XmlReader<'_>) -> Result<bool, DocxError> {
    let mut depth = 0usize;
    let mut toc = false;
    loop {
        match xml.next()? {
            Ev::Start(e) => {
                if e.local_name().as_ref() == b"docPartGallery" {
                    toc |= attr(&e, b"val").is_some_and(|v| v == "Table of Contents");
                }
                depth += 1;
            }
            Ev::End if depth == 0 => return Ok(toc),
            Ev::End => depth -= 1,
            Ev::Eof => return Ok(toc),
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
}

/// Reads the blocks of the element whose `Start` was just returned (a text box, a header,
/// a footer), up to its `End`.
pub(crate) fn read_blocks(xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<Vec<Block>, DocxError> {
    read_blocks_with(xml, story, |_, _| Ok(false))
}

/// Reads block content up to the container's `End`, offering each direct child element to
/// `own` first: it returns `true` when it read that element itself (a `w:sectPr` of the
/// body, a `w:tcPr` of a cell).
pub(crate) fn read_blocks_with(
    xml: &mut XmlReader<'_>,
    story: &mut Story<'_>,
    mut own: impl FnMut(&mut XmlReader<'_>, &BytesStart<'_>) -> Result<bool, DocxError>,
) -> Result<Vec<Block>, DocxError> {
    let mut blocks = Blocks::default();
    loop {
        match xml.next()? {
            Ev::Start(e) => {
                if !(blocks.at_top() && own(xml, &e)?) {
                    blocks.start(xml, story, &e)?;
                }
            }
            Ev::End => {
                if blocks.end() {
                    break;
                }
            }
            Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
    Ok(blocks.finish())
}

/// Reads a `w:body` whose `Start` was just returned: its blocks and the final `w:sectPr`
/// (§17.6.17), which describes the last section.
pub(crate) fn read_body(
    xml: &mut XmlReader<'_>,
    story: &mut Story<'_>,
) -> Result<(Vec<Block>, SectionProps), DocxError> {
    let mut last_section = SectionProps::default();
    let blocks = read_blocks_with(xml, story, |xml, e| {
        if e.local_name().as_ref() != b"sectPr" {
            return Ok(false);
        }
        last_section = read_section(xml)?;
        Ok(true)
    })?;
    Ok((blocks, last_section))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Block, Inline, SectionStart};
    use crate::docx::test_support::{blocks, read_body, texts};
    use crate::units::Twips;

    #[test]
    fn block_content_controls_are_transparent() {
        let b = blocks(
            r#"<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/></w:docPartObj></w:sdtPr>
               <w:sdtContent><w:p><w:r><w:t>toc</w:t></w:r></w:p></w:sdtContent></w:sdt>
               <w:customXml w:element="x"><w:p><w:r><w:t>cx</w:t></w:r></w:p></w:customXml>"#,
        );
        assert_eq!(texts(&b), ["toc", "cx"]);
        let toc: Vec<bool> = b.iter().map(|b| matches!(b, Block::Paragraph(p) if p.toc)).collect();
        assert_eq!(toc, [true, false], "the table-of-contents control's paragraphs are its entries");
    }

    #[test]
    fn section_in_a_paragraph_closes_a_section() {
        let read = read_body(
            r#"<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:pPr></w:p>
               <w:p/><w:sectPr><w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/></w:sectPr>"#,
        );
        let Block::Paragraph(p) = &read.document.body[0] else {
            panic!()
        };
        assert_eq!(p.section.as_ref().unwrap().start, Some(SectionStart::Continuous));
        assert_eq!(read.document.final_section.page_width, Some(Twips(15840)));
        assert_eq!(read.document.body.len(), 2);
    }

    #[test]
    fn bookmark_between_paragraphs_goes_to_the_next() {
        let b = blocks(r#"<w:p/><w:bookmarkStart w:id="1" w:name="here"/><w:p><w:r><w:t>x</w:t></w:r></w:p>"#);
        let Block::Paragraph(p) = &b[1] else { panic!() };
        assert!(matches!(&p.inlines[0], Inline::Bookmark(n) if n == "here"));
    }

    #[test]
    fn field_spanning_paragraphs_keeps_its_cached_entries() {
        let b = blocks(
            r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC \o "1-3" \h</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Intro</w:t></w:r></w:p>
               <w:p><w:r><w:t>Details</w:t></w:r></w:p>
               <w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p><w:p><w:r><w:t>Body</w:t></w:r></w:p>"#,
        );
        assert_eq!(texts(&b), ["Intro", "Details", "", "Body"]);
    }

    #[test]
    fn elements_match_by_local_name_whatever_the_prefix() {
        let bytes = crate::docx::test_support::zip_of(&[(
            "word/document.xml",
            br#"<ns0:document xmlns:ns0="http://purl.oclc.org/ooxml/wordprocessingml/main"><ns0:body><ns0:p><ns0:r><ns0:t>strict</ns0:t></ns0:r></ns0:p></ns0:body></ns0:document>"#,
        )]);
        let read = crate::docx::test_support::read_bytes(&bytes).unwrap();
        assert_eq!(texts(&read.document.body), ["strict"]);
    }

    #[test]
    fn alternate_content_at_block_level_is_resolved() {
        let b = blocks(
            r#"<mc:AlternateContent><mc:Choice Requires="wps"><w:p><w:r><w:t>choice</w:t></w:r></w:p></mc:Choice><mc:Fallback><w:p><w:r><w:t>fallback</w:t></w:r></w:p></mc:Fallback></mc:AlternateContent>"#,
        );
        assert_eq!(texts(&b), ["choice"]);
    }
}
