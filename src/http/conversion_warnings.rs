//! `X-Conversion-Warnings`: what the document asked for and did not get, summed up
//! (docx2pdf-render's `changes`), kept to a bounded header: at most [`MAX_ENTRIES`]
//! entries and [`MAX_BYTES`] bytes, the rest said as `and N more`.

use docx2pdf_render::changes::Change;

/// The most entries the header lists.
pub const MAX_ENTRIES: usize = 20;
/// The most bytes of entries the header holds (before `, and N more`).
pub const MAX_BYTES: usize = 1024;

/// The header's value, `None` when there is nothing to say. Entries are printable ASCII
/// without commas (`Change`'s `Display`), joined by `, `.
pub fn header(changes: &[Change]) -> Option<String> {
    let mut value = String::new();
    let mut listed = 0;
    for change in changes {
        let entry = change.to_string();
        let sep = if listed == 0 { "" } else { ", " };
        if listed == MAX_ENTRIES || value.len() + sep.len() + entry.len() > MAX_BYTES {
            break;
        }
        value.push_str(sep);
        value.push_str(&entry);
        listed += 1;
    }
    let more = changes.len() - listed;
    if more > 0 {
        if listed > 0 {
            value.push_str(", ");
        }
        value.push_str(&format!("and {more} more"));
    }
    (!value.is_empty()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: &'static str, detail: Option<&str>, count: usize) -> Change {
        Change { kind, detail: detail.map(str::to_owned), count }
    }

    #[test]
    fn entries_are_joined_and_the_rest_counted() {
        assert_eq!(header(&[]), None);
        let few = [change("pdfua_no_title", None, 1), change("element_skipped", Some("w:object"), 3)];
        assert_eq!(header(&few).as_deref(), Some("pdfua_no_title, element_skipped: w:object x3"));
        let many: Vec<Change> = (0..50).map(|_| change("font_substituted", Some("Some Family -> Liberation Sans"), 1)).collect();
        let value = header(&many).unwrap();
        assert!(value.ends_with(", and 30 more"), "{value}");
        let long: Vec<Change> = (0..5).map(|_| change("font_substituted", Some(&"x".repeat(400)), 1)).collect();
        let value = header(&long).unwrap();
        assert!(value.len() <= MAX_BYTES + 20 && value.ends_with("and 3 more"), "{value}");
    }
}
