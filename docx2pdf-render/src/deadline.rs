//! The render's limits, checked cooperatively by every stage of the renderer: the time
//! limit and, where the program counts its heap, the memory budget; and the page budget
//! that travels with them.

use std::time::{Duration, Instant};

use crate::memory;

/// The render limit a render reached, which stops it: the first [`Deadline::check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Limit {
    /// The render ran past its time limit.
    #[error("the conversion ran past its time limit")]
    Time,
    /// The render's thread held more heap than its budget.
    #[error("the conversion needed more memory than its budget of {} MB", .budget >> 20)]
    Memory {
        /// The budget, bytes.
        budget: usize,
    },
}

/// The name [`Limit`] had while time was the render's only limit, which the line breaker's
/// signature still uses: either limit.
pub type TimedOut = Limit;

/// A heap budget and the reading it is measured from.
#[derive(Debug, Clone, Copy)]
struct Budget {
    /// The render thread's [`memory::this_thread`] when the render started.
    baseline: isize,
    /// Bytes the render may hold above the baseline.
    bytes: usize,
}

/// When the current render must give up. Stages call [`Deadline::check`] in their loops
/// (per part, per paragraph, per line, per page), so a hostile document cannot hold a
/// worker past the limit, nor grow its heap past the budget when it has one. It also
/// carries the configured page limit, which layout checks where it starts a page: all
/// three bound the same thing, the work one upload may cause.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    at: Option<Instant>,
    max_pages: Option<usize>,
    memory: Option<Budget>,
}

impl Deadline {
    /// A deadline `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline { at: Some(Instant::now() + limit), max_pages: None, memory: None }
    }

    /// No time limit (the `convert` command).
    pub fn none() -> Deadline {
        Deadline { at: None, max_pages: None, memory: None }
    }

    /// The same deadline, with at most `pages` pages laid out.
    pub fn with_max_pages(self, pages: usize) -> Deadline {
        Deadline { max_pages: Some(pages), ..self }
    }

    /// The same deadline, with at most `bytes` of heap held by the calling thread above
    /// what it holds now. Call it on the thread that renders, as the render starts: the
    /// reading now is the baseline, which sets aside what the thread's count drifted by
    /// in earlier renders (blocks allocated on one thread and freed on another). Counts
    /// only under the [`memory::Counting`] allocator; under another the budget is never hit.
    pub fn with_memory_limit(self, bytes: usize) -> Deadline {
        Deadline { memory: Some(Budget { baseline: memory::this_thread(), bytes }), ..self }
    }

    /// The configured page limit, if any (layout has its own ceiling otherwise).
    pub fn max_pages(&self) -> Option<usize> {
        self.max_pages
    }

    /// The memory budget, bytes, if any.
    pub fn memory_limit(&self) -> Option<usize> {
        self.memory.map(|m| m.bytes)
    }

    /// `Err(Limit::Time)` once the deadline has passed, `Err(Limit::Memory)` once the
    /// calling thread holds more than the budget above its baseline.
    pub fn check(&self) -> Result<(), Limit> {
        if let Some(at) = self.at {
            if Instant::now() >= at {
                return Err(Limit::Time);
            }
        }
        if let Some(budget) = self.memory {
            // A thread-local read and a subtraction: as cheap as the clock read above.
            let held = memory::this_thread().wrapping_sub(budget.baseline);
            if held > 0 && held as usize > budget.bytes {
                return Err(Limit::Memory { budget: budget.bytes });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_limit_has_passed_at_once() {
        assert_eq!(Deadline::after(Duration::ZERO).check(), Err(Limit::Time));
    }

    #[test]
    fn no_deadline_never_passes() {
        assert_eq!(Deadline::none().check(), Ok(()));
    }

    #[test]
    fn the_budget_counts_from_the_baseline_on_the_render_thread() {
        use std::alloc::{GlobalAlloc, Layout};
        // The renderer's tests run under the system allocator: the counting one is called
        // directly, on a thread of its own.
        std::thread::spawn(|| {
            let layout = Layout::from_size_align(1 << 20, 8).unwrap();
            // SAFETY: each block is freed once, with its layout.
            unsafe {
                // What earlier renders left on the thread is not held against this one.
                let earlier = memory::Counting.alloc(layout);
                let deadline = Deadline::none().with_memory_limit(3 << 20);
                assert_eq!(deadline.memory_limit(), Some(3 << 20));
                let blocks: Vec<*mut u8> = (0..3).map(|_| memory::Counting.alloc(layout)).collect();
                assert_eq!(deadline.check(), Ok(()), "3 MB held: at the budget");
                let over = memory::Counting.alloc(Layout::from_size_align(1, 1).unwrap());
                assert_eq!(deadline.check(), Err(Limit::Memory { budget: 3 << 20 }));
                memory::Counting.dealloc(over, Layout::from_size_align(1, 1).unwrap());
                assert_eq!(deadline.check(), Ok(()), "back under the budget");
                // The time limit is reported first when both have passed.
                let both = Deadline::after(Duration::ZERO).with_memory_limit(0);
                let more = memory::Counting.alloc(layout);
                assert_eq!(both.check(), Err(Limit::Time));
                for block in blocks.into_iter().chain([earlier, more]) {
                    memory::Counting.dealloc(block, layout);
                }
            }
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_memory_stop_names_its_budget() {
        assert_eq!(
            Limit::Memory { budget: 64 << 20 }.to_string(),
            "the conversion needed more memory than its budget of 64 MB"
        );
    }
}
