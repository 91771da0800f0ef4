//! Why layout fails: a render limit (time or memory), or a document that would never end.

use crate::deadline::Limit;

/// Why layout failed.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    /// A render limit passed: the time limit or the memory budget (the variant's name is
    /// from when time was the only one).
    #[error(transparent)]
    Timeout(#[from] Limit),
    /// The document would lay out to more pages than the renderer produces.
    #[error("the document has more than {limit} pages")]
    TooManyPages {
        /// The page limit.
        limit: usize,
    },
}
