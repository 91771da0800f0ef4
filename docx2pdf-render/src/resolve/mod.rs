//! Style resolution: the cascade from docDefaults to direct formatting (§17.7.2), once.

mod border_lines;
mod cascade;
mod document;
mod list_text;
mod notes;
mod numbering;
mod page_borders;
mod paragraph;
mod run;
mod section;
pub mod structure;
mod table;

use std::collections::HashMap;
use std::sync::Arc;

use crate::docx::model::{
    Align, Border, CellVAlign, Color, FrameProps, LinkTarget, ListSuffix, Picture, PictureAnchor, RowHeight, RunContent, SectionStart,
    TabKind, TabLeader, Underline, VMerge, VertAlign, Width,
};
use crate::units::Pt;
use crate::warning::Warning;

pub use document::{document_lang, resolve, DEFAULT_LANG};
pub(crate) use list_text::number_text;
pub use border_lines::Stripes;
pub use notes::ResolvedNotes;
pub use page_borders::PageBorderStyle;

/// A document with every property computed; borrows the text from the model.
#[derive(Debug, Clone, Default)]
pub struct ResolvedDocument<'a> {
    /// Body blocks in reading order; a paragraph with `closes_section` ends that section.
    pub body: Vec<ResolvedBlock<'a>>,
    /// The sections in order; the last one is the body's final `w:sectPr`.
    pub sections: Vec<SectionStyle>,
    /// Header and footer parts by relationship id.
    pub parts: HashMap<String, Vec<ResolvedBlock<'a>>>,
    /// The footnotes, numbered (§17.11).
    pub footnotes: ResolvedNotes<'a>,
    /// The endnotes, numbered (§17.11).
    pub endnotes: ResolvedNotes<'a>,
    /// `w:defaultTabStop` (§17.15.1.25), 36 pt when absent.
    pub default_tab_stop: Pt,
    /// `w:evenAndOddHeaders` (§17.10.1).
    pub even_and_odd_headers: bool,
    /// `compatibilityMode`; `None` is legacy (≤ 14).
    pub compatibility_mode: Option<u32>,
    /// `w:mirrorMargins`: left and right margins swap on even pages (§17.15.1.57).
    pub mirror_margins: bool,
    /// Justified lines ended by `w:br` are stretched unless `doNotExpandShiftReturn`.
    pub expand_shift_return: bool,
    /// Page borders measured from the text take the header in, unless
    /// `w:bordersDoNotSurroundHeader`.
    pub borders_surround_header: bool,
    /// Likewise for the footer (`w:bordersDoNotSurroundFooter`).
    pub borders_surround_footer: bool,
    /// Broken style references, cycles and other resolution problems.
    pub warnings: Vec<Warning>,
    /// The logical structure for tagged PDF; blocks carry their tags.
    pub structure: structure::Structure,
}

/// A block with computed properties.
#[derive(Debug, Clone)]
pub enum ResolvedBlock<'a> {
    /// A paragraph.
    Paragraph(ResolvedParagraph<'a>),
    /// A table.
    Table(ResolvedTable<'a>),
}

/// A paragraph with computed paragraph and run properties.
#[derive(Debug, Clone)]
pub struct ResolvedParagraph<'a> {
    /// The computed paragraph properties.
    pub style: Arc<ParaStyle>,
    /// The paragraph mark's run properties (height of empty paragraphs, last line).
    pub mark: Arc<RunStyle>,
    /// Inline content in reading order.
    pub inlines: Vec<ResolvedInline<'a>>,
    /// Index into `ResolvedDocument::sections` when this paragraph closes a section.
    pub closes_section: Option<usize>,
    /// Text boxes anchored in this paragraph, their content resolved.
    pub text_boxes: Vec<ResolvedTextBox<'a>>,
    /// The list number or bullet drawn before the first line (§17.9).
    pub label: Option<ListLabel>,
    /// The elements of its own text and list label (tagged PDF).
    pub tags: structure::ParaTags,
    /// The floating pictures of its visible runs, in reading order, with their tags.
    pub floating: Vec<FloatingPicture<'a>>,
    /// Its text frame (`w:framePr`, §17.3.1.11), as written on the paragraph.
    pub frame: Option<&'a FrameProps>,
}

