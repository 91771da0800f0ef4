//! Paragraph layout: collect and shape the runs, break the lines, finish each line.

use std::sync::Arc;

use crate::layout::collect::{collect, rgb, AtomKind, SpanStyle};
use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fields::FieldValues;
use crate::layout::fragment::Mark;
use crate::layout::frame::Point;
use crate::layout::line::{finish_line, style_extent, LaidLine};
use crate::layout::linebreak::{break_lines, break_opportunities, next_line, space_shrink, LineGeometry, LineSpan};
use crate::docx::model::BreakKind;
use crate::layout::wrap::LineBand;
use crate::layout::tabs::TabContext;
use crate::resolve::{BorderSet, ParaStyle, ResolvedParagraph};
use crate::units::Pt;

/// The longest outline title kept.
const MAX_TITLE_CHARS: usize = 256;

/// A paragraph broken into lines, not yet placed.
#[derive(Debug, Clone)]
pub(crate) struct LaidParagraph {
    /// The computed paragraph properties.
    pub style: Arc<ParaStyle>,
    /// Lines in order (none for a paragraph hidden with its mark).
    pub lines: Vec<LaidLine>,
    /// Whether the top border is drawn (not when the paragraph above shares the borders).
    pub border_top: bool,
    /// Whether the bottom border is drawn.
    pub border_bottom: bool,
    /// Whether the between border is drawn above the first line (the paragraph above
    /// shares the borders and `w:between` is set).
    pub border_between: bool,
}

/// Whether two neighbouring paragraphs share their borders and so are boxed as one group,
/// the top border above the first and the bottom border below the last (§17.3.1.24).
fn same_box(a: &ParaStyle, b: &ParaStyle) -> bool {
    a.borders == b.borders
        && a.border_between == b.border_between
        && a.indent_left == b.indent_left
        && a.indent_right == b.indent_right
}

/// Makes room for the borders of a run of laid paragraphs (`None` for anything else, which
/// ends a group): the top border's space and width above a group's first line, the
/// bottom's below its last, as Word lays out bordered paragraphs.
pub(crate) fn make_border_room<'p>(paragraphs: impl Iterator<Item = Option<&'p mut LaidParagraph>>) {
    let mut prev: Option<&'p mut LaidParagraph> = None;
    for cur in paragraphs {
        let cur = cur.filter(|p| !p.lines.is_empty());
        let joined = joins_border(prev.take(), cur.as_deref());
        prev = cur.map(|b| join_below(b, joined));
    }
    if let Some(a) = prev {
        pad(a);
    }
}

/// [`make_border_room`] one paragraph at a time: `prev` is the paragraph still waiting to
/// know what follows it, `cur` the next laid block (`None` for anything but a paragraph
/// with lines). Makes `prev`'s room final; returns whether `cur` now waits.
pub(crate) fn border_step(prev: Option<&mut LaidParagraph>, cur: Option<&mut LaidParagraph>) -> bool {
    let cur = cur.filter(|p| !p.lines.is_empty());
    let joined = joins_border(prev, cur.as_deref());
    match cur {
        Some(b) => {
            join_below(b, joined);
            true
        }
        None => false,
    }
}

/// The room of a group's last paragraph, once nothing joins it.
pub(crate) fn border_end(p: &mut LaidParagraph) {
    pad(p);
}

/// Pads `a` now that `b` is known to follow it; returns `Some(())` when `b` continues its
/// bordered group (its own flags are set by [`join_below`]).
fn joins_border(a: Option<&mut LaidParagraph>, b: Option<&LaidParagraph>) -> Option<()> {
    let a = a?;
    let joined = b.is_some_and(|b| has_borders(&b.style) && same_box(&a.style, &b.style));
    if joined {
        a.border_bottom = false;
    }
    pad(a);
    joined.then_some(())
}

/// `b` goes on the group of the paragraph before it when `joined`.
fn join_below(b: &mut LaidParagraph, joined: Option<()>) -> &mut LaidParagraph {
    if joined.is_some() {
        b.border_top = false;
        b.border_between = b.style.border_between.is_some();
    }
    b
}

