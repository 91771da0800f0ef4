//! Tagged PDF (ISO 32000-1 §14.7–14.8): items' tags become marked-content sequences with
//! MCIDs or artifacts, and the layout's structure becomes the structure tree with its
//! parent tree.

use std::borrow::Cow;

use pdf_writer::types::ArtifactType;
use pdf_writer::{Chunk, Content, Finish, Name, Rect, Ref, TextStr};

use super::document::Refs;
use crate::fast_map::FastMap;
use crate::frame::{Scope, StructKind, StructNode, Structure, Tag};

/// A child of a structure element, in the order the content shows it.
#[derive(Debug, Clone, Copy)]
enum Kid {
    Node(u32),
    /// A marked-content sequence: page index and MCID.
    Mcr(u32, u32),
    /// A link annotation on a page (§14.7.4.3).
    Annot(u32, Ref),
}

/// How a tagged item is marked in the content stream.
enum Marking {
    /// Nothing to mark (a link area paints nothing).
    None,
    /// An artifact, of pagination or not (§14.8.2.2).
    Artifact(Option<ArtifactType>),
    /// Content of a structure element: its type and the MCID.
    Content(&'static [u8], i32),
}

/// What the pages have shown of the structure so far.
pub(super) struct Tagging<'a> {
    /// The layout's nodes, then the continuations of tables on later pages.
    nodes: Cow<'a, [StructNode]>,
    /// The node each node continues (itself for the layout's own), which orders siblings.
    origin: Vec<u32>,
    /// The element a shown table, row group, row or cell is continued in now, by its
    /// origin, and the page that element started on.
    current: FastMap<u32, (u32, u32)>,
    /// The tables with header cells, which stay one Table across pages.
    headed: Vec<bool>,
    /// Kids of each node, in order of appearance.
    kids: Vec<Vec<Kid>>,
    /// Whether a node is in the tree yet (the root always is).
    attached: Vec<bool>,
    /// For each page, the node of each MCID.
    pages: Vec<Vec<u32>>,
    /// For each annotation with a structure parent, its node; its key in the parent tree
    /// follows the pages' keys.
    annotations: Vec<u32>,
    /// The box a figure's pictures cover, by node: page and rectangle.
    boxes: FastMap<u32, (u32, [f32; 4])>,
    /// The text shown inside each link, for its annotation's /Contents.
    link_text: FastMap<u32, String>,
    /// The marked-content sequence open on the page being painted.
    open: Option<Tag>,
}

