//! Layout: fonts, shaping, line breaking, pagination, headers and footers → frames.
//!
//! In rooms by layout model: `fonts/` (faces, metrics, shaping), `inline/` (a paragraph's
//! runs into lines), `flow/` (blocks onto pages and columns), `table/` (tables, and where
//! their rows split), `objects/` (pictures, shapes, text boxes). `document.rs` runs them
//! over a document; `context.rs` holds what one layout shares; `fragment.rs` the pieces
//! they hand each other.

pub use crate::frame;

mod context;
mod document;
mod error;
mod fragment;
pub mod summary;
#[cfg(test)]
mod testing;

mod flow;
pub(crate) mod fonts;
mod inline;
mod objects;
mod table;

// The rooms' modules under the names layout code uses them by (`crate::layout::line`).
use flow::header_footer;
use flow::notes;
use flow::page;
use flow::page_borders;
use flow::page_log;
use flow::stack;
use flow::wrap;
use fonts::cache_file;
use fonts::document_fonts;
use fonts::east_asian;
use fonts::font_coverage;
use fonts::font_index;
use fonts::font_metrics;
use fonts::office_metrics;
use fonts::shape_cache;
use fonts::shaping;
use fonts::space_context;
use fonts::symbols;
use inline::auto_space;
use inline::bidi;
use inline::collect;
use inline::fields;
use inline::fraction;
use inline::kinsoku;
use inline::line;
use inline::linebreak;
use inline::paragraph;
use inline::paragraph_box;
use inline::tabs;
use objects::horizontal_rule;
use objects::picture;
use objects::shape;
use objects::text_box;

pub use document::{layout, layout_releasing, paginate, LaidOut, Paged};
pub use error::LayoutError;
pub use fonts::book::FontBook;
