//! Greedy line breaking over UAX #14 opportunities, as Word fills each line in turn.

use unicode_linebreak::{break_property, linebreaks, BreakClass, BreakOpportunity};

use crate::layout::collect::{AtomKind, Collected};
use crate::layout::kinsoku::Kinsoku;
use crate::layout::tabs::{Pen, TabContext};
use crate::docx::model::{Align, BreakKind, TabKind};
use crate::deadline::{Deadline, TimedOut};
use crate::units::Pt;

/// Overflow smaller than this is rounding, not overflow.
pub(crate) const EPSILON: Pt = Pt(0.01);

/// The horizontal geometry of a paragraph's lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineGeometry<'a> {
    /// Left edge of the first line (left indent + first-line offset).
    pub first_left: Pt,
    /// Left edge of the other lines (left indent).
    pub left: Pt,
    /// Right edge of every line (box width − right indent).
    pub right: Pt,
    /// The paragraph box's width: a right-to-left paragraph mirrors its lines in it.
    pub width: Pt,
    /// Tab stops; `hanging_stop` only applies on the first line.
    pub tabs: TabContext<'a>,
    /// The share of its width each space may give up so that one more word fits
    /// (`jc=both` in Word 2013+ layout, see [`space_shrink`]); 0 when spaces never shrink.
    pub shrink: f64,
}

impl<'a> LineGeometry<'a> {
    /// The left edge of a line.
    pub fn line_left(&self, first: bool) -> Pt {
        if first {
            self.first_left
        } else {
            self.left
        }
    }

    /// Tab context of a line.
    pub fn tab_context(&self, first: bool) -> TabContext<'a> {
        TabContext { hanging_stop: if first { self.tabs.hanging_stop } else { None }, ..self.tabs }
    }
}

/// How much of each space a justified line may give up to keep a word that overflows by
/// a little. Word 2013 and later (`compatibilityMode` 15) compress the spaces of a `jc=both`
/// line rather than push its last word down (LibreOffice copies this as
/// `JUSTIFY_LINES_WITH_SHRINKING`, tdf#119908). Measured: `Agaresd47_stor565…proposal`
/// keeps a 12 pt Times New Roman line 0.6 pt too long whole, its spaces 2.95 pt instead of
/// 3 pt. The share is calibrated on corpus/word: a tenth leaves that document a page long,
/// a fifth matches the page counts of it and of two more, a quarter moves a Korean letter's
/// lines. Earlier modes and other alignments never shrink.
pub(crate) fn space_shrink(align: Align, compatibility_mode: Option<u32>) -> f64 {
    if align == Align::Both && compatibility_mode.unwrap_or(0) >= 15 {
        SPACE_SHRINK
    } else {
        0.0
    }
}

/// The share of a space Word may remove in a justified line (see [`space_shrink`]).
const SPACE_SHRINK: f64 = 0.2;

/// A line as a range of atoms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineSpan {
    /// First atom.
    pub start: usize,
    /// One past the last atom.
    pub end: usize,
    /// The paragraph's first line.
    pub first: bool,
    /// The paragraph's last line.
    pub last: bool,
    /// A `w:br` ending the line.
    pub brk: Option<BreakKind>,
}

/// How far the pen may go: the right edge, or a right/center/decimal stop set beyond it
/// (Word lets such text reach into the margin, e.g. a footer's right tab at 9072 twips on a
/// 9071-twip line).
fn limit(pen: &Pen, right: Pt) -> Pt {
    let seg = &pen.segments[pen.current()];
    if pen.current() > 0 && matches!(seg.stop.kind, TabKind::Right | TabKind::Center | TabKind::Decimal) {
        right.max(seg.stop.pos)
    } else {
        right
    }
}

/// How far the spaces of the open segment may shrink: only text set from the left (the
/// line start or a left stop) is justified, so only its spaces give way.
pub(crate) fn shrinkable(pen: &Pen, spaces: Pt, shrink: f64) -> Pt {
    if shrink > 0.0 && matches!(pen.segments[pen.current()].stop.kind, TabKind::Left) {
        spaces * shrink
    } else {
        Pt::ZERO
    }
}

/// Where lines may break: UAX #14 opportunities by byte offset of the paragraph text,
/// adjusted by the kinsoku rules next to East Asian text (§17.3.1.16). With `word_wrap`
/// (`w:wordWrap`, on unless turned off) Hangul breaks as Latin letters do, between words
/// only (see [`hangul_as_letters`]).
pub(crate) fn break_opportunities(c: &Collected, kinsoku: &Kinsoku, word_wrap: bool) -> Vec<bool> {
    opportunities(&c.text, kinsoku, word_wrap)
}