/// A floating picture (`wp:anchor`, §20.4.2.3) and its Figure, or an artifact.
#[derive(Debug, Clone)]
pub struct FloatingPicture<'a> {
    /// The picture as written.
    pub picture: &'a Picture,
    /// Where it is anchored.
    pub anchor: &'a PictureAnchor,
    /// Its element.
    pub tag: structure::Tag,
}

/// A list paragraph's number or bullet, counted and formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct ListLabel {
    /// The text: the expanded `w:lvlText`, or a bullet's literal text.
    pub text: String,
    /// The level's `w:rPr` over the paragraph mark's run properties (notes §6).
    pub style: Arc<RunStyle>,
    /// What follows the number (`w:suff`).
    pub suffix: ListSuffix,
    /// `w:lvlJc` (§17.9.7): where the number sits against the first-line indent.
    pub justification: Option<Align>,
    /// A picture bullet (`w:lvlPicBulletId`, §17.9.20) drawn in place of `text`.
    pub picture: Option<Box<crate::docx::model::Picture>>,
}

/// A text box: its blocks resolved, its placement as written.
#[derive(Debug, Clone)]
pub struct ResolvedTextBox<'a> {
    /// The box's paragraphs and tables.
    pub blocks: Vec<ResolvedBlock<'a>>,
    /// Size and position as the drawing gives them.
    pub shape: &'a crate::docx::model::TextBox,
    /// The tag of the shapes the box draws: a Figure, or an artifact.
    pub figure: structure::Tag,
}

/// Inline content with computed run properties.
#[derive(Debug, Clone)]
pub enum ResolvedInline<'a> {
    /// A run's content with its computed properties.
    Run(ResolvedRun<'a>),
    /// Start of a hyperlink, and its Link element.
    LinkStart(LinkTarget, structure::Tag),
    /// End of the innermost open hyperlink.
    LinkEnd,
    /// A bookmark start.
    Bookmark(&'a str),
}

/// A run: content as written, properties computed.
#[derive(Debug, Clone)]
pub struct ResolvedRun<'a> {
    /// The computed run properties (shared by runs that resolve alike).
    pub style: Arc<RunStyle>,
    /// The content as written.
    pub content: &'a [RunContent],
    /// The element its text belongs to: its hyperlink's Link, its Span when its language
    /// is not the document's, else its paragraph's.
    pub tag: structure::Tag,
    /// The Figure (or decorative artifact) of each inline picture of `content`, in order.
    pub figures: Vec<structure::Tag>,
}

/// Computed run properties (§17.3.2), concrete and in points.
#[derive(Debug, Clone, PartialEq)]
pub struct RunStyle {
    /// Font family names per slot, theme references already replaced.
    pub fonts: FontNames,
    /// `w:sz` in points.
    pub size: Pt,
    /// `w:szCs` in points.
    pub size_cs: Pt,
    /// Toggle properties after §17.7.3.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// `w:bCs`: bold for complex-script text.
    pub bold_cs: bool,
    /// `w:iCs`: italic for complex-script text.
    pub italic_cs: bool,
    /// All capitals.
    pub caps: bool,
    /// Small capitals.
    pub small_caps: bool,
    /// Single strikethrough.
    pub strike: bool,
    /// Double strikethrough.
    pub double_strike: bool,
    /// Hidden text: not laid out.
    pub vanish: bool,
    /// Underline style (`Underline::None` for none).
    pub underline: Underline,
    /// Text colour; `Color::Auto` is black.
    pub color: Color,
    /// Highlight colour behind the text.
    pub highlight: Option<Color>,
    /// Run shading fill behind the text.
    pub shading: Option<Color>,
    /// `w:bdr`: the border drawn around the text.
    pub border: Option<BorderStyle>,
    /// Superscript or subscript.
    pub vert_align: VertAlign,
    /// `w:position`: positive raises the text.
    pub position: Pt,
    /// `w:spacing`: added after every character.
    pub spacing: Pt,
    /// `w:kern` (§17.3.2.19): the smallest font size whose text is kerned; `None` (no
    /// `w:kern`, or 0) sets every pair at its advances. Word kerns nothing else: Cambria
    /// body text at 11 pt under a style without `w:kern` stands at its plain advances in
    /// Word's PDFs (sverrejb_docxide_pdf_input_3, _5), and the Office 365 template's
    /// `w:kern w:val="2"` in the defaults kerns all of it (Aminar03_upi_fraud_project_srs).
    pub kern: Option<Pt>,
    /// `w:rtl`.
    pub rtl: bool,
    /// `w:cs`.
    pub complex_script: bool,
    /// `w:lang@w:val` (§17.3.2.20): the language of Latin text, innermost first.
    pub lang: Option<Arc<str>>,
    /// `w:lang@w:bidi`: the language of complex-script text.
    pub lang_bidi: Option<Arc<str>>,
}

