//! Pagination: sections, pages, columns, paragraph spacing, breaks, keep and widow rules.

mod float_table;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, Point, Size, Tag};
use crate::layout::header_footer::{pick, Parts};
use crate::layout::page::{body_area, columns, PageBuild, Shelf};
use crate::layout::notes::{block_lines, footnote_refs, separator, NoteArea};
use crate::layout::page_log::{PageLog, PlacedLine};
use crate::layout::paragraph::{border_end, border_step, layout_paragraph, layout_paragraph_around, LaidParagraph};
use crate::layout::paragraph_box::{decorate_line, has_box, LineBox};
use crate::layout::stack::{after_before_table, between, first_cell_style, gap};
use crate::layout::picture;
use crate::layout::text_box::{anchor_origin, box_origin, layout_box, AnchorFrame};
use crate::layout::wrap::{Exclusion, Exclusions};
use crate::layout::table::{fit_row, layout_table, render_row, LaidRow, LaidTable, RowFit};
use crate::docx::model::{BreakKind, Distances, RunContent, SectionStart, Wrap, WrapText};
use crate::resolve::{ParaStyle, ResolvedBlock, ResolvedDocument, ResolvedInline, ResolvedParagraph, ResolvedTable, SectionStyle};
use crate::units::Pt;

/// The most pages a document may lay out to.
pub(crate) const MAX_PAGES: usize = 10_000;
/// Rounding slack when fitting content.
const EPSILON: Pt = Pt(0.01);
/// How far a keep-with-next chain is followed.
const MAX_CHAIN: usize = 64;

/// A block laid out at the column width, ready to be placed.
enum Laid {
    Paragraph(LaidParagraph),
    Table(LaidTable),
    /// The floating text boxes of the body paragraph at this index, placed where the
    /// paragraph landed.
    Boxes(usize),
    /// A block already placed, whose lines have gone to the pages.
    Placed,
}

/// The blocks of one section laid out ahead of the placing: `laid[i]` comes from
/// `sources[i]` (none for floating boxes and the content of inline text boxes).
struct Ahead<'d, 'a> {
    laid: Vec<Laid>,
    sources: Vec<Option<&'d ResolvedBlock<'a>>>,
    /// The body blocks still to lay out.
    blocks: std::ops::Range<usize>,
    /// The column width and left edge the section started with.
    width: Pt,
    column_x: Pt,
    /// The last laid paragraph, while its border room waits for what follows it.
    open: Option<usize>,
}

impl<'d, 'a> Ahead<'d, 'a> {
    fn new(blocks: std::ops::Range<usize>, width: Pt, column_x: Pt) -> Self {
        Ahead { laid: Vec::new(), sources: Vec::new(), blocks, width, column_x, open: None }
    }

    /// Lays out blocks until `laid` holds more than `upto` final entries, or all of them.
    fn fill(&mut self, upto: usize, doc: &'d ResolvedDocument<'a>, ctx: &mut Ctx<'_>) -> Result<(), LayoutError> {
        // An entry is final once the one after it is laid: its border room depends on it.
        while self.laid.len() <= upto + 1 {
            let Some(index) = self.blocks.next() else {
                if let Some(Laid::Paragraph(p)) = self.open.take().map(|k| &mut self.laid[k]) {
                    border_end(p);
                }
                return Ok(());
            };
            let block = &doc.body[index];
            let column_x = std::mem::replace(&mut ctx.column_x, self.column_x);
            let laid = self.lay_out(index, block, ctx);
            ctx.column_x = column_x;
            laid?;
        }
        Ok(())
    }

    /// Lays out body block `index`, after its floating objects (the anchor paragraph's own
    /// lines wrap too) and before the content of its inline text boxes.
    fn lay_out(&mut self, index: usize, block: &'d ResolvedBlock<'a>, ctx: &mut Ctx<'_>) -> Result<(), LayoutError> {
        let width = self.width;
        if let ResolvedBlock::Paragraph(p) = block {
            if p.text_boxes.iter().any(|b| b.shape.anchored) || !p.floating.is_empty() {
                self.push(Laid::Boxes(index), None);
            }
        }
        self.push(lay_out_block(block, width, ctx)?, Some(block));
        let ResolvedBlock::Paragraph(p) = block else { return Ok(()) };
        // An inline box sits in its line like a character; until boxes take part in
        // line layout, its content follows the paragraph.
        for b in p.text_boxes.iter().filter(|b| !b.shape.anchored) {
            for block in &b.blocks {
                self.push(lay_out_block(block, width, ctx)?, None);
            }
        }
        Ok(())
    }

    fn push(&mut self, laid: Laid, source: Option<&'d ResolvedBlock<'a>>) {
        let k = self.laid.len();
        self.laid.push(laid);
        self.sources.push(source);
        let (before, after) = self.laid.split_at_mut(k);
        let prev = match self.open.take().map(|j| &mut before[j]) {
            Some(Laid::Paragraph(p)) => Some(p),
            _ => None,
        };
        let cur = match &mut after[0] {
            Laid::Paragraph(p) => Some(p),
            _ => None,
        };
        if border_step(prev, cur) {
            self.open = Some(k);
        }
    }
}

/// A body block laid out at `width`.
fn lay_out_block(block: &ResolvedBlock<'_>, width: Pt, ctx: &mut Ctx<'_>) -> Result<Laid, LayoutError> {
    Ok(match block {
        ResolvedBlock::Paragraph(p) => Laid::Paragraph(layout_paragraph(p, width, ctx, None)?),
        ResolvedBlock::Table(t) => Laid::Table(layout_table(t, width, ctx, None)?),
    })
}

/// Why the current column began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// The document's first page.
    Start,
    /// Content did not fit.
    Auto,
    /// A page break, page-break-before or a section break.
    Hard,
    /// A page break ending a paragraph: unlike the other hard breaks, Word does not give
    /// the next paragraph its space before at the top of the new page.
    Ended,
}

/// How a floating object sits among the body text.
struct FloatWrap {
    behind: bool,
    wrap: Wrap,
    side: WrapText,
    distance: Distances,
}

/// The paginator's state.
pub(crate) struct Flow<'d, 'a, 'c, 'f> {
    doc: &'d ResolvedDocument<'a>,
    ctx: &'c mut Ctx<'f>,
    /// Header and footer layouts.
    pub parts: Parts,
    /// Pages so far.
    pub pages: Vec<PageBuild>,
    sec: usize,
    col: usize,
    col_w: Pt,
    col_xs: Vec<Pt>,
    /// Each column's width (unequal columns, §17.6.3).
    col_ws: Vec<Pt>,
    /// The lines placed on the current page, for balancing and vertical alignment.
    log: PageLog,
    /// The current page got its separators and vertical alignment.
    page_done: bool,
    top: Pt,
    bottom: Pt,
    y: Pt,
    max_y: Pt,
    col_has_content: bool,
    last_break: Cause,
    pending_after: Pt,
    prev_para: Option<Arc<ParaStyle>>,
    next_number: i64,
    restart: Option<i64>,
    section_first_page: bool,
    mirrored: bool,
    /// Where the last paragraph's first line went: page index and top.
    para_top: Option<(usize, Pt)>,
    /// Which finished pages are packed.
    shelf: Shelf,
    /// Where the last line of a bordered or shaded paragraph ended: page index, column and
    /// bottom, for the next paragraph of the same box.
    box_end: Option<(usize, usize, Pt)>,
    /// The areas floating objects keep the body text out of (text wrap, §20.4.2.15–20).
    exclusions: Exclusions,
    /// The body paragraph about to be placed, to lay out again around floating objects.
    wrap_source: Option<&'d ResolvedParagraph<'a>>,
    /// Blank space above each line of the paragraph being placed, on page `.0`, to clear
    /// objects the line cannot run beside.
    line_skips: (usize, Vec<Pt>),
    /// The footnotes of the current page (§17.11); `bottom` is above them.
    notes: NoteArea,
    /// A page break ended the last paragraph: the next page begins with the next content,
    /// or with the section break that follows, which then makes no page of its own.
    break_pending: bool,
}

