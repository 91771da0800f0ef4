//! `Content-Disposition: attachment` for the PDF (RFC 6266 §4): the upload's file name with
//! its extension replaced by `.pdf`, as an ASCII `filename` and, when the name is not all
//! ASCII, a `filename*` in UTF-8 (RFC 8187 §3.2). The name is only ever echoed in this
//! header; nothing from it reaches a path on disk.

/// The name when the upload's part has none, or nothing of it is left.
const FALLBACK: &str = "document";
/// The most characters of the stem kept, so that the header stays bounded.
const MAX_STEM_CHARS: usize = 120;

/// The header's value for an upload named `file_name`.
pub fn attachment(file_name: Option<&str>) -> String {
    let stem = file_name.map(stem).filter(|s| !s.is_empty()).unwrap_or_else(|| FALLBACK.to_owned());
    let ascii: String = stem.chars().map(|c| if c.is_ascii() { c } else { '_' }).collect();
    let mut value = format!("attachment; filename=\"{ascii}.pdf\"");
    if ascii != stem {
        value.push_str("; filename*=UTF-8''");
        value.push_str(&ext_value(&format!("{stem}.pdf")));
    }
    value
}

/// The name without folder or extension, made safe to echo: control characters (CR and
/// LF among them) dropped; quotes, backslashes, path separators, `%` (which some clients
/// decode in `filename`, RFC 6266 Appendix D) and the characters Windows forbids in names
/// replaced by `_`; surrounding spaces and dots trimmed; at most [`MAX_STEM_CHARS`].
fn stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    // `.docx` alone is an extension without a name (as `pdf::file_stem` has it).
    let stem = base.rfind('.').map_or(base, |dot| &base[..dot]);
    let cleaned: String = stem
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if matches!(c, '"' | '\\' | '/' | '%' | ':' | '*' | '?' | '<' | '>' | '|' | ';') { '_' } else { c })
        .take(MAX_STEM_CHARS)
        .collect();
    cleaned.trim_matches(|c: char| c.is_whitespace() || c == '.').to_owned()
}

/// RFC 8187 §3.2.1 `value-chars`: `attr-char` as it is, every other byte of the UTF-8 as
/// `%XX`.
fn ext_value(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ascii_name_gets_its_extension_replaced() {
        assert_eq!(attachment(Some("Q3 report.docx")), "attachment; filename=\"Q3 report.pdf\"");
        assert_eq!(attachment(Some("notes")), "attachment; filename=\"notes.pdf\"");
        assert_eq!(attachment(Some("a.b.docx")), "attachment; filename=\"a.b.pdf\"");
    }

    #[test]
    fn a_missing_or_empty_name_is_document_pdf() {
        for name in [None, Some(""), Some(".docx"), Some("/"), Some("\r\n.docx"), Some(" . ")] {
            assert_eq!(attachment(name), "attachment; filename=\"document.pdf\"", "{name:?}");
        }
    }

    #[test]
    fn a_non_ascii_name_gets_an_rfc_8187_filename_star() {
        assert_eq!(
            attachment(Some("Bericht über Käse.docx")),
            "attachment; filename=\"Bericht _ber K_se.pdf\"; filename*=UTF-8''Bericht%20%C3%BCber%20K%C3%A4se.pdf"
        );
    }

    #[test]
    fn hostile_names_lose_folders_quotes_and_line_breaks() {
        assert_eq!(attachment(Some("../../x\".docx")), "attachment; filename=\"x_.pdf\"");
        assert_eq!(attachment(Some("C:\\Users\\ada\\a\\\"b.docx")), "attachment; filename=\"_b.pdf\"");
        assert_eq!(attachment(Some("evil\r\nSet-Cookie: a=b.docx")), "attachment; filename=\"evilSet-Cookie_ a=b.pdf\"");
        assert_eq!(attachment(Some("ü\"x\r\n.docx")), "attachment; filename=\"__x.pdf\"; filename*=UTF-8''%C3%BC_x.pdf");
        let long = attachment(Some(&format!("{}.docx", "a".repeat(10_000))));
        assert!(long.len() < 200, "{}", long.len());
    }
}
