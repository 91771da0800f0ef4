//! The whole layout: resolve, paginate, then fill headers, footers and page fields per page.

use std::collections::HashMap;
use std::sync::Arc;

use super::context::Ctx;
use super::error::LayoutError;
use super::fields::{fill_field, format_field, FieldValues};
use super::flow::Flow;
use super::fonts::FontBook;
use super::fragment::{translate, Mark};
use super::frame::{DocInfo, Layout, OutlineEntry, Page, Point, Positioned, Size, Tag};
use super::header_footer::Parts;
use super::stack::Stack;
use super::text_box::{anchor_origin, AnchorFrame};
use super::page::PageBuild;
use super::page_borders::{page_border_lines, Surround};
use crate::docx::model::{Document, FieldKind, NoteKind};
use crate::deadline::Deadline;
use crate::release::Release;
use crate::resolve::{resolve, ResolvedDocument};
use crate::units::Pt;
use crate::warning::Warning;

/// A laid-out document with what was substituted or skipped.
#[derive(Debug)]
pub struct LaidOut {
    /// The pages, destinations, outline and document information.
    pub layout: Layout,
    /// Substitutions and skips, for the log.
    pub warnings: Vec<Warning>,
}

/// A header or footer item: whatever it is, a pagination artifact (ISO 32000-1 §14.8.2.2).
fn pagination(mut p: Positioned) -> Positioned {
    p.tag = Tag::PAGINATION;
    p
}

/// Puts the objects floating in a header or footer `stack` laid at `at` on the page, each
/// from its anchor as a body object is placed (§20.4.2.10/11): in front of the page's
/// text into `front`, or into `behind`.
fn place_floats(stack: &Stack, at: Point, frame: &AnchorFrame<'_>, front: &mut Vec<Positioned>, behind: &mut Vec<Positioned>) {
    for f in &stack.floats {
        let frame = AnchorFrame { paragraph_top: at.y + f.paragraph_top, ..*frame };
        let o = anchor_origin(f.horizontal.as_ref(), f.vertical.as_ref(), &frame, f.size.width, f.size.height);
        let d = Point::new(o.x + f.offset.x, o.y + f.offset.y);
        let to = if f.behind { &mut *behind } else { &mut *front };
        to.extend(f.frag.items.iter().map(|p| pagination(translate(p, d))));
    }
}

/// Lays out a document.
pub fn layout(doc: &Document, fonts: &FontBook, deadline: &Deadline) -> Result<LaidOut, LayoutError> {
    layout_releasing(doc, fonts, deadline, Release::Free)
}

/// Lays out a document; the resolved styles and the layout's caches are released as
/// `release` says.
pub fn layout_releasing(
    doc: &Document,
    fonts: &FontBook,
    deadline: &Deadline,
    release: Release,
) -> Result<LaidOut, LayoutError> {
    let mut paged = paginate(doc, fonts, deadline, release)?;
    let mut layout = std::mem::take(&mut paged.layout);
    layout.pages.reserve_exact(paged.sizes.len());
    while let Some(page) = paged.next_page() {
        layout.pages.push(page?);
    }
    Ok(LaidOut { layout, warnings: paged.finish() })
}

/// A document paginated, its pages handed out one at a time with their headers, footers,
/// page borders and page fields: a writer that takes each page as it comes never holds
/// them all. Until then a finished page's body is kept packed.
pub struct Paged<'d, 'f> {
    /// Everything but the pages: destinations, outline, document information, structure.
    pub layout: Layout,
    /// The size of each page, in order.
    pub sizes: Vec<Size>,
    builds: std::vec::IntoIter<PageBuild>,
    /// How many pages there are (NUMPAGES), whoever takes `sizes`.
    total: usize,
    resolved: ResolvedDocument<'d>,
    ctx: Ctx<'f>,
    parts: Parts,
    /// The number PAGEREF shows for each bookmark.
    bookmarks: Arc<HashMap<String, String>>,
    per_section: HashMap<usize, usize>,
    /// The index of the page within its section (for `w:display` of page borders).
    in_section: usize,
    previous_section: Option<usize>,
    release: Release,
}

