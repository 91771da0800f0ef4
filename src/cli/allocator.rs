//! Allocator settings: one for the long-running server, one for a single conversion.
//!
//! The server: glibc keeps memory freed at the top of a heap until 128 KiB or more is
//! free, and raises that threshold as large blocks come and go (its dynamic mmap
//! threshold), so after a long document a worker's heap stays at its peak and the next
//! long document on the other worker adds its own. A fixed 1 MiB trim threshold gives it
//! back between documents. Measured (`bench-load`, 2,000 mixed corpus documents at
//! concurrency 16, idle 2-core machine): peak RSS 317 → 263 MB, throughput 148 → 138
//! requests/s. `MALLOC_TRIM_THRESHOLD_` in the environment wins. Once the render pool has
//! been idle for a while, the free memory inside the heaps goes back too
//! ([`give_back_when_idle`]).

#[cfg(all(target_os = "linux", target_env = "gnu"))]
use std::time::Duration;

/// Trim threshold set at start, bytes.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 1 << 20;

/// Sets the trim threshold unless the operator set one (glibc only; elsewhere nothing).
pub(super) fn tune_for_serving() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_TRIM_THRESHOLD_").is_none() {
        // SAFETY: mallopt changes an allocator parameter; it is called once, before the
        // worker threads start.
        let ok = unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD) };
        if ok != 1 {
            tracing::warn!("the allocator's trim threshold could not be set");
        }
    }
}

/// How often the server looks whether its render pool has gone idle.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// Gives the free memory inside glibc's heaps back to the system once the render pool has
/// been idle for a whole [`IDLE_CHECK`] period after finishing work (`malloc_trim`, which
/// also releases free pages below the top of each heap, where the trim threshold cannot
/// reach). After the 2,000 mixed corpus documents the server held 225–230 MB, 176 MB of
/// it anonymous, until it stopped; now 138 MB (87 MB anonymous) three seconds after the
/// last request, with the same throughput under load. Trimming after every job instead cost
/// more than half the throughput (245 → 108 requests/s): each document faulted its pages
/// in again. The check runs on a thread of its own; the trim waits for no request.
pub(super) fn give_back_when_idle(activity: crate::render::PoolActivity) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let spawned = std::thread::Builder::new().name("idle-trim".into()).stack_size(64 << 10).spawn(move || {
            let mut watch = IdleWatch::new(activity.finished());
            loop {
                std::thread::sleep(IDLE_CHECK);
                if watch.gone_idle(activity.finished(), activity.depth()) {
                    // SAFETY: malloc_trim only returns free memory of the heaps; it takes
                    // each arena's lock like any allocation.
                    unsafe { libc::malloc_trim(0) };
                }
            }
        });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "no thread to give memory back when idle");
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = activity;
}

/// Decides, one check after another, when the pool has newly gone idle.
#[derive(Debug)]
#[cfg_attr(not(all(target_os = "linux", target_env = "gnu")), allow(dead_code))]
struct IdleWatch {
    /// Jobs finished at the previous check.
    seen: u64,
    /// Jobs finished at the last time the pool was found idle.
    idle_at: u64,
}

#[cfg_attr(not(all(target_os = "linux", target_env = "gnu")), allow(dead_code))]
impl IdleWatch {
    fn new(finished: u64) -> IdleWatch {
        IdleWatch { seen: finished, idle_at: finished }
    }

    /// Whether the pool went idle since the last check: jobs have finished since it was
    /// last idle, none finished in the last period and none is admitted now.
    fn gone_idle(&mut self, finished: u64, depth: usize) -> bool {
        let idle = finished == self.seen && finished != self.idle_at && depth == 0;
        if idle {
            self.idle_at = finished;
        }
        self.seen = finished;
        idle
    }
}

/// How much the heap grows by at a time in a conversion, bytes: the most that the helper
/// of [`prefault_heap`] populates ahead of the allocator. Larger steps cost small
/// documents what the helper populated for nothing (the one-page document with 1, 2, 4
/// and 8 MB: 5.2, 5.3, 6.0 and 7.8 ms, `perf stat`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ONE_DOCUMENT_TOP_PAD: libc::c_int = 1 << 20;

/// How long the helper of [`prefault_heap`] sleeps when the heap has not grown: doubled
/// from the first to the second while it stays the same.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const PREFAULT_NAPS: (Duration, Duration) = (Duration::from_micros(20), Duration::from_micros(320));

