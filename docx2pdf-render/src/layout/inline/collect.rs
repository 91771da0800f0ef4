//! Inline collection: runs → one text, shaped segments (font per character) and atoms.

use std::sync::Arc;

use crate::layout::bidi;
use crate::layout::context::Ctx;
use crate::layout::fields::{format_field, FieldValues};
use crate::layout::fonts::{FamilyMatch, LoadedFace};
use crate::layout::font_metrics::LineExtent;
use crate::layout::frame::{ImageItem, LinkDest, Point, Rgb, Size, Tag, TextItem};
use crate::resolve::structure::ParaTags;
use crate::layout::fraction::{fraction_box, FractionBox};
use crate::layout::picture::{image_item, overlay};
use crate::layout::symbols::{dingbat, private_use};
use crate::docx::model::{BreakKind, Color, FieldKind, HorizontalRule, LinkTarget, ListSuffix, NoteKind, RunContent, VertAlign};
use crate::resolve::{ListLabel, ResolvedInline, ResolvedParagraph, RunStyle};
use crate::units::Pt;

/// Superscript/subscript size factor: Word draws them at about 2/3 size (measured ~0.65).
const SCRIPT_SCALE: f64 = 0.65;
/// Superscript raise and subscript drop, in em of the base size.
const SUPER_RISE: f64 = 0.33;
const SUB_DROP: f64 = 0.14;
/// Small capitals draw lowercase letters as capitals at 80 % size.
const SMALL_CAPS_SCALE: f64 = 0.8;

/// A run's style as layout uses it: the computed properties plus the primary face.
#[derive(Debug, Clone)]
pub(crate) struct SpanStyle {
    /// Computed run properties.
    pub run: Arc<RunStyle>,
    /// The hAnsi-slot face: tabs, leaders, decorations, pending fields.
    pub face: Option<Arc<LoadedFace>>,
    /// Text colour (`auto` is black).
    pub color: Rgb,
}

/// A shaped glyph; its text is a byte range of `Collected::text` (empty on all but the
/// first glyph of a cluster), turned into a string only when the line is finished.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SegGlyph {
    /// Glyph id.
    pub id: u16,
    /// Advance, letter spacing included.
    pub advance: Pt,
    /// Offset from the pen (y down).
    pub offset: Point,
    /// The cluster's text: start and end in `Collected::text`.
    pub text: (usize, usize),
}

/// Shaped text in one face and size.
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    /// The face.
    pub face: Arc<LoadedFace>,
    /// Glyph size.
    pub size: Pt,
    /// Baseline shift, positive upwards.
    pub rise: Pt,
    /// Index into `Collected::styles`.
    pub style: usize,
    /// Glyphs in visual order, advances in points.
    pub glyphs: Vec<SegGlyph>,
    /// The single-line extent this text asks for.
    pub extent: LineExtent,
}

/// What an atom is.
#[derive(Debug, Clone)]
pub(crate) enum AtomKind {
    /// One cluster (or, right to left, one word) of a segment.
    Glyphs { seg: usize, first: usize, count: usize, space: bool },
    /// A `w:tab`.
    Tab { style: usize },
    /// A `w:br`, with the style of its run.
    Break(BreakKind, usize),
    /// A page field laid out later, with a reserved width.
    Field { kind: FieldKind, style: usize },
    /// A bookmark start (zero width).
    Bookmark(String),
    /// A footnote or endnote reference (zero width), after its mark.
    Note(NoteKind, i64),
    /// An inline picture: index into `Collected::pictures`.
    Picture(usize),
    /// A stacked fraction: index into `Collected::fractions`.
    Fraction(usize),
    /// A horizontal rule: index into `Collected::rules`; as wide as the line.
    Rule(usize),
}

/// The unit of line breaking.
#[derive(Debug, Clone)]
pub(crate) struct Atom {
    /// What it is.
    pub kind: AtomKind,
    /// Byte offset of its text in `Collected::text` (for break opportunities).
    pub start: usize,
    /// Natural width.
    pub width: Pt,
    /// Index into `Collected::links` when inside a hyperlink.
    pub link: Option<usize>,
    /// The structure element its content belongs to, as resolve gave it: the list label,
    /// a hyperlink, a Span in another language, a picture's Figure, or the paragraph.
    pub tag: Tag,
    /// Whether this is the decimal separator (decimal tabs align on it).
    pub decimal: bool,
    /// The bidi embedding level (UAX #9): odd is right to left.
    pub level: u8,
}

impl Atom {
    /// A space: it stretches when justified and hangs at the end of a line.
    pub fn is_space(&self) -> bool {
        matches!(self.kind, AtomKind::Glyphs { space: true, .. })
    }