/// Lays out a document's pages; [`Paged::next_page`] finishes them one by one.
pub fn paginate<'d, 'f>(
    doc: &'d Document,
    fonts: &'f FontBook,
    deadline: &'f Deadline,
    release: Release,
) -> Result<Paged<'d, 'f>, LayoutError> {
    deadline.check()?;
    let mut resolved = resolve(doc);
    let mut ctx = Ctx::new(
        fonts,
        deadline,
        resolved.default_tab_stop,
        resolved.compatibility_mode,
        resolved.expand_shift_return,
    );
    ctx.use_document_fonts(doc);
    ctx.kinsoku = super::kinsoku::Kinsoku::of(&doc.settings);
    ctx.grid_in_tables = doc.settings.compat.adjust_line_height_in_table;
    for (kind, notes) in [(NoteKind::Footnote, &resolved.footnotes), (NoteKind::Endnote, &resolved.endnotes)] {
        ctx.note_marks.extend(notes.marks.iter().map(|(id, mark)| ((kind, *id), mark.clone())));
    }
    let mut flow = Flow::new(&resolved, &mut ctx);
    flow.run()?;
    let Flow { mut pages, parts, .. } = flow;
    // The body's resolved blocks are all placed; finishing the pages reads only the
    // sections, headers and footers. Freed now rather than with the rest, so that the
    // writer's pictures and streams do not come on top of them (10,000 paragraphs: 3.4 MB).
    drop(std::mem::take(&mut resolved.body));

    let total = pages.len();
    let mut per_section: HashMap<usize, usize> = HashMap::new();
    for p in &pages {
        *per_section.entry(p.section).or_default() += 1;
    }
    let mut layout = Layout {
        info: DocInfo {
            title: doc.info.title.clone(),
            author: doc.info.author.clone(),
            subject: doc.info.subject.clone(),
            keywords: doc.info.keywords.clone(),
            creator: None,
            created: doc.info.created.clone(),
            modified: doc.info.modified.clone(),
            lang: Some(crate::resolve::document_lang(doc).to_owned()),
            text_title: None,
        },
        structure: std::mem::take(&mut resolved.structure),
        ..Layout::default()
    };
    // Every page's marks are known before any page is finished: PAGEREF shows the number
    // of the page a bookmark lands on, in that page's format, and links lead to bookmarks
    // on later pages.
    let mut bookmarks: HashMap<String, String> = HashMap::new();
    // The text of the first paragraph in the Title style, and of the first heading.
    let (mut title_paragraph, mut first_heading) = (None, None);
    for (index, build) in pages.iter_mut().enumerate() {
        let values = FieldValues {
            page: build.number,
            num_pages: total,
            section_pages: per_section[&build.section],
            page_format: resolved.sections[build.section].page_number_format.clone(),
            bookmarks: Arc::default(),
        };
        for mark in std::mem::take(&mut build.body.marks) {
            match mark {
                Mark::Destination { name, at } => {
                    if !bookmarks.contains_key(&name) {
                        bookmarks.insert(name.clone(), format_field(&FieldKind::Page, &values));
                    }
                    layout.destinations.entry(name).or_insert((index, at));
                }
                Mark::Outline { level, title, at } => layout.outline.push(OutlineEntry { level, title, page: index, y: at.y }),
                Mark::Title { text, heading } => {
                    let first = if heading { &mut first_heading } else { &mut title_paragraph };
                    first.get_or_insert(text);
                }
                // Filled when the page is finished.
                Mark::Field(_) => build.body.marks.push(mark),
                // The flow has already placed the note on this page.
                Mark::Note(..) => {}
            }
        }
    }
    layout.info.text_title = title_paragraph.or(first_heading);
    Ok(Paged {
        layout,
        sizes: pages.iter().map(|p| p.size).collect(),
        builds: pages.into_iter(),
        total,
        resolved,
        ctx,
        parts,
        bookmarks: Arc::new(bookmarks),
        per_section,
        in_section: 0,
        previous_section: None,
        release,
    })
}

