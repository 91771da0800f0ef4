//! Lays a DOCX out with the test renderer's fonts and returns the pages as positioned text
//! and rules, for fixtures that check where things land.

use docx2pdf::layout::summary::{summarize, PageSummary};
use docx2pdf::render::Deadline;

/// The laid-out pages of a DOCX package.
pub fn lay_out(bytes: &[u8]) -> Vec<PageSummary> {
    let renderer = super::renderer();
    let deadline = Deadline::none();
    let read =
        docx2pdf::docx::read(bytes, &renderer.limits, &deadline).expect("a readable package");
    let laid =
        docx2pdf::layout::layout(&read.document, &renderer.fonts, &deadline).expect("layout");
    summarize(&laid.layout)
}

/// Whether two lengths in points agree within `tolerance`.
pub fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}
