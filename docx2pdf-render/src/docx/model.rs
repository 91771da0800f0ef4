//! The document "as written": plain data read from the package, before any style is
//! resolved. `None` means "not said here", so the cascade in `resolve` can fill it in.

use std::collections::HashMap;
use std::sync::Arc;

use crate::fast_map::FastMap;
use crate::units::{EighthPoints, Emu, HalfPoints, Twips};

/// A whole WordprocessingML package, read.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// Body content in reading order. Sections are closed by `Paragraph::section`, and the
    /// last section's properties are `final_section`.
    pub body: Vec<Block>,
    /// The `w:sectPr` directly under `w:body` (§17.6.17): the last section.
    pub final_section: SectionProps,
    /// `word/styles.xml`.
    pub styles: StyleSheet,
    /// Header and footer parts, keyed by their relationship id in document.xml.rels.
    pub parts: HashMap<String, Vec<Block>>,
    /// `word/settings.xml`.
    pub settings: Settings,
    /// The major/minor fonts of `word/theme/theme1.xml` (§20.1.4.1.24).
    pub theme: ThemeFonts,
    /// External hyperlink targets, keyed by relationship id.
    pub hyperlinks: HashMap<String, String>,
    /// `docProps/core.xml`.
    pub info: CoreProps,
    /// The fonts of `word/fontTable.xml` (§17.8.3), in the order written, with their
    /// embedded faces de-obfuscated.
    pub fonts: Vec<FontDecl>,
    /// The colour scheme of the theme (`a:clrScheme`, DrawingML §20.1.6.2). Theme colours
    /// in runs, shading and borders are already resolved into their `color` fields.
    pub theme_colors: ColorScheme,
    /// `word/numbering.xml` (§17.9).
    pub numbering: NumberingDefs,
    /// `word/footnotes.xml` (§17.11.15).
    pub footnotes: Notes,
    /// `word/endnotes.xml` (§17.11.8).
    pub endnotes: Notes,
}

/// The notes of a footnotes or endnotes part (§17.11), with its separators.
#[derive(Debug, Clone, Default)]
pub struct Notes {
    /// Ordinary notes (`w:type` absent or `normal`) by `w:id`.
    pub notes: HashMap<i64, Vec<Block>>,
    /// The `w:type="separator"` note: the line above the note area.
    pub separator: Option<Vec<Block>>,
    /// The `w:type="continuationSeparator"` note: the line above notes continued from
    /// the previous page.
    pub continuation_separator: Option<Vec<Block>>,
}

/// Which kind of note a reference points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// `w:footnoteReference` (§17.11.14).
    Footnote,
    /// `w:endnoteReference` (§17.11.7).
    Endnote,
}

/// A `w:footnoteReference`/`w:endnoteReference` in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoteReference {
    /// Footnote or endnote.
    pub kind: NoteKind,
    /// `w:id`: the note in its part.
    pub id: i64,
    /// `w:customMarkFollows`: the run's own text is the mark, no number is drawn.
    pub custom_mark: bool,
}

/// One `w:font` of the font table (§17.8.3.9): what Word knows about a font the document
/// uses, to guide substitution, and its embedded faces.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FontDecl {
    /// `w:name`.
    pub name: String,
    /// `w:altName` (§17.8.3.1): another name for the same font.
    pub alt_name: Option<String>,
    /// `w:family` (§17.8.3.7).
    pub family: Option<FontFamily>,
    /// `w:pitch` (§17.8.3.13).
    pub pitch: Option<FontPitch>,
    /// `w:charset@w:val` (§17.8.3.2), the Windows character set byte (`00` ANSI, `80`
    /// Shift-JIS, `86` GB2312…).
    pub charset: Option<u8>,
    /// `w:panose1` (§17.8.3.12): the ten PANOSE classification bytes.
    pub panose1: Option<[u8; 10]>,
    /// The faces embedded in the package that could be read, in the order written.
    pub embedded: Vec<EmbeddedFont>,
}

/// `ST_FontFamily` (§17.18.30).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontFamily {
    /// `roman`: proportional with serifs.
    Roman,
    /// `swiss`: proportional without serifs.
    Swiss,
    /// `modern`: monospaced.
    Modern,
    /// `script`: handwriting.
    Script,
    /// `decorative`.
    Decorative,
    /// `auto`: unknown.
    Auto,
}

/// `ST_Pitch` (§17.18.67).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontPitch {
    /// `fixed`: monospaced.
    Fixed,
    /// `variable`: proportional.
    Variable,
    /// `default`: not given.
    Default,
}

/// A font face embedded in the package (`w:embedRegular`… §17.8.3.3–6), de-obfuscated
/// (§17.8.1): `data` is a plain TrueType/OpenType file.
#[derive(Clone, PartialEq)]
pub struct EmbeddedFont {
    /// Which face of the family it is.
    pub style: EmbeddedFontStyle,
    /// `w:subsetted`: only the glyphs the document uses are present.
    pub subsetted: bool,
    /// The font file, shared so layout and the PDF writer can hold it without copying.
    pub data: Arc<[u8]>,
}

impl std::fmt::Debug for EmbeddedFont {
    // A font is megabytes of bytes: show its size, not its content.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedFont")
            .field("style", &self.style)
            .field("subsetted", &self.subsetted)
            .field("bytes", &self.data.len())
            .finish()
    }
}

/// The face an embedded font provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbeddedFontStyle {
    /// `w:embedRegular`.
    Regular,
    /// `w:embedBold`.
    Bold,
    /// `w:embedItalic`.
    Italic,
    /// `w:embedBoldItalic`.
    BoldItalic,
}

/// The twelve colours of a theme's `a:clrScheme` (§20.1.6.2), as sRGB. `a:sysClr` slots
/// hold their `lastClr`. `None` when the theme does not give the slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColorScheme {
    /// `a:dk1`.
    pub dark1: Option<Color>,
    /// `a:lt1`.
    pub light1: Option<Color>,
    /// `a:dk2`.
    pub dark2: Option<Color>,
    /// `a:lt2`.
    pub light2: Option<Color>,
    /// `a:accent1` … `a:accent6`.
    pub accents: [Option<Color>; 6],
    /// `a:hlink`.
    pub hyperlink: Option<Color>,
    /// `a:folHlink`.
    pub followed_hyperlink: Option<Color>,
}

/// A theme colour reference as written (`w:themeColor` with `w:themeTint`/`w:themeShade`,
/// §17.3.2.6); the reader has already turned it into an sRGB colour where the theme
/// gives one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThemeColorRef {
    /// `w:themeColor`: the role or scheme slot named.
    pub color: ThemeColor,
    /// `w:themeTint` (0–255): lighter; wins over the shade (OI29500 2.1.72 b).
    pub tint: Option<u8>,
    /// `w:themeShade` (0–255): darker.
    pub shade: Option<u8>,
}

/// `ST_ThemeColor` (§17.18.97).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeColor {
    /// `dark1`: the scheme's `a:dk1`.
    Dark1,
    /// `light1`: `a:lt1`.
    Light1,
    /// `dark2`: `a:dk2`.
    Dark2,
    /// `light2`: `a:lt2`.
    Light2,
    /// `accent1`: `a:accent1`.
    Accent1,
    /// `accent2`: `a:accent2`.
    Accent2,
    /// `accent3`: `a:accent3`.
    Accent3,
    /// `accent4`: `a:accent4`.
    Accent4,
    /// `accent5`: `a:accent5`.
    Accent5,
    /// `accent6`: `a:accent6`.
    Accent6,
    /// `hyperlink`: `a:hlink`.
    Hyperlink,
    /// `followedHyperlink`: `a:folHlink`.
    FollowedHyperlink,
    /// `background1`, mapped through `w:clrSchemeMapping@w:bg1`.
    Background1,
    /// `text1`, mapped through `w:clrSchemeMapping@w:t1`.
    Text1,
    /// `background2`, mapped through `w:clrSchemeMapping@w:bg2`.
    Background2,
    /// `text2`, mapped through `w:clrSchemeMapping@w:t2`.
    Text2,
}

