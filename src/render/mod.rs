//! The pool of render workers that runs conversions for the service, and the renderer's
//! pipeline it calls (`docx2pdf-render`).

pub mod budget;
pub mod pool;
mod priority;

pub use docx2pdf_render::pipeline::{convert, convert_filled, convert_with, Converted as Rendered, Renderer};
pub use docx2pdf_render::{changes, deadline, error, memory, release};
pub use docx2pdf_render::{Deadline, Release, RenderError, RenderErrorKind};
pub use pool::{PoolActivity, PoolError, RenderPool};
