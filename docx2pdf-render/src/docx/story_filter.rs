//! A hook that rewrites a story part's XML (the body, a header, a footer, the notes)
//! before the reader reads it: the template layer fills content controls and merge fields
//! through it without the reader knowing of templates.

use std::sync::Arc;

use crate::deadline::Deadline;

use super::{DocxError, PackageLimits};

/// What a filter may know of the package while it rewrites a part.
pub struct StoryContext<'a> {
    /// The limits every part keeps to (elements, depth).
    pub limits: &'a PackageLimits,
    /// The conversion's deadline.
    pub deadline: &'a Deadline,
    /// The document's language for Latin text (`w:themeFontLang`, §17.15.1.88), if the
    /// settings name one.
    pub language: Option<&'a str>,
}

/// A picture a filter put in a part: the relationship id its drawing names (`r:embed`)
/// and the picture's bytes (PNG or JPEG).
pub struct AddedPicture {
    /// The relationship id, unique in the part.
    pub id: String,
    /// The picture file.
    pub bytes: Arc<[u8]>,
}

/// A Custom XML data part (Part 1 §15.2.4) and its properties part (§15.2.5), which names
/// its store item id, as written.
pub struct CustomXmlPart {
    /// The part's XML.
    pub item: Vec<u8>,
    /// Its properties part's XML (`ds:datastoreItem`), if it has one.
    pub props: Option<Vec<u8>>,
}

/// Rewrites story parts before they are read.
pub trait StoryFilter {
    /// The package's Custom XML data parts, given once before any story part.
    fn custom_xml(&mut self, _parts: Vec<CustomXmlPart>, _limits: &PackageLimits) {}

    /// The XML to read for `part` instead of `xml` (UTF-8), or `xml` itself. It keeps to
    /// the limits and the deadline of `context` as the reader does; XML it cannot parse is
    /// handed back unchanged, for the reader to report.
    fn story(&mut self, part: &str, xml: Vec<u8>, context: &StoryContext<'_>) -> Result<Vec<u8>, DocxError>;

    /// The pictures the last [`StoryFilter::story`] put in its part, taken.
    fn take_pictures(&mut self) -> Vec<AddedPicture> {
        Vec::new()
    }
}
