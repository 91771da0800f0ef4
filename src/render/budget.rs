//! The memory budget of one render when the operator sets none: a share of the machine's
//! memory (or of the service's cgroup limit, when lower) divided among the render workers.
//!
//! The rule: half of the memory, divided by the workers, kept between [`FLOOR`] and
//! [`CEILING`]. Half, because the renders' heaps are not all the service holds: its own
//! base (fonts, caches, the database pool), uploads and PDFs in flight outside the render
//! threads, and the allocator's free-but-kept pages come on top, and the page cache and
//! the rest of the machine need room too. The budget is a guard against the one document
//! that would take the whole machine (the kernel's OOM killer ends every conversion in
//! flight, not only the guilty one), not a tight fit.

/// One MiB.
const MIB: u64 = 1 << 20;

/// The smallest default budget, bytes: five times the largest render of the shared corpus,
/// which holds 32–48 MB of heap (`convert --render-memory-mb`: 2 of its 265 documents stop
/// at 32, none at 48). A machine too small for its workers at this budget wants fewer
/// workers (docs/operations.md, "Memory").
pub const FLOOR: u64 = 256 * MIB;

/// The largest default budget, bytes: on a large machine half of the memory for each
/// worker would let one render grow for minutes before it is stopped. 10,000 plain
/// paragraphs (589 pages) peak at 58 MB resident (`cargo bench --bench memory`), so this
/// leaves documents near the page limit (`--max-pages`, 10,000) room.
pub const CEILING: u64 = 4096 * MIB;

/// The default budget of one render, bytes, for a machine with `memory` bytes (`None`
/// when it cannot be read: the floor) and `workers` render threads.
pub fn default_budget(memory: Option<u64>, workers: usize) -> u64 {
    match memory {
        Some(memory) => (memory / 2 / workers.max(1) as u64).clamp(FLOOR, CEILING),
        None => FLOOR,
    }
}

/// The memory this process may use, bytes: the machine's (`MemTotal` of `/proc/meminfo`),
/// or the cgroup's limit when one is set lower (`memory.max` of cgroup v2,
/// `memory.limit_in_bytes` of v1). `None` where none of them can be read.
pub fn machine_memory() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| mem_total(&text));
    let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok().and_then(|text| cgroup_limit(&text)));
    match (total, cgroup) {
        (Some(total), Some(limit)) => Some(total.min(limit)),
        (total, limit) => total.or(limit),
    }
}

/// `MemTotal` of a `/proc/meminfo` text, bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// A cgroup memory limit file's value, bytes; `None` for `max` (no limit).
fn cgroup_limit(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1024 * MIB;

    #[test]
    fn half_the_memory_is_shared_among_the_workers_within_the_floor_and_the_ceiling() {
        assert_eq!(default_budget(Some(8 * GIB), 2), 2 * GIB);
        assert_eq!(default_budget(Some(8 * GIB), 8), 512 * MIB);
        assert_eq!(default_budget(Some(24 * GIB), 2), CEILING, "a large machine");
        assert_eq!(default_budget(Some(GIB), 16), FLOOR, "many workers on a small machine");
        assert_eq!(default_budget(None, 2), FLOOR, "memory unknown");
        assert_eq!(default_budget(Some(8 * GIB), 0), 4 * GIB, "no workers counts as one");
    }

    #[test]
    fn the_memory_is_read_from_meminfo_and_a_cgroup_limit() {
        assert_eq!(mem_total("MemTotal:       24683904 kB\nMemFree: 1 kB\n"), Some(24_683_904 * 1024));
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        assert_eq!(cgroup_limit("2147483648\n"), Some(2 * GIB));
        assert_eq!(cgroup_limit("max\n"), None);
        #[cfg(target_os = "linux")]
        assert!(machine_memory().is_some_and(|m| m > 64 * MIB), "this machine's memory");
    }
}
