//! Every process a test runs has a time limit: `timed_output` and `timed_status` stand in
//! for `Command::output` and `Command::status`, kill the process when it overruns and fail
//! the test naming it, so a hung tool fails one test instead of stalling the run.

#![allow(dead_code)]

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest any process of the tests may run: generous (a debug build on a loaded CPU),
/// yet an end to a hang.
pub const PROCESS_LIMIT: Duration = Duration::from_secs(600);

/// `Command::output` and `Command::status` with [`PROCESS_LIMIT`].
pub trait Timed {
    /// Runs the command to its end, its output collected; panics when it overruns.
    fn timed_output(&mut self) -> std::io::Result<Output> {
        self.output_within(PROCESS_LIMIT)
    }
    /// [`Timed::timed_output`] with a limit of its own (a cold build).
    fn output_within(&mut self, limit: Duration) -> std::io::Result<Output>;
    /// Runs the command to its end, its output inherited; panics when it overruns.
    fn timed_status(&mut self) -> std::io::Result<ExitStatus>;
}

impl Timed for Command {
    fn output_within(&mut self, limit: Duration) -> std::io::Result<Output> {
        let mut child = self.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let status = wait_within(&mut child, limit, self);
        Ok(Output { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() })
    }

    fn timed_status(&mut self) -> std::io::Result<ExitStatus> {
        let mut child = self.stdin(Stdio::null()).spawn()?;
        Ok(wait_within(&mut child, PROCESS_LIMIT, self))
    }
}

/// Reads a pipe to its end on a thread of its own, so a full pipe never blocks the child.
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Waits for `child` at most `limit`; kills it and panics, naming `command`, past that.
pub fn wait_within(child: &mut Child, limit: Duration, command: &Command) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for a child process") {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} ran longer than {limit:?} and was killed");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
