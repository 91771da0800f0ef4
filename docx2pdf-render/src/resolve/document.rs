//! The resolution pass over a whole document: body, sections, header and footer parts.

use std::collections::HashMap;
use std::sync::Arc;

use super::cascade::{merge_run, Cascade, CellStyle};
use super::notes::resolve_notes;
use super::numbering::Lists;
use super::paragraph::{compute_paragraph, fix_autospacing};
use super::run::compute_run;
use super::section::compute_section;
use super::structure::{ParaNodes, ParaRole, ParaTags, Tag, Tagger};
use super::table::resolve_table;
use super::{
    FloatingPicture, ListLabel, ParaStyle, ResolvedBlock, ResolvedDocument, ResolvedInline, ResolvedParagraph, ResolvedRun,
    ResolvedTextBox, RunStyle,
};
use crate::docx::model::{Block, Document, Inline, NoteKind, Paragraph, ParagraphProps, RunContent, RunProps, StyleKind};
use crate::fast_map::FastMap;
use crate::units::Twips;
use crate::warning::Warning;

/// Word's default tab stop when settings say nothing: 720 twips (§17.15.1.25).
const DEFAULT_TAB_STOP: Twips = Twips(720);

/// Resolves every style of `doc` once; layout consumes the result.
pub fn resolve(doc: &Document) -> ResolvedDocument<'_> {
    let mut r = Resolver {
        doc,
        cascade: Cascade::new(&doc.styles),
        lists: Lists::new(&doc.numbering, &doc.styles),
        empty_run: RunProps::default(),
        empty_para: ParagraphProps::default(),
        run_cache: FastMap::default(),
        para_cache: FastMap::default(),
        warnings: Vec::new(),
        tagger: Tagger::default(),
        lang: document_lang(doc),
    };
    let mut sections = Vec::new();
    let mut body = Vec::with_capacity(doc.body.len());
    for block in &doc.body {
        match block {
            Block::Paragraph(p) => {
                let mut rp = r.paragraph(p, None);
                if let Some(props) = &p.section {
                    let s = compute_section(props, sections.last(), doc.settings.gutter_at_top);
                    sections.push(s);
                    rp.closes_section = Some(sections.len() - 1);
                }
                body.push(ResolvedBlock::Paragraph(rp));
            }
            Block::Table(t) => body.push(ResolvedBlock::Table(resolve_table(&mut r, t))),
        }
    }
    let last = compute_section(&doc.final_section, sections.last(), doc.settings.gutter_at_top);
    sections.push(last);
    // Sorted so warnings and caches fill in the same order on every run.
    let mut ids: Vec<&String> = doc.parts.keys().collect();
    ids.sort();
    let mut parts = HashMap::new();
    // Headers and footers repeat on every page: pagination artifacts (ISO 32000-1 §14.8.2.2).
    r.tagger.begin_artifact();
    for id in ids {
        let blocks = r.blocks(&doc.parts[id], None);
        parts.insert(id.clone(), blocks);
    }
    r.tagger.end_artifact();
    let footnotes = resolve_notes(&mut r, doc, NoteKind::Footnote);
    let endnotes = resolve_notes(&mut r, doc, NoteKind::Endnote);
    let mut warnings = std::mem::take(&mut r.cascade.warnings);
    warnings.append(&mut r.warnings);
    ResolvedDocument {
        body,
        sections,
        parts,
        footnotes,
        endnotes,
        default_tab_stop: doc.settings.default_tab_stop.filter(|t| t.0 > 0).unwrap_or(DEFAULT_TAB_STOP).pt(),
        even_and_odd_headers: doc.settings.even_and_odd_headers,
        compatibility_mode: doc.settings.compatibility_mode,
        mirror_margins: doc.settings.mirror_margins,
        expand_shift_return: !doc.settings.compat_flags.iter().any(|f| f == "doNotExpandShiftReturn"),
        borders_surround_header: !doc.settings.borders_do_not_surround_header,
        borders_surround_footer: !doc.settings.borders_do_not_surround_footer,
        warnings,
        structure: r.tagger.structure,
    }
}

type RunKey<'a> = (Option<&'a str>, Option<&'a str>, Option<CellStyle<'a>>);

/// How many direct formats one style combination keeps computed styles for: a miss
/// compares the run's properties with each. Runs without direct formatting are kept
/// beyond it, so that they always share one style.
const RUN_STYLES_PER_KEY: usize = 8;