impl Paged<'_, '_> {
    /// The next page, finished: header, footer, body, page borders and page fields.
    pub fn next_page(&mut self) -> Option<Result<Page, LayoutError>> {
        let build = self.builds.next()?;
        Some(self.finish_page(build))
    }

    /// Passes over the next page without finishing it, for a PDF that leaves it out: its
    /// header, footer and fields are never laid out, and the pages after it keep their
    /// numbers. `None` when there is no page left.
    pub fn skip_page(&mut self) -> Option<()> {
        let build = self.builds.next()?;
        self.enter_section(build.section);
        self.release.dispose(build);
        Some(())
    }

    /// Counts the page within its section (for `w:display` of page borders).
    fn enter_section(&mut self, section: usize) {
        self.in_section = if self.previous_section == Some(section) { self.in_section + 1 } else { 0 };
        self.previous_section = Some(section);
    }

    fn finish_page(&mut self, mut build: PageBuild) -> Result<Page, LayoutError> {
        self.enter_section(build.section);
        let resolved = &self.resolved;
        let ctx = &mut self.ctx;
        ctx.deadline.check()?;
        let section = &resolved.sections[build.section];
        let values = FieldValues {
            page: build.number,
            num_pages: self.total,
            section_pages: self.per_section[&build.section],
            page_format: section.page_number_format.clone(),
            bookmarks: self.bookmarks.clone(),
        };
        let mut page = Page { size: build.size, items: Vec::new() };
        let width = section.text_width();
        let mirrored = resolved.mirror_margins && build.number % 2 == 0;
        let left = section.left_margin(mirrored);
        let mut surround = Surround::default();
        // Header at `margin_header` from the top, footer ending `margin_footer` above the
        // bottom (§17.6.11).
        let frame = AnchorFrame { section, margin_left: left, column: (left, width), body_top: section.margin_top, paragraph_top: Pt::ZERO };
        let mut behind = Vec::new();
        if let Some(id) = &build.header {
            if let Some(stack) = self.parts.get(resolved, id, width, &values, ctx)? {
                let at = Point::new(left, section.margin_header);
                page.items.extend(stack.to_fragment().items.iter().map(|p| pagination(translate(p, at))));
                place_floats(&stack, at, &frame, &mut page.items, &mut behind);
                surround.header = resolved.borders_surround_header && stack.height > Pt::ZERO;
            }
        }
        if let Some(id) = &build.footer {
            if let Some(stack) = self.parts.get(resolved, id, width, &values, ctx)? {
                let at = Point::new(left, section.page_height - section.margin_footer - stack.height);
                page.items.extend(stack.to_fragment().items.iter().map(|p| pagination(translate(p, at))));
                place_floats(&stack, at, &frame, &mut page.items, &mut behind);
                surround.footer = resolved.borders_surround_footer && stack.height > Pt::ZERO;
            }
        }
        page.items.splice(0..0, behind);
        page.items.extend(build.take_items());
        if let Some(borders) = section.page_borders.filter(|b| b.shown_on(self.in_section)) {
            let lines = page_border_lines(&borders, section, mirrored, surround).items;
            if borders.behind_text {
                page.items.splice(0..0, lines);
            } else {
                page.items.extend(lines);
            }
        }
        for mark in build.body.marks {
            if let Mark::Field(f) = mark {
                page.items.push(fill_field(&f, &values, ctx));
            }
        }
        Ok(page)
    }

    /// What was substituted or skipped; releases the resolved styles and the caches.
    pub fn finish(mut self) -> Vec<Warning> {
        let mut warnings = std::mem::take(&mut self.resolved.warnings);
        warnings.extend(self.ctx.take_warnings());
        self.release.dispose(self.ctx);
        self.release.dispose(self.resolved);
        warnings
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Block, BreakKind, CoreProps, Inline, Paragraph, RunContent, Style, StyleKind};
    use crate::layout::testing::*;

