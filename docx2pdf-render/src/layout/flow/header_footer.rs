//! Headers and footers (§17.10): which part a page shows, laid out in the header band.

use std::collections::HashMap;

use crate::layout::context::Ctx;
use crate::layout::error::LayoutError;
use crate::layout::fields::FieldValues;
use crate::layout::stack::{layout_stack, Stack};
use crate::docx::model::RunContent;
use crate::resolve::{HeaderFooterIds, ResolvedBlock, ResolvedDocument, ResolvedInline};
use crate::units::Pt;

/// The part a page shows: `first` on the section's first page with `titlePg`, `even` on
/// even pages with `evenAndOddHeaders`, else `default` (§17.10.1, §17.10.6).
pub(crate) fn pick(ids: &HeaderFooterIds, first_of_section: bool, title_page: bool, even_odd: bool, number: i64) -> Option<String> {
    if first_of_section && title_page {
        ids.first.clone()
    } else if even_odd && number % 2 == 0 {
        ids.even.clone()
    } else {
        ids.default.clone()
    }
}

/// Whether blocks hold a page-dependent field.
pub(crate) fn has_fields(blocks: &[ResolvedBlock<'_>]) -> bool {
    blocks.iter().any(|b| match b {
        ResolvedBlock::Paragraph(p) => p.inlines.iter().any(|i| match i {
            ResolvedInline::Run(r) => r.content.iter().any(|c| matches!(c, RunContent::Field(_))),
            _ => false,
        }),
        ResolvedBlock::Table(t) => t.rows.iter().any(|r| r.cells.iter().any(|c| has_fields(&c.blocks))),
    })
}

/// Header and footer layouts by part id and width, laid out once when they hold no field.
#[derive(Default)]
pub(crate) struct Parts {
    cache: HashMap<(String, u64), Stack>,
}

impl Parts {
    /// The laid-out part; with fields, laid out for `values` each time.
    pub fn get(
        &mut self,
        doc: &ResolvedDocument<'_>,
        id: &str,
        width: Pt,
        values: &FieldValues,
        ctx: &mut Ctx<'_>,
    ) -> Result<Option<Stack>, LayoutError> {
        let Some(blocks) = doc.parts.get(id) else {
            ctx.warn("part_missing", "a header or footer part is missing".to_string());
            return Ok(None);
        };
        if has_fields(blocks) {
            return Ok(Some(layout_stack(blocks, width, ctx, Some(values), false)?));
        }
        let key = (id.to_string(), width.0.to_bits());
        if let Some(s) = self.cache.get(&key) {
            return Ok(Some(s.clone()));
        }
        let s = layout_stack(blocks, width, ctx, Some(values), false)?;
        self.cache.insert(key, s.clone());
        Ok(Some(s))
    }

    /// Only the height of a part (fields laid out with provisional values).
    pub fn height(&mut self, doc: &ResolvedDocument<'_>, id: Option<&str>, width: Pt, ctx: &mut Ctx<'_>) -> Result<Pt, LayoutError> {
        let Some(id) = id else { return Ok(Pt::ZERO) };
        let key = (format!("h:{id}"), width.0.to_bits());
        if let Some(s) = self.cache.get(&key) {
            return Ok(s.height);
        }
        let values = FieldValues { page: 1, num_pages: 1, section_pages: 1, page_format: None, bookmarks: Default::default() };
        let Some(s) = self.get(doc, id, width, &values, ctx)? else { return Ok(Pt::ZERO) };
        let h = s.height;
        self.cache.insert(key, Stack { parts: Vec::new(), height: h, floats: Vec::new() });
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{
        Block, BreakKind, FieldKind, HeaderFooterRefs, Inline, Paragraph, ParagraphProps, Run, RunContent, RunProps,
        SectionProps, Spacing,
    };
    use crate::layout::testing::*;
    use crate::units::Twips;

    fn field_para(parts: Vec<RunContent>) -> Paragraph {
        Paragraph {
            inlines: vec![Inline::Run(Run { style: None, props: RunProps::default(), content: parts })],
            ..Default::default()
        }
    }

    fn with_footer(mut doc: crate::docx::model::Document, footer: Vec<Paragraph>) -> crate::docx::model::Document {
        doc.parts.insert("rIdF".into(), footer.into_iter().map(Block::Paragraph).collect());
        doc.final_section.footers = HeaderFooterRefs { default: Some("rIdF".into()), ..Default::default() };
        doc
    }

    fn two_pages() -> crate::docx::model::Document {
        doc_of(vec![field_para(vec![
            RunContent::Text("one".into()),
            RunContent::Break(BreakKind::Page),
            RunContent::Text("two".into()),
        ])])
    }

    #[test]
    fn page_field_shows_the_page_number() {
        let footer = field_para(vec![
            RunContent::Text("Page ".into()),
            RunContent::Field(FieldKind::Page),
            RunContent::Text(" of ".into()),
            RunContent::Field(FieldKind::NumPages),
        ]);
        let out = lay(&with_footer(two_pages(), vec![footer]));
        let l = lines(&out.layout.pages[1]);
        assert!(l.iter().any(|(_, t)| t == "Page 2 of 2"), "{l:?}");
    }

    #[test]
    fn footer_sits_above_the_footer_margin() {
        let out = lay(&with_footer(two_pages(), vec![para("foot")]));
        let (_, y, _, _) = texts(&out.layout.pages[0]).into_iter().find(|t| t.2 == "foot").expect("footer");
        // Bottom of the footer's line at 792 − 36; baseline above it by the descent.
        assert!((y - (792.0 - 36.0 - 2.1630859375)).abs() < 0.01, "{y}");
    }

    #[test]
    fn header_sits_at_the_header_margin() {
        let mut doc = doc_of(vec![para("body")]);
        doc.parts.insert("rIdH".into(), vec![Block::Paragraph(para("head"))]);
        doc.final_section.headers = HeaderFooterRefs { default: Some("rIdH".into()), ..Default::default() };
        let out = lay(&doc);
        let (_, y, _, _) = texts(&out.layout.pages[0]).into_iter().find(|t| t.2 == "head").expect("header");
        assert!((y - (36.0 + 9.3359375)).abs() < 0.01);
    }

    #[test]
    fn a_tall_header_pushes_the_body_down() {
        let mut doc = doc_of(vec![para("body")]);
        let tall = para_with(
            "head",
            ParagraphProps { spacing: Spacing { after: Some(Twips(1440)), ..Default::default() }, ..Default::default() },
        );
        doc.parts.insert("rIdH".into(), vec![Block::Paragraph(tall)]);
        doc.final_section.headers = HeaderFooterRefs { default: Some("rIdH".into()), ..Default::default() };
        let out = lay(&doc);
        let (_, y, _, _) = texts(&out.layout.pages[0]).into_iter().find(|t| t.2 == "body").expect("body");
        let header_bottom = 36.0 + 11.4990234375 + 72.0;
        assert!((y - (header_bottom + 9.3359375)).abs() < 0.01, "{y}");
    }

    #[test]
    fn objects_anchored_in_a_header_are_placed_on_every_page_from_their_anchor() {
        use crate::docx::model::{AnchorPosition, Crop, ImageFormat, Picture, PictureAnchor, PictureTransform, TextBox, Wrap};
        use crate::units::Emu;
        let at = |from: &str, pt: i64| Some(AnchorPosition { relative_from: Some(from.into()), offset: Some(Emu(pt * 12_700)), align: None, percent: None });
        let logo = Picture {
            data: std::sync::Arc::from(&b"x"[..]),
            format: ImageFormat::Png,
            extent: (Emu(40 * 12_700), Emu(20 * 12_700)),
            crop: Crop::default(),
            transform: PictureTransform::default(),
            anchor: Some(Box::new(PictureAnchor { horizontal: at("page", 500), vertical: at("page", 10), wrap: Wrap::Square, ..PictureAnchor::default() })),
            texts: Vec::new(),
            effect: Default::default(),
            alt: None,
            decorative: false,
        };
        let mut head = para("head");
        head.inlines.push(Inline::Run(Run { content: vec![RunContent::Picture(Box::new(logo))], ..Run::default() }));
        head.text_boxes.push(TextBox {
            blocks: vec![Block::Paragraph(para("boxed"))],
            anchored: true,
            extent: Some((Emu(72 * 12_700), Emu(36 * 12_700))),
            horizontal: at("page", 300),
            vertical: at("paragraph", 20),
            ..TextBox::default()
        });
        let mut doc = two_pages();
        doc.parts.insert("rIdH".into(), vec![Block::Paragraph(head)]);
        doc.final_section.headers = HeaderFooterRefs { default: Some("rIdH".into()), ..Default::default() };
        let out = lay(&doc);
        for page in &out.layout.pages {
            let (corner, _) = images(page).pop().expect("the header's picture");
            assert!((corner.x.0 - 500.0).abs() < 0.01 && (corner.y.0 - 10.0).abs() < 0.01, "{corner:?}");
            let t = texts(page);
            let (x, y, _, _) = t.iter().find(|t| t.2 == "boxed").expect("the header's text box");
            // Inside the box's 7.2 pt and 3.6 pt insets, 20 pt below the header paragraph's top at 36 pt.
            assert!((x - 307.2).abs() < 0.01 && *y > 36.0 + 20.0 + 3.6 && *y < 36.0 + 20.0 + 20.0, "({x}, {y})");
            // The floating objects leave the header's height, and the body's top, alone.
            let (_, body, _, _) = t.iter().find(|t| t.2 == "one" || t.2 == "two").expect("body");
            assert!((body - (72.0 + 9.3359375)).abs() < 0.01, "{body}");
        }
    }

    #[test]
    fn first_page_header_needs_title_page() {
        let mut doc = two_pages();
        doc.parts.insert("rIdA".into(), vec![Block::Paragraph(para("first"))]);
        doc.parts.insert("rIdB".into(), vec![Block::Paragraph(para("default"))]);
        doc.final_section.headers =
            HeaderFooterRefs { default: Some("rIdB".into()), first: Some("rIdA".into()), ..Default::default() };
        let out = lay(&doc);
        assert!(lines(&out.layout.pages[0]).iter().any(|l| l.1 == "default"));
        doc.final_section.title_page = true;
        let out = lay(&doc);
        assert!(lines(&out.layout.pages[0]).iter().any(|l| l.1 == "first"));
        assert!(lines(&out.layout.pages[1]).iter().any(|l| l.1 == "default"));
    }

    #[test]
    fn a_page_field_in_the_body_is_filled_after_pagination() {
        let mut doc = two_pages();
        doc.body.push(Block::Paragraph(field_para(vec![RunContent::Field(FieldKind::NumPages)])));
        let out = lay(&doc);
        assert!(lines(&out.layout.pages[1]).iter().any(|l| l.1 == "2"));
    }

    #[test]
    fn section_pages_restart_with_a_new_section() {
        let mut first = para("a");
        first.section = Some(Box::new(SectionProps { page_number_start: None, ..Default::default() }));
        let mut doc = doc_of(vec![first, para("b")]);
        doc.final_section.page_number_start = Some(1);
        let footer = field_para(vec![RunContent::Field(FieldKind::Page), RunContent::Text("/".into()), RunContent::Field(FieldKind::SectionPages)]);
        doc.parts.insert("rIdF".into(), vec![Block::Paragraph(footer)]);
        let refs = HeaderFooterRefs { default: Some("rIdF".into()), ..Default::default() };
        if let Some(Block::Paragraph(p)) = doc.body.first_mut() {
            if let Some(s) = p.section.as_mut() {
                s.footers = refs.clone();
            }
        }
        let out = lay(&doc);
        assert_eq!(out.layout.pages.len(), 2);
        assert!(lines(&out.layout.pages[1]).iter().any(|l| l.1 == "1/1"), "{:?}", lines(&out.layout.pages[1]));
    }
}
