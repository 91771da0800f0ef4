//! Style chains (`w:basedOn`, root first, cycles guarded) and property merging (§17.7.2).

use crate::docx::model::{
    CellMargins, CellProps, FontSlots, Indent, ParagraphBorders, ParagraphProps, RunProps, Spacing, Style,
    StyleKind, StyleSheet, TabKind, TabStop, TableBorders, TableCondition, TableProps, TableRegion,
};
use crate::fast_map::FastMap;
use crate::warning::Warning;

/// The deepest `basedOn` chain followed; Word's UI limits chains far below this.
const MAX_CHAIN: usize = 64;

/// One style level merged through its own `basedOn` chain.
#[derive(Debug, Clone, Default)]
pub(super) struct Level {
    /// Run properties of the chain, nearest style winning.
    pub run: RunProps,
    /// Paragraph properties of the chain, nearest style winning.
    pub paragraph: ParagraphProps,
    /// The first `w:name` of the chain (nearest first) that reads "heading N".
    pub heading: Option<u8>,
    /// The chain holds a "toc N" paragraph style (a table of contents entry).
    pub toc: bool,
    /// The style itself is named "Hyperlink".
    pub hyperlink: bool,
    /// The style itself is Word's Title (id or name "Title"): its first paragraph gives a
    /// document without a title property its title under PDF/UA (ISO 14289-1 §7.1).
    pub title: bool,
    /// A table style's `w:tblPr` through the chain.
    pub table: TableProps,
    /// A table style's `w:tcPr` through the chain.
    pub cell: CellProps,
    /// A table style's `w:tblStylePr` parts through the chain, one per region, the nearest
    /// style's properties winning within a region.
    pub conditions: Vec<TableCondition>,
}

/// The regions of a table style in the order Word applies them, later ones winning
/// (§17.7.6: whole table, banding, first/last column, first/last row, corner cells).
pub(super) const REGION_ORDER: [TableRegion; 13] = [
    TableRegion::WholeTable,
    TableRegion::Band1Vertical,
    TableRegion::Band2Vertical,
    TableRegion::Band1Horizontal,
    TableRegion::Band2Horizontal,
    TableRegion::FirstColumn,
    TableRegion::LastColumn,
    TableRegion::FirstRow,
    TableRegion::LastRow,
    TableRegion::NeCell,
    TableRegion::NwCell,
    TableRegion::SeCell,
    TableRegion::SwCell,
];

/// The bit of a region in a [`CellStyle`] mask.
pub(super) fn region_bit(region: TableRegion) -> u16 {
    1 << region as u16
}

/// A table style seen from one cell: the style id and the mask of the conditional regions
/// (bits of [`region_bit`]) that `w:tblLook` switches on for the cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct CellStyle<'a> {
    /// The table style id.
    pub style: &'a str,
    /// The regions the cell belongs to.
    pub regions: u16,
}

/// Style lookups with a cache of merged chains, one per style id.
pub(super) struct Cascade<'a> {
    sheet: &'a StyleSheet,
    cache: FastMap<&'a str, Level>,
    /// Table styles with their conditional `pPr`/`rPr` laid over, per cell region mask.
    cell_cache: FastMap<CellStyle<'a>, Level>,
    /// The `w:default="1"` paragraph style id.
    pub default_paragraph: Option<&'a str>,
    /// The `w:default="1"` character style id.
    pub default_character: Option<&'a str>,
    /// The `w:default="1"` table style id.
    pub default_table: Option<&'a str>,
    /// Problems met while following chains.
    pub warnings: Vec<Warning>,
}

