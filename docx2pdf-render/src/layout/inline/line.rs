//! Finishing a line: tabs, alignment, justification, line height (§17.3.1.33), items.

use crate::layout::bidi::visual_order;
use crate::layout::collect::{Atom, AtomKind, Collected, SpanStyle};
use crate::layout::context::Ctx;
use crate::layout::font_metrics::LineExtent;
use crate::layout::fragment::{Fragment, Mark, PendingField};
use crate::layout::horizontal_rule::draw_rule;
use crate::layout::frame::{Glyph, GlyphText, ImageFormat, Item, LineItem, LinkItem, Point, Positioned, RectItem, Size, TextItem};
use crate::layout::linebreak::{shrinkable, LineGeometry, LineSpan, EPSILON};
use crate::layout::tabs::Pen;
use crate::docx::model::{Align, BreakKind, TabKind, TabLeader, Underline};
use crate::resolve::{BorderStyle, LineRule, ParaStyle};
use crate::units::Pt;

/// In an exact line the baseline sits at about 0.8 of the height (notes §3, betteroffice #180).
const EXACT_BASELINE: f64 = 0.8;

/// A finished line: a fragment whose height is the line height, and the break after it.
#[derive(Debug, Clone)]
pub(crate) struct LaidLine {
    /// Items relative to the line's top-left (x from the paragraph box's left edge).
    pub frag: Fragment,
    /// A page or column break after this line.
    pub brk: Option<BreakKind>,
    /// The part of the height below the text that the last line of a page may hang into
    /// the bottom margin: the extra of an auto line spacing above single.
    pub hang: Pt,
}

/// The single-line extent of a run style's primary face.
pub(crate) fn style_extent(style: &SpanStyle) -> LineExtent {
    style.face.as_ref().map(|f| f.metrics.extent(style.run.size)).unwrap_or_default()
}

/// Puts a line's glyph runs, each at `(index in the fragment, start in the text)`, in
/// reading order in the slots they hold: right-to-left words stand in visual order on the
/// line, and the content stream is read in the order it is written (ISO 14289-1 §7.2 asks
/// for the logical order; Word's PDFs write an Arabic or Persian line from its first word).
fn in_reading_order(frag: &mut Fragment, runs: &[(usize, usize)]) {
    if runs.windows(2).all(|w| w[0].1 <= w[1].1) {
        return;
    }
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&r| runs[r].1);
    let items: Vec<Positioned> = order.iter().map(|&r| frag.items[runs[r].0].clone()).collect();
    for ((slot, _), item) in runs.iter().zip(items) {
        frag.items[*slot] = item;
    }
}

/// Line height and baseline for a natural extent under a line rule.
pub(crate) fn line_height(ext: LineExtent, rule: LineRule) -> (Pt, Pt) {
    let natural = ext.height();
    match rule {
        // The extra of a multiple goes below the text (notes §3).
        LineRule::Auto(m) => (natural * m, ext.ascent * m.min(1.0)),
        LineRule::Exact(h) => (h, h * EXACT_BASELINE),
        // "At least" puts the extra above the text.
        LineRule::AtLeast(h) if h > natural => (h, ext.ascent + (h - natural)),
        LineRule::AtLeast(_) => (natural, ext.ascent),
    }
}

/// How many grid lines a line of natural height `h` takes: at least one, and as many as
/// hold it (§17.6.5; a rounding slack keeps a line of exactly the pitch on one).
fn grid_units(h: Pt, pitch: Pt) -> f64 {
    (h.0 / pitch.0 - 1e-3).ceil().max(1.0)
}

/// Line height and baseline of an auto-spaced text line on a document grid with line
/// pitch `pitch` (`w:docGrid type="lines"`, notes §3): the text takes whole grid lines,
/// centred in them. A multiple of one or more counts in pitches, and a line keeps the grid
/// lines its text takes where they are more: Word's 12 pt DengXian headings at 1.73 lines
/// (16.25 pt of text, two 15.6 pt grid lines) are 31.2 pt tall, not 27.0 or 54.1
/// (`Levier-ack_Object-Oriented_baogao`). A smaller multiple shrinks the grid lines.
pub(crate) fn grid_line_height(ext: LineExtent, multiple: f64, pitch: Pt) -> (Pt, Pt) {
    let natural = ext.height();
    let cell = pitch * grid_units(natural, pitch);
    let baseline = ext.ascent + (cell - natural) * 0.5;
    if multiple >= 1.0 {
        (cell.max(pitch * multiple), baseline)
    } else {
        (cell * multiple, baseline * multiple)
    }
}

/// Line height and baseline of a line whose tallest inline picture is `picture` high
/// over text of extent `text`. A multiple adds its extra for the text only: Word does not
/// scale pictures by the line spacing (measured: `Aspose.Words-for-.NE__Paris_Trip2`, a
/// 1.5-line paragraph holding only a picture is the picture's height plus half a line).
/// A line of pictures `alone`, without text, is as tall as its tallest picture: the
/// mark's descent only shows below a picture shorter than the mark (measured in corpus/word
/// `aspose_words_Aspose_Words_for_NET_images`: the heading after a 300.55 pt picture
/// paragraph under a 12 pt Calibri mark sits 3.2 pt higher than with the descent, and
/// `AlexTatulescu_spotify_clone_srs` keeps a line on page 7 by the same 2.7 pt).
pub(crate) fn picture_line_height(text: LineExtent, picture: Pt, rule: LineRule, alone: bool) -> (Pt, Pt) {
    let below = if alone { (text.height() - picture).max(Pt::ZERO).min(text.descent) } else { text.descent };
    let ext = LineExtent { ascent: text.ascent.max(picture), descent: below };
    match rule {
        LineRule::Auto(m) => (ext.height() + text.height() * (m - 1.0).max(0.0), ext.ascent),
        rule => line_height(ext, rule),
    }
}

