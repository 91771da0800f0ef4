//! Lays a DOCX out with the test renderer's fonts and returns the pages as positioned text
//! and rules, for fixtures that check where things land.

use docx2pdf::layout::frame::{Layout, Page};
use docx2pdf::layout::summary::{summarize, PageSummary};
use docx2pdf::render::Deadline;

/// The laid-out pages of a DOCX package, summarized.
pub fn lay_out(bytes: &[u8]) -> Vec<PageSummary> {
    summarize(&layout(bytes))
}

/// The laid-out pages of a DOCX package, as the PDF writer gets them.
pub fn pages(bytes: &[u8]) -> Vec<Page> {
    layout(bytes).pages
}

/// Reads and lays out a DOCX package with the test renderer's fonts and limits.
fn layout(bytes: &[u8]) -> Layout {
    let renderer = super::renderer();
    let deadline = Deadline::none();
    let read =
        docx2pdf::docx::read(bytes, &renderer.limits, &deadline).expect("a readable package");
    docx2pdf::layout::layout(&read.document, &renderer.fonts, &deadline)
        .expect("layout")
        .layout
}

/// Whether two lengths in points agree within `tolerance`.
pub fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}