/// Document-wide settings that change layout (`word/settings.xml`, §17.15).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `w:defaultTabStop`; Word uses 720 twips when absent.
    pub default_tab_stop: Option<Twips>,
    /// `w:evenAndOddHeaders` (§17.10.1).
    pub even_and_odd_headers: bool,
    /// `w:compatSetting name="compatibilityMode"` (11, 12, 14, 15); `None` is legacy.
    pub compatibility_mode: Option<u32>,
    /// `w:mirrorMargins` (§17.15.1.57): inside and outside margins swap on even pages.
    pub mirror_margins: bool,
    /// `w:gutterAtTop` (§17.15.1.49): the gutter goes at the top, not the left.
    pub gutter_at_top: bool,
    /// `w:themeFontLang` (§17.15.1.88): picks the theme's per-script fonts.
    pub theme_font_lang: ThemeFontLang,
    /// The legacy `w:compat` switches that are on, by local name (e.g. `doNotExpandShiftReturn`).
    pub compat_flags: Vec<String>,
    /// The known `w:compat` switches, typed (also listed in `compat_flags`).
    pub compat: Compat,
    /// `w:autoHyphenation` (§17.15.1.10).
    pub auto_hyphenation: bool,
    /// `w:doNotHyphenateCaps` (§17.15.1.37): words in capitals are never hyphenated.
    pub do_not_hyphenate_caps: bool,
    /// `w:hyphenationZone` (§17.15.1.53).
    pub hyphenation_zone: Option<Twips>,
    /// `w:consecutiveHyphenLimit` (§17.15.1.21); 0 or absent is unlimited.
    pub consecutive_hyphen_limit: Option<u32>,
    /// `w:noLineBreaksBefore` (§17.15.1.61): characters that may not start a line, per
    /// `w:lang`. Word's own East Asian list applies when absent.
    pub no_line_breaks_before: Vec<LineBreakChars>,
    /// `w:noLineBreaksAfter` (§17.15.1.60): characters that may not end a line, per `w:lang`.
    pub no_line_breaks_after: Vec<LineBreakChars>,
    /// `w:strictFirstAndLastChars` (§17.15.1.85): the strict kinsoku lists.
    pub strict_first_and_last_chars: bool,
    /// `w:updateFields` (§17.15.1.90): Word recomputes fields (e.g. the TOC) on open.
    pub update_fields: bool,
    /// `w:clrSchemeMapping` (§17.15.1.20): which theme slots `text1`, `background1`… name.
    pub color_scheme_mapping: ColorSchemeMapping,
    /// `w:footnotePr` (§17.11.12), document-wide.
    pub footnote_props: Option<NoteProps>,
    /// `w:endnotePr` (§17.11.5), document-wide.
    pub endnote_props: Option<NoteProps>,
    /// `w:bordersDoNotSurroundHeader` (§17.15.1): page borders measured from the text
    /// leave the header outside.
    pub borders_do_not_surround_header: bool,
    /// `w:bordersDoNotSurroundFooter` (§17.15.1): likewise for the footer.
    pub borders_do_not_surround_footer: bool,
}

/// The `w:compat` switches (§17.15.3) and `w:compatSetting` values known to change layout;
/// every field is `false` when absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Compat {
    /// `doNotExpandShiftReturn`: a justified line ended by `w:br` is not stretched.
    pub do_not_expand_shift_return: bool,
    /// `noLeading`: the font's line gap is left out of the line height.
    pub no_leading: bool,
    /// `suppressSpBfAfterPgBrk`: no space before at the top of a page after a hard break.
    pub suppress_space_before_after_page_break: bool,
    /// `suppressTopSpacing`: no extra space at the top of a page.
    pub suppress_top_spacing: bool,
    /// `doNotUseHTMLParagraphAutoSpacing`: auto spacing follows the other rule.
    pub do_not_use_html_paragraph_auto_spacing: bool,
    /// `allowSpaceOfSameStyleInTable`: `contextualSpacing` does not apply in tables.
    pub allow_space_of_same_style_in_table: bool,
    /// `adjustLineHeightInTable`: the document grid's pitch applies in tables.
    pub adjust_line_height_in_table: bool,
    /// `useFELayout`: East Asian layout rules.
    pub use_fe_layout: bool,
    /// `balanceSingleByteDoubleByteWidth`.
    pub balance_single_byte_double_byte_width: bool,
    /// `spaceForUL`.
    pub space_for_underline: bool,
    /// `ulTrailSpace`: trailing spaces are underlined.
    pub underline_trailing_space: bool,
    /// `underlineTabInNumList`.
    pub underline_tab_in_num_list: bool,
    /// `splitPgBreakAndParaMark`.
    pub split_page_break_and_paragraph_mark: bool,
    /// `autofitToFirstFixedWidthCell`.
    pub autofit_to_first_fixed_width_cell: bool,
    /// `growAutofit`.
    pub grow_autofit: bool,
    /// `doNotBreakWrappedTables`.
    pub do_not_break_wrapped_tables: bool,
    /// `doNotAutofitConstrainedTables`.
    pub do_not_autofit_constrained_tables: bool,
    /// `compatSetting overrideTableStyleFontSizeAndJustification`.
    pub override_table_style_font_size_and_justification: bool,
    /// `compatSetting enableOpenTypeFeatures`.
    pub enable_open_type_features: bool,
    /// `compatSetting doNotFlipMirrorIndents`.
    pub do_not_flip_mirror_indents: bool,
    /// `compatSetting differentiateMultirowTableHeaders`.
    pub differentiate_multirow_table_headers: bool,
}

/// A `w:noLineBreaksBefore`/`w:noLineBreaksAfter` list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineBreakChars {
    /// `w:lang`, e.g. `ja-JP`.
    pub lang: Option<String>,
    /// `w:val`: the characters.
    pub chars: String,
}

/// `w:clrSchemeMapping` (§17.15.1.20): the theme slot each role names. Absent attributes
/// are `None`; Word's defaults are `t1` = dark1, `bg1` = light1, `t2` = dark2, `bg2` =
/// light2, and every other role its namesake.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColorSchemeMapping {
    /// `w:bg1`: the slot `background1` names.
    pub background1: Option<ThemeColor>,
    /// `w:t1`: the slot `text1` names.
    pub text1: Option<ThemeColor>,
    /// `w:bg2`: the slot `background2` names.
    pub background2: Option<ThemeColor>,
    /// `w:t2`: the slot `text2` names.
    pub text2: Option<ThemeColor>,
    /// `w:accent1` … `w:accent6`.
    pub accents: [Option<ThemeColor>; 6],
    /// `w:hyperlink`.
    pub hyperlink: Option<ThemeColor>,
    /// `w:followedHyperlink`.
    pub followed_hyperlink: Option<ThemeColor>,
}

/// `w:footnotePr`/`w:endnotePr` (§17.11.11, §17.11.4): placement and numbering of notes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoteProps {
    /// `w:pos@w:val` (ST_FtnPos/ST_EdnPos: `pageBottom`, `beneathText`, `sectEnd`, `docEnd`).
    pub position: Option<String>,
    /// `w:numFmt@w:val`.
    pub format: Option<NumberFormat>,
    /// `w:numStart@w:val`.
    pub start: Option<i64>,
    /// `w:numRestart@w:val` (ST_RestartNumber: `continuous`, `eachSect`, `eachPage`).
    pub restart: Option<String>,
}

/// `ST_NumberFormat` (§17.18.59), the formats Word draws itself; others kept as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberFormat {
    /// `decimal`: 1, 2, 3.
    Decimal,
    /// `upperRoman`: I, II, III.
    UpperRoman,
    /// `lowerRoman`: i, ii, iii.
    LowerRoman,
    /// `upperLetter`: A, B, C.
    UpperLetter,
    /// `lowerLetter`: a, b, c.
    LowerLetter,
    /// Any other value (`ordinal`, `chicago`, `decimalZero`, `japaneseCounting`…).
    Other(String),
}

/// `w:themeFontLang` (§17.15.1.88): the languages that choose theme fonts per script.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThemeFontLang {
    /// `w:val`: the Latin language.
    pub latin: Option<String>,
    /// `w:eastAsia`, e.g. `ja-JP`.
    pub east_asia: Option<String>,
    /// `w:bidi`, e.g. `ar-SA`.
    pub bidi: Option<String>,
}

/// Theme font names (`a:majorFont`/`a:minorFont`).
#[derive(Debug, Clone, Default)]
pub struct ThemeFonts {
    /// `a:majorFont/a:latin@typeface`; `None` when empty.
    pub major_latin: Option<String>,
    /// `a:minorFont/a:latin@typeface`; `None` when empty.
    pub minor_latin: Option<String>,
    /// `a:majorFont/a:ea@typeface`; `None` when empty.
    pub major_east_asia: Option<String>,
    /// `a:minorFont/a:ea@typeface`; `None` when empty.
    pub minor_east_asia: Option<String>,
    /// `a:majorFont/a:cs@typeface`; `None` when empty.
    pub major_cs: Option<String>,
    /// `a:minorFont/a:cs@typeface`; `None` when empty.
    pub minor_cs: Option<String>,
    /// `a:majorFont/a:font@script → @typeface` (e.g. `Jpan` → `游ゴシック Light`).
    pub major_by_script: HashMap<String, String>,
    /// `a:minorFont/a:font@script → @typeface`.
    pub minor_by_script: HashMap<String, String>,
}

/// Document information from `docProps/core.xml`.
#[derive(Debug, Clone, Default)]
pub struct CoreProps {
    /// `dc:title`.
    pub title: Option<String>,
    /// `dc:creator`.
    pub author: Option<String>,
    /// `dc:subject`.
    pub subject: Option<String>,
    /// `cp:keywords`.
    pub keywords: Option<String>,
    /// `dcterms:created` as written (W3CDTF, e.g. `2024-03-01T09:30:00Z`).
    pub created: Option<String>,
    /// `dcterms:modified` as written.
    pub modified: Option<String>,
}

