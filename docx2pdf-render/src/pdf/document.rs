//! The document skeleton: object numbering, page objects, the page tree and the catalog (ISO 32000-1 §7.7).

use std::borrow::Cow;

use pdf_writer::types::{PageMode, TabOrder};
use pdf_writer::writers::Destination;
use pdf_writer::{Chunk, Filter, Finish, Name, Pdf, Rect, Ref, Settings, TextStr};

use super::content::Painter;
use super::deflate::Deflater;
use super::font::FontSet;
use super::image::{self, ImageSet};
use super::options::{PdfA, PdfOptions};
use super::structure::Tagging;
use super::xmp::{self, Claims};
use super::{conformance, embed, encrypt, link, metadata, missing, outline, parallel, PdfError};
use crate::frame::{Item, Layout, Page, Point, Size};
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

/// How many pages are painted before their content streams are compressed together:
/// enough to keep every thread busy, few enough that the uncompressed streams held at
/// once stay small next to the layout.
const BATCH: usize = 32;

/// A batch also ends once its pages hold this many glyphs, 1.5 MB as frames: 32 pages of
/// dense text held 5 MB (10,000 paragraphs of 430 characters, 3,440 glyphs a page).
const BATCH_GLYPHS: usize = 1 << 15;

/// The glyphs of a page's runs.
fn glyph_count(page: &Page) -> usize {
    page.items.iter().map(|p| if let Item::Text(text) = &p.item { text.glyphs.len() } else { 0 }).sum()
}

/// A painted page waiting for its content stream to be compressed, with everything it
/// wrote or took a reference for, in the order one page at a time would have: the
/// document comes out byte for byte the same whatever the number of threads.
struct Painted {
    /// The XObjects of the pictures this page shows first.
    images: Chunk,
    content_ref: Ref,
    content: Vec<u8>,
    /// Its link annotations and their references.
    annotations: Chunk,
    annotation_refs: Vec<Ref>,
    fonts: Vec<usize>,
    xobjects: Vec<usize>,
    /// Its key in the structure's parent tree, when it has marked content.
    struct_parents: Option<i32>,
}

/// Writes the whole document on up to `threads` threads, with the warnings of pictures
/// that could not be drawn.
pub(super) fn write(layout: &Layout, threads: usize, options: PdfOptions) -> Result<(Vec<u8>, Vec<Warning>), PdfError> {
    let sizes: Vec<Size> = layout.pages.iter().map(|p| p.size).collect();
    let pages = layout.pages.iter().map(|p| Ok::<_, std::convert::Infallible>(Cow::Borrowed(p)));
    write_pages(layout, &sizes, pages, threads, options).map_err(|e| match e {
        Stop::Pdf(e) => e,
        Stop::Pages(never) => match never {},
    })
}

/// Why writing pages from a source stopped: the source's error, or the writer's.
#[derive(Debug)]
pub enum Stop<E> {
    /// The source of the pages failed.
    Pages(E),
    /// The PDF could not be written.
    Pdf(PdfError),
}

impl<E> From<PdfError> for Stop<E> {
    fn from(e: PdfError) -> Stop<E> {
        Stop::Pdf(e)
    }
}