/// [`break_opportunities`] of a text.
fn opportunities(text: &str, kinsoku: &Kinsoku, word_wrap: bool) -> Vec<bool> {
    let mut allowed = vec![false; text.len() + 1];
    let letters;
    let uax = if word_wrap && text.chars().any(is_hangul) {
        letters = hangul_as_letters(text);
        &letters
    } else {
        text
    };
    for (pos, kind) in linebreaks(uax) {
        if kind == BreakOpportunity::Allowed || kind == BreakOpportunity::Mandatory {
            allowed[pos] = true;
        }
    }
    allow_after_spaces(text, &mut allowed);
    keep_solidus(text, &mut allowed);
    kinsoku.apply(text, &mut allowed);
    allowed
}

/// Word does not break a line after a solidus, where UAX #14 does (LB31 after SY): a URL
/// or an `and/or` moves to the next line whole; only a URL longer than the line breaks
/// after a solidus (`next_line`). Word's PDF of
/// DJ-Chemik_BonePoker_Sprawozdanie (corpus/word) sets
/// `https://wiedzmin.fandom.com/wiki/Kościany_poker` on a line of its own rather than end
/// the line after `wiki/`.
fn keep_solidus(text: &str, allowed: &mut [bool]) {
    for (pos, ch) in text.char_indices() {
        if ch == '/' && text[pos + 1..].chars().next().is_some_and(|next| !next.is_whitespace()) {
            allowed[pos + 1] = false;
        }
    }
}

/// Word breaks a line after any space that a word follows, where UAX #14 keeps the words
/// together across the space: after a closing quotation mark before an opening bracket
/// (LB15, `"eingetragener Verein" (asociación`), after a closing bracket before a
/// nonstarter (LB16) and between em dashes (LB17). Word's PDFs of the isaqb examination
/// rules (es, fr) end lines at such spaces. A space before closing punctuation (LB13:
/// `word !`, `word )`) or after an opening bracket (LB14: `{{ name`) stays unbreakable.
fn allow_after_spaces(text: &str, allowed: &mut [bool]) {
    let mut after_space = false;
    let mut after_opening = false;
    for (pos, ch) in text.char_indices() {
        if ch == ' ' {
            after_space = true;
            continue;
        }
        let class = break_property(ch as u32);
        if after_space && !after_opening && !allowed[pos] {
            let closing = matches!(
                class,
                BreakClass::ClosePunctuation
                    | BreakClass::CloseParenthesis
                    | BreakClass::Exclamation
                    | BreakClass::InfixSeparator
                    | BreakClass::Symbol
                    | BreakClass::Mandatory
                    | BreakClass::CarriageReturn
                    | BreakClass::LineFeed
                    | BreakClass::NextLine
                    | BreakClass::NonBreakingGlue
                    | BreakClass::WordJoiner
                    | BreakClass::ZeroWidthSpace
                    | BreakClass::ZeroWidthJoiner
                    | BreakClass::CombiningMark
            );
            allowed[pos] = !closing;
        }
        after_space = false;
        after_opening = class == BreakClass::OpenPunctuation;
    }
}

/// A letter of UAX #14 class AL as long in UTF-8 as every Hangul character (three bytes),
/// so that break offsets in the copy are offsets in the original.
const LETTER: char = '\u{0800}';

/// Hangul syllables and jamo (UAX #14 classes H2, H3, JL, JV, JT and the ID compatibility
/// jamo), all in the three-byte range of UTF-8.
fn is_hangul(c: char) -> bool {
    matches!(u32::from(c), 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF)
}

/// The text with each Hangul character replaced by a letter of class AL. With
/// `w:wordWrap` on, Word breaks Korean between words, as it does Latin (OI29500 2.1.67:
/// Word applies §17.3.1.45 to Korean text only): a word such as `map상에서` or `30일까지`
/// stays whole, where UAX #14 breaks between any two syllables and between a Latin letter
/// and a syllable. Off, as in `iGH01gi_SE_Term_Project_make_a_move_fully_dressed_`
/// (corpus/word, whose Korean Normal style says `w:wordWrap w:val="0"`), Word ends a line
/// between `END` and `지점에`.
fn hangul_as_letters(text: &str) -> String {
    text.chars().map(|c| if is_hangul(c) { LETTER } else { c }).collect()
}

