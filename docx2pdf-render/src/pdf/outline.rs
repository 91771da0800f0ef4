//! The document outline (bookmarks panel, ISO 32000-1 §12.3.3) from the heading entries of the layout.

use pdf_writer::{Chunk, Finish, Ref, TextStr};

use super::document::{Refs, Targets};
use crate::frame::{OutlineEntry, Point};
use crate::units::Pt;

/// The outline as a tree over entry indices; `None` stands for the outline root.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Tree {
    /// The parent entry of each entry.
    pub(super) parent: Vec<Option<usize>>,
    /// The number of descendants of each entry (all levels).
    pub(super) descendants: Vec<usize>,
}

impl Tree {
    /// Nests entries by level: an entry becomes a child of the nearest preceding entry
    /// with a smaller level, so a jump like 1 → 3 nests under the open level-1 entry.
    pub(super) fn new(levels: impl IntoIterator<Item = u8>) -> Tree {
        let mut tree = Tree::default();
        let mut open: Vec<(usize, u8)> = Vec::new();
        for (i, level) in levels.into_iter().enumerate() {
            while open.last().is_some_and(|&(_, l)| l >= level) {
                open.pop();
            }
            tree.parent.push(open.last().map(|&(p, _)| p));
            tree.descendants.push(0);
            open.push((i, level));
        }
        // Children follow their parents, so one backward pass sums subtrees.
        for i in (0..tree.parent.len()).rev() {
            if let Some(p) = tree.parent[i] {
                tree.descendants[p] += tree.descendants[i] + 1;
            }
        }
        tree
    }
}

/// Writes the outline; `None` when there are no entries.
pub(super) fn write(
    chunk: &mut Chunk,
    refs: &mut Refs,
    entries: &[OutlineEntry],
    targets: &Targets,
) -> Option<Ref> {
    if entries.is_empty() {
        return None;
    }
    let n = entries.len();
    let tree = Tree::new(entries.iter().map(|e| e.level));
    let root = refs.alloc();
    let ids: Vec<Ref> = (0..n).map(|_| refs.alloc()).collect();

    // Sibling links and first/last children; slot `n` is the root.
    let (mut prev, mut next) = (vec![None; n], vec![None; n]);
    let (mut first, mut last) = (vec![None; n + 1], vec![None::<usize>; n + 1]);
    for (i, parent) in tree.parent.iter().enumerate() {
        let p = parent.unwrap_or(n);
        if let Some(sibling) = last[p] {
            prev[i] = Some(sibling);
            next[sibling] = Some(i);
        }
        first[p].get_or_insert(i);
        last[p] = Some(i);
    }

    // Every item is open, so counts are positive and the root's counts all items (§12.3.3,
    // Tables 152 and 153).
    let mut outline = chunk.outline(root);
    if let (Some(f), Some(l)) = (first[n], last[n]) {
        outline.first(ids[f]).last(ids[l]);
    }
    outline.count(i32::try_from(n).unwrap_or(i32::MAX));
    outline.finish();

    for (i, entry) in entries.iter().enumerate() {
        let mut item = chunk.outline_item(ids[i]);
        item.title(TextStr(&entry.title))
            .parent(tree.parent[i].map_or(root, |p| ids[p]));
        if let Some(p) = prev[i] {
            item.prev(ids[p]);
        }
        if let Some(x) = next[i] {
            item.next(ids[x]);
        }
        if let (Some(f), Some(l)) = (first[i], last[i]) {
            item.first(ids[f]).last(ids[l]);
            item.count(i32::try_from(tree.descendants[i]).unwrap_or(i32::MAX));
        }
        // A stale page index (e.g. a heading on a page that was dropped) goes to the last
        // page rather than losing the bookmark.
        targets.write_xyz(item.dest(), entry.page, Point::new(Pt::ZERO, entry.y));
    }
    Some(root)
}