    #[test]
    fn heading_paragraphs_make_outline_entries() {
        let mut doc = doc_of(vec![]);
        let heading = Style { kind: StyleKind::Paragraph, name: Some("heading 1".into()), ..Default::default() };
        doc.styles.styles.insert("Heading1".into(), heading);
        let mut h = para("Introduction");
        h.style = Some("Heading1".into());
        doc.body = vec![Block::Paragraph(para("text")), Block::Paragraph(h)];
        let out = lay(&doc);
        assert_eq!(out.layout.outline.len(), 1);
        let e = &out.layout.outline[0];
        assert_eq!((e.level, e.title.as_str(), e.page), (1, "Introduction", 0));
        assert!((e.y.0 - (72.0 + 11.4990234375)).abs() < 0.01);
    }

    #[test]
    fn the_text_title_is_the_first_title_paragraph_else_the_first_heading() {
        let mut doc = doc_of(vec![]);
        let heading = Style { kind: StyleKind::Paragraph, name: Some("heading 1".into()), ..Default::default() };
        doc.styles.styles.insert("Heading1".into(), heading);
        // A localized Title style keeps the English name under its own id.
        let title = Style { kind: StyleKind::Paragraph, name: Some("Title".into()), ..Default::default() };
        doc.styles.styles.insert("Titel".into(), title);
        let styled = |text: &str, id: &str| Paragraph { style: Some(id.into()), ..para(text) };
        let body = |blocks: Vec<Paragraph>| blocks.into_iter().map(Block::Paragraph).collect::<Vec<_>>();
        doc.body = body(vec![para("text"), styled("Method", "Heading1"), styled("  Annual\treport ", "Titel"), styled("Again", "Titel")]);
        assert_eq!(lay(&doc).layout.info.text_title.as_deref(), Some("Annual report"));
        // A line break parts words.
        let mut broken = styled("AMENDED AND RESTATED", "Heading1");
        if let Inline::Run(r) = &mut broken.inlines[0] {
            r.content.extend([RunContent::Break(BreakKind::Line), RunContent::Text("CERTIFICATE".into())]);
        }
        doc.body = body(vec![para("text"), broken, styled("Results", "Heading1")]);
        assert_eq!(lay(&doc).layout.info.text_title.as_deref(), Some("AMENDED AND RESTATED CERTIFICATE"));
        doc.body = body(vec![para("text")]);
        assert_eq!(lay(&doc).layout.info.text_title, None);
    }

    #[test]
    fn a_bookmark_becomes_a_named_destination() {
        let mut p = para("target");
        p.inlines.insert(0, Inline::Bookmark("_Toc1".into()));
        let out = lay(&doc_of(vec![para("first"), p]));
        let (page, at) = out.layout.destinations["_Toc1"];
        assert_eq!(page, 0);
        assert!((at.y.0 - (72.0 + 11.4990234375)).abs() < 0.01);
    }

    #[test]
    fn document_information_is_passed_on() {
        let mut doc = doc_of(vec![para("x")]);
        doc.info = CoreProps { title: Some("Report".into()), author: Some("Ann".into()), ..Default::default() };
        let out = lay(&doc);
        assert_eq!(out.layout.info.title.as_deref(), Some("Report"));
        assert_eq!(out.layout.info.author.as_deref(), Some("Ann"));
    }

    #[test]
    fn an_empty_document_has_one_blank_page() {
        let out = lay(&doc_of(vec![]));
        assert_eq!(out.layout.pages.len(), 1);
        assert_eq!(out.layout.pages[0].size.width.0, 612.0);
    }

    #[test]
    fn layout_is_deterministic() {
        let doc = doc_of((0..30).map(|i| para(&format!("paragraph {i} with some words"))).collect::<Vec<Paragraph>>());
        let a = lay(&doc);
        let b = lay(&doc);
        assert_eq!(format!("{:?}", a.layout.pages[0].items), format!("{:?}", b.layout.pages[0].items));
    }
}