impl<'d, 'a, 'c, 'f> Flow<'d, 'a, 'c, 'f> {
    /// A paginator for `doc`.
    pub fn new(doc: &'d ResolvedDocument<'a>, ctx: &'c mut Ctx<'f>) -> Self {
        Flow {
            doc,
            ctx,
            parts: Parts::default(),
            pages: Vec::new(),
            sec: 0,
            col: 0,
            col_w: Pt(1.0),
            col_xs: vec![Pt::ZERO],
            col_ws: vec![Pt(1.0)],
            log: PageLog::default(),
            page_done: false,
            top: Pt::ZERO,
            bottom: Pt::ZERO,
            y: Pt::ZERO,
            max_y: Pt::ZERO,
            col_has_content: false,
            last_break: Cause::Start,
            pending_after: Pt::ZERO,
            prev_para: None,
            next_number: 1,
            restart: None,
            section_first_page: true,
            mirrored: false,
            para_top: None,
            shelf: Shelf::default(),
            box_end: None,
            exclusions: Exclusions::default(),
            wrap_source: None,
            line_skips: (0, Vec::new()),
            notes: NoteArea::default(),
            break_pending: false,
        }
    }

    /// Lays out and places the whole body. Blocks are laid out a little ahead of where they
    /// are placed (far enough for the longest keep-with-next chain the placing looks at),
    /// and dropped once placed: a long document never holds all its laid-out lines at once.
    pub fn run(&mut self) -> Result<(), LayoutError> {
        for (s, range) in section_ranges(self.doc) {
            self.start_section(s)?;
            // The section's blocks are laid out at the width and column of its start, as
            // if all at once; a block that starts in a column of another width is laid out
            // again there.
            let mut ahead = Ahead::new(range, self.col_w, self.ctx.column_x);
            let mut i = 0;
            loop {
                ahead.fill(i + MAX_CHAIN + 2, self.doc, self.ctx)?;
                if i >= ahead.laid.len() {
                    break;
                }
                let (laid, sources) = (&mut ahead.laid, &ahead.sources);
                if let (Some(block), true) = (sources[i], (self.col_w - ahead.width).0.abs() > 0.01) {
                    self.lay_out_again(block, &mut laid[i])?;
                }
                let chain = match &laid[i] {
                    Laid::Paragraph(p) if p.style.keep_next => Some(self.chain_height(i, laid)),
                    _ => None,
                };
                let ahead_need = match (&laid[i], laid.get(i + 1)) {
                    (Laid::Boxes(_), Some(Laid::Paragraph(p))) => Some(self.anchor_need(i + 1, p, laid)),
                    _ => None,
                };
                self.wrap_source = match sources[i] {
                    Some(ResolvedBlock::Paragraph(p)) => Some(p),
                    _ => None,
                };
                let skip = match (&laid[i], self.section_mark_only(sources[i])) {
                    (Laid::Paragraph(p), Some(true)) => self.break_pending || !self.first_line_fits(p),
                    (Laid::Paragraph(_), Some(false)) => true,
                    _ => false,
                };
                if !skip {
                    if std::mem::take(&mut self.break_pending) {
                        self.new_page(Cause::Ended)?;
                    }
                    match &mut laid[i] {
                        Laid::Paragraph(p) => self.place_paragraph(p, chain)?,
                        Laid::Table(t) => match sources[i] {
                            Some(ResolvedBlock::Table(ResolvedTable { position: Some(position), .. })) => {
                                self.place_floating_table(t, position)?
                            }
                            Some(ResolvedBlock::Table(source)) => self.place_table(t, first_cell_style(source))?,
                            _ => self.place_table(t, None)?,
                        },
                        Laid::Boxes(index) => self.place_boxes(*index, ahead_need)?,
                        Laid::Placed => {}
                    }
                }
                laid[i] = Laid::Placed;
                i += 1;
            }
        }
        if std::mem::take(&mut self.break_pending) {
            self.new_page(Cause::Ended)?;
        }
        self.place_endnotes()?;
        // The rest of a long footnote on the last page goes on to pages of its own.
        while self.notes.has_carry() {
            self.new_page(Cause::Auto)?;
        }
        if self.pages.is_empty() {
            self.new_page(Cause::Start)?;
        }
        self.finish_page();
        self.shelf.laid_out(&mut self.pages);
        Ok(())
    }

    /// Lays a block out again at the current column's width: unequal columns (§17.6.3)
    /// give a block that starts in another column another width. The border room made for
    /// the first layout is kept.
    fn lay_out_again(&mut self, block: &ResolvedBlock<'_>, laid: &mut Laid) -> Result<(), LayoutError> {
        match (block, laid) {
            (ResolvedBlock::Paragraph(p), Laid::Paragraph(old)) => {
                let mut new = layout_paragraph(p, self.col_w, self.ctx, None)?;
                new.keep_borders_of(old);
                *old = new;
            }
            (ResolvedBlock::Table(t), Laid::Table(old)) => *old = layout_table(t, self.col_w, self.ctx, None)?,
            _ => {}
        }
        Ok(())
    }

    /// Ends the columns that began at `self.top`: balances them when a continuous section
    /// break follows (§17.6.4: Word evens out the columns of the section that ends on the
    /// page) and draws the separators of `w:cols@w:sep`.
    fn end_region(&mut self, balance: bool) {
        let Some(last) = self.pages.len().checked_sub(1) else { return };
        let st = &self.doc.sections[self.sec];
        let cols: Vec<(Pt, Pt)> = self.col_xs.iter().copied().zip(self.col_ws.iter().copied()).collect();
        if balance && cols.len() > 1 {
            if let Some(bottom) = self.log.balance(&mut self.pages[last], &cols, self.top) {
                self.y = bottom;
                self.max_y = bottom;
            }
        }
        // Word draws a separator only before a column that holds text (measured on corpus
        // `sverrejb_docxide_pdf_input_11`: its last page fills one of three columns and
        // shows no line).
        let bottom = self.max_y.max(self.y);
        let used = self.log.region_columns().min(cols.len());
        if st.column_separator && used > 1 && bottom > self.top {
            let sep = crate::layout::page::separators(&cols[..used], self.top, bottom);
            self.pages[last].place(Point::default(), sep);
        }
        self.log.new_region();
    }

    /// Finishes the current page: separators, then the section's vertical alignment
    /// (§17.6.23) of the body between its top and bottom.
    /// Runs once per page, before the next section's columns replace this one's.
    fn finish_page(&mut self) {
        let Some(last) = self.pages.len().checked_sub(1) else { return };
        if std::mem::replace(&mut self.page_done, true) {
            return;
        }
        self.end_region(false);
        let align = self.doc.sections[self.pages[last].section].v_align;
        self.log.v_align(&mut self.pages[last], align, self.max_y.max(self.y), self.bottom);
        self.log = PageLog::default();
        // The footnote area sits at the foot of the body, above the bottom margin.
        if let Some(area) = self.notes.take_page() {
            let at = Point::new(self.col_xs[0], self.bottom);
            self.pages[last].place(at, area);
        }
    }

