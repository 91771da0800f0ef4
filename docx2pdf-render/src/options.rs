//! The library's one-call conversion: [`convert`] with [`Options`].

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::docx::PackageLimits;
use crate::layout::FontBook;
use crate::pdf::PdfOptions;
use crate::pipeline::{convert_filled, Converted, Renderer};
use crate::template::TemplateData;
use crate::{Deadline, Release, RenderError};

/// How to convert: the conformance to claim, where fonts are, how long, how large and how
/// much memory a conversion may take, and how many threads may write its PDF.
#[derive(Debug, Clone)]
pub struct Options {
    /// PDF/UA and PDF/A claims (tagged PDF without a claim by default).
    pub pdf: PdfOptions,
    /// Folders of fonts to use besides the system's (Office fonts, metric-compatible ones).
    pub font_dirs: Vec<PathBuf>,
    /// The most one conversion may take; `None` for no limit. Every stage checks it, so a
    /// hostile document fails with [`RenderErrorKind::Timeout`](crate::RenderErrorKind)
    /// instead of holding the thread.
    pub time_limit: Option<Duration>,
    /// The most heap one conversion may hold, bytes; `None` for no limit. It is counted only
    /// when the program's global allocator is [`memory::Counting`](crate::memory::Counting)
    /// (a program opts in); it then fails with
    /// [`RenderErrorKind::MemoryLimit`](crate::RenderErrorKind) once the converting thread
    /// holds more.
    pub memory_limit: Option<usize>,
    /// What the package may inflate to and how many pages it may lay out to.
    pub limits: PackageLimits,
    /// Threads writing the PDF's streams: 1 where other threads convert other documents
    /// (a service), 0 for every core of the machine.
    pub threads: usize,
    /// The data to fill the document's content controls and merge fields with
    /// (docs/templates.md); `None` converts the document as it is.
    pub data: Option<TemplateData>,
}

impl Default for Options {
    fn default() -> Options {
        Options { pdf: PdfOptions::default(), font_dirs: Vec::new(), time_limit: None, memory_limit: None, limits: PackageLimits::default(), threads: 1, data: None }
    }
}

/// Converts a DOCX file's bytes to a PDF as Microsoft Word would print it.
///
/// The fonts of the system and of `options.font_dirs` are loaded on the first call for
/// those folders and kept for the next ones; a program that converts many documents may
/// hold a [`Renderer`] of its own instead and call [`convert_with`](crate::convert_with).
pub fn convert(docx: &[u8], options: &Options) -> Result<Converted, RenderError> {
    let renderer = Renderer { fonts: font_book(&options.font_dirs), limits: options.limits.clone(), threads: options.threads, release: Release::Free };
    let deadline = options.time_limit.map_or_else(Deadline::none, Deadline::after);
    let deadline = match options.memory_limit {
        Some(bytes) => deadline.with_memory_limit(bytes),
        None => deadline,
    };
    convert_filled(&renderer, docx, &deadline, options.pdf.clone(), options.data.as_ref()).map_err(|e| match (e, options.time_limit) {
        (e, Some(limit)) if e.kind() == crate::RenderErrorKind::Timeout => RenderError::Timeout(limit.as_secs()),
        (e, _) => e,
    })
}

/// The font book of the system's fonts and `dirs`, loaded once per set of folders.
fn font_book(dirs: &[PathBuf]) -> Arc<FontBook> {
    static BOOKS: OnceLock<Mutex<HashMap<Vec<PathBuf>, Arc<FontBook>>>> = OnceLock::new();
    let mut books = BOOKS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    books.entry(dirs.to_vec()).or_insert_with(|| Arc::new(FontBook::load(dirs))).clone()
}