/// A block-level item of the body, a cell, a header or a footer.
// Paragraphs far outnumber tables, so boxing the larger variant would cost more than it saves.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Block {
    /// A `w:p`.
    Paragraph(Paragraph),
    /// A `w:tbl`.
    Table(Table),
}

/// A `w:p` (§17.3.1.22).
#[derive(Debug, Clone, Default)]
pub struct Paragraph {
    /// `w:pStyle`.
    pub style: Option<String>,
    /// Direct paragraph formatting.
    pub props: ParagraphProps,
    /// The paragraph mark's run properties (`w:pPr/w:rPr`).
    pub mark: RunProps,
    /// The paragraph mark's character style (`w:pPr/w:rPr/w:rStyle`).
    pub mark_style: Option<String>,
    /// Content in reading order (tracked deletions already dropped).
    pub inlines: Vec<Inline>,
    /// A `w:sectPr` in this paragraph's `w:pPr`: this paragraph closes a section.
    pub section: Option<Box<SectionProps>>,
    /// Text boxes (`w:txbxContent`) anchored in this paragraph's runs, in reading order.
    /// Their blocks are not in the body: layout places them.
    pub text_boxes: Vec<TextBox>,
    /// Part of a TOC field's result (§17.16.5.68): an entry of a table of contents.
    pub toc: bool,
}

/// The content of a text box (`w:txbxContent`, §17.17.1.1) with what its drawing says
/// about where it goes (DrawingML §20.4.2; VML `style` for `w:pict`).
#[derive(Debug, Clone, Default)]
pub struct TextBox {
    /// The box's paragraphs and tables.
    pub blocks: Vec<Block>,
    /// Floating (`wp:anchor`, or a VML shape with `position:absolute`); `false` for
    /// `wp:inline`, which sits in the line like a character.
    pub anchored: bool,
    /// The shape's size (`wp:extent@cx,cy`, or VML `width`/`height`).
    pub extent: Option<(Emu, Emu)>,
    /// `wp:positionH` (VML: `margin-left` with `mso-position-horizontal-relative`).
    pub horizontal: Option<AnchorPosition>,
    /// `wp:positionV` (VML: `margin-top` with `mso-position-vertical-relative`).
    pub vertical: Option<AnchorPosition>,
    /// `wp:anchor@behindDoc`.
    pub behind_text: bool,
    /// How the body text wraps around the box (§20.4.2.15–20; VML `w10:wrap`).
    pub wrap: Wrap,
    /// `wrapSquare@wrapText`: the sides text may run on.
    pub wrap_text: WrapText,
    /// `wp:anchor@distT,distB,distL,distR`.
    pub distance: Distances,
    /// The drawn outline and fill of the shape (`wps:spPr`, VML `v:rect`…), when the
    /// drawing is a shape rather than a plain text frame; its `blocks` may be empty.
    pub shape: Option<ShapeStyle>,
    /// Shapes of a group (`wpg:wgp`, §20.4.2.1): each child's box inside the group's
    /// extent, in EMU from the group's corner.
    pub children: Vec<GroupChild>,
    /// `wps:bodyPr@lIns,tIns,rIns,bIns` (§21.1.2.1.1), when given.
    pub insets: [Option<Emu>; 4],
    /// `wps:bodyPr@anchor` (`t`, `ctr`, `b`): where the text sits in the box's height.
    pub text_anchor: Option<String>,
    /// `a:spAutoFit` in `wps:bodyPr` (§21.1.2.1.3), VML `mso-fit-shape-to-text:t`: the
    /// shape is resized to hold its text.
    pub fit_text: bool,
    /// The box of an inline drawing, floated over the blank picture that keeps its room in
    /// the line (see `docx::drawing`).
    pub in_line: bool,
    /// Where a group's text box sits from the group's corner (EMU, x and y).
    pub group_offset: (Emu, Emu),
    /// The size of the group a text box belongs to, which the anchor places.
    pub group_extent: Option<(Emu, Emu)>,
    /// The drawing's alternative text (`wp:docPr@descr`, else `@title`; VML `@alt`).
    pub alt: Option<String>,
    /// The drawing is marked decorative (`adec:decorative`).
    pub decorative: bool,
}

impl TextBox {
    /// Whether the box draws something of its own: a filled or outlined shape, or a
    /// group's shapes. Such a drawing is a figure; a plain text frame is not.
    pub fn draws(&self) -> bool {
        self.shape.as_ref().is_some_and(|s| s.fill.is_some() || s.line.is_some()) || !self.children.is_empty()
    }

    /// Whether the box holds text (a table counts as text); a shape's empty text box,
    /// one empty paragraph as Word writes it, does not.
    pub fn holds_text(&self) -> bool {
        self.blocks.iter().any(|b| match b {
            Block::Table(_) => true,
            Block::Paragraph(p) => p.inlines.iter().any(|i| match i {
                Inline::Run(r) => r.content.iter().any(|c| !matches!(c, RunContent::Text(t) if t.trim().is_empty())),
                _ => false,
            }),
        })
    }
}

/// The look of a drawn shape (DrawingML `a:prstGeom`, `a:solidFill`, `a:ln`, §20.1.9.18,
/// §20.1.8.54, §20.1.2.2.24).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShapeStyle {
    /// The outline's geometry.
    pub geometry: Geometry,
    /// Fill colour; `None` for `a:noFill`.
    pub fill: Option<Color>,
    /// Outline colour; `None` for `a:noFill` in `a:ln`.
    pub line: Option<Color>,
    /// Outline width (`a:ln@w`).
    pub line_width: Emu,
    /// `a:prstDash` other than `solid`.
    pub dashed: bool,
    /// `a:xfrm@flipH,flipV`: a line runs from the bottom-left corner instead.
    pub flip_h: bool,
    /// `@flipV`.
    pub flip_v: bool,
}

/// The preset geometries drawn (ST_ShapeType, §20.1.10.56); others draw as rectangles.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Geometry {
    /// `rect` and every preset not drawn otherwise; VML `v:rect`, `v:shape`.
    #[default]
    Rect,
    /// `roundRect`, `flowChartAlternateProcess`, `flowChartTerminator`; VML `v:roundrect`.
    RoundRect,
    /// `ellipse`, `flowChartConnector`, `donut`, `cloud`, `heart`; VML `v:oval`.
    Ellipse,
    /// `line`, `straightConnector1` and the other connectors: corner to corner.
    Line,
    /// A preset outline made of straight edges, with its default adjustments.
    Polygon(PolygonPreset),
    /// A closed outline through these points, in 100,000ths of the box's width and
    /// height from its top-left corner (a chart's pie slice).
    Freeform(std::sync::Arc<[(i32, i32)]>),
}

/// Preset shapes drawn as polygons (ST_ShapeType, §20.1.10.56).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolygonPreset {
    /// `diamond`, `flowChartDecision`.
    Diamond,
    /// `triangle`, `flowChartExtract`.
    Triangle,
    /// `rtTriangle`.
    RightTriangle,
    /// `pentagon`.
    Pentagon,
    /// `hexagon`, `flowChartPreparation`.
    Hexagon,
    /// `octagon`.
    Octagon,
    /// `parallelogram`, `flowChartInputOutput`.
    Parallelogram,
    /// `trapezoid`, `flowChartManualOperation`.
    Trapezoid,
    /// `rightArrow`.
    RightArrow,
    /// `leftArrow`.
    LeftArrow,
    /// `upArrow`.
    UpArrow,
    /// `downArrow`.
    DownArrow,
    /// `upDownArrow`.
    UpDownArrow,
    /// `leftRightArrow`.
    LeftRightArrow,
    /// `chevron`.
    Chevron,
    /// `homePlate`.
    HomePlate,
    /// `plus`, `flowChartSummingJunction`.
    Plus,
    /// `star5`.
    Star5,
}

/// One shape of a group, placed in the group's box.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupChild {
    /// Offset from the group's corner, EMU, already scaled from child coordinates.
    pub offset: (Emu, Emu),
    /// Size, EMU, scaled likewise.
    pub extent: (Emu, Emu),
    /// The child's look.
    pub style: ShapeStyle,
}

/// `wrapSquare@wrapText` (ST_WrapText, §20.4.3.7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WrapText {
    /// `bothSides`, also when absent or unknown: text on both sides.
    #[default]
    BothSides,
    /// `left`: text on the left side only.
    Left,
    /// `right`: text on the right side only.
    Right,
    /// `largest`: text on the wider side only.
    Largest,
}

/// One axis of an anchored shape's position (§20.4.2.10/11).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnchorPosition {
    /// `@relativeFrom` as written (`page`, `margin`, `column`, `paragraph`, `line`…).
    pub relative_from: Option<String>,
    /// `wp:posOffset`: the offset from that edge.
    pub offset: Option<Emu>,
    /// `wp:align` as written (`left`, `center`, `right`, `inside`, `outside`, `top`,
    /// `bottom`…), used instead of an offset.
    pub align: Option<String>,
    /// `wp14:pctPosHOffset`/`wp14:pctPosVOffset`: the offset as thousandths of a percent
    /// of the reference area's width or height (Word 2010), used before `offset`.
    pub percent: Option<i64>,
}

