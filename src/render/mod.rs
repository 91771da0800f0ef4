//! The conversion pipeline (docx → layout → pdf) and the pool of render workers that runs it.

pub mod convert;
pub mod deadline;
pub mod error;
pub mod pool;
mod priority;
pub mod release;

pub use convert::{convert, convert_with, Rendered, Renderer};
pub use deadline::Deadline;
pub use error::{RenderError, RenderErrorKind};
pub use pool::{PoolActivity, PoolError, RenderPool};
pub use release::Release;
