//! Computed paragraph properties: docDefaults → style levels → direct `w:pPr` (§17.3.1).

use super::cascade::merge_paragraph;
use super::{BorderSet, BorderStyle, LineRule, ParaStyle, TabStopStyle};
use crate::docx::model::{Align, LineSpacing, ParagraphProps};
use crate::units::Pt;

/// `beforeAutospacing`/`afterAutospacing` use 14 pt (280 twips), notes §3.
pub(super) const AUTOSPACING: Pt = Pt(14.0);
/// With the compat `doNotUseHTMLParagraphAutoSpacing` both are a fixed 5 pt (100 twips:
/// LibreOffice's `SwWW8ImplReader::GetParagraphAutoSpace`, measured on Word).
pub(super) const FIXED_AUTOSPACING: Pt = Pt(5.0);

/// Applies the compat `doNotUseHTMLParagraphAutoSpacing` (ECMA-376 Part 4): autospacing becomes a
/// fixed space with none of HTML's contextual rules (first in a cell, between list items),
/// so the paragraph no longer counts as autospaced.
pub(super) fn fix_autospacing(style: &mut ParaStyle) {
    if std::mem::take(&mut style.before_autospacing) {
        style.space_before = FIXED_AUTOSPACING;
    }
    if std::mem::take(&mut style.after_autospacing) {
        style.space_after = FIXED_AUTOSPACING;
    }
}

