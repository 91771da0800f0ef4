//! List number text: one counter in a `w:numFmt` (§17.18.59) and `w:lvlText` with its
//! `%1`…`%9` placeholders expanded (§17.9.11).

use crate::docx::model::NumberFormat;

/// Word keeps at most this many characters of a level text (OI29500 2.1.286).
const MAX_LEVEL_TEXT: usize = 31;

/// One level's counter and the format it shows in.
#[derive(Debug, Clone, Copy)]
pub(super) struct LevelValue<'a> {
    /// The counter.
    pub value: i64,
    /// The level's `w:numFmt`; `None` is decimal.
    pub format: Option<&'a NumberFormat>,
}

/// Expands `template` for a paragraph at `level` (0-based). `values` holds levels 0…`level`.
/// With `legal` (`w:isLgl`, §17.9.4) the other levels show as decimal numbers. `None`
/// when a placeholder names a level deeper than `level`: Word then drops the whole text
/// (OI29500 2.1.286).
pub(super) fn expand(template: &str, level: usize, values: &[LevelValue<'_>], legal: bool) -> Option<String> {
    let template: String = template.chars().take(MAX_LEVEL_TEXT).collect();
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    while let Some(ch) = chars.next() {
        let digit = chars.peek().and_then(|d| d.to_digit(10)).filter(|d| (1..=9).contains(d));
        match (ch, digit) {
            ('%', Some(d)) => {
                chars.next();
                let k = d as usize - 1;
                if k > level {
                    return None;
                }
                let v = values.get(k)?;
                let format = if legal && k != level { None } else { v.format };
                out.push_str(&number_text(v.value, format));
            }
            _ => out.push(ch),
        }
    }
    Some(out)
}

/// One counter in a format. Formats Word draws with scripts this renderer does not
/// know fall back to decimal, as Word does for unknown values.
pub(super) fn number_text(n: i64, format: Option<&NumberFormat>) -> String {
    match format {
        None | Some(NumberFormat::Decimal) => n.to_string(),
        Some(NumberFormat::UpperRoman) => roman(n),
        Some(NumberFormat::LowerRoman) => roman(n).to_lowercase(),
        Some(NumberFormat::UpperLetter) => letters(n),
        Some(NumberFormat::LowerLetter) => letters(n).to_lowercase(),
        Some(NumberFormat::Other(name)) => match name.as_str() {
            "none" | "bullet" => String::new(),
            "decimalZero" if (0..10).contains(&n) => format!("0{n}"),
            "ordinal" => ordinal(n),
            _ => n.to_string(),
        },
    }
}

/// Roman numerals; zero, negatives and values past 3999 stay decimal.
fn roman(n: i64) -> String {
    const DIGITS: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    if !(1..4000).contains(&n) {
        return n.to_string();
    }
    let mut rest = n;
    let mut out = String::new();
    for (value, text) in DIGITS {
        while rest >= value {
            out.push_str(text);
            rest -= value;
        }
    }
    out
}

/// Word's letter numbering (§17.18.59 `upperLetter`): A…Z, then AA…ZZ, AAA…, the letter
/// repeated once per round of the alphabet.
fn letters(n: i64) -> String {
    if n < 1 {
        return n.to_string();
    }
    let round = ((n - 1) / 26 + 1).min(MAX_LEVEL_TEXT as i64) as usize;
    let letter = char::from(b'A' + ((n - 1) % 26) as u8);
    std::iter::repeat_n(letter, round).collect()
}

/// English ordinals: 1st, 2nd, 3rd, 4th, 11th, 21st.
fn ordinal(n: i64) -> String {
    let suffix = match (n.rem_euclid(100), n.rem_euclid(10)) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(value: i64, format: &NumberFormat) -> LevelValue<'_> {
        LevelValue { value, format: Some(format) }
    }

    #[test]
    fn two_levels_expand_each_in_its_own_format() {
        let (roman, letter) = (NumberFormat::UpperRoman, NumberFormat::LowerLetter);
        assert_eq!(expand("%1.%2.", 1, &[v(4, &roman), v(2, &letter)], false).as_deref(), Some("IV.b."));
    }

    #[test]
    fn legal_numbering_shows_the_other_levels_as_decimal() {
        let (roman, lower) = (NumberFormat::LowerRoman, NumberFormat::LowerRoman);
        assert_eq!(expand("%1.%2", 1, &[v(3, &roman), v(2, &lower)], true).as_deref(), Some("3.ii"));
    }

    #[test]
    fn a_placeholder_deeper_than_the_level_drops_the_text() {
        assert_eq!(expand("%1.%2", 0, &[v(1, &NumberFormat::Decimal)], false), None);
    }

    #[test]
    fn letters_repeat_after_z() {
        assert_eq!(number_text(27, Some(&NumberFormat::LowerLetter)), "aa");
        assert_eq!(number_text(26, Some(&NumberFormat::UpperLetter)), "Z");
    }

    #[test]
    fn decimal_zero_ordinal_and_unknown_formats() {
        let other = |s: &str| NumberFormat::Other(s.into());
        assert_eq!(number_text(7, Some(&other("decimalZero"))), "07");
        assert_eq!(number_text(12, Some(&other("ordinal"))), "12th");
        assert_eq!(number_text(22, Some(&other("ordinal"))), "22nd");
        assert_eq!(number_text(5, Some(&other("japaneseCounting"))), "5");
        assert_eq!(number_text(5, Some(&other("none"))), "");
    }
}