/// Lays out one line of a paragraph.
pub(crate) fn finish_line(
    c: &Collected,
    span: &LineSpan,
    geo: &LineGeometry<'_>,
    style: &ParaStyle,
    mark: LineExtent,
    ctx: &mut Ctx<'_>,
) -> LaidLine {
    let atoms = &c.atoms[span.start..span.end];
    let tc = geo.tab_context(span.first);
    let mut pen = Pen::new(geo.line_left(span.first));
    let mut place: Vec<(usize, Pt)> = Vec::with_capacity(atoms.len());
    for a in atoms {
        if let AtomKind::Tab { .. } = a.kind {
            let s = pen.tab(&tc);
            place.push((s, Pt::ZERO));
        } else {
            let seg = pen.current();
            place.push((seg, pen.segments[seg].width));
            pen.add(a.width, a.decimal);
        }
    }
    let x0s: Vec<Pt> = pen.segments.iter().map(|s| s.x0()).collect();
    let mut xs = Vec::with_capacity(atoms.len());
    let mut widths = Vec::with_capacity(atoms.len());
    for (a, (s, off)) in atoms.iter().zip(&place) {
        if let AtomKind::Tab { .. } = a.kind {
            let seg = &pen.segments[*s];
            xs.push(seg.start_x);
            widths.push((x0s[*s] - seg.start_x).max(Pt::ZERO));
        } else {
            xs.push(x0s[*s] + *off);
            widths.push(a.width);
        }
    }
    // Trailing spaces hang: they do not count toward the line's width.
    let visible = |a: &crate::layout::collect::Atom| !a.is_space() && !matches!(a.kind, AtomKind::Break(..) | AtomKind::Bookmark(_) | AtomKind::Note(..));
    let content_end_idx = atoms.iter().rposition(visible);
    let left = geo.line_left(span.first);
    let content_end = content_end_idx.map(|k| xs[k] + widths[k]).unwrap_or(left);
    let slack = geo.right - content_end;
    // Word stretches every justified line but the last, including lines ended by a `w:br`
    // unless `doNotExpandShiftReturn` is set (notes §13).
    let ended_by_break = span.brk.is_some() && !(span.brk == Some(BreakKind::Line) && ctx.expand_shift_return);
    let justify = match style.align {
        Align::Both => !span.last && !ended_by_break,
        Align::Distribute => !ended_by_break || span.last,
        _ => false,
    };
    // A line kept whole by shrinking its spaces (`LineGeometry::shrink`) is pulled back to
    // the right edge, even when it is the last or ends with a break.
    let last_seg = pen.segments.len() - 1;
    let spaces: Pt = content_end_idx
        .map(|end| (0..end).filter(|&i| atoms[i].is_space() && place[i].0 == last_seg).map(|i| atoms[i].width).sum())
        .unwrap_or(Pt::ZERO);
    let shrink = slack < Pt::ZERO && -slack <= shrinkable(&pen, spaces, geo.shrink) + EPSILON;
    if (justify && slack > Pt::ZERO) || shrink {
        justify_line(atoms, &place, last_seg, content_end_idx, slack, style.align, &mut xs, &mut widths);
    } else if slack > Pt::ZERO {
        let offset = match style.align {
            Align::Center => slack * 0.5,
            Align::Right => slack,
            _ => Pt::ZERO,
        };
        for x in &mut xs {
            *x += offset;
        }
    }

    reorder(atoms, &place, c.base_level, geo.width, &mut xs, &widths);

    // Height: the largest font of the text on the line. The paragraph mark's font only sizes
    // a line without text (an empty paragraph, the line after a closing break, a line of
    // pictures): Word keeps a last line of text as tall as its text, however large or
    // small the mark (measured: `developer0hye_office2pdf_04_resume_en`, 9 pt Arial lines
    // over an 11 pt Calibri mark; `AlexTatulescu_spotify_clone_srs`, 12 pt lines over a
    // 17 pt mark), while a picture's line takes the mark's extent (`sverrejb_docxide_pdf_input_8`).
    // A line holding only a `w:br` is as tall as the break's run (the same document opens
    // paragraphs with a break in an 11 pt Calibri run under a 12 pt Times New Roman mark).
    //
    // A list label's font sizes the line above the baseline only: its descent does not.
    // Measured in corpus/word: `Baywetche_ocean-explorer_Pflichtenheft` sets items with a
    // 10 pt Courier New "o" (descent 3.0 pt) under 12 pt Times New Roman (2.6 pt) 13.8 pt
    // apart, as plain Times New Roman lines; `sverrejb_docxide_pdf_input_33` sets the
    // second line of items numbered in 20 pt Calibri over 10 pt Calibri text 12.2 pt below
    // the first (14.9 with the 20 pt descent); a Symbol bullet taller than Aptos does raise
    // its line (`sverrejb_docxide_pdf_input_19`). A line holding nothing but a label is
    // sized by the paragraph mark, as an empty paragraph is, and the label's ascent.
    let mut ext = LineExtent::default();
    let mut label = Pt::ZERO;
    let mut picture = Pt::ZERO;
    let mut any = false;
    let mut spaces = LineExtent::default();
    let mut brk: Option<LineExtent> = None;
    for a in atoms {
        match &a.kind {
            AtomKind::Glyphs { seg, .. } => {
                let segment = &c.segments[*seg];
                let extent = with_border(segment.extent, c.styles[segment.style].run.border);
                if c.label_end > 0 && a.start < c.label_end {
                    label = label.max(extent.ascent);
                } else if a.is_space() {
                    spaces = spaces.max(extent);
                } else {
                    ext = ext.max(extent);
                    any = true;
                }
            }
            // A tab is blank: its run's font does not size the line. Word sets the TOC lines
            // of AndresMunozB_Paradigmas-Scheme_Informe (corpus/word), Times New Roman text
            // with its tabs in Calibri, as tall as Times New Roman lines (19.56 pt apart
            // at 1.15 lines and 5 pt after; 20.44 with Calibri's height). The tab after a
            // list number is the number's and sizes the line with it, in its font (its
            // ascent, as the number's).
            AtomKind::Tab { style } if c.label_end > 0 && a.start == c.label_end && !c.label_picture => {
                label = label.max(style_extent(&c.styles[*style]).ascent);
            }
            AtomKind::Tab { .. } => {}
            AtomKind::Field { style, .. } => {
                ext = ext.max(style_extent(&c.styles[*style]));
                any = true;
            }
            AtomKind::Break(BreakKind::Line, style) => {
                brk = Some(style_extent(&c.styles[*style]));
            }
            // A picture bullet does not size its line (collect.rs, `push_label`).
            AtomKind::Picture(_) if c.label_end > 0 && a.start < c.label_end => {}
            // A picture stands on the baseline and makes the line as tall as it is (notes §9).
            AtomKind::Picture(k) => {
                picture = picture.max(c.pictures[*k].size.height + c.picture_effects[*k].height());
            }
            AtomKind::Rule(k) => {
                picture = picture.max(c.rules[*k].height.pt());
            }
            // A fraction is text stacked around the baseline: the line holds both parts.
            AtomKind::Fraction(k) => {
                let f = &c.fractions[*k];
                ext = ext.max(LineExtent { ascent: f.ascent, descent: f.descent });
                any = true;
            }
            _ => {}
        }
    }
    // Spaces size a line of text with it; a line of nothing but spaces is as tall as its
    // paragraph mark (Abhinaygoud07_elecricity_bill_payment_final_report, corpus/word: an
    // 18 pt Century space under an 11 pt Calibri mark stands as an empty 11 pt paragraph).
    if any {
        ext = ext.max(spaces);
    } else {
        ext = ext.max(brk.unwrap_or(mark));
    }
    ext.ascent = ext.ascent.max(label);
    // Lines in table cells snap to the grid only under `adjustLineHeightInTable`
    // (§17.15.3.1). 16261909_Backup_Tools_ (corpus/word), without it, is 43 pages in Word:
    // 41 with us, and 46 with its cell lines snapped.
    let pitch = ctx.line_pitch.filter(|_| style.snap_to_grid && (ctx.table_depth == 0 || ctx.grid_in_tables));
    let rule_height = |rule: LineRule| match (pitch, rule) {
        (Some(pitch), LineRule::Auto(m)) if picture == Pt::ZERO => grid_line_height(ext, m, pitch),
        (_, rule) if picture > Pt::ZERO => picture_line_height(ext, picture, rule, !any),
        (_, rule) => line_height(ext, rule),
    };
    let (height, baseline) = rule_height(style.line);
    // Word keeps a line on the page when its text fits above the bottom margin, the extra
    // of a multiple line spacing hanging below it: `Sari_Dot_ADPL_sdd` (corpus/word) ends
    // a page with a 1.5-line caption whose extra reaches 0.2 pt past the margin, and
    // `AlexTatulescu_spotify_clone_srs` page 7 with a 1.08-line one 0.9 pt past it.
    let hang = match style.line {
        LineRule::Auto(m) if m > 1.0 => (height - rule_height(LineRule::Auto(1.0)).0).max(Pt::ZERO),
        _ => Pt::ZERO,
    };
    let mut frag = Fragment::new(height);
    let end = content_end_idx.map(|k| k + 1).unwrap_or(0);

    // Backgrounds first: run shading, then highlight, then run borders.
    let groups = style_groups(c, atoms, end, false);
    for &(from, to, st) in &groups {
        let s = &c.styles[st];
        for fill in [s.run.shading, s.run.highlight].into_iter().flatten() {
            let Some((top, h)) = text_band(s, baseline) else { continue };
            let (x0, x1) = extent_of(from, to, &xs, &widths);
            let w = x1 - x0;
            if let crate::docx::model::Color::Rgb(r, g, b) = fill {
                frag.push(
                    Point::new(x0, top),
                    Item::Rect(RectItem { size: Size { width: w, height: h }, fill: Some(crate::layout::frame::Rgb(r, g, b)), stroke: None }),
                );
            }
        }
    }
    for &(from, to, st) in &groups {
        let s = &c.styles[st];
        if let (Some(b), Some((top, h))) = (s.run.border, text_band(s, baseline)) {
            let (x0, x1) = extent_of(from, to, &xs, &widths);
            frag.push(Point::new(x0 - b.space - b.room * 0.5, top - b.space - b.room * 0.5), run_border(b, x1 - x0, h));
        }
    }

    // Glyph runs, one per segment stretch; tab leaders; pending fields; bookmarks.
    // `runs`: where each glyph run went in the fragment and where its text starts.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < atoms.len() {
        match &atoms[i].kind {
            AtomKind::Glyphs { seg, .. } => {
                let seg_idx = *seg;
                let segment = &c.segments[seg_idx];
                let mut glyphs: Vec<Glyph> = Vec::new();
                let start_x = xs[i];
                let mut pen_x = start_x;
                let tag = atoms[i].tag;
                let (rtl, logical_start) = (atoms[i].level % 2 == 1, atoms[i].start);
                while i < atoms.len() {
                    let AtomKind::Glyphs { seg, first, count, .. } = &atoms[i].kind else { break };
                    // Bidi reordering can separate atoms that are neighbours in the text; a
                    // run also ends where a link or the list label does.
                    if *seg != seg_idx || (xs[i] - pen_x).0.abs() > 1e-6 || atoms[i].tag != tag {
                        break;
                    }
                    pen_x += widths[i];
                    let extra = widths[i] - atoms[i].width;
                    let from = glyphs.len();
                    glyphs.extend(segment.glyphs[*first..*first + *count].iter().map(|g| Glyph {
                        id: g.id,
                        advance: g.advance,
                        offset: g.offset,
                        text: GlyphText::new(c.text.get(g.text.0..g.text.1).unwrap_or("")),
                    }));
                    if let Some(g) = glyphs[from..].last_mut() {
                        g.advance += extra;
                    }
                    i += 1;
                }
                // Kept until the PDF is written: without this, growth by doubling left up to
                // half of each run's glyph buffer unused (58 MB of glyphs at the peak of
                // WC-BodyBookmarks-After, valgrind massif).
                glyphs.shrink_to_fit();
                let color = c.styles[segment.style].color;
                runs.push((frag.items.len(), logical_start));
                frag.push_tagged(
                    Point::new(start_x, baseline - segment.rise),
                    Item::Text(TextItem { face: segment.face.face.clone(), size: segment.size, color, glyphs, rtl }),
                    tag,
                );
                continue;
            }
            AtomKind::Tab { style: st } => {
                let (seg, _) = place[i];
                let leader = pen.segments[seg].stop.leader;
                if leader != TabLeader::None && pen.segments[seg].stop.kind != TabKind::Bar {
                    // The leader starts after the text before the tab, its trailing spaces
                    // left out.
                    let text_end = (0..i).rev().find(|&k| visible(&atoms[k])).map_or(xs[i], |k| (xs[k] + widths[k]).min(xs[i]));
                    if let Some((x, text)) = leader_item(&c.styles[*st], leader, (text_end, xs[i] + widths[i]), ctx) {
                        frag.push(Point::new(x, baseline), Item::Text(text));
                    }
                }
            }
            AtomKind::Field { kind, style: st } => {
                let s = &c.styles[*st];
                if let Some(face) = &s.face {
                    frag.marks.push(Mark::Field(PendingField {
                        kind: kind.clone(),
                        at: Point::new(xs[i], baseline),
                        reserved: widths[i],
                        // After a right or centred tab (a table of contents' page number)
                        // the number keeps to the stop, as it would had it been typed.
                        align: match (pen.segments[place[i].0].stop.kind, style.align) {
                            (TabKind::Right, _) | (_, Align::Right) => 1.0,
                            (TabKind::Center, _) | (_, Align::Center) => 0.5,
                            _ => 0.0,
                        },
                        face: face.clone(),
                        size: s.run.size,
                        color: s.color,
                        tag: atoms[i].tag,
                    }));
                }
            }
            AtomKind::Bookmark(name) => {
                frag.marks.push(Mark::Destination { name: name.clone(), at: Point::new(xs[i], Pt::ZERO) });
            }
            AtomKind::Note(kind, id) => frag.marks.push(Mark::Note(*kind, *id)),
            AtomKind::Picture(k) => {
                let item = &c.pictures[*k];
                let effect = &c.picture_effects[*k];
                // A blank picture only keeps room for shapes drawn over it (an inline chart).
                let top = Point::new(xs[i] + effect.left, baseline - effect.bottom - item.size.height);
                let tag = atoms[i].tag;
                if item.image.format != ImageFormat::Blank {
                    frag.push_tagged(top, Item::Image(item.clone()), tag);
                }
                for (at, text) in c.picture_texts.get(*k).into_iter().flatten() {
                    frag.push_tagged(Point::new(top.x + at.x, top.y + at.y), Item::Text(text.clone()), tag);
                }
            }
            AtomKind::Fraction(k) => {
                let from = frag.items.len();
                c.fractions[*k].draw(xs[i], baseline, &mut frag);
                // The bar is drawn with the digits: the whole fraction is the text's.
                frag.retag(from, atoms[i].tag);
            }
            AtomKind::Rule(k) => draw_rule(&c.rules[*k], widths[i], xs[i], baseline, &mut frag),
            AtomKind::Break(..) => {}
        }
        i += 1;
    }

    // Underline and strikethrough over the visible text.
    for (from, to, st) in style_groups(c, atoms, end, true) {
        let (x0, x1) = extent_of(from, to, &xs, &widths);
        decorate(&mut frag, &c.styles[st], x0, x1, baseline);
    }

    // Link areas over the linked atoms.
    let mut k = 0;
    while k < end {
        let Some(link) = atoms[k].link else {
            k += 1;
            continue;
        };
        let from = k;
        while k < end && atoms[k].link == Some(link) {
            k += 1;
        }
        let (x0, x1) = extent_of(from, k, &xs, &widths);
        let w = x1 - x0;
        if w > Pt::ZERO {
            let (dest, tag) = &c.links[link];
            frag.push_tagged(Point::new(x0, Pt::ZERO), Item::Link(LinkItem { size: Size { width: w, height }, dest: dest.clone() }), *tag);
        }
    }
    in_reading_order(&mut frag, &runs);
    LaidLine { frag, brk: span.brk.filter(|b| *b != BreakKind::Line), hang }
}

