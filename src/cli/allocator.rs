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

/// Heap grown at once for one conversion, bytes: address space only, backed as it is
/// touched; the longest corpus documents peak near 100 MB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ONE_DOCUMENT_HEAP: usize = 256 << 20;

/// How much the heap grows by when a document needs more than [`ONE_DOCUMENT_HEAP`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ONE_DOCUMENT_TOP_PAD: libc::c_int = 64 << 20;

/// A transparent huge page (x86-64, and arm64 with 4 KiB pages).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HUGE_PAGE: usize = 2 << 20;

/// Sets glibc up for one conversion in a process of its own (`convert`), where the
/// kernel's page faults were a third of the time of a long or picture-heavy document:
/// every large buffer (a decoded picture, a compressed stream) was a fresh mapping
/// faulted in 4 KiB at a time and unmapped when freed. Here every block comes from one
/// heap on one arena, grown once, kept until exit, and backed by transparent huge pages
/// where the kernel allows them (`madvise` mode, the common default). Measured on a
/// 2-core machine: page faults of WC-BodyBookmarks-After 25,975 → 382 and of the 267-file
/// corpus loop 390,000 → 90,000 (`perf stat`); ceng SDD (screenshots) 119 → 86 ms and
/// docx4j headers_footers 96 → 63 ms (hyperfine, the binaries before and after this
/// setting). `GLIBC_TUNABLES` in the environment wins.
pub(super) fn tune_for_one_document() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        // SAFETY: everything here runs on the one thread there is, before the document is
        // read. The break is moved only upwards, into a gap glibc then steps over (it
        // supports such "foreign" sbrk calls); madvise only advises the kernel about pages
        // of the heap just grown, so its failure changes nothing.
        unsafe {
            // No block gets a mapping of its own (M_MMAP_MAX 0), the heap is never given
            // back (trim threshold), and the first growth is exactly what is asked for.
            let tuned = libc::mallopt(libc::M_ARENA_MAX, 1) == 1
                && libc::mallopt(libc::M_MMAP_MAX, 0) == 1
                && libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX) == 1
                && libc::mallopt(libc::M_TOP_PAD, 0) == 1;
            if !tuned {
                tracing::debug!("the allocator could not be tuned for one document");
                return;
            }
            // The kernel backs only whole, aligned 2 MiB ranges with huge pages, and none
            // that holds a page already touched. The heap starts wherever the binary ends,
            // and glibc writes a header where its new top starts and one where the first
            // block ends. So the break is first moved up to one page below a boundary:
            // both headers of the one block asked for below land outside the aligned
            // ranges, which are advised before anything else touches them.
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(1) as usize;
            let start = libc::sbrk(0) as usize;
            if start == usize::MAX {
                return;
            }
            let boundary = (start + page).next_multiple_of(HUGE_PAGE);
            if libc::sbrk((boundary - page - start) as libc::intptr_t) as usize == usize::MAX {
                return;
            }
            // `black_box`: the compiler must not drop the pair as dead code.
            let block = std::hint::black_box(libc::malloc(ONE_DOCUMENT_HEAP));
            let end = libc::sbrk(0) as usize;
            let to = end - end % HUGE_PAGE;
            if !block.is_null() && end != usize::MAX && to > boundary {
                libc::madvise(boundary as *mut libc::c_void, to - boundary, libc::MADV_HUGEPAGE);
            }
            libc::free(block);
            libc::mallopt(libc::M_TOP_PAD, ONE_DOCUMENT_TOP_PAD);
        }
    }
}