impl<'a> Tagging<'a> {
    /// Starts tagging `page_count` pages of a document of this structure.
    pub(super) fn new(structure: &'a Structure, page_count: usize) -> Tagging<'a> {
        let n = structure.nodes.len();
        let mut attached = vec![false; n];
        if let Some(root) = attached.first_mut() {
            *root = true;
        }
        Tagging {
            nodes: Cow::Borrowed(&structure.nodes),
            origin: (0..n as u32).collect(),
            current: FastMap::default(),
            headed: headed_tables(&structure.nodes),
            kids: vec![Vec::new(); n],
            attached,
            pages: vec![Vec::new(); page_count],
            annotations: Vec::new(),
            boxes: FastMap::default(),
            link_text: FastMap::default(),
            open: None,
        }
    }

    /// The node a tag names, unless it is an artifact (a decorative picture is one).
    fn node(&self, tag: Tag) -> Option<u32> {
        let node = tag.node().filter(|&n| n < self.nodes.len())?;
        (self.nodes[node].kind != StructKind::Decorative).then_some(node as u32)
    }

    /// Puts `node` and its ancestors into the tree, each after its parent's children so far,
    /// for content shown on `page`.
    fn attach(&mut self, node: u32, page: u32) {
        let mut top = node;
        while !self.attached[top as usize] {
            let parent = self.nodes[top as usize].parent as u32;
            if self.attached[parent as usize] {
                let parent = self.continued(parent, page);
                self.nodes.to_mut()[top as usize].parent = parent as usize;
                break;
            }
            top = parent;
        }
        let mut node = node;
        while !self.attached[node as usize] {
            self.attached[node as usize] = true;
            if self.nodes[node as usize].kind == StructKind::Table {
                self.current.insert(node, (node, page));
            }
            let parent = self.nodes[node as usize].parent as u32;
            self.kids[parent as usize].push(Kid::Node(node));
            node = parent;
        }
    }

    /// The element new content of shown node `node` goes into on `page`. A table that goes
    /// on to a later page is a new Table there, with its row groups, rows and cells
    /// continued under it (a row split by the page is in both), as Word tags its PDFs.
    fn continued(&mut self, node: u32, page: u32) -> u32 {
        let node = self.origin[node as usize];
        let kind = self.nodes[node as usize].kind;
        if !kind.is_table_part() && kind != StructKind::Table {
            return node;
        }
        let (now, since) = self.current.get(&node).copied().unwrap_or((node, page));
        let parent = self.continued(self.nodes[now as usize].parent as u32, page);
        let fresh = match kind {
            StructKind::Table => !self.headed[node as usize] && since < page,
            _ => parent != self.nodes[now as usize].parent as u32,
        };
        if !fresh {
            return now;
        }
        let copy = self.nodes.len() as u32;
        let mut continuation = self.nodes[node as usize].clone();
        continuation.parent = parent as usize;
        self.nodes.to_mut().push(continuation);
        self.origin.push(node);
        self.kids.push(Vec::new());
        self.attached.push(true);
        self.kids[parent as usize].push(Kid::Node(copy));
        self.current.insert(node, (copy, page));
        copy
    }

    /// Makes `tag` the marked-content sequence items are painted in, closing the one open
    /// before; `end_text` is called first, so that sequences and text objects nest.
    pub(super) fn mark(&mut self, content: &mut Content, page: usize, tag: Tag, end_text: impl FnOnce(&mut Content)) {
        if self.open == Some(tag) {
            return;
        }
        end_text(content);
        if self.open.is_some() {
            content.end_marked_content();
        }
        self.open = Some(tag);
        match self.marking(page, tag) {
            Marking::None => self.open = None,
            Marking::Artifact(None) => {
                content.begin_marked_content(Name(b"Artifact"));
            }
            Marking::Artifact(Some(kind)) => {
                content.begin_marked_content_with_properties(Name(b"Artifact")).properties().artifact().kind(kind);
            }
            Marking::Content(name, mcid) => {
                content.begin_marked_content_with_properties(Name(name)).properties().identify(mcid);
            }
        }
    }

    fn marking(&mut self, page: usize, tag: Tag) -> Marking {
        if tag == Tag::PAGINATION {
            return Marking::Artifact(Some(ArtifactType::Pagination));
        }
        let Some(node) = self.node(tag) else { return Marking::Artifact(None) };
        let Some(mcids) = self.pages.get_mut(page) else { return Marking::None };
        let mcid = mcids.len() as u32;
        mcids.push(node);
        self.kids[node as usize].push(Kid::Mcr(page as u32, mcid));
        self.attach(node, page as u32);
        Marking::Content(role(self.nodes[node as usize].kind), mcid as i32)
    }

    /// Closes the page's open sequence.
    pub(super) fn end_page(&mut self, content: &mut Content) {
        if self.open.take().is_some() {
            content.end_marked_content();
        }
    }

    /// Whether page `page` has marked content (and so a /StructParents key).
    pub(super) fn page_key(&self, page: usize) -> Option<i32> {
        self.pages.get(page).filter(|m| !m.is_empty()).map(|_| page as i32)
    }

    /// Notes a picture of `tag` painted at `rect` on `page`: the figure's /BBox covers it.
    pub(super) fn picture(&mut self, tag: Tag, page: usize, rect: [f32; 4]) {
        let Some(node) = self.node(tag) else { return };
        let entry = self.boxes.entry(node).or_insert((page as u32, rect));
        if entry.0 == page as u32 {
            let b = &mut entry.1;
            *b = [b[0].min(rect[0]), b[1].min(rect[1]), b[2].max(rect[2]), b[3].max(rect[3])];
        }
    }

    /// Notes text of `tag`: a link keeps its text for its annotation.
    pub(super) fn text(&mut self, tag: Tag, glyphs: &[crate::frame::Glyph]) {
        let Some(node) = self.node(tag) else { return };
        if self.nodes[node as usize].kind != StructKind::Link {
            return;
        }
        let text = self.link_text.entry(node).or_default();
        for g in glyphs {
            text.push_str(g.text.as_str());
        }
    }

    /// Registers the annotation `annot` on `page` for the link element of `tag`: its
    /// /StructParent key and /Contents text, or `None` when the tag names no element.
    pub(super) fn annotation(&mut self, tag: Tag, page: usize, annot: Ref) -> Option<(i32, String)> {
        let node = self.node(tag)?;
        self.kids[node as usize].push(Kid::Annot(page as u32, annot));
        self.attach(node, page as u32);
        self.annotations.push(node);
        let key = (self.pages.len() + self.annotations.len() - 1) as i32;
        let text = self.link_text.get(&node).map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")).unwrap_or_default();
        Some((key, text))
    }

    /// How many figures the pages showed that have no alternative text.
    pub(super) fn figures_without_alt(&self) -> usize {
        (0..self.nodes.len())
            .filter(|&i| self.attached[i] && self.nodes[i].kind == StructKind::Figure && self.nodes[i].alt.is_none())
            .count()
    }

    /// How many Table elements the pages showed (a continuation on a later page counts
    /// again) that have no header cell.
    pub(super) fn tables_without_headers(&self) -> usize {
        (0..self.nodes.len())
            .filter(|&i| self.attached[i] && self.nodes[i].kind == StructKind::Table && !self.headed[self.origin[i] as usize])
            .count()
    }

    /// Writes the structure elements, the parent tree and the StructTreeRoot; returns the
    /// root's reference.
    pub(super) fn write(mut self, chunk: &mut Chunk, refs: &mut Refs, page_refs: &[Ref], lang: &str) -> Ref {
        // A table keeps its empty rows and cells: its grid is what says which header a
        // cell falls under. Parents come before their children, so one pass reaches all.
        for i in 1..self.nodes.len() {
            let parent = self.nodes[i].parent;
            let grid = self.nodes[i].kind.is_table_part();
            if grid && !self.attached[i] && self.attached[parent] {
                self.attached[i] = true;
                self.kids[parent].push(Kid::Node(i as u32));
            }
        }
        let root = refs.alloc();
        let ids: Vec<Option<Ref>> = self.attached.iter().map(|&a| a.then(|| refs.alloc())).collect();
        let parent_tree = refs.alloc();
        for (i, node) in self.nodes.iter().enumerate() {
            let Some(id) = ids[i] else { continue };
            let kids = &mut self.kids[i];
            // Elements are numbered in reading order: an element whose children are all
            // elements lists them so, whatever order the pages drew them in; a table's
            // continuation follows the table it continues.
            if kids.iter().all(|k| matches!(k, Kid::Node(_))) {
                let origin = &self.origin;
                kids.sort_by_key(|k| match k {
                    Kid::Node(n) => (origin[*n as usize], *n),
                    _ => (0, 0),
                });
            }
            // /Type is optional (Table 323) and left out: a document has thousands of these.
            let mut elem = chunk.indirect(id).dict();
            elem.pair(Name(b"S"), Name(role(node.kind)));
            elem.pair(Name(b"P"), if i == 0 { root } else { ids[node.parent].unwrap_or(root) });
            if i == 0 && !lang.is_empty() {
                elem.pair(Name(b"Lang"), TextStr(lang));
            }
            // One page for all its sequences: /Pg once and bare MCIDs (§14.7.2, Table 323).
            let mut pages = kids.iter().filter_map(|k| match k {
                Kid::Mcr(p, _) => Some(*p),
                _ => None,
            });
            let single = pages.next().filter(|first| pages.all(|p| p == *first));
            if let Some(p) = single {
                elem.pair(Name(b"Pg"), page_refs[p as usize]);
            }
            if node.kind == StructKind::Figure {
                if let Some(alt) = &node.alt {
                    elem.pair(Name(b"Alt"), TextStr(alt));
                }
            }
            // §14.9.2.2: a Span's language overrides the document's for its content.
            if let Some(lang) = node.lang.as_deref().filter(|_| node.kind == StructKind::Span) {
                elem.pair(Name(b"Lang"), TextStr(lang));
            }
            let figure_box = self.boxes.get(&(i as u32)).copied();
            if let StructKind::TH(scope) = node.kind {
                let mut a = elem.insert(Name(b"A")).dict();
                a.pair(Name(b"O"), Name(b"Table"));
                a.pair(Name(b"Scope"), Name(scope_name(scope)));
            } else if let Some((_, [x0, y0, x1, y1])) = figure_box {
                let mut a = elem.insert(Name(b"A")).dict();
                a.pair(Name(b"O"), Name(b"Layout"));
                a.pair(Name(b"BBox"), Rect::new(x0, y0, x1, y1));
            }
            let kids: Vec<Kid> = kids.iter().copied().filter(|k| !matches!(k, Kid::Node(n) if ids[*n as usize].is_none())).collect();
            let write_kid = |obj: pdf_writer::Obj<'_>, kid: Kid| match kid {
                Kid::Node(n) => obj.primitive(ids[n as usize].unwrap_or(root)),
                Kid::Mcr(_, mcid) if single.is_some() => obj.primitive(mcid as i32),
                Kid::Mcr(p, mcid) => {
                    let mut mcr = obj.dict();
                    mcr.pair(Name(b"Type"), Name(b"MCR"));
                    mcr.pair(Name(b"Pg"), page_refs[p as usize]);
                    mcr.pair(Name(b"MCID"), mcid as i32);
                }
                Kid::Annot(p, annot) => {
                    let mut objr = obj.dict();
                    objr.pair(Name(b"Type"), Name(b"OBJR"));
                    objr.pair(Name(b"Pg"), page_refs[p as usize]);
                    objr.pair(Name(b"Obj"), annot);
                }
            };
            match kids.as_slice() {
                [] => {}
                [one] => write_kid(elem.insert(Name(b"K")), *one),
                many => {
                    let mut arr = elem.insert(Name(b"K")).array();
                    for &kid in many {
                        write_kid(arr.push(), kid);
                    }
                }
            }
        }
        // The parent tree (§14.7.4.4): page keys give the element of each MCID, then one
        // key per annotation. One flat /Nums array; keys ascend.
        let mut tree = chunk.indirect(parent_tree).dict();
        let mut nums = tree.insert(Name(b"Nums")).array();
        for (page, mcids) in self.pages.iter().enumerate() {
            if mcids.is_empty() {
                continue;
            }
            nums.item(page as i32);
            let mut arr = nums.push().array();
            for &n in mcids {
                arr.item(ids[n as usize].unwrap_or(root));
            }
            arr.finish();
        }
        for (k, &n) in self.annotations.iter().enumerate() {
            nums.item((self.pages.len() + k) as i32);
            nums.item(ids[n as usize].unwrap_or(root));
        }
        nums.finish();
        tree.finish();
        let next_key = (self.pages.len() + self.annotations.len()) as i32;
        let mut tree_root = chunk.indirect(root).dict();
        tree_root.pair(Name(b"Type"), Name(b"StructTreeRoot"));
        if let Some(doc) = ids[0] {
            tree_root.pair(Name(b"K"), doc);
        }
        tree_root.pair(Name(b"ParentTree"), parent_tree);
        tree_root.pair(Name(b"ParentTreeNextKey"), next_key);
        tree_root.finish();
        root
    }
}