/// The state of one resolution pass.
pub(super) struct Resolver<'a> {
    doc: &'a Document,
    cascade: Cascade<'a>,
    /// List definitions and counters, advanced in reading order.
    lists: Lists<'a>,
    empty_run: RunProps,
    empty_para: ParagraphProps,
    /// Computed run styles per style combination, each with the direct formatting it was
    /// computed for: runs repeat a few direct formats (fonts, size, language) far more
    /// often than they vary, and computing one cost ~4,000 instructions, most of them
    /// allocations.
    run_cache: FastMap<RunKey<'a>, Vec<(RunProps, Arc<RunStyle>)>>,
    para_cache: FastMap<(Option<&'a str>, Option<CellStyle<'a>>), Arc<ParaStyle>>,
    warnings: Vec<Warning>,
    /// The structure tree, built in reading order.
    pub(super) tagger: Tagger,
    /// The document's language, which text in another is tagged against.
    lang: &'a str,
}

impl<'a> Resolver<'a> {
    /// Resolves blocks (a cell's or a part's); `table_style` is the enclosing table's style
    /// as the cell sees it.
    pub(super) fn blocks(&mut self, blocks: &'a [Block], table_style: Option<CellStyle<'a>>) -> Vec<ResolvedBlock<'a>> {
        blocks
            .iter()
            .map(|b| match b {
                Block::Paragraph(p) => ResolvedBlock::Paragraph(self.paragraph(p, table_style)),
                Block::Table(t) => ResolvedBlock::Table(resolve_table(self, t)),
            })
            .collect()
    }

    /// [`Resolver::blocks`] as the content of structure element `node` (a cell, a note),
    /// with lists of their own.
    pub(super) fn blocks_in(&mut self, node: Option<usize>, blocks: &'a [Block], table_style: Option<CellStyle<'a>>) -> Vec<ResolvedBlock<'a>> {
        let saved = self.tagger.enter(node);
        let blocks = self.blocks(blocks, table_style);
        self.tagger.leave(saved);
        blocks
    }

    /// The table style to use: the named one, else the default table style.
    pub(super) fn table_style(&mut self, id: Option<&'a str>) -> Option<&'a str> {
        match id {
            Some(id) if self.cascade.has(id, StyleKind::Table) => Some(id),
            Some(_) => {
                self.warnings.push(Warning::new("style_missing", "a table style does not exist"));
                self.cascade.default_table
            }
            None => self.cascade.default_table,
        }
    }

    /// The merged chain of a table style (its `tblPr` and `tcPr`).
    pub(super) fn table_level(&mut self, id: Option<&'a str>) -> Option<super::cascade::Level> {
        id.and_then(|id| self.cascade.level(id).cloned())
    }

    fn paragraph_style(&mut self, id: Option<&'a str>) -> Option<&'a str> {
        match id {
            Some(id) if self.cascade.has(id, StyleKind::Paragraph) => Some(id),
            Some(_) => {
                self.warnings.push(Warning::new("style_missing", "a paragraph style does not exist"));
                self.cascade.default_paragraph
            }
            None => self.cascade.default_paragraph,
        }
    }

    fn character_style(&mut self, id: Option<&'a str>) -> Option<&'a str> {
        match id {
            Some(id) if self.cascade.has(id, StyleKind::Character) => Some(id),
            Some(_) => {
                self.warnings.push(Warning::new("style_missing", "a character style does not exist"));
                self.cascade.default_character
            }
            None => self.cascade.default_character,
        }
    }

    fn paragraph(&mut self, p: &'a Paragraph, table_style: Option<CellStyle<'a>>) -> ResolvedParagraph<'a> {
        let pstyle = self.paragraph_style(p.style.as_deref());
        let list = self.list_of(pstyle, table_style, &p.props);
        let level = list.and_then(|(id, l, direct)| Some((&self.lists.level(id, l)?.paragraph, direct)));
        let mut style = self.para_style(pstyle, table_style, &p.props, level);
        // An empty paragraph whose mark is a section break is no list item and breaks no
        // page (dries007_Project2_Verslag, corpus/word: an empty numbered Heading 1 with
        // page break before holds the first section's break; Word numbers the next
        // heading 1 and starts it on the page after the table of contents, with no page
        // for the empty one).
        let mark_only = p.section.is_some() && shows_nothing(p);
        if mark_only && style.page_break_before {
            style = Arc::new(ParaStyle { page_break_before: false, ..(*style).clone() });
        }
        let list = list.filter(|_| !mark_only);
        // The mark's character style counts too: an empty paragraph whose mark is in a
        // 26 pt Title character style is a 26 pt line in Word's PDF
        // (DJ-Chemik_BonePoker_Sprawozdanie, corpus/word).
        let mark_style = p.mark_style.as_deref().and_then(|id| self.character_style(Some(id)));
        let mark = self.run_style(pstyle, mark_style, table_style, &p.mark);
        let label = list.and_then(|(id, l, _)| self.lists.advance(id, l)).map(|label| {
            // The number takes the level's rPr over the paragraph mark's (notes §6).
            let mut run = p.mark.clone();
            merge_run(&mut run, &label.level.run);
            ListLabel {
                text: label.text,
                style: self.run_style(pstyle, mark_style, table_style, &run),
                suffix: label.level.suffix.unwrap_or_default(),
                justification: label.level.justification,
                picture: label.picture.map(|p| Box::new(p.clone())),
            }
        });
        let list_level = list.filter(|_| label.is_some()).map(|(_, l, _)| l);
        let mut inlines = Vec::with_capacity(p.inlines.len());
        for inline in &p.inlines {
            inlines.push(match inline {
                Inline::Run(run) => {
                    let cstyle = self.character_style(run.style.as_deref());
                    let style = self.run_style(pstyle, cstyle, table_style, &run.props);
                    ResolvedInline::Run(ResolvedRun { style, content: &run.content, tag: Tag::ARTIFACT, figures: Vec::new() })
                }
                Inline::LinkStart(t) => ResolvedInline::LinkStart(t.clone(), Tag::ARTIFACT),
                Inline::LinkEnd => ResolvedInline::LinkEnd,
                Inline::Bookmark(name) => ResolvedInline::Bookmark(name),
            });
        }
        let (tags, floating) = self.tag_paragraph(pstyle, p.toc, &style, list_level, &mut inlines);
        // A text box's content follows the paragraph that anchors it, in reading order.
        let saved = self.tagger.enter(None);
        let text_boxes = p
            .text_boxes
            .iter()
            .map(|b| {
                // A drawn shape without text is a figure; a shape holding text is read as
                // its text (Word's PDFs: sverrejb input_24's twenty labelled shapes are
                // text, AllirezaAfshar's three boxes with an empty paragraph figures).
                let figure = if b.draws() && !b.holds_text() { self.tagger.drawing(b.alt.as_deref(), b.decorative) } else { Tag::ARTIFACT };
                ResolvedTextBox { blocks: self.blocks(&b.blocks, None), shape: b, figure }
            })
            .collect();
        self.tagger.leave(saved);
        ResolvedParagraph { style, mark, inlines, closes_section: None, text_boxes, label, tags, floating, frame: p.props.frame.as_deref() }
    }

    /// The structure elements of a paragraph: its role from its style (or its place in a
    /// TOC field), its links, the pictures of its visible runs and the notes it references.
    /// Each link, run and inline picture gets its element's tag here; the paragraph's
    /// floating pictures are returned with theirs, in order. Layout copies what it is handed.
    fn tag_paragraph(
        &mut self,
        pstyle: Option<&'a str>,
        in_toc: bool,
        style: &ParaStyle,
        list_level: Option<u8>,
        inlines: &mut [ResolvedInline<'a>],
    ) -> (ParaTags, Vec<FloatingPicture<'a>>) {
        // Word tags every paragraph of a TOC field's result TOCI, whatever its style.
        let toc = in_toc || pstyle.and_then(|id| self.cascade.built(id)).is_some_and(|l| l.toc);
        let role = match style.outline_level {
            _ if toc => ParaRole::TocEntry,
            Some(level) => ParaRole::Heading(level),
            // Word's built-in Caption style (§17.7.4.5 latent style "caption").
            None if pstyle.is_some_and(|id| id.eq_ignore_ascii_case("caption")) => ParaRole::Caption,
            None => ParaRole::Body,
        };
        let mut links = 0;
        let mut pictures = Vec::new();
        let mut notes = Vec::new();
        for inline in inlines.iter() {
            match inline {
                ResolvedInline::LinkStart(..) => links += 1,
                ResolvedInline::Run(run) if !run.style.vanish => {
                    for content in run.content {
                        match content {
                            RunContent::Picture(pic) => pictures.push((pic.anchor.is_some(), pic.alt.as_deref(), pic.decorative)),
                            RunContent::NoteReference(n) => notes.push((n.kind, n.id)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        let (langs, in_span) = spans(inlines, self.lang);
        let nodes = self.tagger.paragraph(role, list_level, links, &pictures, &notes, &langs);
        hand_out(nodes, &in_span, inlines)
    }

    /// The list a paragraph belongs to: `numId` and `ilvl` folded separately through the
    /// table style, the paragraph style and direct formatting (§17.7.2), with whether the
    /// direct `numPr` named the list. `numId` 0 switches numbering off (§17.3.1.19).
    fn list_of(&mut self, pstyle: Option<&'a str>, tstyle: Option<CellStyle<'a>>, direct: &ParagraphProps) -> Option<(i64, u8, bool)> {
        let mut num_id = None;
        let mut ilvl = None;
        let t = tstyle.and_then(|t| self.cascade.cell_level(t)).and_then(|l| l.paragraph.numbering);
        let p = pstyle.and_then(|id| self.cascade.level(id)).and_then(|l| l.paragraph.numbering);
        for n in [t, p].into_iter().flatten() {
            num_id = n.num_id.or(num_id);
            ilvl = n.level.or(ilvl);
        }
        let from_direct = direct.numbering.and_then(|n| n.num_id).is_some();
        if let Some(n) = direct.numbering {
            num_id = n.num_id.or(num_id);
            ilvl = n.level.or(ilvl);
        }
        let num_id = num_id.filter(|&id| id != 0)?;
        Some((num_id, ilvl.unwrap_or(0), from_direct))
    }

    /// `level` is the list level's `pPr`: under the paragraph style when the style names
    /// the list, over it when direct formatting does (notes §1); direct `w:ind` wins either way.
    fn para_style(
        &mut self,
        pstyle: Option<&'a str>,
        tstyle: Option<CellStyle<'a>>,
        direct: &ParagraphProps,
        level: Option<(&'a ParagraphProps, bool)>,
    ) -> Arc<ParaStyle> {
        let plain = *direct == self.empty_para;
        if plain {
            if let Some(s) = self.para_cache.get(&(pstyle, tstyle)) {
                return s.clone();
            }
        }
        self.build_chains(pstyle, None, tstyle);
        let t = tstyle.and_then(|cell| self.cascade.built_cell(cell));
        let p = pstyle.and_then(|id| self.cascade.built(id));
        let mut levels = Vec::with_capacity(3);
        levels.extend(t.map(|l| &l.paragraph));
        levels.extend(level.filter(|(_, direct)| !direct).map(|(l, _)| l));
        levels.extend(p.map(|l| &l.paragraph));
        levels.extend(level.filter(|(_, direct)| *direct).map(|(l, _)| l));
        let outline = p.and_then(|l| l.heading);
        let mut computed =
            compute_paragraph(&self.doc.styles.default_paragraph, &levels, direct, pstyle.map(str::to_string), outline);
        computed.title = p.is_some_and(|l| l.title);
        if self.doc.settings.compat.do_not_use_html_paragraph_auto_spacing {
            fix_autospacing(&mut computed);
        }
        let style = Arc::new(computed);
        if plain {
            self.para_cache.insert((pstyle, tstyle), style.clone());
        }
        style
    }

    /// Builds the style chains a paragraph or run reads (the cascade caches them), so that
    /// they can then be borrowed together instead of cloned: a run with direct formatting
    /// cloned three `RunProps`, font names and all.
    fn build_chains(&mut self, pstyle: Option<&'a str>, cstyle: Option<&'a str>, tstyle: Option<CellStyle<'a>>) {
        if let Some(cell) = tstyle {
            self.cascade.cell_level(cell);
        }
        for id in [pstyle, cstyle].into_iter().flatten() {
            self.cascade.level(id);
        }
    }

    fn run_style(
        &mut self,
        pstyle: Option<&'a str>,
        cstyle: Option<&'a str>,
        tstyle: Option<CellStyle<'a>>,
        direct: &RunProps,
    ) -> Arc<RunStyle> {
        let plain = *direct == self.empty_run;
        let key = (pstyle, cstyle, tstyle);
        let seen = self.run_cache.get(&key).and_then(|styles| styles.iter().find(|(d, _)| d == direct));
        if let Some((_, style)) = seen {
            // Layout shapes runs that share one style as one piece of text: runs without
            // direct formatting share theirs, as they always have; the others keep a style
            // of their own.
            return if plain { style.clone() } else { Arc::new(RunStyle::clone(style)) };
        }
        self.build_chains(pstyle, cstyle, tstyle);
        let t = tstyle.and_then(|cell| self.cascade.built_cell(cell)).map(|l| &l.run);
        let p = pstyle.and_then(|id| self.cascade.built(id));
        let toc = p.is_some_and(|l| l.toc);
        // Word shows table-of-contents entries in their TOC paragraph style: the Hyperlink
        // character style of the generated links is not applied (Docxodus #427, measured).
        let c = cstyle.and_then(|id| self.cascade.built(id)).filter(|l| !(toc && l.hyperlink)).map(|l| &l.run);
        let mut levels = [&self.empty_run; 3];
        let mut count = 0;
        for run in [t, p.map(|l| &l.run), c].into_iter().flatten() {
            levels[count] = run;
            count += 1;
        }
        let style = Arc::new(compute_run(
            &self.doc.styles.default_run,
            &levels[..count],
            direct,
            &self.doc.theme,
            &self.doc.settings.theme_font_lang,
        ));
        let styles = self.run_cache.entry(key).or_default();
        if styles.len() < RUN_STYLES_PER_KEY || plain {
            styles.push((direct.clone(), style.clone()));
        }
        style
    }
}

pub use crate::lang::DEFAULT_LANG;

/// The document's language (the catalog's /Lang): the default run properties' `w:lang`,
/// else [`DEFAULT_LANG`].
pub fn document_lang(doc: &Document) -> &str {
    doc.styles.default_run.lang.as_ref().and_then(|l| l.latin.as_deref()).map(str::trim).filter(|l| !l.is_empty()).unwrap_or(DEFAULT_LANG)
}

/// Gives each item of a paragraph its element, in the order [`Tagger::paragraph`] made
/// them: a hyperlink its Link, a run the element its text belongs to (its hyperlink's
/// Link, its Span, or the paragraph's), an inline picture its Figure; floating pictures
/// are returned with theirs. In pagination content every tag is the paragraph's.
fn hand_out<'a>(nodes: ParaNodes, in_span: &[(usize, usize)], inlines: &mut [ResolvedInline<'a>]) -> (ParaTags, Vec<FloatingPicture<'a>>) {
    let block = nodes.tags.block;
    let mut links = nodes.links.into_iter();
    let mut figures = nodes.figures.into_iter();
    let mut anchored = nodes.anchored.into_iter();
    let mut floating = Vec::new();
    let mut open: Vec<Tag> = Vec::new();
    let mut in_span = in_span.iter().peekable();
    for (i, inline) in inlines.iter_mut().enumerate() {
        match inline {
            ResolvedInline::LinkStart(_, tag) => {
                *tag = links.next().unwrap_or(block);
                open.push(*tag);
            }
            ResolvedInline::LinkEnd => {
                open.pop();
            }
            ResolvedInline::Run(run) if !run.style.vanish => {
                let span = in_span.next_if(|&&(at, _)| at == i).and_then(|&(_, k)| nodes.spans.get(k).copied());
                run.tag = open.last().copied().or(span).unwrap_or(block);
                for content in run.content {
                    let RunContent::Picture(picture) = content else { continue };
                    match picture.anchor.as_deref() {
                        None => run.figures.push(figures.next().unwrap_or(block)),
                        Some(anchor) => floating.push(FloatingPicture { picture, anchor, tag: anchored.next().unwrap_or(block) }),
                    }
                }
            }
            _ => {}
        }
    }
    (nodes.tags, floating)
}

/// Finds the runs whose text is in another language than the document's `lang`: each
/// stretch of such runs in one language, outside links, is a Span (ISO 32000-1 §14.9.2.2).
/// Returns the Spans' languages in order, and which inlines belong to which Span. A
/// run's language follows its script: `w:bidi` for right-to-left and complex-script runs,
/// `w:eastAsia` for East Asian text, else `w:val`.
fn spans(inlines: &[ResolvedInline<'_>], lang: &str) -> (Vec<Arc<str>>, Vec<(usize, usize)>) {
    let mut out: Vec<Arc<str>> = Vec::new();
    let mut in_span = Vec::new();
    let mut open = false;
    let mut links = 0usize;
    for (i, inline) in inlines.iter().enumerate() {
        let run = match inline {
            ResolvedInline::LinkStart(..) => {
                links += 1;
                open = false;
                continue;
            }
            ResolvedInline::LinkEnd => {
                links = links.saturating_sub(1);
                open = false;
                continue;
            }
            ResolvedInline::Run(run) if !run.style.vanish => run,
            _ => continue,
        };
        let first = run.content.iter().find_map(|c| match c {
            RunContent::Text(t) => t.chars().find(|ch| !ch.is_whitespace()),
            _ => None,
        });
        let Some(first) = first else { continue };
        let style = &run.style;
        let own = if style.rtl || style.complex_script {
            style.lang_bidi.as_ref()
        } else if crate::lang::is_cjk(first) {
            style.fonts.east_asia_lang.as_ref()
        } else {
            style.lang.as_ref()
        };
        match own.filter(|l| links == 0 && !l.eq_ignore_ascii_case(lang)) {
            Some(l) => {
                if !(open && out.last().is_some_and(|last| last.eq_ignore_ascii_case(l))) {
                    out.push(l.clone());
                }
                open = true;
                in_span.push((i, out.len() - 1));
            }
            None => open = false,
        }
    }
    (out, in_span)
}
/// Whether a paragraph shows nothing: no run content but empty text (bookmarks and links
/// around nothing do not count).
fn shows_nothing(p: &Paragraph) -> bool {
    p.inlines.iter().all(|i| match i {
        Inline::Run(r) => r.content.iter().all(|c| matches!(c, RunContent::Text(t) if t.is_empty())),
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{
        AbstractNum, Indent, ListLevel, NumInstance, NumberingRef, Run, RunContent, SectionProps, Style, StyleSheet,
    };
    use crate::units::{HalfPoints, Pt};

    fn styled_doc(styles: Vec<(&str, Style)>, para: Paragraph) -> Document {
        let mut sheet = StyleSheet::default();
        for (id, s) in styles {
            sheet.styles.insert(id.to_string(), s);
        }
        Document { body: vec![Block::Paragraph(para)], styles: sheet, ..Default::default() }
    }

    fn first_run<'d>(r: &'d ResolvedDocument<'_>) -> &'d RunStyle {
        let ResolvedBlock::Paragraph(p) = &r.body[0] else { panic!("not a paragraph") };
        let ResolvedInline::Run(run) = &p.inlines[0] else { panic!("not a run") };
        &run.style
    }

    fn run_with_style(style: Option<&str>) -> Inline {
        Inline::Run(Run {
            style: style.map(str::to_string),
            props: RunProps::default(),
            content: vec![RunContent::Text("x".into())],
        })
    }

    #[test]
    fn runs_of_one_direct_format_get_equal_styles_of_their_own() {
        let direct = |props: RunProps| Inline::Run(Run { style: None, props, content: vec![RunContent::Text("x".into())] });
        let big = RunProps { size: Some(HalfPoints(28)), ..Default::default() };
        let small = RunProps { size: Some(HalfPoints(16)), ..Default::default() };
        let inlines = vec![
            direct(big.clone()),
            direct(small),
            direct(big),
            run_with_style(None),
            run_with_style(None),
        ];
        let doc = styled_doc(vec![], Paragraph { inlines, ..Default::default() });
        let resolved = resolve(&doc);
        let ResolvedBlock::Paragraph(p) = &resolved.body[0] else { panic!("not a paragraph") };
        let styles: Vec<&Arc<RunStyle>> = p
            .inlines
            .iter()
            .map(|i| match i {
                ResolvedInline::Run(run) => &run.style,
                _ => panic!("not a run"),
            })
            .collect();
        assert_eq!(styles[0].size, Pt(14.0));
        assert_eq!(styles[1].size, Pt(8.0));
        // The third comes from the cache: the first one's value, but a style of its own,
        // as layout shapes runs that share one style as one piece of text.
        assert_eq!(styles[2], styles[0]);
        assert!(!Arc::ptr_eq(styles[2], styles[0]));
        // Runs without direct formatting share theirs.
        assert!(Arc::ptr_eq(styles[3], styles[4]));
    }

    #[test]
    fn runs_without_direct_formatting_share_a_style_after_many_direct_formats() {
        let mut inlines: Vec<Inline> = (0..RUN_STYLES_PER_KEY as i64 + 2)
            .map(|i| {
                let props = RunProps { size: Some(HalfPoints(20 + i)), ..Default::default() };
                Inline::Run(Run { style: None, props, content: vec![RunContent::Text("x".into())] })
            })
            .collect();
        inlines.push(run_with_style(None));
        inlines.push(run_with_style(None));
        let doc = styled_doc(vec![], Paragraph { inlines, ..Default::default() });
        let resolved = resolve(&doc);
        let ResolvedBlock::Paragraph(p) = &resolved.body[0] else { panic!("not a paragraph") };
        let [.., ResolvedInline::Run(a), ResolvedInline::Run(b)] = p.inlines.as_slice() else { panic!("not runs") };
        assert!(Arc::ptr_eq(&a.style, &b.style));
    }

    #[test]
    fn bold_in_paragraph_and_character_style_cancels() {
        let bold = RunProps { bold: Some(true), ..Default::default() };
        let doc = styled_doc(
            vec![
                ("H", Style { kind: StyleKind::Paragraph, run: bold.clone(), ..Default::default() }),
                ("B", Style { kind: StyleKind::Character, run: bold, ..Default::default() }),
            ],
            Paragraph { style: Some("H".into()), inlines: vec![run_with_style(Some("B"))], ..Default::default() },
        );
        assert!(!first_run(&resolve(&doc)).bold);
    }

    #[test]
    fn the_paragraph_mark_takes_its_character_style() {
        let title = Style { kind: StyleKind::Character, run: RunProps { size: Some(HalfPoints(52)), ..Default::default() }, ..Default::default() };
        let doc = styled_doc(vec![("TitleChar", title)], Paragraph { mark_style: Some("TitleChar".into()), ..Default::default() });
        let resolved = resolve(&doc);
        let ResolvedBlock::Paragraph(p) = &resolved.body[0] else { panic!("not a paragraph") };
        assert_eq!(p.mark.size, Pt(26.0));
    }

    #[test]
    fn paragraph_without_style_uses_the_default_paragraph_style() {
        let normal = Style {
            kind: StyleKind::Paragraph,
            is_default: true,
            run: RunProps { size: Some(HalfPoints(22)), ..Default::default() },
            ..Default::default()
        };
        let doc = styled_doc(vec![("Normal", normal)], Paragraph { inlines: vec![run_with_style(None)], ..Default::default() });
        assert_eq!(first_run(&resolve(&doc)).size, Pt(11.0));
    }

    #[test]
    fn based_on_chain_applies_root_first() {
        let base = Style {
            kind: StyleKind::Paragraph,
            run: RunProps { size: Some(HalfPoints(40)), italic: Some(true), ..Default::default() },
            ..Default::default()
        };
        let child = Style {
            kind: StyleKind::Paragraph,
            based_on: Some("Base".into()),
            run: RunProps { size: Some(HalfPoints(30)), ..Default::default() },
            ..Default::default()
        };
        let doc = styled_doc(
            vec![("Base", base), ("Child", child)],
            Paragraph { style: Some("Child".into()), inlines: vec![run_with_style(None)], ..Default::default() },
        );
        let r = resolve(&doc);
        assert_eq!(first_run(&r).size, Pt(15.0));
        assert!(first_run(&r).italic);
    }

    #[test]
    fn a_based_on_cycle_is_cut_with_a_warning() {
        let a = Style { kind: StyleKind::Paragraph, based_on: Some("B".into()), ..Default::default() };
        let b = Style { kind: StyleKind::Paragraph, based_on: Some("A".into()), ..Default::default() };
        let doc = styled_doc(
            vec![("A", a), ("B", b)],
            Paragraph { style: Some("A".into()), inlines: vec![run_with_style(None)], ..Default::default() },
        );
        let r = resolve(&doc);
        assert!(r.warnings.iter().any(|w| w.kind == "style_cycle"));
    }

    #[test]
    fn a_paragraph_with_a_section_closes_it() {
        let para = Paragraph {
            section: Some(Box::new(SectionProps { page_width: Some(Twips(11906)), ..Default::default() })),
            ..Default::default()
        };
        let doc = styled_doc(vec![], para);
        let r = resolve(&doc);
        assert_eq!(r.sections.len(), 2);
        assert_eq!(r.sections[0].page_width, Pt(595.3));
        let ResolvedBlock::Paragraph(p) = &r.body[0] else { panic!() };
        assert_eq!(p.closes_section, Some(0));
    }

    #[test]
    fn heading_style_names_give_the_outline_level() {
        let h = Style { kind: StyleKind::Paragraph, name: Some("heading 2".into()), ..Default::default() };
        let doc = styled_doc(vec![("Heading2", h)], Paragraph { style: Some("Heading2".into()), ..Default::default() });
        let ResolvedBlock::Paragraph(p) = &resolve(&doc).body[0] else { panic!() };
        assert_eq!(p.style.outline_level, Some(2));
    }

    #[test]
    fn table_of_contents_entries_drop_the_hyperlink_style() {
        let toc = Style { kind: StyleKind::Paragraph, name: Some("toc 1".into()), ..Default::default() };
        let link = Style {
            kind: StyleKind::Character,
            name: Some("Hyperlink".into()),
            run: RunProps { underline: Some(crate::docx::model::Underline::Single), ..Default::default() },
            ..Default::default()
        };
        let doc = styled_doc(
            vec![("TOC1", toc), ("Hyperlink", link)],
            Paragraph { style: Some("TOC1".into()), inlines: vec![run_with_style(Some("Hyperlink"))], ..Default::default() },
        );
        assert_eq!(first_run(&resolve(&doc)).underline, crate::docx::model::Underline::None);
    }

    fn list_doc(style_numbering: Option<NumberingRef>, direct: ParagraphProps) -> Document {
        let mut abs = AbstractNum::default();
        abs.levels[0] = Some(ListLevel {
            start: Some(1),
            text: Some("%1.".into()),
            paragraph: ParagraphProps {
                indent: Indent { left: Some(Twips(720)), hanging: Some(Twips(360)), ..Default::default() },
                ..Default::default()
            },
            ..Default::default()
        });
        let style = Style {
            kind: StyleKind::Paragraph,
            paragraph: ParagraphProps { numbering: style_numbering, ..Default::default() },
            ..Default::default()
        };
        let mut doc =
            styled_doc(vec![("List", style)], Paragraph { style: Some("List".into()), props: direct, ..Default::default() });
        doc.numbering.abstracts.insert(0, abs);
        doc.numbering.nums.insert(4, NumInstance { abstract_id: 0, overrides: vec![] });
        doc
    }

    fn first_paragraph<'d>(r: &'d ResolvedDocument<'_>) -> &'d ResolvedParagraph<'d> {
        let ResolvedBlock::Paragraph(p) = &r.body[0] else { panic!("not a paragraph") };
        p
    }

    #[test]
    fn a_style_list_numbers_the_paragraph_with_the_level_indent() {
        let doc = list_doc(Some(NumberingRef { num_id: Some(4), level: None }), ParagraphProps::default());
        let r = resolve(&doc);
        let p = first_paragraph(&r);
        assert_eq!(p.label.as_ref().map(|l| l.text.as_str()), Some("1."));
        assert_eq!((p.style.indent_left, p.style.first_line), (Pt(36.0), Pt(-18.0)));
    }

    #[test]
    fn a_direct_indent_wins_over_the_list_level() {
        let direct = ParagraphProps {
            numbering: Some(NumberingRef { num_id: Some(4), level: Some(0) }),
            indent: Indent { left: Some(Twips(1440)), ..Default::default() },
            ..Default::default()
        };
        let doc = list_doc(None, direct);
        let r = resolve(&doc);
        let p = first_paragraph(&r);
        assert_eq!((p.style.indent_left, p.style.first_line), (Pt(72.0), Pt(-18.0)));
    }

    #[test]
    fn num_id_zero_switches_a_style_list_off() {
        let direct = ParagraphProps { numbering: Some(NumberingRef { num_id: Some(0), level: None }), ..Default::default() };
        let doc = list_doc(Some(NumberingRef { num_id: Some(4), level: Some(0) }), direct);
        let r = resolve(&doc);
        assert_eq!(first_paragraph(&r).label, None);
    }

    #[test]
    fn each_link_run_and_picture_carries_its_own_element() {
        use crate::docx::model::{Crop, Distances, ImageFormat, Lang, LinkTarget, Picture, PictureAnchor, PictureTransform};
        use crate::resolve::structure::StructKind;
        let picture = |alt: &str, anchor: Option<PictureAnchor>| Box::new(Picture {
            data: Arc::from(&b""[..]),
            format: ImageFormat::Png,
            extent: (Default::default(), Default::default()),
            crop: Crop::default(),
            transform: PictureTransform::default(),
            anchor: anchor.map(Box::new),
            texts: Vec::new(),
            effect: Distances::default(),
            alt: Some(alt.to_owned()),
            decorative: false,
        });
        let run = |props: RunProps, content: Vec<RunContent>| Inline::Run(Run { style: None, props, content });
        let text = |t: &str| vec![RunContent::Text(t.into())];
        let german = RunProps { lang: Some(Lang { latin: Some("de-DE".into()), ..Default::default() }), ..Default::default() };
        let hidden = RunProps { vanish: Some(true), ..Default::default() };
        let inlines = vec![
            run(RunProps::default(), vec![RunContent::Picture(picture("floating", Some(PictureAnchor::default())))]),
            Inline::LinkStart(LinkTarget::External("https://example.com".into())),
            run(RunProps::default(), text("link")),
            Inline::LinkEnd,
            run(hidden, vec![RunContent::Picture(picture("hidden", None))]),
            run(german.clone(), text("Wort")),
            run(RunProps::default(), vec![RunContent::Picture(picture("first", None)), RunContent::Picture(picture("second", None))]),
            run(german, text("Satz")),
        ];
        let doc = styled_doc(vec![], Paragraph { inlines, ..Default::default() });
        let r = resolve(&doc);
        let ResolvedBlock::Paragraph(p) = &r.body[0] else { panic!("not a paragraph") };
        let node = |tag: Tag| &r.structure.nodes[tag.node().expect("a node")];
        let runs: Vec<&ResolvedRun> = p.inlines.iter().filter_map(|i| if let ResolvedInline::Run(r) = i { Some(r) } else { None }).collect();
        let link = p.inlines.iter().find_map(|i| if let ResolvedInline::LinkStart(_, t) = i { Some(*t) } else { None }).expect("a link");
        assert_eq!(node(link).kind, StructKind::Link);
        assert_eq!(runs[1].tag, link, "the linked text is the Link's");
        assert!(runs[2].figures.is_empty(), "a hidden picture has no element");
        assert_eq!(node(runs[3].tag).kind, StructKind::Span);
        assert_eq!(node(runs[3].tag).lang.as_deref(), Some("de-DE"));
        assert_eq!(runs[3].tag, runs[5].tag, "a run without text between them keeps one Span");
        let alts: Vec<_> = runs[4].figures.iter().map(|&t| (node(t).kind, node(t).alt.clone())).collect();
        assert_eq!(alts, vec![(StructKind::Figure, Some("first".into())), (StructKind::Figure, Some("second".into()))]);
        assert_eq!(runs[4].tag, p.tags.block, "the pictures' run has the paragraph's text");
        assert_eq!(p.floating.len(), 1);
        let f = node(p.floating[0].tag);
        assert_eq!((f.kind, f.alt.as_deref(), f.parent), (StructKind::Figure, Some("floating"), node(p.tags.block).parent));
    }
}