    fn page(&mut self) -> &mut PageBuild {
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn region_height(&self) -> Pt {
        self.bottom - self.top
    }

    fn set_columns(&mut self, s: usize) {
        let cols = columns(&self.doc.sections[s], self.mirrored);
        self.col_xs = cols.iter().map(|c| c.0).collect();
        self.col_ws = cols.iter().map(|c| c.1).collect();
        self.col_w = self.col_ws[0];
        self.ctx.column_x = self.col_xs[0];
    }

    /// Starts section `s` as its `w:type` says (§17.6.22).
    fn start_section(&mut self, s: usize) -> Result<(), LayoutError> {
        let st = &self.doc.sections[s];
        self.ctx.line_pitch = st.line_pitch;
        if st.page_number_start.is_some() {
            self.restart = st.page_number_start;
        }
        if self.pages.is_empty() {
            self.sec = s;
            self.section_first_page = true;
            self.set_columns(s);
            return self.new_page(Cause::Start);
        }
        let cur = &self.doc.sections[self.sec];
        let same_size = cur.page_width == st.page_width && cur.page_height == st.page_height;
        // A page break just before a section break that starts a new page is that page
        // break: Word makes one page of the two (Aawahan_Electric-Circuit-Simulation_SRS
        // and 1Fragrance_JavaTrySprint_Otchet in corpus/word, whose cover pages end with a
        // page break and then a next-page section break, start their second section on
        // page 2).
        if std::mem::take(&mut self.break_pending) && !opens_page(cur, st) {
            self.new_page(Cause::Ended)?;
        }
        match st.start {
            // A continuous break that changes the page size starts a new page (notes §4).
            SectionStart::Continuous if same_size => {
                self.end_region(true);
                self.sec = s;
                self.set_columns(s);
                let y = self.max_y.max(self.y);
                self.top = y;
                self.y = y;
                self.max_y = y;
                self.col = 0;
                Ok(())
            }
            SectionStart::NextColumn if self.col + 1 < self.col_xs.len() && same_size => {
                self.sec = s;
                self.next_column(Cause::Hard)
            }
            start => {
                if matches!(start, SectionStart::EvenPage | SectionStart::OddPage) {
                    let n = self.restart.unwrap_or(self.next_number);
                    if (n % 2 == 0) != (start == SectionStart::EvenPage) {
                        // A blank page of the previous section fixes the parity.
                        let restart = self.restart.take();
                        self.new_page(Cause::Hard)?;
                        self.restart = restart;
                    }
                }
                self.finish_page();
                self.sec = s;
                self.section_first_page = true;
                self.set_columns(s);
                self.new_page(Cause::Hard)
            }
        }
    }

    fn new_page(&mut self, cause: Cause) -> Result<(), LayoutError> {
        self.finish_page();
        self.shelf.finished(&mut self.pages);
        let limit = self.ctx.deadline.max_pages().unwrap_or(MAX_PAGES);
        if self.pages.len() >= limit {
            return Err(LayoutError::TooManyPages { limit });
        }
        self.ctx.deadline.check()?;
        let st = &self.doc.sections[self.sec];
        let number = self.restart.take().unwrap_or(self.next_number);
        self.next_number = number.saturating_add(1);
        self.mirrored = self.doc.mirror_margins && number % 2 == 0;
        let first = std::mem::replace(&mut self.section_first_page, false);
        let even_odd = self.doc.even_and_odd_headers;
        let header = pick(&st.headers, first, st.title_page, even_odd, number);
        let footer = pick(&st.footers, first, st.title_page, even_odd, number);
        let width = st.text_width();
        let hh = self.parts.height(self.doc, header.as_deref(), width, self.ctx)?;
        let fh = self.parts.height(self.doc, footer.as_deref(), width, self.ctx)?;
        let area = body_area(st, hh, fh);
        self.pages.push(PageBuild {
            size: Size { width: st.page_width, height: st.page_height },
            body: Fragment::new(Pt::ZERO),
            section: self.sec,
            number,
            header,
            footer,
            packed: None,
        });
        self.page_done = false;
        self.set_columns(self.sec);
        self.col = 0;
        self.top = area.top;
        self.bottom = area.bottom;
        self.y = area.top;
        self.max_y = area.top;
        self.col_has_content = false;
        self.last_break = cause;
        // A footnote continued from the page before comes first in this page's note area.
        let room = self.region_height() * 0.75;
        let carried = self.notes.start_page(room, &self.doc.footnotes, self.note_width(), self.ctx)?;
        self.bottom -= carried;
        Ok(())
    }

    /// Notes are laid out across the section's text width.
    fn note_width(&self) -> Pt {
        self.doc.sections[self.sec].text_width()
    }

    fn next_column(&mut self, cause: Cause) -> Result<(), LayoutError> {
        self.max_y = self.max_y.max(self.y);
        if self.col + 1 < self.col_xs.len() {
            self.col += 1;
            self.col_w = self.col_ws[self.col];
            self.log.column_break(cause == Cause::Hard);
            self.y = self.top;
            self.col_has_content = false;
            self.last_break = cause;
            Ok(())
        } else {
            self.new_page(cause)
        }
    }

    fn col_x(&self) -> Pt {
        self.col_xs.get(self.col).copied().unwrap_or(Pt::ZERO)
    }

    /// How much a keep-with-next chain starting at `i` needs: the chained paragraphs whole
    /// and the first lines of the paragraph after (two with widow control).
    fn chain_height(&self, i: usize, laid: &[Laid]) -> Pt {
        let mut h = Pt::ZERO;
        for (k, block) in laid.iter().enumerate().skip(i).take(MAX_CHAIN) {
            match block {
                Laid::Paragraph(p) if p.lines.is_empty() => continue,
                Laid::Paragraph(p) => {
                    if k > i {
                        h += p.style.space_before;
                    }
                    if p.style.keep_next && k + 1 < laid.len() {
                        h += p.lines_height() + p.style.space_after;
                        continue;
                    }
                    let n = if k == i {
                        p.lines.len()
                    } else if p.style.widow_control {
                        2
                    } else {
                        1
                    };
                    h += p.lines.iter().take(n).map(|l| l.frag.height).sum();
                    break;
                }
                Laid::Table(t) => {
                    h += t.rows.first().map(|r| r.height).unwrap_or(Pt::ZERO);
                    break;
                }
                Laid::Boxes(_) | Laid::Placed => continue,
            }
        }
        h
    }

    /// Places a paragraph's lines; `chain` is the height its keep-with-next chain needs.
    fn place_paragraph(&mut self, p: &mut LaidParagraph, chain: Option<Pt>) -> Result<(), LayoutError> {
        if p.lines.is_empty() {
            return Ok(());
        }
        let st = p.style.clone();
        let page_has_content = self.col_has_content || self.col > 0;
        if st.page_break_before && page_has_content {
            self.new_page(Cause::Hard)?;
        }
        let (prev_after, before) = gap(self.prev_para.as_deref(), self.pending_after, &st, self.own_before(&st));
        let break_first = opens_with_page_break(p);
        if let (Some(chain), true, false) = (chain, self.col_has_content, break_first) {
            if chain <= self.region_height() && self.y + between(prev_after, before) + chain > self.bottom + EPSILON {
                self.next_column(Cause::Auto)?;
            }
        }
        self.wrap_around(p, prev_after, before)?;
        let n = p.lines.len();
        let mut s = 0;
        while s < n {
            // The lines up to the next hard break must go here or on following pages.
            let chunk_end = (s..n).find(|&k| p.lines[k].brk.is_some()).map(|k| k + 1).unwrap_or(n);
            let lead = if s > 0 { Pt::ZERO } else { self.first_lead(prev_after, before) };
            let room = self.bottom - self.y - lead;
            let mut fit = 0;
            let mut used = Pt::ZERO;
            // A page holds the footnotes of the lines it holds (§17.11): their height comes
            // off the room; a long note may go on to the next page from its first line.
            let mut notes_h = Pt::ZERO;
            while s + fit < chunk_end {
                let h = p.lines[s + fit].frag.height + self.skip_at(s + fit, s);
                // What must fit: the line without the extra its spacing may hang below.
                let need = h - p.lines[s + fit].hang;
                let refs = footnote_refs(&p.lines[s + fit].frag);
                let (full, least) = if refs.is_empty() {
                    (Pt::ZERO, Pt::ZERO)
                } else {
                    let width = self.note_width();
                    self.notes.demand(&refs, notes_h > Pt::ZERO, &self.doc.footnotes, width, self.ctx)?
                };
                if used + need + notes_h + full <= room + EPSILON {
                    notes_h += full;
                } else if full > Pt::ZERO && used + need + notes_h + least <= room + EPSILON {
                    used += h;
                    fit += 1;
                    break;
                } else {
                    break;
                }
                used += h;
                fit += 1;
            }
            let raw_fit = fit;
            if fit < chunk_end - s {
                if st.widow_control {
                    // A widow: the last line alone on the next page takes one more along.
                    if chunk_end == n && n - (s + fit) == 1 && fit > 1 {
                        fit -= 1;
                    }
                    // An orphan: the first line alone at the bottom moves on.
                    if s == 0 && fit == 1 && n > 1 {
                        fit = 0;
                    }
                }
                if st.keep_lines && s == 0 && p.lines_height() <= self.region_height() {
                    fit = 0;
                }
                if fit == 0 && (!self.col_has_content || (s == 0 && break_first)) {
                    fit = raw_fit.max(1);
                }
            }
            if fit > 0 {
                self.y += lead;
                for k in s..s + fit {
                    let refs = footnote_refs(&p.lines[k].frag);
                    self.y += self.skip_at(k, s);
                    self.place_line(p, k);
                    if !refs.is_empty() {
                        let width = self.note_width();
                        let room = self.bottom - self.y;
                        self.bottom -= self.notes.add(&refs, room, &self.doc.footnotes, width, self.ctx)?;
                    }
                }
                s += fit;
            }
            if s >= chunk_end {
                match p.lines[s - 1].brk {
                    // A page break that ends its paragraph (in Word 2013+ layout the mark
                    // takes no line after it) leaves the next paragraph at the very top:
                    // `developer0hye_office2pdf_05_technical_manual_en` (corpus/word) sets
                    // its 14 pt-before heading after a paragraph holding only a page break
                    // flush at the top margin, as betteroffice #616 measured on Word 16.113.
                    Some(BreakKind::Page) if s >= n => self.break_pending = true,
                    Some(BreakKind::Page) => self.new_page(Cause::Hard)?,
                    Some(BreakKind::Column) => self.next_column(Cause::Hard)?,
                    _ => {}
                }
            } else {
                self.next_column(Cause::Auto)?;
            }
        }
        self.pending_after = st.space_after;
        self.prev_para = Some(st);
        Ok(())
    }

    fn place_line(&mut self, p: &mut LaidParagraph, k: usize) {
        let frag = p.lines[k].frag.take_content();
        let st = &p.style;
        // §17.3.1.18: with mirrored indents the left indent is the inside one, on the right
        // of an even page. Word mirrors the paragraph's box, its hanging first line
        // included, and keeps its width: on even pages of DavidZimen_POT_semestralka_Dokumentacia
        // (corpus/word; its Normal mirrors) toc 2 entries (12 pt left) stand at the margin,
        // bullets (36 pt left, 18 hanging) at it with their text 18 pt in, numbered headings
        // (hanging to the margin) where they are on odd pages.
        let mirror = if st.mirror_indents && self.pages.len() % 2 == 0 {
            st.indent_right - st.indent_left.min(st.indent_left + st.first_line)
        } else {
            Pt::ZERO
        };
        let (x, y, h) = (self.col_x() + mirror, self.y, frag.height);
        let left = x + st.indent_left.min(st.indent_left + st.first_line);
        let right = x + self.col_w - st.indent_right;
        let mut deco = Fragment::new(h);
        let col = self.col;
        let page_index = self.pages.len() - 1;
        if has_box(p) {
            // A paragraph that continues a box runs its sides and shading on up through the
            // space between it and the previous paragraph when both are in one column.
            let top = match self.box_end {
                Some((pg, c, end)) if k == 0 && !p.border_top && pg == page_index && c == col && end <= y => end,
                _ => y,
            };
            decorate_line(&mut deco, p, k, LineBox { left, right, top, y, height: h });
            self.box_end = Some((page_index, col, y + h));
        } else {
            self.box_end = None;
        }
        if k == 0 {
            self.para_top = Some((self.pages.len() - 1, y));
        }
        let page = self.page();
        let (items, marks) = (page.body.items.len(), page.body.marks.len());
        page.place(Point::default(), deco);
        page.place(Point::new(x, y), frag);
        let placed = PlacedLine {
            items: items..page.body.items.len(),
            marks: marks..page.body.marks.len(),
            col,
            top: y,
            height: h,
            starts_paragraph: k == 0,
        };
        self.log.push(placed);
        self.y += h;
        self.col_has_content = true;
    }

    /// Places a table; `first` is the style of the first paragraph of its first cell.
    fn place_table(&mut self, t: &LaidTable, first: Option<&ParaStyle>) -> Result<(), LayoutError> {
        let refs: Vec<i64> =
            t.rows.iter().flat_map(|r| &r.cells).flat_map(|c| &c.lines).flat_map(|(_, f)| footnote_refs(f)).collect();
        if !refs.is_empty() {
            let width = self.note_width();
            self.notes.prepare(&refs, &self.doc.footnotes, width, self.ctx)?;
        }
        let after = after_before_table(self.prev_para.as_deref(), self.pending_after, first);
        if self.col_has_content {
            self.y += after;
        }
        self.pending_after = Pt::ZERO;
        self.prev_para = None;
        // A table does not run beside a floating object: it starts below it.
        let first_row = t.rows.first().map(|r| r.height).unwrap_or(Pt::ZERO);
        self.y = self.exclusions.clear_below(self.pages.len() - 1, (self.col_x(), self.col_w), self.y, first_row);
        let mut bg = Fragment::new(Pt::ZERO);
        let mut fg = Fragment::new(Pt::ZERO);
        let mut r = 0;
        let mut current: Option<Cow<'_, LaidRow>> = None;
        // Whether the column holds nothing but repeated header rows.
        let mut only_headers = false;
        while r < t.rows.len() {
            self.ctx.deadline.check()?;
            let row = current.take().unwrap_or(Cow::Borrowed(&t.rows[r]));
            let fresh = !self.col_has_content || only_headers;
            match fit_row(&row, self.bottom - self.y, self.region_height(), fresh, r < t.header_rows) {
                RowFit::Here => {}
                RowFit::NextRegion => {
                    self.flush(&mut bg, &mut fg);
                    self.next_column(Cause::Auto)?;
                    only_headers = self.repeat_headers(t, r, &mut bg, &mut fg);
                    current = Some(row);
                    continue;
                }
                RowFit::Split(here, rest) => {
                    self.put_row(&here, t.x, &mut bg, &mut fg);
                    self.flush(&mut bg, &mut fg);
                    self.next_column(Cause::Auto)?;
                    only_headers = self.repeat_headers(t, r, &mut bg, &mut fg);
                    current = Some(Cow::Owned(rest));
                    continue;
                }
            }
            self.put_row(&row, t.x, &mut bg, &mut fg);
            only_headers = false;
            r += 1;
        }
        self.flush(&mut bg, &mut fg);
        Ok(())
    }

    /// What a floating object on `page` is placed against, its paragraph's top at
    /// `paragraph_top`.
    fn anchor_frame(&self, page: usize, paragraph_top: Pt) -> AnchorFrame<'d> {
        let section = &self.doc.sections[self.pages[page].section];
        AnchorFrame {
            section,
            margin_left: section.left_margin(self.mirrored),
            column: (self.col_x(), self.col_w),
            body_top: self.top,
            paragraph_top,
        }
    }

