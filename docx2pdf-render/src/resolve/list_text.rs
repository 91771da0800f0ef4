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
pub(crate) fn number_text(n: i64, format: Option<&NumberFormat>) -> String {
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
            "cardinalText" => capitalized(&cardinal_words(n)),
            "ordinalText" => capitalized(&ordinal_words(n)),
            "decimalFullWidth" | "decimalFullWidth2" => n.to_string().chars().map(full_width).collect(),
            "decimalHalfWidth" => n.to_string(),
            "decimalEnclosedCircle" | "decimalEnclosedCircleChinese" if (1..=20).contains(&n) => {
                char::from_u32(0x2460 + n as u32 - 1).map(String::from).unwrap_or_default()
            }
            "decimalEnclosedParen" if (1..=20).contains(&n) => char::from_u32(0x2474 + n as u32 - 1).map(String::from).unwrap_or_default(),
            "decimalEnclosedFullstop" if (1..=20).contains(&n) => char::from_u32(0x2488 + n as u32 - 1).map(String::from).unwrap_or_default(),
            "numberInDash" => format!("- {n} -"),
            "ideographTraditional" if n >= 1 => cycle(n, &["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]),
            "ideographZodiac" if n >= 1 => cycle(n, &["子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥"]),
            "ideographDigital" | "japaneseDigitalTenThousand" => n.to_string().chars().map(ideograph_digit).collect(),
            "japaneseCounting" | "chineseCounting" | "chineseCountingThousand" | "taiwaneseCounting" | "koreanCounting"
                if (1..100_000).contains(&n) =>
            {
                counting(n)
            }
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

/// A fullwidth digit (U+FF10…) for `decimalFullWidth`.
fn full_width(d: char) -> char {
    d.to_digit(10).and_then(|v| char::from_u32(0xFF10 + v)).unwrap_or(d)
}

/// An ideographic digit for `ideographDigital`: 〇一二三…
fn ideograph_digit(d: char) -> char {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    d.to_digit(10).map(|v| DIGITS[v as usize]).unwrap_or(d)
}

/// The `n`-th sign of a cycle (the heavenly stems, the zodiac), starting again after the last.
fn cycle(n: i64, signs: &[&str]) -> String {
    signs[((n - 1) % signs.len() as i64) as usize].to_owned()
}

/// East Asian counting (`japaneseCounting`, `chineseCounting`…): 一, 十, 十一, 二十一,
/// 百, 千, 万, with a leading one dropped before 十, 百 and 千 as Word writes them.
fn counting(n: i64) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let mut out = String::new();
    let mut rest = n;
    for (unit, name) in [(10_000, "万"), (1000, "千"), (100, "百"), (10, "十")] {
        let d = rest / unit;
        rest %= unit;
        if d > 0 {
            if d > 1 || unit == 10_000 {
                out.push_str(DIGITS[d as usize]);
            }
            out.push_str(name);
        }
    }
    out.push_str(DIGITS[rest as usize]);
    out
}

const ONES: [&str; 20] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
];
const TENS: [&str; 10] = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/// English number words (`cardinalText`): "twenty-one", "one hundred five"; outside
/// 0…999,999 the number stays in digits.
fn cardinal_words(n: i64) -> String {
    if !(0..1_000_000).contains(&n) {
        return n.to_string();
    }
    let below_thousand = |n: i64| -> String {
        let mut parts = Vec::new();
        if n >= 100 {
            parts.push(format!("{} hundred", ONES[(n / 100) as usize]));
        }
        let r = n % 100;
        if r > 0 || n == 0 {
            parts.push(match r {
                0..=19 => ONES[r as usize].to_owned(),
                _ if r % 10 == 0 => TENS[(r / 10) as usize].to_owned(),
                _ => format!("{}-{}", TENS[(r / 10) as usize], ONES[(r % 10) as usize]),
            });
        }
        parts.join(" ")
    };
    if n >= 1000 {
        let rest = n % 1000;
        let head = format!("{} thousand", below_thousand(n / 1000));
        if rest == 0 {
            head
        } else {
            format!("{head} {}", below_thousand(rest))
        }
    } else {
        below_thousand(n)
    }
}

/// English ordinal words (`ordinalText`): "first", "twenty-second", "one hundredth".
fn ordinal_words(n: i64) -> String {
    let words = cardinal_words(n);
    if words.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return ordinal(n);
    }
    let split = words.rfind([' ', '-']).map_or(0, |i| i + 1);
    let (head, last) = words.split_at(split);
    let last = match last {
        "one" => "first".to_owned(),
        "two" => "second".to_owned(),
        "three" => "third".to_owned(),
        "five" => "fifth".to_owned(),
        "eight" => "eighth".to_owned(),
        "nine" => "ninth".to_owned(),
        "twelve" => "twelfth".to_owned(),
        w if w.ends_with('y') => format!("{}ieth", &w[..w.len() - 1]),
        w => format!("{w}th"),
    };
    format!("{head}{last}")
}

/// Word capitalizes the first letter of number words in lists ("One", "Twenty-first").
fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
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
    fn number_words_in_english() {
        let other = |s: &str| NumberFormat::Other(s.into());
        assert_eq!(number_text(1, Some(&other("cardinalText"))), "One");
        assert_eq!(number_text(21, Some(&other("cardinalText"))), "Twenty-one");
        assert_eq!(number_text(105, Some(&other("cardinalText"))), "One hundred five");
        assert_eq!(number_text(2, Some(&other("ordinalText"))), "Second");
        assert_eq!(number_text(20, Some(&other("ordinalText"))), "Twentieth");
        assert_eq!(number_text(23, Some(&other("ordinalText"))), "Twenty-third");
    }

    #[test]
    fn east_asian_formats() {
        let other = |s: &str| NumberFormat::Other(s.into());
        assert_eq!(number_text(1, Some(&other("japaneseCounting"))), "一");
        assert_eq!(number_text(10, Some(&other("chineseCounting"))), "十");
        assert_eq!(number_text(21, Some(&other("chineseCounting"))), "二十一");
        assert_eq!(number_text(110, Some(&other("japaneseCounting"))), "百十");
        assert_eq!(number_text(3, Some(&other("decimalEnclosedCircle"))), "③");
        assert_eq!(number_text(12, Some(&other("decimalFullWidth"))), "１２");
        assert_eq!(number_text(11, Some(&other("ideographTraditional"))), "甲");
        assert_eq!(number_text(205, Some(&other("ideographDigital"))), "二〇五");
    }

    #[test]
    fn decimal_zero_ordinal_and_unknown_formats() {
        let other = |s: &str| NumberFormat::Other(s.into());
        assert_eq!(number_text(7, Some(&other("decimalZero"))), "07");
        assert_eq!(number_text(12, Some(&other("ordinal"))), "12th");
        assert_eq!(number_text(22, Some(&other("ordinal"))), "22nd");
        assert_eq!(number_text(5, Some(&other("aiueo"))), "5");
        assert_eq!(number_text(5, Some(&other("none"))), "");
    }
}
