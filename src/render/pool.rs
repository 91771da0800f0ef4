//! The render pool: RenderActors on a SyncArbiter (one OS thread each) behind a bounded
//! queue. SyncArbiter's own mailbox is unbounded and a panic would kill its thread, so
//! admission is counted here (full → `Overloaded`) and every job runs under `catch_unwind`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, Addr, Handler, Message, SyncArbiter, SyncContext};

use super::convert_filled;
use super::{Deadline, RenderError, Rendered, Renderer};
use crate::pdf::PdfOptions;
use docx2pdf_render::TemplateData;

/// What a worker runs for each job: the real pipeline in service, anything in tests of the
/// pool itself.
pub type ConvertFn = dyn Fn(&[u8], &Deadline, PdfOptions, Option<&TemplateData>) -> Result<Rendered, RenderError> + Send + Sync;

/// One conversion for a worker. The upload moves in; it is never copied.
pub struct RenderJob {
    pub bytes: Vec<u8>,
    pub time_limit: Duration,
    /// The most heap the render's thread may hold, bytes (`None`: no budget).
    pub memory_limit: Option<usize>,
    /// The conformance the client asked for.
    pub options: PdfOptions,
    /// The data to fill the document with, if any (`data`).
    pub data: Option<TemplateData>,
}

/// A job with its admission slot: the slot is given back when the worker is done with the
/// job, even if the client that asked for it has gone.
struct Admitted {
    job: RenderJob,
    _slot: Slot,
}

impl Message for Admitted {
    type Result = Result<Rendered, RenderError>;
}

/// A render worker: one OS thread of the SyncArbiter.
pub struct RenderActor {
    convert: Arc<ConvertFn>,
}

impl Actor for RenderActor {
    type Context = SyncContext<Self>;
}

impl Handler<Admitted> for RenderActor {
    type Result = Result<Rendered, RenderError>;

    fn handle(&mut self, Admitted { job, .. }: Admitted, _: &mut SyncContext<Self>) -> Self::Result {
        // The deadline starts when a worker takes the job, so queueing time is not held
        // against the document; the memory budget counts from what this thread holds now,
        // so what earlier renders left to other threads to free is not held against it.
        let deadline = Deadline::after(job.time_limit);
        let deadline = match job.memory_limit {
            Some(bytes) => deadline.with_memory_limit(bytes),
            None => deadline,
        };
        match catch_unwind(AssertUnwindSafe(|| (self.convert)(&job.bytes, &deadline, job.options, job.data.as_ref()))) {
            Ok(Err(e)) if e.kind() == super::RenderErrorKind::Timeout => {
                Err(RenderError::Timeout(job.time_limit.as_secs()))
            }
            Ok(result) => result,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                tracing::error!(panic = %what, "a render panicked; the worker carries on");
                Err(RenderError::Panic)
            }
        }
    }
}

/// Why a job was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Workers and queue are all taken.
    #[error("the render queue is full")]
    Overloaded,
    /// The pool has stopped (shutdown).
    #[error("the render pool has stopped")]
    Stopped,
}

/// The handle the HTTP handlers use: admission control in front of the workers.
#[derive(Clone)]
pub struct RenderPool {
    addr: Addr<RenderActor>,
    activity: PoolActivity,
    capacity: usize,
    workers: usize,
}

/// How busy the pool is: jobs admitted and not finished, and jobs finished so far. A
/// clone observes the pool without keeping its workers alive.
#[derive(Clone, Default)]
pub struct PoolActivity {
    admitted: Arc<AtomicUsize>,
    finished: Arc<AtomicU64>,
}

impl PoolActivity {
    /// Jobs admitted and not finished (rendering or waiting).
    pub fn depth(&self) -> usize {
        self.admitted.load(Ordering::Acquire)
    }

    /// Jobs finished since the pool started, refused ones included.
    pub fn finished(&self) -> u64 {
        self.finished.load(Ordering::Acquire)
    }
}

/// Gives an admission slot back when the job ends, however it ends.
struct Slot(PoolActivity);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.finished.fetch_add(1, Ordering::AcqRel);
        self.0.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

impl RenderPool {
    /// Starts `workers` render threads that admit at most `workers + queue` jobs at once.
    /// Must be called inside a running actix system.
    pub fn start(renderer: Arc<Renderer>, workers: usize, queue: usize) -> RenderPool {
        let convert = move |bytes: &[u8], deadline: &Deadline, options: PdfOptions, data: Option<&TemplateData>| {
            convert_filled(&renderer, bytes, deadline, options, data)
        };
        Self::start_with(Arc::new(convert), workers, queue)
    }