/// Inline content of a paragraph.
// Runs far outnumber the other variants, so boxing them would cost more than it saves.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Inline {
    /// A `w:r` (also inside `w:ins`, `w:hyperlink`, `w:smartTag`, `w:sdtContent`…).
    Run(Run),
    /// Start of a `w:hyperlink` (§17.16.22): an external target or an internal anchor.
    LinkStart(LinkTarget),
    /// End of the innermost open hyperlink.
    LinkEnd,
    /// A `w:bookmarkStart@w:name`.
    Bookmark(String),
}

/// Where a hyperlink points.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkTarget {
    /// A URI from the relationship's target.
    External(String),
    /// A bookmark name (`w:anchor`).
    Internal(String),
}

/// A `w:r` (§17.3.2.25).
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// `w:rStyle`.
    pub style: Option<String>,
    /// Direct run formatting.
    pub props: RunProps,
    /// Content in order.
    pub content: Vec<RunContent>,
}

/// What a run holds.
#[derive(Debug, Clone, PartialEq)]
pub enum RunContent {
    /// `w:t` text (or a field's cached result).
    Text(String),
    /// `w:tab`.
    Tab,
    /// `w:br` (§17.3.3.1).
    Break(BreakKind),
    /// `w:sym` (§17.3.3.30): a character in a symbol font.
    Symbol {
        /// `w:font`: the symbol font.
        font: Option<String>,
        /// `w:char`, written in hexadecimal: the character's code in that font.
        char: u32,
    },
    /// A page-dependent field that layout fills in after pagination.
    Field(FieldKind),
    /// A picture (`w:drawing` holding `pic:pic`, §20.4; or VML `v:imagedata`), inline or
    /// anchored.
    Picture(Box<Picture>),
    /// A footnote or endnote reference; its mark is numbered in reading order.
    NoteReference(NoteReference),
    /// `w:footnoteRef`/`w:endnoteRef` (§17.11.13, §17.11.6): inside a note, the note's
    /// own mark.
    NoteMark,
    /// A fraction of plain math text, numerator stacked over denominator (§22.1.2.36).
    Fraction(Box<Fraction>),
    /// A VML horizontal rule (`w:pict/v:rect` with `o:hr="t"`), as Word writes HTML's `<hr>`.
    HorizontalRule(HorizontalRule),
}

/// A horizontal rule (VML `v:rect` with `o:hr="t"`, the `o:hr*` Office extensions of
/// ECMA-376 Part 4): a bar across the text width or part of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HorizontalRule {
    /// `o:hrpct` as a fraction of the text width (written in tenths of a percent); 0 when
    /// absent or 0.
    pub fraction: f64,
    /// The `width` of the `style` when no percentage is given; `None` for the whole width.
    pub width: Option<Emu>,
    /// The `height` of the `style`.
    pub height: Emu,
    /// `o:hralign`.
    pub align: HorizontalRuleAlign,
    /// Drawn as Word's grey, bevelled standard rule (`o:hrstd` without `o:hrnoshade`);
    /// otherwise a plain bar of `color`.
    pub shaded: bool,
    /// `fillcolor`.
    pub color: Option<Color>,
}

/// `o:hralign`: where a rule narrower than the text sits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HorizontalRuleAlign {
    /// The VML default.
    #[default]
    Left,
    /// `center`.
    Center,
    /// `right`.
    Right,
}

/// A stacked fraction (`m:f` of the bar type, §22.1.2.36) whose parts are plain text.
#[derive(Debug, Clone, PartialEq)]
pub struct Fraction {
    /// `m:num`: the text above the bar.
    pub numerator: Vec<MathText>,
    /// `m:den`: the text below the bar.
    pub denominator: Vec<MathText>,
}

/// A piece of math text: variables italic, numbers and operators upright (§22.1.2.90).
#[derive(Debug, Clone, PartialEq)]
pub struct MathText {
    /// The characters of one math run.
    pub text: String,
    /// Set in italic, as math sets variables.
    pub italic: bool,
}

/// A picture as its drawing describes it, with the bytes of its media part.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The media part's bytes, shared by every drawing that shows the same part.
    pub data: Arc<[u8]>,
    /// The format sniffed from the bytes.
    pub format: ImageFormat,
    /// `wp:extent@cx,cy` (§20.4.2.7), or VML `width`/`height`.
    pub extent: (Emu, Emu),
    /// `a:srcRect` (§20.1.8.55).
    pub crop: Crop,
    /// `a:xfrm@rot,flipH,flipV` (§20.1.7.6).
    pub transform: PictureTransform,
    /// Where a floating picture goes; `None` for `wp:inline`. Boxed: most pictures are
    /// inline, and run content stays small.
    pub anchor: Option<Box<PictureAnchor>>,
    /// The text a metafile picture draws, set over it by layout.
    pub texts: Vec<PictureText>,
    /// `wp:effectExtent@l,t,r,b` (§20.4.2.6) of an inline picture: the room its effects
    /// take around the extent, which Word adds to the picture's box in the line.
    pub effect: Distances,
    /// The alternative text: `wp:docPr@descr`, else `@title` (§20.4.2.5); VML `@alt`.
    pub alt: Option<String>,
    /// Marked decorative (`adec:decorative@val`, Office 2019 extension in `wp:docPr`):
    /// no alternative text is needed, and tagged PDF makes it an artifact.
    pub decorative: bool,
}

/// A line of text a metafile picture draws (see `metafile_text`), in fractions of the
/// picture's box.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureText {
    /// Where the baseline starts (or is centred or ends, by `anchor`), from the box's
    /// top-left corner.
    pub x: f64,
    /// The baseline, from the box's top edge (see `x`).
    pub y: f64,
    /// The font's em height.
    pub height: f64,
    /// The text, trailing spaces removed.
    pub text: String,
    /// Which point of the text `x` gives, from the metafile's text alignment.
    pub anchor: TextAnchor,
    /// The metafile's text colour, sRGB.
    pub color: (u8, u8, u8),
    /// The metafile's font weighs 600 or more.
    pub bold: bool,
    /// The metafile's font is italic.
    pub italic: bool,
    /// The font's face name as the metafile gives it.
    pub face: String,
}

/// Which point of a text its position gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextAnchor {
    /// The text's left end.
    Left,
    /// The text's middle.
    Center,
    /// The text's right end.
    Right,
}

pub use crate::frame::ImageFormat;

/// `a:srcRect@l,t,r,b` (§20.1.8.55): how much of each edge is cut off, in thousandths of a
/// percent of the image (ST_Percentage); negative values add room.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Crop {
    /// `l`: cut from the left edge.
    pub left: i64,
    /// `t`: cut from the top edge.
    pub top: i64,
    /// `r`: cut from the right edge.
    pub right: i64,
    /// `b`: cut from the bottom edge.
    pub bottom: i64,
}

/// `a:xfrm` of the picture (§20.1.7.6).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PictureTransform {
    /// `@rot`, in 60,000ths of a degree, clockwise.
    pub rotation: i64,
    /// `@flipH`.
    pub flip_h: bool,
    /// `@flipV`.
    pub flip_v: bool,
}

/// A floating picture's placement (`wp:anchor`, §20.4.2.3).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PictureAnchor {
    /// `wp:positionH`.
    pub horizontal: Option<AnchorPosition>,
    /// `wp:positionV`.
    pub vertical: Option<AnchorPosition>,
    /// `@behindDoc`.
    pub behind_text: bool,
    /// The wrap element.
    pub wrap: Wrap,
    /// `@distT,distB,distL,distR`: room kept free around the picture.
    pub distance: Distances,
    /// `wrapSquare@wrapText`.
    pub wrap_text: WrapText,
}

/// How text wraps around a floating picture (§20.4.2.15–20).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Wrap {
    /// `wp:wrapNone`: in front of or behind the text.
    #[default]
    None,
    /// `wp:wrapSquare`; `wrapTight` and `wrapThrough` are read as this too.
    Square,
    /// `wp:wrapTopAndBottom`.
    TopAndBottom,
}

/// `distT/B/L/R` of an anchor, in EMU.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Distances {
    /// `distT`: room kept free above.
    pub top: Emu,
    /// `distB`: room kept free below.
    pub bottom: Emu,
    /// `distL`: room kept free on the left.
    pub left: Emu,
    /// `distR`: room kept free on the right.
    pub right: Emu,
}

/// The kinds of `w:br`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakKind {
    /// `textWrapping` (the default), and `w:cr`: a new line.
    Line,
    /// `page`: a new page.
    Page,
    /// `column`: a new column.
    Column,
}