    /// Places the floating text boxes of body paragraph `index` on the page where its
    /// first line went, over the body text.
    fn place_boxes(&mut self, index: usize, ahead: Option<(Arc<ParaStyle>, Pt)>) -> Result<(), LayoutError> {
        let ResolvedBlock::Paragraph(p) = &self.doc.body[index] else { return Ok(()) };
        let (page, top) = match &ahead {
            Some((st, need)) => {
                let (page, top) = self.anchor_top(st, *need)?;
                // A picture that wraps the text and stands below its paragraph's top goes
                // with its paragraph to the next page rather than off this one's foot:
                // Word starts FiryanulRizky_RisetOperasi_SimpleksMaksimasi_Laporan's
                // "Halaman Lihat Algoritma" item on the next page with its 359 pt picture
                // below it (corpus/word, 33 pages; GaborSzucs98_ASPNETVote_Dokumentacio's
                // "Komponensek:" likewise).
                if self.col_has_content && self.falls_off(p, page, top) {
                    self.next_column(Cause::Auto)?;
                    self.anchor_top(st, *need)?
                } else {
                    (page, top)
                }
            }
            None => match self.para_top {
                Some(at) => at,
                None => return Ok(()),
            },
        };
        let frame = self.anchor_frame(page, top);
        for tb in p.text_boxes.iter().filter(|b| b.shape.anchored) {
            let (width, frag) = layout_box(tb, self.col_w, self.ctx)?;
            let height = frag.height;
            let at = box_origin(tb, &frame, width, height);
            let s = &tb.shape;
            let float = FloatWrap { behind: s.behind_text, wrap: s.wrap, side: s.wrap_text, distance: s.distance };
            self.place_float(page, at, frag, width, float);
        }
        for f in &p.floating {
            let (picture, anchor) = (f.picture, f.anchor);
            let (size, frag) = picture::floating(picture, f.tag, self.ctx);
            let at = anchor_origin(anchor.horizontal.as_ref(), anchor.vertical.as_ref(), &frame, size.width, size.height);
            let float = FloatWrap {
                behind: anchor.behind_text,
                wrap: anchor.wrap,
                side: anchor.wrap_text,
                distance: anchor.distance,
            };
            self.place_float(page, at, frag, size.width, float);
        }
        Ok(())
    }