/// Writes a document whose pages, of `sizes`, come one at a time from `pages` (the
/// layout's own pages are not used); each batch of pages is written and dropped before the
/// next is taken.
pub(super) fn write_pages<'p, E>(
    layout: &Layout,
    sizes: &[Size],
    pages: impl Iterator<Item = Result<Cow<'p, Page>, E>>,
    threads: usize,
    options: PdfOptions,
) -> Result<(Vec<u8>, Vec<Warning>), Stop<E>> {
    let blank = sizes.is_empty();
    let sizes: &[Size] = if blank { &[LETTER] } else { sizes };
    let mut pages = pages.chain(blank.then(|| Ok(Cow::Owned(Page { size: LETTER, items: Vec::new() }))));

    let mut refs = Refs::new();
    let catalog_ref = refs.alloc();
    let tree_ref = refs.alloc();
    // Page references come first so that links and bookmarks can point forward.
    let targets = Targets {
        pages: sizes
            .iter()
            .map(|size| (refs.alloc(), size.height.get()))
            .collect(),
    };

    let settings = Settings { pretty: false };
    let mut pdf = Pdf::with_settings_and_capacity(settings, 16 * 1024 + 4 * 1024 * sizes.len());
    let mut fonts = FontSet::default();
    let mut painter = Painter::default();
    let mut deflater = Deflater::new();
    let mut tagging = Tagging::new(&layout.structure, sizes.len());
    let mut images = ImageSet::default();
    let mut index = 0;
    let rules = image::ImageRules {
        opaque: options.pdfa.is_some_and(PdfA::opaque),
        rgb_only: options.pdfa.is_some(),
        max_pixels: options.max_image_pixels,
    };

    let mut inert = super::link_scheme::InertLinks::default();
    let mut first = 0;
    while first < targets.pages.len() {
        let mut batch = Vec::with_capacity(BATCH.min(targets.pages.len() - first));
        let mut glyphs = 0;
        while batch.len() < BATCH && first + batch.len() < targets.pages.len() && glyphs < BATCH_GLYPHS {
            match pages.next() {
                Some(page) => {
                    let page = page.map_err(Stop::Pages)?;
                    glyphs += glyph_count(&page);
                    batch.push(page);
                }
                None => break,
            }
        }
        if batch.is_empty() {
            break;
        }
        let batch_refs = &targets.pages[first..first + batch.len()];
        first += batch.len();
        // Pictures first: decoding and compressing them is most of the work of a document
        // with photographs, and how each comes out (with a soft mask or not) decides which
        // references it takes.
        let encoded = parallel::map(&images.unseen(&batch), threads, &mut deflater, image::work, |image, deflater| {
            image::encode(image, deflater, rules)
        });
        images.queue(encoded.into_iter().collect::<Result<_, _>>()?);
        let mut painted = Vec::with_capacity(batch.len());
        for page in &batch {
            let mut page_images = Chunk::with_settings_and_capacity(settings, 0);
            images.prepare(page, &mut page_images, &mut refs);
            let content = painter.paint(page, index, &mut fonts, &images, &mut refs, &mut tagging)?;
            let content_ref = refs.alloc();
            let mut annotations = Chunk::with_settings_and_capacity(settings, 0);
            let mut annotation_refs = Vec::new();
            let tagged = (&mut tagging, index);
            link::write_annotations(&mut annotations, &mut refs, page, &layout.destinations, &targets, &mut annotation_refs, tagged, &mut inert);
            painted.push(Painted {
                struct_parents: tagging.page_key(index),
                images: page_images,
                content_ref,
                content,
                annotations,
                annotation_refs,
                fonts: painter.used_fonts().collect(),
                xobjects: painter.used_images().collect(),
            });
            index += 1;
        }
        let packed = parallel::map(&painted, threads, &mut deflater, |page| page.content.len(), |page, deflater| {
            deflater.deflate(&page.content).map(<[u8]>::to_vec)
        });
        for ((page, &(page_ref, _)), (done, content)) in batch.iter().zip(batch_refs).zip(painted.iter().zip(packed)) {
            pdf.extend(&done.images);
            pdf.stream(done.content_ref, &content?).filter(Filter::FlateDecode);
            pdf.extend(&done.annotations);
            write_page(&mut pdf, page, page_ref, tree_ref, done, &fonts, &images);
        }
    }

    let packed = parallel::map(&fonts.iter().collect::<Vec<_>>(), threads, &mut deflater, |font| embed::work(font), |font, deflater| embed::pack_font(font, deflater));
    let packed = packed.into_iter().collect::<Result<Vec<_>, _>>()?;
    embed::write_fonts(&mut pdf, &mut refs, &fonts, &packed, options.pdfa == Some(PdfA::A1b))?;

    pdf.pages(tree_ref)
        .kids(targets.pages.iter().map(|&(id, _)| id))
        .count(i32::try_from(sizes.len()).unwrap_or(i32::MAX));
    let outline_ref = outline::write(&mut pdf, &mut refs, &layout.outline, &targets);
    let dests_ref = link::write_destinations(&mut pdf, &mut refs, &layout.destinations, &targets);
    let info_ref = refs.alloc();
    let info = match &options.metadata {
        None => std::borrow::Cow::Borrowed(&layout.info),
        Some(given) => given.apply(&layout.info),
    };
    let info = conformance::titled(&info, &options);
    metadata::write(&mut pdf, info_ref, &info);
    let page_refs: Vec<Ref> = targets.pages.iter().map(|&(id, _)| id).collect();
    // Word writes the document's language; without one, ours is Word's default.
    let lang = layout.info.lang.as_deref().unwrap_or(crate::lang::DEFAULT_LANG);
    // A missing glyph first: it is what a reader of the PDF loses.
    let mut warnings = conformance::notdef(&options, fonts.iter().map(|f| f.missing.glyphs).sum());
    warnings.extend(images.warnings);
    warnings.extend(inert.into_warnings());
    warnings.extend(conformance::warnings(&options, &info, &tagging));
    warnings.extend(missing::warnings(fonts.iter()));
    let struct_root = tagging.write(&mut pdf, &mut refs, &page_refs, lang);
    let profile = conformance::write_profile(&mut pdf, &mut refs, &mut deflater, &options)?;
    let xmp_ref = refs.alloc();
    let claims = Claims { pdfua: options.pdfua, pdfa: options.pdfa.map(|level| (level.part(), 'B')) };
    let xmp = xmp::packet(&info, claims);
    // Left uncompressed, so that tools which do not parse PDF still find it (XMP Part 3).
    pdf.metadata(xmp_ref, &xmp);

    let mut catalog = pdf.catalog(catalog_ref);
    catalog.pages(tree_ref);
    // Tagged PDF (§14.8): marked, with a structure tree and the natural language (§14.9.2).
    catalog.mark_info().marked(true);
    catalog.pair(Name(b"StructTreeRoot"), struct_root);
    catalog.lang(TextStr(lang));
    catalog.metadata(xmp_ref);
    if metadata::present(&info.title).is_some() {
        // The title bar shows the title, not the file name (ISO 14289-1 §7.1).
        catalog.viewer_preferences().display_doc_title(true);
    }
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
    conformance::write_output_intent(&mut catalog, profile);
    if options.encryption.is_some() {
        // AES-256 (revision 6) in a PDF 1.7 file: Adobe's extension level 8, as qpdf and
        // Acrobat write it (ISO 32000-2 adopted it as §7.6.4).
        catalog.extensions().insert(Name(b"ADBE")).base_version(1, 7).extension_level(8);
    }
    catalog.finish();
    conformance::set_file_id(&mut pdf, &options);
    let pdf = pdf.finish();
    match &options.encryption {
        None => Ok((pdf, warnings)),
        Some(passwords) => Ok((encrypt::encrypt(&pdf, passwords)?, warnings)),
    }
}

