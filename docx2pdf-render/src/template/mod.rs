//! Documents from templates: a DOCX's content controls (§17.5.2) and MERGEFIELD fields
//! (§17.16.5.35) filled with a JSON object as the reader reads each story part. It sits
//! between the reader (whose [`StoryFilter`](crate::docx::StoryFilter) it implements) and
//! resolve; nothing below it knows of templates.

mod binding;
mod controls;
mod data;
mod date;
mod error;
mod fields;
mod fill;
mod mergefield;
mod number;
mod picture;
mod story;
mod text;
mod tree;
mod usage;

pub use data::{TemplateData, MAX_DATA_BYTES};
pub use error::TemplateError;
pub use story::Filler;
