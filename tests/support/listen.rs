//! Starting `docx2pdf serve` on port 0 and learning its port from the line it prints once it
//! listens: no free port guessed and released (another test could take it first), no polling.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A `serve` process that listens.
pub struct Listening {
    pub child: Child,
    pub port: u16,
    /// Everything it printed on stdout before listening (the first run's banner).
    pub printed: String,
}

/// How long `serve` may take to listen: generous (a debug build on a loaded CPU running
/// its migrations), yet an end to a hang.
const LISTEN_LIMIT: Duration = Duration::from_secs(120);

/// Spawns `command` (a `docx2pdf serve` without `--bind`) on 127.0.0.1, port 0, and waits
/// at most [`LISTEN_LIMIT`] for its `listening on ADDRESS` line. Its stdout is drained
/// from then on.
pub fn spawn(mut command: Command) -> Listening {
    let mut child = command.args(["--bind", "127.0.0.1:0"]).stdout(Stdio::piped()).spawn().expect("spawn serve");
    let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
    // The lines are read on a thread of their own, so the wait for them has a limit.
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || loop {
        let mut line = String::new();
        let read = out.read_line(&mut line).unwrap_or(0);
        let listening = line.starts_with("listening on ");
        if lines.send(line).is_err() || read == 0 {
            return;
        }
        if listening {
            // A full pipe would block the server's next print.
            let _ = std::io::copy(&mut out, &mut std::io::sink());
            return;
        }
    });
    let deadline = Instant::now() + LISTEN_LIMIT;
    let mut printed = String::new();
    let port = loop {
        let line = match received.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                let status = child.wait();
                panic!("serve did not listen within {LISTEN_LIMIT:?} ({status:?}); it printed {printed:?}");
            }
        };
        if line.is_empty() {
            let status = child.wait();
            panic!("serve exited before listening ({status:?}); it printed {printed:?}");
        }
        if let Some(address) = line.trim_end().strip_prefix("listening on ") {
            let address: std::net::SocketAddr = address.parse().expect("an address");
            break address.port();
        }
        printed.push_str(&line);
    };
    Listening { child, port, printed }
}
