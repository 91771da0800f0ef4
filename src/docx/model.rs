//! The document "as written": plain data read from the package, before any style is
//! resolved. `None` means "not said here", so the cascade in `resolve` can fill it in.

use std::collections::HashMap;

use crate::units::{EighthPoints, HalfPoints, Twips};

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
    pub major_latin: Option<String>,
    pub minor_latin: Option<String>,
    pub major_east_asia: Option<String>,
    pub minor_east_asia: Option<String>,
    pub major_cs: Option<String>,
    pub minor_cs: Option<String>,
    /// `a:majorFont/a:font@script → @typeface` (e.g. `Jpan` → `游ゴシック Light`).
    pub major_by_script: HashMap<String, String>,
    /// `a:minorFont/a:font@script → @typeface`.
    pub minor_by_script: HashMap<String, String>,
}

/// Document information from `docProps/core.xml`.
#[derive(Debug, Clone, Default)]
pub struct CoreProps {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
}

/// A block-level item of the body, a cell, a header or a footer.
// Paragraphs far outnumber tables, so boxing the larger variant would cost more than it saves.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Block {
    Paragraph(Paragraph),
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
    /// Content in reading order (tracked deletions already dropped).
    pub inlines: Vec<Inline>,
    /// A `w:sectPr` in this paragraph's `w:pPr`: this paragraph closes a section.
    pub section: Option<Box<SectionProps>>,
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
    Symbol { font: Option<String>, char: u32 },
    /// A page-dependent field that layout fills in after pagination.
    Field(FieldKind),
}

/// The kinds of `w:br`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakKind {
    Line,
    Page,
    Column,
}

/// Fields whose value comes from pagination (§17.16.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Page,
    NumPages,
    SectionPages,
}

/// Run properties as written (§17.3.2). Toggle properties keep `Some(false)` apart from
/// `None`, because an explicit false overrides a style (§17.7.3).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunProps {
    pub fonts: FontSlots,
    /// `w:sz`.
    pub size: Option<HalfPoints>,
    /// `w:szCs`.
    pub size_cs: Option<HalfPoints>,
    pub bold: Option<bool>,
    pub italic: Option<bool>,
    pub caps: Option<bool>,
    pub small_caps: Option<bool>,
    pub strike: Option<bool>,
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
}

/// `w:rFonts` (§17.3.2.26). A theme attribute overrides its explicit twin.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FontSlots {
    pub ascii: Option<FontRef>,
    pub h_ansi: Option<FontRef>,
    pub east_asia: Option<FontRef>,
    pub cs: Option<FontRef>,
    /// `w:hint="eastAsia"`.
    pub hint_east_asia: Option<bool>,
}

/// A font named directly or through the theme.
#[derive(Debug, Clone, PartialEq)]
pub enum FontRef {
    Named(String),
    Theme(ThemeFont),
}

/// `ST_Theme` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeFont {
    MajorAscii,
    MajorHAnsi,
    MajorEastAsia,
    MajorBidi,
    MinorAscii,
    MinorHAnsi,
    MinorEastAsia,
    MinorBidi,
}

/// An sRGB colour, or `auto`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Color {
    #[default]
    Auto,
    Rgb(u8, u8, u8),
}

/// Underline styles that are drawn differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Underline {
    None,
    Single,
    Double,
    Thick,
    Dotted,
    Dashed,
    Wave,
    Words,
}

/// `w:vertAlign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VertAlign {
    Baseline,
    Superscript,
    Subscript,
}

/// Paragraph properties as written (§17.3.1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParagraphProps {
    /// `w:jc`.
    pub align: Option<Align>,
    pub indent: Indent,
    pub spacing: Spacing,
    pub keep_next: Option<bool>,
    pub keep_lines: Option<bool>,
    pub page_break_before: Option<bool>,
    pub widow_control: Option<bool>,
    pub contextual_spacing: Option<bool>,
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
}

/// `w:jc` values for paragraphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
    Both,
    Distribute,
}

/// `w:ind` (§17.3.1.12), each side in twips.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Indent {
    pub left: Option<Twips>,
    pub right: Option<Twips>,
    pub first_line: Option<Twips>,
    pub hanging: Option<Twips>,
}

