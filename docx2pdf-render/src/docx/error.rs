//! Why a package could not be read: one variant per failure, each with a precise message.

use crate::deadline::Limit;

use super::DocxErrorKind;

/// Why a package could not be read. Messages are shown to the uploader, so they name the
/// entry, part or limit involved and never quote document text.
#[derive(Debug, thiserror::Error)]
pub enum DocxError {
    /// The upload has no bytes at all.
    #[error("the upload is empty, so not a DOCX")]
    Empty,
    /// An OLE compound file holding an `EncryptedPackage` stream (MS-OFFCRYPTO §2.3.4.4),
    /// or a zip whose entries are encrypted.
    #[error("the document is password-protected; remove the password and upload it again")]
    Encrypted,
    /// A password-protected document (an OLE compound file with an `EncryptedPackage`,
    /// MS-OFFCRYPTO §2.3.4.4) and no password to open it with.
    #[error("the document is password-protected and no password was given to open it")]
    PasswordRequired,
    /// The password given does not open the document (its verifier does not match,
    /// MS-OFFCRYPTO §2.3.4.8, §2.3.4.13).
    #[error("the password given does not open this password-protected document")]
    WrongPassword,
    /// A password-protected document encrypted in a way we do not read.
    #[error("the document is password-protected with {what}, which cannot be opened here; save it with a password in Word 2010 or later, or without one")]
    EncryptionUnsupported {
        /// The scheme, cipher or hash, e.g. "extensible encryption".
        what: String,
    },
    /// A password-protected document whose encryption container or header is damaged.
    #[error("the password-protected document is damaged: {reason}")]
    EncryptionDamaged {
        /// What could not be read (never the password).
        reason: String,
    },
    /// An OLE compound file without an encrypted package: a legacy binary document.
    #[error(
        "the upload is a legacy Word 97–2003 .doc file or another OLE compound file, not a \
         DOCX; save it as .docx and upload it again"
    )]
    LegacyOle,
    /// A file starting with `%PDF`.
    #[error("the upload is a PDF file, not a DOCX")]
    Pdf,
    /// A file starting with `{\rtf`.
    #[error("the upload is an RTF file, not a DOCX; save it as .docx and upload it again")]
    Rtf,
    /// A Word XML file (Flat OPC or Word 2003 XML), which is not a zip package.
    #[error(
        "the upload is a Word XML document (Flat OPC or Word 2003 XML), not a DOCX package; \
         save it as .docx and upload it again"
    )]
    WordXml,
    /// A zip package of another format (OpenDocument, Excel, PowerPoint…).
    #[error("the upload is {format}, not a Word document")]
    OtherPackage {
        /// The format, with its article (e.g. "an Excel workbook (.xlsx)").
        format: String,
    },
    /// The bytes are not a zip archive at all.
    #[error("the upload is not a zip archive, so not a DOCX")]
    NotZip,
    /// The zip's central directory could not be read.
    #[error("the zip archive is damaged: {reason}")]
    DamagedZip {
        /// What the zip reader reported.
        reason: String,
    },
    /// A zip without a main document part.
    #[error("the package has no word/document.xml (no main document part), so it is not a DOCX")]
    NoMainPart,
    /// More entries than `PackageLimits::max_entries`.
    #[error("the package holds {count} zip entries, more than the limit of {limit} (--max-zip-entries / DOCX2PDF_MAX_ZIP_ENTRIES)")]
    TooManyEntries {
        /// Entries in the central directory.
        count: u64,
        /// The limit.
        limit: usize,
    },
    /// An entry whose declared size is over `PackageLimits::max_entry_bytes`.
    #[error("zip entry {entry} declares {size} bytes, more than the limit of {limit} bytes per entry (--max-entry-mb / DOCX2PDF_MAX_ENTRY_MB)")]
    EntryTooLarge {
        /// The entry name.
        entry: String,
        /// The declared uncompressed size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// An entry that inflated past `PackageLimits::max_entry_bytes` although its header
    /// declared less: a lying header.
    #[error(
        "zip entry {entry} inflates past the limit of {limit} bytes per entry, although its \
         header declares {declared} bytes (--max-entry-mb / DOCX2PDF_MAX_ENTRY_MB)"
    )]
    EntryInflatesPastLimit {
        /// The entry name.
        entry: String,
        /// The declared uncompressed size.
        declared: u64,
        /// The limit.
        limit: u64,
    },
    /// An entry that inflated past the size its own header declares.
    #[error(
        "zip entry {entry} inflates past the {declared} bytes its header declares, so the package is damaged or forged"
    )]
    EntryLargerThanDeclared {
        /// The entry name.
        entry: String,
        /// The declared uncompressed size.
        declared: u64,
    },
    /// An entry over 1 MiB whose compression ratio is above `PackageLimits::max_ratio`.
    #[error("zip entry {entry} expands {ratio} times, more than the limit of {limit} times, a zip bomb? (--max-compression-ratio / DOCX2PDF_MAX_COMPRESSION_RATIO)")]
    CompressionRatio {
        /// The entry name.
        entry: String,
        /// Uncompressed size divided by compressed size.
        ratio: u64,
        /// The limit.
        limit: u64,
    },
    /// The entries read so far inflate past `PackageLimits::max_total_bytes`.
    #[error("the package inflates past the limit of {limit} bytes in total, reached at zip entry {entry} (--max-total-mb / DOCX2PDF_MAX_TOTAL_MB)")]
    TotalTooLarge {
        /// The entry that crossed the limit.
        entry: String,
        /// The limit.
        limit: u64,
    },
    /// An entry whose data could not be inflated (bad deflate stream, CRC mismatch…).
    #[error("zip entry {entry} is damaged: {reason}")]
    DamagedEntry {
        /// The entry name.
        entry: String,
        /// What the zip reader reported.
        reason: String,
    },
    /// An entry compressed with a method other than stored or deflate.
    #[error("zip entry {entry} uses compression method {method}, which Word does not write and we do not read")]
    UnsupportedCompression {
        /// The entry name.
        entry: String,
        /// The method as the zip reader names it.
        method: String,
    },
    /// An XML part with a `<!DOCTYPE`: refused outright (no entity expansion, ever).
    #[error("XML part {part} declares a DTD, which is refused")]
    Dtd {
        /// The part name.
        part: String,
    },
    /// An XML part nested deeper than `PackageLimits::max_xml_depth`.
    #[error("XML part {part} nests elements deeper than the limit of {limit} levels (--max-xml-depth / DOCX2PDF_MAX_XML_DEPTH)")]
    TooDeep {
        /// The part name.
        part: String,
        /// The limit.
        limit: usize,
    },
    /// An XML part with more elements than `PackageLimits::max_xml_elements`.
    #[error(
        "XML part {part} holds more than {limit} elements, the server's limit \
         (--max-xml-elements / DOCX2PDF_MAX_XML_ELEMENTS)"
    )]
    TooManyElements {
        /// The part name.
        part: String,
        /// The limit.
        limit: usize,
    },
    /// Tables nested deeper than `PackageLimits::max_table_depth`.
    #[error(
        "XML part {part} nests tables more than {limit} levels deep, the server's limit \
         (--max-table-depth / DOCX2PDF_MAX_TABLE_DEPTH)"
    )]
    TablesTooDeep {
        /// The part name.
        part: String,
        /// The limit.
        limit: usize,
    },
    /// A PNG picture of more pixels than `PackageLimits::max_image_pixels` (a
    /// decompression bomb), refused from its header before anything is decoded.
    #[error(
        "picture {entry} is {width}×{height} pixels, more than the limit of {limit} pixels \
         (--max-image-pixels / DOCX2PDF_MAX_IMAGE_PIXELS)"
    )]
    ImageTooLarge {
        /// The entry name.
        entry: String,
        /// Width in pixels, from the header.
        width: u32,
        /// Height in pixels, from the header.
        height: u32,
        /// The limit.
        limit: u64,
    },
    /// Tables, text boxes or ruby nested past the reader's recursion limit.
    #[error("XML part {part} nests tables or text boxes more than {limit} levels deep")]
    TooDeeplyNested {
        /// The part name.
        part: String,
        /// The limit.
        limit: usize,
    },
    /// An XML part that is not well-formed.
    #[error("XML part {part} is malformed at byte {position}: {reason}")]
    Xml {
        /// The part name.
        part: String,
        /// Byte offset in the part where the parser stopped.
        position: u64,
        /// What the parser reported.
        reason: String,
    },
    /// A picture control's value in the template data that cannot be used.
    #[error("the value of \"data\" for the picture control {key:?} {reason}")]
    TemplatePicture {
        /// The control's key.
        key: String,
        /// Why, the end of the sentence.
        reason: String,
    },
    /// A render limit, time or memory, passed while reading.
    #[error("{0} while reading the document")]
    Limit(#[from] Limit),
}