    /// Whether a picture of `p` that wraps the text and is placed from the paragraph or its
    /// line would run below the foot of the body on `page`, the paragraph starting at `top`.
    fn falls_off(&self, p: &ResolvedParagraph<'_>, page: usize, top: Pt) -> bool {
        let frame = self.anchor_frame(page, top);
        p.floating.iter().any(|f| {
            let anchor = f.anchor;
            let from_text = anchor
                .vertical
                .as_ref()
                .and_then(|v| v.relative_from.as_deref())
                .is_some_and(|r| r == "paragraph" || r == "line");
            if anchor.wrap == Wrap::None || anchor.behind_text || !from_text {
                return false;
            }
            let size = picture::size(f.picture);
            let at = anchor_origin(anchor.horizontal.as_ref(), anchor.vertical.as_ref(), &frame, size.width, size.height);
            at.y + size.height > self.bottom + EPSILON
        })
    }

    /// Puts a floating object on `page` at `at`, in front of the text or behind it, and keeps
    /// the body text out of its wrap area (§20.4.2.15–20).
    fn place_float(&mut self, page: usize, at: Point, frag: Fragment, width: Pt, float: FloatWrap) {
        let height = frag.height;
        if float.behind {
            let before = self.pages[page].body.items.len();
            self.pages[page].place_behind(at, frag);
            if page + 1 == self.pages.len() {
                self.log.inserted_in_front(self.pages[page].body.items.len() - before);
            }
        } else {
            self.pages[page].place(at, frag);
        }
        let d = float.distance;
        let area = (at.x, at.y, width, height);
        let room = (d.top.pt(), d.bottom.pt(), d.left.pt(), d.right.pt());
        if let Some(e) = Exclusion::new(page, float.wrap, float.side, area, room) {
            self.exclusions.add(e);
        }
    }

    /// What the paragraph at `laid[i]` needs on a page to start there: its keep-with-next
    /// chain, or its first lines (two with widow control), with its style.
    fn anchor_need(&self, i: usize, p: &LaidParagraph, laid: &[Laid]) -> (Arc<ParaStyle>, Pt) {
        let need = if p.style.keep_next {
            self.chain_height(i, laid)
        } else {
            let n = if p.style.widow_control && p.lines.len() > 1 { 2 } else { 1 };
            p.lines.iter().take(n).map(|l| l.frag.height).sum()
        };
        (p.style.clone(), need)
    }

    /// Where an anchor paragraph of style `st`, needing `need` to start, will begin: its
    /// page and top. Moves to the next page first when it will, so that its floating
    /// objects go with it (the checks of `place_paragraph`, which then finds them done).
    fn anchor_top(&mut self, st: &ParaStyle, need: Pt) -> Result<(usize, Pt), LayoutError> {
        if st.page_break_before && (self.col_has_content || self.col > 0) {
            self.new_page(Cause::Hard)?;
        }
        let (prev_after, before) = gap(self.prev_para.as_deref(), self.pending_after, st, self.own_before(st));
        // Its first lines start below any object on the page that leaves them no room
        // beside it: Word sets GaborSzucs98_ASPNETVote_Dokumentacio's "Komponensek:", with
        // its picture, on the page after a square-wrapped picture as wide as the column
        // that fills the foot of the page.
        let top = self.y + between(prev_after, before);
        let page = self.pages.len() - 1;
        let top = self.exclusions.first_room(page, (self.col_x(), self.col_w), top, need);
        if self.col_has_content && need <= self.region_height() && top + need > self.bottom + EPSILON {
            self.next_column(Cause::Auto)?;
        }
        Ok((self.pages.len() - 1, self.y + self.first_lead(prev_after, before)))
    }