/// The horizontal extent of atoms `[from, to)`, wherever bidi reordering put them.
fn extent_of(from: usize, to: usize, xs: &[Pt], widths: &[Pt]) -> (Pt, Pt) {
    let x0 = xs[from..to].iter().copied().fold(xs[from], Pt::min);
    let x1 = (from..to).map(|k| xs[k] + widths[k]).fold(xs[from] + widths[from], Pt::max);
    (x0, x1)
}

/// Puts a line's atoms in visual order (UAX #9 rules L1 and L2) within each tab segment.
/// A right-to-left paragraph first mirrors the line in the box, so its start indent, tab
/// stops and `left` (start) alignment measure from the right edge, as Word's do.
fn reorder(atoms: &[Atom], place: &[(usize, Pt)], base: u8, width: Pt, xs: &mut [Pt], widths: &[Pt]) {
    let rtl = base % 2 == 1;
    if !rtl && atoms.iter().all(|a| a.level == 0) {
        return;
    }
    if rtl {
        for (x, w) in xs.iter_mut().zip(widths) {
            *x = width - *x - *w;
        }
    }
    // L1: tabs, and the spaces before a tab or at the end of the line, take the
    // paragraph's level.
    let mut levels: Vec<u8> = atoms.iter().map(|a| a.level).collect();
    let mut trailing = true;
    for i in (0..atoms.len()).rev() {
        match atoms[i].kind {
            AtomKind::Tab { .. } | AtomKind::Break(..) => {
                levels[i] = base;
                trailing = true;
            }
            _ if trailing && (atoms[i].is_space() || matches!(atoms[i].kind, AtomKind::Bookmark(_) | AtomKind::Note(..))) => levels[i] = base,
            _ => trailing = false,
        }
    }
    let mut i = 0;
    while i < atoms.len() {
        if matches!(atoms[i].kind, AtomKind::Tab { .. }) {
            i += 1;
            continue;
        }
        let (from, seg) = (i, place[i].0);
        while i < atoms.len() && !matches!(atoms[i].kind, AtomKind::Tab { .. }) && place[i].0 == seg {
            i += 1;
        }
        let mut x = xs[from..i].iter().copied().fold(xs[from], Pt::min);
        for k in visual_order(&levels[from..i]) {
            xs[from + k] = x;
            x += widths[from + k];
        }
    }
}

