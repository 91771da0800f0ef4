//! The footnote area at the foot of a page (§17.11): the separator, the notes of the
//! references the page holds, line by line, and the lines of a long note carried on to
//! the next page under the continuation separator.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fragment::{Fragment, Mark};
use crate::layout::frame::{Item, LineItem, Point, Rgb};
use crate::layout::paragraph::layout_paragraph;
use crate::layout::table::{layout_table, render_row};
use crate::docx::model::NoteKind;
use crate::resolve::{ResolvedBlock, ResolvedNotes};
use crate::units::Pt;

/// Word's footnote separator: a rule 144 pt long at the left margin (measured on
/// Word's own PDFs, e.g. the word corpus case18: 72–216 pt).
const SEPARATOR_LENGTH: Pt = Pt(144.0);
/// The separator rule's thickness, as Word draws it.
const SEPARATOR_THICKNESS: Pt = Pt(0.5);
/// The separator's height when the notes part has no separator note.
const DEFAULT_SEPARATOR_HEIGHT: Pt = Pt(12.0);

/// The footnote references a line holds, in order.
pub(crate) fn footnote_refs(frag: &Fragment) -> Vec<i64> {
    frag.marks
        .iter()
        .filter_map(|m| match m {
            Mark::Note(NoteKind::Footnote, id) => Some(*id),
            _ => None,
        })
        .collect()
}

