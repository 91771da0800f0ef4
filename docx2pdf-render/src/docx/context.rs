//! The state shared while one story (the body, a header, a footer) is read: its
//! relationships, open fields, pending text boxes, and what was skipped.

use crate::warning::Warning;

use super::fields::FieldStack;
use super::media::MediaSource;
use super::model::TextBox;
use super::rels::Rels;
use super::xml::XmlReader;
use super::DocxError;

/// Deepest nesting of tables, text boxes and ruby the reader follows. Each level is a few
/// recursive calls (about 10 KB of stack in a debug build, far less in release), so this
/// keeps a hostile document within a 2 MiB thread stack whatever `max_xml_depth` allows;
/// real documents stay far below it.
pub(crate) const MAX_NESTING: usize = 100;

/// Reading state of one story part.
pub(crate) struct Story<'s> {
    /// The part's own relationships: hyperlinks resolve through them.
    pub rels: &'s Rels,
    /// Complex and simple fields open at this point.
    pub fields: FieldStack,
    /// Text boxes (`w:txbxContent`) met in the paragraph being read; they are given to it
    /// when it is placed.
    pub text_boxes: Vec<TextBox>,
    /// Counts of skipped content, for one warning per kind.
    pub skipped: &'s mut Skipped,
    /// Where pictures' media parts are read from; without it pictures are skipped.
    pub media: Option<&'s mut (dyn MediaSource + 's)>,
    /// Tables, text boxes and ruby open around the current element.
    nesting: usize,
}

impl<'s> Story<'s> {
    /// A story reading through `rels`.
    pub(crate) fn new(rels: &'s Rels, skipped: &'s mut Skipped) -> Story<'s> {
        Story {
            rels,
            fields: FieldStack::default(),
            text_boxes: Vec::new(),
            skipped,
            media: None,
            nesting: 0,
        }
    }

    /// The same story, reading pictures from `media`.
    pub(crate) fn with_media(self, media: &'s mut (dyn MediaSource + 's)) -> Story<'s> {
        Story { media: Some(media), ..self }
    }

    /// Enters a nested table, text box or ruby; refused past [`MAX_NESTING`].
    pub(crate) fn enter(&mut self, xml: &XmlReader<'_>) -> Result<(), DocxError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(DocxError::TooDeeplyNested {
                part: xml.part().to_owned(),
                limit: MAX_NESTING,
            });
        }
        Ok(())
    }

    /// Leaves what [`Story::enter`] entered.
    pub(crate) fn leave(&mut self) {
        self.nesting -= 1;
    }
}

/// Content skipped on purpose, counted over the whole package.
#[derive(Debug, Default)]
pub(crate) struct Skipped {
    /// `w:drawing` without a picture (DrawingML shapes, charts).
    pub drawings: usize,
    /// `w:pict` without a picture (VML shapes).
    pub picts: usize,
    /// `w:object` (embedded OLE objects).
    pub objects: usize,
    /// `w:altChunk` imported content.
    pub alt_chunks: usize,
    /// VML WordArt (`v:textpath`) whose text is not drawn.
    pub word_art: usize,
}

impl Skipped {
    /// One warning per kind that occurred, with its element and count.
    pub(crate) fn into_warnings(self, out: &mut Vec<Warning>) {
        let kinds = [
            (
                self.drawings,
                "w:drawing",
                "DrawingML shapes and charts without a picture (w:drawing) are not rendered yet",
            ),
            (self.picts, "w:pict", "VML shapes without a picture (w:pict) are not rendered yet"),
            (self.objects, "w:object", "embedded objects (w:object) without a preview picture are not rendered yet"),
            (self.alt_chunks, "w:altChunk", "imported content (w:altChunk) is not rendered"),
            (self.word_art, "v:textpath", "WordArt text (v:textpath) is not drawn"),
        ];
        for (count, element, what) in kinds {
            if count > 0 {
                out.push(Warning::counted("element_skipped", element, count, format!("{what} ({count} skipped)")));
            }
        }
    }
}