/// Spreads `slack` over the spaces of the last tab segment (or, for `distribute` without
/// spaces, between all atoms).
#[allow(clippy::too_many_arguments)]
fn justify_line(
    atoms: &[crate::layout::collect::Atom],
    place: &[(usize, Pt)],
    last_seg: usize,
    content_end_idx: Option<usize>,
    slack: Pt,
    align: Align,
    xs: &mut [Pt],
    widths: &mut [Pt],
) {
    let Some(end) = content_end_idx else { return };
    let spaces: Vec<usize> = (0..end).filter(|&i| atoms[i].is_space() && place[i].0 == last_seg).collect();
    let (targets, per) = if !spaces.is_empty() {
        let n = spaces.len() as f64;
        (spaces, slack / n)
    } else if align == Align::Distribute && end > 0 {
        let gaps: Vec<usize> = (0..end).filter(|&i| place[i].0 == last_seg).collect();
        let n = gaps.len().max(1) as f64;
        (gaps, slack / n)
    } else {
        return;
    };
    let mut shift = Pt::ZERO;
    let mut t = targets.iter().peekable();
    for i in 0..xs.len() {
        xs[i] += shift;
        if t.peek() == Some(&&i) {
            t.next();
            widths[i] += per;
            shift += per;
        }
    }
}

