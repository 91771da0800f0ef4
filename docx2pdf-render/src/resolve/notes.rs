//! Footnotes and endnotes (§17.11): note marks numbered in reading order with the
//! section's or the document's `w:footnotePr`/`w:endnotePr`, and the notes resolved.

use std::collections::HashMap;

use super::document::Resolver;
use super::list_text::number_text;
use super::ResolvedBlock;
use crate::docx::model::{Block, Document, Inline, NoteKind, NoteProps, NumberFormat, Paragraph, RunContent};

/// One kind of notes, resolved and numbered.
#[derive(Debug, Clone, Default)]
pub struct ResolvedNotes<'a> {
    /// Each note's blocks by `w:id`.
    pub notes: HashMap<i64, Vec<ResolvedBlock<'a>>>,
    /// The separator note's blocks; empty when the part has none.
    pub separator: Vec<ResolvedBlock<'a>>,
    /// The continuation separator's blocks; empty when the part has none.
    pub continuation_separator: Vec<ResolvedBlock<'a>>,
    /// The mark each referenced note shows, by `w:id`.
    pub marks: HashMap<i64, String>,
    /// The referenced note ids, in reading order (endnotes are printed in this order).
    pub order: Vec<i64>,
}

/// Resolves the notes of `kind` and numbers their references in reading order.
pub(super) fn resolve_notes<'a>(r: &mut Resolver<'a>, doc: &'a Document, kind: NoteKind) -> ResolvedNotes<'a> {
    let part = match kind {
        NoteKind::Footnote => &doc.footnotes,
        NoteKind::Endnote => &doc.endnotes,
    };
    let (marks, order) = number_references(doc, kind);
    // Sorted so warnings and caches fill in the same order on every run.
    let mut ids: Vec<i64> = part.notes.keys().copied().collect();
    ids.sort_unstable();
    let notes = ids
        .into_iter()
        .map(|id| {
            // A note's content goes in the Note element its reference opened.
            let node = r.tagger.note(kind, id);
            (id, r.blocks_in(node, &part.notes[&id], None))
        })
        .collect();
    r.tagger.begin_artifact();
    let separator = part.separator.as_deref().map(|b| r.blocks(b, None)).unwrap_or_default();
    let continuation_separator = part.continuation_separator.as_deref().map(|b| r.blocks(b, None)).unwrap_or_default();
    r.tagger.end_artifact();
    ResolvedNotes { notes, separator, continuation_separator, marks, order }
}

/// The numbering in force in one section: the section's `w:footnotePr` over the
/// document's (§17.11.11, §17.11.12), with Word's defaults.
#[derive(Debug, Clone)]
struct Numbering {
    format: Option<NumberFormat>,
    start: i64,
    restart_each_section: bool,
}

impl Numbering {
    fn of(section: Option<&NoteProps>, document: Option<&NoteProps>, kind: NoteKind) -> Numbering {
        fn pick<T>(a: Option<&NoteProps>, b: Option<&NoteProps>, f: impl Fn(&NoteProps) -> Option<T>) -> Option<T> {
            a.and_then(&f).or_else(|| b.and_then(&f))
        }
        // §17.11.17/§17.11.18: footnotes count in decimal and endnotes in lower-case roman
        // numerals when nothing is said.
        let default = match kind {
            NoteKind::Footnote => NumberFormat::Decimal,
            NoteKind::Endnote => NumberFormat::LowerRoman,
        };
        Numbering {
            format: Some(pick(section, document, |p| p.format.clone()).unwrap_or(default)),
            start: pick(section, document, |p| p.start).unwrap_or(1),
            restart_each_section: pick(section, document, |p| p.restart.clone()).as_deref() == Some("eachSect"),
        }
    }
}

/// The marks of the referenced notes and their reading order. A reference with
/// `w:customMarkFollows` takes no number (§17.11.14). `eachPage` restarts need the pages:
/// they count on like `continuous`.
fn number_references(doc: &Document, kind: NoteKind) -> (HashMap<i64, String>, Vec<i64>) {
    let settings = match kind {
        NoteKind::Footnote => doc.settings.footnote_props.as_ref(),
        NoteKind::Endnote => doc.settings.endnote_props.as_ref(),
    };
    let section_props = |s: &crate::docx::model::SectionProps| match kind {
        NoteKind::Footnote => s.footnote_props.clone(),
        NoteKind::Endnote => s.endnote_props.clone(),
    };
    // A section's properties sit in the paragraph that ends it.
    let mut sections: Vec<Option<NoteProps>> = doc
        .body
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => p.section.as_deref().map(section_props),
            Block::Table(_) => None,
        })
        .collect();
    sections.push(section_props(&doc.final_section));

    let mut walk = Walk { kind, marks: HashMap::new(), order: Vec::new(), next: 0, numbering: None };
    let mut section = 0;
    walk.enter_section(Numbering::of(sections[0].as_ref(), settings, kind));
    for block in &doc.body {
        walk.block(block);
        if let Block::Paragraph(Paragraph { section: Some(_), .. }) = block {
            section += 1;
            if let Some(props) = sections.get(section) {
                walk.enter_section(Numbering::of(props.as_ref(), settings, kind));
            }
        }
    }
    (walk.marks, walk.order)
}