/// Lays out blocks at `width` as lines for a note area or the endnotes: each fragment is
/// one line (or table row) with its paragraph's spacing, items relative to its top-left.
pub(crate) fn block_lines(
    blocks: &[ResolvedBlock<'_>],
    width: Pt,
    ctx: &mut Ctx<'_>,
) -> Result<Vec<Fragment>, LayoutError> {
    let mut out = Vec::new();
    for block in blocks {
        match block {
            ResolvedBlock::Paragraph(p) => {
                let mut laid = layout_paragraph(p, width, ctx, None)?;
                let n = laid.lines.len();
                for (k, line) in laid.lines.iter_mut().enumerate() {
                    let before = if k == 0 { laid.style.space_before } else { Pt::ZERO };
                    let after = if k + 1 == n { laid.style.space_after } else { Pt::ZERO };
                    let content = line.frag.take_content();
                    let mut frag = Fragment::new(before + content.height + after);
                    frag.append_owned(Point::new(Pt::ZERO, before), content);
                    out.push(frag);
                }
            }
            ResolvedBlock::Table(t) => {
                let laid = layout_table(t, width, ctx, None)?;
                for row in &laid.rows {
                    let (bg, fg) = render_row(row);
                    let mut frag = Fragment::new(row.height);
                    frag.append_owned(Point::new(laid.x, Pt::ZERO), bg);
                    frag.append_owned(Point::new(laid.x, Pt::ZERO), fg);
                    out.push(frag);
                }
            }
        }
    }
    Ok(out)
}

/// A separator note laid out as one fragment, with its rule across the middle of its
/// first line: 144 pt for the separator, the whole `width` for the continuation
/// separator (§17.11.1, §17.11.23; Word draws the rule itself).
pub(crate) fn separator(
    blocks: &[ResolvedBlock<'_>],
    width: Pt,
    full: bool,
    ctx: &mut Ctx<'_>,
) -> Result<Fragment, LayoutError> {
    let lines = block_lines(blocks, width, ctx)?;
    let height: Pt = lines.iter().map(|l| l.height).sum();
    let (height, first) = match lines.first() {
        Some(l) => (height, l.height),
        None => (DEFAULT_SEPARATOR_HEIGHT, DEFAULT_SEPARATOR_HEIGHT),
    };
    let mut frag = Fragment::new(height);
    let y = first * 0.5;
    let length = if full { width } else { SEPARATOR_LENGTH.min(width) };
    frag.push(
        Point::new(Pt::ZERO, y),
        Item::Line(LineItem { to: Point::new(length, y), thickness: SEPARATOR_THICKNESS, color: Rgb(0, 0, 0) }),
    );
    Ok(frag)
}

/// The footnote area of the page being filled, and what goes on to the next page.
#[derive(Debug, Default)]
pub(crate) struct NoteArea {
    /// Lines on this page, top to bottom, the separator first.
    lines: Vec<Fragment>,
    /// The height of `lines`.
    height: Pt,
    /// Lines of notes that did not fit, for the next page.
    carry: Vec<Fragment>,
    /// Notes already given a place (a note is printed once, at its first reference).
    placed: HashSet<i64>,
    /// Notes laid out so far, by id.
    laid: HashMap<i64, Vec<Fragment>>,
    /// The separator and the continuation separator, laid out once.
    separators: Option<(Fragment, Fragment)>,
}

impl NoteArea {
    /// The lines of note `id`, laid out once at `width` with its own mark.
    fn lines_of(
        &mut self,
        notes: &ResolvedNotes<'_>,
        id: i64,
        width: Pt,
        ctx: &mut Ctx<'_>,
    ) -> Result<&[Fragment], LayoutError> {
        let lines = match self.laid.entry(id) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let lines = match notes.notes.get(&id) {
                    Some(blocks) => {
                        ctx.current_note = notes.marks.get(&id).cloned();
                        let lines = block_lines(blocks, width, ctx);
                        ctx.current_note = None;
                        lines?
                    }
                    None => Vec::new(),
                };
                e.insert(lines)
            }
        };
        Ok(lines)
    }

    /// What the footnotes referenced in `refs` would add to the page: all their lines,
    /// and the least Word accepts (the first line of the first note), each with the
    /// separator when the area is still empty. `counted` says the caller already counted
    /// notes above on this page, so the separator is not counted twice.
    pub fn demand(
        &mut self,
        refs: &[i64],
        counted: bool,
        notes: &ResolvedNotes<'_>,
        width: Pt,
        ctx: &mut Ctx<'_>,
    ) -> Result<(Pt, Pt), LayoutError> {
        let (mut full, mut least) = (Pt::ZERO, None);
        for &id in refs {
            if self.placed.contains(&id) {
                continue;
            }
            let lines = self.lines_of(notes, id, width, ctx)?;
            full += lines.iter().map(|l| l.height).sum();
            if least.is_none() {
                least = lines.first().map(|l| l.height);
            }
        }
        if full == Pt::ZERO {
            return Ok((Pt::ZERO, Pt::ZERO));
        }
        let sep =
            if self.lines.is_empty() && !counted { self.separators(notes, width, ctx)?.0.height } else { Pt::ZERO };
        Ok((full + sep, least.unwrap_or(Pt::ZERO) + sep))
    }

    /// The separator and the continuation separator, laid out once at `width`.
    fn separators(
        &mut self,
        notes: &ResolvedNotes<'_>,
        width: Pt,
        ctx: &mut Ctx<'_>,
    ) -> Result<&(Fragment, Fragment), LayoutError> {
        if self.separators.is_none() {
            let first = separator(&notes.separator, width, false, ctx)?;
            let continued = separator(&notes.continuation_separator, width, true, ctx)?;
            self.separators = Some((first, continued));
        }
        Ok(self.separators.get_or_insert_with(Default::default))
    }

    /// Lays out the notes of `refs` and the separators, so that [`NoteArea::add_laid`]
    /// can place them without laying anything out.
    pub fn prepare(
        &mut self,
        refs: &[i64],
        notes: &ResolvedNotes<'_>,
        width: Pt,
        ctx: &mut Ctx<'_>,
    ) -> Result<(), LayoutError> {
        self.separators(notes, width, ctx)?;
        for &id in refs {
            self.lines_of(notes, id, width, ctx)?;
        }
        Ok(())
    }

    /// Adds the notes of `refs` to the page, as many lines as fit in `room`; the rest
    /// goes on to the next page. Returns the height the area grew by.
    pub fn add(
        &mut self,
        refs: &[i64],
        room: Pt,
        notes: &ResolvedNotes<'_>,
        width: Pt,
        ctx: &mut Ctx<'_>,
    ) -> Result<Pt, LayoutError> {
        self.prepare(refs, notes, width, ctx)?;
        Ok(self.add_laid(refs, room))
    }

    /// [`NoteArea::add`] for notes already laid out by [`NoteArea::prepare`]; others are
    /// left out.
    pub fn add_laid(&mut self, refs: &[i64], room: Pt) -> Pt {
        let before = self.height;
        for &id in refs {
            let Some(lines) = self.laid.get(&id).cloned() else { continue };
            if !self.placed.insert(id) {
                continue;
            }
            if lines.is_empty() {
                continue;
            }
            if !self.carry.is_empty() {
                // An earlier note already goes on: this one follows it there.
                self.carry.extend(lines);
                continue;
            }
            let sep = if self.lines.is_empty() { self.separators.as_ref().map(|s| s.0.clone()) } else { None };
            let sep_h = sep.as_ref().map_or(Pt::ZERO, |s| s.height);
            let mut rest = lines.into_iter();
            let mut first = true;
            for line in rest.by_ref() {
                let extra = if first { sep_h } else { Pt::ZERO };
                if self.height - before + extra + line.height > room + Pt(0.01) {
                    self.carry.push(line);
                    break;
                }
                if let (true, Some(sep)) = (first, sep.clone()) {
                    self.push(sep);
                }
                first = false;
                self.push(line);
            }
            self.carry.extend(rest);
        }
        self.height - before
    }

    fn push(&mut self, line: Fragment) {
        self.height += line.height;
        self.lines.push(line);
    }

    /// Whether note lines wait for the next page.
    pub fn has_carry(&self) -> bool {
        !self.carry.is_empty()
    }

    /// A new page: the carried lines under the continuation separator, as many as fit in
    /// `room` (at least one, so a long note always moves on). Returns the area's height.
    pub fn start_page(
        &mut self,
        room: Pt,
        notes: &ResolvedNotes<'_>,
        width: Pt,
        ctx: &mut Ctx<'_>,
    ) -> Result<Pt, LayoutError> {
        if self.carry.is_empty() {
            return Ok(Pt::ZERO);
        }
        let sep = self.separators(notes, width, ctx)?.1.clone();
        self.push(sep);
        let carry = std::mem::take(&mut self.carry);
        let mut rest = carry.into_iter();
        for line in rest.by_ref() {
            if self.lines.len() > 1 && self.height + line.height > room {
                self.carry.push(line);
                break;
            }
            self.push(line);
        }
        self.carry.extend(rest);
        Ok(self.height)
    }

    /// The page's note area as one fragment, its items from the area's top-left corner,
    /// and the area emptied for the next page. `None` when the page has no notes.
    pub fn take_page(&mut self) -> Option<Fragment> {
        if self.lines.is_empty() {
            return None;
        }
        let mut out = Fragment::new(self.height);
        let mut y = Pt::ZERO;
        for line in self.lines.drain(..) {
            let h = line.height;
            out.append_owned(Point::new(Pt::ZERO, y), line);
            y += h;
        }
        self.height = Pt::ZERO;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(h: f64) -> Fragment {
        Fragment::new(Pt(h))
    }

    fn area_with(id: i64, lines: Vec<Fragment>) -> NoteArea {
        let mut a = NoteArea::default();
        a.laid.insert(id, lines);
        a
    }

    #[test]
    fn a_footnote_that_does_not_fit_goes_on_to_the_next_page() {
        let notes = ResolvedNotes::default();
        let fonts = crate::layout::testing::fonts();
        let deadline = crate::deadline::Deadline::none();
        let mut ctx = Ctx::new(fonts, &deadline, Pt(36.0), None, true);
        let mut a = area_with(1, vec![line(10.0), line(10.0), line(10.0)]);
        // Room for the default separator (12) and one line.
        let grew = a.add(&[1], Pt(25.0), &notes, Pt(400.0), &mut ctx).expect("laid out");
        assert_eq!(grew, Pt(22.0));
        assert!(a.has_carry());
        let page = a.take_page().expect("an area");
        assert_eq!(page.height, Pt(22.0));
        let h = a.start_page(Pt(100.0), &notes, Pt(400.0), &mut ctx).expect("laid out");
        assert_eq!(h, Pt(12.0 + 20.0));
        assert!(!a.has_carry());
    }

    #[test]
    fn a_note_is_placed_once() {
        let notes = ResolvedNotes::default();
        let fonts = crate::layout::testing::fonts();
        let deadline = crate::deadline::Deadline::none();
        let mut ctx = Ctx::new(fonts, &deadline, Pt(36.0), None, true);
        let mut a = area_with(4, vec![line(10.0)]);
        let first = a.add(&[4], Pt(100.0), &notes, Pt(400.0), &mut ctx).expect("laid out");
        let again = a.add(&[4], Pt(100.0), &notes, Pt(400.0), &mut ctx).expect("laid out");
        assert_eq!((first, again), (Pt(22.0), Pt::ZERO));
        let (full, _) = a.demand(&[4], false, &notes, Pt(400.0), &mut ctx).expect("laid out");
        assert_eq!(full, Pt::ZERO);
    }
}
