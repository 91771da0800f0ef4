//! Errors of a conversion, classified for the HTTP answer.

use crate::deadline::Limit;
use crate::docx::{DocxError, DocxErrorKind};
use crate::layout::LayoutError;
use crate::pdf::PdfError;

/// Why a conversion failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    /// Reading the package failed: not a DOCX, damaged, encrypted, over a package limit,
    /// out of time or over the memory budget.
    Docx(#[from] DocxError),
    #[error("layout failed: {0}")]
    /// Layout ran out of time or over the memory budget (a page limit becomes
    /// `TooManyPages`).
    Layout(LayoutError),
    #[error("writing the PDF failed: {0}")]
    /// Writing the PDF failed: a font it cannot read or embed, or a stream it cannot
    /// compress.
    Pdf(#[from] PdfError),
    #[error("the conversion ran past its time limit of {0} seconds")]
    /// The time limit, which it holds in seconds, passed. `crate::convert` gives this for
    /// every timeout when its options set a limit.
    Timeout(u64),
    #[error(
        "the document lays out to more than {0} pages, the server's limit (--max-pages / DOCX2PDF_MAX_PAGES)"
    )]
    /// The document lays out to more pages than the limit it holds
    /// (`PackageLimits::max_pages`).
    TooManyPages(usize),
    #[error("the page selection {selection:?} keeps none of the document's {pages} page(s)")]
    /// The page selection names no page the document has (`PdfOptions::pages`).
    NoPageSelected {
        /// The selection as it was written.
        selection: String,
        /// How many pages the document lays out to.
        pages: usize,
    },
    #[error("a PDF/A file cannot be encrypted (ISO 19005-2 §6.1.3); ask for passwords or for PDF/A, not both")]
    /// Passwords and a PDF/A level were both asked for.
    EncryptedPdfA,
    #[error("the renderer failed unexpectedly while converting this document")]
    /// The conversion panicked. The renderer never returns it itself: a caller that catches
    /// the panic does (the service's render pool).
    Panic,
}

/// The classes of failures that decide the HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenderErrorKind {
    /// 400 `invalid_docx`.
    InvalidDocx,
    /// 400 `unsupported_format`.
    UnsupportedFormat,
    /// 400 `encrypted_document`.
    Encrypted,
    /// 400 `invalid_option`: an option the document cannot meet (a page selection past
    /// its last page) or that contradicts another.
    InvalidOption,
    /// 500 `conversion_timeout`.
    Timeout,
    /// 500 `conversion_memory_limit`.
    MemoryLimit,
    /// 500 `conversion_failed`.
    Failed,
}

impl RenderError {
    /// The class of this failure.
    pub fn kind(&self) -> RenderErrorKind {
        match self {
            RenderError::Docx(e) => match e.kind() {
                DocxErrorKind::Invalid => RenderErrorKind::InvalidDocx,
                DocxErrorKind::Unsupported => RenderErrorKind::UnsupportedFormat,
                DocxErrorKind::Encrypted => RenderErrorKind::Encrypted,
                DocxErrorKind::Timeout => RenderErrorKind::Timeout,
                DocxErrorKind::MemoryLimit => RenderErrorKind::MemoryLimit,
                DocxErrorKind::InvalidOption => RenderErrorKind::InvalidOption,
            },
            RenderError::Layout(LayoutError::Timeout(Limit::Time)) | RenderError::Timeout(_) => RenderErrorKind::Timeout,
            RenderError::Layout(LayoutError::Timeout(Limit::Memory { .. })) => RenderErrorKind::MemoryLimit,
            RenderError::TooManyPages(_) => RenderErrorKind::InvalidDocx,
            RenderError::NoPageSelected { .. } | RenderError::EncryptedPdfA => RenderErrorKind::InvalidOption,
            RenderError::Layout(_) | RenderError::Pdf(_) | RenderError::Panic => RenderErrorKind::Failed,
        }
    }
}

impl From<LayoutError> for RenderError {
    fn from(e: LayoutError) -> Self {
        match e {
            // A page limit is a limit on the upload, answered like the package limits.
            LayoutError::TooManyPages { limit } => RenderError::TooManyPages(limit),
            e => RenderError::Layout(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_stop_is_its_own_kind_in_every_stage_and_names_its_budget() {
        let limit = Limit::Memory { budget: 96 << 20 };
        let read = RenderError::from(DocxError::from(limit));
        let laid = RenderError::from(LayoutError::from(limit));
        assert_eq!((read.kind(), laid.kind()), (RenderErrorKind::MemoryLimit, RenderErrorKind::MemoryLimit));
        assert_eq!(read.to_string(), "the conversion needed more memory than its budget of 96 MB while reading the document");
        assert_eq!(laid.to_string(), "layout failed: the conversion needed more memory than its budget of 96 MB");
        assert_eq!(RenderError::from(LayoutError::from(Limit::Time)).kind(), RenderErrorKind::Timeout);
    }

    #[test]
    fn the_page_limit_is_refused_like_the_package_limits_and_names_its_flag() {
        let e = RenderError::from(LayoutError::TooManyPages { limit: 7 });
        assert_eq!(e.kind(), RenderErrorKind::InvalidDocx);
        assert_eq!(
            e.to_string(),
            "the document lays out to more than 7 pages, the server's limit (--max-pages / DOCX2PDF_MAX_PAGES)"
        );
    }
}
