//! The document information dictionary (ISO 32000-1 §14.3.3), without dates so output stays byte-for-byte reproducible.

use pdf_writer::{Pdf, Ref, TextStr};

use crate::layout::frame::DocInfo;

/// Fills the Producer entry.
const PRODUCER: &str = "docx2pdf";

/// Writes the Info dictionary from the document properties; empty values are left out.
/// TextStr writes non-ASCII as UTF-16BE with a byte order mark (§7.9.2.2).
pub(super) fn write(pdf: &mut Pdf, id: Ref, info: &DocInfo) {
    fn present(value: &Option<String>) -> Option<&str> {
        value.as_deref().filter(|v| !v.is_empty())
    }
    let mut dict = pdf.document_info(id);
    if let Some(title) = present(&info.title) {
        dict.title(TextStr(title));
    }
    if let Some(author) = present(&info.author) {
        dict.author(TextStr(author));
    }
    if let Some(subject) = present(&info.subject) {
        dict.subject(TextStr(subject));
    }
    if let Some(keywords) = present(&info.keywords) {
        dict.keywords(TextStr(keywords));
    }
    dict.producer(TextStr(PRODUCER));
}