/// Family names for the four `w:rFonts` slots (§17.3.2.26).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FontNames {
    /// Characters U+0000–U+007F.
    pub ascii: Arc<str>,
    /// Other characters not in an East Asian or complex-script block.
    pub h_ansi: Arc<str>,
    /// East Asian characters.
    pub east_asia: Arc<str>,
    /// Complex-script characters (and runs with `w:cs`/`w:rtl`).
    pub cs: Arc<str>,
    /// `w:hint="eastAsia"`: shared punctuation goes to the East Asian slot.
    pub hint_east_asia: bool,
    /// `w:lang@w:eastAsia` through the cascade, else `w:themeFontLang@w:eastAsia`.
    pub east_asia_lang: Option<Arc<str>>,
}

/// Computed paragraph properties (§17.3.1), in points.
#[derive(Debug, Clone, PartialEq)]
pub struct ParaStyle {
    /// The `w:styleId` of the paragraph style (for contextual spacing).
    pub style_id: Option<String>,
    /// Outline level 1–9 when the style chain has a name "heading N".
    pub outline_level: Option<u8>,
    /// The paragraph is in Word's Title style: the first such gives a document without a
    /// title property its title under PDF/UA (ISO 14289-1 §7.1).
    pub title: bool,
    /// Justification.
    pub align: Align,
    /// Left indent from the text margin.
    pub indent_left: Pt,
    /// Right indent from the text margin.
    pub indent_right: Pt,
    /// First-line offset from `indent_left`: positive for `firstLine`, negative for `hanging`.
    pub first_line: Pt,
    /// Hanging indent when one was given (an implicit tab stop, notes §7).
    pub hanging: Option<Pt>,
    /// Space before (already 14 pt when autospaced).
    pub space_before: Pt,
    /// Space after (already 14 pt when autospaced).
    pub space_after: Pt,
    /// `w:beforeAutospacing`: 0 for the first paragraph of a cell.
    pub before_autospacing: bool,
    /// `w:afterAutospacing`.
    pub after_autospacing: bool,
    /// A list paragraph (`w:numPr` with a `numId` other than 0, §17.3.1.19).
    pub in_list: bool,
    /// Line spacing rule.
    pub line: LineRule,
    /// `w:keepNext`.
    pub keep_next: bool,
    /// `w:keepLines`.
    pub keep_lines: bool,
    /// `w:pageBreakBefore`.
    pub page_break_before: bool,
    /// `w:widowControl` (on unless said otherwise, §17.3.1.44).
    pub widow_control: bool,
    /// `w:snapToGrid` (on unless said otherwise, §17.3.1.32): auto line heights follow the
    /// section's document grid.
    pub snap_to_grid: bool,
    /// `w:wordWrap` (§17.3.1.45): Korean text breaks between words, as Latin text does;
    /// off, between any two syllables (OI29500 2.1.67: Word applies it to Korean only).
    /// Unset, it is on in a paragraph with a document-defined style and off in a bare one.
    pub word_wrap: bool,
    /// `w:autoSpaceDE` (§17.3.1.2): a quarter em between East Asian and Latin letters;
    /// unset, as `word_wrap`.
    pub auto_space_de: bool,
    /// `w:autoSpaceDN` (§17.3.1.3): a quarter em between East Asian text and digits;
    /// unset, as `word_wrap`.
    pub auto_space_dn: bool,
    /// `w:contextualSpacing`.
    pub contextual_spacing: bool,
    /// `w:mirrorIndents` (§17.3.1.18): on even pages the left and right indents trade
    /// places.
    pub mirror_indents: bool,
    /// `w:bidi`.
    pub bidi: bool,
    /// Custom tab stops sorted by position, `clear` already applied.
    pub tabs: Vec<TabStopStyle>,
    /// Paragraph shading fill.
    pub shading: Option<Color>,
    /// Paragraph borders.
    pub borders: BorderSet,
    /// `w:pBdr/w:between` (§17.3.1.5): drawn above each paragraph of a bordered group but
    /// the first.
    pub border_between: Option<BorderStyle>,
}

