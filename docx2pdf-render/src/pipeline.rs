//! One conversion: read the package, lay it out, write the PDF, under one deadline.

use std::path::PathBuf;
use std::sync::Arc;

use crate::{Deadline, Release, RenderError};
use crate::docx::{self, PackageLimits};
use crate::layout::{self, FontBook};
use crate::pdf::{PdfOptions, Stop};
use crate::template::{Filler, TemplateData};
use crate::warning::Warning;

/// What every conversion shares: the font book (loaded once), the package limits, how
/// many threads one conversion may write its PDF on and how it gives its memory back.
pub struct Renderer {
    /// The fonts layout chooses from, loaded once and shared by every conversion.
    pub fonts: Arc<FontBook>,
    /// The limits every package, and the page count it lays out to, must keep to.
    pub limits: PackageLimits,
    /// 1 in the service, whose render workers already fill the cores with documents of
    /// their own; 0, every core of the machine, for a conversion on its own (`convert`).
    pub threads: usize,
    /// [`Release::Free`] in the service; [`Release::AtExit`] for `convert`.
    pub release: Release,
}

impl Renderer {
    /// Loads the fonts of the system and of `font_dirs`; conversions write on one thread
    /// and free what they built.
    pub fn new(font_dirs: &[PathBuf], limits: PackageLimits) -> Renderer {
        Renderer { fonts: Arc::new(FontBook::load(font_dirs)), limits, threads: 1, release: Release::Free }
    }
}

/// A finished conversion.
#[derive(Debug)]
pub struct Converted {
    /// The PDF file.
    pub pdf: Vec<u8>,
    /// How many pages it has.
    pub pages: usize,
    /// What the renderer skipped or substituted; none of them failed the conversion.
    pub warnings: Vec<Warning>,
}

/// Converts DOCX bytes to PDF bytes (tagged PDF, no further conformance claimed).
pub fn convert(renderer: &Renderer, bytes: &[u8], deadline: &Deadline) -> Result<Converted, RenderError> {
    convert_with(renderer, bytes, deadline, PdfOptions::default())
}

/// Converts DOCX bytes to PDF bytes meeting the conformance `options` ask for.
pub fn convert_with(renderer: &Renderer, bytes: &[u8], deadline: &Deadline, options: PdfOptions) -> Result<Converted, RenderError> {
    convert_filled(renderer, bytes, deadline, options, None)
}

/// Converts DOCX bytes to PDF bytes as [`convert_with`] does, filling the document's
/// content controls and merge fields with `data` first. Without data, or with an empty
/// object, nothing is filled and the PDF is the one [`convert_with`] writes.
pub fn convert_filled(
    renderer: &Renderer,
    bytes: &[u8],
    deadline: &Deadline,
    options: PdfOptions,
    data: Option<&TemplateData>,
) -> Result<Converted, RenderError> {
    let deadline = deadline.with_max_pages(renderer.limits.max_pages);
    if options.encryption.is_some() && options.pdfa.is_some() {
        return Err(RenderError::EncryptedPdfA);
    }
    // One pixel limit for the package and the pictures the PDF decodes.
    let mut options = PdfOptions { max_image_pixels: renderer.limits.max_image_pixels, ..options };
    // The password opens the package and goes no further.
    let password = options.password.take();
    let mut filler = data.filter(|d| !d.is_empty()).map(Filler::new);
    let filter = filler.as_mut().map(|f| f as &mut dyn docx::StoryFilter);
    let read = docx::read_filtered(bytes, password.as_ref(), &renderer.limits, &deadline, filter)?;
    drop(password);
    // Pages go to the PDF writer as they are finished, and are dropped once written.
    let mut paged = layout::paginate(&read.document, &renderer.fonts, &deadline, renderer.release)?;
    let mut layout = std::mem::take(&mut paged.layout);
    let sizes = std::mem::take(&mut paged.sizes);
    let selection = options.pages.as_ref().map(|ranges| ranges.select(sizes.len()));
    if let (Some(ranges), Some(selection)) = (&options.pages, &selection) {
        if selection.is_empty() {
            return Err(RenderError::NoPageSelected { selection: ranges.as_str().to_owned(), pages: sizes.len() });
        }
    }
    let written = match selection {
        None => {
            let pages = sizes.len();
            let written = crate::pdf::write_pages(&layout, &sizes, std::iter::from_fn(|| paged.next_page()), renderer.threads, options);
            written.map(|w| (w, pages))
        }
        Some(selection) => {
            // Every page is laid out (page numbers, NUMPAGES and the page limit are the
            // document's), but only the pages kept are finished and written.
            selection.apply(&mut layout);
            let kept = selection.sizes(&sizes);
            let mut next = 0;
            let pages = std::iter::from_fn(|| loop {
                let page = next;
                next += 1;
                if selection.keeps(page) {
                    return paged.next_page();
                }
                paged.skip_page()?;
            });
            let written = crate::pdf::write_pages(&layout, &kept, pages, renderer.threads, options);
            written.map(|w| (w, kept.len()))
        }
    };
    let ((pdf, pdf_warnings), pages) = written.map_err(|stop| match stop {
        Stop::Pages(e) => RenderError::from(e),
        Stop::Pdf(e) => RenderError::from(e),
    })?;
    let mut warnings = read.warnings;
    if let Some(filler) = &filler {
        warnings.extend(filler.warnings());
    }
    warnings.extend(paged.finish());
    warnings.extend(pdf_warnings);
    renderer.release.dispose(layout);
    renderer.release.dispose(read.document);
    Ok(Converted { pdf, pages, warnings })
}
