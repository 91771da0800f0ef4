//! Allocator settings: one for the long-running server, one for a single conversion.
//!
//! The server: glibc keeps memory freed at the top of a heap until 128 KiB or more is
//! free, and raises that threshold as large blocks come and go (its dynamic mmap
//! threshold), so after a long document a worker's heap stays at its peak and the next
//! long document on the other worker adds its own. A fixed 1 MiB trim threshold gives it
//! back between documents. Measured (`bench-load`, 2,000 mixed corpus documents at
//! concurrency 16, idle 2-core machine): peak RSS 317 → 263 MB, throughput 148 → 138
//! requests/s. `MALLOC_TRIM_THRESHOLD_` in the environment wins.

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

/// How much the heap grows by at a time in a conversion: address space only, backed page
/// by page as it is touched; the longest corpus documents peak near 100 MB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ONE_DOCUMENT_TOP_PAD: libc::c_int = 64 << 20;

/// Sets glibc up for one conversion in a process of its own (`convert`): every block
/// comes from one heap on one arena, grown 64 MB at a time and kept until exit. By
/// default every large buffer (a decoded picture, a compressed stream) was a fresh mapping,
/// faulted in and unmapped when freed: on a 2-core machine, page faults were a third of the
/// time of a long or picture-heavy document. Measured against `GLIBC_TUNABLES` set (glibc's
/// defaults), each run right after a LibreOffice conversion and right after itself, CPU
/// (`ru_utime` + `ru_stime`): the 70 first corpus documents 2.80 → 2.66 s, the 14 longest
/// twice 8.69 → 8.23 s, page faults of the latter 791,000 → 630,000.
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
        }
    }
}
