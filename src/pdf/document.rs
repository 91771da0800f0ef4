//! The document skeleton: object numbering, page objects, the page tree and the catalog (ISO 32000-1 §7.7).

use pdf_writer::types::PageMode;
use pdf_writer::writers::Destination;
use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Settings};

use super::content::Painter;
use super::deflate::Deflater;
use super::font::FontSet;
use super::image::ImageSet;
use super::{embed, link, metadata, outline, PdfError};
use crate::layout::frame::{Layout, Page, Point, Size};
use crate::units::Pt;
use crate::warning::Warning;

/// US Letter, the page written when a layout has none: viewers reject a page tree
/// without pages.
const LETTER: Size = Size {
    width: Pt(612.0),
    height: Pt(792.0),
};

/// Hands out indirect object numbers in order, which keeps output deterministic.
pub(super) struct Refs(i32);

impl Refs {
    /// Starts at object 1 (object 0 is the head of the free list, §7.5.4).
    fn new() -> Refs {
        Refs(1)
    }

    /// The next unused reference.
    pub(super) fn alloc(&mut self) -> Ref {
        let id = Ref::new(self.0);
        self.0 += 1;
        id
    }
}

/// The pages that links, bookmarks and named destinations can point at.
pub(super) struct Targets {
    pages: Vec<(Ref, f64)>,
}

impl Targets {
    /// Writes an XYZ destination (§12.3.2.2) to `point` on page `page`, keeping the zoom.
    /// A page past the end means the last one (there is always a page); callers that must
    /// skip such targets instead check `contains` first.
    pub(super) fn write_xyz(&self, dest: Destination, page: usize, point: Point) {
        let (id, height) = self.pages[page.min(self.pages.len() - 1)];
        let top = height - point.y.get();
        dest.page(id).xyz(point.x.get() as f32, top as f32, None);
    }

    /// Whether page `page` exists.
    pub(super) fn contains(&self, page: usize) -> bool {
        page < self.pages.len()
    }
}

/// Writes the whole document, with the warnings of pictures that could not be drawn.
pub(super) fn write(layout: &Layout) -> Result<(Vec<u8>, Vec<Warning>), PdfError> {
    let blank;
    let pages: &[Page] = if layout.pages.is_empty() {
        blank = [Page {
            size: LETTER,
            items: Vec::new(),
        }];
        &blank
    } else {
        &layout.pages
    };

    let mut refs = Refs::new();
    let catalog_ref = refs.alloc();
    let tree_ref = refs.alloc();
    // Page references come first so that links and bookmarks can point forward.
    let targets = Targets {
        pages: pages
            .iter()
            .map(|p| (refs.alloc(), p.size.height.get()))
            .collect(),
    };

    let settings = Settings { pretty: false };
    let mut pdf = Pdf::with_settings_and_capacity(settings, 16 * 1024 + 4 * 1024 * pages.len());
    let mut fonts = FontSet::default();
    let mut painter = Painter::default();
    let mut deflater = Deflater::new();
    let mut annotations = Vec::new();
    let mut images = ImageSet::default();

    for (page, &(page_ref, _)) in pages.iter().zip(&targets.pages) {
        images.prepare(page, &mut pdf, &mut refs, &mut deflater)?;
        let content = painter.paint(page, &mut fonts, &images, &mut refs)?;
        let content_ref = refs.alloc();
        pdf.stream(content_ref, deflater.deflate(&content)?)
            .filter(Filter::FlateDecode);

        annotations.clear();
        link::write_annotations(
            &mut pdf,
            &mut refs,
            page,
            &layout.destinations,
            &targets,
            &mut annotations,
        );

        let mut page_obj = pdf.page(page_ref);
        page_obj
            .parent(tree_ref)
            .media_box(Rect::new(
                0.0,
                0.0,
                page.size.width.get() as f32,
                page.size.height.get() as f32,
            ))
            .contents(content_ref);
        if !annotations.is_empty() {
            page_obj.annotations(annotations.iter().copied());
        }
        // Resources are required (§7.7.3.3), even when empty.
        let mut resources = page_obj.resources();
        let mut used = painter.used_fonts().peekable();
        if used.peek().is_some() {
            let mut dict = resources.fonts();
            for index in used {
                let font = fonts.get(index);
                dict.pair(Name(font.resource.as_bytes()), font.type0);
            }
        }
        let mut used = painter.used_images().filter_map(|i| images.xobject(i)).peekable();
        if used.peek().is_some() {
            let mut dict = resources.x_objects();
            for (id, name) in used {
                dict.pair(Name(name.as_bytes()), id);
            }
        }
    }

    embed::write_fonts(&mut pdf, &mut refs, &fonts, &mut deflater)?;

    pdf.pages(tree_ref)
        .kids(targets.pages.iter().map(|&(id, _)| id))
        .count(i32::try_from(pages.len()).unwrap_or(i32::MAX));
    let outline_ref = outline::write(&mut pdf, &mut refs, &layout.outline, &targets);
    let dests_ref = link::write_destinations(&mut pdf, &mut refs, &layout.destinations, &targets);
    let info_ref = refs.alloc();
    metadata::write(&mut pdf, info_ref, &layout.info);

    let mut catalog = pdf.catalog(catalog_ref);
    catalog.pages(tree_ref);
    if let Some(outline_ref) = outline_ref {
        // Opens the bookmarks panel, as Word's export does when it writes bookmarks.
        catalog
            .outlines(outline_ref)
            .page_mode(PageMode::UseOutlines);
    }
    if let Some(dests_ref) = dests_ref {
        // The name tree (PDF 1.2, §7.7.4) rather than the older /Dests dictionary: its
        // keys are strings, so any bookmark name survives.
        catalog.names().pair(Name(b"Dests"), dests_ref);
    }
    catalog.finish();
    Ok((pdf.finish(), images.warnings))
}
