//! Objects: pictures, drawn shapes, horizontal rules and text boxes, placed inline or anchored.

pub(super) mod picture;
pub(super) mod shape;
pub(super) mod horizontal_rule;
pub(super) mod text_box;