/// `w:spacing@w:line` with its rule, computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LineRule {
    /// A multiple of the single line height (1.0 = single).
    Auto(f64),
    /// A fixed line height.
    Exact(Pt),
    /// A minimum line height.
    AtLeast(Pt),
}

/// A custom tab stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TabStopStyle {
    /// Left, center, right, decimal or bar (never clear).
    pub kind: TabKind,
    /// Position from the text margin.
    pub pos: Pt,
    /// The leader drawn before the stop.
    pub leader: TabLeader,
}

/// A computed border line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BorderStyle {
    /// Line width.
    pub width: Pt,
    /// The room the whole border takes across its lines and gaps: the width for one line,
    /// three widths for a double (see [`BorderStyle::stripes`]).
    pub room: Pt,
    /// Distance from the text (`w:space`).
    pub space: Pt,
    /// Colour; `Auto` is black.
    pub color: Color,
    /// How the line is drawn (single, double, dotted…).
    pub line: crate::docx::model::LineStyle,
}

impl BorderStyle {
    /// The border as drawn, or `None` for `none`/`nil`.
    pub fn from_model(b: &Border) -> Option<BorderStyle> {
        let width = b.width.pt().max(Pt(0.25));
        b.visible.then(|| BorderStyle {
            width,
            room: border_lines::stripes(b.style, width).room(),
            space: Pt(b.space as f64),
            color: b.color,
            line: b.style,
        })
    }
}

/// Borders of a paragraph or a cell; `None` draws nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BorderSet {
    /// Top edge.
    pub top: Option<BorderStyle>,
    /// Bottom edge.
    pub bottom: Option<BorderStyle>,
    /// Left edge.
    pub left: Option<BorderStyle>,
    /// Right edge.
    pub right: Option<BorderStyle>,
}

/// A section's computed page setup (§17.6.17).
#[derive(Debug, Clone, PartialEq)]
pub struct SectionStyle {
    /// Page width.
    pub page_width: Pt,
    /// Page height.
    pub page_height: Pt,
    /// Top margin (`|top|` when negative).
    pub margin_top: Pt,
    /// Bottom margin.
    pub margin_bottom: Pt,
    /// Left margin, gutter included.
    pub margin_left: Pt,
    /// Right margin.
    pub margin_right: Pt,
    /// Distance from the page top to the header.
    pub margin_header: Pt,
    /// Distance from the page bottom to the footer.
    pub margin_footer: Pt,
    /// How the section starts.
    pub start: SectionStart,
    /// Number of columns (at least 1).
    pub columns: u32,
    /// Space between columns.
    pub column_space: Pt,
    /// `w:titlePg`: the first page uses the first header/footer.
    pub title_page: bool,
    /// `w:pgNumType@w:start`.
    pub page_number_start: Option<i64>,
    /// `w:pgNumType@w:fmt` (§17.6.12): how PAGE fields show the page number.
    pub page_number_format: Option<crate::docx::model::NumberFormat>,
    /// Unequal columns (`w:cols@w:equalWidth="0"`, §17.6.3): each column's width and the
    /// space after it; empty for equal columns.
    pub column_widths: Vec<(Pt, Pt)>,
    /// `w:cols@w:sep`: a line between columns.
    pub column_separator: bool,
    /// The document grid's line pitch when the grid has lines (`w:docGrid type="lines"` or
    /// `"linesAndChars"`, §17.6.5).
    pub line_pitch: Option<Pt>,
    /// `w:vAlign` (§17.6.23): vertical alignment of the body on the page.
    pub v_align: crate::docx::model::PageVAlign,
    /// Header relationship ids, missing kinds inherited from the previous section.
    pub headers: HeaderFooterIds,
    /// Footer relationship ids, inherited like headers.
    pub footers: HeaderFooterIds,
    /// `w:pgBorders` (§17.6.10), when a side is visible.
    pub page_borders: Option<PageBorderStyle>,
}