impl DocxError {
    /// The class of this error.
    pub fn kind(&self) -> DocxErrorKind {
        match self {
            DocxError::Encrypted
            | DocxError::PasswordRequired
            | DocxError::WrongPassword
            | DocxError::EncryptionUnsupported { .. } => DocxErrorKind::Encrypted,
            DocxError::LegacyOle
            | DocxError::Pdf
            | DocxError::Rtf
            | DocxError::WordXml
            | DocxError::OtherPackage { .. } => DocxErrorKind::Unsupported,
            DocxError::Limit(Limit::Time) => DocxErrorKind::Timeout,
            DocxError::Limit(Limit::Memory { .. }) => DocxErrorKind::MemoryLimit,
            DocxError::TemplatePicture { .. } => DocxErrorKind::InvalidOption,
            _ => DocxErrorKind::Invalid,
        }
    }

    /// Whether a failure in an optional part (styles, settings, theme, a header…) can be
    /// downgraded to a warning: only damage and malformed XML can. Limits, DTDs, excessive
    /// nesting, encryption and the deadline stop the whole read.
    pub(crate) fn is_recoverable_in_optional_part(&self) -> bool {
        matches!(
            self,
            DocxError::Xml { .. } | DocxError::DamagedEntry { .. } | DocxError::UnsupportedCompression { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encrypted_error_asks_to_remove_the_password() {
        assert_eq!(
            DocxError::Encrypted.to_string(),
            "the document is password-protected; remove the password and upload it again"
        );
        assert_eq!(DocxError::Encrypted.kind(), DocxErrorKind::Encrypted);
    }

    #[test]
    fn dtd_error_names_the_part() {
        let e = DocxError::Dtd {
            part: "word/document.xml".into(),
        };
        assert_eq!(
            e.to_string(),
            "XML part word/document.xml declares a DTD, which is refused"
        );
        assert_eq!(e.kind(), DocxErrorKind::Invalid);
    }

    #[test]
    fn other_formats_are_unsupported_and_timeouts_are_timeouts() {
        assert_eq!(DocxError::Pdf.kind(), DocxErrorKind::Unsupported);
        assert_eq!(DocxError::Rtf.kind(), DocxErrorKind::Unsupported);
        assert_eq!(DocxError::LegacyOle.kind(), DocxErrorKind::Unsupported);
        assert_eq!(DocxError::from(Limit::Time).kind(), DocxErrorKind::Timeout);
        assert_eq!(DocxError::from(Limit::Memory { budget: 1 << 20 }).kind(), DocxErrorKind::MemoryLimit);
        assert_eq!(DocxError::NotZip.kind(), DocxErrorKind::Invalid);
    }

    #[test]
    fn limit_errors_name_the_entry_and_the_limit() {
        let e = DocxError::EntryTooLarge {
            entry: "word/document.xml".into(),
            size: 900,
            limit: 100,
        };
        assert_eq!(
            e.to_string(),
            "zip entry word/document.xml declares 900 bytes, more than the limit of 100 bytes per entry \
             (--max-entry-mb / DOCX2PDF_MAX_ENTRY_MB)"
        );
    }
}
