//! East Asian line-breaking rules (kinsoku, §17.3.1.16): characters that may not start or
//! end a line, Word's lists or the document's own (§17.15.1.60/61).

use crate::layout::east_asian::is_cjk;
use crate::docx::model::Settings;

/// Word's "standard" list of characters that may not start a line (Japanese; Word's
/// Asian Typography options, the list `w:noLineBreaksBefore` replaces).
const NO_START: &str = "!%),.:;?]}¢°’”‰′″℃、。々〉》」』】〕゛゜ゝゞ・ヽヾ！％），．：；？］｝｡｣､･ﾞﾟ￠";
/// Word's "standard" list of characters that may not end a line.
const NO_END: &str = "$([\\{£¥‘“〈《「『【〔＄（［｛｢￡￥";
/// What the strict level (`w:strictFirstAndLastChars`, §17.15.1.85) adds to `NO_START`:
/// small kana and the prolonged sound mark.
const STRICT_NO_START: &str =
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーｧｨｩｪｫｬｭｮｯｰ";

/// The kinsoku lists a document uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Kinsoku {
    no_start: String,
    no_end: String,
    /// Small kana and `ー` may not start a line (else Word lets them, unlike UAX #14).
    strict: bool,
}

impl Default for Kinsoku {
    fn default() -> Kinsoku {
        Kinsoku { no_start: NO_START.to_string(), no_end: NO_END.to_string(), strict: false }
    }
}

impl Kinsoku {
    /// The lists of a document's settings: its own `w:noLineBreaksBefore/After` replace
    /// Word's (all languages' lists together), the strict level adds the small kana.
    pub fn of(settings: &Settings) -> Kinsoku {
        let own = |lists: &[crate::docx::model::LineBreakChars]| -> Option<String> {
            (!lists.is_empty()).then(|| lists.iter().map(|l| l.chars.as_str()).collect())
        };
        let strict = settings.strict_first_and_last_chars;
        let mut no_start = own(&settings.no_line_breaks_before).unwrap_or_else(|| NO_START.to_string());
        if strict {
            no_start.push_str(STRICT_NO_START);
        }
        Kinsoku { no_start, no_end: own(&settings.no_line_breaks_after).unwrap_or_else(|| NO_END.to_string()), strict }
    }

    /// Adjusts UAX #14 break opportunities (`allowed[byte offset]`) next to East Asian
    /// text: no break before a no-start character or after a no-end one, and, below the
    /// strict level, a break allowed before small kana and `ー` between CJK characters
    /// (UAX #14 treats them as non-starters; Word's standard level does not).
    pub fn apply(&self, text: &str, allowed: &mut [bool]) {
        let mut prev: Option<char> = None;
        for (pos, next) in text.char_indices() {
            let Some(before) = prev.replace(next) else { continue };
            if !(is_cjk(before) || is_cjk(next)) || pos >= allowed.len() {
                continue;
            }
            if self.no_start.contains(next) || self.no_end.contains(before) {
                allowed[pos] = false;
            } else if !self.strict
                && STRICT_NO_START.contains(next)
                && is_cjk(before)
                && !self.no_start.contains(before)
            {
                allowed[pos] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::LineBreakChars;

    fn breaks(k: &Kinsoku, text: &str) -> Vec<usize> {
        let mut allowed = vec![true; text.len() + 1];
        for (i, _) in text.char_indices() {
            allowed[i] = true;
        }
        k.apply(text, &mut allowed);
        text.char_indices().skip(1).filter(|(i, _)| allowed[*i]).map(|(i, _)| text[..i].chars().count()).collect()
    }

    #[test]
    fn closing_marks_do_not_start_and_opening_marks_do_not_end_a_line() {
        // 日本「語」。: no break before 」 or 。, none after 「.
        let b = breaks(&Kinsoku::default(), "日本「語」。");
        assert_eq!(b, vec![1, 2]);
    }

    #[test]
    fn small_kana_may_start_a_line_unless_strict() {
        let text = "カップ";
        assert_eq!(breaks(&Kinsoku::default(), text), vec![1, 2]);
        let strict = Kinsoku::of(&Settings { strict_first_and_last_chars: true, ..Default::default() });
        assert_eq!(breaks(&strict, text), vec![2]);
    }

    #[test]
    fn the_document_lists_replace_words_lists() {
        let settings = Settings {
            no_line_breaks_before: vec![LineBreakChars { lang: Some("ja-JP".into()), chars: "語".into() }],
            ..Default::default()
        };
        // Only 語 is kept from the start of a line now; 。 may start one.
        assert_eq!(breaks(&Kinsoku::of(&settings), "日本語。"), vec![1, 3]);
    }
}
