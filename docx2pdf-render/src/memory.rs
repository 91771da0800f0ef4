//! Heap bytes per thread, the reading a render's memory budget is checked against: a
//! counting global allocator that a program opts into, and the calling thread's count.
//!
//! A render runs on one thread from start to finish (the service's workers; the PDF writer
//! may borrow helpers only to compress streams, after the last check), so the bytes its
//! thread allocated and has not freed are the render's heap. The count is a plain
//! thread-local number, no atomics: the allocator adds and subtracts on the thread that
//! calls it and nobody else reads it. A block freed on another thread than the one that
//! allocated it (an upload read on an HTTP thread and dropped by a worker, a PDF built by a
//! worker and sent by an HTTP thread) leaves each thread's count off by its size for
//! good, so a reading is only meaningful against a baseline taken on the same thread:
//! [`Deadline::with_memory_limit`](crate::deadline::Deadline::with_memory_limit) takes
//! one when the render starts.
//!
//! ```
//! // In the program's main crate (the library installs nothing by itself):
//! #[global_allocator]
//! static ALLOCATOR: docx2pdf_render::memory::Counting = docx2pdf_render::memory::Counting;
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread. Const-initialised and without a
    /// destructor, so reading it allocates nothing and works until the thread is gone.
    static NET: Cell<isize> = const { Cell::new(0) };
}

/// The system allocator, counting on each thread the bytes allocated minus freed there.
/// Install it with `#[global_allocator]` to give [`this_thread`] — and the memory budget
/// of [`Deadline`](crate::deadline::Deadline) — something to read; without it both see
/// nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

/// Adds `bytes` (negative: freed) to the calling thread's count.
#[inline(always)]
fn count(bytes: isize) {
    // `try_with` never fails on a const, drop-free thread local; it also never panics,
    // which the allocator must not.
    let _ = NET.try_with(|net| net.set(net.get().wrapping_add(bytes)));
}

// SAFETY: every call is passed to `System` unchanged; the count only observes sizes.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            count(layout.size() as isize);
        }
        ptr
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc_zeroed(layout);
        if !ptr.is_null() {
            count(layout.size() as isize);
        }
        ptr
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = System.realloc(ptr, layout, new_size);
        if !moved.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        moved
    }
}

/// Bytes allocated minus bytes freed on the calling thread since it started, under
/// [`Counting`]; 0 under any other global allocator. Only differences of two readings on
/// the same thread mean something (see the module's note on drift).
pub fn this_thread() -> isize {
    NET.try_with(Cell::get).unwrap_or(0)
}

/// Whether the program's global allocator is [`Counting`]: a block allocated here shows in
/// this thread's count.
pub fn is_counting() -> bool {
    let before = this_thread();
    let probe = std::hint::black_box(vec![0u8; 64]);
    let counted = this_thread() != before;
    drop(probe);
    counted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` through the counting allocator's own methods on a fresh thread, where
    /// nothing else allocates between the readings.
    fn on_fresh_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().unwrap()
    }

    #[test]
    fn allocations_count_until_they_are_freed_and_resizes_count_their_difference() {
        on_fresh_thread(|| {
            let start = this_thread();
            let layout = Layout::from_size_align(1000, 8).unwrap();
            // SAFETY: the allocator's contract: each block is freed once, with its layout.
            unsafe {
                let a = Counting.alloc(layout);
                assert_eq!(this_thread() - start, 1000);
                let b = Counting.alloc_zeroed(layout);
                assert_eq!(this_thread() - start, 2000);
                let a = Counting.realloc(a, layout, 4000);
                assert_eq!(this_thread() - start, 5000, "grown by 3000");
                let a = Counting.realloc(a, Layout::from_size_align(4000, 8).unwrap(), 500);
                assert_eq!(this_thread() - start, 1500, "shrunk by 3500");
                Counting.dealloc(a, Layout::from_size_align(500, 8).unwrap());
                Counting.dealloc(b, layout);
            }
            assert_eq!(this_thread(), start, "all freed");
        });
    }

    #[test]
    fn a_block_freed_on_another_thread_counts_there() {
        let layout = Layout::from_size_align(4096, 8).unwrap();
        // SAFETY: allocated once here, freed once below with the same layout.
        let (block, counted_here) = on_fresh_thread(move || {
            let start = this_thread();
            let block = unsafe { Counting.alloc(layout) } as usize;
            (block, this_thread() - start)
        });
        assert_eq!(counted_here, 4096);
        let freed_there = on_fresh_thread(move || {
            let start = this_thread();
            unsafe { Counting.dealloc(block as *mut u8, layout) };
            this_thread() - start
        });
        assert_eq!(freed_there, -4096, "the drift a baseline removes");
    }

    #[test]
    fn the_library_alone_counts_nothing() {
        // The renderer's own tests run under the system allocator: nothing is counted.
        assert!(!is_counting());
        assert_eq!(this_thread(), 0);
    }
}
