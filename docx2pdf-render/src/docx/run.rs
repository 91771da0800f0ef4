//! Runs (`w:r`, §17.3.2.25) and their content (§17.3.3): text, tabs, breaks, symbols,
//! field characters, pictures; drawings are handed to `drawing`.

use quick_xml::events::BytesStart;

use super::context::Story;
use super::drawing::{read_drawing, DrawingKind};
use super::fields::FieldAction;
use super::model::{BreakKind, FieldKind, Inline, NoteKind, NoteReference, Run, RunContent};
use super::properties::read_rpr;
use super::xml::{attr, attr_raw, on_off_attr, Ev, XmlReader};
use super::DocxError;

/// Reads a `w:r` whose `Start` was just returned, pushing its runs (one, or several when a
/// field splits it) onto `out`. The run lives on the heap: this frame sits on the
/// recursion path of text boxes, and debug frames hold every temporary.
pub(crate) fn read_run(xml: &mut XmlReader<'_>, story: &mut Story<'_>, out: &mut Vec<Inline>) -> Result<(), DocxError> {
    let mut run = Box::<Run>::default();
    loop {
        let e = match xml.next()? {
            Ev::Start(e) => e,
            Ev::End | Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => continue,
        };
        let visible = story.fields.visible();
        match e.local_name().as_ref() {
            b"rPr" => read_run_props(xml, &mut run)?,
            b"t" if visible => append_text(xml, &mut run.content)?,
            b"t" if story.fields.in_page_ref_result() => {
                let text = xml.read_text()?;
                story.fields.cached_text(&text);
            }
            b"instrText" if story.fields.in_code() => {
                let text = xml.read_text()?;
                story.fields.instruction(&text);
            }
            b"fldChar" => {
                field_char(&e, story, &mut run, out);
                xml.skip()?;
            }
            b"drawing" | b"pict" | b"object" => {
                let kind = match e.local_name().as_ref() {
                    b"drawing" => DrawingKind::Drawing,
                    b"pict" => DrawingKind::Pict,
                    _ => DrawingKind::Object,
                };
                if let Some(content) = read_drawing(xml, story, kind)? {
                    if visible {
                        run.content.push(content);
                    }
                }
            }
            b"ruby" => {
                flush(&mut run, out);
                read_ruby(xml, story, out)?;
            }
            _ => {
                if visible {
                    simple_content(&e, &mut run.content);
                }
                xml.skip()?;
            }
        }
    }
    finish(run, story, out);
    Ok(())
}

/// `w:rPr`: the run's style and direct formatting.
#[inline(never)]
fn read_run_props(xml: &mut XmlReader<'_>, run: &mut Run) -> Result<(), DocxError> {
    let rpr = read_rpr(xml)?;
    run.style = rpr.style;
    run.props = rpr.props;
    Ok(())
}

/// `w:fldChar` (§17.16.18): moves the field state and emits what it asks for.
#[inline(never)]
fn field_char(e: &BytesStart<'_>, story: &mut Story<'_>, run: &mut Run, out: &mut Vec<Inline>) {
    let action = match attr_raw(e, b"fldCharType").as_deref() {
        Some(b"begin") => {
            story.fields.begin();
            None
        }
        Some(b"separate") => story.fields.separate(),
        Some(b"end") => story.fields.end(),
        _ => None,
    };
    match action {
        Some(FieldAction::Field(kind)) => run.content.push(RunContent::Field(kind)),
        Some(FieldAction::LinkedField(kind, target)) => {
            flush(run, out);
            out.push(Inline::LinkStart(target));
            run.content.push(RunContent::Field(kind));
            flush(run, out);
            out.push(Inline::LinkEnd);
        }
        Some(FieldAction::LinkStart(target)) => {
            flush(run, out);
            out.push(Inline::LinkStart(target));
        }
        Some(FieldAction::LinkEnd) => {
            flush(run, out);
            out.push(Inline::LinkEnd);
        }
        None => {}
    }
}

