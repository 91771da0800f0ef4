//! Numbers written with a field's `\#` numeric picture (§17.16.4.2): `0` and `#` digits,
//! `.` the decimal mark, `,` grouping, text around them kept; the separators are the
//! language's (`1.234,50` in German, `1 234,50` in French).

/// The grouping and decimal separators of a language (`de-DE`).
fn separators(lang: &str) -> (char, char) {
    let lang = lang.to_ascii_lowercase();
    match lang.get(..2) {
        _ if lang.starts_with("de-ch") => ('\'', '.'),
        Some("de" | "es" | "it" | "nl" | "da" | "pt" | "id" | "tr") => ('.', ','),
        Some("fr" | "ru" | "pl" | "cs" | "sv" | "nb" | "fi" | "uk" | "sk") => ('\u{A0}', ','),
        _ => (',', '.'),
    }
}

/// `value` written with `picture` in `lang`. The first section of a `positive;negative`
/// picture is used, with a minus before a negative number.
pub(crate) fn format(value: f64, picture: &str, lang: &str) -> String {
    let sections: Vec<&str> = picture.split(';').collect();
    let (section, minus) = match (value < 0.0, sections.get(1)) {
        (true, Some(negative)) => (*negative, false),
        (negative, _) => (sections[0], negative),
    };
    let is_digit = |c: char| matches!(c, '0' | '#' | 'x');
    let Some(first) = section.find(|c: char| is_digit(c) || c == '.') else {
        return section.replace('\'', "");
    };
    let last = section.rfind(|c: char| is_digit(c) || c == '.' || c == ',').unwrap_or(first);
    let (prefix, body, suffix) = (&section[..first], &section[first..=last], &section[last + 1..]);
    let (int_pic, frac_pic) = body.split_once('.').unwrap_or((body, ""));
    let min_int = int_pic.chars().filter(|&c| c == '0').count();
    let grouped = int_pic.contains(',');
    let decimals = frac_pic.chars().filter(|&c| is_digit(c)).count();
    let min_decimals = frac_pic.chars().filter(|&c| c == '0').count();

    let text = format!("{:.*}", decimals, value.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut frac = frac.to_owned();
    while frac.len() > min_decimals && frac.ends_with('0') {
        frac.pop();
    }
    let int = int.trim_start_matches('0');
    let int = if int.len() < min_int { format!("{}{int}", "0".repeat(min_int - int.len())) } else { int.to_owned() };
    let (group, decimal) = separators(lang);
    let mut digits = String::new();
    for (i, c) in int.chars().enumerate() {
        if grouped && i > 0 && (int.len() - i) % 3 == 0 {
            digits.push(group);
        }
        digits.push(c);
    }
    if !frac.is_empty() {
        digits.push(decimal);
        digits.push_str(&frac);
    }
    let sign = if minus && digits.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
    format!("{sign}{}{digits}{}", prefix.replace('\'', ""), suffix.replace('\'', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_pictures_with_the_languages_separators() {
        assert_eq!(format(1234.5, "#,##0.00", "en-US"), "1,234.50");
        assert_eq!(format(1234.5, "#,##0.00", "de-DE"), "1.234,50");
        assert_eq!(format(1234.5, "#,##0.00", "fr-FR"), "1\u{A0}234,50");
        assert_eq!(format(1234567.0, "$#,##0", "en-US"), "$1,234,567");
        assert_eq!(format(0.5, "0.0#", "en-US"), "0.5");
        assert_eq!(format(-3.14159, "0.00 'EUR'", "en-US"), "-3.14 EUR");
        assert_eq!(format(7.0, "000", "en-US"), "007");
    }
}
