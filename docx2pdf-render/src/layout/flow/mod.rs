//! Flow: blocks onto pages and columns — keep rules, widows, page and section breaks, floats and wrapping, footnotes and endnotes, headers and footers, page borders. A table is handed the region it may fill.

pub(super) mod paginate;
pub(super) mod page;
mod packed;
pub(super) mod page_borders;
pub(super) mod page_log;
pub(super) mod notes;
pub(super) mod header_footer;
pub(super) mod stack;
pub(super) mod wrap;

pub(crate) use paginate::*;
