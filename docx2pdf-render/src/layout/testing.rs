//! Test helpers: one font book for all tests, and small document builders.

use std::sync::OnceLock;

use super::document::{layout, LaidOut};
use super::fonts::FontBook;
use super::frame::{ImageItem, Item, LineItem, LinkItem, Page, Point, RectItem, TextItem};
use crate::docx::model::{Block, Document, Inline, Paragraph, ParagraphProps, Run, RunContent, RunProps};
use crate::deadline::Deadline;

/// The machine's fonts, loaded once per test binary.
pub(crate) fn fonts() -> &'static FontBook {
    static BOOK: OnceLock<FontBook> = OnceLock::new();
    BOOK.get_or_init(|| FontBook::load(&[]))
}

/// A run of text with direct properties.
pub(crate) fn run(text: &str, props: RunProps) -> Inline {
    Inline::Run(Run { style: None, props, content: vec![RunContent::Text(text.to_string())] })
}

/// A paragraph of one plain run.
pub(crate) fn para(text: &str) -> Paragraph {
    Paragraph { inlines: vec![run(text, RunProps::default())], ..Default::default() }
}

/// A document of these paragraphs.
pub(crate) fn doc_of(paragraphs: Vec<Paragraph>) -> Document {
    Document { body: paragraphs.into_iter().map(Block::Paragraph).collect(), ..Default::default() }
}

/// The text items of a page in painting order.
pub(crate) fn texts(page: &Page) -> Vec<(f64, f64, String, &TextItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Text(t) => Some((p.pos.x.0, p.pos.y.0, t.glyphs.iter().map(|g| g.text.as_str()).collect(), t)),
            _ => None,
        })
        .collect()
}

/// The text of every line of a page, lines told apart by their baseline.
pub(crate) fn lines(page: &Page) -> Vec<(f64, String)> {
    let mut out: Vec<(f64, String)> = Vec::new();
    for (_, y, text, _) in texts(page) {
        match out.iter_mut().find(|(ly, _)| (ly - y).abs() < 0.5) {
            Some((_, t)) => t.push_str(&text),
            None => out.push((y, text)),
        }
    }
    out
}


/// Lays out a document with the test fonts and no time limit.
pub(crate) fn lay(doc: &Document) -> LaidOut {
    layout(doc, fonts(), &Deadline::none()).expect("layout")
}

/// A paragraph of one plain run with paragraph properties.
pub(crate) fn para_with(text: &str, props: ParagraphProps) -> Paragraph {
    Paragraph { props, ..para(text) }
}

/// Line items of a page with their start.
pub(crate) fn rules(page: &Page) -> Vec<(Point, LineItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Line(l) => Some((p.pos, *l)),
            _ => None,
        })
        .collect()
}

/// Rectangles of a page with their corner.
pub(crate) fn rects(page: &Page) -> Vec<(Point, RectItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Rect(r) => Some((p.pos, *r)),
            _ => None,
        })
        .collect()
}

/// Images of a page with their corner, in painting order.
pub(crate) fn images(page: &Page) -> Vec<(Point, ImageItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Image(i) => Some((p.pos, i.clone())),
            _ => None,
        })
        .collect()
}

/// Link areas of a page with their corner.
pub(crate) fn links(page: &Page) -> Vec<(Point, LinkItem)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Link(l) => Some((p.pos, l.clone())),
            _ => None,
        })
        .collect()
}
