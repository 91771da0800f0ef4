//! The document's logical structure for tagged PDF (ISO 32000-1 §14.7–14.8): headings,
//! paragraphs, lists, tables, figures, links, notes and the table of contents, built in
//! reading order while the document is resolved, and the tags layout puts on its items.

use std::sync::Arc;

use crate::docx::model::NoteKind;
use crate::fast_map::FastMap;

pub use crate::frame::{Scope, StructKind, StructNode, Structure, Tag};

/// The tags of a paragraph's own text: its element and its list label's.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ParaTags {
    /// The paragraph's own element (P, H1–H6, LBody, TOCI, Caption).
    pub block: Tag,
    /// The list label (Lbl), when the paragraph is a list item.
    pub label: Tag,
}

impl ParaTags {
    /// Everything of a paragraph in pagination content (headers, footers, separators).
    pub const PAGINATION: ParaTags = ParaTags { block: Tag::PAGINATION, label: Tag::PAGINATION };
}

/// The elements made for one paragraph, each in the order of the content it tags; resolve
/// hands each to its item.
#[derive(Debug, Default)]
pub(super) struct ParaNodes {
    /// The paragraph's own element and its label's.
    pub(super) tags: ParaTags,
    /// One Link per hyperlink.
    pub(super) links: Vec<Tag>,
    /// One Figure (or decorative artifact) per inline picture.
    pub(super) figures: Vec<Tag>,
    /// One per floating picture; they follow the paragraph in its parent.
    pub(super) anchored: Vec<Tag>,
    /// One Span per run of text in another language.
    pub(super) spans: Vec<Tag>,
}

/// What a paragraph is, as far as its element goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ParaRole {
    Body,
    /// Outline level 1–9.
    Heading(u8),
    /// A table-of-contents entry (a `TOC N` style).
    TocEntry,
    Caption,
}

/// An open list: its level, its L node and its last LI.
#[derive(Debug, Clone, Copy)]
struct OpenList {
    level: u8,
    list: usize,
    item: usize,
}

/// The builder resolve drives in reading order.
#[derive(Debug, Default)]
pub(super) struct Tagger {
    pub(super) structure: Structure,
    /// The node new blocks go into.
    container: usize,
    /// Lists open in the container, outermost first.
    lists: Vec<OpenList>,
    /// The TOC element open in the container.
    toc: Option<usize>,
    /// Above zero while header, footer or separator content is resolved.
    artifact: u32,
    /// The Note element of each referenced note.
    notes: FastMap<(NoteKind, i64), usize>,
    /// The tables being resolved, innermost last.
    tables: Vec<OpenTable>,
}

/// A table being resolved: its element (none for a layout table) and its open row group
/// (header or not, and the node).
#[derive(Debug, Clone, Copy)]
struct OpenTable {
    node: Option<usize>,
    group: Option<(bool, usize)>,
}

/// What [`Tagger::enter`] saves, for [`Tagger::leave`].
pub(super) struct Saved {
    container: usize,
    lists: Vec<OpenList>,
    toc: Option<usize>,
}

impl Tagger {
    fn add(&mut self, kind: StructKind, parent: usize) -> usize {
        self.structure.nodes.push(StructNode { kind, parent, alt: None, lang: None });
        self.structure.nodes.len() - 1
    }

    /// Whether content is resolved as an artifact.
    pub(super) fn off(&self) -> bool {
        self.artifact > 0
    }

    /// Starts resolving pagination content (headers, footers, separators).
    pub(super) fn begin_artifact(&mut self) {
        self.artifact += 1;
    }

    /// Ends what [`Tagger::begin_artifact`] began.
    pub(super) fn end_artifact(&mut self) {
        self.artifact = self.artifact.saturating_sub(1);
    }

    /// Blocks that follow go into `node` (a cell, a note), with lists of their own.
    pub(super) fn enter(&mut self, node: Option<usize>) -> Saved {
        let saved = Saved { container: self.container, lists: std::mem::take(&mut self.lists), toc: self.toc.take() };
        if let Some(node) = node {
            self.container = node;
        }
        saved
    }

    /// Returns to the container before the matching [`Tagger::enter`].
    pub(super) fn leave(&mut self, saved: Saved) {
        self.container = saved.container;
        self.lists = saved.lists;
        self.toc = saved.toc;
    }

