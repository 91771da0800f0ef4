//! The structure types of tagged PDF (ISO 32000-1 §14.7–14.8) that frames carry: each
//! item's tag, and the tree the tags name, which resolve builds in reading order.

use std::sync::Arc;

/// What a laid-out item belongs to: an artifact, or a node of the [`Structure`]. Layout
/// copies it onto every item it makes; the PDF writer turns it into marked content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tag(u32);

impl Tag {
    /// Not content: rules, borders, shading, underlines (ISO 32000-1 §14.8.2.2).
    pub const ARTIFACT: Tag = Tag(0);
    /// Pagination artifacts: headers, footers, page numbers, note separators.
    pub const PAGINATION: Tag = Tag(1);

    /// The tag of node `index`.
    pub(crate) fn of(index: usize) -> Tag {
        Tag(u32::try_from(index + 2).unwrap_or(u32::MAX))
    }

    /// The structure node this tag names, if any.
    pub fn node(self) -> Option<usize> {
        (self.0 >= 2).then(|| (self.0 - 2) as usize)
    }
}

/// The standard structure types used (ISO 32000-1 §14.8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StructKind {
    /// The root, node 0.
    Document,
    /// A heading, level 1–6.
    H(u8),
    /// A paragraph.
    P,
    /// A list: consecutive list paragraphs of one level.
    L,
    /// A list item.
    LI,
    /// A list item's number or bullet.
    Lbl,
    /// A list item's text.
    LBody,
    /// A table (`w:tbl`).
    Table,
    /// A table's repeated header rows (`w:tblHeader`).
    THead,
    /// A table's other rows.
    TBody,
    /// A table row.
    TR,
    /// A header cell, and which cells it heads.
    TH(Scope),
    /// A data cell.
    TD,
    /// A picture or drawing, with its alternative text.
    Figure,
    /// A hyperlink; its annotation belongs to it.
    Link,
    /// A table of contents.
    TOC,
    /// An entry of a table of contents.
    TOCI,
    /// A footnote or endnote.
    Note,
    /// A paragraph in the `Caption` style.
    Caption,
    /// Text in a language other than the document's, with its /Lang.
    Span,
    /// A decorative picture: painted as an artifact and left out of the tree.
    Decorative,
}

impl StructKind {
    /// A table's row group, row or cell.
    pub fn is_table_part(self) -> bool {
        matches!(self, StructKind::THead | StructKind::TBody | StructKind::TR | StructKind::TH(_) | StructKind::TD)
    }
}

/// What a header cell heads (the `Scope` attribute, ISO 32000-1 §14.8.5.7, Table 349).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The cells below it: a header row's cell.
    Column,
    /// The cells of its row: a header column's cell.
    Row,
}

/// One element of the structure tree.
#[derive(Debug, Clone, PartialEq)]
pub struct StructNode {
    /// The structure type (the element's /S).
    pub kind: StructKind,
    /// The parent node's index (the root is its own parent).
    pub parent: usize,
    /// The alternative text of a figure.
    pub alt: Option<String>,
    /// The language of a Span (BCP 47, as `w:lang` gives it).
    pub lang: Option<Arc<str>>,
}

/// The structure tree: node 0 is the Document; every other node's parent comes before it,
/// and siblings are in reading order.
#[derive(Debug, Clone, PartialEq)]
pub struct Structure {
    /// The nodes, by index; node 0 is the Document.
    pub nodes: Vec<StructNode>,
}

impl Default for Structure {
    fn default() -> Structure {
        Structure { nodes: vec![StructNode { kind: StructKind::Document, parent: 0, alt: None, lang: None }] }
    }
}