/// Fields whose value comes from pagination (§17.16.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// `PAGE`, and the legacy `w:pgNum`: the number of the page it is on.
    Page,
    /// `NUMPAGES`: the document's page count.
    NumPages,
    /// `SECTIONPAGES`: the page count of the section it is in.
    SectionPages,
    /// `PAGEREF bookmark` (§17.16.5.45): the page number where the bookmark lands; the
    /// cached result sets the room it takes in the line.
    PageRef {
        /// The bookmark's name, the field's first argument.
        bookmark: Arc<str>,
        /// The field's result as Word last computed it, trimmed.
        cached: Arc<str>,
    },
}

/// Run properties as written (§17.3.2). Toggle properties keep `Some(false)` apart from
/// `None`, because an explicit false overrides a style (§17.7.3).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunProps {
    /// `w:rFonts` (§17.3.2.26): the font of each script slot.
    pub fonts: FontSlots,
    /// `w:sz`.
    pub size: Option<HalfPoints>,
    /// `w:szCs`.
    pub size_cs: Option<HalfPoints>,
    /// `w:b`.
    pub bold: Option<bool>,
    /// `w:i`.
    pub italic: Option<bool>,
    /// `w:caps` (§17.3.2.5): lowercase letters shown as capitals.
    pub caps: Option<bool>,
    /// `w:smallCaps` (§17.3.2.33): lowercase letters shown as small capitals.
    pub small_caps: Option<bool>,
    /// `w:strike`: one line through the text.
    pub strike: Option<bool>,
    /// `w:dstrike`: two lines through the text.
    pub double_strike: Option<bool>,
    /// `w:vanish`: hidden text.
    pub vanish: Option<bool>,
    /// `w:u@w:val`; `Some(Underline::None)` clears an inherited underline.
    pub underline: Option<Underline>,
    /// `w:color@w:val`.
    pub color: Option<Color>,
    /// `w:highlight@w:val` as a colour.
    pub highlight: Option<Color>,
    /// `w:shd@w:fill`.
    pub shading: Option<Color>,
    /// `w:bdr` (§17.3.2.4): a border around the run's text.
    pub border: Option<Border>,
    /// `w:vertAlign`.
    pub vert_align: Option<VertAlign>,
    /// `w:position` (raised or lowered text).
    pub position: Option<HalfPoints>,
    /// `w:spacing` (character spacing) in twips.
    pub spacing: Option<Twips>,
    /// `w:rtl`.
    pub rtl: Option<bool>,
    /// `w:cs`: use the complex-script slot.
    pub complex_script: Option<bool>,
    /// `w:bCs`: bold for complex-script text (§17.3.2.2).
    pub bold_cs: Option<bool>,
    /// `w:iCs`: italic for complex-script text (§17.3.2.17).
    pub italic_cs: Option<bool>,
    /// `w:u@w:color`: the underline colour when it differs from the text.
    pub underline_color: Option<Color>,
    /// `w:kern`: kerning starts at this font size (§17.3.2.19).
    pub kern: Option<HalfPoints>,
    /// `w:w`: horizontal text scale in percent (§17.3.2.43).
    pub scale: Option<u32>,
    /// `w:outline` (§17.3.2.23).
    pub outline: Option<bool>,
    /// `w:shadow` (§17.3.2.31).
    pub shadow: Option<bool>,
    /// `w:emboss` (§17.3.2.13).
    pub emboss: Option<bool>,
    /// `w:imprint` (§17.3.2.18).
    pub imprint: Option<bool>,
    /// `w:color@w:themeColor` as written; `color` already holds its value.
    pub theme_color: Option<ThemeColorRef>,
    /// `w:lang` (§17.3.2.20): the languages of the text, per script.
    pub lang: Option<Lang>,
}

/// `w:lang` (§17.3.2.20): BCP 47 tags as written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lang {
    /// `w:val`: Latin text.
    pub latin: Option<String>,
    /// `w:eastAsia`.
    pub east_asia: Option<String>,
    /// `w:bidi`: complex-script text.
    pub bidi: Option<String>,
}

/// `w:rFonts` (§17.3.2.26). A theme attribute overrides its explicit twin.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FontSlots {
    /// `w:ascii`/`w:asciiTheme`: characters U+0000–U+007F.
    pub ascii: Option<FontRef>,
    /// `w:hAnsi`/`w:hAnsiTheme`: other characters of no East Asian or complex script.
    pub h_ansi: Option<FontRef>,
    /// `w:eastAsia`/`w:eastAsiaTheme`: East Asian characters.
    pub east_asia: Option<FontRef>,
    /// `w:cs`/`w:cstheme`: complex-script characters.
    pub cs: Option<FontRef>,
    /// `w:hint="eastAsia"`.
    pub hint_east_asia: Option<bool>,
}

/// A font named directly or through the theme.
#[derive(Debug, Clone, PartialEq)]
pub enum FontRef {
    /// A family name, as written.
    Named(String),
    /// A theme font, looked up in the theme's font scheme.
    Theme(ThemeFont),
}

/// `ST_Theme` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeFont {
    /// `majorAscii`: the major Latin font.
    MajorAscii,
    /// `majorHAnsi`: the major Latin font.
    MajorHAnsi,
    /// `majorEastAsia`: the major East Asian font.
    MajorEastAsia,
    /// `majorBidi`: the major complex-script font.
    MajorBidi,
    /// `minorAscii`: the minor Latin font.
    MinorAscii,
    /// `minorHAnsi`: the minor Latin font.
    MinorHAnsi,
    /// `minorEastAsia`: the minor East Asian font.
    MinorEastAsia,
    /// `minorBidi`: the minor complex-script font.
    MinorBidi,
}

/// An sRGB colour, or `auto`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Color {
    /// `auto`: the context's default; black for text.
    #[default]
    Auto,
    /// Red, green and blue, 0–255.
    Rgb(u8, u8, u8),
}

/// Underline styles that are drawn differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Underline {
    /// `none`: no underline.
    None,
    /// `single`, a `w:u` without `w:val`, and any style not below.
    Single,
    /// `double`.
    Double,
    /// `thick`.
    Thick,
    /// `dotted`, `dottedHeavy`.
    Dotted,
    /// `dash`, `dashLong`, `dotDash`, `dotDotDash` and their heavy forms.
    Dashed,
    /// `wave`, `wavyHeavy`, `wavyDouble`.
    Wave,
    /// `words`: under the words, not the spaces between them.
    Words,
}

/// `w:vertAlign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VertAlign {
    /// `baseline`: neither raised nor lowered.
    Baseline,
    /// `superscript`.
    Superscript,
    /// `subscript`.
    Subscript,
}

/// Paragraph properties as written (§17.3.1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParagraphProps {
    /// `w:jc`.
    pub align: Option<Align>,
    /// `w:ind` (§17.3.1.12).
    pub indent: Indent,
    /// `w:spacing` (§17.3.1.33).
    pub spacing: Spacing,
    /// `w:keepNext`: kept on the page of the next paragraph.
    pub keep_next: Option<bool>,
    /// `w:keepLines`: all of its lines kept on one page.
    pub keep_lines: Option<bool>,
    /// `w:pageBreakBefore`: starts on a new page.
    pub page_break_before: Option<bool>,
    /// `w:widowControl` (§17.3.1.44): no first or last line left alone on a page.
    pub widow_control: Option<bool>,
    /// `w:contextualSpacing`: no space before or after beside a paragraph of the same
    /// style.
    pub contextual_spacing: Option<bool>,
    /// `w:mirrorIndents` (§17.3.1.18): the left and right indents are inside and outside.
    pub mirror_indents: Option<bool>,
    /// `w:bidi`.
    pub bidi: Option<bool>,
    /// `w:tabs`, in the order written.
    pub tabs: Vec<TabStop>,
    /// `w:numPr`.
    pub numbering: Option<NumberingRef>,
    /// `w:shd@w:fill`.
    pub shading: Option<Color>,
    /// `w:pBdr`.
    pub borders: ParagraphBorders,
    /// `w:outlineLvl` (§17.3.1.20): 0–8 for outline levels 1–9; 9 is body text.
    pub outline_level: Option<u8>,
    /// `w:snapToGrid` (§17.3.1.32): line heights follow the section's document grid.
    pub snap_to_grid: Option<bool>,
    /// `w:textAlignment` (§17.3.1.39): vertical alignment of characters on a line.
    pub text_alignment: Option<TextAlignment>,
    /// `w:suppressAutoHyphens` (§17.3.1.34).
    pub suppress_auto_hyphens: Option<bool>,
    /// `w:kinsoku` (§17.3.1.16): East Asian line-breaking rules apply.
    pub kinsoku: Option<bool>,
    /// `w:wordWrap` (§17.3.1.45): off lets Word break Korean words between syllables.
    pub word_wrap: Option<bool>,
    /// `w:autoSpaceDE` (§17.3.1.2): space between East Asian and Latin text.
    pub auto_space_de: Option<bool>,
    /// `w:autoSpaceDN` (§17.3.1.3): space between East Asian text and numbers.
    pub auto_space_dn: Option<bool>,
    /// `w:framePr` (§17.3.1.11): a text frame or drop cap.
    pub frame: Option<Box<FrameProps>>,
}