/// Sets glibc up for one conversion in a process of its own (`convert`): every block
/// comes from one heap on one arena, grown a megabyte at a time and kept until exit. By
/// default every large buffer (a decoded picture, a compressed stream) was a fresh
/// mapping, faulted in and unmapped when freed: on a 2-core machine, page faults were a
/// third of the time of a long or picture-heavy document. Measured against
/// `GLIBC_TUNABLES` set (glibc's defaults), each run right after a LibreOffice conversion
/// and right after itself, CPU (`ru_utime` + `ru_stime`): the 70 first corpus documents
/// 2.80 → 2.66 s, the 14 longest twice 8.69 → 8.23 s, page faults of the latter
/// 791,000 → 630,000 (with 64 MB steps and no helper).
///
/// Transparent huge pages for this heap (`MADV_HUGEPAGE`) were used before and left out
/// here. They saved the long documents another 23 ms each when run one after another, but
/// cost them 17 ms more each when a LibreOffice conversion had run before: in a virtual
/// machine the host backs a huge page taken from memory the guest freed earlier 4 KiB at a
/// time (with huge pages, system time 0.39 s over the 28 runs each after itself, 1.57 s
/// each after LibreOffice). In the interleaved comparison over the corpus
/// (`benches/compare_libreoffice.py`), leaving them out took docx2pdf from 3.77 to 3.52 s.
/// `GLIBC_TUNABLES` in the environment wins.
pub(super) fn tune_for_one_document() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        // SAFETY: mallopt changes allocator parameters; it runs on the one thread there
        // is, before the document is read. No block gets a mapping of its own
        // (M_MMAP_MAX 0) and the heap is never given back (trim threshold).
        let tuned = unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1) == 1
                && libc::mallopt(libc::M_MMAP_MAX, 0) == 1
                && libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX) == 1
                && libc::mallopt(libc::M_TOP_PAD, ONE_DOCUMENT_TOP_PAD) == 1
        };
        if !tuned {
            tracing::debug!("the allocator could not be tuned for one document");
        } else if spare_core() {
            prefault_heap();
        }
    }
}

/// Whether a core is likely to idle while this process runs: the load average of the
/// last minute (`/proc/loadavg`) is more than half a core below the cores this process
/// may use. Conversions run side by side on every core (`xargs -P`) would only lose time
/// to a helper. (The count of tasks runnable at this instant, the file's fourth field,
/// read 2 on an idle 2-core machine as often as 1: too noisy to decide by.)
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn spare_core() -> bool {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok());
    // One system call, where `available_parallelism` also reads the cgroup's files.
    // SAFETY: the set is a plain bit array that sched_getaffinity fills.
    let cores = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        match libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) {
            0 => libc::CPU_COUNT(&set) as usize,
            _ => 1,
        }
    };
    load.is_some_and(|load| load < cores as f64 - 0.5)
}

/// Starts a thread that backs the heap with memory as soon as glibc grows it
/// (`MADV_POPULATE_WRITE`, Linux 5.14), so that the conversion's own threads find the
/// pages there instead of taking a page fault for each: reading, resolving and laying out
/// run on one core, and the helper faults the pages in on the other. The thread lives
/// until the process ends; on an older kernel it stops at its first call. Measured
/// (`perf stat`, the same binary with and without the helper): WC-BodyBookmarks 320 →
/// 278 ms, handbook-872p 324 → 278 ms, docx4j headers_footers 98 → 78 ms, NVCA 98 → 85
/// ms; the one-page document 5.1 ms either way; the corpus loop 3.35–3.41 → 3.21–3.30 s;
/// the interleaved comparison with LibreOffice 3.52 → 3.04 s. It costs CPU: the loop's
/// CPU went from 3.46–3.52 to 3.54–3.56 s (the polling, and pages populated that no block
/// used).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn prefault_heap() {
    // SAFETY: sbrk(0) and sysconf only read the current break and a constant.
    let (start, page) = unsafe { (libc::sbrk(0) as usize, libc::sysconf(libc::_SC_PAGESIZE).max(1) as usize) };
    if start == usize::MAX {
        return;
    }
    let mut done = start.next_multiple_of(page);
    let spawned = std::thread::Builder::new().name("prefault".into()).stack_size(64 << 10).spawn(move || {
        let mut nap = PREFAULT_NAPS.0;
        loop {
            // SAFETY: brk(0) moves nothing; it returns the current break.
            let brk = unsafe { libc::syscall(libc::SYS_brk, 0) } as usize;
            let end = brk - brk % page;
            if end > done {
                // SAFETY: [done, end) lies in the heap, which is never given back (trim
                // threshold); populating backs it with memory without writing a byte.
                let len = end - done;
                if unsafe { libc::madvise(done as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) } != 0 {
                    return;
                }
                done = end;
                nap = PREFAULT_NAPS.0;
            } else {
                std::thread::sleep(nap);
                nap = (nap * 2).min(PREFAULT_NAPS.1);
            }
        }
    });
    if let Err(e) = spawned {
        tracing::debug!(error = %e, "no thread to populate the heap");
    }
}

#[cfg(test)]
mod tests {
    use super::IdleWatch;

    #[test]
    fn the_pool_goes_idle_once_a_whole_period_after_its_last_job() {
        let mut watch = IdleWatch::new(0);
        assert!(!watch.gone_idle(0, 0), "nothing has run yet");
        assert!(!watch.gone_idle(3, 1), "jobs finished during the period and one runs");
        assert!(!watch.gone_idle(3, 1), "one still runs");
        assert!(!watch.gone_idle(4, 0), "the last one finished during this period");
        assert!(watch.gone_idle(4, 0), "a whole period without work");
        assert!(!watch.gone_idle(4, 0), "still idle: nothing new to give back");
        assert!(!watch.gone_idle(5, 0));
        assert!(watch.gone_idle(5, 0), "idle again after more work");
    }
}