    /// The elements of a paragraph with `links` hyperlinks, its pictures (floating or not,
    /// alternative text and decorative flag each), a list level when it shows a list label,
    /// the notes it references and the languages of its Spans. Pagination content has none:
    /// all of it is tagged [`Tag::PAGINATION`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn paragraph(
        &mut self,
        role: ParaRole,
        list_level: Option<u8>,
        links: usize,
        pictures: &[(bool, Option<&str>, bool)],
        notes: &[(NoteKind, i64)],
        spans: &[Arc<str>],
    ) -> ParaNodes {
        if self.off() {
            return ParaNodes { tags: ParaTags::PAGINATION, ..ParaNodes::default() };
        }
        if role != ParaRole::TocEntry {
            self.toc = None;
        }
        // A numbered heading is a heading whose number is part of its text, not a list
        // item (Word's PDFs: PedroAlmeidacode's "1.1 Propósito" is an H1).
        let numbered_heading = matches!(role, ParaRole::Heading(_)) && list_level.is_some();
        let list_level = list_level.filter(|_| !numbered_heading);
        let (parent, label) = match list_level {
            Some(level) => {
                while self.lists.last().is_some_and(|l| l.level > level) {
                    self.lists.pop();
                }
                if self.lists.last().is_none_or(|l| l.level < level) {
                    // A deeper list nests in the item before it (ISO 32000-1 §14.8.4.3.3).
                    let parent = self.lists.last().map_or(self.container, |l| l.item);
                    let list = self.add(StructKind::L, parent);
                    self.lists.push(OpenList { level, list, item: list });
                }
                let list = self.lists.last().map_or(self.container, |l| l.list);
                let item = self.add(StructKind::LI, list);
                if let Some(open) = self.lists.last_mut() {
                    open.item = item;
                }
                let label = self.add(StructKind::Lbl, item);
                (item, Tag::of(label))
            }
            None => {
                self.lists.clear();
                let parent = match role {
                    ParaRole::TocEntry => match self.toc {
                        Some(toc) => toc,
                        None => {
                            let toc = self.add(StructKind::TOC, self.container);
                            self.toc = Some(toc);
                            toc
                        }
                    },
                    _ => self.container,
                };
                (parent, Tag::ARTIFACT)
            }
        };
        let kind = match (role, list_level) {
            (_, Some(_)) => StructKind::LBody,
            // PDF has six heading levels; Word's levels 7–9 become H6.
            (ParaRole::Heading(level), None) => StructKind::H(level.clamp(1, 6)),
            (ParaRole::TocEntry, None) => StructKind::TOCI,
            (ParaRole::Caption, None) => StructKind::Caption,
            (ParaRole::Body, None) => StructKind::P,
        };
        let block = self.add(kind, parent);
        let links = (0..links).map(|_| Tag::of(self.add(StructKind::Link, block))).collect();
        let figures = pictures.iter().filter(|p| !p.0).map(|&(_, alt, decorative)| Tag::of(self.figure(alt, decorative, block))).collect();
        // A floating picture follows the paragraph that anchors it.
        let anchored = pictures.iter().filter(|p| p.0).map(|&(_, alt, decorative)| Tag::of(self.figure(alt, decorative, parent))).collect();
        for &note in notes {
            let node = self.add(StructKind::Note, block);
            self.notes.entry(note).or_insert(node);
        }
        let spans = spans
            .iter()
            .map(|lang| {
                let node = self.add(StructKind::Span, block);
                self.structure.nodes[node].lang = Some(lang.clone());
                Tag::of(node)
            })
            .collect();
        let tags = ParaTags { block: Tag::of(block), label: if numbered_heading { Tag::of(block) } else { label } };
        ParaNodes { tags, links, figures, anchored, spans }
    }

    /// A drawn shape (or group of shapes) in the container: a Figure with the drawing's
    /// alternative text, or an artifact when it is marked decorative.
    pub(super) fn drawing(&mut self, alt: Option<&str>, decorative: bool) -> Tag {
        if self.off() {
            return Tag::PAGINATION;
        }
        Tag::of(self.figure(alt, decorative, self.container))
    }

    /// A Figure with its alternative text under `parent`, or a decorative one.
    fn figure(&mut self, alt: Option<&str>, decorative: bool, parent: usize) -> usize {
        let node = self.add(if decorative { StructKind::Decorative } else { StructKind::Figure }, parent);
        self.structure.nodes[node].alt = alt.map(str::to_owned);
        node
    }

    /// A table starts: its element in the container (none in pagination content);
    /// [`Tagger::end_table`] ends it. Every `w:tbl` is a Table, as in Word's PDFs, whether
    /// or not it names header cells: ISO 14289-1 §7.5 asks for headers only where the
    /// document has them.
    pub(super) fn table(&mut self) {
        let node = (!self.off()).then(|| {
            self.lists.clear();
            self.toc = None;
            self.add(StructKind::Table, self.container)
        });
        self.tables.push(OpenTable { node, group: None });
    }

    /// The innermost table ends.
    pub(super) fn end_table(&mut self) {
        self.tables.pop();
    }

    /// A row of the innermost table: under THead for repeated header rows (`w:tblHeader`),
    /// TBody for the rest (the group opened when the previous row was of the other kind).
    pub(super) fn row(&mut self, header: bool) -> Option<usize> {
        let OpenTable { node: table, group } = *self.tables.last()?;
        let table = table?;
        let parent = match group {
            Some((h, node)) if h == header => node,
            _ => {
                let node = self.add(if header { StructKind::THead } else { StructKind::TBody }, table);
                if let Some(open) = self.tables.last_mut() {
                    open.group = Some((header, node));
                }
                node
            }
        };
        Some(self.add(StructKind::TR, parent))
    }

    /// A cell of `row`: TH for a header cell of the given scope, else TD.
    pub(super) fn cell(&mut self, row: Option<usize>, header: Option<Scope>) -> Option<usize> {
        row.map(|row| self.add(header.map_or(StructKind::TD, StructKind::TH), row))
    }

    /// The Note element of a referenced note, or a new one at the end of the document for
    /// a note nothing references.
    pub(super) fn note(&mut self, kind: NoteKind, id: i64) -> Option<usize> {
        if self.off() {
            return None;
        }
        Some(match self.notes.get(&(kind, id)) {
            Some(&node) => node,
            None => self.add(StructKind::Note, 0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(t: &Tagger) -> Vec<(StructKind, usize)> {
        t.structure.nodes.iter().map(|n| (n.kind, n.parent)).collect()
    }

    #[test]
    fn nested_list_items_nest_their_list_in_the_item_before() {
        let mut t = Tagger::default();
        t.paragraph(ParaRole::Body, Some(0), 0, &[], &[], &[]);
        t.paragraph(ParaRole::Body, Some(1), 0, &[], &[], &[]);
        t.paragraph(ParaRole::Body, Some(0), 0, &[], &[], &[]);
        use StructKind::*;
        assert_eq!(
            kinds(&t),
            vec![
                (Document, 0),
                (L, 0),
                (LI, 1),
                (Lbl, 2),
                (LBody, 2),
                (L, 2),
                (LI, 5),
                (Lbl, 6),
                (LBody, 6),
                (LI, 1),
                (Lbl, 9),
                (LBody, 9)
            ]
        );
    }

    #[test]
    fn header_rows_go_in_thead_and_the_rest_in_tbody() {
        let mut t = Tagger::default();
        t.table();
        let r0 = t.row(true);
        t.cell(r0, Some(Scope::Column));
        let r1 = t.row(false);
        t.cell(r1, Some(Scope::Row));
        t.cell(r1, None);
        t.end_table();
        t.begin_artifact();
        t.table();
        assert_eq!(t.row(false), None, "a table in a header has no rows of its own");
        t.end_table();
        t.end_artifact();
        use StructKind::*;
        assert_eq!(
            kinds(&t),
            vec![
                (Document, 0),
                (Table, 0),
                (THead, 1),
                (TR, 2),
                (TH(Scope::Column), 3),
                (TBody, 1),
                (TR, 5),
                (TH(Scope::Row), 6),
                (TD, 6)
            ]
        );
    }

    #[test]
    fn toc_entries_share_one_toc_and_pagination_content_is_untagged() {
        let mut t = Tagger::default();
        let a = t.paragraph(ParaRole::TocEntry, None, 1, &[], &[], &[]);
        t.paragraph(ParaRole::TocEntry, None, 1, &[], &[], &[]);
        t.begin_artifact();
        assert_eq!(t.paragraph(ParaRole::Body, None, 0, &[], &[], &[]).tags.block, Tag::PAGINATION);
        t.end_artifact();
        use StructKind::*;
        assert_eq!(kinds(&t), vec![(Document, 0), (TOC, 0), (TOCI, 1), (Link, 2), (TOCI, 1), (Link, 4)]);
        assert_eq!(a.links, vec![Tag::of(3)]);
    }
}
