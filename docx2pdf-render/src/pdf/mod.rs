//! PDF output: frames → pdf-writer objects, subset fonts, images, links, outline, metadata.

mod cmap;
mod conformance;
mod content;
mod deflate;
mod descriptor;
mod document;
mod embed;
mod encrypt;
mod font;
mod image;
mod link;
mod link_scheme;
mod metadata;
mod metadata_override;
mod metafile;
mod missing;
mod options;
mod outline;
mod parallel;
mod png_passthrough;
mod raster;
mod select;
mod structure;
mod xmp;
#[cfg(test)]
mod tests;

use crate::frame::{Layout, Page, Size};

pub use document::Stop;
pub use encrypt::{PasswordError, Passwords};
pub use metadata_override::{check_date, keywords_text, DateError, MetadataOverride};
pub use options::{file_stem, parse_pdfua, PdfA, PdfOptions};
pub use select::{PageRanges, RangeError, Selection};

/// Why the PDF could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// A face's bytes are not a font we can read (nor a collection holding its index).
    #[error("font {name} could not be read")]
    FontParse {
        /// The face's PostScript name.
        name: String,
    },
    /// A face could not be subset for embedding (e.g. CFF2 outlines or a damaged table).
    #[error("font {name} could not be embedded: {reason}")]
    Font {
        /// The face's PostScript name.
        name: String,
        /// The subsetter's error.
        reason: String,
    },
    /// The deflate compressor failed on a stream.
    #[error("a stream could not be compressed")]
    Compress,
    /// The PDF could not be encrypted (no random bytes from the system); the message
    /// never holds a password.
    #[error("the PDF could not be encrypted: {0}")]
    Encrypt(String),
}

/// Writes a laid-out document as PDF bytes, on this thread.
pub fn write(layout: &Layout) -> Result<Vec<u8>, PdfError> {
    document::write(layout, 1, PdfOptions::default()).map(|(pdf, _)| pdf)
}

/// Writes a laid-out document as PDF bytes on up to `threads` threads (0: every core; the bytes are the
/// same for any number), with a warning for each picture that could not be drawn (a
/// placeholder box stands in for it).
pub fn write_with_warnings(layout: &Layout, threads: usize) -> Result<(Vec<u8>, Vec<crate::warning::Warning>), PdfError> {
    document::write(layout, threads, PdfOptions::default())
}

/// Writes a laid-out document as [`write_with_warnings`] does, claiming the conformance
/// `options` ask for; what the document keeps from meeting it comes back as warnings whose
/// kind starts with `pdfua_` or `pdfa_`.
pub fn write_with_options(
    layout: &Layout,
    threads: usize,
    options: PdfOptions,
) -> Result<(Vec<u8>, Vec<crate::warning::Warning>), PdfError> {
    document::write(layout, threads, options)
}

/// Writes a document whose pages, of `sizes`, come one at a time from `pages`, on up to
/// `threads` threads: pages are written and dropped in batches, so a long document's pages
/// are never all held. `layout` gives everything but the pages.
pub fn write_pages<E>(
    layout: &Layout,
    sizes: &[Size],
    pages: impl Iterator<Item = Result<Page, E>>,
    threads: usize,
    options: PdfOptions,
) -> Result<(Vec<u8>, Vec<crate::warning::Warning>), Stop<E>> {
    document::write_pages(layout, sizes, pages.map(|p| p.map(std::borrow::Cow::Owned)), threads, options)
}
