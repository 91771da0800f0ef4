//! The compressing part of writing (content streams, font programs, pictures) spread over
//! threads, each with its own compressor, with the results in input order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::deflate::Deflater;

/// Below this much work (roughly bytes to compress) in one call, everything runs on the
/// caller's thread: starting a thread, its malloc arena and its compressor cost about
/// 0.3 ms, the time of compressing ~30 KB, and one-page documents got slower with threads
/// (measured with hyperfine on `convert`).
const MIN_PARALLEL_WORK: usize = 256 * 1024;

/// `threads`, or for 0 the cores this process may use: counted once, and only for a
/// document with enough to compress, as counting reads the process's cgroup files.
fn or_cores(threads: usize) -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    match threads {
        0 => *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        n => n,
    }
}

/// `work` applied to every item on up to `threads` threads (0: every core), the caller's
/// among them with `deflater`; the results come back in the order of `items`, so the document's bytes do
/// not depend on which thread did what. `weight` estimates an item's work in bytes to
/// compress: with less than [`MIN_PARALLEL_WORK`] in all, or one item, it runs here alone.
pub(super) fn map<T, R, F>(items: &[T], threads: usize, deflater: &mut Deflater, weight: impl Fn(&T) -> usize, work: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T, &mut Deflater) -> R + Sync,
{
    let heavy = threads != 1 && items.iter().map(weight).sum::<usize>() >= MIN_PARALLEL_WORK;
    let threads = if heavy { or_cores(threads).min(items.len()) } else { 1 };
    if threads <= 1 {
        return items.iter().map(|item| work(item, deflater)).collect();
    }
    // Items are taken one at a time from a shared counter: pictures and font programs
    // differ in cost by orders of magnitude, so a fixed split would leave a thread idle.
    let next = AtomicUsize::new(0);
    let run = |deflater: &mut Deflater| {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            done.push((i, work(item, deflater)));
        }
        done
    };
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(|| run(&mut Deflater::new()))).collect();
        let mut done = run(deflater);
        for helper in helpers {
            // A panic in a helper is the same bug as one here: it goes on to the caller
            // (the render pool catches it).
            done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        for (i, result) in done {
            slots[i] = Some(result);
        }
    });
    // Every index below the length was taken by exactly one thread.
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_items_whatever_the_threads() {
        let items: Vec<u32> = (0..200).collect();
        let mut deflater = Deflater::new();
        // Uneven work, so threads finish out of order.
        let work = |&n: &u32, d: &mut Deflater| {
            let data: Vec<u8> = (0..(n as usize % 7) * 5000).map(|i| (i * n as usize % 251) as u8).collect();
            (n, d.deflate(&data).map(<[u8]>::to_vec).unwrap_or_default())
        };
        let weight = |&n: &u32| (n as usize % 7) * 5000;
        let alone = map(&items, 1, &mut deflater, weight, work);
        assert!(alone.iter().enumerate().all(|(i, &(n, _))| n as usize == i));
        for threads in [0, 2, 4] {
            assert!(map(&items, threads, &mut deflater, weight, work) == alone, "threads {threads}");
        }
    }
}