    /// Whether `block` is an empty paragraph whose mark is a section break, and if so
    /// whether the next section starts a new page.
    ///
    /// Word never gives such a mark a page of its own: after a page break it stays behind
    /// the break, the section's new page being the break's (the empty paragraph holding
    /// Aawahan_Electric-Circuit-Simulation_SRS's first `w:sectPr` after a page break), and
    /// at the foot of a full page it stays on that page
    /// (AndresMunozB_Paradigmas-Scheme_Informe: a 1.5-line mark below the last line of its
    /// table of figures; the next section starts on the next page, not the one after).
    ///
    /// Before a continuous section it takes no room at all: the next section's first line
    /// stands where the mark's would (AndresMunozB_Paradigmas-Scheme_Informe around its
    /// two-column figures, twice 30.7 pt, a 1.5-line 12 pt mark with 10 pt after;
    /// dries007_Project2_Verslag's listings start right under their headings).
    fn section_mark_only(&self, block: Option<&ResolvedBlock<'_>>) -> Option<bool> {
        let Some(ResolvedBlock::Paragraph(p)) = block else { return None };
        let closed = p.closes_section?;
        let blank = |c: &RunContent| matches!(c, RunContent::Text(t) if t.is_empty());
        let empty = p.label.is_none()
            && p.text_boxes.is_empty()
            && p.inlines.iter().all(|i| !matches!(i, ResolvedInline::Run(r) if !r.content.iter().all(blank)));
        let next = self.doc.sections.get(closed + 1)?;
        empty.then(|| opens_page(&self.doc.sections[closed], next))
    }

    /// Whether the first line of `p` fits on the current page below what it holds.
    fn first_line_fits(&self, p: &LaidParagraph) -> bool {
        let Some(line) = p.lines.first() else { return true };
        let (prev_after, before) = gap(self.prev_para.as_deref(), self.pending_after, &p.style, self.own_before(&p.style));
        self.y + self.first_lead(prev_after, before) + line.frag.height - line.hang <= self.bottom + EPSILON
    }

    /// A paragraph's own `before` where it starts now: the document's first paragraph has no
    /// autospacing before it, as no margin opens an HTML page (LibreOffice's DomainMapper
    /// sets it to 0 for the first paragraph of the first section, as for a cell's first).
    fn own_before(&self, st: &ParaStyle) -> Pt {
        let document_start = matches!(self.last_break, Cause::Start) && !self.col_has_content && self.col == 0;
        if st.before_autospacing && document_start {
            Pt::ZERO
        } else {
            st.space_before
        }
    }

    /// The space above a paragraph's first line where it starts now (as `place_paragraph`
    /// reckons it).
    fn first_lead(&self, prev_after: Pt, before: Pt) -> Pt {
        if self.col_has_content {
            between(prev_after, before)
        } else {
            // Top of a page: `before` is dropped after an automatic break or a page break
            // ending the paragraph before, and kept after a paragraph's own page break
            // before or a section break, less the previous paragraph's `after` (notes §3).
            match self.last_break {
                Cause::Auto | Cause::Ended => Pt::ZERO,
                Cause::Hard => (before - prev_after).max(Pt::ZERO),
                Cause::Start => before,
            }
        }
    }

    /// Lays the paragraph about to be placed out again when floating objects on this page
    /// reach below the current position, each line in the room beside them.
    fn wrap_around(&mut self, p: &mut LaidParagraph, prev_after: Pt, before: Pt) -> Result<(), LayoutError> {
        self.line_skips.1.clear();
        let Some(src) = self.wrap_source.take() else { return Ok(()) };
        let page = self.pages.len() - 1;
        if !self.exclusions.any_below(page, self.y) {
            return Ok(());
        }
        let top = self.y + self.first_lead(prev_after, before);
        let column = (self.col_x(), self.col_w);
        let exclusions = &self.exclusions;
        let mut around = |y: Pt, h: Pt| exclusions.band(page, column, top + y, h);
        let (mut new, skips) = layout_paragraph_around(src, self.col_w, self.ctx, &mut around)?;
        new.keep_borders_of(p);
        *p = new;
        self.line_skips = (page, skips);
        Ok(())
    }

    /// The blank space above line `k` of the paragraph being placed, whose chunk starts at
    /// line `s`: none on another page than the one it was laid out for, nor at the top
    /// of a fresh column of it.
    fn skip_at(&self, k: usize, s: usize) -> Pt {
        let (page, skips) = &self.line_skips;
        if *page + 1 != self.pages.len() || (k == s && s > 0 && !self.col_has_content) {
            return Pt::ZERO;
        }
        skips.get(k).copied().unwrap_or(Pt::ZERO)
    }

    /// Places the endnotes after the body (§17.11.4: `docEnd`, Word's default): the
    /// separator, then each referenced note in reading order with its own mark.
    fn place_endnotes(&mut self) -> Result<(), LayoutError> {
        let doc = self.doc;
        let notes = &doc.endnotes;
        if notes.order.is_empty() || self.pages.is_empty() {
            return Ok(());
        }
        let mut lines = vec![separator(&notes.separator, self.col_w, false, self.ctx)?];
        for id in &notes.order {
            let Some(blocks) = notes.notes.get(id) else { continue };
            self.ctx.current_note = notes.marks.get(id).cloned();
            let laid = block_lines(blocks, self.col_w, self.ctx);
            self.ctx.current_note = None;
            lines.extend(laid?);
        }
        if self.col_has_content {
            self.y += self.pending_after;
        }
        self.pending_after = Pt::ZERO;
        self.prev_para = None;
        for line in lines {
            if self.col_has_content && self.y + line.height > self.bottom + EPSILON {
                self.next_column(Cause::Auto)?;
            }
            let at = Point::new(self.col_x(), self.y);
            self.y += line.height;
            self.col_has_content = true;
            self.page().place(at, line);
        }
        Ok(())
    }

    /// Repeats the header rows at the top of a new column; true when it placed some.
    fn repeat_headers(&mut self, t: &LaidTable, r: usize, bg: &mut Fragment, fg: &mut Fragment) -> bool {
        if t.header_rows == 0 || r < t.header_rows {
            return false;
        }
        let h: Pt = t.rows[..t.header_rows].iter().map(|r| r.height).sum();
        if h > self.region_height() * 0.5 {
            return false;
        }
        let from = fg.items.len();
        for row in &t.rows[..t.header_rows] {
            self.put_row(row, t.x, bg, fg);
        }
        // The repeated header rows are pagination artifacts: the tree holds them once
        // (ISO 32000-1 §14.8.2.2).
        fg.retag(from, Tag::PAGINATION);
        true
    }

    fn put_row(&mut self, row: &LaidRow, x: Pt, bg: &mut Fragment, fg: &mut Fragment) {
        let (b, f) = render_row(row);
        let at = Point::new(self.col_x() + x, self.y);
        bg.append(at, &b);
        fg.append(at, &f);
        self.y += row.height;
        self.col_has_content = true;
        // The footnotes of the row's references (laid out by `place_table`) go on its page.
        let refs = footnote_refs(&f);
        if !refs.is_empty() {
            let room = self.bottom - self.y;
            self.bottom -= self.notes.add_laid(&refs, room);
        }
    }

    fn flush(&mut self, bg: &mut Fragment, fg: &mut Fragment) {
        let (b, f) = (bg.take_content(), fg.take_content());
        let page = self.page();
        let (items, marks) = (page.body.items.len(), page.body.marks.len());
        page.place(Point::default(), b);
        page.place(Point::default(), f);
        let (items, marks) = (items..page.body.items.len(), marks..page.body.marks.len());
        self.log.other_content(self.col, items, marks);
    }
}

/// Whether section `next`, after `cur`, starts on a page of its own: any break but a
/// continuous or next-column one, and any that changes the page size (notes §4).
fn opens_page(cur: &SectionStyle, next: &SectionStyle) -> bool {
    let same_size = cur.page_width == next.page_width && cur.page_height == next.page_height;
    !same_size || !matches!(next.start, SectionStart::Continuous | SectionStart::NextColumn)
}

