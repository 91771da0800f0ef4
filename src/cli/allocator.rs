//! Allocator settings of the long-running server. (`convert` keeps glibc's defaults:
//! tuning its heap for one document — one arena, no mappings, a helper thread faulting the
//! heap in — saved 2% of the corpus loop, 3.39 against 3.46 s over 265 documents in seven
//! interleaved runs, not worth its code.)
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
/// in again. The check runs on a thread of its own; the trim waits for no request. Each
/// trim is logged at debug level with the anonymous memory before and after it.
pub(super) fn give_back_when_idle(activity: crate::render::PoolActivity) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // A small stack, with room for formatting a log line.
        let spawned = std::thread::Builder::new().name("idle-trim".into()).stack_size(256 << 10).spawn(move || {
            let mut watch = IdleWatch::new(activity.finished());
            loop {
                std::thread::sleep(IDLE_CHECK);
                if watch.gone_idle(activity.finished(), activity.depth()) {
                    let before_kb = rss_anon_kb();
                    // SAFETY: malloc_trim only returns free memory of the heaps; it takes
                    // each arena's lock like any allocation.
                    unsafe { libc::malloc_trim(0) };
                    tracing::debug!(before_kb, after_kb = rss_anon_kb(), "the render pool is idle: memory given back");
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

/// This process's anonymous resident memory, kB (`RssAnon` of `/proc/self/status`; 0 if
/// it cannot be read).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn rss_anon_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find_map(|l| l.strip_prefix("RssAnon:")).unwrap_or("");
    line.split_whitespace().next().and_then(|v| v.parse().ok()).unwrap_or(0)
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