/// The line starting at atom `start` (not past the end), filled greedily in `geo`.
pub(crate) fn next_line(c: &Collected, allowed: &[bool], geo: &LineGeometry<'_>, start: usize, first: bool) -> LineSpan {
    let atoms = &c.atoms;
    let tc = geo.tab_context(first);
    let mut pen = Pen::new(geo.line_left(first));
    let mut last_opportunity: Option<usize> = None;
    // After a solidus: where a word longer than the line breaks before it breaks by
    // character (see `keep_solidus`).
    let mut last_solidus: Option<usize> = None;
    // The width of the spaces in the current tab segment, which a justified line may shrink.
    let mut spaces = Pt::ZERO;
    let mut end = atoms.len();
    let mut brk = None;
    let mut i = start;
    while i < atoms.len() {
        let a = &atoms[i];
        let zero_text = matches!(a.kind, AtomKind::Bookmark(_));
        if i > start && !zero_text && allowed[a.start] {
            last_opportunity = Some(i);
        }
        if i > start && !zero_text && c.text.as_bytes().get(a.start.wrapping_sub(1)) == Some(&b'/') {
            last_solidus = Some(i);
        }
        match &a.kind {
            AtomKind::Break(k, _) => {
                end = i + 1;
                brk = Some(*k);
                // Bookmarks are not content (§17.13.6): a page or column break followed by
                // nothing but bookmarks still ends its paragraph, the mark staying with the
                // break, as Word sets it (no empty line at the top of the next page).
                if *k != BreakKind::Line && atoms[end..].iter().all(|a| matches!(a.kind, AtomKind::Bookmark(_))) {
                    end = atoms.len();
                }
                break;
            }
            AtomKind::Tab { .. } => {
                pen.tab(&tc);
                spaces = Pt::ZERO;
            }
            _ => {
                pen.add(a.width, a.decimal);
                if a.is_space() {
                    spaces += a.width;
                }
            }
        }
        if !a.is_space() && i > start && pen.x() > limit(&pen, geo.right) + shrinkable(&pen, spaces, geo.shrink) + EPSILON {
            end = match last_opportunity {
                Some(o) => o,
                // A word longer than the line breaks after its last solidus that fits, else
                // by character.
                None => last_solidus.unwrap_or(i),
            };
            break;
        }
        i += 1;
    }
    LineSpan { start, end, first, last: false, brk }
}

/// Ends a paragraph's spans: a paragraph that is empty, or ends with a line break, still
/// has a line for its mark; a page or column break at the very end does not start another
/// line (Word 2013+). The last span is marked.
fn close_lines(spans: &mut Vec<LineSpan>, atom_count: usize) {
    match spans.last() {
        None => spans.push(LineSpan { start: 0, end: 0, first: true, last: false, brk: None }),
        Some(s) if s.brk == Some(BreakKind::Line) => {
            spans.push(LineSpan { start: atom_count, end: atom_count, first: false, last: false, brk: None })
        }
        _ => {}
    }
    if let Some(last) = spans.last_mut() {
        last.last = true;
    }
}

/// Breaks a paragraph's atoms into lines.
pub(crate) fn break_lines(
    c: &Collected,
    geo: &LineGeometry<'_>,
    kinsoku: &Kinsoku,
    word_wrap: bool,
    deadline: &Deadline,
) -> Result<Vec<LineSpan>, TimedOut> {
    let allowed = break_opportunities(c, kinsoku, word_wrap);
    let mut spans: Vec<LineSpan> = Vec::new();
    let mut start = 0;
    let mut first = true;
    while start < c.atoms.len() {
        deadline.check()?;
        let span = next_line(c, &allowed, geo, start, first);
        spans.push(span);
        first = false;
        start = span.end;
    }
    close_lines(&mut spans, c.atoms.len());
    Ok(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts before each break opportunity inside `text` (not its end).
    fn pieces(text: &str, word_wrap: bool) -> Vec<&str> {
        let allowed = opportunities(text, &Kinsoku::default(), word_wrap);
        let cuts: Vec<usize> = (1..text.len()).filter(|&i| allowed[i]).collect();
        let mut out = Vec::new();
        let mut from = 0;
        for cut in cuts.into_iter().chain([text.len()]) {
            out.push(&text[from..cut]);
            from = cut;
        }
        out
    }

    #[test]
    fn no_break_after_a_solidus_but_after_the_space_before_a_url() {
        assert_eq!(pieces("see https://a.example/wiki/Page and/or it", false), ["see ", "https://a.example/wiki/Page ", "and/or ", "it"]);
    }

    #[test]
    fn the_stand_in_letter_is_alphabetic_and_as_long_as_hangul() {
        assert_eq!(unicode_linebreak::break_property(u32::from(LETTER)), unicode_linebreak::BreakClass::Alphabetic);
        assert_eq!(LETTER.len_utf8(), '한'.len_utf8());
        assert_eq!('ᄀ'.len_utf8(), 3);
    }

    #[test]
    fn korean_breaks_between_words_by_default() {
        assert_eq!(pieces("해당하는 점수를 map상에서", true), vec!["해당하는 ", "점수를 ", "map상에서"]);
    }

    #[test]
    fn korean_breaks_between_syllables_when_word_wrap_is_off() {
        assert_eq!(pieces("점수를 더", false), vec!["점", "수", "를 ", "더"]);
    }

    #[test]
    fn korean_words_keep_their_parentheses() {
        assert_eq!(pieces("말(piece)이 따라", true), vec!["말(piece)이 ", "따라"]);
    }

    #[test]
    fn chinese_still_breaks_between_ideographs() {
        assert_eq!(pieces("电子科技", true), vec!["电", "子", "科", "技"]);
    }
}
