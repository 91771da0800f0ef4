//! Render threads run at a lower CPU priority than the threads that serve requests.

/// How much nicer than the process a render thread is (setpriority(2): up to 19).
#[cfg(target_os = "linux")]
const RENDER_NICENESS: libc::c_int = 10;

/// Lowers the calling thread's CPU priority. A request goes back and forth between the
/// HTTP threads and the database's threads around its render (key lookup, hold, debit,
/// answer), and with every core busy rendering each of those steps waited for a time
/// slice: at concurrency 8 on two cores, one render thread served more requests than two
/// (765 against 610–760 requests/s). At a lower priority the renders take only the time
/// the serving threads leave (Linux keeps nice values per thread: `who` 0 is the caller).
pub(super) fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread; getpriority's -1 may be an
        // error or a value, and either way the sum below is a valid niceness.
        let ok = unsafe {
            let base = libc::getpriority(libc::PRIO_PROCESS, 0);
            libc::setpriority(libc::PRIO_PROCESS, 0, (base + RENDER_NICENESS).min(19)) == 0
        };
        if !ok {
            tracing::warn!("a render thread's priority could not be lowered");
        }
    }
}
