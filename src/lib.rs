//! docx2pdf: a DOCX-to-PDF conversion service metered in monthly credits. The renderer
//! behind it (docx → resolve → layout → pdf) is the `docx2pdf-render` crate; its modules
//! are re-exported here under their own names.

pub mod cli;
pub mod clock;
pub mod config;
pub mod credits;
pub mod db;
pub mod http;
pub mod keys;
pub mod ledger;
pub mod metrics;
pub mod output_options;
pub mod password;
pub mod render;
pub mod tokens;

pub use docx2pdf_render::{docx, fast_map, frame, layout, pdf, resolve, units, warning};
