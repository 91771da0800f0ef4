//! Characters drawn as .notdef because no available face has them: counted per font and
//! script for the `missing_glyphs` warning, and given their own text through /ActualText
//! so that extraction reads the character itself, never another one.

use std::collections::BTreeMap;

use pdf_writer::{Content, Name, TextStr};
use rustybuzz::ttf_parser;
use unicode_script::UnicodeScript;

use super::font::UsedFont;
use crate::warning::Warning;

/// The .notdef glyphs one font showed.
#[derive(Default)]
pub(super) struct Missing {
    /// How many .notdef glyphs were shown, text or not (what the conformance rules count).
    pub(super) glyphs: usize,
    /// The visible characters behind them, by the full name of their Unicode script
    /// (`Han`, `Arabic`; `Unknown` for private use characters).
    by_script: BTreeMap<&'static str, usize>,
}

impl Missing {
    /// Counts one .notdef glyph standing for `text` (a cluster's text, empty on its tail).
    /// Spaces and controls are left out: they draw nothing whatever the face.
    pub(super) fn count(&mut self, text: &str) {
        self.glyphs += 1;
        for c in text.chars().filter(|c| !c.is_whitespace() && !c.is_control()) {
            *self.by_script.entry(c.script().full_name()).or_default() += 1;
        }
    }
}

/// One `missing_glyphs` warning per font and script, its detail
/// `N (Script) -> Family`: the characters drawn as .notdef in that font.
pub(super) fn warnings<'f>(fonts: impl Iterator<Item = &'f UsedFont>) -> Vec<Warning> {
    let mut out = Vec::new();
    for font in fonts {
        if font.missing.by_script.is_empty() {
            continue;
        }
        let family = family(font);
        for (script, &n) in &font.missing.by_script {
            out.push(Warning::counted(
                "missing_glyphs",
                format!("{n} ({script}) -> {family}"),
                1,
                format!("{n} character(s) of the {script} script are in no available face; drawn as {family}'s missing-glyph box"),
            ));
        }
    }
    out
}

/// The family a font's name table gives (typographic family first, OpenType `name` IDs 16
/// and 1), else its PostScript name.
fn family(font: &UsedFont) -> String {
    let named = font.ttf().ok().and_then(|ttf| {
        [ttf_parser::name_id::TYPOGRAPHIC_FAMILY, ttf_parser::name_id::FAMILY]
            .into_iter()
            .find_map(|id| ttf.names().into_iter().filter(|n| n.name_id == id && n.is_unicode()).find_map(|n| n.to_string()))
    });
    named.unwrap_or_else(|| font.face.postscript_name.clone())
}

/// Opens the marked-content span around a run of .notdef glyphs whose replacement text is
/// `text` (ISO 32000-1 §14.9.4): extraction reads `text` in place of the glyphs, which
/// map to no character in the ToUnicode CMap. Closed with `EMC`.
pub(super) fn begin_span(content: &mut Content, text: &str) {
    content.begin_marked_content_with_properties(Name(b"Span")).properties().actual_text(TextStr(text));
}
