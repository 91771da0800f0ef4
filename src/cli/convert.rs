//! `docx2pdf convert IN.docx OUT.pdf`: the service's renderer, without server or credits.

use std::sync::Arc;

use crate::config::ConvertArgs;
use crate::layout::FontBook;
use crate::render::{convert, Deadline, Renderer};

use super::CliError;

/// Converts one file.
pub fn run(args: ConvertArgs) -> Result<(), CliError> {
    super::allocator::tune_for_one_document();
    // The font book loads on a second thread while the package is read, which needs no
    // fonts: its index is a tenth of a one-page conversion's work.
    let font_dirs = args.font_dirs.clone();
    let fonts = std::thread::spawn(move || FontBook::load(&font_dirs));
    let bytes = std::fs::read(&args.input).map_err(|source| CliError::Read { path: args.input.clone(), source })?;
    let deadline = match args.limits.render_timeout_secs {
        0 => Deadline::none(),
        _ => Deadline::after(args.limits.render_timeout()),
    };
    let limits = args.limits.package();
    let failed = |source| CliError::Convert { path: args.input.clone(), source };
    let read = convert::read(&bytes, &limits, &deadline).map_err(failed)?;
    // A panic while loading is the same bug as one here.
    let fonts = fonts.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    // One document has the machine to itself: its PDF may be written on every core
    // (counted only when the document is large enough to use them).
    let renderer = Renderer { fonts: Arc::new(fonts), limits, threads: 0 };
    let rendered = convert::finish(&renderer, read, &deadline).map_err(failed)?;
    std::fs::write(&args.output, &rendered.pdf).map_err(|source| CliError::Write { path: args.output.clone(), source })?;
    for w in &rendered.warnings {
        tracing::debug!(warning = %w, "render warning");
    }
    tracing::debug!(pages = rendered.pages, warnings = rendered.warnings.len(), "converted");
    // The process ends here and its memory with it: taking the font book apart face by
    // face would only cost time.
    std::mem::forget(renderer);
    Ok(())
}
