//! The finished layout: pages of positioned items (glyph runs, lines, rectangles,
//! images, link areas) in points, origin at the page's top-left corner, y growing downwards. The PDF
//! writer consumes only these types.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::units::Pt;

mod glyph_text;
mod structure;

/// The most pixels a picture may have, unless the caller sets another limit
/// (`PackageLimits::max_image_pixels`): beyond it (a decompression bomb, a poster scan) a
/// picture is refused before anything is allocated.
pub const MAX_IMAGE_PIXELS: u64 = 50_000_000;

pub use glyph_text::GlyphText;
pub use structure::{Scope, StructKind, StructNode, Structure, Tag};

/// A point on a page, from its top-left corner.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Point {
    /// Rightwards, in points.
    pub x: Pt,
    /// Downwards, in points.
    pub y: Pt,
}

impl Point {
    /// A point at `x`, `y`.
    pub fn new(x: Pt, y: Pt) -> Point {
        Point { x, y }
    }
}

/// A width and a height.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Size {
    /// In points.
    pub width: Pt,
    /// In points.
    pub height: Pt,
}

/// An sRGB colour with 8 bits per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Black, the colour of `auto` text.
    pub const BLACK: Rgb = Rgb(0, 0, 0);
}

/// A font face as loaded once and shared by every document that uses it.
pub struct Face {
    /// Unique within the process; the PDF writer groups glyphs by it.
    pub id: u32,
    /// The whole font file (a collection when `index` > 0).
    pub data: Arc<dyn AsRef<[u8]> + Send + Sync>,
    /// The face's index within a collection.
    pub index: u32,
    /// The PostScript name, used as the PDF BaseFont.
    pub postscript_name: String,
    /// The advances of the Office font this face stands in for, when the layout sets the
    /// face with them (office_metrics.rs).
    pub emulation: Option<Arc<Emulation>>,
}

/// The advances a substitute takes from the Office font it stands in for: the layout sets
/// glyphs with them, the PDF writes them as the glyph widths and draws the glyphs scaled
/// horizontally by `scale`, so the text fills the original's width with the substitute's
/// shapes (as pdf.js draws the standard fonts it has no program of).
#[derive(Debug)]
pub struct Emulation {
    /// Per glyph id: the original's advance minus the face's own, in the face's font units.
    pub deltas: Box<[i32]>,
    /// How much wider than the face the original sets text, on average over the characters
    /// measured (1.0 is as wide).
    pub scale: f64,
}

impl Emulation {
    /// The change to the advance of glyph `id`.
    pub fn delta(&self, id: u16) -> i32 {
        self.deltas.get(usize::from(id)).copied().unwrap_or(0)
    }
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Face")
            .field("id", &self.id)
            .field("index", &self.index)
            .field("postscript_name", &self.postscript_name)
            .finish_non_exhaustive()
    }
}

impl Face {
    /// The font file's bytes.
    pub fn bytes(&self) -> &[u8] {
        (*self.data).as_ref()
    }
}

/// One shaped glyph of a text item.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    /// The glyph id in the face.
    pub id: u16,
    /// How far the pen moves after this glyph (justification and letter spacing included).
    pub advance: Pt,
    /// Offset of this glyph from the pen position (x right, y down).
    pub offset: Point,
    /// The text this glyph stands for (its whole cluster on the cluster's first glyph, empty
    /// on the others); the PDF writer builds the ToUnicode map from it.
    pub text: GlyphText,
}

/// A run of glyphs in one face, size and colour, starting at the item's position on the
/// baseline.
#[derive(Debug, Clone)]
pub struct TextItem {
    /// The face the glyph ids belong to; the PDF embeds a subset of it.
    pub face: Arc<Face>,
    /// The font size (the `Tf` operand).
    pub size: Pt,
    /// The fill colour of the glyphs.
    pub color: Rgb,
    /// Glyphs in visual order, left to right.
    pub glyphs: Vec<Glyph>,
    /// Right-to-left text: the PDF writes its glyphs from the last to the first, in reading
    /// order, as Word's PDFs do, so text extraction and assistive technology read it in
    /// logical order.
    pub rtl: bool,
}

impl TextItem {
    /// The total advance of the run.
    pub fn width(&self) -> Pt {
        self.glyphs.iter().map(|g| g.advance).sum()
    }
}

/// A straight line from the item's position to `to` (absolute), e.g. an underline or a border.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineItem {
    /// The end point, on the page.
    pub to: Point,
    /// The stroke width; nothing is drawn when it is not positive.
    pub thickness: Pt,
    /// The stroke colour.
    pub color: Rgb,
}

/// A rectangle with its top-left corner at the item's position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RectItem {
    /// Width, and height downwards from the position.
    pub size: Size,
    /// Fill colour; `None` leaves it unfilled.
    pub fill: Option<Rgb>,
    /// Outline colour and width.
    pub stroke: Option<(Rgb, Pt)>,
}

/// Where a link area leads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LinkDest {
    /// An external URI.
    Uri(String),
    /// A named destination (a bookmark), see `Layout::destinations`.
    Named(String),
}

/// A clickable area with its top-left corner at the item's position.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkItem {
    /// Width, and height downwards from the position: the annotation's /Rect.
    pub size: Size,
    /// Where it leads.
    pub dest: LinkDest,
}

/// The bytes of an image file, shared by every item that shows it: the PDF writer stores
/// each distinct one once.
#[derive(Debug, PartialEq)]
pub struct ImageData {
    /// The file as stored in the document.
    pub bytes: Arc<[u8]>,
    /// Its format, from its signature.
    pub format: ImageFormat,
}

