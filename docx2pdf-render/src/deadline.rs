//! The render time limit, checked cooperatively by every stage of the renderer, and the
//! page budget that travels with it.

use std::time::{Duration, Instant};

/// The render ran past its time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the conversion ran past its time limit")]
pub struct TimedOut;

/// When the current render must give up. Stages call [`Deadline::check`] in their loops
/// (per part, per paragraph, per line, per page), so a hostile document cannot hold a
/// worker past the limit. It also carries the configured page limit, which layout checks
/// where it starts a page: both bound the same thing, the work one upload may cause.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    at: Option<Instant>,
    max_pages: Option<usize>,
}

impl Deadline {
    /// A deadline `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline { at: Some(Instant::now() + limit), max_pages: None }
    }

    /// No time limit (the `convert` command).
    pub fn none() -> Deadline {
        Deadline { at: None, max_pages: None }
    }

    /// The same deadline, with at most `pages` pages laid out.
    pub fn with_max_pages(self, pages: usize) -> Deadline {
        Deadline { max_pages: Some(pages), ..self }
    }

    /// The configured page limit, if any (layout has its own ceiling otherwise).
    pub fn max_pages(&self) -> Option<usize> {
        self.max_pages
    }

    /// `Err(TimedOut)` once the deadline has passed.
    pub fn check(&self) -> Result<(), TimedOut> {
        match self.at {
            Some(at) if Instant::now() >= at => Err(TimedOut),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_limit_has_passed_at_once() {
        assert_eq!(Deadline::after(Duration::ZERO).check(), Err(TimedOut));
    }

    #[test]
    fn no_deadline_never_passes() {
        assert_eq!(Deadline::none().check(), Ok(()));
    }
}