/// Whether a paragraph draws any border.
fn has_borders(p: &ParaStyle) -> bool {
    p.borders != BorderSet::default() || p.border_between.is_some()
}

fn pad(p: &mut LaidParagraph) {
    let b = p.style.borders;
    let room = |s: Option<crate::resolve::BorderStyle>| s.map(|s| s.space + s.room).unwrap_or(Pt::ZERO);
    // The between border sits above the text like a top border (Word's PDF of
    // `isaqb_org_examination_foundation_examination_rules_de`: its line lies `w:space` above
    // the second paragraph's first line).
    let top = if p.border_top {
        room(b.top)
    } else if p.border_between {
        room(p.style.border_between)
    } else {
        Pt::ZERO
    };
    let bottom = if p.border_bottom { room(b.bottom) } else { Pt::ZERO };
    if top > Pt::ZERO {
        if let Some(first) = p.lines.first_mut() {
            let content = first.frag.take_content();
            first.frag.height += top;
            first.frag.append_owned(Point::new(Pt::ZERO, top), content);
        }
    }
    if let Some(last) = p.lines.last_mut() {
        last.frag.height += bottom;
    }
}

impl LaidParagraph {
    /// Takes the border flags of `old`, an earlier layout of the same paragraph, and makes
    /// the same room for them.
    pub(crate) fn keep_borders_of(&mut self, old: &LaidParagraph) {
        self.border_top = old.border_top;
        self.border_bottom = old.border_bottom;
        self.border_between = old.border_between;
        make_border_room(std::iter::once(Some(self)));
    }

    /// The height of all lines.
    pub fn lines_height(&self) -> Pt {
        self.lines.iter().map(|l| l.frag.height).sum()
    }
}

/// How far `w:lvlJc` (§17.9.7) moves the list number left of the first-line indent:
/// a right-aligned number ends there, a centred one is centred on it.
fn label_shift(p: &ResolvedParagraph<'_>, c: &crate::layout::collect::Collected) -> Pt {
    let factor = match p.label.as_ref().and_then(|l| l.justification) {
        Some(crate::docx::model::Align::Right) => 1.0,
        Some(crate::docx::model::Align::Center) => 0.5,
        _ => return Pt::ZERO,
    };
    let width: Pt = c.atoms.iter().filter(|a| a.start < c.label_end).map(|a| a.width).sum();
    width * factor
}

/// Lays out a paragraph in a box `width` wide. `fields` fills page fields at once (headers
/// and footers); without it they are left pending with a reserved width.
pub(crate) fn layout_paragraph(
    p: &ResolvedParagraph<'_>,
    width: Pt,
    ctx: &mut Ctx<'_>,
    fields: Option<&FieldValues>,
) -> Result<LaidParagraph, LayoutError> {
    Ok(layout_paragraph_in(p, width, ctx, fields, None)?.0)
}

/// Lays out a body paragraph whose lines may be shortened by floating objects beside
/// them: `around` tells, for a line's top (from the paragraph's first line top) and
/// height, the room it has (see [`crate::layout::wrap`]). Also returns, per line, the blank
/// space left above it to clear an object the line could not run beside.
pub(crate) fn layout_paragraph_around(
    p: &ResolvedParagraph<'_>,
    width: Pt,
    ctx: &mut Ctx<'_>,
    around: &mut dyn FnMut(Pt, Pt) -> LineBand,
) -> Result<(LaidParagraph, Vec<Pt>), LayoutError> {
    layout_paragraph_in(p, width, ctx, None, Some(around))
}