/// The part of an image that shows: fractions of its width and height cut from each
/// edge (negative values add empty room).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ImageCrop {
    /// Cut from the left edge, as a fraction of the width.
    pub left: f64,
    /// Cut from the top edge, as a fraction of the height.
    pub top: f64,
    /// Cut from the right edge, as a fraction of the width.
    pub right: f64,
    /// Cut from the bottom edge, as a fraction of the height.
    pub bottom: f64,
}

/// An image filling a box whose top-left corner is at the item's position.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageItem {
    /// The image file; the PDF stores each distinct one once.
    pub image: Arc<ImageData>,
    /// The box the visible part of the image fills (before rotation).
    pub size: Size,
    /// The part of the image that shows.
    pub crop: ImageCrop,
    /// Clockwise rotation about the box's centre, in degrees.
    pub rotation: f64,
    /// Mirrored left to right.
    pub flip_h: bool,
    /// Mirrored top to bottom.
    pub flip_v: bool,
}

/// Anything that can be placed on a page.
#[derive(Debug, Clone)]
pub enum Item {
    /// A glyph run, shown with `TJ` in an embedded font.
    Text(TextItem),
    /// A stroked line.
    Line(LineItem),
    /// A filled and/or stroked rectangle.
    Rect(RectItem),
    /// A clickable area: written as a Link annotation, not as page content.
    Link(LinkItem),
    /// An image XObject painted in a box.
    Image(ImageItem),
    /// A drawn shape (an ellipse, rounded rectangle, line or dashed box).
    Shape(ShapeItem),
}

/// The outline of a drawn shape in its box.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeKind {
    /// The box itself.
    Rect,
    /// Corners rounded with this radius.
    RoundRect(Pt),
    /// The ellipse that fills the box.
    Ellipse,
    /// A line from the top-left corner to the bottom-right one (`down`), else from the
    /// bottom-left to the top-right.
    Line {
        /// From the top-left corner down to the bottom-right one; else up from the
        /// bottom-left.
        down: bool,
    },
    /// A closed outline through these points, from the box's top-left corner.
    Polygon(Vec<Point>),
}

/// A shape with its box's top-left corner at the item's position.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeItem {
    /// The box, downwards from the position.
    pub size: Size,
    /// The outline.
    pub kind: ShapeKind,
    /// Fill colour; a line is never filled.
    pub fill: Option<Rgb>,
    /// Outline colour and width.
    pub stroke: Option<(Rgb, Pt)>,
    /// The outline is dashed.
    pub dashed: bool,
}

/// An item at a position on its page.
#[derive(Debug, Clone)]
pub struct Positioned {
    /// The baseline's start of a text item, a line's start, else the top-left corner of the
    /// item's box; from the page's top-left corner.
    pub pos: Point,
    /// What is placed.
    pub item: Item,
    /// The structure element it belongs to, or the kind of artifact it is.
    pub tag: Tag,
}

/// One page of the output, items in painting order.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The page size: the PDF page's /MediaBox.
    pub size: Size,
    /// The items, later ones painted over earlier ones.
    pub items: Vec<Positioned>,
}

/// An entry of the PDF outline (bookmarks panel), from the heading levels.
#[derive(Debug, Clone, PartialEq)]
pub struct OutlineEntry {
    /// 1 for Heading 1, 2 for Heading 2, …
    pub level: u8,
    /// The heading's text: the bookmark's title.
    pub title: String,
    /// The index of the page the heading is on, from 0.
    pub page: usize,
    /// Where on that page the bookmark leads, from its top.
    pub y: Pt,
}

/// Document information for the PDF Info dictionary.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocInfo {
    /// The Info dictionary's /Title and XMP `dc:title`.
    pub title: Option<String>,
    /// The Info dictionary's /Author and XMP `dc:creator`.
    pub author: Option<String>,
    /// The Info dictionary's /Subject and XMP `dc:description`.
    pub subject: Option<String>,
    /// The Info dictionary's /Keywords and XMP `pdf:Keywords`.
    pub keywords: Option<String>,
    /// The Info dictionary's /Creator and XMP `xmp:CreatorTool`: the application that
    /// made the document, given only with the request (`metadata`).
    pub creator: Option<String>,
    /// `dcterms:created` as written (W3CDTF).
    pub created: Option<String>,
    /// `dcterms:modified` as written (W3CDTF).
    pub modified: Option<String>,
    /// The document's language (BCP 47), from the default run properties.
    pub lang: Option<String>,
    /// The title the document's own text gives: its first paragraph in the Title style,
    /// else its first heading. Written only under PDF/UA when `title` is empty (ISO 14289-1
    /// §7.1).
    pub text_title: Option<String>,
}

/// Everything the PDF writer needs.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// The pages, in order.
    pub pages: Vec<Page>,
    /// Named destinations: bookmark name → (page index, position).
    pub destinations: BTreeMap<String, (usize, Point)>,
    /// The headings for the PDF outline, in document order; the writer nests them by level.
    pub outline: Vec<OutlineEntry>,
    /// The Info dictionary and XMP metadata.
    pub info: DocInfo,
    /// The logical structure the items' tags point into (tagged PDF).
    pub structure: Structure,
}

/// Image formats recognised by their signature bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    /// PNG: passed through as Flate when opaque and not interlaced, else decoded.
    Png,
    /// JPEG: passed through as DCTDecode (a CMYK one is decoded for PDF/A).
    Jpeg,
    /// GIF: decoded, written as Flate.
    Gif,
    /// BMP: decoded, written as Flate.
    Bmp,
    /// TIFF: decoded, written as Flate.
    Tiff,
    /// Enhanced Metafile.
    Emf,
    /// Windows Metafile (placeable or not).
    Wmf,
    /// Anything else.
    Unknown,
    /// No image: room kept in the line for an inline drawing that is drawn as shapes
    /// (a chart).
    Blank,
}