/// `ST_TextAlignment` (§17.18.91).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextAlignment {
    /// `top`.
    Top,
    /// `center`.
    Center,
    /// `baseline`.
    Baseline,
    /// `bottom`.
    Bottom,
    /// `auto`.
    Auto,
}

/// `w:framePr` (§17.3.1.11) as written; enumerated values are kept as their ST names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameProps {
    /// `w:w`.
    pub width: Option<Twips>,
    /// `w:h`.
    pub height: Option<Twips>,
    /// `w:hRule` (`auto`, `atLeast`, `exact`).
    pub height_rule: Option<String>,
    /// `w:hSpace`: distance from the text beside.
    pub h_space: Option<Twips>,
    /// `w:vSpace`.
    pub v_space: Option<Twips>,
    /// `w:wrap` (`auto`, `notBeside`, `around`, `tight`, `through`, `none`).
    pub wrap: Option<String>,
    /// `w:hAnchor` (`text`, `margin`, `page`).
    pub h_anchor: Option<String>,
    /// `w:vAnchor` (`text`, `margin`, `page`).
    pub v_anchor: Option<String>,
    /// `w:x`.
    pub x: Option<Twips>,
    /// `w:xAlign` (`left`, `center`, `right`, `inside`, `outside`).
    pub x_align: Option<String>,
    /// `w:y`.
    pub y: Option<Twips>,
    /// `w:yAlign` (`inline`, `top`, `center`, `bottom`, `inside`, `outside`).
    pub y_align: Option<String>,
    /// `w:dropCap` (`none`, `drop`, `margin`).
    pub drop_cap: Option<String>,
    /// `w:lines`: a drop cap's height in lines.
    pub lines: Option<i64>,
}

/// `w:jc` values for paragraphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// `left`, `start`, `numTab`.
    Left,
    /// `center`.
    Center,
    /// `right`, `end`.
    Right,
    /// `both` and the kashida values: justified, the last line not.
    Both,
    /// `distribute`, `thaiDistribute`: justified, the last line too.
    Distribute,
}

/// `w:ind` (§17.3.1.12), each side in twips.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Indent {
    /// `w:left` (strict `w:start`).
    pub left: Option<Twips>,
    /// `w:right` (strict `w:end`).
    pub right: Option<Twips>,
    /// `w:firstLine`: the first line starts this much further in.
    pub first_line: Option<Twips>,
    /// `w:hanging`: the first line starts this much further out.
    pub hanging: Option<Twips>,
    /// `w:leftChars`/`w:startChars`, in hundredths of a character; wins over `left`.
    pub left_chars: Option<i64>,
    /// `w:rightChars`/`w:endChars`, in hundredths of a character; wins over `right`.
    pub right_chars: Option<i64>,
    /// `w:firstLineChars`, in hundredths of a character; wins over `first_line`.
    pub first_line_chars: Option<i64>,
    /// `w:hangingChars`, in hundredths of a character; wins over `hanging`.
    pub hanging_chars: Option<i64>,
}

/// `w:spacing` (§17.3.1.33).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spacing {
    /// `w:before`: space above.
    pub before: Option<Twips>,
    /// `w:after`: space below.
    pub after: Option<Twips>,
    /// `w:beforeAutospacing`: Word's automatic space above replaces `before`.
    pub before_autospacing: Option<bool>,
    /// `w:afterAutospacing`: Word's automatic space below replaces `after`.
    pub after_autospacing: Option<bool>,
    /// `w:line` with its rule.
    pub line: Option<LineSpacing>,
    /// `w:beforeLines`, in hundredths of a line; wins over `before`.
    pub before_lines: Option<i64>,
    /// `w:afterLines`, in hundredths of a line; wins over `after`.
    pub after_lines: Option<i64>,
}

/// Line spacing with its `w:lineRule`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LineSpacing {
    /// `auto`: in 240ths of a single line.
    Auto(i64),
    /// `exact`: fixed height.
    Exact(Twips),
    /// `atLeast`: a minimum height.
    AtLeast(Twips),
}

/// A `w:tab` stop (§17.3.1.37).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TabStop {
    /// `w:val`.
    pub kind: TabKind,
    /// `w:pos`: from the text margin.
    pub pos: Twips,
    /// `w:leader`: what fills the room before the stop.
    pub leader: TabLeader,
}

/// `w:tab@w:val`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabKind {
    /// `left`, `start` and any value not below.
    Left,
    /// `center`.
    Center,
    /// `right`, `end`.
    Right,
    /// `decimal`: the decimal separator sits at the stop.
    Decimal,
    /// `bar`: a vertical line at the position, not a stop.
    Bar,
    /// `clear`: removes an inherited stop at this position.
    Clear,
}

/// `w:tab@w:leader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabLeader {
    /// `none`, also when absent or unknown.
    None,
    /// `dot`.
    Dot,
    /// `hyphen`.
    Hyphen,
    /// `underscore`, `heavy`.
    Underscore,
    /// `middleDot`.
    MiddleDot,
}

/// `w:numPr` (§17.3.1.19): list membership; `num_id` and `level` fold separately
/// through the style cascade.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NumberingRef {
    /// `w:numId`: the `w:num` list instance; 0 takes the paragraph out of a list.
    pub num_id: Option<i64>,
    /// `w:ilvl`: the list level, 0–8.
    pub level: Option<u8>,
}

/// `w:pBdr` sides.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ParagraphBorders {
    /// `w:top`.
    pub top: Option<Border>,
    /// `w:bottom`.
    pub bottom: Option<Border>,
    /// `w:left` (strict `w:start`).
    pub left: Option<Border>,
    /// `w:right` (strict `w:end`).
    pub right: Option<Border>,
    /// `w:between`: drawn between paragraphs that share the same borders (§17.3.1.5).
    pub between: Option<Border>,
}

/// One border line (§17.3.4).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Border {
    /// `false` for `none`/`nil`.
    pub visible: bool,
    /// `w:sz`; 0 when not written.
    pub width: EighthPoints,
    /// `w:space` in points.
    pub space: i64,
    /// `w:color`, or `w:themeColor` through the theme; `Auto` when absent.
    pub color: Color,
    /// `w:val`, grouped by how the line is drawn.
    pub style: LineStyle,
}

/// `ST_Border` values (§17.18.2), grouped by how the line is drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LineStyle {
    /// `none` or `nil`.
    None,
    /// `single` (and any art or 3-D border drawn as a plain line).
    #[default]
    Single,
    /// `thick`.
    Thick,
    /// `double`.
    Double,
    /// `triple`.
    Triple,
    /// `dotted`.
    Dotted,
    /// `dashed`, `dashSmallGap`.
    Dashed,
    /// `dotDash`.
    DotDash,
    /// `dotDotDash`.
    DotDotDash,
    /// `wave`, `doubleWave`.
    Wave,
    /// `thinThickSmallGap`, `thinThickMediumGap`, `thinThickLargeGap`: a thin line, a gap,
    /// a thick line (top to bottom, left to right).
    ThinThick(Gap),
    /// `thickThinSmallGap`… : a thick line, a gap, a thin line.
    ThickThin(Gap),
    /// `thinThickThinSmallGap`… : a thick line between two thin ones.
    ThinThickThin(Gap),
}

/// The gap of the thin/thick border pairs (§17.18.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gap {
    /// `…SmallGap`.
    Small,
    /// `…MediumGap`.
    Medium,
    /// `…LargeGap`.
    Large,
}

/// A `w:tbl` (§17.4.38).
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// `w:tblStyle`.
    pub style: Option<String>,
    /// `w:tblGrid/w:gridCol@w:w`.
    pub grid: Vec<Twips>,
    /// `w:tblW`.
    pub width: Option<Width>,
    /// `w:tblInd`.
    pub indent: Option<Twips>,
    /// `w:jc`.
    pub align: Option<Align>,
    /// `w:tblBorders`.
    pub borders: TableBorders,
    /// `w:tblCellMar` (left, top, right, bottom).
    pub cell_margins: CellMargins,
    /// The `w:tr` rows, tracked deletions dropped.
    pub rows: Vec<TableRow>,
    /// `w:tblLayout` (§17.4.53); `None` is autofit.
    pub layout: Option<TableLayout>,
    /// `w:tblLook` (§17.4.56): which conditional parts of the table style apply.
    pub look: TableLook,
    /// `w:tblpPr` (§17.4.58): a floating table's place; `None` for a table in the flow.
    pub position: Option<Box<TablePosition>>,
}

/// Where a floating table goes (`w:tblpPr`, §17.4.58), as an anchored shape's position:
/// `horzAnchor`/`vertAnchor` (`text` is the column and the paragraph) with `tblpX`/`tblpY`
/// or `tblpXSpec`/`tblpYSpec`, and the `…FromText` distances the text keeps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TablePosition {
    /// `w:horzAnchor` (`text`, the default, read as `column`) with `w:tblpX` (as EMU) or
    /// `w:tblpXSpec`.
    pub horizontal: AnchorPosition,
    /// `w:vertAnchor` (`text`, the default, read as `paragraph`) with `w:tblpY` (as EMU) or
    /// `w:tblpYSpec`.
    pub vertical: AnchorPosition,
    /// `w:topFromText`, `w:bottomFromText`, `w:leftFromText`, `w:rightFromText`, as EMU.
    pub distance: Distances,
}