fn layout_paragraph_in(
    p: &ResolvedParagraph<'_>,
    width: Pt,
    ctx: &mut Ctx<'_>,
    fields: Option<&FieldValues>,
    around: Option<&mut dyn FnMut(Pt, Pt) -> LineBand>,
) -> Result<(LaidParagraph, Vec<Pt>), LayoutError> {
    ctx.deadline.check()?;
    let mut c = collect(p, ctx, fields);
    let style = &p.style;
    crate::layout::auto_space::apply(&mut c, style.auto_space_de, style.auto_space_dn);
    // A paragraph whose mark is hidden and that shows nothing but its list number takes no
    // room, and its number is hidden with it (the empty, hidden numbered paragraph before
    // AndresMunozB_Paradigmas-Scheme_Informe's "Tipos de datos Abstractos" shows no "1."
    // in Word's PDF).
    let label_only = |a: &crate::layout::collect::Atom| (p.label.is_some() && a.start <= c.label_end) || matches!(a.kind, AtomKind::Bookmark(_));
    if p.mark.vanish && c.atoms.iter().all(label_only) {
        return Ok((LaidParagraph { style: style.clone(), lines: Vec::new(), border_top: true, border_bottom: true, border_between: false }, Vec::new()));
    }
    let left = style.indent_left;
    let right = (width - style.indent_right).max(left.max(left + style.first_line) + Pt(1.0));
    let geo = LineGeometry {
        first_left: left + style.first_line - label_shift(p, &c),
        left,
        right,
        width,
        tabs: TabContext {
            tabs: &style.tabs,
            default: ctx.default_tab_stop,
            hanging_stop: style.hanging.map(|_| left),
            right,
        },
        shrink: space_shrink(style.align, ctx.compatibility_mode),
    };
    // A horizontal rule takes the whole line; its bar is drawn inside (`horizontal_rule`).
    if !c.rules.is_empty() {
        let room = (right - left.max(geo.first_left)).max(Pt::ZERO);
        for a in c.atoms.iter_mut().filter(|a| matches!(a.kind, AtomKind::Rule(_))) {
            a.width = room;
        }
    }
    let mark_face = ctx.face(&p.mark.fonts.h_ansi, p.mark.bold, p.mark.italic);
    let mark = style_extent(&SpanStyle { run: p.mark.clone(), face: mark_face, color: rgb(p.mark.color) });
    let mut skips = Vec::new();
    let mut lines = match around {
        None => {
            let spans = break_lines(&c, &geo, &ctx.kinsoku, style.word_wrap, ctx.deadline)?;
            let mut lines = Vec::with_capacity(spans.len());
            for span in &spans {
                ctx.deadline.check()?;
                lines.push(finish_line(&c, span, &geo, style, mark, ctx));
            }
            lines
        }
        Some(around) => wrapped_lines(&c, &geo, style, mark, ctx, around, &mut skips)?,
    };
    if let (Some(level), Some(first)) = (style.outline_level, lines.first_mut()) {
        let title = title_text(&c.plain);
        if !title.is_empty() {
            first.frag.marks.push(Mark::Outline { level, title, at: Point::default() });
        }
    }
    if let Some(first) = lines.first_mut().filter(|_| style.title || style.outline_level.is_some()) {
        // A line, column or page break parts the title's words.
        let mut plain = c.plain.clone();
        for &at in c.plain_breaks.iter().rev() {
            plain.insert(at, ' ');
        }
        let text = title_text(&plain);
        if !text.is_empty() {
            first.frag.marks.push(Mark::Title { text, heading: !style.title });
        }
    }
    Ok((LaidParagraph { style: style.clone(), lines, border_top: true, border_bottom: true, border_between: false }, skips))
}

/// A paragraph's visible text as an outline or document title: its words, single-spaced,
/// at most [`MAX_TITLE_CHARS`] characters.
fn title_text(plain: &str) -> String {
    plain.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(MAX_TITLE_CHARS).collect()
}

