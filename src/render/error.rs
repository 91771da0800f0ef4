//! Errors of a conversion, classified for the HTTP answer.

use crate::docx::{DocxError, DocxErrorKind};
use crate::layout::LayoutError;
use crate::pdf::PdfError;

/// Why a conversion failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Docx(#[from] DocxError),
    #[error("layout failed: {0}")]
    Layout(LayoutError),
    #[error("writing the PDF failed: {0}")]
    Pdf(#[from] PdfError),
    #[error("the conversion ran past its time limit of {0} seconds")]
    Timeout(u64),
    #[error("the renderer failed unexpectedly while converting this document")]
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
    /// 500 `conversion_timeout`.
    Timeout,
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
            },
            RenderError::Layout(LayoutError::Timeout(_)) | RenderError::Timeout(_) => RenderErrorKind::Timeout,
            RenderError::Layout(_) | RenderError::Pdf(_) | RenderError::Panic => RenderErrorKind::Failed,
        }
    }
}

impl From<LayoutError> for RenderError {
    fn from(e: LayoutError) -> Self {
        RenderError::Layout(e)
    }
}