/// `w:tblLayout@w:type` (ST_TblLayoutType).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableLayout {
    /// Column widths come from the grid and `w:tblW`; content never widens them.
    Fixed,
    /// Columns size to their content.
    Autofit,
}

/// `w:tblLook` (§17.4.56), from its attributes or the legacy hex `w:val`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableLook {
    /// Apply the style's first-row formatting.
    pub first_row: Option<bool>,
    /// Apply the style's last-row formatting.
    pub last_row: Option<bool>,
    /// Apply the style's first-column formatting.
    pub first_column: Option<bool>,
    /// Apply the style's last-column formatting.
    pub last_column: Option<bool>,
    /// Do not apply row banding.
    pub no_h_band: Option<bool>,
    /// Do not apply column banding.
    pub no_v_band: Option<bool>,
}

/// A `w:tblPr` as written (§17.4.60), as a table style holds it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableProps {
    /// `w:tblW`.
    pub width: Option<Width>,
    /// `w:tblInd`.
    pub indent: Option<Twips>,
    /// `w:jc`.
    pub align: Option<Align>,
    /// `w:tblBorders`.
    pub borders: TableBorders,
    /// `w:tblCellMar`.
    pub cell_margins: CellMargins,
    /// `w:tblLayout`.
    pub layout: Option<TableLayout>,
    /// `w:tblStyleRowBandSize` (§17.7.6.7).
    pub row_band_size: Option<u32>,
    /// `w:tblStyleColBandSize` (§17.7.6.5).
    pub col_band_size: Option<u32>,
}

/// A `w:tcPr` as a table style holds it (§17.7.6).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellProps {
    /// `w:tcBorders`.
    pub borders: TableBorders,
    /// `w:shd@w:fill`.
    pub shading: Option<Color>,
    /// `w:tcMar`.
    pub margins: CellMargins,
    /// `w:vAlign`.
    pub v_align: Option<CellVAlign>,
}

/// What a table style (`w:style w:type="table"`) holds beyond `pPr`/`rPr` (§17.7.6).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableStyleProps {
    /// The style's `w:tblPr`.
    pub table: TableProps,
    /// The style's `w:tcPr`.
    pub cell: CellProps,
    /// The `w:tblStylePr` conditional parts, in the order written.
    pub conditions: Vec<TableCondition>,
}

/// A `w:tblStylePr` (§17.7.6.6): formatting for one region of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableCondition {
    /// `w:type`.
    pub region: TableRegion,
    /// The region's `w:pPr`.
    pub paragraph: ParagraphProps,
    /// The region's `w:rPr`.
    pub run: RunProps,
    /// The region's `w:tblPr`.
    pub table: TableProps,
    /// The region's `w:tcPr`.
    pub cell: CellProps,
}

/// `ST_TblStyleOverrideType` (§17.18.89).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableRegion {
    /// `wholeTable`.
    WholeTable,
    /// `firstRow`.
    FirstRow,
    /// `lastRow`.
    LastRow,
    /// `firstCol`.
    FirstColumn,
    /// `lastCol`.
    LastColumn,
    /// `band1Vert`: odd column bands.
    Band1Vertical,
    /// `band2Vert`: even column bands.
    Band2Vertical,
    /// `band1Horz`: odd row bands.
    Band1Horizontal,
    /// `band2Horz`: even row bands.
    Band2Horizontal,
    /// `neCell`: the top right cell.
    NeCell,
    /// `nwCell`: the top left cell.
    NwCell,
    /// `seCell`: the bottom right cell.
    SeCell,
    /// `swCell`: the bottom left cell.
    SwCell,
}

/// A width with its `w:type` (§17.18.90).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Width {
    /// `auto`, `nil`, or a width of 0.
    Auto,
    /// `dxa`, also when `w:type` is absent.
    Dxa(Twips),
    /// Fiftieths of a percent (5000 = 100 %).
    Pct(i64),
}

/// `w:tblBorders`/`w:tcBorders`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TableBorders {
    /// `w:top`.
    pub top: Option<Border>,
    /// `w:left` (strict `w:start`).
    pub left: Option<Border>,
    /// `w:bottom`.
    pub bottom: Option<Border>,
    /// `w:right` (strict `w:end`).
    pub right: Option<Border>,
    /// `w:insideH`: between rows.
    pub inside_h: Option<Border>,
    /// `w:insideV`: between columns.
    pub inside_v: Option<Border>,
}

/// `w:tblCellMar`/`w:tcMar`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CellMargins {
    /// `w:top`.
    pub top: Option<Twips>,
    /// `w:left` (strict `w:start`).
    pub left: Option<Twips>,
    /// `w:bottom`.
    pub bottom: Option<Twips>,
    /// `w:right` (strict `w:end`).
    pub right: Option<Twips>,
}

/// A `w:tr`.
#[derive(Debug, Clone, Default)]
pub struct TableRow {
    /// `w:trHeight` with its rule.
    pub height: Option<RowHeight>,
    /// `w:tblHeader`.
    pub header: bool,
    /// `w:cantSplit`.
    pub cant_split: bool,
    /// `w:gridBefore`.
    pub grid_before: u32,
    /// The `w:tc` cells, in order.
    pub cells: Vec<TableCell>,
    /// `w:gridAfter`.
    pub grid_after: u32,
}

/// `w:trHeight`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowHeight {
    /// `atLeast`, also when `w:hRule` is absent: a minimum height.
    AtLeast(Twips),
    /// `exact`: a fixed height.
    Exact(Twips),
}

/// A `w:tc`.
#[derive(Debug, Clone, Default)]
pub struct TableCell {
    /// `w:tcW`.
    pub width: Option<Width>,
    /// `w:gridSpan`, at least 1.
    pub grid_span: u32,
    /// `w:vMerge`.
    pub v_merge: Option<VMerge>,
    /// `w:tcBorders`.
    pub borders: TableBorders,
    /// `w:shd@w:fill`.
    pub shading: Option<Color>,
    /// `w:tcMar`.
    pub margins: CellMargins,
    /// `w:vAlign`.
    pub v_align: Option<CellVAlign>,
    /// The cell's paragraphs and tables.
    pub blocks: Vec<Block>,
    /// `w:hMerge` (legacy horizontal merge, §17.4.22).
    pub h_merge: Option<VMerge>,
}

/// `w:vMerge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VMerge {
    /// `restart`: the first cell of a merged group.
    Restart,
    /// `continue`, also when `w:val` is absent: part of the group the cell before is in.
    Continue,
}

/// `w:vAlign` of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellVAlign {
    /// `top`.
    Top,
    /// `center`, `both`.
    Center,
    /// `bottom`.
    Bottom,
}

/// `w:sectPr` (§17.6.17). Every field is as written; `resolve` supplies Word's defaults.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SectionProps {
    /// `w:pgSz@w:w`.
    pub page_width: Option<Twips>,
    /// `w:pgSz@w:h`.
    pub page_height: Option<Twips>,
    /// `w:pgMar@w:top` (§17.6.11); may be negative.
    pub margin_top: Option<Twips>,
    /// `w:pgMar@w:bottom`; may be negative.
    pub margin_bottom: Option<Twips>,
    /// `w:pgMar@w:left` (strict `w:start`).
    pub margin_left: Option<Twips>,
    /// `w:pgMar@w:right` (strict `w:end`).
    pub margin_right: Option<Twips>,
    /// `w:pgMar@w:header`: from the top edge of the page to the header.
    pub margin_header: Option<Twips>,
    /// `w:pgMar@w:footer`: from the bottom edge of the page to the footer.
    pub margin_footer: Option<Twips>,
    /// `w:pgMar@w:gutter`: room added for binding.
    pub gutter: Option<Twips>,
    /// `w:type`.
    pub start: Option<SectionStart>,
    /// `w:cols@w:num`.
    pub columns: Option<u32>,
    /// `w:cols@w:space`.
    pub column_space: Option<Twips>,
    /// `w:titlePg`.
    pub title_page: bool,
    /// `w:pgNumType@w:start`.
    pub page_number_start: Option<i64>,
    /// Header relationship ids by kind.
    pub headers: HeaderFooterRefs,
    /// Footer relationship ids by kind.
    pub footers: HeaderFooterRefs,
    /// `w:cols@w:equalWidth`; `false` means the `column_defs` widths apply.
    pub equal_width: Option<bool>,
    /// `w:cols@w:sep`: a line between columns.
    pub column_separator: bool,
    /// `w:cols/w:col` (§17.6.3): each column's width and the space after it, for unequal
    /// columns.
    pub column_defs: Vec<ColumnDef>,
    /// `w:pgNumType@w:fmt`.
    pub page_number_format: Option<NumberFormat>,
    /// `w:docGrid` (§17.6.5).
    pub doc_grid: Option<DocGrid>,
    /// `w:vAlign` (§17.6.23): vertical alignment of text on the page.
    pub v_align: Option<PageVAlign>,
    /// `w:bidi` (§17.6.1): the section is right to left (column order, gutter).
    pub bidi: bool,
    /// `w:rtlGutter` (§17.6.16): the gutter is on the right.
    pub rtl_gutter: bool,
    /// `w:lnNumType` (§17.6.8): line numbering.
    pub line_numbering: Option<LineNumbering>,
    /// `w:footnotePr` for this section.
    pub footnote_props: Option<NoteProps>,
    /// `w:endnotePr` for this section.
    pub endnote_props: Option<NoteProps>,
    /// `w:pgBorders` (§17.6.10).
    pub page_borders: Option<PageBorders>,
}

