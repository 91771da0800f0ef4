//! Warnings: what the renderer skipped or substituted. A warning never fails a conversion.

use std::fmt;

/// Something the renderer could not reproduce exactly, with enough context to find it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// A short stable tag, e.g. `font_substituted`, `element_skipped`.
    pub kind: &'static str,
    /// What happened, for the log (never document text).
    pub message: String,
    /// What it is about, where one kind covers several things told apart in the summary
    /// (`Calibri -> Carlito` for a font, `javascript:` for a link, `w:object` for skipped
    /// content); `None` for the kind as a whole.
    pub detail: Option<String>,
    /// How many times it happened (skipped elements are counted, then warned about once).
    pub count: usize,
}

impl Warning {
    /// A warning of `kind` with `message`.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Warning {
        Warning { kind, message: message.into(), detail: None, count: 1 }
    }

    /// A warning of `kind` about `detail`, which happened `count` times.
    pub fn counted(kind: &'static str, detail: impl Into<String>, count: usize, message: impl Into<String>) -> Warning {
        Warning { kind, message: message.into(), detail: Some(detail.into()), count }
    }

    /// Whether it says what keeps the PDF from the PDF/UA or PDF/A conformance asked for
    /// (`pdfua_…`, `pdfa_…`): the PDF is delivered all the same, and the caller is told.
    pub fn is_conformance(&self) -> bool {
        self.kind.starts_with("pdfua_") || self.kind.starts_with("pdfa_")
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}
