//! `docx2pdf convert IN.docx OUT.pdf`: the service's renderer, without server or credits.

use crate::config::ConvertArgs;
use crate::output_options::{OptionError, Via};
use docx2pdf_render::TemplateData;
use crate::pdf::{file_stem, PdfOptions};
use crate::render::{convert_filled, Deadline, Release, Renderer};

use super::CliError;

/// Converts one file.
pub fn run(args: ConvertArgs) -> Result<(), CliError> {
    let bytes = std::fs::read(&args.input).map_err(|source| CliError::Read { path: args.input.clone(), source })?;
    // One document has the machine to itself: its PDF may be written on every core
    // (counted only when the document is large enough to use them), and the process ends
    // with it.
    let renderer = Renderer {
        threads: 0,
        release: Release::AtExit,
        ..Renderer::new(&args.font_dirs, args.limits.package())
    };
    let deadline = match args.limits.render_timeout_secs {
        0 => Deadline::none(),
        _ => Deadline::after(args.limits.render_timeout()),
    };
    // No memory budget unless one is asked for: the document has the machine to itself.
    let deadline = match args.limits.render_memory(|| None) {
        Some(bytes) => deadline.with_memory_limit(bytes),
        None => deadline,
    };
    // Only the file's stem, never its folder, may become the title.
    let stem = args.input.file_name().and_then(|name| file_stem(&name.to_string_lossy()));
    let password = args.password_file.as_deref().map(super::password_file::read).transpose()?;
    let mut options = PdfOptions { pdfua: args.pdfua, pdfa: args.pdfa, file_stem: stem, password, ..PdfOptions::default() };
    args.output_options.fields().apply(&mut options, Via::Flags)?;
    let data = match &args.data {
        Some(path) => {
            let json = std::fs::read(path).map_err(|source| CliError::Read { path: path.clone(), source })?;
            let data = TemplateData::parse(&json).map_err(|e| OptionError(format!("--data {} {e}", path.display())))?;
            Some(data).filter(|d| !d.is_empty())
        }
        None => None,
    };
    let rendered = convert_filled(&renderer, &bytes, &deadline, options, data.as_ref())
        .map_err(|source| CliError::Convert { path: args.input.clone(), source })?;
    std::fs::write(&args.output, &rendered.pdf).map_err(|source| CliError::Write { path: args.output.clone(), source })?;
    for w in &rendered.warnings {
        tracing::debug!(warning = %w, "render warning");
    }
    // What the document asked for and did not get (a conformance asked for and missed
    // first), as the service's X-Conversion-Warnings says it, uncut: the PDF is written
    // all the same.
    for change in crate::render::changes::summarize(&rendered.warnings) {
        eprintln!("warning: {change}");
    }
    tracing::debug!(pages = rendered.pages, warnings = rendered.warnings.len(), "converted");
    // The process ends here and its memory with it: taking the font book apart face by
    // face cost 0.44 M of a one-page conversion's 26 M instructions (callgrind).
    renderer.release.dispose(renderer);
    Ok(())
}