/// Body blocks per section: a paragraph with `closes_section` ends its section.
fn section_ranges(doc: &ResolvedDocument<'_>) -> Vec<(usize, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, block) in doc.body.iter().enumerate() {
        if let ResolvedBlock::Paragraph(p) = block {
            if let Some(s) = p.closes_section {
                out.push((s, start..i + 1));
                start = i + 1;
            }
        }
    }
    let last = doc.sections.len().saturating_sub(1);
    if start < doc.body.len() || out.is_empty() {
        out.push((last, start..doc.body.len()));
    }
    out
}

/// Whether a paragraph opens with a line that holds nothing but a page break. Word leaves
/// that line where the paragraph starts, at the foot of a full page too, whatever its
/// keep options: the paragraph's text opens the next page, not the one after
/// (AidarShaimov_carLoan_Otchet: a keep-with-next, keep-lines heading whose first run is a
/// page break, below the last line of a full page; Word sets the heading at the top of the
/// next page).
fn opens_with_page_break(p: &LaidParagraph) -> bool {
    let Some(first) = p.lines.first() else { return false };
    p.lines.len() > 1
        && first.brk == Some(BreakKind::Page)
        && !first.frag.items.iter().any(|i| matches!(i.item, Item::Text(_) | Item::Image(_) | Item::Shape(_)))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{
        Block, BreakKind, Document, Inline, Paragraph, ParagraphProps, Run, RunContent, RunProps, SectionProps,
        SectionStart, Spacing, Style, StyleKind,
    };
    use crate::layout::testing::*;
    use crate::layout::{layout, LayoutError};
    use crate::deadline::Deadline;
    use crate::units::Twips;

    /// Liberation Serif (Times New Roman) at 10 pt: (winAscent + winDescent + gap) / upm × 10.
    const PITCH: f64 = 11.4990234375;
    const FIRST_BASELINE: f64 = 72.0 + 9.3359375;

    fn content(parts: Vec<RunContent>) -> Paragraph {
        Paragraph {
            inlines: vec![Inline::Run(Run { style: None, props: RunProps::default(), content: parts })],
            ..Default::default()
        }
    }

    fn spacing(before: i64, after: i64) -> ParagraphProps {
        ParagraphProps {
            spacing: Spacing { before: Some(Twips(before)), after: Some(Twips(after)), ..Default::default() },
            ..Default::default()
        }
    }

    #[test]
    fn the_larger_of_spacing_after_and_before_separates_paragraphs() {
        let out = lay(&doc_of(vec![para_with("one", spacing(0, 240)), para_with("two", spacing(300, 0))]));
        let l = lines(&out.layout.pages[0]);
        assert!((l[1].0 - l[0].0 - (PITCH + 15.0)).abs() < 0.01, "{l:?}");
    }

    #[test]
    fn the_first_paragraph_keeps_its_space_before() {
        let out = lay(&doc_of(vec![para_with("one", spacing(240, 0))]));
        assert!((lines(&out.layout.pages[0])[0].0 - (FIRST_BASELINE + 12.0)).abs() < 0.01);
    }

    #[test]
    fn page_break_starts_a_new_page() {
        let p = content(vec![
            RunContent::Text("before".into()),
            RunContent::Break(BreakKind::Page),
            RunContent::Text("after".into()),
        ]);
        let out = lay(&doc_of(vec![p]));
        assert_eq!(out.layout.pages.len(), 2);
        let l = lines(&out.layout.pages[1]);
        assert_eq!(l[0].1, "after");
        assert!((l[0].0 - FIRST_BASELINE).abs() < 0.01);
    }

    #[test]
    fn a_page_break_at_the_end_of_a_paragraph_leaves_no_empty_line() {
        let p = content(vec![RunContent::Break(BreakKind::Page)]);
        let out = lay(&doc_of(vec![p, para("next")]));
        assert_eq!(out.layout.pages.len(), 2);
        assert!((lines(&out.layout.pages[1])[0].0 - FIRST_BASELINE).abs() < 0.01);
    }

    #[test]
    fn page_break_before_starts_a_new_page() {
        let props = ParagraphProps { page_break_before: Some(true), ..Default::default() };
        let out = lay(&doc_of(vec![para("one"), para_with("two", props)]));
        assert_eq!(out.layout.pages.len(), 2);
    }

    #[test]
    fn text_flows_onto_a_second_page() {
        let out = lay(&doc_of((0..80).map(|i| para(&format!("line {i}"))).collect()));
        assert_eq!(out.layout.pages.len(), 2);
        assert_eq!(lines(&out.layout.pages[0]).len(), 56);
        let l = lines(&out.layout.pages[1]);
        assert_eq!(l[0].1, "line 56");
        assert!((l[0].0 - FIRST_BASELINE).abs() < 0.01);
    }

    #[test]
    fn space_before_is_dropped_at_the_top_of_a_page_after_an_automatic_break() {
        let out = lay(&doc_of((0..80).map(|i| para_with(&format!("line {i}"), spacing(120, 0))).collect()));
        let l = lines(&out.layout.pages[1]);
        assert!((l[0].0 - FIRST_BASELINE).abs() < 0.01, "{:?}", l[0]);
    }

    #[test]
    fn space_before_is_kept_after_a_page_break() {
        let props = ParagraphProps { page_break_before: Some(true), ..spacing(240, 0) };
        let out = lay(&doc_of(vec![para("one"), para_with("two", props)]));
        assert!((lines(&out.layout.pages[1])[0].0 - (FIRST_BASELINE + 12.0)).abs() < 0.01);
    }

    #[test]
    fn section_page_size_and_margins_apply() {
        let doc = Document {
            final_section: SectionProps {
                page_width: Some(Twips(11906)),
                page_height: Some(Twips(16838)),
                margin_left: Some(Twips(720)),
                margin_top: Some(Twips(720)),
                ..Default::default()
            },
            ..doc_of(vec![para("A4")])
        };
        let out = lay(&doc);
        let page = &out.layout.pages[0];
        assert!((page.size.width.0 - 595.3).abs() < 0.01 && (page.size.height.0 - 841.9).abs() < 0.01);
        let (x, y, _, _) = &texts(page)[0];
        assert!((x - 36.0).abs() < 0.01 && (y - (36.0 + 9.3359375)).abs() < 0.01);
    }

    #[test]
    fn a_next_page_section_starts_a_new_page_with_its_own_size() {
        let mut first = para("portrait");
        first.section = Some(Box::new(SectionProps::default()));
        let doc = Document {
            final_section: SectionProps { page_width: Some(Twips(15840)), page_height: Some(Twips(12240)), ..Default::default() },
            ..doc_of(vec![first, para("landscape")])
        };
        let out = lay(&doc);
        assert_eq!(out.layout.pages.len(), 2);
        assert_eq!(out.layout.pages[1].size.width.0, 792.0);
    }

    #[test]
    fn a_continuous_section_continues_on_the_same_page() {
        let mut first = para("one");
        first.section = Some(Box::new(SectionProps::default()));
        let doc = Document {
            final_section: SectionProps { start: Some(SectionStart::Continuous), ..Default::default() },
            ..doc_of(vec![first, para("two")])
        };
        let out = lay(&doc);
        assert_eq!(out.layout.pages.len(), 1);
        assert_eq!(lines(&out.layout.pages[0]).len(), 2);
    }

    #[test]
    fn an_odd_page_section_inserts_a_blank_page() {
        let mut first = para("page one");
        first.section = Some(Box::new(SectionProps::default()));
        let doc = Document {
            final_section: SectionProps { start: Some(SectionStart::OddPage), ..Default::default() },
            ..doc_of(vec![first, para("page three")])
        };
        let out = lay(&doc);
        assert_eq!(out.layout.pages.len(), 3);
        assert!(texts(&out.layout.pages[1]).is_empty());
        assert_eq!(lines(&out.layout.pages[2])[0].1, "page three");
    }

    #[test]
    fn columns_fill_left_to_right() {
        let doc = Document {
            final_section: SectionProps { columns: Some(2), column_space: Some(Twips(720)), ..Default::default() },
            ..doc_of((0..70).map(|i| para(&format!("line {i}"))).collect())
        };
        let out = lay(&doc);
        assert_eq!(out.layout.pages.len(), 1);
        let t = texts(&out.layout.pages[0]);
        let second_col = 72.0 + (468.0 - 36.0) / 2.0 + 36.0;
        assert!(t.iter().any(|x| (x.0 - second_col).abs() < 0.01 && x.2 == "line 56"));
    }

    #[test]
    fn lines_snap_to_the_document_grid_unless_the_paragraph_opts_out() {
        use crate::docx::model::{DocGrid, DocGridType};
        let grid = SectionProps {
            doc_grid: Some(DocGrid { kind: Some(DocGridType::Lines), line_pitch: Some(Twips(312)), char_space: None }),
            ..Default::default()
        };
        let off = ParagraphProps { snap_to_grid: Some(false), ..Default::default() };
        let doc = Document {
            final_section: grid,
            ..doc_of(vec![para("one"), para("two"), para_with("three", off.clone()), para_with("four", off)])
        };
        let out = lay(&doc);
        let ys: Vec<f64> = lines(&out.layout.pages[0]).iter().map(|l| l.0).collect();
        // 10 pt text (11.5 pt natural) takes one 15.6 pt grid line, centred in it.
        assert!((ys[1] - ys[0] - 15.6).abs() < 0.01, "{ys:?}");
        assert!((ys[0] - (FIRST_BASELINE + (15.6 - PITCH) / 2.0)).abs() < 0.01, "{ys:?}");
        // `w:snapToGrid w:val="0"` keeps the font's own line height.
        assert!((ys[3] - ys[2] - PITCH).abs() < 0.01, "{ys:?}");
    }

    #[test]
    fn widow_control_moves_a_three_line_paragraph_whole() {
        let three = content(vec![
            RunContent::Text("a".into()),
            RunContent::Break(BreakKind::Line),
            RunContent::Text("b".into()),
            RunContent::Break(BreakKind::Line),
            RunContent::Text("c".into()),
        ]);
        let mut body: Vec<Paragraph> = (0..54).map(|i| para(&format!("line {i}"))).collect();
        body.push(three.clone());
        let out = lay(&doc_of(body.clone()));
        assert_eq!(lines(&out.layout.pages[0]).len(), 54);
        assert_eq!(lines(&out.layout.pages[1])[0].1, "a");

        let last = body.last_mut().expect("a paragraph");
        last.props.widow_control = Some(false);
        let out = lay(&doc_of(body));
        assert_eq!(lines(&out.layout.pages[0]).len(), 56);
    }

    #[test]
    fn keep_next_moves_the_heading_to_the_next_page() {
        let mut body: Vec<Paragraph> = (0..55).map(|i| para(&format!("line {i}"))).collect();
        body.push(para_with("heading", ParagraphProps { keep_next: Some(true), ..Default::default() }));
        body.push(para(&"body text ".repeat(100)));
        let out = lay(&doc_of(body));
        assert_eq!(lines(&out.layout.pages[1])[0].1, "heading");
    }

    #[test]
    fn contextual_spacing_removes_space_between_same_style_paragraphs() {
        let mut doc = doc_of(vec![]);
        doc.styles.styles.insert("List".into(), Style { kind: StyleKind::Paragraph, ..Default::default() });
        let props = ParagraphProps { contextual_spacing: Some(true), ..spacing(240, 240) };
        for text in ["a", "b"] {
            let mut p = para_with(text, props.clone());
            p.style = Some("List".into());
            doc.body.push(Block::Paragraph(p));
        }
        let l = lines(&lay(&doc).layout.pages[0]);
        assert!((l[1].0 - l[0].0 - PITCH).abs() < 0.01, "{l:?}");
    }

    #[test]
    fn a_runaway_document_stops_at_the_page_limit() {
        let breaks = vec![RunContent::Break(BreakKind::Page); super::MAX_PAGES + 1];
        let err = layout(&doc_of(vec![content(breaks)]), fonts(), &Deadline::none()).unwrap_err();
        assert!(matches!(err, LayoutError::TooManyPages { .. }));
    }

    #[test]
    fn a_passed_deadline_stops_layout() {
        let deadline = Deadline::after(std::time::Duration::ZERO);
        let err = layout(&doc_of(vec![para("x")]), fonts(), &deadline).unwrap_err();
        assert!(matches!(err, LayoutError::Timeout(_)));
    }

    #[test]
    fn mirror_margins_swap_the_side_margins_on_even_pages() {
        let p = content(vec![
            RunContent::Text("odd".into()),
            RunContent::Break(BreakKind::Page),
            RunContent::Text("even".into()),
        ]);
        let mut doc = Document {
            final_section: SectionProps { margin_left: Some(Twips(2880)), margin_right: Some(Twips(720)), ..Default::default() },
            ..doc_of(vec![p])
        };
        doc.settings.mirror_margins = true;
        let out = lay(&doc);
        assert!((texts(&out.layout.pages[0])[0].0 - 144.0).abs() < 0.01);
        assert!((texts(&out.layout.pages[1])[0].0 - 36.0).abs() < 0.01);
    }

    #[test]
    fn autospacing_is_dropped_between_list_paragraphs() {
        let props = ParagraphProps {
            spacing: Spacing { before_autospacing: Some(true), after_autospacing: Some(true), ..Default::default() },
            numbering: Some(crate::docx::model::NumberingRef { num_id: Some(1), level: Some(0) }),
            ..Default::default()
        };
        let out = lay(&doc_of(vec![para_with("one", props.clone()), para_with("two", props)]));
        let l = lines(&out.layout.pages[0]);
        assert!((l[1].0 - l[0].0 - PITCH).abs() < 0.01, "{l:?}");
    }

    fn boxed(text: &str) -> Paragraph {
        let border = crate::docx::model::Border {
            visible: true,
            width: crate::units::EighthPoints(8),
            space: 4,
            color: crate::docx::model::Color::Auto,
            style: crate::docx::model::LineStyle::Single,
        };
        let borders = crate::docx::model::ParagraphBorders {
            top: Some(border),
            bottom: Some(border),
            left: Some(border),
            right: Some(border),
            between: None,
        };
        para_with(text, ParagraphProps { borders, ..Default::default() })
    }

    #[test]
    fn a_bordered_paragraph_takes_the_border_space_and_width_above_and_below() {
        let out = lay(&doc_of(vec![para("a"), boxed("b"), para("c")]));
        let l = lines(&out.layout.pages[0]);
        assert!((l[1].0 - l[0].0 - (PITCH + 5.0)).abs() < 0.01, "{l:?}");
        assert!((l[2].0 - l[1].0 - (PITCH + 5.0)).abs() < 0.01, "{l:?}");
    }

    #[test]
    fn neighbours_with_the_same_borders_are_boxed_together() {
        let out = lay(&doc_of(vec![boxed("a"), boxed("b")]));
        let l = lines(&out.layout.pages[0]);
        assert!((l[1].0 - l[0].0 - PITCH).abs() < 0.01, "{l:?}");
        let horizontal = rules(&out.layout.pages[0]).into_iter().filter(|(p, r)| (p.y.0 - r.to.y.0).abs() < 0.01).count();
        assert_eq!(horizontal, 2);
    }
}