/// Writes a page object: its box, contents, annotations and resources (§7.7.3.3).
fn write_page(pdf: &mut Pdf, page: &Page, page_ref: Ref, tree_ref: Ref, done: &Painted, fonts: &FontSet, images: &ImageSet) {
    let mut page_obj = pdf.page(page_ref);
    page_obj
        .parent(tree_ref)
        .media_box(Rect::new(
            0.0,
            0.0,
            page.size.width.get() as f32,
            page.size.height.get() as f32,
        ))
        .contents(done.content_ref);
    if !done.annotation_refs.is_empty() {
        page_obj.annotations(done.annotation_refs.iter().copied());
        // Annotations in the structure's order (ISO 14289-1 §7.18.3).
        page_obj.tab_order(TabOrder::StructureOrder);
    }
    if let Some(key) = done.struct_parents {
        page_obj.struct_parents(key);
    }
    // Resources are required (§7.7.3.3), even when empty.
    let mut resources = page_obj.resources();
    if !done.fonts.is_empty() {
        let mut dict = resources.fonts();
        for &index in &done.fonts {
            let font = fonts.get(index);
            dict.pair(Name(font.resource.as_bytes()), font.type0);
        }
    }
    let mut used = done.xobjects.iter().filter_map(|&i| images.xobject(i)).peekable();
    if used.peek().is_some() {
        let mut dict = resources.x_objects();
        for (id, name) in used {
            dict.pair(Name(name.as_bytes()), id);
        }
    }
}