/// Run content that is a single empty element, shown only outside field instructions
/// and page-field results.
#[inline(never)]
fn simple_content(e: &BytesStart<'_>, content: &mut Vec<RunContent>) {
    match e.local_name().as_ref() {
        // `w:ptab` (§17.3.3.23) is an absolute-position tab: a tab for now.
        b"tab" | b"ptab" => content.push(RunContent::Tab),
        // §17.3.3.1: `textWrapping` (the default) is a line break.
        b"br" => content.push(RunContent::Break(match attr_raw(e, b"type").as_deref() {
            Some(b"page") => BreakKind::Page,
            Some(b"column") => BreakKind::Column,
            _ => BreakKind::Line,
        })),
        // §17.3.3.4: a carriage return is a line break.
        b"cr" => content.push(RunContent::Break(BreakKind::Line)),
        // §17.3.3.30: a character of a symbol font, as a hexadecimal code.
        b"sym" => {
            if let Some(char) = attr(e, b"char").and_then(|c| u32::from_str_radix(c.trim(), 16).ok()) {
                let font = attr(e, b"font").map(|f| f.into_owned());
                content.push(RunContent::Symbol { font, char });
            }
        }
        // §17.3.3.18: a hyphen that never breaks, U+2011.
        b"noBreakHyphen" => push_str(content, "\u{2011}"),
        // `w:pgNum` (§17.3.3.22) is the legacy page-number element.
        b"pgNum" => content.push(RunContent::Field(FieldKind::Page)),
        // §17.11.14/§17.11.7: a note reference; its mark is numbered in reading order.
        b"footnoteReference" | b"endnoteReference" => {
            if let Some(id) = attr(e, b"id").and_then(|v| v.trim().parse::<i64>().ok()) {
                let kind = match e.local_name().as_ref() {
                    b"footnoteReference" => NoteKind::Footnote,
                    _ => NoteKind::Endnote,
                };
                let custom_mark = on_off_attr(e, b"customMarkFollows").unwrap_or(false);
                content.push(RunContent::NoteReference(NoteReference { kind, id, custom_mark }));
            }
        }
        // §17.11.13/§17.11.6: inside a note, the note's own mark.
        b"footnoteRef" | b"endnoteRef" => content.push(RunContent::NoteMark),
        // `w:softHyphen` (§17.3.3.29) only shows at a line end: dropped for now.
        // `w:delText`/`w:delInstrText` (deleted text), `w:lastRenderedPageBreak` (a stale
        // hint, §17.3.3.13), annotation marks and anything unknown.
        _ => {}
    }
}

/// Pushes the finished run, with the page field of an enclosing `w:fldSimple` if it is
/// still waiting for a run to carry its properties.
#[inline(never)]
fn finish(mut run: Box<Run>, story: &mut Story<'_>, out: &mut Vec<Inline>) {
    if let Some(kind) = story.fields.take_pending_simple() {
        run.content.push(RunContent::Field(kind));
    }
    if !run.content.is_empty() {
        // A run mostly holds one text: without this it keeps room for four.
        run.content.shrink_to_fit();
        out.push(Inline::Run(*run));
    }
}

/// Moves the content read so far into its own run, keeping the properties for the rest.
fn flush(run: &mut Run, out: &mut Vec<Inline>) {
    if !run.content.is_empty() {
        out.push(Inline::Run(Run {
            style: run.style.clone(),
            props: run.props.clone(),
            content: std::mem::take(&mut run.content),
        }));
    }
}

fn push_str(content: &mut Vec<RunContent>, s: &str) {
    match content.last_mut() {
        Some(RunContent::Text(t)) => t.push_str(s),
        _ => {
            // Most runs hold this one text: room for exactly one spares `finish` the
            // shrink from four (a realloc per run, 50 k of reading a one-page document's
            // 6.49 M instructions).
            content.reserve_exact(1);
            content.push(RunContent::Text(s.to_owned()));
        }
    }
}

/// Appends the text of a `w:t` (§17.3.3.31), kept exactly as written.
fn append_text(xml: &mut XmlReader<'_>, content: &mut Vec<RunContent>) -> Result<(), DocxError> {
    loop {
        match xml.next()? {
            Ev::Text(t) => {
                let s = xml.text(&t)?;
                if !s.is_empty() {
                    push_str(content, &s);
                }
            }
            Ev::CData(c) => push_str(content, &String::from_utf8_lossy(&c)),
            Ev::Start(_) => xml.skip()?,
            Ev::End | Ev::Eof => return Ok(()),
        }
    }
}

