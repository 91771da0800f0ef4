//! Page-dependent fields (§17.16.5: PAGE, NUMPAGES, SECTIONPAGES, PAGEREF): values and late
//! shaping.

use std::collections::HashMap;
use std::sync::Arc;

use crate::layout::context::Ctx;
use crate::layout::fonts::LoadedFace;
use crate::layout::fragment::PendingField;
use crate::layout::frame::{Glyph, GlyphText, Item, Point, Positioned, Rgb, TextItem};
use crate::docx::model::{FieldKind, NumberFormat};
use crate::resolve::number_text;
use crate::units::Pt;

/// The numbers a page's fields show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldValues {
    /// The displayed page number.
    pub page: i64,
    /// Pages in the document.
    pub num_pages: usize,
    /// Pages in the page's section.
    pub section_pages: usize,
    /// The section's page number format (`w:pgNumType@w:fmt`, §17.6.12).
    pub page_format: Option<NumberFormat>,
    /// The page number shown where each bookmark lands, for PAGEREF.
    pub bookmarks: Arc<HashMap<String, String>>,
}

/// What Word prints for a PAGEREF to a bookmark the document does not have.
const NO_BOOKMARK: &str = "Error! Bookmark not defined.";

/// A field's text. PAGE follows the section's page number format (`numberInDash` is
/// "- 7 -"); NUMPAGES and SECTIONPAGES stay arabic, as Word prints them without a `\*`
/// switch (`\*` switches are not read yet).
pub(crate) fn format_field(kind: &FieldKind, v: &FieldValues) -> String {
    match kind {
        FieldKind::Page => match &v.page_format {
            Some(NumberFormat::Other(f)) if f == "numberInDash" => format!("- {} -", v.page),
            f => number_text(v.page, f.as_ref()),
        },
        FieldKind::NumPages => v.num_pages.to_string(),
        FieldKind::SectionPages => v.section_pages.to_string(),
        FieldKind::PageRef { bookmark, .. } => v.bookmarks.get(&**bookmark).cloned().unwrap_or_else(|| NO_BOOKMARK.to_owned()),
    }
}

/// Shapes a pending field with its final value, placed inside its reserved width.
pub(crate) fn fill_field(f: &PendingField, v: &FieldValues, ctx: &mut Ctx<'_>) -> Positioned {
    let text = format_field(&f.kind, v);
    let item = text_item(&f.face, &text, f.size, f.color, ctx);
    let x = f.at.x + (f.reserved - item.width()).max(Pt::ZERO) * f.align;
    Positioned { pos: Point::new(x, f.at.y), item: Item::Text(item), tag: f.tag }
}

/// `text` shaped left to right in `face` at `size`: a short piece set on its own (a field's
/// value, a word of a metafile), each cluster's text on its first glyph, not kerned.
pub(crate) fn text_item(face: &LoadedFace, text: &str, size: Pt, color: Rgb, ctx: &mut Ctx<'_>) -> TextItem {
    let raw = ctx.shape(face, text, false, false);
    let scale = size.0 / face.metrics.upm;
    let mut glyphs: Vec<Glyph> = Vec::with_capacity(raw.len());
    for (i, g) in raw.iter().enumerate() {
        let end = raw[i..].iter().find(|n| n.cluster != g.cluster).map(|n| n.cluster as usize).unwrap_or(text.len());
        let first_of_cluster = i == 0 || raw[i - 1].cluster != g.cluster;
        glyphs.push(Glyph {
            id: g.id,
            advance: Pt(f64::from(g.advance) * scale),
            offset: Point::new(Pt(f64::from(g.x_offset) * scale), Pt(-f64::from(g.y_offset) * scale)),
            text: if first_of_cluster {
                GlyphText::new(text.get(g.cluster as usize..end).unwrap_or(""))
            } else {
                GlyphText::EMPTY
            },
        });
    }
    TextItem { face: face.face.clone(), size, color, glyphs, rtl: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_format_as_arabic_numbers() {
        let v = FieldValues { page: 3, num_pages: 12, section_pages: 4, page_format: None, bookmarks: Arc::default() };
        assert_eq!(format_field(&FieldKind::Page, &v), "3");
        assert_eq!(format_field(&FieldKind::NumPages, &v), "12");
        assert_eq!(format_field(&FieldKind::SectionPages, &v), "4");
    }

    #[test]
    fn the_page_field_follows_the_section_format() {
        let with = |f: NumberFormat| FieldValues { page: 4, num_pages: 9, section_pages: 2, page_format: Some(f), bookmarks: Arc::default() };
        assert_eq!(format_field(&FieldKind::Page, &with(NumberFormat::LowerRoman)), "iv");
        assert_eq!(format_field(&FieldKind::Page, &with(NumberFormat::UpperLetter)), "D");
        assert_eq!(format_field(&FieldKind::Page, &with(NumberFormat::Other("numberInDash".into()))), "- 4 -");
        assert_eq!(format_field(&FieldKind::NumPages, &with(NumberFormat::UpperRoman)), "9");
    }
}
