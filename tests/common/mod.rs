//! Shared test helpers: DOCX fixtures, multipart bodies, and a service on a fresh database.

#![allow(dead_code)]

pub mod docx;
pub mod layout;
pub mod ole;
pub mod pdf;
pub mod python;
#[path = "../support/clock.rs"]
pub mod clock;
#[path = "../support/skip.rs"]
pub mod skip;
#[path = "../support/timed.rs"]
pub mod timed;

use std::sync::{Arc, OnceLock};

use timed::Timed;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use docx2pdf::clock::{unix_ms, Clock, ManualClock};
use docx2pdf::config::ServiceConfig;
use docx2pdf::db::{self, accounts::Plan, PoolOptions};
use docx2pdf::docx::PackageLimits;
use docx2pdf::http::AppState;
use docx2pdf::render::Renderer;
use sea_orm::DatabaseConnection;
use tempfile::TempDir;

/// The multipart boundary of the bodies built here.
pub const BOUNDARY: &str = "docx2pdf-test-boundary";

/// The DOCX media type clients label uploads with.
pub const DOCX_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/// A multipart/form-data body with one part named `name` holding `bytes`.
pub fn multipart(name: &str, bytes: &[u8]) -> Vec<u8> {
    multipart_named(name, Some("document.docx"), bytes)
}

/// [`multipart`] with the part's `filename` as given, or none at all.
pub fn multipart_named(name: &str, filename: Option<&str>, bytes: &[u8]) -> Vec<u8> {
    let filename = filename.map(|f| format!("; filename=\"{f}\"")).unwrap_or_default();
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"{filename}\r\nContent-Type: {DOCX_TYPE}\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// A multipart/form-data body with text fields `(name, value)` before the file part `file`.
pub fn form(file: &[u8], fields: &[(&str, &str)]) -> Vec<u8> {
    form_named(file, Some("document.docx"), fields)
}

/// [`form`] with the file part's `filename` as given, or none at all.
pub fn form_named(file: &[u8], filename: Option<&str>, fields: &[(&str, &str)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    body.extend_from_slice(&multipart_named("file", filename, file));
    body
}

/// Converts `bytes` with the real binary's `convert` and `flags`; the PDF.
pub fn convert_cli(bytes: &[u8], flags: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.docx"), dir.path().join("out.pdf"));
    std::fs::write(&input, bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_docx2pdf")).arg("convert").args(flags).arg(&input).arg(&output).timed_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read(&output).unwrap()
}

/// The entries of `X-Conversion-Warnings` that say what keeps the PDF from the PDF/UA or
/// PDF/A asked for (they come first), joined by `, `; `None` when there is none. The
/// header's other entries (fonts substituted, content not drawn) are left out.
pub fn conformance_warnings(headers: &actix_web::http::header::HeaderMap) -> Option<String> {
    let value = headers.get("X-Conversion-Warnings")?.to_str().expect("an ASCII header");
    let entries: Vec<&str> = value.split(", ").filter(|e| e.starts_with("pdfua_") || e.starts_with("pdfa_")).collect();
    (!entries.is_empty()).then(|| entries.join(", "))
}

/// The Content-Type header for bodies built by [`multipart`].
pub fn multipart_type() -> String {
    format!("multipart/form-data; boundary={BOUNDARY}")
}

/// `POST /api/convert` with `key` and a multipart `body` (from [`form`] or [`multipart`]).
pub fn convert_request(key: &str, body: Vec<u8>) -> actix_http::Request {
    convert_request_builder(Some(key), body).to_request()
}

/// The builder of [`convert_request`], for a test that adds headers or sends no key.
pub fn convert_request_builder(key: Option<&str>, body: Vec<u8>) -> actix_web::test::TestRequest {
    let mut req = actix_web::test::TestRequest::post().uri("/api/convert").insert_header(("Content-Type", multipart_type()));
    if let Some(key) = key {
        req = req.insert_header(("Authorization", format!("Bearer {key}")));
    }
    req.set_payload(body)
}

/// One renderer (fonts loaded once) for every test of a test binary.
pub fn renderer() -> Arc<Renderer> {
    static RENDERER: OnceLock<Arc<Renderer>> = OnceLock::new();
    RENDERER
        .get_or_init(|| Arc::new(Renderer::new(&[], PackageLimits::default())))
        .clone()
}

/// Settings of a test service.
#[derive(Debug, Clone)]
pub struct Settings {
    pub workers: usize,
    pub queue: usize,
    pub max_upload_bytes: u64,
    pub render_timeout: Duration,
    /// The memory budget of one render, bytes (counted only in a test binary whose global
    /// allocator counts).
    pub render_memory: Option<usize>,
    pub now: DateTime<Utc>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            workers: 2,
            queue: 64,
            max_upload_bytes: 50 * 1_048_576,
            render_timeout: Duration::from_secs(60),
            render_memory: None,
            now: Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap(),
        }
    }
}

/// A service on a fresh SQLite file, with a settable clock.
pub struct TestService {
    pub dir: TempDir,
    pub db: DatabaseConnection,
    pub clock: ManualClock,
    pub state: AppState,
}

impl TestService {
    /// Starts the ledger and the render pool; call inside an actix system (`#[actix_web::test]`).
    pub async fn start(settings: Settings) -> TestService {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("ledger.db").display()
        );
        let db = db::connect(&url, &PoolOptions::default())
            .await
            .expect("database");
        let clock = ManualClock::new(settings.now);
        let config = ServiceConfig {
            max_upload_bytes: settings.max_upload_bytes,
            render_timeout: settings.render_timeout,
            render_memory: settings.render_memory,
        };
        let state = AppState::start(
            db.clone(),
            renderer(),
            settings.workers,
            settings.queue,
            Arc::new(clock.clone()) as Arc<dyn Clock>,
            config,
        );
        TestService {
            dir,
            db,
            clock,
            state,
        }
    }

    /// Creates an account with one key and returns the key's text.
    pub async fn account(&self, name: &str, plan: Plan, credits: i64) -> String {
        let now = unix_ms(self.clock.now());
        db::accounts::create(&self.db, name, plan, credits, now)
            .await
            .expect("account");
        db::keys::create(&self.db, name, now)
            .await
            .expect("key")
            .text
    }
}