/// Consecutive atoms `[from, to)` of one style before `end`; with `split_spaces`, a
/// `words` underline breaks at spaces.
fn style_groups(c: &Collected, atoms: &[crate::layout::collect::Atom], end: usize, split_spaces: bool) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < end {
        let Some(st) = atoms[i].style(&c.segments) else {
            i += 1;
            continue;
        };
        let words = split_spaces && c.styles[st].run.underline == Underline::Words;
        if words && atoms[i].is_space() {
            i += 1;
            continue;
        }
        let from = i;
        while i < end && atoms[i].style(&c.segments) == Some(st) && !(words && atoms[i].is_space()) {
            i += 1;
        }
        out.push((from, i, st));
    }
    out
}

fn decorate(frag: &mut Fragment, s: &SpanStyle, x0: Pt, x1: Pt, baseline: Pt) {
    let Some(face) = &s.face else { return };
    if x1 <= x0 {
        return;
    }
    let size = s.run.size;
    let m = &face.metrics;
    let mut line = |y: Pt, thickness: Pt| {
        frag.push(
            Point::new(x0, y),
            Item::Line(LineItem { to: Point::new(x1, y), thickness, color: s.color }),
        );
    };
    let ut = (size * m.underline_thickness).max(Pt(0.5));
    let uy = baseline + size * m.underline_offset;
    match s.run.underline {
        Underline::None => {}
        Underline::Double => {
            line(uy, ut);
            line(uy + ut * 2.0, ut);
        }
        Underline::Thick => line(uy + ut * 0.5, ut * 2.0),
        _ => line(uy, ut),
    }
    let st = (size * m.strike_thickness).max(Pt(0.5));
    let sy = baseline - size * m.strike_offset;
    if s.run.double_strike {
        line(sy - st, st);
        line(sy + st, st);
    } else if s.run.strike {
        line(sy, st);
    }
}

/// The top and height of the band a run's text fills, its face's ascent over `baseline`
/// and descent below: where shading, highlight and a run border go.
fn text_band(s: &SpanStyle, baseline: Pt) -> Option<(Pt, Pt)> {
    let m = &s.face.as_ref()?.metrics;
    Some((baseline - s.run.size * m.ascent, s.run.size * (m.ascent + m.descent)))
}

/// A run's extent with the room of its border (§17.3.2.4): Word sets a bordered run's line
/// taller by the border's width and space above and below the text
/// (BIGheadED_Senior-Portfolio-2019_Cover_Letter, corpus/word: a 6 pt `w:bdr` moves the
/// line 6 pt down and the next one 6 pt further).
fn with_border(ext: LineExtent, border: Option<BorderStyle>) -> LineExtent {
    match border {
        Some(b) => LineExtent { ascent: ext.ascent + b.space + b.room, descent: ext.descent + b.space + b.room },
        None => ext,
    }
}

/// The frame of a run border around text `width` wide and `height` tall, its line centred
/// on the edge of the border's room (a single line; double and other styles are drawn as
/// one line of their whole room).
fn run_border(b: BorderStyle, width: Pt, height: Pt) -> Item {
    let pad = b.space * 2.0 + b.room;
    Item::Rect(RectItem { size: Size { width: width + pad, height: height + pad }, fill: None, stroke: Some((crate::layout::collect::rgb(b.color), b.room)) })
}

/// The resolution at which Word measures tab-leader glyphs (see `leader_item`).
const LEADER_DPI: f64 = 600.0;

/// Most glyphs one leader holds: a 22-inch page of 0.1 pt dots.
const MAX_LEADER_GLYPHS: f64 = 16_000.0;