    /// The style index of visible atoms.
    pub fn style(&self, segs: &[Segment]) -> Option<usize> {
        match &self.kind {
            AtomKind::Glyphs { seg, .. } => Some(segs[*seg].style),
            AtomKind::Tab { style } | AtomKind::Field { style, .. } => Some(*style),
            AtomKind::Break(..)
            | AtomKind::Bookmark(_)
            | AtomKind::Note(..)
            | AtomKind::Picture(_)
            | AtomKind::Fraction(_)
            | AtomKind::Rule(_) => None,
        }
    }
}

/// A paragraph's content ready for line breaking.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    /// The text as shaped ('\t' for tabs, '\n' for breaks, '0' for pending fields).
    pub text: String,
    /// Atoms in logical order.
    pub atoms: Vec<Atom>,
    /// Shaped segments.
    pub segments: Vec<Segment>,
    /// Run styles.
    pub styles: Vec<SpanStyle>,
    /// Hyperlink targets, with their Link elements.
    pub links: Vec<(LinkDest, Tag)>,
    /// Inline pictures, as the items they become.
    pub pictures: Vec<ImageItem>,
    /// The room each inline picture's effects take around it (`wp:effectExtent`), by
    /// picture: part of its box in the line.
    pub picture_effects: Vec<crate::layout::picture::Effect>,
    /// The text each inline picture draws (metafiles), by picture: baseline positions from
    /// the picture's top-left corner.
    pub picture_texts: Vec<Vec<(Point, TextItem)>>,
    /// Stacked fractions, shaped.
    pub fractions: Vec<FractionBox>,
    /// Horizontal rules; their atoms get the line's width once it is known.
    pub rules: Vec<HorizontalRule>,
    /// The plain text of the visible runs (outline titles).
    pub plain: String,
    /// Where `plain` had a line, column or page break (byte offsets): a document title parts
    /// words there.
    pub plain_breaks: Vec<usize>,
    /// The end of the list label's text in `text`: atoms starting before it are the
    /// number (its suffix excluded).
    pub label_end: usize,
    /// The label is a picture bullet: neither it nor its suffix sizes the line.
    pub label_picture: bool,
    /// The paragraph's base bidi level: 1 in a right-to-left paragraph.
    pub base_level: u8,
    /// The paragraph's structure elements.
    pub tags: ParaTags,
    /// Atoms and text pieces in order, shaped once the bidi levels are known.
    pending: Vec<Pending>,
}

/// What pushed content belongs to: its hyperlink (an index into `Collected::links`) and
/// its structure element.
#[derive(Debug, Clone, Copy)]
struct Owner {
    link: Option<usize>,
    tag: Tag,
}

/// Content waiting for the paragraph's bidi levels: shaping direction follows them.
#[derive(Debug)]
enum Pending {
    Atom(Atom),
    Piece { piece: Piece, rise: Pt, style: usize, owner: Owner, start: usize },
}

