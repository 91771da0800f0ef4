//! Fonts: the font book (system, embedded and substitute faces), the Office fonts' measured metrics, which face a character takes, and shaping with rustybuzz.

pub mod book;
pub(super) mod cache_file;
pub(super) mod document_fonts;
pub(super) mod east_asian;
pub(super) mod font_coverage;
pub(super) mod font_index;
pub(super) mod font_metrics;
pub(super) mod office_metrics;
pub(super) mod shadowed;
pub(super) mod shape_cache;
pub(super) mod shaping;
pub(super) mod space_context;
pub(super) mod symbols;

pub(crate) use book::*;