/// The walk over the body in reading order.
struct Walk {
    kind: NoteKind,
    marks: HashMap<i64, String>,
    order: Vec<i64>,
    next: i64,
    numbering: Option<Numbering>,
}

impl Walk {
    fn enter_section(&mut self, n: Numbering) {
        if self.numbering.is_none() || n.restart_each_section {
            self.next = n.start;
        }
        self.numbering = Some(n);
    }

    fn block(&mut self, block: &Block) {
        match block {
            Block::Paragraph(p) => self.paragraph(p),
            Block::Table(t) => {
                for cell in t.rows.iter().flat_map(|r| &r.cells) {
                    for b in &cell.blocks {
                        self.block(b);
                    }
                }
            }
        }
    }

    fn paragraph(&mut self, p: &Paragraph) {
        for inline in &p.inlines {
            let Inline::Run(run) = inline else { continue };
            for c in &run.content {
                let RunContent::NoteReference(r) = c else { continue };
                if r.kind != self.kind || self.marks.contains_key(&r.id) {
                    continue;
                }
                let mark = if r.custom_mark {
                    String::new()
                } else {
                    let format = self.numbering.as_ref().and_then(|n| n.format.as_ref());
                    let text = chicago(self.next, format).unwrap_or_else(|| number_text(self.next, format));
                    self.next += 1;
                    text
                };
                self.marks.insert(r.id, mark);
                self.order.push(r.id);
            }
        }
        for b in p.text_boxes.iter().flat_map(|b| &b.blocks) {
            self.block(b);
        }
    }
}

/// `chicago` (§17.18.59): *, †, ‡, §, then doubled, tripled…
fn chicago(n: i64, format: Option<&NumberFormat>) -> Option<String> {
    if !matches!(format, Some(NumberFormat::Other(f)) if f == "chicago") || n < 1 {
        return None;
    }
    const SIGNS: [char; 4] = ['*', '\u{2020}', '\u{2021}', '\u{a7}'];
    let sign = SIGNS[((n - 1) % 4) as usize];
    let count = ((n - 1) / 4 + 1).min(8) as usize;
    Some(std::iter::repeat_n(sign, count).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{NoteReference, Run, SectionProps};

    fn reference(kind: NoteKind, id: i64) -> Inline {
        Inline::Run(Run {
            content: vec![RunContent::NoteReference(NoteReference { kind, id, custom_mark: false })],
            ..Run::default()
        })
    }

    fn para(refs: &[(NoteKind, i64)]) -> Paragraph {
        Paragraph { inlines: refs.iter().map(|&(k, id)| reference(k, id)).collect(), ..Default::default() }
    }

    #[test]
    fn footnotes_count_in_decimal_in_reading_order() {
        let doc = Document {
            body: vec![
                Block::Paragraph(para(&[(NoteKind::Footnote, 7)])),
                Block::Paragraph(para(&[(NoteKind::Footnote, 2), (NoteKind::Endnote, 1)])),
            ],
            ..Document::default()
        };
        let (marks, order) = number_references(&doc, NoteKind::Footnote);
        assert_eq!(order, [7, 2]);
        assert_eq!((marks[&7].as_str(), marks[&2].as_str()), ("1", "2"));
        let (marks, _) = number_references(&doc, NoteKind::Endnote);
        assert_eq!(marks[&1], "i");
    }

    #[test]
    fn a_section_restarting_each_section_starts_again_at_num_start() {
        let mut first = para(&[(NoteKind::Footnote, 1), (NoteKind::Footnote, 2)]);
        first.section = Some(Box::default());
        let props = NoteProps {
            restart: Some("eachSect".into()),
            start: Some(5),
            format: Some(NumberFormat::UpperLetter),
            ..Default::default()
        };
        let doc = Document {
            body: vec![Block::Paragraph(first), Block::Paragraph(para(&[(NoteKind::Footnote, 3)]))],
            final_section: SectionProps { footnote_props: Some(props), ..Default::default() },
            ..Document::default()
        };
        let (marks, _) = number_references(&doc, NoteKind::Footnote);
        assert_eq!((marks[&1].as_str(), marks[&2].as_str(), marks[&3].as_str()), ("1", "2", "E"));
    }

    #[test]
    fn chicago_marks_cycle_through_four_signs() {
        let f = NumberFormat::Other("chicago".into());
        assert_eq!(chicago(1, Some(&f)).as_deref(), Some("*"));
        assert_eq!(chicago(4, Some(&f)).as_deref(), Some("\u{a7}"));
        assert_eq!(chicago(5, Some(&f)).as_deref(), Some("**"));
    }
}