/// `w:pgBorders` (§17.6.10) as written. An art border (`w:val` naming a picture, such as
/// `apples`) is read as a single line whose width is its `w:sz` in points (§17.3.4).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PageBorders {
    /// `w:top`.
    pub top: Option<Border>,
    /// `w:left` (strict `w:start`).
    pub left: Option<Border>,
    /// `w:bottom`.
    pub bottom: Option<Border>,
    /// `w:right` (strict `w:end`).
    pub right: Option<Border>,
    /// `w:display`: the pages of the section that show the borders.
    pub display: PageBorderDisplay,
    /// `w:offsetFrom="page"`: `w:space` is measured from the page edge, not from the text.
    pub from_page_edge: bool,
    /// `w:zOrder="back"`: the borders are painted behind the text.
    pub behind_text: bool,
}

/// `ST_PageBorderDisplay` (§17.18).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PageBorderDisplay {
    /// `allPages`, also when absent.
    #[default]
    AllPages,
    /// `firstPage`: the section's first page only.
    FirstPage,
    /// `notFirstPage`: every page of the section but the first.
    NotFirstPage,
}

/// A `w:col` (§17.6.3).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ColumnDef {
    /// `w:w`.
    pub width: Option<Twips>,
    /// `w:space`: the gap after this column.
    pub space: Option<Twips>,
}

/// `w:docGrid` (§17.6.5).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DocGrid {
    /// `w:type`; `None` when absent (no grid).
    pub kind: Option<DocGridType>,
    /// `w:linePitch`: the grid's line height.
    pub line_pitch: Option<Twips>,
    /// `w:charSpace`: extra character pitch, in 4096ths of a point, as written.
    pub char_space: Option<i64>,
}

/// `ST_DocGrid` (§17.18.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocGridType {
    /// `default`: no grid.
    Default,
    /// `lines`.
    Lines,
    /// `linesAndChars`.
    LinesAndChars,
    /// `snapToChars`.
    SnapToChars,
}

/// `ST_VerticalJc` (§17.18.101) for a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageVAlign {
    /// `top`.
    Top,
    /// `center`.
    Center,
    /// `both`: lines spread over the page.
    Both,
    /// `bottom`.
    Bottom,
}

/// `w:lnNumType` (§17.6.8) as written.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LineNumbering {
    /// `w:countBy`: number every n-th line.
    pub count_by: Option<i64>,
    /// `w:start`.
    pub start: Option<i64>,
    /// `w:distance`: from the text.
    pub distance: Option<Twips>,
    /// `w:restart`.
    pub restart: Option<LineNumberRestart>,
}

/// `ST_LineNumberRestart` (§17.18.48).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineNumberRestart {
    /// `newPage`: numbers start again on each page.
    NewPage,
    /// `newSection`: numbers start again in each section.
    NewSection,
    /// `continuous`: numbers run on from the previous section.
    Continuous,
}

/// `w:headerReference`/`w:footerReference` by `w:type` (§17.10.5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeaderFooterRefs {
    /// `default`, also when `w:type` is absent: the `r:id` for odd pages, or all of them.
    pub default: Option<String>,
    /// `first`: the `r:id` for the section's first page, with `w:titlePg`.
    pub first: Option<String>,
    /// `even`: the `r:id` for even pages, with `w:evenAndOddHeaders`.
    pub even: Option<String>,
}

/// `ST_SectionMark`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionStart {
    /// `nextPage`: on a new page.
    NextPage,
    /// `continuous`: on the same page.
    Continuous,
    /// `evenPage`: on the next even page.
    EvenPage,
    /// `oddPage`: on the next odd page.
    OddPage,
    /// `nextColumn`: in the next column.
    NextColumn,
}

/// `word/numbering.xml` (§17.9): abstract list definitions and the list instances
/// paragraphs point at.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NumberingDefs {
    /// `w:abstractNum` by `w:abstractNumId`.
    pub abstracts: FastMap<i64, AbstractNum>,
    /// `w:num` by `w:numId`.
    pub nums: FastMap<i64, NumInstance>,
    /// `w:numPicBullet` (§17.9.20) by `w:numPicBulletId`: the picture a level's
    /// `w:lvlPicBulletId` draws in place of its bullet.
    pub picture_bullets: FastMap<i64, Picture>,
}

/// `w:abstractNum` (§17.9.1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AbstractNum {
    /// `w:lvl` by `w:ilvl` (0–8).
    pub levels: [Option<ListLevel>; 9],
    /// `w:numStyleLink` (§17.9.21): the levels live in the abstract the numbering style's
    /// `numPr` points at.
    pub num_style_link: Option<String>,
    /// `w:styleLink` (§17.9.27): this abstract defines the named numbering style.
    pub style_link: Option<String>,
}

/// One `w:lvl` (§17.9.6).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListLevel {
    /// `w:start` (§17.9.25).
    pub start: Option<i64>,
    /// `w:numFmt` (§17.9.17); `bullet`, `none`, `decimalZero`, `ordinal` are `Other`.
    pub format: Option<NumberFormat>,
    /// `w:lvlText@w:val` (§17.9.11).
    pub text: Option<String>,
    /// `w:lvlJc` (§17.9.7).
    pub justification: Option<Align>,
    /// `w:suff` (§17.9.28).
    pub suffix: Option<ListSuffix>,
    /// `w:isLgl` (§17.9.4): every level shows as a decimal number.
    pub is_legal: bool,
    /// `w:lvlRestart` (§17.9.10): restart after this 1-based level; 0 never restarts.
    pub restart: Option<u8>,
    /// `w:pPr`: indents and tabs of the level.
    pub paragraph: ParagraphProps,
    /// `w:rPr`: the number's run properties.
    pub run: RunProps,
    /// `w:lvlPicBulletId` (§17.9.12): the picture bullet drawn in place of the text.
    pub picture_bullet: Option<i64>,
}

/// `ST_LevelSuffix` (§17.18.49): what follows the number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListSuffix {
    /// `tab`, and any value not below: a tab.
    #[default]
    Tab,
    /// `space`: a space.
    Space,
    /// `nothing`: the text follows the number directly.
    Nothing,
}

/// `w:num` (§17.9.15): a list instance of an abstract definition.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NumInstance {
    /// `w:abstractNumId`.
    pub abstract_id: i64,
    /// `w:lvlOverride` (§17.9.8), in the order written.
    pub overrides: Vec<LevelOverride>,
}

/// `w:lvlOverride`: a new start value or a whole replacement level.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LevelOverride {
    /// `w:ilvl`.
    pub level: u8,
    /// `w:startOverride` (§17.9.26).
    pub start: Option<i64>,
    /// A replacement `w:lvl`.
    pub replacement: Option<ListLevel>,
}

/// `word/styles.xml` (§17.7).
#[derive(Debug, Clone, Default)]
pub struct StyleSheet {
    /// `w:docDefaults/w:rPrDefault/w:rPr`.
    pub default_run: RunProps,
    /// `w:docDefaults/w:pPrDefault/w:pPr`.
    pub default_paragraph: ParagraphProps,
    /// Styles by `w:styleId`, looked up for every paragraph and run.
    pub styles: FastMap<String, Style>,
}

/// One `w:style`.
#[derive(Debug, Clone, Default)]
pub struct Style {
    /// `w:type`.
    pub kind: StyleKind,
    /// `w:name@w:val`.
    pub name: Option<String>,
    /// `w:basedOn`.
    pub based_on: Option<String>,
    /// `w:default="1"`.
    pub is_default: bool,
    /// `w:pPr`.
    pub paragraph: ParagraphProps,
    /// `w:rPr`.
    pub run: RunProps,
    /// A table style's `w:tblPr`, `w:tcPr` and `w:tblStylePr` parts.
    pub table: TableStyleProps,
}

/// `w:style@w:type`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StyleKind {
    /// `paragraph`, also when `w:type` is absent or unknown.
    #[default]
    Paragraph,
    /// `character`.
    Character,
    /// `table`.
    Table,
    /// `numbering`.
    Numbering,
}