/// `w:ruby` (§17.3.3.25): the base text is read as runs; the guide text above it
/// (`w:rt`) is not drawn yet.
fn read_ruby(xml: &mut XmlReader<'_>, story: &mut Story<'_>, out: &mut Vec<Inline>) -> Result<(), DocxError> {
    story.enter(xml)?;
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"rubyBase" => xml.children(|xml, e| match e.local_name().as_ref() {
            b"r" => read_run(xml, story, out),
            _ => xml.skip(),
        }),
        _ => xml.skip(),
    })?;
    story.leave();
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{BreakKind, FieldKind, Inline, LinkTarget, RunContent};
    use crate::docx::test_support::{paragraph, text};

    fn contents(body: &str) -> Vec<RunContent> {
        paragraph(body)
            .inlines
            .into_iter()
            .flat_map(|i| match i {
                Inline::Run(r) => r.content,
                _ => Vec::new(),
            })
            .collect()
    }

    #[test]
    fn text_keeps_spaces_and_entities() {
        let p = paragraph(r#"<w:p><w:r><w:t xml:space="preserve"> a &amp; b </w:t><w:t>c</w:t></w:r></w:p>"#);
        assert_eq!(text(&p), " a & b c");
    }

    #[test]
    fn breaks_tabs_and_carriage_returns_are_read() {
        let c = contents(
            r#"<w:p><w:r><w:t>a</w:t><w:tab/><w:br/><w:br w:type="page"/><w:br w:type="column"/><w:cr/><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/></w:r></w:p>"#,
        );
        assert_eq!(
            c,
            [
                RunContent::Text("a".into()),
                RunContent::Tab,
                RunContent::Break(BreakKind::Line),
                RunContent::Break(BreakKind::Page),
                RunContent::Break(BreakKind::Column),
                RunContent::Break(BreakKind::Line),
                RunContent::Tab,
            ]
        );
    }

    #[test]
    fn symbol_keeps_font_and_code() {
        let c = contents(r#"<w:p><w:r><w:sym w:font="Wingdings" w:char="F0FC"/></w:r></w:p>"#);
        assert_eq!(
            c,
            [RunContent::Symbol {
                font: Some("Wingdings".into()),
                char: 0xF0FC
            }]
        );
    }

    #[test]
    fn non_breaking_hyphen_is_u2011_and_soft_hyphen_is_dropped() {
        let p = paragraph(
            r#"<w:p><w:r><w:t>e</w:t><w:noBreakHyphen/><w:t>mail</w:t><w:softHyphen/><w:t>s</w:t></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "e\u{2011}mails");
    }

    #[test]
    fn deleted_text_is_dropped() {
        let p = paragraph(
            r#"<w:p><w:r><w:t>keep </w:t></w:r><w:del w:id="1" w:author="A"><w:r><w:delText>gone</w:delText></w:r></w:del><w:r><w:delText>also gone</w:delText><w:t>end</w:t></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "keep end");
    }

    #[test]
    fn page_field_becomes_a_field() {
        let p = paragraph(
            r#"<w:p><w:r><w:t>Page </w:t></w:r>
               <w:r><w:rPr><w:b/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r>
               <w:r><w:rPr><w:b/></w:rPr><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>
               <w:r><w:rPr><w:b/></w:rPr><w:fldChar w:fldCharType="separate"/></w:r>
               <w:r><w:rPr><w:b/></w:rPr><w:t>7</w:t></w:r>
               <w:r><w:rPr><w:b/></w:rPr><w:fldChar w:fldCharType="end"/></w:r>
               <w:r><w:t> of </w:t></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "Page # of ");
        let field_run = p
            .inlines
            .iter()
            .find_map(|i| match i {
                Inline::Run(r) if r.content == [RunContent::Field(FieldKind::Page)] => Some(r),
                _ => None,
            })
            .expect("a field run");
        assert_eq!(field_run.props.bold, Some(true));
    }

    #[test]
    fn field_cached_result_is_kept() {
        let p = paragraph(
            r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>DATE \@ "yyyy"</w:instrText></w:r>
               <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2024</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "2024");
    }

    #[test]
    fn field_in_one_run_is_split_around_its_parts() {
        let p = paragraph(
            r#"<w:p><w:r><w:t>a</w:t><w:fldChar w:fldCharType="begin"/><w:instrText>NUMPAGES</w:instrText><w:fldChar w:fldCharType="separate"/><w:t>9</w:t><w:fldChar w:fldCharType="end"/><w:t>b</w:t></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "a#b");
    }

    #[test]
    fn deleted_instruction_text_is_ignored() {
        let p = paragraph(
            r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>
               <w:del w:id="1" w:author="A"><w:r><w:delInstrText>REF x</w:delInstrText></w:r></w:del>
               <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "#");
    }

    #[test]
    fn hyperlink_field_becomes_a_link_around_its_result() {
        let p = paragraph(
            r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>HYPERLINK "https://a.example/"</w:instrText></w:r>
               <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>site</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
        );
        assert!(matches!(&p.inlines[0], Inline::LinkStart(LinkTarget::External(u)) if u == "https://a.example/"));
        assert!(matches!(p.inlines.last(), Some(Inline::LinkEnd)));
        assert_eq!(text(&p), "site");
    }

    #[test]
    fn legacy_page_number_element_is_a_page_field() {
        let c = contents(r#"<w:p><w:r><w:pgNum/></w:r></w:p>"#);
        assert_eq!(c, [RunContent::Field(FieldKind::Page)]);
    }

    #[test]
    fn ruby_keeps_the_base_text() {
        let p = paragraph(
            r#"<w:p><w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>かん</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>漢</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "漢");
    }

    #[test]
    fn emoji_symbol_falls_back_to_its_text() {
        let p = paragraph(
            r#"<w:p><w:r><mc:AlternateContent><mc:Choice Requires="w16se"><w16se:symEx w16se:font="Segoe UI Emoji" w16se:char="1F600"/></mc:Choice><mc:Fallback><w:t>😀</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>"#,
        );
        assert_eq!(text(&p), "😀");
    }
}