/// Collects and shapes a paragraph. With `fields`, page fields are shaped with their
/// values; without, they become pending atoms with a reserved width.
pub(crate) fn collect(p: &ResolvedParagraph<'_>, ctx: &mut Ctx<'_>, fields: Option<&FieldValues>) -> Collected {
    let mut c = Collected { base_level: u8::from(p.style.bidi), tags: p.tags, ..Collected::default() };
    let mut link_stack: Vec<usize> = Vec::new();
    if let Some(label) = &p.label {
        push_label(&mut c, label, ctx);
        c.label_end = c.text.len() - usize::from(label.suffix != ListSuffix::Nothing);
    }
    for inline in &p.inlines {
        match inline {
            ResolvedInline::Run(run) => {
                if run.style.vanish {
                    continue;
                }
                let style = push_style(&mut c, &run.style, ctx);
                let owner = Owner { link: link_stack.last().copied(), tag: run.tag };
                let mut figures = run.figures.iter();
                for content in run.content {
                    match content {
                        RunContent::Text(s) => {
                            c.plain.push_str(s);
                            push_text(&mut c, s, style, owner, ctx);
                        }
                        RunContent::Tab => {
                            c.plain.push(' ');
                            push_atom(&mut c, AtomKind::Tab { style }, "\t", Pt::ZERO, owner);
                        }
                        RunContent::Break(k) => {
                            c.plain_breaks.push(c.plain.len());
                            push_atom(&mut c, AtomKind::Break(*k, style), "\n", Pt::ZERO, owner);
                        }
                        RunContent::Symbol { font, char } => push_symbol(&mut c, font.as_deref(), *char, style, owner, ctx),
                        RunContent::Field(kind) => match fields {
                            Some(v) => push_text(&mut c, &format_field(kind, v), style, owner, ctx),
                            None => {
                                let sample = match kind {
                                    FieldKind::PageRef { cached, .. } if !cached.is_empty() => cached,
                                    _ => "00",
                                };
                                let width = reserve_width(&c.styles[style], sample, ctx);
                                push_atom(&mut c, AtomKind::Field { kind: kind.clone(), style }, "0", width, owner);
                            }
                        },
                        // An inline picture is one object on the line (U+FFFC breaks on both
                        // sides, UAX #14 LB20); a floating one is placed by the flow.
                        RunContent::Picture(picture) if picture.anchor.is_none() => {
                            let item = image_item(picture);
                            let effect = crate::layout::picture::Effect::of(picture);
                            let width = item.size.width + effect.left + effect.right;
                            let index = c.pictures.len();
                            c.picture_texts.push(overlay(picture, item.size, ctx));
                            c.pictures.push(item);
                            c.picture_effects.push(effect);
                            let tag = figures.next().copied().unwrap_or(owner.tag);
                            push_atom(&mut c, AtomKind::Picture(index), "\u{FFFC}", width, Owner { tag, ..owner });
                        }
                        RunContent::Picture(_) => {}
                        // A rule is one object on the line, like an inline picture.
                        RunContent::HorizontalRule(rule) => {
                            let index = c.rules.len();
                            c.rules.push(*rule);
                            push_atom(&mut c, AtomKind::Rule(index), "\u{FFFC}", Pt::ZERO, owner);
                        }
                        RunContent::Fraction(f) => {
                            let s = &c.styles[style];
                            if let Some(face) = s.face.clone() {
                                let (bold, size, color) = (s.run.bold, s.run.size, s.color);
                                let b = fraction_box(f, &face, bold, size, color, ctx);
                                let index = c.fractions.len();
                                let width = b.width;
                                c.fractions.push(b);
                                push_atom(&mut c, AtomKind::Fraction(index), "\u{FFFC}", width, owner);
                            }
                        }
                        // The mark is drawn in the run's style (FootnoteReference: superscript);
                        // with `customMarkFollows` the run's own text is the mark.
                        RunContent::NoteReference(r) => {
                            if let Some(mark) = ctx.note_marks.get(&(r.kind, r.id)).filter(|m| !m.is_empty()).cloned() {
                                push_text(&mut c, &mark, style, owner, ctx);
                            }
                            push_atom(&mut c, AtomKind::Note(r.kind, r.id), "", Pt::ZERO, Owner { link: None, ..owner });
                        }
                        RunContent::NoteMark => {
                            if let Some(mark) = ctx.current_note.clone() {
                                c.plain.push_str(&mark);
                                push_text(&mut c, &mark, style, owner, ctx);
                            }
                        }
                    }
                }
            }
            ResolvedInline::LinkStart(target, tag) => {
                let dest = match target {
                    LinkTarget::External(uri) => LinkDest::Uri(uri.clone()),
                    LinkTarget::Internal(name) => LinkDest::Named(name.clone()),
                };
                c.links.push((dest, *tag));
                link_stack.push(c.links.len() - 1);
            }
            ResolvedInline::LinkEnd => {
                link_stack.pop();
            }
            ResolvedInline::Bookmark(name) => {
                let owner = Owner { link: None, tag: c.tags.block };
                push_atom(&mut c, AtomKind::Bookmark((*name).to_string()), "", Pt::ZERO, owner);
            }
        }
    }
    // Shape in the direction of each character's resolved level (UAX #9), so that neutral
    // characters between right-to-left words mirror and join like their neighbours.
    let levels = bidi::levels(&c.text, p.style.bidi);
    let base = c.base_level;
    let level_at = |at: usize| levels.as_ref().and_then(|l| l.get(at).copied()).unwrap_or(base);
    for pending in std::mem::take(&mut c.pending) {
        match pending {
            Pending::Atom(mut a) => {
                a.level = level_at(a.start);
                c.atoms.push(a);
            }
            Pending::Piece { piece, rise, style, owner, start } => {
                let len = piece.text.len();
                let mut from = 0;
                while from < len {
                    let level = level_at(start + from);
                    let mut to = from;
                    for (i, ch) in piece.text[from..].char_indices() {
                        if level_at(start + from + i) != level {
                            break;
                        }
                        to = from + i + ch.len_utf8();
                    }
                    shape_piece(&mut c, &piece, (from, to), start, level, rise, style, owner, ctx);
                    from = to;
                }
            }
        }
    }
    c
}

