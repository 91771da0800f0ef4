//! Reading a DOCX package (zip, content types, relationships, XML parts) into the
//! plain-data document model, with limits on everything an upload can inflate.

pub mod model;

mod attribute_scan;
mod body;
mod compound_file;
mod content_types;
mod context;
mod core_props;
mod decrypt;
mod drawing;
mod error;
mod fields;
mod math;
mod media;
mod metafile_text;
mod notes;
mod numbering;
mod font_table;
mod obfuscated_font;
mod package;
mod paragraph;
mod properties;
mod reader;
mod rels;
mod run;
mod section;
mod settings;
mod simple_types;
mod sniff;
mod story_filter;
mod styles;
mod table;
mod table_properties;
mod theme;
mod theme_color;
mod xml;

#[cfg(test)]
mod test_support;

use crate::deadline::Deadline;
use crate::warning::Warning;

pub use error::DocxError;
pub use story_filter::{AddedPicture, CustomXmlPart, StoryContext, StoryFilter};
pub use crate::password::Password;

/// Limits on what a package may inflate to. Each breach is a precise `DocxError`.
#[derive(Debug, Clone)]
pub struct PackageLimits {
    /// Most zip entries a package may hold.
    pub max_entries: usize,
    /// Most bytes one entry may decompress to.
    pub max_entry_bytes: u64,
    /// Most bytes all entries together may decompress to.
    pub max_total_bytes: u64,
    /// Highest decompressed/compressed ratio of an entry above 1 MiB (zip bombs).
    pub max_ratio: u64,
    /// Deepest XML element nesting accepted.
    pub max_xml_depth: usize,
    /// Most elements one XML part may hold.
    pub max_xml_elements: usize,
    /// Deepest nesting of tables (`w:tbl` in `w:tbl`) accepted; the reader's own stack
    /// guard stops any nesting at 100 levels whatever this says.
    pub max_table_depth: usize,
    /// Most pixels a PNG picture may declare (decompression bombs).
    pub max_image_pixels: u64,
    /// Most pages a document may lay out to (checked by layout as it starts each page).
    pub max_pages: usize,
}

impl Default for PackageLimits {
    fn default() -> Self {
        PackageLimits {
            max_entries: 10_000,
            max_entry_bytes: 256 << 20,
            max_total_bytes: 1 << 30,
            max_ratio: 1_000,
            max_xml_depth: 512,
            max_xml_elements: 5_000_000,
            max_table_depth: 100,
            max_image_pixels: crate::frame::MAX_IMAGE_PIXELS,
            max_pages: 10_000,
        }
    }
}

/// The broad classes of read failures, which decide the HTTP answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocxErrorKind {
    /// Not a readable DOCX (400 `invalid_docx`).
    Invalid,
    /// A legacy `.doc` or another format (400 `unsupported_format`).
    Unsupported,
    /// A password-protected document (400 `encrypted_document`).
    Encrypted,
    /// The render time limit passed while reading.
    Timeout,
    /// The render's memory budget was exceeded while reading.
    MemoryLimit,
    /// What a story filter was given cannot be used (400 `invalid_option`): a template's
    /// picture that is no PNG or JPEG data URI.
    InvalidOption,
}

/// A package read into the model, with what was skipped.
#[derive(Debug)]
pub struct ReadDocument {
    /// The document as written.
    pub document: model::Document,
    /// What was skipped or irregular (never fatal).
    pub warnings: Vec<Warning>,
}

/// Reads a DOCX package from its bytes.
pub fn read(bytes: &[u8], limits: &PackageLimits, deadline: &Deadline) -> Result<ReadDocument, DocxError> {
    read_with_password(bytes, None, limits, deadline)
}

/// Reads a DOCX package from its bytes, opening a password-protected one with `password`
/// ([MS-OFFCRYPTO] §2.3.4). The decrypted package is held to the same `limits` as any
/// other, and decrypting counts against the deadline. A password given for a document
/// that has none is not used.
pub fn read_with_password(
    bytes: &[u8],
    password: Option<&Password>,
    limits: &PackageLimits,
    deadline: &Deadline,
) -> Result<ReadDocument, DocxError> {
    read_filtered(bytes, password, limits, deadline, None)
}

/// Reads a DOCX package as [`read_with_password`] does, passing every story part through
/// `filter` first when there is one.
pub fn read_filtered(
    bytes: &[u8],
    password: Option<&Password>,
    limits: &PackageLimits,
    deadline: &Deadline,
    filter: Option<&mut dyn StoryFilter>,
) -> Result<ReadDocument, DocxError> {
    if !decrypt::is_encrypted_package(bytes) {
        return reader::read_package(bytes, limits, deadline, filter);
    }
    let password = password.ok_or(DocxError::PasswordRequired)?;
    let package = decrypt::decrypt(bytes, password, deadline)?;
    reader::read_package(&package, limits, deadline, filter)
}