/// A tab leader as repeated glyphs between `from` and `to` (line positions), and where it
/// starts. Word sets leader glyphs on a grid of their own advance counted from the page's
/// left edge, every grid cell between the end of the text before the tab and the text
/// after it (the dots of the TOCs of AndresMunozB_Paradigmas-Scheme_Informe,
/// PedroAlmeidacode_SGP_WebService_sdd and four more Word PDFs of corpus/word start at
/// whole multiples of their pitch), so the dots of a TOC's lines stand in columns.
fn leader_item(s: &SpanStyle, leader: TabLeader, (from, to): (Pt, Pt), ctx: &mut Ctx<'_>) -> Option<(Pt, TextItem)> {
    let ch = match leader {
        TabLeader::Dot => ".",
        TabLeader::Hyphen => "-",
        TabLeader::Underscore => "_",
        TabLeader::MiddleDot => "·",
        TabLeader::None => return None,
    };
    let face = s.face.clone()?;
    let raw = ctx.shape(&face, ch, false, false);
    let g = raw.first()?;
    // Word measures the leader's glyph as a 600 dpi printer sets it: a whole number of
    // pixels at a whole pixel size. Times New Roman 11 pt is 92 px to the em, its dot 23 px,
    // 2.76 pt; 14 pt 117 px and 29 px, 3.48 pt; Calibri 12.5 pt 104 px and 26 px, 3.12 pt:
    // the pitches of the TOC dots in Word's PDFs of AndresMunozB_Paradigmas-Scheme_Informe,
    // AidarShaimov_carLoan_Otchet and Alexander10531_Proyecto_Redes_II_Informe.
    let ppem = (s.run.size.0 * LEADER_DPI / 72.0).round();
    let adv = Pt((f64::from(g.advance) / face.metrics.upm * ppem).round() * 72.0 / LEADER_DPI);
    if adv <= Pt(0.1) {
        return None;
    }
    // At most a page's worth of glyphs: a stop far past the page (a hostile `w:pos`) must
    // not ask for billions of them. A small tolerance keeps a cell that ends exactly at the
    // text.
    let origin = ctx.column_x;
    let first = ((from + origin).0 / adv.0 - 1e-6).ceil();
    let n = (((to + origin).0 / adv.0 + 1e-6).floor() - first).min(MAX_LEADER_GLYPHS);
    if n < 1.0 {
        return None;
    }
    let mut glyphs = Vec::with_capacity(n as usize + 1);
    // The tab itself comes first, as a space at the end of the text before it, as in
    // Word's PDFs: text extraction reads "Contents ....... 3", the title a word apart from
    // the dots (AndresMunozB_Paradigmas-Scheme_Informe: a space at 176.18 pt, the first dot
    // at 176.66 pt).
    let start = adv * first - origin;
    if let Some(space) = ctx.shape(&face, " ", false, false).first().filter(|_| start >= from) {
        glyphs.push(Glyph { id: space.id, advance: start - from, offset: Point::default(), text: GlyphText::new(" ") });
    }
    let dots_from = if glyphs.is_empty() { start } else { from };
    glyphs.extend(std::iter::repeat_n(Glyph { id: g.id, advance: adv, offset: Point::default(), text: GlyphText::new(ch) }, n as usize));
    Some((dots_from, TextItem { face: face.face.clone(), size: s.run.size, rtl: false, color: s.color, glyphs }))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{
        Color, Inline, LineSpacing, LinkTarget, Paragraph, ParagraphProps, Run, RunContent, RunProps, Spacing,
        TabKind, TabLeader, TabStop, Underline,
    };
    use crate::layout::frame::LinkDest;
    use crate::layout::testing::*;
    use crate::units::{HalfPoints, Twips};

    const PITCH: f64 = 11.4990234375;

    #[test]
    fn a_grid_line_takes_whole_grid_pitches_and_a_multiple_of_them() {
        use super::{grid_line_height, LineExtent};
        use crate::units::Pt;
        let small = LineExtent { ascent: Pt(9.0), descent: Pt(3.0) };
        assert_eq!(grid_line_height(small, 1.0, Pt(15.6)), (Pt(15.6), Pt(9.0 + 1.8)));
        let tall = LineExtent { ascent: Pt(20.0), descent: Pt(6.0) };
        assert_eq!(grid_line_height(tall, 1.0, Pt(15.6)).0, Pt(31.2));
        assert!((grid_line_height(small, 1.5, Pt(15.6)).0 .0 - 23.4).abs() < 1e-9);
        assert_eq!(grid_line_height(tall, 1.5, Pt(15.6)).0, Pt(31.2));
        assert!((grid_line_height(tall, 2.5, Pt(15.6)).0 .0 - 39.0).abs() < 1e-9);
    }

    fn pitch_with(line: LineSpacing) -> f64 {
        let props = ParagraphProps { spacing: Spacing { line: Some(line), ..Default::default() }, ..Default::default() };
        let out = lay(&doc_of(vec![para_with("a", props.clone()), para_with("b", props)]));
        let l = lines(&out.layout.pages[0]);
        l[1].0 - l[0].0
    }

    fn runs(parts: Vec<RunContent>, props: RunProps) -> Inline {
        Inline::Run(Run { style: None, props, content: parts })
    }

    #[test]
    fn single_line_height_uses_the_win_metrics_and_external_leading() {
        assert!((pitch_with(LineSpacing::Auto(240)) - PITCH).abs() < 1e-6);
    }

    #[test]
    fn double_spacing_doubles_the_line_pitch() {
        assert!((pitch_with(LineSpacing::Auto(480)) - 2.0 * PITCH).abs() < 1e-6);
    }

    #[test]
    fn exact_spacing_fixes_the_line_height() {
        assert!((pitch_with(LineSpacing::Exact(Twips(400))) - 20.0).abs() < 1e-6);
    }

    #[test]
    fn at_least_spacing_only_grows_lines() {
        assert!((pitch_with(LineSpacing::AtLeast(Twips(100))) - PITCH).abs() < 1e-6);
        assert!((pitch_with(LineSpacing::AtLeast(Twips(400))) - 20.0).abs() < 1e-6);
    }

    #[test]
    fn the_largest_font_sets_the_line_height() {
        let big = RunProps { size: Some(HalfPoints(40)), ..Default::default() };
        let p = Paragraph { inlines: vec![run("small ", RunProps::default()), run("big", big)], ..Default::default() };
        let out = lay(&doc_of(vec![p, para("next")]));
        let l = lines(&out.layout.pages[0]);
        // Baseline of the next line: the big line's descent plus the next line's ascent.
        let expected = 20.0 * (443.0 / 2048.0) + 10.0 * ((1825.0 + 87.0) / 2048.0);
        assert!((l[1].0 - l[0].0 - expected).abs() < 0.01, "{l:?}");
    }

    #[test]
    fn underline_draws_a_line_under_the_text() {
        let out = lay(&doc_of(vec![Paragraph {
            inlines: vec![run("under", RunProps { underline: Some(Underline::Single), ..Default::default() })],
            ..Default::default()
        }]));
        let page = &out.layout.pages[0];
        let (x, y, _, t) = &texts(page)[0];
        let r = rules(page);
        assert_eq!(r.len(), 1);
        assert!((r[0].0.x.0 - x).abs() < 0.01 && (r[0].1.to.x.0 - (x + t.width().0)).abs() < 0.01);
        assert!(r[0].0.y.0 > *y);
    }

    #[test]
    fn strike_draws_a_line_through_the_text() {
        let out = lay(&doc_of(vec![Paragraph {
            inlines: vec![run("struck", RunProps { strike: Some(true), ..Default::default() })],
            ..Default::default()
        }]));
        let page = &out.layout.pages[0];
        let y = texts(page)[0].1;
        assert!(rules(page)[0].0.y.0 < y);
    }

    #[test]
    fn highlight_paints_a_rectangle_behind_the_text() {
        let out = lay(&doc_of(vec![Paragraph {
            inlines: vec![run("lit", RunProps { highlight: Some(Color::Rgb(255, 255, 0)), ..Default::default() })],
            ..Default::default()
        }]));
        let page = &out.layout.pages[0];
        let first_rect = page.items.iter().position(|p| matches!(p.item, crate::layout::frame::Item::Rect(_)));
        let first_text = page.items.iter().position(|p| matches!(p.item, crate::layout::frame::Item::Text(_)));
        assert!(first_rect < first_text);
        assert_eq!(rects(page)[0].1.fill, Some(crate::layout::frame::Rgb(255, 255, 0)));
    }

    #[test]
    fn a_tab_goes_to_the_next_default_stop() {
        let p = Paragraph {
            inlines: vec![runs(vec![RunContent::Text("a".into()), RunContent::Tab, RunContent::Text("b".into())], RunProps::default())],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        let t = texts(&out.layout.pages[0]);
        let b = t.iter().find(|x| x.2 == "b").expect("b");
        assert!((b.0 - (72.0 + 36.0)).abs() < 0.01);
    }

    #[test]
    fn a_right_tab_with_dot_leader_ends_the_text_at_the_stop() {
        let props = ParagraphProps {
            tabs: vec![TabStop { kind: TabKind::Right, pos: Twips(9360), leader: TabLeader::Dot }],
            ..Default::default()
        };
        let p = Paragraph {
            props,
            inlines: vec![runs(
                vec![RunContent::Text("Chapter".into()), RunContent::Tab, RunContent::Text("12".into())],
                RunProps::default(),
            )],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        let t = texts(&out.layout.pages[0]);
        let num = t.iter().find(|x| x.2 == "12").expect("the number");
        assert!((num.0 + num.3.width().0 - 540.0).abs() < 0.01);
        let leader = t.iter().find(|x| x.2.starts_with(" ....")).expect("a leader, after the tab's space");
        assert!(leader.0 + leader.3.width().0 <= num.0 + 0.01);
    }

    #[test]
    fn leader_dots_stand_on_a_grid_of_their_600_dpi_advance_from_the_page_edge() {
        let stop = TabStop { kind: TabKind::Right, pos: Twips(9360), leader: TabLeader::Dot };
        let entry = |title: &str| Paragraph {
            props: ParagraphProps { tabs: vec![stop], ..Default::default() },
            inlines: vec![runs(vec![RunContent::Text(title.into()), RunContent::Tab, RunContent::Text("7".into())], RunProps::default())],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![entry("Introduction"), entry("A longer title than that")]));
        let t = texts(&out.layout.pages[0]);
        for title in ["Introduction", "A longer title than that"] {
            let text = t.iter().find(|x| x.2 == title).expect("the title");
            let leader = t.iter().find(|x| x.2.starts_with(" ....") && (x.1 - text.1).abs() < 0.01).expect("a leader");
            let pitch = leader.3.glyphs[1].advance.0;
            // A whole number of 600 dpi pixels.
            let px = pitch * 600.0 / 72.0;
            assert!((px - px.round()).abs() < 1e-9, "{title}: pitch {pitch} pt");
            // The tab's space at the end of the title, then the first dot on a multiple of
            // the pitch from x = 0, the first one after the title.
            let title_end = text.0 + text.3.width().0;
            assert!((leader.0 - title_end).abs() < 1e-6, "{title}: the space at {} pt", leader.0);
            let first_dot = leader.0 + leader.3.glyphs[0].advance.0;
            let cells = first_dot / pitch;
            assert!((cells - cells.round()).abs() < 1e-6, "{title}: dots from {first_dot} pt, pitch {pitch}");
            assert!(first_dot >= title_end - 1e-6 && first_dot < title_end + pitch, "{title}");
        }
    }

    #[test]
    fn a_centered_tab_centers_the_text_on_the_stop() {
        let props = ParagraphProps {
            tabs: vec![TabStop { kind: TabKind::Center, pos: Twips(4680), leader: TabLeader::None }],
            ..Default::default()
        };
        let p = Paragraph {
            props,
            inlines: vec![runs(vec![RunContent::Tab, RunContent::Text("mid".into())], RunProps::default())],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        let t = texts(&out.layout.pages[0]);
        let mid = t.iter().find(|x| x.2 == "mid").expect("text");
        assert!((mid.0 + mid.3.width().0 / 2.0 - (72.0 + 234.0)).abs() < 0.01);
    }

    #[test]
    fn a_link_area_covers_the_linked_text() {
        let p = Paragraph {
            inlines: vec![
                run("see ", RunProps::default()),
                Inline::LinkStart(LinkTarget::External("https://example.com".into())),
                run("here", RunProps::default()),
                Inline::LinkEnd,
            ],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        let page = &out.layout.pages[0];
        let l = links(page);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].1.dest, LinkDest::Uri("https://example.com".into()));
        let here = texts(page).into_iter().find(|t| t.2 == "here").expect("linked text");
        assert!((l[0].0.x.0 - here.0).abs() < 0.01);
        assert!((l[0].1.size.width.0 - here.3.width().0).abs() < 0.01);
    }

    #[test]
    fn a_justified_line_ended_by_a_line_break_stretches_unless_compat_says_no() {
        let p = Paragraph {
            props: ParagraphProps { align: Some(crate::docx::model::Align::Both), ..Default::default() },
            inlines: vec![runs(
                vec![
                    RunContent::Text("short line here".into()),
                    RunContent::Break(crate::docx::model::BreakKind::Line),
                    RunContent::Text("end".into()),
                ],
                RunProps::default(),
            )],
            ..Default::default()
        };
        let end_of_first = |doc: &crate::docx::model::Document| {
            let out = lay(doc);
            let t = texts(&out.layout.pages[0]);
            t[0].0 + t[0].3.width().0
        };
        let mut doc = doc_of(vec![p]);
        assert!((end_of_first(&doc) - 540.0).abs() < 0.01);
        doc.settings.compat_flags.push("doNotExpandShiftReturn".into());
        assert!(end_of_first(&doc) < 300.0);
    }

    #[test]
    fn a_right_tab_just_past_the_margin_keeps_the_line_whole() {
        let props = ParagraphProps {
            tabs: vec![
                TabStop { kind: TabKind::Center, pos: Twips(4680), leader: TabLeader::None },
                TabStop { kind: TabKind::Right, pos: Twips(9361), leader: TabLeader::None },
            ],
            ..Default::default()
        };
        let p = Paragraph {
            props,
            inlines: vec![runs(
                vec![
                    RunContent::Text("left".into()),
                    RunContent::Tab,
                    RunContent::Text("middle".into()),
                    RunContent::Tab,
                    RunContent::Text("right".into()),
                ],
                RunProps::default(),
            )],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        assert_eq!(lines(&out.layout.pages[0]).len(), 1);
    }
}

#[cfg(test)]
mod bidi_tests {
    use crate::docx::model::{Align, Paragraph, ParagraphProps, RunProps};
    use crate::layout::testing::*;

    fn rtl_para(text: &str, align: Option<Align>) -> Paragraph {
        para_with(text, ParagraphProps { bidi: Some(true), align, ..Default::default() })
    }

    /// Text as drawn: right-to-left glyphs come in visual order.
    fn drawn(logical: &str) -> String {
        logical.chars().rev().collect()
    }

    /// The words of the first line, left to right, with their left edges.
    fn words(p: &Paragraph) -> Vec<(f64, String)> {
        let out = lay(&doc_of(vec![p.clone()]));
        let mut t: Vec<(f64, String)> = texts(&out.layout.pages[0])
            .into_iter()
            .map(|(x, _, s, _)| (x, s))
            .filter(|(_, s)| !s.trim().is_empty())
            .collect();
        t.sort_by(|a, b| a.0.total_cmp(&b.0));
        t
    }

    #[test]
    fn a_right_to_left_paragraph_starts_at_the_right_margin() {
        let out = lay(&doc_of(vec![rtl_para("שלום עולם", None)]));
        let t = texts(&out.layout.pages[0]);
        let right = t.iter().map(|(x, _, s, item)| if s.trim().is_empty() { 0.0 } else { x + item.width().0 }).fold(0.0, f64::max);
        assert!((right - 540.0).abs() < 0.01, "ends at {right}");
    }

    #[test]
    fn the_first_word_of_a_right_to_left_paragraph_is_the_rightmost() {
        let w = words(&rtl_para("שלום עולם", None));
        assert_eq!(w.last().map(|x| x.1.clone()), Some(drawn("שלום")));
        assert_eq!(w.first().map(|x| x.1.clone()), Some(drawn("עולם")));
    }

    #[test]
    fn right_alignment_in_a_right_to_left_paragraph_means_the_end_side() {
        let w = words(&rtl_para("שלום", Some(Align::Right)));
        assert!((w[0].0 - 72.0).abs() < 0.01, "starts at {}", w[0].0);
    }

    #[test]
    fn latin_inside_a_right_to_left_paragraph_keeps_its_order() {
        let w = words(&rtl_para("שלום abc def", None));
        let latin: Vec<&str> = w.iter().map(|x| x.1.as_str()).filter(|s| s.is_ascii()).collect();
        assert_eq!(latin.concat().replace(' ', ""), "abcdef");
        assert_eq!(w.last().map(|x| x.1.clone()), Some(drawn("שלום")));
    }

    #[test]
    fn hebrew_words_in_a_left_to_right_paragraph_are_reversed_in_place() {
        let w = words(&para("ab שלום עולם cd"));
        let order: Vec<&str> = w.iter().map(|x| x.1.trim()).collect();
        let (shalom, olam) = (drawn("שלום"), drawn("עולם"));
        let (a, shalom, olam, c) = (
            order.iter().position(|s| s.starts_with("ab")),
            order.iter().position(|s| *s == shalom),
            order.iter().position(|s| *s == olam),
            order.iter().position(|s| s.starts_with("cd")),
        );
        assert!(a < olam && olam < shalom && shalom < c, "{order:?}");
    }

    #[test]
    fn every_right_to_left_glyph_carries_its_own_character() {
        let out = lay(&doc_of(vec![Paragraph {
            inlines: vec![run("שלום", RunProps::default())],
            ..Default::default()
        }]));
        let t = texts(&out.layout.pages[0]);
        let glyph_texts: Vec<&str> = t[0].3.glyphs.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(glyph_texts, vec!["ם", "ו", "ל", "ש"]);
    }
}
