//! Starting `docx2pdf serve` on port 0 and learning its port from the line it prints once it
//! listens: no free port guessed and released (another test could take it first), no polling.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A `serve` process that listens.
pub struct Listening {
    pub child: Child,
    pub port: u16,
    /// Everything it printed on stdout before listening (the first run's banner).
    pub printed: String,
}

/// Spawns `command` (a `docx2pdf serve` without `--bind`) on 127.0.0.1, port 0, and waits
/// for its `listening on ADDRESS` line. Its stdout is drained from then on.
pub fn spawn(mut command: Command) -> Listening {
    let mut child = command.args(["--bind", "127.0.0.1:0"]).stdout(Stdio::piped()).spawn().expect("spawn serve");
    let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut printed = String::new();
    let port = loop {
        let mut line = String::new();
        if out.read_line(&mut line).expect("read serve's stdout") == 0 {
            let status = child.wait();
            panic!("serve exited before listening ({status:?}); it printed {printed:?}");
        }
        if let Some(address) = line.trim_end().strip_prefix("listening on ") {
            let address: std::net::SocketAddr = address.parse().expect("an address");
            break address.port();
        }
        printed.push_str(&line);
    };
    // A full pipe would block the server's next print.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    Listening { child, port, printed }
}