/// Breaks and finishes lines one at a time, each in the room `around` gives it at its
/// top; a line's height is guessed from the line before (the mark's for the first).
fn wrapped_lines(
    c: &crate::layout::collect::Collected,
    geo: &LineGeometry<'_>,
    style: &ParaStyle,
    mark: crate::layout::font_metrics::LineExtent,
    ctx: &mut Ctx<'_>,
    around: &mut dyn FnMut(Pt, Pt) -> LineBand,
    skips: &mut Vec<Pt>,
) -> Result<Vec<LaidLine>, LayoutError> {
    let allowed = break_opportunities(c, &ctx.kinsoku, style.word_wrap);
    let count = c.atoms.len();
    let mut lines: Vec<LaidLine> = Vec::new();
    let mut y = Pt::ZERO;
    let mut guess = mark.height();
    let mut start = 0;
    let mut last_brk = None;
    loop {
        ctx.deadline.check()?;
        // The closing line of a paragraph that is empty or ends with a line break
        // (as `close_lines` adds it).
        let closing = start >= count;
        if closing && !(lines.is_empty() || last_brk == Some(BreakKind::Line)) {
            break;
        }
        let (skip, here) = room(geo, &mut *around, y, guess);
        let first = lines.is_empty();
        let mut span = if closing {
            LineSpan { start: count, end: count, first, last: true, brk: None }
        } else {
            next_line(c, &allowed, &here, start, first)
        };
        if span.end >= count && span.brk != Some(BreakKind::Line) {
            span.last = true;
        }
        let line = finish_line(c, &span, &here, style, mark, ctx);
        guess = line.frag.height;
        y += skip + line.frag.height;
        lines.push(line);
        skips.push(skip);
        start = span.end;
        last_brk = span.brk;
        if closing {
            break;
        }
    }
    Ok(lines)
}

