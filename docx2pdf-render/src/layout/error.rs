//! Why layout fails: the time limit, or a document that would never end.

use crate::deadline::TimedOut;

/// Why layout failed.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    /// The render time limit passed.
    #[error(transparent)]
    Timeout(#[from] TimedOut),
    /// The document would lay out to more pages than the renderer produces.
    #[error("the document has more than {limit} pages")]
    TooManyPages {
        /// The page limit.
        limit: usize,
    },
}
