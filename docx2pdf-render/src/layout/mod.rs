//! Layout: fonts, shaping, line breaking, pagination, headers and footers → frames.

pub use crate::frame;

mod bidi;
mod cache_file;
mod collect;
mod context;
mod document;
mod document_fonts;
mod east_asian;
mod error;
mod fields;
mod flow;
mod font_coverage;
mod font_index;
mod font_metrics;
mod fonts;
mod fraction;
mod fragment;
mod horizontal_rule;
mod header_footer;
mod auto_space;
mod kinsoku;
mod line;
mod linebreak;
mod notes;
mod office_metrics;
mod page;
mod page_borders;
mod page_log;
mod paragraph;
mod paragraph_box;
mod picture;
mod shape;
mod shape_cache;
mod shaping;
mod space_context;
mod stack;
pub mod summary;
mod symbols;
mod table;
mod tabs;
mod text_box;
mod wrap;
#[cfg(test)]
mod testing;

pub use document::{layout, layout_releasing, LaidOut};
pub use error::LayoutError;
pub use fonts::FontBook;