/// A list number or bullet, leading the first line (§17.9). Symbol-font bullets go
/// through the symbol table; the suffix tab is an ordinary tab, whose first stop on a
/// hanging first line is the left indent (notes §6, §7).
fn push_label(c: &mut Collected, label: &ListLabel, ctx: &mut Ctx<'_>) {
    let style = push_style(c, &label.style, ctx);
    let symbol_font = is_symbol_font(&label.style.fonts.h_ansi);
    let number = Owner { link: None, tag: c.tags.label };
    if let Some(picture) = &label.picture {
        // A picture bullet (§17.9.20) is drawn as tall as the label's text, its width in
        // the picture's proportions, in place of the level's text; it does not make its
        // line taller (line.rs). Word sets such items as plain lines where a Symbol bullet
        // in its place grew each line 0.7-0.9 pt (a held-out document).
        let mut item = image_item(picture);
        let height = label.style.size;
        if item.size.height > Pt::ZERO {
            item.size = Size { width: item.size.width * (height.0 / item.size.height.0), height };
        }
        let width = item.size.width;
        c.label_picture = true;
        c.picture_texts.push(Vec::new());
        c.pictures.push(item);
        c.picture_effects.push(Default::default());
        push_atom(c, AtomKind::Picture(c.pictures.len() - 1), "\u{FFFC}", width, number);
    }
    for ch in label.text.chars().filter(|_| label.picture.is_none()) {
        if symbol_font || ('\u{F000}'..='\u{F0FF}').contains(&ch) {
            push_symbol(c, None, u32::from(ch), style, number, ctx);
        } else {
            push_text(c, &ch.to_string(), style, number, ctx);
        }
    }
    // The suffix is the paragraph's text, not the number's.
    let suffix = Owner { link: None, tag: c.tags.block };
    match label.suffix {
        ListSuffix::Tab => push_atom(c, AtomKind::Tab { style }, "\t", Pt::ZERO, suffix),
        ListSuffix::Space => push_text(c, " ", style, suffix, ctx),
        ListSuffix::Nothing => {}
    }
}

/// Fonts whose codes are symbols rather than Unicode text.
fn is_symbol_font(family: &str) -> bool {
    let f = family.trim().to_ascii_lowercase();
    f == "symbol" || f.starts_with("wingdings") || f == "webdings"
}

/// The colour of text: `auto` is black (white on dark shading is a later refinement).
pub(crate) fn rgb(color: Color) -> Rgb {
    match color {
        Color::Auto => Rgb::BLACK,
        Color::Rgb(r, g, b) => Rgb(r, g, b),
    }
}

fn push_style(c: &mut Collected, run: &Arc<RunStyle>, ctx: &mut Ctx<'_>) -> usize {
    if let Some(i) = c.styles.iter().position(|s| Arc::ptr_eq(&s.run, run)) {
        return i;
    }
    let face = ctx.face(&run.fonts.h_ansi, run.bold, run.italic);
    c.styles.push(SpanStyle { run: run.clone(), face, color: rgb(run.color) });
    c.styles.len() - 1
}

fn push_atom(c: &mut Collected, kind: AtomKind, text: &str, width: Pt, owner: Owner) {
    let (link, tag) = (owner.link, owner.tag);
    c.pending.push(Pending::Atom(Atom { kind, start: c.text.len(), width, link, tag, decimal: false, level: 0 }));
    c.text.push_str(text);
}

/// Queues a piece of text for shaping once the bidi levels are known.
fn push_piece(c: &mut Collected, piece: Piece, rise: Pt, style: usize, owner: Owner) {
    let start = c.text.len();
    c.text.push_str(&piece.text);
    c.pending.push(Pending::Piece { piece, rise, style, owner, start });
}

/// The width a pending page field reserves: two digits, or a PAGEREF's cached result
/// (as many digits as Word's pagination gave).
fn reserve_width(style: &SpanStyle, sample: &str, ctx: &mut Ctx<'_>) -> Pt {
    let Some(face) = style.face.clone() else { return Pt::ZERO };
    let glyphs = ctx.shape(&face, sample, false, style.run.kern.is_some_and(|k| style.run.size >= k));
    let units: i32 = glyphs.iter().map(|g| g.advance).sum();
    style.run.size * (f64::from(units) / face.metrics.upm)
}

/// Which `w:rFonts` slot a character uses (OI29500 2.1.88; `east_asian::font_slot`).
fn slot(c: char, run: &RunStyle) -> (&Arc<str>, bool) {
    crate::layout::east_asian::font_slot(c, run)
}