/// `w:spacing` (§17.3.1.33).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spacing {
    pub before: Option<Twips>,
    pub after: Option<Twips>,
    pub before_autospacing: Option<bool>,
    pub after_autospacing: Option<bool>,
    /// `w:line` with its rule.
    pub line: Option<LineSpacing>,
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
    pub kind: TabKind,
    pub pos: Twips,
    pub leader: TabLeader,
}

/// `w:tab@w:val`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabKind {
    Left,
    Center,
    Right,
    Decimal,
    Bar,
    Clear,
}

/// `w:tab@w:leader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabLeader {
    None,
    Dot,
    Hyphen,
    Underscore,
    MiddleDot,
}

/// `w:numPr`: list membership, resolved against numbering.xml in a later issue.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NumberingRef {
    pub num_id: Option<i64>,
    pub level: Option<u8>,
}

/// `w:pBdr` sides.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ParagraphBorders {
    pub top: Option<Border>,
    pub bottom: Option<Border>,
    pub left: Option<Border>,
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
    /// `double` and the thin/thick pairs.
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
    pub rows: Vec<TableRow>,
    /// `w:tblLayout` (§17.4.53); `None` is autofit.
    pub layout: Option<TableLayout>,
    /// `w:tblLook` (§17.4.56): which conditional parts of the table style apply.
    pub look: TableLook,
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
    Auto,
    Dxa(Twips),
    /// Fiftieths of a percent (5000 = 100 %).
    Pct(i64),
}

/// `w:tblBorders`/`w:tcBorders`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TableBorders {
    pub top: Option<Border>,
    pub left: Option<Border>,
    pub bottom: Option<Border>,
    pub right: Option<Border>,
    pub inside_h: Option<Border>,
    pub inside_v: Option<Border>,
}

/// `w:tblCellMar`/`w:tcMar`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CellMargins {
    pub top: Option<Twips>,
    pub left: Option<Twips>,
    pub bottom: Option<Twips>,
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
    pub cells: Vec<TableCell>,
    /// `w:gridAfter`.
    pub grid_after: u32,
}

/// `w:trHeight`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowHeight {
    AtLeast(Twips),
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
    pub blocks: Vec<Block>,
    /// `w:hMerge` (legacy horizontal merge, §17.4.22).
    pub h_merge: Option<VMerge>,
}

/// `w:vMerge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VMerge {
    Restart,
    Continue,
}

/// `w:vAlign` of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellVAlign {
    Top,
    Center,
    Bottom,
}

/// `w:sectPr` (§17.6.17). Every field is as written; `resolve` supplies Word's defaults.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SectionProps {
    /// `w:pgSz@w:w`.
    pub page_width: Option<Twips>,
    /// `w:pgSz@w:h`.
    pub page_height: Option<Twips>,
    pub margin_top: Option<Twips>,
    pub margin_bottom: Option<Twips>,
    pub margin_left: Option<Twips>,
    pub margin_right: Option<Twips>,
    pub margin_header: Option<Twips>,
    pub margin_footer: Option<Twips>,
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
}

/// `w:headerReference`/`w:footerReference` by `w:type` (§17.10.5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeaderFooterRefs {
    pub default: Option<String>,
    pub first: Option<String>,
    pub even: Option<String>,
}

/// `ST_SectionMark`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionStart {
    NextPage,
    Continuous,
    EvenPage,
    OddPage,
    NextColumn,
}

/// `word/styles.xml` (§17.7).
#[derive(Debug, Clone, Default)]
pub struct StyleSheet {
    /// `w:docDefaults/w:rPrDefault/w:rPr`.
    pub default_run: RunProps,
    /// `w:docDefaults/w:pPrDefault/w:pPr`.
    pub default_paragraph: ParagraphProps,
    /// Styles by `w:styleId`.
    pub styles: HashMap<String, Style>,
}

/// One `w:style`.
#[derive(Debug, Clone, Default)]
pub struct Style {
    pub kind: StyleKind,
    /// `w:name@w:val`.
    pub name: Option<String>,
    /// `w:basedOn`.
    pub based_on: Option<String>,
    /// `w:default="1"`.
    pub is_default: bool,
    pub paragraph: ParagraphProps,
    pub run: RunProps,
    /// A table style's `w:tblPr`, `w:tcPr` and `w:tblStylePr` parts.
    pub table: TableStyleProps,
}

/// `w:style@w:type`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StyleKind {
    #[default]
    Paragraph,
    Character,
    Table,
    Numbering,
}
