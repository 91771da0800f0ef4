//! MERGEFIELD (§17.16.5.35): the field's key and switches, and the text a value becomes:
//! `\b`/`\f` text before and after a value that is not empty, `\* Upper`, `Lower`,
//! `FirstCap`, `Caps` (§17.16.4.3), `\#` numeric and `\@` date pictures.

use serde_json::Value;

use super::{date, number, text::value_text};

/// What a field's instruction is, as far as filling goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Instruction {
    /// A merge field.
    Merge(MergeField),
    /// NEXT, NEXTIF or SKIPIF, which move between records: out of scope.
    Unsupported(&'static str),
    /// Any other field.
    Other,
}

/// A MERGEFIELD's key and switches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct MergeField {
    pub name: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// `\*` formats, in order (`MERGEFORMAT` and `CHARFORMAT` among them, which change no text).
    pub formats: Vec<String>,
    pub numeric: Option<String>,
    pub date: Option<String>,
}

/// The words of a field instruction: quoted text is one word without its quotes.
fn words(instr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = instr.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut word = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' if chars.peek() == Some(&'"') => word.push(chars.next().unwrap_or('"')),
                    c => word.push(c),
                }
            }
            out.push(word);
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || (c == '"' && !word.is_empty()) {
                    break;
                }
                word.push(c);
                chars.next();
            }
            out.push(word);
        }
    }
    out
}

/// Reads a field instruction.
pub(crate) fn parse(instr: &str) -> Instruction {
    let words = words(instr);
    let Some(kind) = words.first() else { return Instruction::Other };
    match kind.to_ascii_uppercase().as_str() {
        "MERGEFIELD" => {}
        "NEXT" => return Instruction::Unsupported("NEXT"),
        "NEXTIF" => return Instruction::Unsupported("NEXTIF"),
        "SKIPIF" => return Instruction::Unsupported("SKIPIF"),
        _ => return Instruction::Other,
    }
    let mut field = MergeField::default();
    let mut rest = words[1..].iter();
    while let Some(word) = rest.next() {
        match word.as_str() {
            "\\b" => field.before = rest.next().cloned(),
            "\\f" => field.after = rest.next().cloned(),
            "\\*" => field.formats.extend(rest.next().cloned()),
            "\\#" => field.numeric = rest.next().cloned(),
            "\\@" => field.date = rest.next().cloned(),
            "\\m" | "\\v" => {}
            name if field.name.is_empty() && !name.starts_with('\\') => field.name = name.to_owned(),
            _ => {}
        }
    }
    if field.name.is_empty() {
        return Instruction::Other;
    }
    Instruction::Merge(field)
}

impl MergeField {
    /// The text `value` becomes, in the language `lang`.
    pub fn result(&self, value: &Value, lang: &str) -> String {
        let mut text = value_text(value);
        if let Some(picture) = &self.numeric {
            let n = value.as_f64().or_else(|| text.trim().parse::<f64>().ok());
            if let Some(n) = n {
                text = number::format(n, picture, lang);
            }
        }
        if let Some(picture) = &self.date {
            if let Some(d) = date::parse_iso(&text) {
                text = date::format(&d, picture, lang);
            }
        }
        for f in &self.formats {
            text = match f.to_ascii_lowercase().as_str() {
                "upper" => text.to_uppercase(),
                "lower" => text.to_lowercase(),
                "firstcap" => first_cap(&text),
                "caps" => text.split(' ').map(first_cap).collect::<Vec<_>>().join(" "),
                _ => text,
            };
        }
        if text.is_empty() {
            return text;
        }
        format!("{}{text}{}", self.before.as_deref().unwrap_or(""), self.after.as_deref().unwrap_or(""))
    }
}

/// The text with its first letter a capital.
fn first_cap(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merge(instr: &str) -> MergeField {
        match parse(instr) {
            Instruction::Merge(m) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_key_and_switches_are_read_from_the_instruction() {
        let m = merge(r#" MERGEFIELD  customer.name \b "Dear " \f ","  \* Caps \* MERGEFORMAT "#);
        assert_eq!(m.name, "customer.name");
        assert_eq!((m.before.as_deref(), m.after.as_deref()), (Some("Dear "), Some(",")));
        assert_eq!(m.formats, ["Caps", "MERGEFORMAT"]);
        assert_eq!(merge(r#"MERGEFIELD "First Name""#).name, "First Name");
        assert_eq!(parse(" NEXTIF x = 1 "), Instruction::Unsupported("NEXTIF"));
        assert_eq!(parse(" PAGE "), Instruction::Other);
    }

    #[test]
    fn each_switch_changes_the_text() {
        assert_eq!(merge(r#"MERGEFIELD n \b "Dear " \f ",""#).result(&json!("ada"), "en-US"), "Dear ada,");
        assert_eq!(merge(r#"MERGEFIELD n \b "Dear ""#).result(&json!(""), "en-US"), "");
        assert_eq!(merge(r#"MERGEFIELD n \* Upper"#).result(&json!("ada l"), "en-US"), "ADA L");
        assert_eq!(merge(r#"MERGEFIELD n \* Lower"#).result(&json!("ADA L"), "en-US"), "ada l");
        assert_eq!(merge(r#"MERGEFIELD n \* FirstCap"#).result(&json!("ada l"), "en-US"), "Ada l");
        assert_eq!(merge(r#"MERGEFIELD n \* Caps"#).result(&json!("ada lovelace"), "en-US"), "Ada Lovelace");
        assert_eq!(merge(r##"MERGEFIELD n \# "#,##0.00""##).result(&json!(1234.5), "de-DE"), "1.234,50");
        assert_eq!(merge(r#"MERGEFIELD n \@ "d MMMM yyyy""#).result(&json!("2026-03-03"), "fr-FR"), "3 mars 2026");
    }
}