    /// Starts the pool around any conversion function.
    pub fn start_with(convert: Arc<ConvertFn>, workers: usize, queue: usize) -> RenderPool {
        let workers = workers.max(1);
        let addr = SyncArbiter::start(workers, move || {
            // The factory runs on the worker's own thread.
            super::priority::lower_this_thread();
            RenderActor { convert: convert.clone() }
        });
        RenderPool { addr, activity: PoolActivity::default(), capacity: workers + queue, workers }
    }

    /// Jobs admitted and not finished (rendering or waiting).
    pub fn depth(&self) -> usize {
        self.activity.depth()
    }

    /// A handle that observes how busy the pool is.
    pub fn activity(&self) -> PoolActivity {
        self.activity.clone()
    }

    /// Jobs waiting for a worker.
    pub fn waiting(&self) -> usize {
        self.depth().saturating_sub(self.workers)
    }

    /// Number of render threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Runs a job, or refuses at once when the queue is full.
    pub async fn render(&self, job: RenderJob) -> Result<Result<Rendered, RenderError>, PoolError> {
        let taken = self.activity.admitted.fetch_add(1, Ordering::AcqRel);
        let slot = Slot(self.activity.clone());
        if taken >= self.capacity {
            return Err(PoolError::Overloaded);
        }
        self.addr.send(Admitted { job, _slot: slot }).await.map_err(|_| PoolError::Stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool_that_panics_on_boom() -> RenderPool {
        let convert = |bytes: &[u8], _: &Deadline, _: PdfOptions, _: Option<&TemplateData>| {
            assert!(bytes != b"boom", "a renderer bug");
            Ok(Rendered { pdf: bytes.to_vec(), pages: 1, warnings: Vec::new() })
        };
        RenderPool::start_with(Arc::new(convert), 1, 4)
    }

    fn job(bytes: &[u8]) -> RenderJob {
        RenderJob { bytes: bytes.to_vec(), time_limit: Duration::from_secs(5), memory_limit: None, options: PdfOptions::default(), data: None }
    }

    #[actix::test]
    async fn a_panicking_render_is_an_error_and_the_worker_lives_on() {
        let pool = pool_that_panics_on_boom();
        let failed = pool.render(job(b"boom")).await.expect("admitted");
        assert!(matches!(failed, Err(RenderError::Panic)));
        for _ in 0..3 {
            let ok = pool.render(job(b"fine")).await.expect("admitted").expect("rendered");
            assert_eq!(ok.pdf, b"fine");
        }
        assert_eq!(pool.depth(), 0, "every slot was given back");
    }

    #[actix::test]
    async fn jobs_past_the_capacity_are_refused_at_once() {
        let slow = |_: &[u8], _: &Deadline, _: PdfOptions, _: Option<&TemplateData>| {
            std::thread::sleep(Duration::from_millis(300));
            Ok(Rendered { pdf: Vec::new(), pages: 1, warnings: Vec::new() })
        };
        let pool = RenderPool::start_with(Arc::new(slow), 1, 1);
        let (a, b, c) = tokio::join!(pool.render(job(b"1")), pool.render(job(b"2")), pool.render(job(b"3")));
        let refused = [&a, &b, &c].iter().filter(|r| matches!(r, Err(PoolError::Overloaded))).count();
        assert_eq!(refused, 1);
        assert_eq!(pool.depth(), 0);
        assert_eq!(pool.activity().finished(), 3, "the refused job counts as finished too");
    }

    #[cfg(target_os = "linux")]
    #[actix::test]
    async fn render_threads_run_nicer_than_the_serving_threads() {
        // SAFETY: getpriority reads the calling thread's niceness (who 0 = this thread).
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let report = move |_: &[u8], _: &Deadline, _: PdfOptions, _: Option<&TemplateData>| Ok(Rendered { pdf: nice().to_string().into_bytes(), pages: 1, warnings: Vec::new() });
        let pool = RenderPool::start_with(Arc::new(report), 2, 2);
        let rendered = pool.render(job(b"")).await.expect("admitted").expect("rendered");
        let render_nice: i32 = String::from_utf8(rendered.pdf).unwrap().parse().unwrap();
        assert_eq!(render_nice, (nice() + 10).min(19), "this thread stays as it was");
    }
}
