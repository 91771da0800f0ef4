//! Inline layout: a paragraph's runs collected and shaped, bidi order, line breaking (UAX #14 with Word's exceptions, kinsoku), tabs, fields, fractions, and the finished lines with their boxes.

pub(super) mod collect;
pub(super) mod line;
pub(super) mod linebreak;
pub(super) mod bidi;
pub(super) mod kinsoku;
pub(super) mod auto_space;
pub(super) mod tabs;
pub(super) mod fields;
pub(super) mod fraction;
pub(super) mod paragraph;
pub(super) mod paragraph_box;