fn is_east_asian(u: u32) -> bool {
    matches!(u, 0x1100..=0x11FF | 0x2E80..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
}

/// Combining marks and joiners stay in the face of the character before them.
fn sticks_to_previous(c: char) -> bool {
    matches!(u32::from(c), 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF
        | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F | 0x200C..=0x200D | 0xE0100..=0xE01EF)
}

/// One piece of text in one face and size, before shaping.
#[derive(Debug)]
struct Piece {
    face: Arc<LoadedFace>,
    /// The face whose metrics set the line height: the glyph face, or the run's face when
    /// the run's family is only a stand-in (the real font would have had the glyph).
    metrics_face: Arc<LoadedFace>,
    size: Pt,
    base_size: Pt,
    text: String,
    /// The run's own face, when this piece is a fallback face that keeps the spaces between
    /// its right-to-left words: they take that face's advance.
    space_face: Option<Arc<LoadedFace>>,
}

fn push_text(c: &mut Collected, s: &str, style: usize, owner: Owner, ctx: &mut Ctx<'_>) {
    let run = c.styles[style].run.clone();
    // Caps and small caps change the letters, not the underlying text (§17.3.2.5, §17.3.2.33).
    let chunks: Vec<(String, f64)> = if run.small_caps && !run.caps {
        let mut out: Vec<(String, f64)> = Vec::new();
        for ch in s.chars() {
            let scale = if ch.is_lowercase() { SMALL_CAPS_SCALE } else { 1.0 };
            let up: String = ch.to_uppercase().collect();
            match out.last_mut() {
                Some((t, sc)) if *sc == scale => t.push_str(&up),
                _ => out.push((up, scale)),
            }
        }
        out
    } else if run.caps {
        vec![(s.to_uppercase(), 1.0)]
    } else {
        vec![(s.to_string(), 1.0)]
    };
    for (text, scale) in chunks {
        let mut pieces: Vec<Piece> = Vec::new();
        // The face of the last family asked for: runs are mostly one slot.
        type Primary = Option<(Arc<LoadedFace>, FamilyMatch)>;
        let mut last_face: Option<(Arc<str>, bool, bool, Primary)> = None;
        for ch in text.chars() {
            let (family, cs) = slot(ch, &run);
            let base = if cs { run.size_cs } else { run.size } * scale;
            // Complex scripts take `w:bCs`/`w:iCs` (§17.3.2.2, §17.3.2.17).
            let (bold, italic) = if cs { (run.bold_cs, run.italic_cs) } else { (run.bold, run.italic) };
            // Most characters stay in the piece before them: decided without cloning the
            // faces (four atomic counter updates per character otherwise), with the same
            // outcome as the full choice below.
            if let (Some(last), Some((fam, b, i, Some((f, _))))) = (pieces.last_mut(), &last_face) {
                if Arc::ptr_eq(fam, family)
                    && *b == bold
                    && *i == italic
                    && Arc::ptr_eq(&last.face, f)
                    && last.base_size == base
                    && (sticks_to_previous(ch) || f.has_char(ch) || ch.is_control() || ch == ' ')
                {
                    last.text.push(ch);
                    continue;
                }
            }
            let chosen = match pieces.last() {
                Some(last) if sticks_to_previous(ch) => Some((last.face.clone(), last.metrics_face.clone())),
                _ => {
                    let primary = match &last_face {
                        Some((f, b, i, face)) if Arc::ptr_eq(f, family) && *b == bold && *i == italic => face.clone(),
                        _ => {
                            let face = ctx.face_match(family, bold, italic);
                            last_face = Some((family.clone(), bold, italic, face.clone()));
                            face
                        }
                    };
                    match primary {
                        Some((f, _)) if ch == ' ' && keeps_space(pieces.last(), &f) => {
                            let last = pieces.last_mut().expect("keeps_space saw it");
                            last.space_face = Some(f);
                            Some((last.face.clone(), last.metrics_face.clone()))
                        }
                        Some((f, _)) if f.has_char(ch) || ch.is_control() || ch == ' ' => Some((f.clone(), f)),
                        Some((f, how)) => {
                            let glyph_face = ctx.fallback(ch, bold, italic).unwrap_or_else(|| f.clone());
                            // A stand-in family lacks scripts the real font has (Arabic in Times
                            // New Roman): keep the run's metrics. East Asian text goes to a linked
                            // font in Word too, whose metrics count.
                            let stand_in = how != FamilyMatch::Exact && !is_east_asian(u32::from(ch));
                            let metrics = if stand_in { f } else { glyph_face.clone() };
                            Some((glyph_face, metrics))
                        }
                        None => ctx.fallback(ch, bold, italic).map(|g| (g.clone(), g)),
                    }
                }
            };
            let Some((face, metrics_face)) = chosen else { continue };
            match pieces.last_mut() {
                Some(last) if Arc::ptr_eq(&last.face, &face) && last.base_size == base => last.text.push(ch),
                _ => pieces.push(Piece { face, metrics_face, size: base, base_size: base, text: ch.to_string(), space_face: None }),
            }
        }
        for mut piece in pieces {
            let (size, rise) = script_geometry(&run, piece.base_size);
            piece.size = size;
            push_piece(c, piece, rise, style, owner);
        }
    }
}

/// Whether a space after `last` stays in its face: a fallback face setting right-to-left
/// letters the run's own face lacks (Arabic under a missing B Nazanin). The space keeps the
/// run's face's advance, and the line's words and spaces stay in one face, one span of
/// text that extraction reads in the order it is written, as in Word's PDFs.
fn keeps_space(last: Option<&Piece>, own: &Arc<LoadedFace>) -> bool {
    last.is_some_and(|p| {
        !Arc::ptr_eq(&p.face, own) && p.text.chars().next_back().is_some_and(is_right_to_left) && p.face.has_char(' ')
    })
}

/// Whether a letter is written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and
/// their presentation forms).
fn is_right_to_left(c: char) -> bool {
    matches!(u32::from(c), 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// Glyph size and baseline shift for superscript, subscript and `w:position`.
fn script_geometry(run: &RunStyle, base: Pt) -> (Pt, Pt) {
    let (size, rise) = match run.vert_align {
        VertAlign::Superscript => (base * SCRIPT_SCALE, base * SUPER_RISE),
        VertAlign::Subscript => (base * SCRIPT_SCALE, -(base * SUB_DROP)),
        VertAlign::Baseline => (base, Pt::ZERO),
    };
    (size, rise + run.position)
}

/// Shapes `piece.text[range]`, all at one bidi `level`; `start` is where the piece's text
/// begins in `Collected::text`.
#[allow(clippy::too_many_arguments)]
fn shape_piece(
    c: &mut Collected,
    piece: &Piece,
    range: (usize, usize),
    start: usize,
    level: u8,
    rise: Pt,
    style: usize,
    owner: Owner,
    ctx: &mut Ctx<'_>,
) {
    let spacing = c.styles[style].run.spacing;
    let kern = c.styles[style].run.kern.is_some_and(|k| piece.size >= k);
    let m = &piece.metrics_face.metrics;
    let mut extent = m.extent(piece.base_size);
    if rise > Pt::ZERO {
        extent.ascent = extent.ascent.max(m.extent(piece.size).ascent + rise);
    } else if rise < Pt::ZERO {
        extent.descent = extent.descent.max(m.extent(piece.size).descent - rise);
    }
    let scale = piece.size.0 / piece.face.metrics.upm;
    let rtl = level % 2 == 1;
    let text = &piece.text[range.0..range.1];
    // Right-to-left text is shaped word by word, one atom per word, so each word keeps its
    // joining; the line puts the atoms in visual order.
    let parts: Vec<(usize, &str)> = if rtl { split_words(text) } else { vec![(0, text)] };
    for (offset, part) in parts {
        let raw = ctx.shape(&piece.face, part, rtl, kern);
        let seg_index = c.segments.len();
        let base_offset = start + range.0 + offset;
        let mut glyphs: Vec<SegGlyph> = raw
            .iter()
            .map(|g| SegGlyph {
                id: g.id,
                advance: Pt(f64::from(g.advance) * scale),
                offset: Point::new(Pt(f64::from(g.x_offset) * scale), Pt(-f64::from(g.y_offset) * scale)),
                text: (0, 0),
            })
            .collect();
        if let Some(own) = &piece.space_face {
            // Spaces kept in a fallback face advance as in the run's own face.
            let advance = ctx.shape(own, " ", rtl, kern).first().map(|g| Pt(f64::from(g.advance) * piece.size.0 / own.metrics.upm));
            for (g, r) in glyphs.iter_mut().zip(raw.iter()) {
                if part.as_bytes().get(r.cluster as usize) == Some(&b' ') {
                    g.advance = advance.unwrap_or(g.advance);
                }
            }
        }
        if rtl {
            // Glyphs come in visual order, clusters descending: each cluster's text runs to
            // the next larger cluster value, on its first glyph only.
            let mut clusters: Vec<u32> = raw.iter().map(|g| g.cluster).collect();
            clusters.sort_unstable();
            clusters.dedup();
            let mut seen = Vec::with_capacity(clusters.len());
            for (g, r) in glyphs.iter_mut().zip(raw.iter()) {
                if seen.contains(&r.cluster) {
                    continue;
                }
                seen.push(r.cluster);
                let end = clusters.iter().find(|&&k| k > r.cluster).map(|&k| k as usize).unwrap_or(part.len());
                g.text = (base_offset + r.cluster as usize, base_offset + end.max(r.cluster as usize));
            }
            for g in &mut glyphs {
                g.advance += if g.text.1 > g.text.0 { spacing } else { Pt::ZERO };
            }
            let width = glyphs.iter().map(|g| g.advance).sum();
            let space = part.chars().all(|ch| ch == ' ');
            c.atoms.push(Atom {
                kind: AtomKind::Glyphs { seg: seg_index, first: 0, count: glyphs.len(), space },
                start: base_offset,
                width,
                link: owner.link,
                tag: owner.tag,
                decimal: false,
                level,
            });
        } else {
            // Clusters in order: glyphs [i, j) share a cluster value.
            let mut i = 0;
            while i < raw.len() {
                let cl = raw[i].cluster;
                let mut j = i + 1;
                while j < raw.len() && raw[j].cluster == cl {
                    j += 1;
                }
                let next = if j < raw.len() { raw[j].cluster as usize } else { part.len() };
                let text = part.get(cl as usize..next.max(cl as usize)).unwrap_or("");
                glyphs[i].text = (base_offset + cl as usize, base_offset + cl as usize + text.len());
                glyphs[j - 1].advance += spacing;
                let width = glyphs[i..j].iter().map(|g| g.advance).sum();
                c.atoms.push(Atom {
                    kind: AtomKind::Glyphs { seg: seg_index, first: i, count: j - i, space: text == " " },
                    start: base_offset + cl as usize,
                    width,
                    link: owner.link,
                    tag: owner.tag,
                    decimal: text == "." || text == ",",
                    level,
                });
                i = j;
            }
        }
        c.segments.push(Segment { face: piece.face.clone(), size: piece.size, rise, style, glyphs, extent });
    }
}

/// Splits text into words and single spaces, with their byte offsets.
fn split_words(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        if ch == ' ' {
            if i > start {
                out.push((start, &s[start..i]));
            }
            out.push((i, &s[i..i + 1]));
            start = i + 1;
        }
    }
    if start < s.len() {
        out.push((start, &s[start..]));
    }
    out
}

/// A `w:sym`: the symbol font's own glyph when installed, else a Unicode stand-in.
fn push_symbol(c: &mut Collected, font: Option<&str>, code: u32, style: usize, owner: Owner, ctx: &mut Ctx<'_>) {
    let run = c.styles[style].run.clone();
    let family: Arc<str> = font.map(Arc::from).unwrap_or_else(|| run.fonts.h_ansi.clone());
    if ctx.has_family(&family) {
        if let (Some(face), Some(pua)) = (ctx.face(&family, run.bold, run.italic), private_use(code)) {
            let ch = if face.has_char(pua) { Some(pua) } else { char::from_u32(code).filter(|ch| face.has_char(*ch)) };
            if let Some(ch) = ch {
                let (size, rise) = script_geometry(&run, run.size);
                let piece = Piece { metrics_face: face.clone(), face, size, base_size: run.size, text: ch.to_string(), space_face: None };
                push_piece(c, piece, rise, style, owner);
                return;
            }
        }
    }
    match dingbat(&family, code).or_else(|| char::from_u32(code).filter(|ch| !('\u{E000}'..='\u{F8FF}').contains(ch))) {
        Some(ch) => push_text(c, &ch.to_string(), style, owner, ctx),
        None => ctx.warn("symbol_skipped", format!("a symbol of font \"{family}\" has no stand-in")),
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{FontRef, FontSlots, Inline, Paragraph, Run, RunContent, RunProps, VertAlign};
    use crate::layout::testing::*;
    use crate::units::HalfPoints;

    fn font(name: &str) -> FontSlots {
        FontSlots { ascii: Some(FontRef::Named(name.into())), h_ansi: Some(FontRef::Named(name.into())), ..Default::default() }
    }

    fn one(text: &str, props: RunProps) -> crate::layout::LaidOut {
        lay(&doc_of(vec![Paragraph { inlines: vec![run(text, props)], ..Default::default() }]))
    }

    #[test]
    fn missing_family_is_substituted_with_a_warning() {
        let out = one("x", RunProps { fonts: font("Nonexistent Sans Pro"), ..Default::default() });
        let w = out.warnings.iter().find(|w| w.kind == "font_substituted").expect("a warning");
        assert!(w.message.contains("Nonexistent Sans Pro"));
        assert_eq!(texts(&out.layout.pages[0])[0].3.face.postscript_name, "LiberationSans");
    }

    #[test]
    fn a_metric_compatible_substitute_is_said_as_one() {
        let out = one("x", RunProps { fonts: font("Calibri"), ..Default::default() });
        let kinds: Vec<(&str, Option<&str>)> = out.warnings.iter().map(|w| (w.kind, w.detail.as_deref())).collect();
        // The test document's defaults ask for Times New Roman too.
        assert!(kinds.contains(&("font_compatible", Some("Calibri -> Carlito"))), "{kinds:?}");
        assert!(kinds.iter().all(|(k, _)| *k == "font_compatible"), "{kinds:?}");
        assert_eq!(texts(&out.layout.pages[0])[0].3.face.postscript_name, "Carlito");
    }

    #[test]
    fn bold_italic_text_uses_the_bold_italic_face() {
        let out = one("x", RunProps { bold: Some(true), italic: Some(true), ..Default::default() });
        assert_eq!(texts(&out.layout.pages[0])[0].3.face.postscript_name, "LiberationSerif-BoldItalic");
    }

    #[test]
    fn caps_uppercase_the_text() {
        let out = one("Hello", RunProps { caps: Some(true), ..Default::default() });
        assert_eq!(lines(&out.layout.pages[0])[0].1, "HELLO");
    }

    #[test]
    fn small_caps_draw_lowercase_letters_as_smaller_capitals() {
        let out = one("Ab", RunProps { small_caps: Some(true), size: Some(HalfPoints(20)), ..Default::default() });
        let t = texts(&out.layout.pages[0]);
        assert_eq!(t.iter().map(|x| x.2.as_str()).collect::<String>(), "AB");
        assert_eq!(t[1].3.size.0, 8.0);
    }

    #[test]
    fn hidden_text_is_not_laid_out() {
        let p = Paragraph {
            inlines: vec![run("shown", RunProps::default()), run("hidden", RunProps { vanish: Some(true), ..Default::default() })],
            ..Default::default()
        };
        assert_eq!(lines(&lay(&doc_of(vec![p])).layout.pages[0])[0].1, "shown");
    }

    #[test]
    fn a_character_missing_from_the_font_falls_back_per_glyph() {
        let out = one("a中b", RunProps::default());
        let t = texts(&out.layout.pages[0]);
        assert_eq!(t.len(), 3);
        assert!(t[1].3.face.postscript_name.starts_with("NotoSansCJK"), "{}", t[1].3.face.postscript_name);
        assert_eq!(t[0].3.face.postscript_name, t[2].3.face.postscript_name);
    }

    #[test]
    fn superscript_is_smaller_and_raised() {
        let p = Paragraph {
            inlines: vec![
                run("x", RunProps::default()),
                run("2", RunProps { vert_align: Some(VertAlign::Superscript), ..Default::default() }),
            ],
            ..Default::default()
        };
        let out = lay(&doc_of(vec![p]));
        let t = texts(&out.layout.pages[0]);
        assert!(t[1].3.size.0 < 7.0);
        assert!(t[1].1 < t[0].1 - 3.0);
    }

    #[test]
    fn character_spacing_widens_the_advances() {
        let plain = one("ab", RunProps::default());
        let spaced = one("ab", RunProps { spacing: Some(crate::units::Twips(40)), ..Default::default() });
        let w = |o: &crate::layout::LaidOut| texts(&o.layout.pages[0])[0].3.width().0;
        assert!((w(&spaced) - w(&plain) - 4.0).abs() < 0.01);
    }

    #[test]
    fn a_symbol_without_its_font_becomes_a_unicode_bullet() {
        let p = Paragraph {
            inlines: vec![Inline::Run(Run {
                style: None,
                props: RunProps::default(),
                content: vec![RunContent::Symbol { font: Some("Symbol".into()), char: 0xF0B7 }],
            })],
            ..Default::default()
        };
        assert_eq!(lines(&lay(&doc_of(vec![p])).layout.pages[0])[0].1, "•");
    }

    #[test]
    fn glyphs_carry_their_cluster_text() {
        let out = one("Hi there", RunProps::default());
        let t = texts(&out.layout.pages[0]);
        let glyph_texts: Vec<&str> = t[0].3.glyphs.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(glyph_texts, vec!["H", "i", " ", "t", "h", "e", "r", "e"]);
    }
}
