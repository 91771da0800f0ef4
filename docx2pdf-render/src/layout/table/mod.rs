//! Tables: column widths, cell layout, rows, where a row splits across pages and how its borders resolve and are drawn.

pub(super) mod rows;

pub(crate) use rows::*;
