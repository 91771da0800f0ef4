//! The real `docx2pdf` binary against a test database: its commands, a running `serve`, and
//! plain HTTP/1.1 requests to it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Output};
use std::time::Duration;

#[path = "../support/listen.rs"]
mod listen;
#[allow(clippy::duplicate_mod)]
#[path = "../support/clock.rs"]
mod clock;
#[path = "../support/timed.rs"]
mod timed;

use timed::Timed;

/// The multipart boundary of the uploads sent here.
const BOUNDARY: &str = "docx2pdf-pg-test-boundary";

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_docx2pdf");

/// Runs a command of the binary with `--database-url URL` appended; panics on failure.
pub fn run(url: &str, args: &[&str]) -> String {
    let out = run_raw(url, args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command of the binary with `--database-url URL` appended.
pub fn run_raw(url: &str, args: &[&str]) -> Output {
    Command::new(BIN).args(args).args(["--database-url", url]).env("DOCX2PDF_CLOCK_START", clock::now()).env("RUST_LOG", "warn").timed_output().expect("run docx2pdf")
}

/// Creates a paid account allowed `credits` a month and returns the text of a new key.
pub fn account_with_key(url: &str, name: &str, credits: u32) -> String {
    run(url, &["accounts", "create", "--name", name, "--plan", "paid", "--monthly-credits", &credits.to_string()]);
    let created = run(url, &["keys", "create", "--account", name]);
    created.lines().last().expect("the key on the last line").to_owned()
}

/// A running `docx2pdf serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// Its port on 127.0.0.1.
    pub port: u16,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts `serve` on `url` with extra flags, on a port of its choosing, and returns once
    /// it answers `/healthz`.
    pub fn start(url: &str, flags: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("serve.log");
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--database-url", url])
            .args(flags)
            .env("DOCX2PDF_CLOCK_START", clock::now())
            .env("RUST_LOG", "warn")
            .stderr(std::fs::File::create(&log).unwrap());
        let listening = listen::spawn(command);
        let server = Server { child: listening.child, port: listening.port, log, _dir: dir };
        assert_eq!(server.get("/healthz").0, 200, "{}", server.log());
        server
    }

    /// What the server logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// `GET path`: status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        exchange(self.port, head.as_bytes(), &[])
    }

    /// `POST /api/convert` of `file` with `key`: status and body (the PDF is read as text,
    /// lossily; the tests look at JSON errors only).
    pub fn convert(&self, key: &str, file: &[u8]) -> (u16, String) {
        let mut body = format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"document.docx\"\r\n\
             Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(file);
        body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
        let head = format!(
            "POST /api/convert HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\
             Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        exchange(self.port, head.as_bytes(), &body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends one request on a new connection and reads the whole answer.
fn exchange(port: u16, head: &[u8], body: &[u8]) -> (u16, String) {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else { return (0, String::new()) };
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    if stream.write_all(head).and_then(|()| stream.write_all(body)).is_err() {
        return (0, String::new());
    }
    let mut answer = Vec::new();
    if stream.read_to_end(&mut answer).is_err() {
        return (0, String::new());
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, body)
}
