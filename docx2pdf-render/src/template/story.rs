//! The filler the reader passes every story part through: one per conversion, gathering
//! what was used and missed across the body, headers, footers and notes.

use crate::docx::{AddedPicture, CustomXmlPart, DocxError, PackageLimits, StoryContext, StoryFilter};
use crate::warning::Warning;

use super::binding::Store;
use super::fill::{Fill, Scope};
use super::tree::{self, Node};
use super::usage::Usage;
use super::TemplateData;

/// Fills a document's story parts with `data`.
pub struct Filler<'d> {
    data: &'d TemplateData,
    usage: Usage,
    /// The pictures put in the part filled last.
    pictures: Vec<AddedPicture>,
    /// The Custom XML parts bound controls show.
    store: Store,
}

impl<'d> Filler<'d> {
    /// A filler of `data`.
    pub fn new(data: &'d TemplateData) -> Filler<'d> {
        Filler { data, usage: Usage::default(), pictures: Vec::new(), store: Store::default() }
    }

    /// What was missing, unused or unsupported, once the document is read.
    pub fn warnings(&self) -> Vec<Warning> {
        self.usage.warnings(self.data.values())
    }
}

impl StoryFilter for Filler<'_> {
    fn story(&mut self, part: &str, xml: Vec<u8>, context: &StoryContext<'_>) -> Result<Vec<u8>, DocxError> {
        let limits = context.limits;
        // What the reader would refuse is handed back for the reader to report.
        let Ok(nodes) = tree::parse(&xml, limits.max_xml_depth, limits.max_xml_elements) else {
            return Ok(xml);
        };
        let story = nodes.iter().any(|n| matches!(n, Node::Element(e) if matches!(e.local(), b"document" | b"hdr" | b"ftr" | b"footnotes" | b"endnotes")));
        if !story {
            return Ok(xml);
        }
        context.deadline.check()?;
        let held: usize = nodes.iter().map(|n| if let Node::Element(e) = n { e.count() } else { 0 }).sum();
        let mut fill = Fill {
            usage: &mut self.usage,
            deadline: context.deadline,
            part,
            budget: limits.max_xml_elements.saturating_sub(held),
            limit: limits.max_xml_elements,
            language: context.language.unwrap_or("en-US").to_owned(),
            max_pixels: limits.max_image_pixels,
            pictures: &mut self.pictures,
            store: &self.store,
        };
        let root = [Scope { value: self.data.root(), prefix: String::new() }];
        let filled = fill.nodes(nodes, &root)?;
        let mut out = Vec::with_capacity(xml.len());
        tree::write(&filled, &mut out);
        Ok(out)
    }

    fn custom_xml(&mut self, parts: Vec<CustomXmlPart>, limits: &PackageLimits) {
        self.store = Store::read(parts, limits.max_xml_depth, limits.max_xml_elements);
    }

    fn take_pictures(&mut self) -> Vec<AddedPicture> {
        std::mem::take(&mut self.pictures)
    }
}