/// The blank space above a line at `y` (to clear objects it cannot run beside) and the
/// geometry it then has.
fn room<'g>(geo: &LineGeometry<'g>, around: &mut dyn FnMut(Pt, Pt) -> LineBand, y: Pt, height: Pt) -> (Pt, LineGeometry<'g>) {
    let mut skip = Pt::ZERO;
    // Each step clears one object; a bound keeps a pathological stack finite.
    for _ in 0..64 {
        match around(y + skip, height) {
            LineBand::Free => return (skip, *geo),
            LineBand::Below(down) if down > Pt::ZERO => skip += down,
            LineBand::Below(_) => return (skip, *geo),
            LineBand::Inset { left, right } => {
                let right_edge = geo.right.min(geo.width - right);
                let g = LineGeometry {
                    first_left: geo.first_left.max(left),
                    left: geo.left.max(left),
                    right: right_edge,
                    tabs: crate::layout::tabs::TabContext { right: right_edge, ..geo.tabs },
                    ..*geo
                };
                return (skip, g);
            }
        }
    }
    (skip, *geo)
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Align, BreakKind, Indent, Inline, ParagraphProps, Run, RunContent, RunProps};
    use crate::layout::testing::*;
    use crate::units::Twips;

    const LEFT: f64 = 72.0;
    const RIGHT: f64 = 540.0;

    fn width(t: &crate::layout::frame::TextItem) -> f64 {
        t.width().0
    }

    #[test]
    fn text_wraps_at_the_right_margin() {
        let out = lay(&doc_of(vec![para(&"wrapping words ".repeat(60))]));
        let page = &out.layout.pages[0];
        assert!(lines(page).len() > 5);
        for (x, _, text, t) in texts(page) {
            let trimmed = text.trim_end().len() as f64 / text.len().max(1) as f64;
            assert!(x + width(t) * trimmed <= RIGHT + 0.5, "{text} overflows");
        }
    }

    #[test]
    fn centered_line_is_centered() {
        let props = ParagraphProps { align: Some(Align::Center), ..Default::default() };
        let out = lay(&doc_of(vec![para_with("Centered", props)]));
        let (x, _, _, t) = &texts(&out.layout.pages[0])[0];
        let mid = x + width(t) / 2.0;
        assert!((mid - 306.0).abs() < 0.01, "middle at {mid}");
    }

    #[test]
    fn right_aligned_line_ends_at_the_right_margin() {
        let props = ParagraphProps { align: Some(Align::Right), ..Default::default() };
        let out = lay(&doc_of(vec![para_with("Right", props)]));
        let (x, _, _, t) = &texts(&out.layout.pages[0])[0];
        assert!((x + width(t) - RIGHT).abs() < 0.01);
    }

    #[test]
    fn first_line_indent_moves_the_first_line() {
        let props = ParagraphProps {
            indent: Indent { first_line: Some(Twips(720)), ..Default::default() },
            ..Default::default()
        };
        let out = lay(&doc_of(vec![para_with(&"indent ".repeat(40), props)]));
        let t = texts(&out.layout.pages[0]);
        assert!((t[0].0 - (LEFT + 36.0)).abs() < 0.01);
        let second_line = t.iter().find(|x| x.1 > t[0].1).expect("a second line");
        assert!((second_line.0 - LEFT).abs() < 0.01);
    }

    #[test]
    fn hanging_indent_moves_the_other_lines() {
        let props = ParagraphProps {
            indent: Indent { left: Some(Twips(720)), hanging: Some(Twips(360)), ..Default::default() },
            ..Default::default()
        };
        let out = lay(&doc_of(vec![para_with(&"hanging ".repeat(40), props)]));
        let t = texts(&out.layout.pages[0]);
        assert!((t[0].0 - (LEFT + 18.0)).abs() < 0.01);
        let second_line = t.iter().find(|x| x.1 > t[0].1).expect("a second line");
        assert!((second_line.0 - (LEFT + 36.0)).abs() < 0.01);
    }

    #[test]
    fn right_indent_narrows_the_lines() {
        let props = ParagraphProps { indent: Indent { right: Some(Twips(2880)), ..Default::default() }, ..Default::default() };
        let out = lay(&doc_of(vec![para_with(&"narrow ".repeat(60), props)]));
        for (x, _, text, t) in texts(&out.layout.pages[0]) {
            let visible = t.glyphs.iter().rev().skip_while(|g| g.text == " ").map(|g| g.advance.0).sum::<f64>();
            assert!(x + visible <= RIGHT - 144.0 + 0.5, "{text}");
        }
    }

    #[test]
    fn justified_lines_fill_the_width_except_the_last() {
        let props = ParagraphProps { align: Some(Align::Both), ..Default::default() };
        let out = lay(&doc_of(vec![para_with(&"justify these words ".repeat(30), props)]));
        let page = &out.layout.pages[0];
        let t = texts(page);
        let first_y = t[0].1;
        let first_line: Vec<_> = t.iter().filter(|x| (x.1 - first_y).abs() < 0.1).collect();
        let (x, _, _, item) = first_line.last().expect("a run");
        let visible: f64 = item.glyphs.iter().rev().skip_while(|g| g.text == " ").map(|g| g.advance.0).sum();
        assert!((x + visible - RIGHT).abs() < 0.05, "ends at {}", x + visible);
        let space = |item: &crate::layout::frame::TextItem| {
            item.glyphs.iter().find(|g| g.text == " ").map(|g| g.advance.0).expect("a space")
        };
        let last_y = t.last().expect("a run").1;
        let (_, _, _, li) = t.iter().rev().find(|x| (x.1 - last_y).abs() < 0.1).expect("last");
        assert!(space(item) > space(li) + 0.1, "the first line stretches, the last does not");
    }

    #[test]
    fn a_line_break_starts_a_new_line() {
        let p = crate::docx::model::Paragraph {
            inlines: vec![Inline::Run(Run {
                style: None,
                props: RunProps::default(),
                content: vec![
                    RunContent::Text("one".into()),
                    RunContent::Break(BreakKind::Line),
                    RunContent::Text("two".into()),
                ],
            })],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        let l = lines(&out.layout.pages[0]);
        assert_eq!(l.iter().map(|x| x.1.as_str()).collect::<Vec<_>>(), vec!["one", "two"]);
    }

    #[test]
    fn a_word_longer_than_the_line_breaks_by_character() {
        let out = lay(&doc_of(vec![para(&"x".repeat(400))]));
        let page = &out.layout.pages[0];
        assert!(lines(page).len() >= 2);
        for (x, _, _, t) in texts(page) {
            assert!(x + width(t) <= RIGHT + 0.5);
        }
    }

    #[test]
    fn an_empty_paragraph_takes_one_line() {
        let out = lay(&doc_of(vec![para("a"), crate::docx::model::Paragraph::default(), para("b")]));
        let l = lines(&out.layout.pages[0]);
        assert!((l[1].0 - l[0].0 - 2.0 * 11.499).abs() < 0.01, "{l:?}");
    }
}
