//! The real `docx2pdf` binary for process-level tests: accounts made with its commands, a
//! `serve` process on the port it bound, a plain HTTP/1.1 client over TCP, and `usage`.

#![allow(dead_code)]

use crate::common::timed::Timed;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use crate::common::{multipart, multipart_type};

#[path = "listen.rs"]
pub mod listen;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_docx2pdf");

/// The month of the tests' clock (`tests/support/clock.rs`), which [`usage`] reads.
pub use crate::common::clock::MONTH;

/// The SQLite database of a test folder.
pub fn database_url(dir: &Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("ledger.db").display())
}

/// Runs a command of the binary on the folder's database, which must succeed.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    let out = run_unchecked(dir, args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Runs a command of the binary on the folder's database, whether it succeeds or not.
pub fn run_unchecked(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("DOCX2PDF_DATABASE_URL", database_url(dir))
        .env("DOCX2PDF_CLOCK_START", crate::common::clock::now())
        .env("RUST_LOG", "warn")
        .timed_output()
        .expect("run docx2pdf")
}

/// Creates a paid account with `credits` a month and returns a key of it.
pub fn account(dir: &Path, name: &str, credits: u32) -> String {
    run(dir, &["accounts", "create", "--name", name, "--plan", "paid", "--monthly-credits", &credits.to_string()]);
    let out = run(dir, &["keys", "create", "--account", name]);
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().last().expect("the key is the last line").trim().to_owned()
}

/// An account's balance for [`MONTH`], the month of the conversions, from `docx2pdf usage`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Usage {
    pub used: i64,
    pub held: i64,
    pub remaining: i64,
    /// The credits of each ledger entry.
    pub entries: Vec<i64>,
}

/// Reads `docx2pdf usage --account NAME --month MONTH`.
pub fn usage(dir: &Path, name: &str) -> Usage {
    let out = run(dir, &["usage", "--account", name, "--month", MONTH]);
    let text = String::from_utf8(out.stdout).unwrap();
    let field = |key: &str| -> i64 {
        let line = text.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in {text}"));
        line[key.len()..].trim().parse().unwrap()
    };
    let entries = text
        .lines()
        .filter(|l| l.contains(" credits "))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    Usage { used: field("used:"), held: field("held:"), remaining: field("remaining:"), entries }
}

/// A running `docx2pdf serve`, killed when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
    /// The file its stderr goes to, when it goes to one.
    pub stderr: Option<PathBuf>,
}

impl Server {
    /// Starts `serve` on the folder's database with `args`, on a port of its choosing, and
    /// returns once it listens.
    pub fn start(dir: &Path, args: &[&str]) -> Server {
        // One log per server started in the folder.
        let n = std::fs::read_dir(dir).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().starts_with("serve-")).count();
        let stderr = dir.join(format!("serve-{n}.log"));
        // An empty working folder and temp folder of its own, so a test can check that the
        // server writes nowhere but its database.
        for sub in ["cwd", "tmp"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let mut command = Command::new(BIN);
        command
            .current_dir(dir.join("cwd"))
            .env("TMPDIR", dir.join("tmp"))
            .arg("serve")
            .args(args)
            .env("DOCX2PDF_DATABASE_URL", database_url(dir))
            .env("DOCX2PDF_CLOCK_START", crate::common::clock::now())
            .env("RUST_LOG", "info")
            .stderr(std::fs::File::create(&stderr).unwrap());
        let listening = listen::spawn(command);
        let server = Server { child: listening.child, port: listening.port, stderr: Some(stderr) };
        assert_eq!(get(server.port, "/healthz").0, 200, "{}", server.log());
        server
    }

    /// A server its caller spawned with [`listen::spawn`], its stderr set up there.
    pub fn of(listening: listen::Listening) -> Server {
        Server { child: listening.child, port: listening.port, stderr: None }
    }

    /// What the server logged so far to its stderr file.
    pub fn log(&self) -> String {
        self.stderr.as_ref().and_then(|path| std::fs::read_to_string(path).ok()).unwrap_or_default()
    }

    /// Sends a signal to the server process.
    pub fn signal(&self, signal: &str) {
        let ok = Command::new("kill").args([&format!("-{signal}"), &self.child.id().to_string()]).timed_status().unwrap();
        assert!(ok.success());
    }

    /// Waits for the process to exit, at most `limit`.
    pub fn wait(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer: status, head and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Answer {
    /// The JSON error `code`, when the body is one.
    pub fn code(&self) -> String {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| v["code"].as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    /// The JSON error message, when the body is one.
    pub fn message(&self) -> String {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| v["message"].as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// Sends raw request bytes and reads the whole answer (the request says `Connection: close`);
/// status 0 when nothing answers.
pub fn exchange(port: u16, request: &[u8]) -> Answer {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else { return parse(b"") };
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    // The server may answer (413) before the body is all sent; keep reading then.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    parse(&answer)
}

fn parse(answer: &[u8]) -> Answer {
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").map_or(answer.len(), |p| p + 4);
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Answer { status, head, body: answer[split..].to_vec() }
}

/// A `GET` of `path`; status 0 when nothing answers.
pub fn get(port: u16, path: &str) -> (u16, Vec<u8>) {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else { return (0, Vec::new()) };
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let _ = stream.write_all(format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let a = parse(&answer);
    (a.status, a.body)
}

/// The request head and multipart body of one conversion of `file`.
pub fn convert_request(key: &str, file: &[u8]) -> Vec<u8> {
    convert_request_of(key, multipart("file", file))
}

/// The request head of one conversion, followed by `body`, a multipart form.
pub fn convert_request_of(key: &str, body: Vec<u8>) -> Vec<u8> {
    let mut request = format!(
        "POST /api/convert HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        multipart_type(),
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(&body);
    request
}

/// One conversion over TCP.
pub fn post_convert(port: u16, key: &str, file: &[u8]) -> Answer {
    exchange(port, &convert_request(key, file))
}

/// Sends the first `sent` bytes of a conversion request, waits `stall` (the server, having
/// read the head, waits for the rest of the body), then closes the connection.
pub fn abandon(port: u16, request: &[u8], sent: usize, stall: Duration) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.write_all(&request[..sent.min(request.len())]).unwrap();
    std::thread::sleep(stall);
    stream.shutdown(Shutdown::Both).unwrap();
}

/// Sends a whole conversion request and closes the connection after `wait`, before the
/// answer (a client that gives up during the render).
pub fn give_up_after(port: u16, request: &[u8], wait: Duration) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.write_all(request).unwrap();
    std::thread::sleep(wait);
    drop(stream);
}

/// Lines of the server log containing `needle`.
pub fn log_lines(server: &Server, needle: &str) -> Vec<String> {
    BufReader::new(server.log().as_bytes()).lines().map_while(Result::ok).filter(|l| l.contains(needle)).collect()
}