impl<'a> Cascade<'a> {
    /// A cascade over `sheet`.
    pub fn new(sheet: &'a StyleSheet) -> Cascade<'a> {
        // Several defaults of a kind are an authoring error; the smallest id wins so the
        // choice is deterministic (HashMap order is not).
        let default_of = |kind: StyleKind| {
            sheet
                .styles
                .iter()
                .filter(|(_, s)| s.kind == kind && s.is_default)
                .map(|(id, _)| id.as_str())
                .min()
        };
        Cascade {
            sheet,
            cache: FastMap::default(),
            cell_cache: FastMap::default(),
            default_paragraph: default_of(StyleKind::Paragraph),
            default_character: default_of(StyleKind::Character),
            default_table: default_of(StyleKind::Table),
            warnings: Vec::new(),
        }
    }

    /// The merged chain of style `id`, or `None` when the style does not exist.
    pub fn level(&mut self, id: &str) -> Option<&Level> {
        let (key, _) = self.sheet.styles.get_key_value(id)?;
        let key = key.as_str();
        if !self.cache.contains_key(key) {
            let level = self.build(key);
            self.cache.insert(key, level);
        }
        self.cache.get(key)
    }

    /// A table style as one cell sees it: the style's chain with the `pPr`/`rPr` of the
    /// cell's conditional regions laid over in Word's order (§17.7.6), one level of the
    /// cascade (notes §1).
    pub fn cell_level(&mut self, cell: CellStyle<'a>) -> Option<&Level> {
        if !self.cell_cache.contains_key(&cell) {
            let mut level = self.level(cell.style)?.clone();
            for region in REGION_ORDER {
                if cell.regions & region_bit(region) == 0 {
                    continue;
                }
                if let Some(c) = level.conditions.iter().find(|c| c.region == region).cloned() {
                    merge_run(&mut level.run, &c.run);
                    merge_paragraph(&mut level.paragraph, &c.paragraph);
                }
            }
            self.cell_cache.insert(cell, level);
        }
        self.cell_cache.get(&cell)
    }

    /// The chain of style `id` as [`level`](Self::level) built it, without building: a
    /// caller that builds the chains it needs first can then borrow several at once.
    pub fn built(&self, id: &str) -> Option<&Level> {
        self.cache.get(id)
    }

    /// The cell's chain as [`cell_level`](Self::cell_level) built it, without building.
    pub fn built_cell(&self, cell: CellStyle<'a>) -> Option<&Level> {
        self.cell_cache.get(&cell)
    }

    /// Whether style `id` exists with the given kind.
    pub fn has(&self, id: &str, kind: StyleKind) -> bool {
        self.sheet.styles.get(id).is_some_and(|s| s.kind == kind)
    }

    fn build(&mut self, id: &'a str) -> Level {
        let mut chain: Vec<&'a Style> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let mut next = Some(id);
        while let Some(cur) = next {
            if seen.contains(&cur) || chain.len() >= MAX_CHAIN {
                self.warnings.push(Warning::new("style_cycle", "a style's basedOn chain loops; the loop was cut"));
                break;
            }
            let Some(style) = self.sheet.styles.get(cur) else {
                if cur != id {
                    self.warnings.push(Warning::new("style_missing", "a basedOn style does not exist"));
                }
                break;
            };
            seen.push(cur);
            chain.push(style);
            next = style.based_on.as_deref();
        }
        let heading = chain.iter().find_map(|s| s.name.as_deref().and_then(heading_level));
        let toc = chain.iter().any(|s| s.name.as_deref().is_some_and(is_toc_name));
        let hyperlink = chain.first().and_then(|s| s.name.as_deref()).is_some_and(|n| n.eq_ignore_ascii_case("hyperlink"));
        let title = chain.first().is_some_and(|s| is_title(id, s));
        let mut level = Level { heading, toc, hyperlink, title, ..Level::default() };
        for style in chain.iter().rev() {
            merge_run(&mut level.run, &style.run);
            merge_paragraph(&mut level.paragraph, &style.paragraph);
            merge_table(&mut level.table, &style.table.table);
            merge_cell(&mut level.cell, &style.table.cell);
            for c in &style.table.conditions {
                match level.conditions.iter_mut().find(|l| l.region == c.region) {
                    Some(l) => merge_condition(l, c),
                    None => level.conditions.push(c.clone()),
                }
            }
        }
        level
    }
}

/// "heading 1" … "heading 9" (any case) → 1 … 9.
fn heading_level(name: &str) -> Option<u8> {
    let lower = name.trim().to_ascii_lowercase();
    let n: u8 = lower.strip_prefix("heading")?.trim().parse().ok()?;
    (1..=9).contains(&n).then_some(n)
}

/// Word's built-in Title paragraph style: its id or its name "Title" (any case; a
/// localized document keeps the English name under another id).
fn is_title(id: &str, style: &Style) -> bool {
    style.kind == StyleKind::Paragraph
        && (id.eq_ignore_ascii_case("title") || style.name.as_deref().is_some_and(|n| n.trim().eq_ignore_ascii_case("title")))
}

/// "toc 1" … "toc 9" (any case).
fn is_toc_name(name: &str) -> bool {
    let lower = name.trim().to_ascii_lowercase();
    lower.strip_prefix("toc").is_some_and(|n| matches!(n.trim().parse::<u8>(), Ok(1..=9)))
}

fn set<T: Clone>(dst: &mut Option<T>, src: &Option<T>) {
    if src.is_some() {
        dst.clone_from(src);
    }
}

/// Lays `src` over `dst`: every property `src` says wins.
pub(super) fn merge_run(dst: &mut RunProps, src: &RunProps) {
    merge_fonts(&mut dst.fonts, &src.fonts);
    set(&mut dst.size, &src.size);
    set(&mut dst.size_cs, &src.size_cs);
    set(&mut dst.bold, &src.bold);
    set(&mut dst.bold_cs, &src.bold_cs);
    set(&mut dst.italic, &src.italic);
    set(&mut dst.italic_cs, &src.italic_cs);
    set(&mut dst.caps, &src.caps);
    set(&mut dst.small_caps, &src.small_caps);
    set(&mut dst.strike, &src.strike);
    set(&mut dst.double_strike, &src.double_strike);
    set(&mut dst.vanish, &src.vanish);
    set(&mut dst.underline, &src.underline);
    set(&mut dst.color, &src.color);
    set(&mut dst.highlight, &src.highlight);
    set(&mut dst.shading, &src.shading);
    set(&mut dst.border, &src.border);
    set(&mut dst.vert_align, &src.vert_align);
    set(&mut dst.position, &src.position);
    set(&mut dst.spacing, &src.spacing);
    set(&mut dst.kern, &src.kern);
    set(&mut dst.rtl, &src.rtl);
    set(&mut dst.complex_script, &src.complex_script);
}

fn merge_fonts(dst: &mut FontSlots, src: &FontSlots) {
    set(&mut dst.ascii, &src.ascii);
    set(&mut dst.h_ansi, &src.h_ansi);
    set(&mut dst.east_asia, &src.east_asia);
    set(&mut dst.cs, &src.cs);
    set(&mut dst.hint_east_asia, &src.hint_east_asia);
}

/// Lays `src` over `dst` for paragraph properties; tab stops merge by position (§17.3.1.38).
pub(super) fn merge_paragraph(dst: &mut ParagraphProps, src: &ParagraphProps) {
    set(&mut dst.align, &src.align);
    merge_indent(&mut dst.indent, &src.indent);
    merge_spacing(&mut dst.spacing, &src.spacing);
    set(&mut dst.keep_next, &src.keep_next);
    set(&mut dst.keep_lines, &src.keep_lines);
    set(&mut dst.page_break_before, &src.page_break_before);
    set(&mut dst.widow_control, &src.widow_control);
    set(&mut dst.snap_to_grid, &src.snap_to_grid);
    set(&mut dst.word_wrap, &src.word_wrap);
    set(&mut dst.auto_space_de, &src.auto_space_de);
    set(&mut dst.auto_space_dn, &src.auto_space_dn);
    set(&mut dst.contextual_spacing, &src.contextual_spacing);
    set(&mut dst.mirror_indents, &src.mirror_indents);
    set(&mut dst.bidi, &src.bidi);
    merge_tabs(&mut dst.tabs, &src.tabs);
    // `numId` and `ilvl` fold separately through the cascade (notes §1).
    if let Some(n) = src.numbering {
        let d = dst.numbering.get_or_insert_with(Default::default);
        set(&mut d.num_id, &n.num_id);
        set(&mut d.level, &n.level);
    }
    set(&mut dst.shading, &src.shading);
    merge_borders(&mut dst.borders, &src.borders);
    set(&mut dst.outline_level, &src.outline_level);
}

fn merge_indent(dst: &mut Indent, src: &Indent) {
    set(&mut dst.left, &src.left);
    set(&mut dst.right, &src.right);
    // firstLine and hanging are one property: whichever a level says replaces both
    // (§17.3.1.12: hanging wins over firstLine at the same level).
    if src.first_line.is_some() || src.hanging.is_some() {
        dst.first_line = src.first_line;
        dst.hanging = src.hanging;
    }
}

fn merge_spacing(dst: &mut Spacing, src: &Spacing) {
    set(&mut dst.before, &src.before);
    set(&mut dst.after, &src.after);
    set(&mut dst.before_autospacing, &src.before_autospacing);
    set(&mut dst.after_autospacing, &src.after_autospacing);
    set(&mut dst.line, &src.line);
}

fn merge_borders(dst: &mut ParagraphBorders, src: &ParagraphBorders) {
    set(&mut dst.top, &src.top);
    set(&mut dst.bottom, &src.bottom);
    set(&mut dst.left, &src.left);
    set(&mut dst.right, &src.right);
    set(&mut dst.between, &src.between);
}

/// Lays a table style's `w:tblPr` over another (§17.7.6).
pub(super) fn merge_table(dst: &mut TableProps, src: &TableProps) {
    set(&mut dst.width, &src.width);
    set(&mut dst.indent, &src.indent);
    set(&mut dst.align, &src.align);
    merge_table_borders(&mut dst.borders, &src.borders);
    merge_margins(&mut dst.cell_margins, &src.cell_margins);
    set(&mut dst.layout, &src.layout);
    set(&mut dst.row_band_size, &src.row_band_size);
    set(&mut dst.col_band_size, &src.col_band_size);
}

/// Lays one `w:tblStylePr` over another of the same region.
pub(super) fn merge_condition(dst: &mut TableCondition, src: &TableCondition) {
    merge_run(&mut dst.run, &src.run);
    merge_paragraph(&mut dst.paragraph, &src.paragraph);
    merge_table(&mut dst.table, &src.table);
    merge_cell(&mut dst.cell, &src.cell);
}

/// Lays a table style's `w:tcPr` over another.
pub(super) fn merge_cell(dst: &mut CellProps, src: &CellProps) {
    merge_table_borders(&mut dst.borders, &src.borders);
    set(&mut dst.shading, &src.shading);
    merge_margins(&mut dst.margins, &src.margins);
    set(&mut dst.v_align, &src.v_align);
}

/// Lays `tblBorders`/`tcBorders` sides over others.
pub(super) fn merge_table_borders(dst: &mut TableBorders, src: &TableBorders) {
    set(&mut dst.top, &src.top);
    set(&mut dst.left, &src.left);
    set(&mut dst.bottom, &src.bottom);
    set(&mut dst.right, &src.right);
    set(&mut dst.inside_h, &src.inside_h);
    set(&mut dst.inside_v, &src.inside_v);
}

/// Lays cell margins over others.
pub(super) fn merge_margins(dst: &mut CellMargins, src: &CellMargins) {
    set(&mut dst.top, &src.top);
    set(&mut dst.left, &src.left);
    set(&mut dst.bottom, &src.bottom);
    set(&mut dst.right, &src.right);
}

/// Style and direct stops merge by position; `clear` removes an inherited stop.
fn merge_tabs(dst: &mut Vec<TabStop>, src: &[TabStop]) {
    for tab in src {
        dst.retain(|t| t.pos != tab.pos);
        if tab.kind != TabKind::Clear {
            dst.push(*tab);
        }
    }
}

/// A toggle property across the levels (§17.7.3): direct formatting is absolute;
/// otherwise docDefaults is the base and every style level saying `true` flips it.
pub(super) fn toggle(base: Option<bool>, levels: &[Option<bool>], direct: Option<bool>) -> bool {
    if let Some(v) = direct {
        return v;
    }
    levels.iter().fold(base.unwrap_or(false), |acc, l| acc ^ l.unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_names_give_outline_levels() {
        assert_eq!(heading_level("heading 1"), Some(1));
        assert_eq!(heading_level("Heading 9"), Some(9));
        assert_eq!(heading_level("Heading 10"), None);
        assert_eq!(heading_level("Title"), None);
    }

    #[test]
    fn toggles_flip_per_level_and_direct_is_absolute() {
        assert!(!toggle(None, &[Some(true), Some(true)], None));
        assert!(toggle(None, &[Some(true), None], None));
        assert!(toggle(Some(true), &[Some(false)], None));
        assert!(!toggle(None, &[Some(true)], Some(false)));
    }

    #[test]
    fn a_clear_tab_removes_the_inherited_stop() {
        use crate::docx::model::TabLeader;
        use crate::units::Twips;
        let stop = |kind, pos| TabStop { kind, pos: Twips(pos), leader: TabLeader::None };
        let mut tabs = vec![stop(TabKind::Left, 720), stop(TabKind::Right, 9000)];
        merge_tabs(&mut tabs, &[stop(TabKind::Clear, 720), stop(TabKind::Center, 4000)]);
        assert_eq!(tabs, vec![stop(TabKind::Right, 9000), stop(TabKind::Center, 4000)]);
    }
}