/// Whether each node is a table with header cells of its own (not a nested table's).
fn headed_tables(nodes: &[StructNode]) -> Vec<bool> {
    let mut headed = vec![false; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        if !matches!(node.kind, StructKind::TH(_)) {
            continue;
        }
        let mut up = nodes[i].parent;
        while up != 0 && nodes[up].kind != StructKind::Table {
            up = nodes[up].parent;
        }
        headed[up] = up != 0;
    }
    headed
}

/// The `Scope` attribute's value (§14.8.5.7, Table 349).
fn scope_name(scope: Scope) -> &'static [u8] {
    match scope {
        Scope::Column => b"Column",
        Scope::Row => b"Row",
    }
}

/// The standard structure type name of a kind (§14.8.4).
fn role(kind: StructKind) -> &'static [u8] {
    match kind {
        StructKind::Document => b"Document",
        StructKind::H(1) => b"H1",
        StructKind::H(2) => b"H2",
        StructKind::H(3) => b"H3",
        StructKind::H(4) => b"H4",
        StructKind::H(5) => b"H5",
        StructKind::H(_) => b"H6",
        StructKind::P => b"P",
        StructKind::L => b"L",
        StructKind::LI => b"LI",
        StructKind::Lbl => b"Lbl",
        StructKind::LBody => b"LBody",
        StructKind::Table => b"Table",
        StructKind::THead => b"THead",
        StructKind::TBody => b"TBody",
        StructKind::TR => b"TR",
        StructKind::TH(_) => b"TH",
        StructKind::TD => b"TD",
        StructKind::Figure => b"Figure",
        StructKind::Link => b"Link",
        StructKind::TOC => b"TOC",
        StructKind::TOCI => b"TOCI",
        StructKind::Note => b"Note",
        StructKind::Caption => b"Caption",
        StructKind::Span => b"Span",
        StructKind::Decorative => b"Artifact",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(kind: StructKind, parent: usize) -> StructNode {
        StructNode { kind, parent, alt: None, lang: None }
    }

    #[test]
    fn a_table_going_on_to_the_next_page_is_a_new_table_there_nested_ones_too() {
        use StructKind::*;
        // An outer table whose one cell holds a table of two rows, one on each page.
        let kinds = [(Document, 0), (Table, 0), (TBody, 1), (TR, 2), (TD, 3), (Table, 4), (TBody, 5), (TR, 6), (TD, 7), (P, 8), (TR, 6), (TD, 10), (P, 11)];
        let structure = Structure { nodes: kinds.iter().map(|&(k, p)| node(k, p)).collect() };
        let mut tagging = Tagging::new(&structure, 2);
        let mut content = Content::new();
        tagging.mark(&mut content, 0, Tag::of(9), |_| {});
        tagging.end_page(&mut content);
        tagging.mark(&mut content, 1, Tag::of(12), |_| {});
        tagging.end_page(&mut content);
        let continued: Vec<(StructKind, usize)> = tagging.nodes[13..].iter().map(|n| (n.kind, n.parent)).collect();
        assert_eq!(continued, [(Table, 0), (TBody, 13), (TR, 14), (TD, 15), (Table, 16), (TBody, 17)]);
        assert_eq!(tagging.nodes[10].parent, 18, "the second row goes into the continuation");
        assert!(matches!(tagging.kids[0].as_slice(), [Kid::Node(1), Kid::Node(13)]));
        assert_eq!(tagging.tables_without_headers(), 4);
    }

    #[test]
    fn a_table_with_header_cells_stays_one_table_across_pages() {
        use StructKind::*;
        let kinds = [(Document, 0), (Table, 0), (THead, 1), (TR, 2), (TH(Scope::Column), 3), (P, 4), (TBody, 1), (TR, 6), (TD, 7), (P, 8)];
        let structure = Structure { nodes: kinds.iter().map(|&(k, p)| node(k, p)).collect() };
        let mut tagging = Tagging::new(&structure, 2);
        let mut content = Content::new();
        tagging.mark(&mut content, 0, Tag::of(5), |_| {});
        tagging.end_page(&mut content);
        tagging.mark(&mut content, 1, Tag::of(9), |_| {});
        tagging.end_page(&mut content);
        assert_eq!(tagging.nodes.len(), kinds.len(), "no continuation");
        assert_eq!(tagging.tables_without_headers(), 0);
    }
}