/// A render pool whose renders wait for the test: each says when it has started, then
/// renders for real once the test lets it go, so a test can act while a render is in flight.
pub struct GatedPool {
    started: tokio::sync::mpsc::UnboundedReceiver<()>,
    go: std::sync::mpsc::Sender<()>,
}

impl GatedPool {
    /// Gives `state` a pool of one gated worker.
    pub fn install(state: &mut AppState) -> GatedPool {
        let (started_tx, started) = tokio::sync::mpsc::unbounded_channel();
        let (go, go_rx) = std::sync::mpsc::channel::<()>();
        let go_rx = std::sync::Mutex::new(go_rx);
        let renderer = renderer();
        let gated = move |bytes: &[u8], deadline: &docx2pdf::render::Deadline, options: docx2pdf::pdf::PdfOptions, data: Option<&docx2pdf_render::TemplateData>| {
            let _ = started_tx.send(());
            go_rx.lock().unwrap().recv_timeout(Duration::from_secs(30)).expect("the test lets the render go");
            docx2pdf::render::convert_filled(&renderer, bytes, deadline, options, data)
        };
        state.pool = docx2pdf::render::RenderPool::start_with(Arc::new(gated), 1, 4);
        GatedPool { started, go }
    }

    /// Waits for the render to start, runs `meanwhile`, then lets the render finish.
    pub async fn while_rendering(&mut self, meanwhile: impl std::future::Future<Output = ()>) {
        self.started.recv().await.expect("a render started");
        meanwhile.await;
        self.go.send(()).unwrap();
    }
}