impl SectionStyle {
    /// The width between the left and right margins.
    pub fn text_width(&self) -> Pt {
        (self.page_width - self.margin_left - self.margin_right).max(Pt(1.0))
    }

    /// The left margin of a page; `mirrored` (an even page with `w:mirrorMargins`) swaps
    /// the inside and outside margins (§17.15.1.57).
    pub fn left_margin(&self, mirrored: bool) -> Pt {
        if mirrored {
            self.margin_right
        } else {
            self.margin_left
        }
    }
}

/// Header or footer relationship ids by kind (§17.10.5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeaderFooterIds {
    /// Odd (or all) pages.
    pub default: Option<String>,
    /// The first page of the section, with `title_page`.
    pub first: Option<String>,
    /// Even pages, with `evenAndOddHeaders`.
    pub even: Option<String>,
}

/// A table with computed geometry inputs.
#[derive(Debug, Clone)]
pub struct ResolvedTable<'a> {
    /// Grid column widths.
    pub grid: Vec<Pt>,
    /// `w:tblW`.
    pub width: Option<Width>,
    /// `w:tblLayout type="fixed"`: the grid and widths as given, never fitted to the text
    /// column (§17.4.53).
    pub fixed: bool,
    /// `w:tblInd`.
    pub indent: Pt,
    /// `w:jc`.
    pub align: Align,
    /// Table borders: outer edges.
    pub borders: BorderSet,
    /// Between rows (`insideH`).
    pub inside_h: Option<BorderStyle>,
    /// Between columns (`insideV`).
    pub inside_v: Option<BorderStyle>,
    /// Rows in order.
    pub rows: Vec<ResolvedRow<'a>>,
    /// `w:tblpPr`: where a floating table goes.
    pub position: Option<&'a crate::docx::model::TablePosition>,
}

/// A table row.
#[derive(Debug, Clone)]
pub struct ResolvedRow<'a> {
    /// `w:trHeight`.
    pub height: Option<RowHeight>,
    /// `w:tblHeader`.
    pub header: bool,
    /// `w:cantSplit`.
    pub cant_split: bool,
    /// `w:gridBefore`.
    pub grid_before: u32,
    /// `w:gridAfter`.
    pub grid_after: u32,
    /// Cells in order.
    pub cells: Vec<ResolvedCell<'a>>,
}

/// A table cell with its margins and borders computed.
#[derive(Debug, Clone)]
pub struct ResolvedCell<'a> {
    /// Grid columns spanned (at least 1).
    pub grid_span: u32,
    /// `w:tcW`: the preferred width, used where the table has no grid.
    pub width: Option<Width>,
    /// `w:vMerge`.
    pub v_merge: Option<VMerge>,
    /// `w:tcBorders` only (table borders apply by position in layout); `Some(None)` is an
    /// explicit `nil`/`none`.
    pub borders: CellBorders,
    /// Shading fill.
    pub shading: Option<Color>,
    /// Top margin.
    pub margin_top: Pt,
    /// Left margin (108 twips by default).
    pub margin_left: Pt,
    /// Bottom margin.
    pub margin_bottom: Pt,
    /// Right margin (108 twips by default).
    pub margin_right: Pt,
    /// Vertical alignment of the content.
    pub v_align: CellVAlign,
    /// Cell content.
    pub blocks: Vec<ResolvedBlock<'a>>,
}

/// A cell's own borders: `None` = not said, `Some(None)` = explicitly no border.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CellBorders {
    /// Top edge.
    pub top: Option<Option<BorderStyle>>,
    /// Left edge.
    pub left: Option<Option<BorderStyle>>,
    /// Bottom edge.
    pub bottom: Option<Option<BorderStyle>>,
    /// Right edge.
    pub right: Option<Option<BorderStyle>>,
}