/// Computes a paragraph's properties. `levels` are outermost first, each already merged
/// through its `basedOn` chain.
pub(super) fn compute_paragraph(
    defaults: &ParagraphProps,
    levels: &[&ParagraphProps],
    direct: &ParagraphProps,
    style_id: Option<String>,
    heading: Option<u8>,
) -> ParaStyle {
    let mut p = defaults.clone();
    for level in levels {
        merge_paragraph(&mut p, level);
    }
    merge_paragraph(&mut p, direct);
    // §17.3.1.20: `w:outlineLvl` 0–8 is level 1–9 and 9 is body text; without it, a
    // "heading N" style name gives the level.
    let outline_level = match p.outline_level {
        Some(l) if l < 9 => Some(l + 1),
        Some(_) => None,
        None => heading,
    };

    let hanging = p.indent.hanging.map(|h| h.pt());
    // §17.3.1.12: hanging wins over firstLine.
    let first_line = match (hanging, p.indent.first_line) {
        (Some(h), _) => -h,
        (None, Some(f)) => f.pt(),
        (None, None) => Pt::ZERO,
    };
    let before_auto = p.spacing.before_autospacing.unwrap_or(false);
    let after_auto = p.spacing.after_autospacing.unwrap_or(false);
    // §17.3.1.33: `auto` is in 240ths of a single line; Word's default is single.
    let line = match p.spacing.line {
        None => LineRule::Auto(1.0),
        Some(LineSpacing::Auto(n)) => LineRule::Auto((n.max(1) as f64) / 240.0),
        Some(LineSpacing::Exact(t)) => LineRule::Exact(t.pt().max(Pt(0.5))),
        Some(LineSpacing::AtLeast(t)) => LineRule::AtLeast(t.pt().max(Pt::ZERO)),
    };
    let mut tabs: Vec<TabStopStyle> =
        p.tabs.iter().map(|t| TabStopStyle { kind: t.kind, pos: t.pos.pt(), leader: t.leader }).collect();
    tabs.sort_by(|a, b| a.pos.0.total_cmp(&b.pos.0));
    let border = |b: &Option<crate::docx::model::Border>| b.as_ref().and_then(BorderStyle::from_model);
    // `w:wordWrap`, `w:autoSpaceDE` and `w:autoSpaceDN` unset anywhere: on in a paragraph
    // whose style the document defines (its `w:pStyle`, or a default paragraph style), off
    // in a bare one, whose Hangul then breaks between syllables and meets Latin text flush.
    // Measured with native Word by office2pdf (developer0hye/office2pdf #730, #1062, #1055):
    // adding only a default style definition to a package flips its bare paragraphs.
    let styled = style_id.is_some();
    ParaStyle {
        style_id,
        outline_level,
        // The caller sets it: it knows the style's name.
        title: false,
        align: p.align.unwrap_or(Align::Left),
        indent_left: p.indent.left.map(|t| t.pt()).unwrap_or(Pt::ZERO),
        indent_right: p.indent.right.map(|t| t.pt()).unwrap_or(Pt::ZERO),
        first_line,
        hanging,
        space_before: if before_auto {
            AUTOSPACING
        } else {
            p.spacing.before.map(|t| t.pt()).unwrap_or(Pt::ZERO).max(Pt::ZERO)
        },
        space_after: if after_auto {
            AUTOSPACING
        } else {
            p.spacing.after.map(|t| t.pt()).unwrap_or(Pt::ZERO).max(Pt::ZERO)
        },
        before_autospacing: before_auto,
        after_autospacing: after_auto,
        in_list: p.numbering.and_then(|n| n.num_id).is_some_and(|id| id != 0),
        line,
        keep_next: p.keep_next.unwrap_or(false),
        keep_lines: p.keep_lines.unwrap_or(false),
        page_break_before: p.page_break_before.unwrap_or(false),
        // §17.3.1.44: widow control is on unless turned off.
        widow_control: p.widow_control.unwrap_or(true),
        snap_to_grid: p.snap_to_grid.unwrap_or(true),
        word_wrap: p.word_wrap.unwrap_or(styled),
        auto_space_de: p.auto_space_de.unwrap_or(styled),
        auto_space_dn: p.auto_space_dn.unwrap_or(styled),
        contextual_spacing: p.contextual_spacing.unwrap_or(false),
        mirror_indents: p.mirror_indents.unwrap_or(false),
        bidi: p.bidi.unwrap_or(false),
        tabs,
        shading: p.shading,
        borders: BorderSet {
            top: border(&p.borders.top),
            bottom: border(&p.borders.bottom),
            left: border(&p.borders.left),
            right: border(&p.borders.right),
        },
        border_between: border(&p.borders.between),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{Indent, Spacing};
    use crate::units::Twips;

    #[test]
    fn hanging_indent_becomes_a_negative_first_line() {
        let direct = ParagraphProps {
            indent: Indent { left: Some(Twips(720)), hanging: Some(Twips(360)), ..Default::default() },
            ..Default::default()
        };
        let p = compute_paragraph(&ParagraphProps::default(), &[], &direct, None, None);
        assert_eq!(p.indent_left, Pt(36.0));
        assert_eq!(p.first_line, Pt(-18.0));
    }

    #[test]
    fn autospacing_uses_fourteen_points() {
        let direct = ParagraphProps {
            spacing: Spacing { before: Some(Twips(100)), before_autospacing: Some(true), ..Default::default() },
            ..Default::default()
        };
        let p = compute_paragraph(&ParagraphProps::default(), &[], &direct, None, None);
        assert_eq!(p.space_before, Pt(14.0));
    }

    #[test]
    fn nothing_said_is_single_spaced_with_widow_control() {
        let p = compute_paragraph(&ParagraphProps::default(), &[], &ParagraphProps::default(), None, None);
        assert_eq!(p.line, LineRule::Auto(1.0));
        assert!(p.widow_control);
        assert_eq!(p.space_after, Pt::ZERO);
    }

    #[test]
    fn word_wrap_unset_follows_whether_the_document_defines_the_style() {
        let none = ParagraphProps::default();
        assert!(!compute_paragraph(&none, &[], &none, None, None).word_wrap);
        assert!(compute_paragraph(&none, &[], &none, Some("ListParagraph".into()), None).word_wrap);
        let off = ParagraphProps { word_wrap: Some(false), ..Default::default() };
        assert!(!compute_paragraph(&none, &[&off], &none, Some("a".into()), None).word_wrap);
        let on = ParagraphProps { word_wrap: Some(true), ..Default::default() };
        assert!(compute_paragraph(&none, &[], &on, None, None).word_wrap);
    }
}

#[cfg(test)]
mod outline_tests {
    use super::*;

    #[test]
    fn outline_level_zero_is_level_one_and_nine_is_body_text() {
        let level = |l| ParagraphProps { outline_level: Some(l), ..Default::default() };
        assert_eq!(compute_paragraph(&ParagraphProps::default(), &[], &level(0), None, None).outline_level, Some(1));
        assert_eq!(compute_paragraph(&ParagraphProps::default(), &[], &level(9), None, Some(2)).outline_level, None);
    }
}
