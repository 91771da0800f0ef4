//! Paragraphs (`w:p`, §17.3.1.22): properties, runs, hyperlinks, bookmarks, simple
//! fields and the inline containers that are transparent in the final view.

use quick_xml::events::BytesStart;

use super::context::Story;
use super::fields::FieldAction;
use super::math::{read_math, read_math_paragraph};
use super::model::{Inline, LinkTarget, Paragraph, Run, RunContent};
use super::properties::read_ppr;
use super::rels::Rels;
use super::run::read_run;
use super::xml::{attr, Ev, XmlReader};
use super::DocxError;

/// An inline container open inside the paragraph.
enum Open {
    /// Transparent: `w:ins`, `w:moveTo` (kept in the final view, §17.13.5), `w:smartTag`,
    /// `w:customXml`, `w:sdt`/`w:sdtContent`, `w:dir`, `w:bdo`, or a link with no target.
    Plain,
    /// A `w:hyperlink` that emitted a `LinkStart`.
    Link,
    /// A `w:fldSimple`.
    SimpleField,
}

/// Reads a `w:p` whose `Start` was just returned into `p`. Returns whether the paragraph
/// mark is a tracked deletion, so the caller can join it to the next paragraph.
pub(crate) fn read_paragraph(
    xml: &mut XmlReader<'_>,
    story: &mut Story<'_>,
    p: &mut Paragraph,
) -> Result<bool, DocxError> {
    let mut mark_deleted = false;
    let mut open: Vec<Open> = Vec::new();
    let toc = story.fields.toc_mark();
    loop {
        match xml.next()? {
            Ev::Start(e) => match e.local_name().as_ref() {
                b"pPr" => mark_deleted = read_paragraph_props(xml, p)?,
                b"r" => read_run(xml, story, &mut p.inlines)?,
                b"hyperlink" => open.push(hyperlink_start(&e, story, &mut p.inlines)),
                b"fldSimple" => {
                    let instruction = attr(&e, b"instr").unwrap_or_default();
                    if let Some(FieldAction::LinkStart(target)) = story.fields.begin_simple(&instruction) {
                        p.inlines.push(Inline::LinkStart(target));
                    }
                    open.push(Open::SimpleField);
                }
                b"ins" | b"moveTo" | b"smartTag" | b"customXml" | b"sdt" | b"sdtContent" | b"dir" | b"bdo" => {
                    open.push(Open::Plain)
                }
                b"bookmarkStart" => {
                    if let Some(name) = attr(&e, b"name") {
                        p.inlines.push(Inline::Bookmark(name.into_owned()));
                    }
                    xml.skip()?;
                }
                b"oMath" => read_math(xml, &mut p.inlines)?,
                // Display math sets the paragraph's alignment (§22.1.2.51).
                b"oMathPara" => p.props.align = Some(read_math_paragraph(xml, &mut p.inlines)?),
                // `w:del`/`w:moveFrom` (dropped in the final view), `w:sdtPr`, `w:sdtEndPr`,
                // `w:smartTagPr`, `w:customXmlPr`, range and proofing marks, unknown.
                _ => xml.skip()?,
            },
            Ev::End => match open.pop() {
                None => break,
                Some(Open::Plain) => {}
                Some(Open::Link) => p.inlines.push(Inline::LinkEnd),
                Some(Open::SimpleField) => simple_field_end(story, &mut p.inlines),
            },
            Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
    p.toc = story.fields.in_toc_since(toc);
    Ok(mark_deleted)
}

// The helpers below keep large temporaries out of `read_paragraph`, whose frame sits on
// the recursion path of text boxes (debug frames hold every temporary).

/// `w:pPr`; returns whether the paragraph mark is deleted.
#[inline(never)]
fn read_paragraph_props(xml: &mut XmlReader<'_>, p: &mut Paragraph) -> Result<bool, DocxError> {
    let ppr = read_ppr(xml)?;
    p.style = ppr.style;
    p.props = ppr.props;
    p.mark = ppr.mark;
    p.mark_style = ppr.mark_style;
    p.section = ppr.section.map(Box::new);
    Ok(ppr.mark_deleted)
}

#[inline(never)]
fn hyperlink_start(e: &BytesStart<'_>, story: &Story<'_>, inlines: &mut Vec<Inline>) -> Open {
    match link_target(e, story.rels) {
        Some(target) => {
            inlines.push(Inline::LinkStart(target));
            Open::Link
        }
        None => Open::Plain,
    }
}

#[inline(never)]
fn simple_field_end(story: &mut Story<'_>, inlines: &mut Vec<Inline>) {
    match story.fields.end_simple() {
        Some(FieldAction::Field(kind)) => inlines.push(Inline::Run(Run {
            content: vec![RunContent::Field(kind)],
            ..Run::default()
        })),
        Some(FieldAction::LinkEnd) => inlines.push(Inline::LinkEnd),
        _ => {}
    }
}

/// A `w:hyperlink` target (§17.16.22): `r:id` through the part's relationships (with
/// `w:docLocation` as a fragment), else the `w:anchor` bookmark. `None` when neither
/// resolves: the content is then plain text.
fn link_target(e: &BytesStart<'_>, rels: &Rels) -> Option<LinkTarget> {
    if let Some(rel) = attr(e, b"id").and_then(|id| rels.get(&id)) {
        let mut url = rel.target.clone();
        if let Some(location) = attr(e, b"docLocation").filter(|l| !l.is_empty()) {
            url.push('#');
            url.push_str(&location);
        }
        return Some(LinkTarget::External(url));
    }
    attr(e, b"anchor")
        .filter(|a| !a.is_empty())
        .map(|a| LinkTarget::Internal(a.into_owned()))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Block, FieldKind, Inline, LinkTarget, RunContent};
    use crate::docx::test_support::{blocks, docx, paragraph, read_bytes, text, texts};
    use crate::units::HalfPoints;

    #[test]
    fn external_hyperlink_resolves_through_the_rels() {
        let p = paragraph(
            r#"<w:p><w:hyperlink r:id="rIdLink" w:history="1"><w:r><w:t>here</w:t></w:r></w:hyperlink></w:p>"#,
        );
        assert_eq!(p.inlines.len(), 3);
        assert!(matches!(&p.inlines[0], Inline::LinkStart(LinkTarget::External(u)) if u == "https://example.com/page"));
        assert!(matches!(p.inlines[2], Inline::LinkEnd));
    }

    #[test]
    fn anchor_hyperlink_is_internal() {
        let p = paragraph(r#"<w:p><w:hyperlink w:anchor="_Toc1"><w:r><w:t>1</w:t></w:r></w:hyperlink></w:p>"#);
        assert!(matches!(&p.inlines[0], Inline::LinkStart(LinkTarget::Internal(a)) if a == "_Toc1"));
    }

    #[test]
    fn hyperlink_with_unknown_id_is_plain_text() {
        let p = paragraph(r#"<w:p><w:hyperlink r:id="rIdNope"><w:r><w:t>x</w:t></w:r></w:hyperlink></w:p>"#);
        assert_eq!(p.inlines.len(), 1);
        assert_eq!(text(&p), "x");
    }

    #[test]
    fn bookmark_start_becomes_a_bookmark() {
        let p = paragraph(
            r#"<w:p><w:bookmarkStart w:id="0" w:name="intro"/><w:r><w:t>a</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>"#,
        );
        assert!(matches!(&p.inlines[0], Inline::Bookmark(n) if n == "intro"));
    }

    #[test]
    fn insertions_and_moves_to_are_kept_and_moves_from_dropped() {
        let p = paragraph(
            r#"<w:p><w:ins w:id="1" w:author="A"><w:r><w:t>new </w:t></w:r></w:ins><w:moveFrom w:id="2" w:author="A"><w:r><w:t>old </w:t></w:r></w:moveFrom><w:moveTo w:id="3" w:author="A"><w:r><w:t>moved</w:t></w:r></w:moveTo></w:p>"#,
        );
        assert_eq!(text(&p), "new moved");
    }

    #[test]
    fn transparent_containers_keep_their_runs() {
        let p = paragraph(
            r#"<w:p><w:smartTag w:uri="u" w:element="place"><w:smartTagPr/><w:r><w:t>a</w:t></w:r></w:smartTag>
               <w:customXml w:element="x"><w:r><w:t>b</w:t></w:r></w:customXml>
               <w:sdt><w:sdtPr><w:rPr><w:b/></w:rPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent><w:r><w:t>c</w:t></w:r></w:sdtContent></w:sdt>
               <w:dir w:val="rtl"><w:r><w:t>d</w:t></w:r></w:dir><w:bdo w:val="ltr"><w:r><w:t>e</w:t></w:r></w:bdo></w:p>"#,
        );
        assert_eq!(text(&p), "abcde");
    }

    #[test]
    fn simple_page_field_carries_its_run_props() {
        let p = paragraph(
            r#"<w:p><w:fldSimple w:instr=" NUMPAGES "><w:r><w:rPr><w:sz w:val="18"/></w:rPr><w:t>12</w:t></w:r></w:fldSimple></w:p>"#,
        );
        match &p.inlines[..] {
            [Inline::Run(r)] => {
                assert_eq!(r.content, [RunContent::Field(FieldKind::NumPages)]);
                assert_eq!(r.props.size, Some(HalfPoints(18)));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn empty_simple_page_field_is_still_a_field() {
        let p = paragraph(r#"<w:p><w:fldSimple w:instr="PAGE"/></w:p>"#);
        assert_eq!(text(&p), "#");
    }

    #[test]
    fn other_simple_field_keeps_its_result() {
        let p = paragraph(r#"<w:p><w:fldSimple w:instr="AUTHOR"><w:r><w:t>Ada</w:t></w:r></w:fldSimple></w:p>"#);
        assert_eq!(text(&p), "Ada");
    }

    #[test]
    fn paragraph_with_deleted_mark_joins_the_next() {
        let b = blocks(
            r#"<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A"/></w:rPr></w:pPr><w:r><w:t>one </w:t></w:r></w:p>
               <w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>two</w:t></w:r></w:p>"#,
        );
        assert_eq!(texts(&b), ["one two"]);
    }

    #[test]
    fn fully_deleted_paragraph_disappears() {
        let b = blocks(
            r#"<w:p><w:r><w:t>a</w:t></w:r></w:p>
               <w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A"/></w:rPr></w:pPr><w:del w:id="2" w:author="A"><w:r><w:delText>gone</w:delText></w:r></w:del></w:p>
               <w:p><w:r><w:t>b</w:t></w:r></w:p>"#,
        );
        assert_eq!(texts(&b), ["a", "b"]);
    }

    #[test]
    fn equations_are_read_as_text_without_a_warning() {
        let bytes = docx(r#"<w:p><m:oMath><m:r><m:t>x</m:t></m:r></m:oMath></w:p>"#, &[]);
        let read = read_bytes(&bytes).unwrap();
        assert!(matches!(&read.document.body[0], Block::Paragraph(p) if text(p) == "x"));
        assert!(!read.warnings.iter().any(|w| w.message.contains("equations")));
    }
}
